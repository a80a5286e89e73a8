"""Feint (R-X10), a ½ Action: a Deception check against the target's FCS Save (R-C4: a tie goes
to the target). Success gives +5 on the feinter's next melee Hit Roll, whatever its target
(condition "feinted", value: the bonus), as the text says; **Decision** the bonus is kept until
that roll is made, and a second Feint does not stack with an unused one (it is refused, as a
second Aim is, R-X1)."""

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
    held = conditions(world, action.actor)
    if held.has(Condition.FEINTED):
        return Refusal(
            f"{action.actor} already has a feint's +{held.count(Condition.FEINTED)} for its next "
            "melee Hit Roll; a second Feint does not stack with an unused one (R-X10)"
        )
    return in_reach(world, action.actor, action.target, "feint", "R-X10")


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
        out.append(ev.ConditionGained(actor, Condition.FEINTED, world.rules.actions.feint_bonus))
    return out


def feint_candidates(scene: Scene, other: str) -> Iterator[Feint]:
    """Anyone in sight and reach, allies too."""
    if scene.near(other):
        yield Feint(scene.unit, target=other)
