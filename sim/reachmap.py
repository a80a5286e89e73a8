"""A creature's reach map: every cell it can reach with one Movement Action it can still pay
for, the cheapest such action, its cost in metres, the path, and the budget left after it; and
a face it can start up (or down) with a Climb that stops part-way, where it would hang."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sim.actions import Action, Climb, Crawl, Jump, Movement, Refusal, Run, Sprint, Step, Swim, Walk
from sim.budget import price
from sim.climb import ClimbPlan, plan_climb
from sim.components import Budget, Position
from sim.condition import Condition
from sim.creature import has
from sim.footing import Gait, Mover, mover
from sim.geometry import Pos
from sim.jump import jump_reach
from sim.movement import GAITS, allowance, condition_problem, jumps_allowed, plan_move
from sim.reach import Field, distance_field
from sim.world import World

# Cheapest first on the budget ladder (R-B1): Step is a Bonus Action, Walk and Jump a ½ Action,
# Run, Crawl, Swim and Climb 1 Action, Sprint 1 Action + 1 Bonus Action.
ORDER: tuple[type[Movement], ...] = (Step, Walk, Jump, Run, Crawl, Swim, Climb, Sprint)


Path = tuple[tuple[Pos, bool], ...]  # cells after the start; True where entered by a jump


@dataclass(frozen=True, slots=True)
class Hang:
    """Where a Climb that stops part-way leaves its climber (R-M7): in `cell` (the cell below
    the face), `height` metres above that cell's ground, on the face of `face`."""

    cell: Pos
    height: float
    face: Pos


@dataclass(frozen=True, slots=True)
class ReachCell:
    """One reachable cell. The path is worked out only when asked for (the hover path).
    `hang`: the action is a Climb that does not get there this action but hangs part-way; the
    cell is then the one the climb is aimed at (its "to"), not where the climber ends."""

    cell: Pos
    action: str
    cost: int  # half-metres of movement
    half_left: int
    bonus_left: int
    route: Field | Path = field(repr=False, compare=False)
    hang: Hang | None = None

    @property
    def metres(self) -> float:
        return self.cost / 2

    @property
    def path(self) -> Path:
        if isinstance(self.route, Field):
            return self.route.path_to(self.cell)
        return self.route


def _affordable(world: World, action: Action, budget: Budget | None) -> tuple[int, int] | None:
    cost = price(world, action, budget)
    if isinstance(cost, Refusal):
        return None
    if budget is None:
        budget = world.need(action.actor, Budget)
    return budget.half - cost.half, budget.bonus - cost.bonus


def reach_map(
    world: World,
    unit: str,
    only: tuple[type[Movement], ...] = ORDER,
    *,
    submerged: bool = False,
    quicken: bool = False,
    budget: Budget | None = None,
) -> dict[Pos, ReachCell]:
    """Every cell `unit` can end a Movement Action in now, by the cheapest action (pure).
    `submerged`: a Swim is a dive, in water at least as deep as `unit` is tall (R-M8).
    `quicken`: the actions are priced Quickened (R-B6), which may pay for one the plain budget
    cannot; where they go is the same. `budget` replaces the unit's own, as in `budget.price`:
    the turn's budget an Extended Action in progress gives back (R-B5)."""
    out: dict[Pos, ReachCell] = {}
    start = world.need(unit, Position).cell
    m = mover(world, unit)
    usable: list[tuple[type[Movement], tuple[int, int]]] = []
    for kind in only:
        left = _affordable(world, kind(unit, quicken=quicken), budget)
        if left is not None and condition_problem(world, unit, kind) is None:
            usable.append((kind, left))
    # Walk, Run and Sprint follow the same ground rules and differ only in metres: one field
    # with the largest of their allowances serves all three (its costs are least costs).
    strides = [_limit(world, unit, kind) for kind, _ in usable if kind in STRIDES]
    shared = None
    shared_ends: list[tuple[Pos, int]] = []
    if strides:
        jr = jump_reach(world, unit, m)
        shared = distance_field(world, m, Gait.STRIDE, start, max(strides), jr)
        shared_ends = shared.ends()
    hanging: list[ReachCell] = []
    for kind, left in usable:
        if kind in STRIDES:
            assert shared is not None
            limit = _limit(world, unit, kind)
            name, half, bonus = kind.name, *left
            for cell, cost in shared_ends:
                if cost <= limit and cell not in out:
                    out[cell] = ReachCell(cell, name, cost, half, bonus, shared)
            continue
        if kind is Climb:
            found, partial = _climbs(world, unit, start)
            hanging += [
                ReachCell(c, kind.name, cost, *left, route, hang)
                for c, cost, route, hang in partial
            ]
        else:
            found = _cells(world, unit, kind, start, m, submerged)
        for cell, cost, route in found:
            if cell not in out:
                out[cell] = ReachCell(cell, kind.name, cost, *left, route)
    # A climb that only starts up a face is offered where no action gets there outright.
    for offer in hanging:
        out.setdefault(offer.cell, offer)
    return dict(sorted(out.items(), key=lambda kv: (kv[0].y, kv[0].x)))


