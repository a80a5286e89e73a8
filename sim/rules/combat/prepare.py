"""Skip / Prepare (R-P1..R-P3, R-X16): a creature skips the rest of its turn to ready an action
for a trigger; when the trigger happens on another creature's turn, it takes the rest of its
turn after that one ends, with the prepared action first, and keeps that place in the order.
Preparing never costs a turn (R-P3 Decision): when the trigger comes in a later round than the
plan, the preparer then takes that round's turn as usual, at its new place."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from sim.core import events as ev
from sim.core.actions import Action, Attack, EndTurn, Guard, Prepare, Refusal
from sim.core.components import Budget, Position
from sim.core.creature import creatures, incapacitated, team_of
from sim.core.dice import Dice
from sim.core.geometry import Pos
from sim.core.world import World
from sim.rules.candidates import Scene, chebyshev
from sim.rules.reach.sight import distance_half

TRIGGERS = ("enemy_within", "enters_area", "starts_action", "ends_turn")
# Spending on these is a reaction, not the start of an action (R-R).
REACTION_SPENDS = ("dodge", "parry", "block", "attack_of_opportunity", "interrupt", "catch")


@dataclass(frozen=True, slots=True)
class Prepared:
    """A plan in waiting (R-P2), from the round it was made; `by` once the trigger happened."""

    trigger: str
    metres: float
    cells: tuple[Pos, ...]
    watch: str
    then: Action
    round: int
    by: str = ""


@dataclass(frozen=True, slots=True)
class TurnDue:
    """R-P3 **Decision** (preparing never costs a turn): a preparer whose trigger came in a
    later round than its plan has taken the rest of its prepared turn; this round's own turn is
    still to come, at its new place, right after it."""

    round: int


def due_turns(world: World) -> tuple[str, ...]:
    """Preparers owed this round's turn (R-P3), in the initiative order."""
    return tuple(unit for unit in world.turn.order if world.has(unit, TurnDue))


def check_prepare(world: World, action: Prepare) -> Refusal | None:
    """R-P1: the first action of the turn; a trigger the engine can check (R-P2); a plan."""
    actor = action.actor
    if not _first(world, actor):
        return Refusal(f"Skip / Prepare must be {actor}'s first action of the turn (R-P1)")
    if action.trigger not in TRIGGERS:
        return Refusal(
            f"a trigger must be one of {', '.join(TRIGGERS)}, not {action.trigger!r} (R-P2)"
        )
    if action.trigger == "enemy_within" and action.metres <= 0:
        return Refusal('"enemy_within" needs "metres", a distance above 0 (R-P2)')
    if action.trigger == "enters_area" and not action.cells:
        return Refusal('"enters_area" needs "cells", the marked area (R-P2)')
    watching = action.trigger in ("starts_action", "ends_turn")
    if watching and (action.watch not in creatures(world) or action.watch == actor):
        return Refusal(f'"{action.trigger}" needs "watch": another creature (R-P2)')
    then = action.then
    if then is None or isinstance(then, Prepare | EndTurn) or then.actor != actor:
        return Refusal(
            'Prepare needs "then": the action to take, e.g. {"action": "attack", ...} (R-P1)'
        )
    return None


def _first(world: World, actor: str) -> bool:
    """Whether `actor` has taken no action this turn, not even a Free one (R-P1)."""
    budget = world.need(actor, Budget)
    return not (budget.acted or budget.free_used or budget.half < world.rules.budget.half_actions)


def resolve_prepare(world: World, action: Prepare, dice: Dice) -> list[ev.Event]:
    assert action.then is not None
    return [
        ev.PlanMade(
            action.actor,
            action.trigger,
            action.metres,
            action.cells,
            action.watch,
            action.then,
            world.turn.round,
        )
    ]


def plan_of(event: ev.PlanMade) -> Prepared:
    return Prepared(event.trigger, event.metres, event.cells, event.watch, event.then, event.round)


