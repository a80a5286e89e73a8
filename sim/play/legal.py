"""Legal decisions: every decision the battle accepts now, each with what it costs.

The candidates come from the world (the reach map for movement, dives included; creatures in
sight for targets and Assist's pairs; the items a creature holds, carries or stands by, and a
cell next to each ally to toss them to; the spells and abilities it knows); each is then put to
the checks `Battle.check` makes, as `submit` does, so a listed decision is never refused. In a
reaction window the decisions are the window's options, "none" included, and each option
slowed where its slowed cost can be paid (R-B7). Like PettingZoo's action mask, this one list
serves the AI, the random-play tests and the client.

Only the creature the battle waits for is listed: a grappler may also let go on another's turn
(R-G4) and a side may set a reaction policy at any time, but those are not what `pending` asks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import overload

from sim.core import actions as a
from sim.core.abilities import AREA, CELL, ONE_CREATURE, SELF
from sim.core.actions import Action, Cost, Refusal
from sim.core.components import Budget, Gear, Hands, Item, Position
from sim.core.condition import Condition
from sim.core.creature import creatures, has, incapacitated, team_of, unseen_by
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.numbers import Tier
from sim.core.world import World
from sim.play.engine import AwaitingAction, AwaitingReaction, Battle, Decision, ReactionChoice
from sim.play.rulebook import RULEBOOK
from sim.rules.budget import given_back, refilled
from sim.rules.combat.attack import AttackPlan, melee_only, plan_attack
from sim.rules.combat.casting import known
from sim.rules.combat.reactions import NONE
from sim.rules.combat.throw import throw_range, too_heavy
from sim.rules.reach.reachmap import ORDER, Path, ends_by_kind
from sim.rules.reach.sight import creature_distance_half
from sim.rules.reach.target import in_reach
from sim.rules.reach.threat import reaches

# R-P2: the distances an "enemy comes within" trigger is offered at (a representative set).
PREPARE_METRES = (1.5, 3.0)

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

    def __init__(self, head: tuple[Legal, ...], moves: tuple[_MoveGroup, ...] = ()) -> None:
        self._head = head
        self._moves = moves
        self._len = len(head) + sum(len(group) for group in moves)

    def __len__(self) -> int:
        return self._len

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
class _MoveGroup:
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


def listing(battle: Battle, *, slowed: bool = True) -> Listing:
    """`legal_decisions`, each move made only when asked for (`Listing`)."""
    return _listing(battle, slowed, first=False)


def kinds(battle: Battle, *, slowed: bool = True) -> tuple[Legal, ...]:
    """The kinds of decision open now, which is all the client's action bar needs: of
    `legal_decisions`, in its order, the first decision of each action type (for a spell or
    an ability, of each one) with each of its variants, and the first move of each Movement
    Action and variant. The others differ from it only by their target, item or cell, never
    by their cost, so the candidates of a type are put to the check only until one is
    accepted."""
    return tuple(_listing(battle, slowed, first=True).kinds())


def _listing(battle: Battle, slowed: bool, *, first: bool) -> Listing:
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
    done: set[tuple[type[Action], str]] = set()  # the types listed, when only the first is
    for candidate in _plain_candidates(world, unit):
        action = candidate.action if isinstance(candidate, _Unless) else candidate
        key = _type(action)
        if first and key in done:
            continue
        paid = prices.listed(action, key)
        if not paid or action in seen:
            continue  # what is not paid now is not, however often it comes
        seen.add(action)
        mechanic = RULEBOOK.get(type(action))
        if mechanic is None or mechanic.check(world, action) is not None:
            continue
        if isinstance(candidate, _Unless) and candidate.same():
            continue
        out.extend(Legal(_shifted(action, shift), cost) for shift, cost in paid)
        if first:
            done.add(key)
    return Listing(tuple(out), tuple(_moves(battle, unit, prices, first)))


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
    (`Battle.priced`) reads the actor's budget and conditions and the action's type and flags
    (a spell's or ability's tier too), never its target, item or cell, so it is asked once per
    type and variant. The action's own rules (the mechanic's check) read the world, never the
    flags, so they are asked once per action, and only when some variant can be paid."""

    def __init__(self, battle: Battle, shifts: list[Shift]) -> None:
        self.battle = battle
        self.shifts = shifts
        self.known: dict[tuple[type[Action], str], list[tuple[Shift, Cost]]] = {}

    def listed(
        self, action: Action, key: tuple[type[Action], str] | None = None
    ) -> list[tuple[Shift, Cost]]:
        """The variants of `action` the budget pays for, each with its cost; a variant only
        where it costs something else than the plain action (or, an Extended Action, takes
        another number of turns). Ending the turn is never slowed or quickened. `key`: the
        action's `_type`, when known."""
        found = self.known.get(key or _type(action))
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
            self.known[key or _type(action)] = found
        return found


