"""A plain-text picture of a battle: what `sim play` prints before its window opens (the
terminal client, `sim play --text`, is sim/ui/text)."""

from __future__ import annotations

from sim.core.components import Body, Budget, Health, Position
from sim.core.creature import conditions, creatures, team_of
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.ui.text.board import TERRAIN


def render(world: World) -> str:
    grid = world.grid
    at: dict[Pos, str] = {}
    for index, unit in enumerate(creatures(world)):
        at.setdefault(world.need(unit, Position).cell, str(index % 10))
    lines = []
    for y in range(grid.height):
        row = []
        for x in range(grid.width):
            pos = Pos(x, y)
            if pos in at:
                row.append(at[pos])
            elif grid.water_half(pos) and grid.kind(pos) is Kind.OPEN:
                row.append("~")
            else:
                row.append(TERRAIN[grid.kind(pos)])
        lines.append("".join(row))
    lines.append("")
    turn = world.turn
    lines.append(
        f"Round {turn.round}; {turn.current or 'nobody'} to act"
        if not turn.over
        else f"Battle over; winners: {', '.join(turn.winners) or 'none'}"
    )
    for index, unit in enumerate(creatures(world)):
        health = world.need(unit, Health)
        budget = world.need(unit, Budget)
        pos = world.need(unit, Position).cell
        marks = ", ".join(conditions(world, unit).names())
        body = world.need(unit, Body)
        # R-Z5: ^ a flier, ~ a swimmer, and its speeds.
        sign = "^" if body.fly else "~" if body.swim else ""
        moves = ", ".join(f"{mode} {metres} m" for mode, metres in body.modes)
        lines.append(
            f"  {index % 10} {unit:<10} {team_of(world, unit):<6} {pos!s:<8} "
            f"HP {health.hp}/{health.max_hp}  H{budget.half} B{budget.bonus}"
            + (f"  [{marks}]" if marks else "")
            + (f"  {sign} moves: {moves}" if moves else "")
        )
    return "\n".join(lines)