def _fires(world: World, unit: str, plan: Prepared, event: ev.Event) -> str | None:
    """Why `event` sets off `unit`'s plan, if it does."""
    if plan.trigger == "ends_turn":
        if isinstance(event, ev.TurnEnded) and event.unit == plan.watch:
            return f"{plan.watch} ended its turn"
        return None
    if plan.trigger == "starts_action":
        if (
            isinstance(event, ev.Spent)
            and event.unit == plan.watch
            and event.action not in REACTION_SPENDS
            and world.turn.current == plan.watch
        ):
            return f"{plan.watch} started {event.action.replace('_', ' ')}"
        return None
    if not isinstance(event, ev.Moved | ev.Jumped):
        return None
    mover = event.unit
    if mover == unit:
        return None
    if plan.trigger == "enters_area":
        return (
            f"{mover} entered the marked area at {event.end}" if event.end in plan.cells else None
        )
    if team_of(world, mover) == team_of(world, unit):
        return None
    here = world.need(unit, Position).cell
    if distance_half(world.rules, here, event.end) <= round(plan.metres * 2):
        return f"{mover} came within {plan.metres:g} m"
    return None


def triggered(world: World, events: list[ev.Event]) -> list[ev.Event]:
    """R-P3: plans that these events set off, on another creature's turn."""
    out: list[ev.Event] = []
    for unit, plan in world.each(Prepared):
        if plan.by or unit == world.turn.current or incapacitated(world, unit):
            continue
        for event in events:
            reason = _fires(world, unit, plan, event)
            if reason is not None:
                out.append(ev.PlanTriggered(unit, world.turn.current or "", reason))
                break
    return out


def ready(world: World) -> tuple[str, ...]:
    """Creatures whose plan went off and who now take the rest of their turn."""
    return tuple(unit for unit, plan in world.each(Prepared) if plan.by)


def moved_after(order: tuple[str, ...], unit: str, after: str) -> tuple[str, ...]:
    """R-P3: the order with `unit` taken out and put right after `after`.

    >>> moved_after(("a", "b", "c"), "a", "b")
    ('b', 'a', 'c')
    """
    rest = [u for u in order if u != unit]
    index = rest.index(after) + 1 if after in rest else len(rest)
    return (*rest[:index], unit, *rest[index:])


def triggered_plan(plan: Prepared, by: str) -> Prepared:
    return replace(plan, by=by)


# --- candidates (sim/play/legal.py) ---

# R-P2: the distances an "enemy comes within" trigger is offered at (a representative set).
PREPARE_METRES = (1.5, 3.0)


def prepare_candidates(scene: Scene, subject: None) -> Iterator[Prepare]:
    """R-P2: a representative set of plans, each attacking one of the two nearest enemies: when
    an enemy comes within reach, when anyone steps next to the preparer, when that enemy starts
    an action, or when it ends its turn; and one that needs no enemy in sight: to Guard when
    one comes within reach (R-X14)."""
    world, unit, here = scene.world, scene.unit, scene.here
    if not scene.sifts("prepare", lambda: _first(world, unit)):
        return  # the check's first question (R-P1): once a turn has begun, none is made
    foes = [c for c in scene.others() if not scene.ally(c) and not incapacitated(world, c)]
    foes.sort(key=lambda c: chebyshev(here, world.need(c, Position).cell))
    around = tuple(c for c in here.neighbours() if world.grid.inside(c))
    yield Prepare(unit, "enemy_within", PREPARE_METRES[0], (), "", Guard(unit))
    for foe in foes[:2]:
        then = Attack(unit, target=foe)
        for metres in PREPARE_METRES:
            yield Prepare(unit, "enemy_within", metres, (), "", then)
        yield Prepare(unit, "enters_area", 0.0, around, "", then)
        yield Prepare(unit, "starts_action", 0.0, (), foe, then)
        yield Prepare(unit, "ends_turn", 0.0, (), foe, then)
