"""Every outcome of a resolution's dice, each with its chance: exact odds without sampling."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import TypeVar

from sim.core.dice import Dice

T = TypeVar("T")

# No rule here rolls this many dice in one resolution (and none explodes): a run that does is
# a mistake in the test, which would otherwise enumerate for ever.
MAX_ROLLS = 12


class PathDice:
    """Dice that give the results of one path of the tree: the recorded results first, then 1
    for each new roll; they note the sides of every die rolled."""

    def __init__(self, results: list[int], sides: list[int]) -> None:
        self.results = results
        self.sides: list[int] = []
        self._known = sides  # the dice the path's recorded results were rolled on

    def roll(self, sides: int) -> int:
        index = len(self.sides)
        assert index < MAX_ROLLS, (
            f"a run rolled more than {MAX_ROLLS} dice ({self.sides} and a d{sides}): "
            "a loop in the test, or dice that explode"
        )
        if index < len(self.results):
            # A deterministic run rolls the same die at the same point of the same path.
            assert self._known[index] == sides, (
                f"roll #{index + 1} was a d{self._known[index]} on this path before, "
                f"a d{sides} now: the run is not deterministic given its dice"
            )
        else:
            assert sides >= 1, f"a die needs at least one side, not {sides}"
            self.results.append(1)
        self.sides.append(sides)
        return self.results[index]

    def describe(self) -> str:
        return f"every roll, path {self.results}"


def every_roll(run: Callable[[Dice], T]) -> Iterator[tuple[float, T]]:
    """`run(dice)` once for every path of the tree of die results, as (chance of the path,
    what the run returned); the chances sum to 1. The paths come in the order of an odometer:
    the last die that can go higher does, the dice after it are rolled afresh.

    >>> sevens = sum(w for w, total in every_roll(lambda d: d.roll(6) + d.roll(6)) if total == 7)
    >>> round(sevens, 12), round(6 / 36, 12)
    (0.166666666667, 0.166666666667)
    >>> def ladder(dice: Dice) -> int:  # a second die only on a 1, and a d4 then
    ...     first = dice.roll(2)
    ...     return first if first == 2 else 10 + dice.roll(4)
    >>> [(w, r) for w, r in every_roll(ladder)]
    [(0.125, 11), (0.125, 12), (0.125, 13), (0.125, 14), (0.5, 2)]
    >>> def endless(dice: Dice) -> None:
    ...     while True:
    ...         dice.roll(6)
    >>> list(every_roll(endless))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    AssertionError: a run rolled more than 12 dice ([6, 6, ...] and a d6): a loop in the test...
    """
    results: list[int] = []
    sides: list[int] = []
    while True:
        dice = PathDice(results, sides)
        outcome = run(dice)
        assert len(dice.sides) == len(results), (
            f"the run stopped after {len(dice.sides)} rolls on a path it rolled "
            f"{len(results)} on before: it is not deterministic given its dice"
        )
        yield 1.0 / math.prod(dice.sides), outcome
        results, sides = dice.results, dice.sides
        while results and results[-1] == sides[-1]:
            results.pop()
            sides.pop()
        if not results:
            return
        results[-1] += 1


def chance(run: Callable[[Dice], object]) -> float:
    """The exact chance that `run(dice)` comes out true.

    >>> chance(lambda d: d.roll(8) > d.roll(8))
    0.4375
    """
    return sum(weight for weight, outcome in every_roll(run) if outcome)
