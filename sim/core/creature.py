"""Read-only questions about a creature that many rules ask (Speed, attributes, conditions)."""

from __future__ import annotations

from sim.core.catalog import Armour
from sim.core.components import (
    Body,
    Conditions,
    Gear,
    Health,
    Item,
    Position,
    Size,
    Stats,
    Team,
)
from sim.core.condition import Condition
from sim.core.geometry import Pos, footprint
from sim.core.roster import roster
from sim.core.world import World


def is_creature(world: World, entity: str) -> bool:
    return world.has(entity, Team) and world.has(entity, Stats)


def creatures(world: World) -> tuple[str, ...]:
    """Every creature, in scenario order."""
    return world.memo(
        "creatures",
        lambda: tuple(entity for entity, _ in world.each(Team) if world.has(entity, Stats)),
        reads=(Team, Stats),
    )


def team_of(world: World, unit: str) -> str:
    return world.need(unit, Team).name


_NO_CONDITIONS = Conditions()  # shared: `has` is asked often (issue #11)


def conditions(world: World, unit: str) -> Conditions:
    return world.get(unit, Conditions) or _NO_CONDITIONS


def has(world: World, unit: str, condition: Condition) -> bool:
    # Asked thousands of times a battle (issue #30): `conditions` and `Conditions.has` inlined.
    held = world.get(unit, Conditions)
    return held is not None and held.has(condition)


def incapacitated(world: World, unit: str) -> bool:
    """R-C6, R-K2."""
    held = world.get(unit, Conditions)
    return held is not None and held.has(Condition.INCAPACITATED)


def able(world: World) -> tuple[str, ...]:
    """The creatures not Incapacitated (R-K2, R-C6), in scenario order: kept from the world's
    journal (issue #30: most changes of a condition leave them as they were)."""
    return roster(world, "standing", _able, (Conditions, Team, Stats))


def _able(world: World, entity: str) -> bool:
    return is_creature(world, entity) and not incapacitated(world, entity)


def hp(world: World, unit: str) -> int:
    return world.need(unit, Health).hp


def item_kind(world: World, item: str) -> str:
    return world.need(item, Item).kind


def worn_armour(world: World, unit: str) -> Armour | None:
    gear = world.get(unit, Gear)
    if gear is None or gear.armour is None:
        return None
    found = world.catalog.get(item_kind(world, gear.armour))
    return found if isinstance(found, Armour) else None


def after_armour(world: World, unit: str, amount: int) -> int:
    """Damage less the worn armour's Armour Rating, at least 0 (R-A3)."""
    armour = worn_armour(world, unit)
    return max(0, amount - (armour.rating if armour else 0))


def speed(world: World, unit: str) -> int:
    """Race Speed less the worn armour's penalty (R-C5, R-C7), never below 0."""
    base = world.need(unit, Body).speed
    armour = worn_armour(world, unit)
    return max(0, base - (armour.speed_penalty if armour else 0))


def unseen_by(world: World, unit: str) -> tuple[str, ...]:
    """The opponents that do not see `unit` (R-X8): the "unseen" condition's creatures."""
    return conditions(world, unit).creatures(Condition.UNSEEN)


def lying(world: World, unit: str) -> bool:
    """Down on the ground: Prone, or Incapacitated (R-K2), so it holds no cell for itself and
    others may share its cell (R-M5)."""
    return has(world, unit, Condition.PRONE) or incapacitated(world, unit)


def side(world: World, unit: str) -> int:
    """How many cells wide the creature is: 1, 2 or 3 (R-Z1)."""
    size = world.get(unit, Size)
    return 1 if size is None else size.side


def cells_of(world: World, unit: str) -> tuple[Pos, ...]:
    """Every cell the creature stands on, its Position first (R-Z1)."""
    return footprint(world.need(unit, Position).cell, side(world, unit))