Found = list[tuple[Pos, int, Field | Path]]
Partial = list[tuple[Pos, int, Path, Hang]]


def _climbs(world: World, unit: str, start: Pos) -> tuple[Found, Partial]:
    """The neighbouring cells a Climb gets to (R-M7), and those whose face it only starts up
    or down this action, hanging part-way: the check itself is asked for each of the eight
    cells around (and a climber hanging on a face may go up to it or down to the ground)."""
    found: Found = []
    partial: Partial = []
    grid = world.grid
    for cell in start.neighbours():
        if not grid.inside(cell):
            continue
        climbed = plan_climb(world, Climb(unit, to=cell))
        if isinstance(climbed, ClimbPlan):
            cost = round(climbed.metres * 2)
            if climbed.face is None:
                found.append((cell, cost, ((cell, False),)))
            else:
                hang = Hang(climbed.end, climbed.elevation, climbed.face)
                partial.append((cell, cost, ((cell, False),), hang))
    return found, partial


STRIDES = (Walk, Run, Sprint)


def _limit(world: World, unit: str, kind: type[Movement]) -> int:
    """The metres an action allows; for Sprint the least its roll can give."""
    return allowance(world, unit, kind, roll=1) if kind is Sprint else allowance(world, unit, kind)


def _cells(
    world: World, unit: str, kind: type[Movement], start: Pos, mv: Mover, submerged: bool = False
) -> Found:
    if kind is Jump:
        # Few candidates: ask the check itself for each cell around that a standing jump
        # could land in. A jump goes in a straight line (orthogonal or diagonal) no longer
        # than the standing jump (R-M6): the check refuses any other cell, so it is not asked.
        longest = jump_reach(world, unit, mv).length(0)
        radius = longest // 2 + 1
        found: Found = []
        # Only cells of the map: a long jump (a large AGI Bonus) must not mean a long loop.
        grid = world.grid
        for y in range(max(start.y - radius, 0), min(start.y + radius + 1, grid.height)):
            dy = y - start.y
            for x in range(max(start.x - radius, 0), min(start.x + radius + 1, grid.width)):
                dx = x - start.x
                if (dx, dy) == (0, 0) or (dx and dy and abs(dx) != abs(dy)):
                    continue
                if (mv.diagonal if dx and dy else mv.orthogonal) * max(abs(dx), abs(dy)) > longest:
                    continue
                cell = Pos(x, y)
                plan = plan_move(world, Jump(unit, to=cell))
                if not isinstance(plan, Refusal):
                    found.append((cell, plan.cost, ((cell, True),)))
        return found
    if kind is Step and has(world, unit, Condition.SWIMMING):
        # R-M8: out of the water with a Step, one straight metre.
        found = []
        for cell in start.neighbours():
            plan = plan_move(world, Step(unit, (cell,)))
            if not isinstance(plan, Refusal):
                found.append((cell, plan.cost, ((cell, False),)))
        return found
    jr = jump_reach(world, unit, mv) if jumps_allowed(kind) else None
    if kind is Swim and submerged:
        # R-M8: a dive swims only where the water is at least as deep as the swimmer is tall,
        # which is what the search reads as deep enough to swim when the waist is that high.
        mv = replace(mv, waist_half=mv.height_half)
    reach = distance_field(world, mv, GAITS[kind], start, _limit(world, unit, kind), jr)
    return [(cell, cost, reach) for cell, cost in reach.ends()]
