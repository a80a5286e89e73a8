"""Legal decisions: every decision the battle accepts now, each with what it costs.

The candidates come from the world (the reach map for movement, creatures in sight for targets,
the items a creature holds, carries or stands by, the spells it knows); each is then put to
`Battle.check`, the same check `submit` makes, so a listed decision is never refused. In a
reaction window the decisions are the window's options, "none" included. Like PettingZoo's
action mask, this one list serves the AI, the random-play tests and the client.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from sim import actions as a
from sim.abilities import AREA, CELL, ONE_CREATURE, SELF
from sim.actions import Action, Cost, Refusal
from sim.casting import known
from sim.components import Gear, Hands, Item, Position
from sim.creature import creatures, incapacitated, team_of, unseen_by
from sim.engine import AwaitingAction, AwaitingReaction, Battle, Decision, ReactionChoice
from sim.geometry import Pos
from sim.reachmap import ORDER, reach_map
from sim.rules import Tier
from sim.world import World

# R-P2: the distances an "enemy comes within" trigger is offered at (a representative set).
PREPARE_METRES = (1.5, 3.0)


@dataclass(frozen=True, slots=True)
class Legal:
    """One decision the battle accepts now; `cost` is None for a reaction answer (its Bonus
    Actions are paid as the reaction resolves)."""

    decision: Decision
    cost: Cost | None


def legal_decisions(battle: Battle, *, slowed: bool = True) -> tuple[Legal, ...]:
    """Every decision `battle.pending` accepts now, in a stable order. `slowed=False` leaves
    out the Slow variants (R-B6), which only ever cost more and so interest a player or an AI
    rarely."""
    pending = battle.pending
    if isinstance(pending, AwaitingReaction):
        return tuple(Legal(ReactionChoice(pending.unit, o), None) for o in pending.options)
    if not isinstance(pending, AwaitingAction):
        return ()
    out: list[Legal] = []
    seen: set[Action] = set()
    # A move to a cell of the reach map is accepted whenever its kind is (the reach maps and
    # the move check agree: tests/test_reach_property.py), so after the first such move of a
    # kind only its price is asked, not a second planning of the same path.
    moves: dict[tuple[type[Action], bool], Cost | Refusal] = {}
    for action in candidates(battle.world, pending.unit, slowed=slowed):
        if action in seen:
            continue
        seen.add(action)
        if isinstance(action, a.Movement) and action.to is not None:
            key = (type(action), action.slow)
            if key not in moves:
                moves[key] = battle.check(action)
            cost = moves[key]
        else:
            cost = battle.check(action)
        if not isinstance(cost, Refusal):
            out.append(Legal(action, cost))
    return tuple(out)


def candidates(world: World, unit: str, *, slowed: bool = True) -> Iterator[Action]:
    """Every action worth putting to the check for `unit`, each also slowed when asked."""
    for action in _plain_candidates(world, unit):
        yield action
        if slowed and action.tier is not Tier.FREE:
            yield _slowed(action)


def _slowed(action: Action) -> Action:
    return replace(action, slow=True)


def _plain_candidates(world: World, unit: str) -> Iterator[Action]:
    yield a.EndTurn(unit)
    for cls in (a.Aim, a.Brace, a.Evade, a.Guard, a.FallProne, a.StandUp, a.Doff, a.Hide):
        yield cls(unit)
    yield a.Disengage(unit)
    yield a.BreakFree(unit)
    yield a.Release(unit)
    yield from _item_actions(world, unit)
    yield from _moves(world, unit)
    yield from _targeted(world, unit)
    yield from _abilities(world, unit)
    yield from _prepared(world, unit)


def _held(world: World, unit: str) -> tuple[str, ...]:
    hands = world.get(unit, Hands)
    return hands.items() if hands is not None else ()


def _carried(world: World, unit: str) -> tuple[str, ...]:
    gear = world.get(unit, Gear)
    return gear.carried if gear is not None else ()


def _item_actions(world: World, unit: str) -> Iterator[Action]:
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
        if world.has(item, Item) and max(abs(pos.cell.x - here.x), abs(pos.cell.y - here.y)) <= 1:
            yield a.PickUp(unit, item)


def _moves(world: World, unit: str) -> Iterator[Action]:
    """One decision per Movement Action and cell it can end in (R-M), by `to`: the engine
    plans the path as the reach map found it."""
    for kind in ORDER:
        for cell in reach_map(world, unit, only=(kind,)):
            yield kind(unit, to=cell)


def _others(world: World, unit: str) -> list[str]:
    """Creatures other than `unit` that it sees (R-X8) and that are still in the fight or
    lying down in it."""
    return [c for c in creatures(world) if c != unit and unit not in unseen_by(world, c)]


def _targeted(world: World, unit: str) -> Iterator[Action]:
    team = team_of(world, unit)
    held = _held(world, unit)
    for other in _others(world, unit):
        ally = team_of(world, other) == team
        if ally:
            yield a.Aid(unit, target=other)
            yield a.Administer(unit, target=other)
            for item in (*held, *_carried(world, unit)):
                yield a.Administer(unit, target=other, item=item)
        else:
            yield a.Attack(unit, target=other)
            for weapon in held:
                yield a.Attack(unit, target=other, weapon=weapon)
                yield a.Trip(unit, target=other, weapon=weapon)
            yield a.Trip(unit, target=other)
            yield a.Shove(unit, target=other)
            yield a.Feint(unit, target=other)
            yield a.Grapple(unit, target=other)
            for item in _held(world, other):
                yield a.Disarm(unit, target=other, item=item)
        for item in held:
            if not ally:
                yield a.Throw(unit, target=other, item=item)
            yield a.Toss(unit, item=item, target=other)


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
    """R-P2: a representative set of plans: attack the nearest enemies when one comes within
    reach, or when a foe ends its turn."""
    team = team_of(world, unit)
    here = world.need(unit, Position).cell
    foes = [
        c for c in _others(world, unit) if team_of(world, c) != team and not incapacitated(world, c)
    ]
    foes.sort(key=lambda c: _chebyshev(here, world.need(c, Position).cell))
    for foe in foes[:2]:
        then = a.Attack(unit, target=foe)
        for metres in PREPARE_METRES:
            yield a.Prepare(unit, "enemy_within", metres, (), "", then)
        yield a.Prepare(unit, "ends_turn", 0.0, (), foe, then)


def _chebyshev(p: Pos, q: Pos) -> int:
    return max(abs(p.x - q.x), abs(p.y - q.y))
