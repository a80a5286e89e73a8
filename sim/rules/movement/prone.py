"""Standing up and going prone (R-M10), with the water rule (R-M9)."""

from __future__ import annotations

from sim.core import events as ev
from sim.core.actions import FallProne, Refusal, StandUp
from sim.core.components import Body, Position
from sim.core.condition import Condition
from sim.core.creature import cells_of, has, side
from sim.core.dice import Dice
from sim.core.world import World
from sim.rules.movement.footing import mover, standing_at
from sim.rules.movement.movement import fall


def water_depth(world: World, unit: str) -> float:
    """Metres of water where it stands: a large creature's deepest cell decides (R-Z2)."""
    grid = world.grid.footprints(side(world, unit))
    return grid.water_half(world.need(unit, Position).cell) / 2


def waist_deep(world: World, unit: str) -> bool:
    """R-M9: water from half the creature's height up counts as waist-deep."""
    fraction = world.rules.movement.waist_fraction
    return water_depth(world, unit) >= world.need(unit, Body).height * fraction


def standing_in(world: World, unit: str) -> str | None:
    """Another standing creature sharing one of this creature's cells (R-M5, R-Z1)."""
    held = standing_at(world, unit)
    return next((held[c] for c in cells_of(world, unit) if c in held), None)


def knocked_off(world: World, unit: str, why: str) -> list[ev.Event]:
    """R-M4: a creature hanging on a face (R-M7) that is shoved or knocked off it falls from the
    height it hangs at into the cell below: Prone, 2 crushing damage per full metre above its
    height, or swimming if that cell holds water at least waist-deep."""
    where = world.need(unit, Position)
    out: list[ev.Event] = [ev.ConditionLost(unit, Condition.HANGING, why)]
    return out + fall(world, mover(world, unit), unit, where.cell, where.cell, where.elevation)


def knocked_down(world: World, unit: str) -> list[ev.Event]:
    """A creature made to fall Prone by another (a failed save against a Shove or a Trip): in
    waist-deep or deeper water it starts swimming instead (R-M10); hanging on a face, it is
    knocked off and falls (R-M4)."""
    if has(world, unit, Condition.HANGING):
        return knocked_off(world, unit, "knocked off the face (R-M4)")
    if has(world, unit, Condition.PRONE) or has(world, unit, Condition.SWIMMING):
        return []
    if waist_deep(world, unit):
        return [ev.ConditionGained(unit, Condition.SWIMMING, 1)]
    return [ev.ConditionGained(unit, Condition.PRONE, 1)]


def check_fall_prone(world: World, action: FallProne) -> Refusal | None:
    if has(world, action.actor, Condition.PRONE):
        return Refusal(f"{action.actor} is already prone (R-M10)")
    if has(world, action.actor, Condition.SWIMMING):
        return Refusal(f"{action.actor} is swimming and cannot fall prone (R-M10)")
    return None


def resolve_fall_prone(world: World, action: FallProne, dice: Dice) -> list[ev.Event]:
    # R-M10: in waist-deep or deeper water a creature starts to swim instead.
    return knocked_down(world, action.actor)


def check_stand_up(world: World, action: StandUp) -> Refusal | None:
    if not has(world, action.actor, Condition.PRONE):
        return Refusal(f"{action.actor} is not prone (R-M10)")
    other = standing_in(world, action.actor)
    if other is not None:
        cell = world.need(action.actor, Position).cell
        return Refusal(
            f"{action.actor} cannot stand up: {other} is standing in {cell} "
            "until it moves or falls prone (R-M10)"
        )
    return None


def resolve_stand_up(world: World, action: StandUp, dice: Dice) -> list[ev.Event]:
    return [ev.ConditionLost(action.actor, Condition.PRONE, "stood up")]
