"""Donning and doffing armour, the Extended Actions (R-B3, R-B5)."""

from __future__ import annotations

from sim.core import events as ev
from sim.core.actions import Action, Doff, Don, Refusal
from sim.core.catalog import Armour
from sim.core.components import Gear
from sim.core.creature import item_kind
from sim.core.dice import Dice
from sim.core.world import World
from sim.rules.candidates import Scene
from sim.rules.combat.items import find


def _armour(world: World, item: str) -> Armour | None:
    kind = world.catalog.get(item_kind(world, item))
    return kind if isinstance(kind, Armour) else None


def turns_needed(world: World, action: Action, armour: Armour) -> int:
    """R-B5: 5 / 10 / 20 turns to don by class, half (rounded up) to doff; Slow adds a turn."""
    extended = world.rules.extended
    don = extended.don_turns[armour.armour_class]
    turns = don if isinstance(action, Don) else -(-don // extended.doff_divisor)
    if action.slow:
        turns += extended.slowed_extra_turns
    return turns


def check_don(world: World, action: Don) -> Refusal | None:
    gear = world.need(action.actor, Gear)
    if gear.armour is not None:
        return Refusal(f"{action.actor} already wears {gear.armour}; doff it first (R-B5)")
    item = find(world, action.item, gear.carried)
    if item is None:
        return Refusal(f"{action.actor} carries no {action.item!r} to don (R-B5)")
    if _armour(world, item) is None:
        return Refusal(f"{item} is not armour (R-B5)")
    return None


def resolve_don(world: World, action: Don, dice: Dice) -> list[ev.Event]:
    item = find(world, action.item, world.need(action.actor, Gear).carried)
    assert item is not None
    armour = _armour(world, item)
    assert armour is not None
    return [ev.ExtendedBegun(action.actor, "don", item, turns_needed(world, action, armour))]


def check_doff(world: World, action: Doff) -> Refusal | None:
    if world.need(action.actor, Gear).armour is None:
        return Refusal(f"{action.actor} wears no armour to doff (R-B5)")
    return None


def resolve_doff(world: World, action: Doff, dice: Dice) -> list[ev.Event]:
    item = world.need(action.actor, Gear).armour
    assert item is not None
    armour = _armour(world, item)
    assert armour is not None
    return [ev.ExtendedBegun(action.actor, "doff", item, turns_needed(world, action, armour))]


def don_candidates(scene: Scene, item: str) -> tuple[Don]:
    """Each carried item: the check tells which is armour."""
    return (Don(scene.unit, item),)
