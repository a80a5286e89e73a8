"""The registry of actions: which mechanic checks and resolves each action type (one table)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sim.core import actions as a
from sim.core.dice import Dice
from sim.core.events import Event
from sim.core.world import World
from sim.rules.combat import (
    aid,
    armour,
    assist,
    attack,
    casting,
    disarm,
    feint,
    grapple,
    hide,
    items,
    prepare,
    reactions,
    shove,
    stance,
    throw,
    trip,
)
from sim.rules.combat.reactions import Ask
from sim.rules.movement import climb, movement, prone


@dataclass(frozen=True, slots=True)
class Mechanic:
    """An action's own legality check (after the budget) and its resolution into events."""

    check: Callable[[World, Any], a.Refusal | None]
    resolve: Callable[[World, Any, Dice], Iterable[Event | Ask]]


def _always(world: World, action: a.Action) -> a.Refusal | None:
    return None


def _nothing(world: World, action: a.Action, dice: Dice) -> list[Event]:
    return []


# The registry of actions: every action type of the rules and its mechanic, in the order the
# client's action bar shows them. Adding an action is one class in sim/core/actions.py and one line
# here; its name, its JSON fields and its codec (sim/core/codec.py) come from the class.
RULEBOOK: dict[type[a.Action], Mechanic] = {
    a.Step: Mechanic(movement.check_move, movement.resolve_move),
    a.Walk: Mechanic(movement.check_move, movement.resolve_move),
    a.Run: Mechanic(movement.check_move, movement.resolve_move),
    a.Sprint: Mechanic(movement.check_move, movement.resolve_move),
    a.Climb: Mechanic(climb.check_climb, climb.resolve_climb),
    a.Crawl: Mechanic(movement.check_move, movement.resolve_move),
    a.Swim: Mechanic(movement.check_move, movement.resolve_move),
    a.Jump: Mechanic(movement.check_move, movement.resolve_move),
    a.StandUp: Mechanic(prone.check_stand_up, prone.resolve_stand_up),
    a.FallProne: Mechanic(prone.check_fall_prone, prone.resolve_fall_prone),
    a.Aim: Mechanic(stance.check_aim, stance.resolve_aim),
    a.Assist: Mechanic(assist.check_assist, assist.resolve_assist),
    a.Attack: Mechanic(attack.check_attack, attack.resolve_attack),
    a.Brace: Mechanic(stance.check_brace, stance.resolve_brace),
    a.Consume: Mechanic(items.check_consume, items.resolve_consume),
    a.Disarm: Mechanic(disarm.check_disarm, disarm.resolve_disarm),
    a.Draw: Mechanic(items.check_draw, items.resolve_draw),
    a.Stow: Mechanic(items.check_stow, items.resolve_stow),
    a.Drop: Mechanic(items.check_drop, items.resolve_drop),
    a.PickUp: Mechanic(items.check_pick_up, items.resolve_pick_up),
    a.Evade: Mechanic(stance.check_evade, stance.resolve_evade),
    a.Feint: Mechanic(feint.check_feint, feint.resolve_feint),
    a.Aid: Mechanic(aid.check_aid, aid.resolve_aid),
    a.Administer: Mechanic(aid.check_administer, aid.resolve_administer),
    a.Grapple: Mechanic(grapple.check_grapple, grapple.resolve_grapple),
    a.BreakFree: Mechanic(grapple.check_break_free, grapple.resolve_break_free),
    a.Release: Mechanic(grapple.check_release, grapple.resolve_release),
    a.Guard: Mechanic(stance.check_guard, stance.resolve_guard),
    a.Hide: Mechanic(hide.check_hide, hide.resolve_hide),
    a.Shove: Mechanic(shove.check_shove, shove.resolve_shove),
    a.Prepare: Mechanic(prepare.check_prepare, prepare.resolve_prepare),
    a.Throw: Mechanic(throw.check_throw, throw.resolve_throw),
    a.Toss: Mechanic(throw.check_toss, throw.resolve_toss),
    a.Trip: Mechanic(trip.check_trip, trip.resolve_trip),
    a.Disengage: Mechanic(reactions.check_disengage, reactions.resolve_disengage),
    a.EndTurn: Mechanic(_always, _nothing),
    a.Don: Mechanic(armour.check_don, armour.resolve_don),
    a.Doff: Mechanic(armour.check_doff, armour.resolve_doff),
    a.Cast: Mechanic(casting.check_cast, casting.resolve_cast),
    a.Use: Mechanic(casting.check_cast, casting.resolve_cast),
}
ACTIONS: dict[str, type[a.Action]] = {kind.name: kind for kind in RULEBOOK}
"""Every action type by its name ("walk"), in the rulebook's order."""
