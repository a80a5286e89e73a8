"""The registry of actions: for each action type the mechanic that checks and resolves it, finds
its candidates for the legal listing and names the AI's evaluator for it (one table)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sim.core import actions as a
from sim.core.dice import Dice
from sim.core.events import Event
from sim.core.world import World
from sim.play import odds
from sim.rules.candidates import Candidates, Make, Over, by_itself
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
    """An action's own legality check (after the budget), its resolution into events, how its
    candidates for the legal listing are found (sim/play/legal.py puts each to the check),
    `evaluator`: the name of the AI's evaluator for this kind of decision (sim/ai's table of
    evaluators by that name; None: the AI sees nothing to gain by it), and `odds`: the chance
    that the action does what it is for, from the exact odds (sim/play/odds.py; None: none is
    worked out, and the client shows no forecast for it)."""

    check: Callable[[World, Any], a.Refusal | None]
    resolve: Callable[[World, Any, Dice], Iterable[Event | Ask]]
    candidates: tuple[Candidates, ...]
    evaluator: str | None = None
    odds: Callable[[World, Any], float] | None = None


def _over(over: Over, *makes: Make) -> tuple[Candidates, ...]:
    return tuple(Candidates(over, make) for make in makes)


def _near(over: Over, *makes: Make) -> tuple[Candidates, ...]:
    """Generators over a creature that make none at one out of reach (`Candidates.near`)."""
    return tuple(Candidates(over, make, near=True) for make in makes)


# A Movement Action but Climb goes to each cell of its reach map, which the listing reads off
# the searches itself (sim/play/legal.py `_moves`).
_REACHED = (Candidates(Over.REACH),)


def _always(world: World, action: a.Action) -> a.Refusal | None:
    return None


def _nothing(world: World, action: a.Action, dice: Dice) -> list[Event]:
    return []


# The registry of actions: every action type of the rules and its mechanic, in the order the
# client's action bar shows them. Adding an action is one class in sim/core/actions.py, one entry
# here and its mechanic module (docs/architecture.md "Adding an action"); its name, its JSON
# fields and its codec (sim/core/codec.py) come from the class, its candidates and the name of
# its AI evaluator from the entry.
RULEBOOK: dict[type[a.Action], Mechanic] = {
    a.Step: Mechanic(movement.check_move, movement.resolve_move, _REACHED, "move"),
    a.Walk: Mechanic(movement.check_move, movement.resolve_move, _REACHED, "move"),
    a.Run: Mechanic(movement.check_move, movement.resolve_move, _REACHED, "move"),
    a.Sprint: Mechanic(movement.check_move, movement.resolve_move, _REACHED, "move"),
    a.Climb: Mechanic(
        climb.check_climb, climb.resolve_climb, _over(Over.AROUND, climb.climb_candidates), "move"
    ),
    a.Crawl: Mechanic(movement.check_move, movement.resolve_move, _REACHED, "move"),
    a.Swim: Mechanic(movement.check_move, movement.resolve_move, _REACHED, "move"),
    a.Jump: Mechanic(movement.check_move, movement.resolve_move, _REACHED, "move"),
    a.StandUp: Mechanic(
        prone.check_stand_up, prone.resolve_stand_up, (by_itself(a.StandUp),), "stand_up"
    ),
    a.FallProne: Mechanic(
        prone.check_fall_prone, prone.resolve_fall_prone, (by_itself(a.FallProne),)
    ),
    a.Aim: Mechanic(stance.check_aim, stance.resolve_aim, (by_itself(a.Aim),), "aim"),
    a.Assist: Mechanic(
        assist.check_assist,
        assist.resolve_assist,
        _over(Over.GROUP, assist.assist_candidates),
        "assist",
    ),
    a.Attack: Mechanic(
        attack.check_attack,
        attack.resolve_attack,
        _over(Over.CREATURE, attack.attack_candidates)
        + _over(Over.WEAPON, attack.weapon_attack_candidates),
        "attack",
        odds=odds.attack_chance,
    ),
    a.Brace: Mechanic(stance.check_brace, stance.resolve_brace, (by_itself(a.Brace),), "brace"),
    a.Consume: Mechanic(
        items.check_consume,
        items.resolve_consume,
        _over(Over.AROUND, items.consume_candidates),
        "consume",
    ),
    a.Disarm: Mechanic(
        disarm.check_disarm,
        disarm.resolve_disarm,
        _near(Over.CLOSE, disarm.disarm_candidates),
        "disarm",
        odds=odds.disarm_action_chance,
    ),
    a.Draw: Mechanic(
        items.check_draw, items.resolve_draw, _over(Over.CARRIED, items.draw_candidates), "draw"
    ),
    a.Stow: Mechanic(items.check_stow, items.resolve_stow, _over(Over.HELD, items.stow_candidates)),
    a.Drop: Mechanic(items.check_drop, items.resolve_drop, _over(Over.HELD, items.drop_candidates)),
    a.PickUp: Mechanic(
        items.check_pick_up,
        items.resolve_pick_up,
        _over(Over.AROUND, items.pick_up_candidates),
        "pick_up",
    ),
    a.Evade: Mechanic(stance.check_evade, stance.resolve_evade, (by_itself(a.Evade),), "evade"),
    a.Feint: Mechanic(
        feint.check_feint,
        feint.resolve_feint,
        _near(Over.CLOSE, feint.feint_candidates),
        "feint",
        odds=odds.feint_action_chance,
    ),
    a.Aid: Mechanic(
        aid.check_aid, aid.resolve_aid, _near(Over.CREATURE, aid.aid_candidates), "aid"
    ),
    a.Administer: Mechanic(
        aid.check_administer,
        aid.resolve_administer,
        _near(Over.CREATURE, aid.administer_candidates),
        "administer",
    ),
    a.Grapple: Mechanic(
        grapple.check_grapple,
        grapple.resolve_grapple,
        _near(Over.CLOSE, grapple.grapple_candidates),
        "grapple",
        odds=odds.grapple_action_chance,
    ),
    a.BreakFree: Mechanic(
        grapple.check_break_free,
        grapple.resolve_break_free,
        (by_itself(a.BreakFree),),
        "break_free",
    ),
    a.Release: Mechanic(grapple.check_release, grapple.resolve_release, (by_itself(a.Release),)),
    a.Guard: Mechanic(stance.check_guard, stance.resolve_guard, (by_itself(a.Guard),), "guard"),
    a.Hide: Mechanic(hide.check_hide, hide.resolve_hide, (by_itself(a.Hide),), "hide"),
    a.Shove: Mechanic(
        shove.check_shove,
        shove.resolve_shove,
        _near(Over.CLOSE, shove.shove_candidates),
        "shove",
        odds=odds.shove_chance,
    ),
    a.Prepare: Mechanic(
        prepare.check_prepare,
        prepare.resolve_prepare,
        _over(Over.PLAN, prepare.prepare_candidates),
        "prepare",
    ),
    a.Throw: Mechanic(
        throw.check_throw,
        throw.resolve_throw,
        _over(Over.MISSILE, throw.throw_candidates),
        "throw",
    ),
    a.Toss: Mechanic(
        throw.check_toss,
        throw.resolve_toss,
        _over(Over.AROUND, throw.toss_to_cell_candidates)
        + _over(Over.MISSILE, throw.toss_candidates),
        "toss",
    ),
    a.Trip: Mechanic(
        trip.check_trip,
        trip.resolve_trip,
        _near(Over.WEAPON, trip.weapon_trip_candidates) + _near(Over.CLOSE, trip.trip_candidates),
        "trip",
        odds=odds.trip_chance,
    ),
    a.Disengage: Mechanic(
        reactions.check_disengage,
        reactions.resolve_disengage,
        (by_itself(a.Disengage),),
        "disengage",
    ),
    a.EndTurn: Mechanic(_always, _nothing, (by_itself(a.EndTurn),), "end_turn"),
    a.Don: Mechanic(
        armour.check_don, armour.resolve_don, _over(Over.CARRIED, armour.don_candidates)
    ),
    a.Doff: Mechanic(armour.check_doff, armour.resolve_doff, (by_itself(a.Doff),)),
    a.Cast: Mechanic(
        casting.check_cast,
        casting.resolve_cast,
        _over(Over.ABILITY, casting.cast_candidates),
        "ability",
    ),
    a.Use: Mechanic(
        casting.check_cast,
        casting.resolve_cast,
        _over(Over.ABILITY, casting.use_candidates),
        "ability",
    ),
}
ACTIONS: dict[str, type[a.Action]] = {kind.name: kind for kind in RULEBOOK}
"""Every action type by its name ("walk"), in the rulebook's order."""

LISTED: tuple[type[a.Action], ...] = (
    *(a.EndTurn, a.Aim, a.Brace, a.Evade, a.Guard, a.FallProne, a.StandUp, a.Doff, a.Hide),
    *(a.Disengage, a.BreakFree, a.Release, a.Stow, a.Drop, a.Draw, a.Don, a.Consume, a.PickUp),
    *(a.Throw, a.Toss, a.Climb, a.Aid, a.Administer, a.Attack, a.Trip, a.Shove, a.Feint),
    *(a.Grapple, a.Disarm, a.Assist, a.Cast, a.Use, a.Prepare),
    *(a.Step, a.Walk, a.Jump, a.Run, a.Crawl, a.Swim, a.Sprint),
)
"""Every action type, in the order the legal listing puts the candidates of one subject (of one
`Over`) in: the random AI draws by place in that list, so the order is part of every game it
plays."""