def _type(action: Action) -> tuple[type[Action], str]:
    """What an action's price reads of it: its type, and for a spell or ability which one."""
    return (type(action), action.ability if isinstance(action, a.AbilityAction) else "")


def _shifted(action: Action, shift: Shift) -> Action:
    slow, quicken = shift
    return action if shift == PLAIN else replace(action, slow=slow, quicken=quicken)


def _moves(battle: Battle, unit: str, prices: _Prices, first: bool) -> Iterator[_MoveGroup]:
    """One decision per Movement Action but Climb, variant and cell it can end in (R-M), by
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
        if kind is a.Climb:
            continue  # put to the check cell by cell with the other actions (_climbs)
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
                yield _MoveGroup(kind, unit, slow, quick, submerged, cost, cells.xs, cells.ys)


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


@dataclass(frozen=True, slots=True)
class _Unless:
    """A candidate not listed when `same()`: it is a decision listed under another name. Asked
    only once the check accepts the action (most candidates it refuses)."""

    action: Action
    same: Callable[[], bool]


class _Plans:
    """The attacks of `unit` at `other` as `plan_attack` plans them, each planned when first
    asked for: whether naming a weapon plans the attack the unnamed one does."""

    def __init__(self, world: World, unit: str, other: str) -> None:
        self.world, self.unit, self.other = world, unit, other
        self._plans: dict[str | None, AttackPlan | Refusal] = {}

    def _plan(self, weapon: str | None) -> AttackPlan | Refusal:
        found = self._plans.get(weapon)
        if found is None:
            attack = a.Attack(self.unit, target=self.other, weapon=weapon)
            found = self._plans[weapon] = plan_attack(self.world, attack)
        return found

    def same(self, weapon: str) -> bool:
        """Whether naming `weapon` plans the attack the unnamed one does."""
        chosen = self._plan(None)
        return isinstance(chosen, AttackPlan) and self._plan(weapon) == chosen


def _plain_candidates(world: World, unit: str) -> Iterator[Action | _Unless]:
    """Every action but movement worth putting to the check for `unit`, neither slowed nor
    quickened."""
    yield a.EndTurn(unit)
    for cls in (a.Aim, a.Brace, a.Evade, a.Guard, a.FallProne, a.StandUp, a.Doff, a.Hide):
        yield cls(unit)
    yield a.Disengage(unit)
    yield a.BreakFree(unit)
    yield a.Release(unit)
    sieve = _Sieve(world, unit)
    yield from _item_actions(world, unit, sieve)
    yield from _climbs(world, unit)
    yield from _targeted(world, unit, sieve)
    yield from _assists(world, unit)
    yield from _abilities(world, unit)
    yield from _prepared(world, unit)


def _climbs(world: World, unit: str) -> Iterator[Action]:
    """R-M7: a Climb to each neighbouring cell, and, hanging on a face, back down to the cell
    below. The reach map holds only climbs that reach the top or the bottom; one that stops
    part-way, hanging, ends where it began and is listed by the cell it climbs towards."""
    here = world.need(unit, Position).cell
    for cell in (*here.neighbours(), here):
        yield a.Climb(unit, to=cell)


def _held(world: World, unit: str) -> tuple[str, ...]:
    hands = world.get(unit, Hands)
    return hands.items() if hands is not None else ()


def _carried(world: World, unit: str) -> tuple[str, ...]:
    gear = world.get(unit, Gear)
    return gear.carried if gear is not None else ()


def _item_actions(world: World, unit: str, sieve: _Sieve) -> Iterator[Action]:
    held, carried = _held(world, unit), _carried(world, unit)
    for item in held:
        yield a.Stow(unit, item)
        yield a.Drop(unit, item)
    for item in carried:
        yield a.Draw(unit, item)
        yield a.Don(unit, item)
    for item in (*held, *carried):
        yield a.Consume(unit, item)
    here = world.need(unit, Position).cell
    for item, pos in world.each(Position):
        if world.has(item, Item) and _chebyshev(pos.cell, here) <= 1:
            yield a.PickUp(unit, item)
    yield from _tosses(world, unit, here, sieve.tossed())


def _tosses(world: World, unit: str, here: Pos, tossed: list[str]) -> Iterator[Action]:
    """R-X18 to a cell: a representative set, for each ally in sight the cell next to it
    nearest the tosser, where the ally can pick the item up (R-X7) without the risk of a
    failed catch (R-R6). Tossing to the ally itself is listed with the other targets. `tossed`:
    the items held that are light enough to toss."""
    if not tossed:
        return
    grid = world.grid
    team = team_of(world, unit)
    for ally in _others(world, unit):
        if team_of(world, ally) != team:
            continue
        there = world.need(ally, Position).cell
        around = [
            c
            for c in there.neighbours()
            if c != here and grid.inside(c) and grid.kind(c) is not Kind.WALL
        ]
        if around:
            cell = min(around, key=lambda c: (_chebyshev(c, here), c.y, c.x))
            for item in tossed:
                yield a.Toss(unit, item, to=cell)


def _others(world: World, unit: str) -> tuple[str, ...]:
    """Creatures other than `unit` that it sees (R-X8) and that are still in the fight or
    lying down in it. Kept by the world while nothing is written: a listing asks four times."""

    def seen() -> tuple[str, ...]:
        return tuple(c for c in creatures(world) if c != unit and unit not in unseen_by(world, c))

    return world.memo(("legal.others", unit), seen)


class _Sieve:
    """What the checks of actions at a creature ask first, asked once per creature or item so
    that a candidate it would refuse is not made (most targets are out of reach): the hands-on
    actions' reach (`in_reach`, the first question of Aid, Administer, Trip, Shove, Feint,
    Grapple and Disarm), a melee attack's reach, a throw's range (R-X17) and a toss's weight
    (R-X18). It only leaves out what the check refuses; tests/play/test_legal_listing.py lists
    without it to show the same list."""

    def __init__(self, world: World, unit: str) -> None:
        self.world, self.unit = world, unit
        self._melee: dict[str | None, bool] = {}
        self._range: dict[str, int] = {}
        self._tossed: list[str] | None = None

    def near(self, other: str) -> bool:
        return in_reach(self.world, self.unit, other, "reach") is None

    def strikes(self, weapon: str | None, near: bool) -> bool:
        if near:
            return True
        melee = self._melee.get(weapon)
        if melee is None:
            melee = self._melee[weapon] = melee_only(self.world, self.unit, weapon)
        return not melee

    def throws(self, other: str, item: str) -> bool:
        most = self._range.get(item)
        if most is None:
            most = self._range[item] = throw_range(self.world, self.unit, item)
        return creature_distance_half(self.world, self.unit, other) <= most

    def tosses(self, item: str) -> bool:
        return too_heavy(self.world, self.unit, item) is None

    def tossed(self) -> list[str]:
        """The items held light enough to toss, worked out once for all the tosses."""
        if self._tossed is None:
            self._tossed = [item for item in _held(self.world, self.unit) if self.tosses(item)]
        return self._tossed


def _targeted(world: World, unit: str, sieve: _Sieve) -> Iterator[Action | _Unless]:
    """Actions at each creature in sight (R-X8). Tending is for allies (R-X11, R-X12); the rest
    the rules allow at anyone, allies too: a shove can push a friend out of harm's way."""
    team = team_of(world, unit)
    held = _held(world, unit)
    tossed = sieve.tossed()
    for other in _others(world, unit):
        near = sieve.near(other)
        if near and team_of(world, other) == team:
            yield a.Aid(unit, target=other)
            yield a.Administer(unit, target=other)
            for item in (*held, *_carried(world, unit)):
                yield a.Administer(unit, target=other, item=item)
        # With no weapon named, an attack or a trip strikes with the weapon `plan_attack`
        # chooses; naming that weapon is the same decision, listed once: the attack unnamed (a
        # player's plain "attack"), the trip named (it comes first).
        plans = _Plans(world, unit, other)
        if sieve.strikes(None, near):
            yield a.Attack(unit, target=other)
        for weapon in held:
            if sieve.strikes(weapon, near):
                yield _Unless(
                    a.Attack(unit, target=other, weapon=weapon), partial(plans.same, weapon)
                )
            if near:
                yield a.Trip(unit, target=other, weapon=weapon)
        if near:
            yield _Unless(a.Trip(unit, target=other), partial(_any_same, plans, held))
            yield a.Shove(unit, target=other)
            yield a.Feint(unit, target=other)
            yield a.Grapple(unit, target=other)
            for item in _held(world, other):
                yield a.Disarm(unit, target=other, item=item)
        for item in held:
            if sieve.throws(other, item):
                yield a.Throw(unit, target=other, item=item)
            if item in tossed:
                yield a.Toss(unit, item=item, target=other)


