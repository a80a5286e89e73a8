"""Aim, Brace, Evade and Guard (R-X1, R-X3, R-X9, R-X14): effects that wait for a later roll."""

from __future__ import annotations

from collections.abc import Generator

from sim.core import events as ev
from sim.core.actions import Aim, Brace, Evade, Guard, Refusal
from sim.core.components import Stats
from sim.core.condition import Condition
from sim.core.creature import has
from sim.core.dice import Dice
from sim.core.purpose import RollKind
from sim.core.world import World
from sim.rules.combat.checks import Check, roll_check
from sim.rules.combat.reactions import Reply


def check_aim(world: World, action: Aim) -> Refusal | None:
    if has(world, action.actor, Condition.AIMING):
        return Refusal(f"{action.actor} is already aiming; Aim does not add up (R-X1)")
    return None


def resolve_aim(world: World, action: Aim, dice: Dice) -> list[ev.Event]:
    bonus = world.rules.actions.aim_bonus
    return [ev.ConditionGained(action.actor, Condition.AIMING, bonus)]


def check_brace(world: World, action: Brace) -> Refusal | None:
    if has(world, action.actor, Condition.BRACED):
        return Refusal(f"{action.actor} is already braced until its next turn (R-X3)")
    return None


def resolve_brace(world: World, action: Brace, dice: Dice) -> list[ev.Event]:
    return [ev.ConditionGained(action.actor, Condition.BRACED, 1)]


def check_evade(world: World, action: Evade) -> Refusal | None:
    if has(world, action.actor, Condition.EVADING):
        return Refusal(f"{action.actor} is already evading until its next turn (R-X9)")
    return None


def resolve_evade(world: World, action: Evade, dice: Dice) -> list[ev.Event]:
    return [ev.ConditionGained(action.actor, Condition.EVADING, 1)]


def _evading(world: World, unit: str, attribute: str) -> bool:
    return attribute == "agi" and has(world, unit, Condition.EVADING)


def save_words(world: World, unit: str, attribute: str, purpose: str) -> str:
    """How the log words the Save `save_roll` is about to make: `purpose`, and a note when
    Evade doubles its AGI Bonus (R-X9)."""
    return purpose + (", Evade: AGI Bonus doubled" if _evading(world, unit, attribute) else "")


def save_roll(
    world: World, dice: Dice, unit: str, attribute: str, purpose: str, *, tag: RollKind
) -> Generator[ev.Event, Reply | None, Check]:
    """A Save (R-C2); Evade doubles the AGI Bonus of the first AGI Save (R-X9) and is used up
    by it."""
    evading = _evading(world, unit, attribute)
    modifier = world.need(unit, Stats).attribute("agi").bonus if evading else 0
    words = save_words(world, unit, attribute, purpose)
    save = roll_check(world, dice, unit, attribute, words, tag=tag, modifier=modifier)
    yield save.rolled
    if evading:
        yield ev.ConditionLost(unit, Condition.EVADING, "its first AGI Save (R-X9)")
    return save


def check_guard(world: World, action: Guard) -> Refusal | None:
    if has(world, action.actor, Condition.GUARDING) or has(
        world, action.actor, Condition.GUARD_USED
    ):
        return Refusal(f"{action.actor} has already used Guard this round (R-X14: once a round)")
    return None


def resolve_guard(world: World, action: Guard, dice: Dice) -> list[ev.Event]:
    return [ev.ConditionGained(action.actor, Condition.GUARDING, world.turn.round)]
