"""The ranking of one turn's legal decisions: each scored, best first, a Choice made when asked."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

import numpy as np
import numpy.typing as npt

from sim.ai.choice import Choice
from sim.ai.context import Context
from sim.ai.evaluators import EVALUATORS, evaluator_of
from sim.ai.evaluators.move import group_values, move
from sim.ai.price import bonus_price, move_bonus_prices
from sim.ai.weights import Weights
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.creature import creatures, incapacitated, team_of
from sim.core.world import World
from sim.play.legal import Legal, Listing, MoveGroup
from sim.play.rulebook import RULEBOOK
from sim.rules.objectives import Objective


def rank(
    world: World,
    unit: str,
    listed: Sequence[Legal],
    *,
    objectives: tuple[Objective, ...] = (),
    weights: Weights | None = None,
) -> Ranking:
    """The legal decisions of `unit`'s turn, best first (stable: the legal order breaks ties).
    Of a `Listing`, each group of moves is scored at once (`move_values`) and a move's Choice
    made only when it is asked for: `normal` reads the first, of hundreds."""
    if isinstance(listed, Listing):
        head: tuple[Legal, ...] = listed.head
        groups = listed.groups
    else:
        head, groups = tuple(listed), ()
    moving = tuple(legal for legal in head if isinstance(legal.decision, a.Movement))
    context = Context(world, unit, objectives, weights, moves=groups, listed_moves=moving)
    choices = [score(context, legal) for legal in head]
    scores = np.array([choice.score for choice in choices], dtype=np.float64)
    scores = np.concatenate([scores, *(group_scores(context, group) for group in groups)])
    # A stable sort on the negated scores: the order `sorted` gives with key -score.
    order = np.argsort(-scores, kind="stable")
    return Ranking(context, choices, groups, scores, order)


class Ranking(Sequence[Choice]):
    """`rank`'s answer: the Choices best first, each move's made (by `score`, which gives the
    score it was ranked by) only when it is read."""

    def __init__(
        self,
        context: Context,
        head: list[Choice],
        groups: tuple[MoveGroup, ...],
        scores: npt.NDArray[np.float64],
        order: npt.NDArray[np.intp],
    ) -> None:
        self._context = context
        self._head = head
        self._groups = groups
        self._ends = np.cumsum([len(head), *(len(group) for group in groups)])
        self._scores = scores
        self._order = order.tolist()
        self._made: dict[int, Choice] = {}

    def __len__(self) -> int:
        return len(self._order)

    @property
    def scores(self) -> tuple[float, ...]:
        """Every decision's score in the listing's order (not the ranking's)."""
        return tuple(self._scores.tolist())

    @overload
    def __getitem__(self, index: int) -> Choice: ...

    @overload
    def __getitem__(self, index: slice) -> list[Choice]: ...

    def __getitem__(self, index: int | slice) -> Choice | list[Choice]:
        if isinstance(index, slice):
            return [self._choice(i) for i in self._order[index]]
        return self._choice(self._order[index])

    def __iter__(self) -> Iterator[Choice]:
        for i in self._order:
            yield self._choice(i)

    def _choice(self, i: int) -> Choice:
        if i < len(self._head):
            return self._head[i]
        made = self._made.get(i)
        if made is None:
            g = int(np.searchsorted(self._ends, i, side="right")) - 1
            made = score(self._context, self._groups[g].at(i - int(self._ends[g])))
            self._made[i] = made
        return made


def worthless(weights: Weights) -> frozenset[type[Action]]:
    """The action types `score` weighs at -1 whatever the state: no evaluator, or one the
    weight set leaves out (`off`). Ending the turn scores 0, so a ranking's first is never one
    of them, and a level that reads only its first need not list them."""
    return frozenset(
        kind
        for kind, mechanic in RULEBOOK.items()
        if mechanic.evaluator is None
        or mechanic.evaluator not in EVALUATORS
        or mechanic.evaluator in weights.off
    )


def group_scores(context: Context, group: MoveGroup) -> npt.NDArray[np.float64]:
    """`score` of every move of `group`, at once: `move_values` less what its Bonus Actions
    and slowing cost, as `score` takes them off."""
    named = RULEBOOK[group.kind].evaluator
    if named is None or named not in EVALUATORS or named in context.w.off:
        return np.full(len(group), -1.0)
    if EVALUATORS[named] is not move:
        return np.array([score(context, legal).score for legal in group], dtype=np.float64)
    value = group_values(context, group)
    if group.cost.bonus:
        value = value - move_bonus_prices(context, group)
    if group.slow:
        value = value - context.w.slowed
    return value


def score(context: Context, legal: Legal) -> Choice:
    """One legal decision weighed by the evaluator its kind's registry entry names, less
    what its Bonus Actions and slowing cost."""
    decision = legal.decision
    assert isinstance(decision, Action)
    evaluate = evaluator_of(decision)
    if evaluate is None or RULEBOOK[type(decision)].evaluator in context.w.off:
        return Choice(decision, -1.0, f"{decision.name}: nothing to gain now")
    target = getattr(decision, "target", "")
    hostile = not isinstance(decision, a.Aid | a.Administer | a.Toss | a.AbilityAction)
    if hostile and target and incapacitated(context.world, target):
        # Beating a creature that is already down wins nothing (R-C6, R-K2).
        return Choice(decision, -1.0, f"{decision.name}: {target} is already down")
    if (
        hostile
        and target in creatures(context.world)
        and team_of(context.world, target) == context.team
    ):
        # The rules let a creature strike an ally; its damage and kill chance are a loss
        # to its own side, not a gain.
        return Choice(decision, -1.0, f"{decision.name}: {target} is on its own side")
    value, why = evaluate(context, decision, legal)
    # Bonus Actions left at the end of the turn pay for reactions until the next one
    # (R-B2): spending one on its own turn gives up a Dodge, Parry or Block.
    if legal.cost is not None:
        value -= bonus_price(context, decision, legal.cost.bonus)
    # A slowed action costs more for the same effect (R-B6): only worth it when nothing
    # else is, and never before the same action unslowed.
    if decision.slow:
        value -= context.w.slowed
    return Choice(decision, value, why)