def _any_same(plans: _Plans, held: tuple[str, ...]) -> bool:
    """Whether a trip with one of the weapons held is the unnamed trip."""
    return any(plans.same(weapon) for weapon in held)


def _assists(world: World, unit: str) -> Iterator[Action]:
    """R-X21: each ally and each enemy it sees, both within its melee reach."""
    team = team_of(world, unit)
    here = world.need(unit, Position).cell
    allies, enemies = [], []
    for other in creatures(world):
        if other == unit or not reaches(world, unit, here, world.need(other, Position).cell):
            continue
        if team_of(world, other) == team:
            allies.append(other)
        elif unit not in unseen_by(world, other):
            enemies.append(other)
    for ally in allies:
        for enemy in enemies:
            yield a.Assist(unit, ally, enemy)


def _abilities(world: World, unit: str) -> Iterator[Action]:
    """R-X20: each known spell or ability at each creature in sight (itself included) or, for
    one aimed at a cell, at each such creature's cell."""
    aims = [unit, *_others(world, unit)]
    for name in known(world, unit):
        ability = world.catalog.abilities.get(name)
        if ability is None:
            continue
        cls: type[a.AbilityAction] = a.Cast if ability.kind == "spell" else a.Use
        if ability.target == SELF:
            yield cls(unit, name)
        elif ability.target in ONE_CREATURE:
            for other in aims:
                yield cls(unit, name, other)
        elif ability.target in (CELL, AREA):
            for other in aims:
                yield cls(unit, name, to=world.need(other, Position).cell)


