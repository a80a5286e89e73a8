"""Trip (R-X19), a 1 Action: a melee attack (a `trip` weapon doubles the FCS Bonus in the Hit
Roll); on a hit, normal damage, and the target makes an AGI Save against the Hit Roll or falls
Prone (R-M10: in waist-deep water it starts swimming). Evade doubles the AGI Bonus of the first
AGI Save (R-X9)."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from functools import partial

from sim.core import events as ev
from sim.core.actions import Attack, Refusal, Trip
from sim.core.condition import Condition
from sim.core.creature import has, incapacitated
from sim.core.dice import Dice
from sim.core.purpose import AttackKind, RollKind
from sim.core.world import World
from sim.rules.candidates import Scene, Unless
from sim.rules.combat.attack import AttackPlan, plan_attack, plans, strike, weapon_kind
from sim.rules.combat.checks import saved
from sim.rules.combat.reactions import Ask, Reply
from sim.rules.combat.sizes import size_modifier, too_large
from sim.rules.combat.stance import save_roll
from sim.rules.movement.prone import knocked_down
from sim.rules.reach.target import in_reach

Resolution = Generator[ev.Event | Ask, Reply | None, None]


def _plan(world: World, action: Trip) -> AttackPlan | Refusal:
    refusal = in_reach(world, action.actor, action.target, "trip", "R-X19")
    if refusal is not None:
        return refusal
    target = action.target
    large = too_large(world, action.actor, target, "trip")
    if large is not None:
        return large
    if has(world, target, Condition.PRONE):
        return Refusal(f"{target} is already prone; there is nothing to trip (R-X19)")
    if has(world, target, Condition.SWIMMING):
        return Refusal(f"{target} is swimming; there is nothing to trip (R-X19)")
    plan = plan_attack(world, Attack(action.actor, target, action.weapon))
    if isinstance(plan, Refusal):
        return plan
    if not plan.melee:
        return Refusal(f"{plan.weapon} is a ranged weapon; a trip is a melee attack (R-X19)")
    return plan


def check_trip(world: World, action: Trip) -> Refusal | None:
    plan = _plan(world, action)
    return plan if isinstance(plan, Refusal) else None


def resolve_trip(world: World, action: Trip, dice: Dice) -> Resolution:
    plan = _plan(world, action)
    assert isinstance(plan, AttackPlan)
    actor, target = action.actor, action.target
    kind = weapon_kind(world, plan.weapon)
    factor = world.rules.actions.trip_weapon_fcs_factor if kind and kind.trip else 1
    result = yield from strike(
        world,
        dice,
        actor,
        target,
        weapon=plan.weapon,
        melee=True,
        purpose="trip",
        tag=AttackKind.TRIP,
        factor=factor,
        extra=size_modifier(world, actor, target),  # R-Z4
    )
    if not result.hit or incapacitated(world, target) or has(world, target, Condition.PRONE):
        return
    purpose = f"keep its feet: AGI Save against {result.hit_roll}"
    save = yield from save_roll(world, dice, target, "agi", purpose, tag=RollKind.KEEP_FEET)
    if not saved(save.total, result.hit_roll):
        yield from knocked_down(world, target)


# --- candidates (sim/play/legal.py): at anyone in sight and reach ---


def weapon_trip_candidates(scene: Scene, aimed: tuple[str, str]) -> Iterator[Trip]:
    other, weapon = aimed
    if scene.near(other):
        yield Trip(scene.unit, target=other, weapon=weapon)


def trip_candidates(scene: Scene, other: str) -> Iterator[Unless]:
    """The trip with no weapon named, unless one held names it (listed before it)."""
    if scene.near(other):
        same = partial(plans(scene, other).any_same, scene.held)
        yield Unless(Trip(scene.unit, target=other), same)
