"""The battle state as plain JSON-ready data (for `--state`, saves and tests)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.core.actions import Movement
from sim.core.components import Budget, Gear, Hands, Health, Item, Position, Team
from sim.core.condition import written
from sim.core.creature import conditions, creatures, lying, side, team_of
from sim.core.geometry import Pos
from sim.core.world import World
from sim.play.engine import Battle


@dataclass(frozen=True, slots=True)
class Passing:
    """A move paused at a reaction window: `unit` stands at `cell` on its way to `to` (where
    the move was asked to end), passing through the standing allies `through` that hold
    that cell (R-M5 **Decision**: a creature may move through allies; the window opens before
    it leaves the cell, R-R4, R-R8)."""

    unit: str
    action: str
    cell: Pos
    to: Pos
    through: tuple[str, ...]


def passing(battle: Battle) -> Passing | None:
    """The move waiting at the open reaction window, if a move is what waits."""
    action = battle.resolving
    if not isinstance(action, Movement):
        return None
    world = battle.world
    unit = action.actor
    if not world.exists(unit) or not world.has(unit, Position):
        return None
    cell = world.need(unit, Position).cell
    end = action.to if action.to is not None else (action.path[-1] if action.path else cell)
    through = tuple(
        other
        for other in creatures(world)
        if other != unit
        and not lying(world, other)
        and world.need(other, Position).cell == cell
        and team_of(world, other) == team_of(world, unit)
    )
    return Passing(unit, action.name, cell, end, through)


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
        "conditions": {k: written(v) for k, v in conditions(world, unit).entries},
        "budget": {"half": budget.half, "bonus": budget.bonus},
        "held": list(world.need(unit, Hands).items()),
        "carried": list(gear.carried),
        "armour": gear.armour,
    } | ({"size": side(world, unit)} if side(world, unit) > 1 else {})  # R-Z1


def snapshot(world: World, battle: Battle | None = None) -> dict[str, Any]:
    """Each unit's cell, height, HP, conditions, budget left and held items; items on the ground;
    and, from `battle`, the move waiting at an open reaction window ("moving")."""
    turn = world.turn
    move = passing(battle) if battle is not None else None
    return {
        "round": turn.round,
        "turn": turn.current,
        "over": turn.over,
        "winners": list(turn.winners),
        "moving": None
        if move is None
        else {
            "unit": move.unit,
            "action": move.action,
            "cell": [move.cell.x, move.cell.y],
            "to": [move.to.x, move.to.y],
            "passing_through": list(move.through),
        },
        "units": {unit: unit_state(world, unit) for unit in creatures(world)},
        "ground_items": {
            item: {"kind": world.need(item, Item).kind, "cell": [pos.cell.x, pos.cell.y]}
            for item, pos in world.each(Position)
            if world.has(item, Item)
        },
    }
