"""Legal decisions: every decision the battle accepts now, each with what it costs.

The candidates are each action type's, as its registry entry says (sim/play/rulebook.py; the
generators live in the mechanic modules): from the world, the reach map for movement, dives
included; creatures in sight for targets and Assist's pairs; the items a creature holds, carries
or stands by, and a cell next to each ally to toss them to; the spells and abilities it knows.
Nothing here names an action type but the moves (dives too), ending the turn (asked first, never
slowed) and the spells and abilities (priced one by one). Each candidate is then put to the
checks `Battle.check` makes, as `submit` does, so a listed decision is never refused. In a
reaction window the decisions are the window's options, "none" included, and each option
slowed where its slowed cost can be paid (R-B7). Like PettingZoo's action mask, this one list
serves the AI, the random-play tests and the client.

Only the creature the battle waits for is listed: a grappler may also let go on another's turn
(R-G4) and a side may set a reaction policy at any time, but those are not what `pending` asks.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload

from sim.core import actions as a
from sim.core.actions import Action, Cost, Refusal
from sim.core.components import Budget
from sim.core.condition import Condition
from sim.core.creature import has
from sim.core.geometry import Pos
from sim.core.numbers import Tier
from sim.play.engine import AwaitingAction, AwaitingReaction, Battle, Decision, ReactionChoice
from sim.play.rulebook import LISTED, RULEBOOK
from sim.rules.budget import given_back, refilled
from sim.rules.candidates import Make, Over, Scene, Unless
from sim.rules.combat.casting import known
from sim.rules.combat.reactions import NONE
from sim.rules.reach.reachmap import ORDER, Path, ends_by_kind

Shift = tuple[bool, bool]  # (slow, quicken), R-B6
PLAIN: Shift = (False, False)


@dataclass(frozen=True, slots=True)
class Legal:
    """One decision the battle accepts now; `cost` is None for a reaction answer (its Bonus
    Actions, or slowed its half-actions, are paid as the reaction resolves)."""

    decision: Decision
    cost: Cost | None


def legal_decisions(battle: Battle, *, slowed: bool = True) -> tuple[Legal, ...]:
    """Every decision `battle.pending` accepts now, in a stable order. `slowed=False` leaves
    out the Slow variants (R-B6, R-B7), which only ever cost more and so interest a player or
    an AI rarely. A Slow or Quicken variant is listed where it changes the cost (or, for an
    Extended Action, the turns it takes)."""
    return tuple(listing(battle, slowed=slowed))


class Listing(Sequence[Legal]):
    """`legal_decisions` as a sequence, in the same order, that makes each move's Legal only
    when it is asked for: a move is one of hundreds of cells, and a policy that draws one
    decision (the random level) needs only that one (issue #13)."""

    def __init__(self, head: tuple[Legal, ...], moves: tuple[MoveGroup, ...] = ()) -> None:
        self._head = head
        self._moves = moves
        self._len = len(head) + sum(len(group) for group in moves)

    def __len__(self) -> int:
        return self._len

    @property
    def head(self) -> tuple[Legal, ...]:
        """Every decision but the moves over a reach map, in the listing's order (first)."""
        return self._head

    @property
    def groups(self) -> tuple[MoveGroup, ...]:
        """The moves, one group per Movement Action and variant, after `head` in this order:
        for a caller that weighs a group's cells at once rather than one Legal at a time."""
        return self._moves

    @overload
    def __getitem__(self, index: int) -> Legal: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Legal, ...]: ...

    def __getitem__(self, index: int | slice) -> Legal | tuple[Legal, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(index)
        if index < len(self._head):
            return self._head[index]
        index -= len(self._head)
        for group in self._moves:
            if index < len(group):
                return group.at(index)
            index -= len(group)
        raise AssertionError("unreachable: the lengths add up")  # pragma: no cover

    def __iter__(self) -> Iterator[Legal]:
        yield from self._head
        for group in self._moves:
            yield from group

    def kinds(self) -> Iterator[Legal]:
        """Every decision but moves, and the first move of each Movement Action and variant:
        the others differ from it only by their cell (same cost). `kinds(battle)`, what the
        client's action bar reads, is this of a listing that asked each action type's
        candidates only until one was accepted."""
        yield from self._head
        for group in self._moves:
            yield group.at(0)


@dataclass(frozen=True, slots=True)
class MoveGroup:
    """The moves of one Movement Action and variant: one per cell of its reach map."""

    kind: type[a.Movement]
    unit: str
    slow: bool
    quicken: bool
    submerged: bool
    cost: Cost
    xs: tuple[int, ...]
    ys: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.xs)

    def at(self, index: int) -> Legal:
        to = Pos(self.xs[index], self.ys[index])
        return Legal(
            _move(self.kind, self.unit, to, self.slow, self.quicken, self.submerged), self.cost
        )

    def __iter__(self) -> Iterator[Legal]:
        for index in range(len(self.xs)):
            yield self.at(index)


