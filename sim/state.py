"""The battle state as plain JSON-ready data (for `--state`, saves and tests)."""

from __future__ import annotations

from typing import Any

from sim.components import Budget, Gear, Hands, Health, Item, Position, Team
from sim.creature import conditions, creatures
from sim.world import World


def unit_state(world: World, unit: str) -> dict[str, Any]:
    pos = world.need(unit, Position)
    health = world.need(unit, Health)
    budget = world.need(unit, Budget)
    gear = world.need(unit, Gear)
    ground = world.grid.ground_half(pos.cell) / 2
    return {
        "team": world.need(unit, Team).name,
        "cell": [pos.cell.x, pos.cell.y],
        "height": ground + pos.elevation,
        "hp": health.hp,
        "max_hp": health.max_hp,
        "conditions": dict(conditions(world, unit).entries),
        "budget": {"half": budget.half, "bonus": budget.bonus},
        "held": list(world.need(unit, Hands).items()),
        "carried": list(gear.carried),
        "armour": gear.armour,
    }


def snapshot(world: World) -> dict[str, Any]:
    """Each unit's cell, height, HP, conditions, budget left and held items; items on the ground."""
    turn = world.turn
    return {
        "round": turn.round,
        "turn": turn.current,
        "over": turn.over,
        "winners": list(turn.winners),
        "units": {unit: unit_state(world, unit) for unit in creatures(world)},
        "ground_items": {
            item: {"kind": world.need(item, Item).kind, "cell": [pos.cell.x, pos.cell.y]}
            for item, pos in world.each(Position)
            if world.has(item, Item)
        },
    }
