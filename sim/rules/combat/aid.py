"""Aid and Administer (R-X11, R-X12, R-K2): tending an ally in reach.

Aid (1½ Action) gives an ally every part that applies: it loses Incapacitated and comes up to
1 HP (R-K2); it loses 2 Burning stacks (R-K4); for Bleeding (R-K5) the aider rolls First Aid and
the ally loses (roll − 10) stacks. Administer (1 Action) heals an ally by the aider's First Aid
level, or helps a willing creature drink a potion or remedy the administrator holds or carries,
with its effect at once.

**Decisions**: neither tends the actor itself (Consume is for that); "willing" means of the
same side; healing does not end Incapacitated (only Aid does, R-K2); a potion is not refused
when it would do nothing, but First Aid on an unhurt ally is; a creature revived in a cell where
another creature stands stays down, Prone (R-M5: one standing creature a cell), and gets up with
Stand Up once the cell is free.
"""

from __future__ import annotations

from collections.abc import Iterator

from sim.core import events as ev
from sim.core.actions import Administer, Aid, Refusal
from sim.core.components import Health, Stats
from sim.core.condition import Condition
from sim.core.creature import conditions, hp, incapacitated, team_of
from sim.core.dice import Dice
from sim.core.purpose import RollKind
from sim.core.world import World
from sim.rules.candidates import Scene
from sim.rules.combat.checks import skill_check
from sim.rules.combat.health import heal
from sim.rules.combat.items import drink_effects, possessed, undrinkable
from sim.rules.movement.prone import standing_in
from sim.rules.reach.target import in_reach


def _ally_in_reach(world: World, actor: str, target: str, what: str, rule: str) -> Refusal | None:
    problem = in_reach(world, actor, target, what, rule)
    if problem is not None:
        return problem
    if team_of(world, target) != team_of(world, actor):
        return Refusal(f"{target} is not {actor}'s ally; only an ally can be tended ({rule})")
    return None


def _stacks_left(
    unit: str, condition: Condition, stacks: int, lost: int, why: str
) -> list[ev.Event]:
    left = stacks - lost
    if left > 0:
        return [ev.ConditionGained(unit, condition, left)]
    return [ev.ConditionLost(unit, condition, why)]


# --- Aid (R-X11) -------------------------------------------------------------------------------


def check_aid(world: World, action: Aid) -> Refusal | None:
    actor, target = action.actor, action.target
    problem = _ally_in_reach(world, actor, target, "aid", "R-X11")
    if problem is not None:
        return problem
    held = conditions(world, target)
    if not (
        incapacitated(world, target)
        or held.count(Condition.BURNING)
        or held.count(Condition.BLEEDING)
    ):
        return Refusal(
            f"{target} needs no aid: it is not Incapacitated, Burning or Bleeding (R-X11)"
        )
    return None


def resolve_aid(world: World, action: Aid, dice: Dice) -> list[ev.Event]:
    actor, target = action.actor, action.target
    numbers = world.rules.conditions
    held = conditions(world, target)
    out: list[ev.Event] = []
    if incapacitated(world, target):
        revive = numbers.incapacitated_revive_hp
        if hp(world, target) < revive:
            out += heal(world, target, revive - hp(world, target), f"{actor}'s aid (R-K2)")
        if standing_in(world, target) is not None and not held.has(Condition.PRONE):
            # Down, it shared its cell (R-M5); revived, it may not stand in it beside another.
            out.append(ev.ConditionGained(target, Condition.PRONE, 1))
        out.append(ev.ConditionLost(target, Condition.INCAPACITATED, f"aided by {actor} (R-X11)"))
    burning = held.count(Condition.BURNING)
    if burning:
        lost = numbers.aid_burning_stacks
        out += _stacks_left(target, Condition.BURNING, burning, lost, f"{actor} put out the flames")
    bleeding = held.count(Condition.BLEEDING)
    if bleeding:
        purpose = f"first aid for {target}'s bleeding"
        roll = skill_check(world, dice, actor, "first_aid", purpose, tag=RollKind.FIRST_AID)
        out.append(roll.rolled)
        lost = max(0, roll.total - numbers.aid_bleeding_threshold)
        if lost:
            out += _stacks_left(target, Condition.BLEEDING, bleeding, lost, f"{actor} stopped it")
    return out


# --- Administer (R-X12) ------------------------------------------------------------------------


def check_administer(world: World, action: Administer) -> Refusal | None:
    actor, target = action.actor, action.target
    if action.item is None:
        problem = _ally_in_reach(world, actor, target, "administer", "R-X12")
        if problem is not None:
            return problem
        if world.need(actor, Stats).skill("first_aid") <= 0:
            return Refusal(f"{actor} has no First Aid to heal with (R-X12)")
        health = world.need(target, Health)
        if health.hp >= health.max_hp:
            return Refusal(
                f"{target} is unhurt ({health.hp}/{health.max_hp} HP); nothing to heal (R-X12)"
            )
        return None
    problem = in_reach(world, actor, target, "administer", "R-X12")
    if problem is not None:
        return problem
    if team_of(world, target) != team_of(world, actor):
        return Refusal(f"{target} is not willing: only an ally drinks what {actor} gives (R-X12)")
    item = possessed(world, actor, action.item)  # R-X12: "a potion/remedy you possess"
    if item is None:
        return Refusal(f"{actor} has no {action.item!r} to administer (R-X12)")
    return undrinkable(world, item, "R-X12")


def resolve_administer(world: World, action: Administer, dice: Dice) -> list[ev.Event]:
    actor, target = action.actor, action.target
    if action.item is None:
        level = world.need(actor, Stats).skill("first_aid")
        return heal(world, target, level, f"{actor}'s first aid (R-X12)")
    item = possessed(world, actor, action.item)
    assert item is not None
    return [ev.ItemConsumed(actor, item), *drink_effects(world, target, item)]


# --- candidates (sim/play/legal.py): tending is for allies in reach (R-X11, R-X12) ---


def aid_candidates(scene: Scene, other: str) -> Iterator[Aid]:
    if scene.near(other) and scene.ally(other):
        yield Aid(scene.unit, target=other)


def administer_candidates(scene: Scene, other: str) -> Iterator[Administer]:
    """First Aid, and each item held or carried (the check tells which is a potion)."""
    if scene.near(other) and scene.ally(other):
        yield Administer(scene.unit, target=other)
        for item in (*scene.held, *scene.carried):
            yield Administer(scene.unit, target=other, item=item)