def listing(
    battle: Battle, *, slowed: bool = True, without: frozenset[type[Action]] = frozenset()
) -> Listing:
    """`legal_decisions`, each move made only when asked for (`Listing`); `without`: action
    types left out, neither made nor put to the check (a policy that sees nothing to gain by
    them: the order of the rest is the same)."""
    return _listing(battle, slowed, first=False, without=without)


def kinds(battle: Battle, *, slowed: bool = True) -> tuple[Legal, ...]:
    """The kinds of decision open now, which is all the client's action bar needs: of
    `legal_decisions`, in its order, the first decision of each action type (for a spell or
    an ability, of each one) with each of its variants, and the first move of each Movement
    Action and variant. The others differ from it only by their target, item or cell, never
    by their cost, so the candidates of a type are put to the check only until one is
    accepted."""
    return tuple(_listing(battle, slowed, first=True).kinds())


def _listing(
    battle: Battle,
    slowed: bool,
    *,
    first: bool,
    without: frozenset[type[Action]] = frozenset(),
) -> Listing:
    """`listing`; `first`: only the first decision of each action type but moves (`kinds`)."""
    pending = battle.pending
    if isinstance(pending, AwaitingReaction):
        return Listing(_answers(battle, pending, slowed))
    if not isinstance(pending, AwaitingAction):
        return Listing(())
    world, unit = battle.world, pending.unit
    if isinstance(battle.check(a.EndTurn(unit)), Refusal):
        return Listing(())  # what refuses ending the turn (the actor cannot act) refuses all
    shifts = [PLAIN]
    if slowed:
        shifts.append((True, False))
    if has(world, unit, Condition.QUICKENED):  # R-B6: Quicken needs a source (R-K3)
        shifts.append((False, True))
    prices = _Prices(battle, shifts)
    out: list[Legal] = []
    seen: set[Action] = set()
    # The types whose generators need not be asked again: those the budget pays for in no
    # variant (the price reads the type, never the target), and, when only the first of each
    # is listed, those listed. A generator makes its own type only (tests/play/test_registry.py).
    closed: set[tuple[type[Action], str]] = {(kind, "") for kind in without}
    for candidate in _plain_candidates(Scene(world, unit), closed):
        action = candidate.action if isinstance(candidate, Unless) else candidate
        key = _type(action)
        if key in closed:
            continue
        paid = prices.listed(action, key)
        if not paid:
            closed.add(key)  # what is not paid now is not, however often it comes
            continue
        if action in seen:
            continue
        seen.add(action)
        mechanic = RULEBOOK.get(type(action))
        if mechanic is None or mechanic.check(world, action) is not None:
            continue
        if isinstance(candidate, Unless) and candidate.same():
            continue
        out.extend(Legal(_shifted(action, shift), cost) for shift, cost in paid)
        if first:
            closed.add(key)
    return Listing(tuple(out), tuple(_moves(battle, unit, prices, first, without)))


def _answers(battle: Battle, pending: AwaitingReaction, slowed: bool) -> tuple[Legal, ...]:
    """The window's options, "none" included, then each slowed where it can be paid (R-B7)."""
    out = [Legal(ReactionChoice(pending.unit, option), None) for option in pending.options]
    if slowed:
        for option in pending.options:
            if option == NONE:
                continue  # declining costs nothing, so it cannot be slowed
            answer = ReactionChoice(pending.unit, option, slow=True)
            if battle.check_answer(answer) is None:
                out.append(Legal(answer, None))
    return tuple(out)