def _prepared(world: World, unit: str) -> Iterator[Action]:
    """R-P2: a representative set of plans, each attacking one of the two nearest enemies: when
    an enemy comes within reach, when anyone steps next to the preparer, when that enemy starts
    an action, or when it ends its turn; and one that needs no enemy in sight: to Guard when
    one comes within reach (R-X14)."""
    team = team_of(world, unit)
    here = world.need(unit, Position).cell
    foes = [
        c for c in _others(world, unit) if team_of(world, c) != team and not incapacitated(world, c)
    ]
    foes.sort(key=lambda c: _chebyshev(here, world.need(c, Position).cell))
    around = tuple(c for c in here.neighbours() if world.grid.inside(c))
    yield a.Prepare(unit, "enemy_within", PREPARE_METRES[0], (), "", a.Guard(unit))
    for foe in foes[:2]:
        then = a.Attack(unit, target=foe)
        for metres in PREPARE_METRES:
            yield a.Prepare(unit, "enemy_within", metres, (), "", then)
        yield a.Prepare(unit, "enters_area", 0.0, around, "", then)
        yield a.Prepare(unit, "starts_action", 0.0, (), foe, then)
        yield a.Prepare(unit, "ends_turn", 0.0, (), foe, then)


def _chebyshev(p: Pos, q: Pos) -> int:
    return max(abs(p.x - q.x), abs(p.y - q.y))
