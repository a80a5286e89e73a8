"""The battle's dice: seeded for play, loaded for tests; the only place with randomness."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol


class DiceExhausted(Exception):
    """Loaded dice were asked for more results than they were given."""


class Dice(Protocol):
    """Something that rolls one die of a given size."""

    def roll(self, sides: int) -> int: ...

    def describe(self) -> str: ...


class SeededDice:
    """Fair dice from a recorded seed, so a battle can be replayed exactly."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, sides: int) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        return self._rng.randint(1, sides)

    def describe(self) -> str:
        return f"seed {self.seed}"

    def __deepcopy__(self, memo: dict[int, object]) -> SeededDice:
        """The same dice at the same point of their sequence. The generator's own state is
        copied whole, not element by element as `copy.deepcopy` would (every battle keeps a
        copy of its dice to be forked from, issue #11)."""
        clone = type(self).__new__(type(self))
        memo[id(self)] = clone
        clone.seed = self.seed
        clone._rng = random.Random()
        clone._rng.setstate(self._rng.getstate())
        return clone


class LoadedDice:
    """Dice that give a scripted list of results, in order, and fail loudly when they run out."""

    def __init__(self, results: Sequence[int]) -> None:
        self._results = list(results)
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used >= len(self._results):
            raise DiceExhausted(
                f"the loaded dice ran out after {len(self._results)} results "
                f"(a d{sides} was needed)"
            )
        value = self._results[self.used]
        if not 1 <= value <= sides:
            raise DiceExhausted(
                f"loaded result #{self.used + 1} is {value}, which a d{sides} cannot roll"
            )
        self.used += 1
        return value

    @property
    def remaining(self) -> int:
        return len(self._results) - self.used

    def describe(self) -> str:
        return f"loaded dice ({self.remaining} results left)"


def fresh_seed() -> int:
    """A seed for a battle started without one; it is recorded, so the battle still replays."""
    return random.SystemRandom().randrange(2**31)