class _Prices:
    """What `action` costs in each variant (plain, slowed, quickened) that is listed.

    This is `Battle.check` in parts. What it asks first (the battle goes on, the actor has the
    turn and can act) `legal_decisions` asks once, of ending the turn. The price
    (`Battle.priced`) reads the actor's budget and conditions and, of the action, only its
    flags and what its type says of its cost (`_paying`), never its target, item or cell, so
    it is asked once per variant and shape of cost: an Attack, a Trip and a Shove (each a ½
    Action) share one. The action's own rules (the mechanic's check) read the world, never the
    flags, so they are asked once per action, and only when some variant can be paid."""

    def __init__(self, battle: Battle, shifts: list[Shift]) -> None:
        self.battle = battle
        self.shifts = shifts
        self.known: dict[tuple[type[Action], str], list[tuple[Shift, Cost]]] = {}
        self.by_cost: dict[Hashable, list[tuple[Shift, Cost]]] = {}

    def listed(
        self, action: Action, key: tuple[type[Action], str] | None = None
    ) -> list[tuple[Shift, Cost]]:
        """The variants of `action` the budget pays for, each with its cost; a variant only
        where it costs something else than the plain action (or, an Extended Action, takes
        another number of turns). Ending the turn is never slowed or quickened. `key`: the
        action's `_type`, when known."""
        found = self.known.get(key or _type(action))
        if found is None:
            found = self._listed(action)
            self.known[key or _type(action)] = found
        return found

    def _listed(self, action: Action) -> list[tuple[Shift, Cost]]:
        paying = _paying(action)
        found = self.by_cost.get(paying)
        if found is None:
            found = []
            plain: Cost | Refusal | None = None
            for shift in self.shifts if not isinstance(action, a.EndTurn) else [PLAIN]:
                cost = self.battle.priced(_shifted(action, shift))
                if shift == PLAIN:
                    plain = cost
                elif cost == plain and not (isinstance(cost, Cost) and cost.tier is Tier.EXTENDED):
                    continue
                if not isinstance(cost, Refusal):
                    found.append((shift, cost))
            self.by_cost[paying] = found
        return found


def _paying(action: Action) -> Hashable:
    """What the price of `action` reads of it beside its actor and flags (sim/rules/budget.py
    `price`, `given_back`): of a spell or an ability its type and name (its tier is the rules
    data's), of ending the turn its type, of any other action its type's tier, kind of Free
    Action and extra Bonus Action; a refusal's words name the action, but none is listed."""
    if isinstance(action, a.AbilityAction | a.EndTurn):
        return _type(action)
    return (action.tier, action.free_kind, action.extra_bonus)


def _type(action: Action) -> tuple[type[Action], str]:
    """An action's type, and for a spell or ability which one: what the listing stops asking
    the generators for once it is not paid (or, for `kinds`, once one is listed)."""
    return (type(action), action.ability if isinstance(action, a.AbilityAction) else "")


def _shifted(action: Action, shift: Shift) -> Action:
    slow, quicken = shift
    return action if shift == PLAIN else replace(action, slow=slow, quicken=quicken)


def _moves(
    battle: Battle,
    unit: str,
    prices: _Prices,
    first: bool,
    without: frozenset[type[Action]] = frozenset(),
) -> Iterator[MoveGroup]:
    """One decision per Movement Action over its reach map (all but Climb), variant and cell it
    can end in (R-M), by
    `to`: the engine plans the path as the reach map found it; dives (a Swim submerged, R-M8)
    too.

    A move to a cell of the reach map is accepted whenever its kind is (the reach maps and the
    move check agree: tests/rules/reach/test_reach_property.py), so for each kind only one move is
    put to the move's own check, to answer for the kind: to the cheapest cell, along the path the
    reach map found (given by `to`, the check would search again, and for a Sprint further than the
    map: as far as the best roll); every cell takes the kind's price. The cells are each kind's
    reach map's, read off the searches without making the maps (`ends_by_kind`). `first` (what
    `kinds` lists): a Jump's landings, each put to its check, are looked for only until the first,
    whose move then answers for the kind."""
    world = battle.world
    quicken = (False, True) in prices.shifts
    # R-B5: a move breaks an Extended Action in progress and is paid from the turn it gives back.
    budget = given_back(world, a.Walk(unit))
    listed: list[tuple[type[a.Movement], list[tuple[Shift, Cost]], Budget | None]] = []
    for kind in ORDER:
        if kind in without:
            continue
        if not any(found.over is Over.REACH for found in RULEBOOK[kind].candidates):
            continue  # a Climb: put to the check cell by cell with the other actions
        paid = prices.listed(kind(unit))
        if not paid:
            continue
        # Where a move goes does not depend on its price; a variant the budget pays for when
        # the plain move is not (a Step slowed to ½ with no Bonus Action left, R-B6) goes
        # where the plain one would with the budget to pay it.
        paying = budget
        if all(shift != PLAIN for shift, _ in paid):
            paying = refilled(world.rules)
        listed.append((kind, paid, paying))
    # Priced Quickened when it can be: the cheapest variant decides what is in reach.
    asked = tuple((kind, paying) for kind, _, paying in listed)
    ends = ends_by_kind(world, unit, asked, quicken=quicken, first=first)
    swims = tuple(one for one in asked if one[0] is a.Swim)
    dives = (
        ends_by_kind(world, unit, swims, submerged=True, quicken=quicken, first=first)
        if swims
        else {}
    )
    for kind, paid, _ in listed:
        for submerged, found in ((False, ends), (True, dives)):
            cells = found.get(kind)
            if cells is None:
                continue
            move = _along(kind, unit, cells.nearest, submerged)
            if RULEBOOK[kind].check(world, move) is not None:
                continue
            for (slow, quick), cost in paid:
                yield MoveGroup(kind, unit, slow, quick, submerged, cost, cells.xs, cells.ys)


