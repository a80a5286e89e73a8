"""Feint (R-X10), a ½ Action: a Deception check against the target's FCS Save (R-C4: a tie goes
to the target). Success gives +5 on the feinter's next melee Hit Roll against that target
(condition "feinted", value: the target), **Decision** made before the end of the feinter's next
turn (condition "feint_turns": the feinter's turn ends left)."""

from __future__ import annotations

from collections.abc import Iterator

from sim.core import events as ev
from sim.core.actions import Feint, Refusal
from sim.core.condition import Condition
from sim.core.creature import conditions
from sim.core.dice import Dice
from sim.core.purpose import RollKind
from sim.core.world import World
from sim.rules.candidates import Scene
from sim.rules.combat.checks import acting_wins, roll_check, skill_check
from sim.rules.combat.hide import reveal
from sim.rules.reach.target import in_reach


def check_feint(world: World, action: Feint) -> Refusal | None:
    return in_reach(world, action.actor, action.target, "feint")


def resolve_feint(world: World, action: Feint, dice: Dice) -> list[ev.Event]:
    actor, target = action.actor, action.target
    out = reveal(world, actor, "feinted")
    trick = skill_check(
        world, dice, actor, "deception", f"feint on {target}: Deception check", tag=RollKind.FEINT
    )
    save = roll_check(
        world,
        dice,
        target,
        "fcs",
        f"see through {actor}'s feint: FCS Save",
        tag=RollKind.SEE_THROUGH_FEINT,
    )
    out += [trick.rolled, save.rolled]
    if acting_wins(trick.total, save.total):
        turns = world.rules.actions.feint_turn_ends
        out += [
            ev.ConditionGained(actor, Condition.FEINTED, target),
            ev.ConditionGained(actor, Condition.FEINT_TURNS, turns),
        ]
    return out


def feint_expiry(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    """End of turn: an unused feint lapses at the end of the feinter's next turn (R-X10)."""
    held = conditions(world, unit)
    if not held.has(Condition.FEINT_TURNS):
        return []
    if not held.has(Condition.FEINTED):
        return [ev.ConditionLost(unit, Condition.FEINT_TURNS, "its feint was used")]
    left = held.count(Condition.FEINT_TURNS) - 1
    if left > 0:
        return [ev.ConditionGained(unit, Condition.FEINT_TURNS, left)]
    return [
        ev.ConditionLost(
            unit, Condition.FEINTED, "not used before the end of its next turn (R-X10)"
        ),
        ev.ConditionLost(unit, Condition.FEINT_TURNS, "the feint lapsed"),
    ]


def feint_candidates(scene: Scene, other: str) -> Iterator[Feint]:
    """Anyone in sight and reach, allies too."""
    if scene.near(other):
        yield Feint(scene.unit, target=other)
