"""A creature's reach map: every cell it can reach with one Movement Action it can still pay
for, the cheapest such action, its cost in metres, the path, and the budget left after it."""

from __future__ import annotations

from dataclasses import dataclass

from sim.actions import Action, Climb, Crawl, Jump, Movement, Refusal, Run, Sprint, Step, Swim, Walk
from sim.budget import price
from sim.climb import plan_climb
from sim.components import Budget, Position
from sim.creature import has
from sim.footing import Mover, mover
from sim.geometry import Pos
from sim.jump import jump_reach
from sim.movement import GAITS, allowance, condition_problem, jumps_allowed, plan_move
from sim.reach import distance_field
from sim.world import World

# Cheapest first on the budget ladder (R-B1): Step is a Bonus Action, Walk and Jump a ½ Action,
# Run, Crawl, Swim and Climb 1 Action, Sprint 1 Action + 1 Bonus Action.
ORDER: tuple[type[Movement], ...] = (Step, Walk, Jump, Run, Crawl, Swim, Climb, Sprint)


@dataclass(frozen=True, slots=True)
class ReachCell:
    cell: Pos
    action: str
    cost: int  # half-metres of movement
    path: tuple[tuple[Pos, bool], ...]  # cells after the start; True where entered by a jump
    half_left: int
    bonus_left: int

    @property
    def metres(self) -> float:
        return self.cost / 2


def _affordable(world: World, action: Action) -> tuple[int, int] | None:
    cost = price(world, action)
    if isinstance(cost, Refusal):
        return None
    budget = world.need(action.actor, Budget)
    return budget.half - cost.half, budget.bonus - cost.bonus


def reach_map(
    world: World, unit: str, only: tuple[type[Movement], ...] = ORDER
) -> dict[Pos, ReachCell]:
    """Every cell `unit` can end a Movement Action in now, by the cheapest action (pure)."""
    out: dict[Pos, ReachCell] = {}
    start = world.need(unit, Position).cell
    m = mover(world, unit)
    for kind in only:
        left = _affordable(world, kind(unit))
        if left is None or condition_problem(world, unit, kind) is not None:
            continue
        for cell, cost, path in _cells(world, unit, kind, start, m):
            if cell not in out:
                out[cell] = ReachCell(cell, kind.name, cost, path, *left)
    return dict(sorted(out.items(), key=lambda kv: (kv[0].y, kv[0].x)))


Found = list[tuple[Pos, int, tuple[tuple[Pos, bool], ...]]]


def _cells(world: World, unit: str, kind: type[Movement], start: Pos, mv: Mover) -> Found:
    if kind is Jump or kind is Climb:
        # Few candidates: ask the check itself for each cell around.
        radius = jump_reach(world, unit, mv).length(0) // 2 + 1 if kind is Jump else 1
        found: Found = []
        for dy in range(-radius, radius + 1):
            for dx in range(-radius, radius + 1):
                cell = Pos(start.x + dx, start.y + dy)
                if cell == start or not world.grid.inside(cell):
                    continue
                if kind is Jump:
                    plan = plan_move(world, Jump(unit, to=cell))
                    if not isinstance(plan, Refusal):
                        found.append((cell, plan.cost, ((cell, True),)))
                else:
                    climbed = plan_climb(world, Climb(unit, to=cell))
                    if not isinstance(climbed, Refusal) and climbed.face is None:
                        found.append((cell, round(climbed.metres * 2), ((cell, False),)))
        return found
    if kind is Step and has(world, unit, "swimming"):
        # R-M8: out of the water with a Step, one straight metre.
        found: Found = []
        for cell in start.neighbours():
            plan = plan_move(world, Step(unit, (cell,)))
            if not isinstance(plan, Refusal):
                found.append((cell, plan.cost, ((cell, False),)))
        return found
    limit = allowance(world, unit, kind, roll=1) if kind is Sprint else allowance(world, unit, kind)
    jr = jump_reach(world, unit, mv) if jumps_allowed(kind) else None
    field = distance_field(world, mv, GAITS[kind], start, limit, jr)
    return [(cell, cost, field.path_to(cell)) for cell, cost in field.ends()]