def _move(
    kind: type[a.Movement], unit: str, to: Pos, slow: bool, quicken: bool, submerged: bool
) -> a.Movement:
    if submerged:
        return a.Swim(unit, to=to, slow=slow, quicken=quicken, submerged=True)
    return kind(unit, to=to, slow=slow, quicken=quicken)


def _along(kind: type[a.Movement], unit: str, route: Path, submerged: bool) -> a.Movement:
    """`kind` along a reach map's path (cells after the start, each flagged where jumped)."""
    cells = tuple(cell for cell, _ in route)
    jumps = tuple(index for index, (_, jumped) in enumerate(route) if jumped)
    if submerged:
        return a.Swim(unit, path=cells, jumps=jumps, submerged=True)
    return kind(unit, path=cells, jumps=jumps)


def _makers(over: Over, far: bool = False) -> tuple[tuple[type[Action], Make], ...]:
    """The candidates generators over `over`, each with its action type, in the registry's
    listing order; `far`: only those that may make one at a creature out of reach."""
    return tuple(
        (kind, found.make)
        for kind in LISTED
        for found in RULEBOOK[kind].candidates
        if found.over is over and found.make is not None and not (far and found.near)
    )


_MAKERS = {over: _makers(over) for over in Over}
_FAR = {over: _makers(over, far=True) for over in Over}
_ONCE = (None,)


def _plain_candidates(
    scene: Scene, closed: set[tuple[type[Action], str]] | None = None
) -> Iterator[Action | Unless]:
    """Every action but the moves over a reach map worth putting to the check for the scene's
    unit, neither slowed nor quickened: each action type's candidates (its registry entry's),
    subject by subject in the order of `Over`, those of one subject in the order of LISTED.
    `closed`: the types whose generators are not asked (again), which the caller adds to as
    it goes (a spell's or ability's type is closed spell by spell, so never here)."""
    yield from _each(scene, Over.SELF, _ONCE, closed)
    yield from _each(scene, Over.HELD, scene.held, closed)
    yield from _each(scene, Over.CARRIED, scene.carried, closed)
    yield from _each(scene, Over.AROUND, _ONCE, closed)
    for other in scene.others():
        # Out of reach, the generators that make nothing there are not asked (`near`).
        makers = _MAKERS if scene.near(other) else _FAR
        aimed = [(other, item) for item in scene.held]
        yield from _each(scene, Over.CREATURE, (other,), closed, makers)
        yield from _each(scene, Over.WEAPON, aimed, closed, makers)
        yield from _each(scene, Over.CLOSE, (other,), closed, makers)
        yield from _each(scene, Over.MISSILE, aimed, closed, makers)
    yield from _each(scene, Over.GROUP, _ONCE, closed)
    yield from _each(scene, Over.ABILITY, known(scene.world, scene.unit), closed)
    yield from _each(scene, Over.PLAN, _ONCE, closed)


def _each(
    scene: Scene,
    over: Over,
    subjects: Iterable[Any],
    closed: set[tuple[type[Action], str]] | None,
    makers: dict[Over, tuple[tuple[type[Action], Make], ...]] = _MAKERS,
) -> Iterator[Action | Unless]:
    for subject in subjects:
        for kind, make in makers[over]:
            if closed is not None and (kind, "") in closed:
                continue
            yield from make(scene, subject)
