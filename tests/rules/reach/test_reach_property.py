"""Issue 3, terrain and movement, under random maps (hypothesis): the two forms of the ground
rules agree, and the reach map agrees with the move check (R-U2, R-U3, R-M2..R-M6, R-M9).

1. For every Gait and every pair of neighbouring cells, the scalar `step_problem`/`step_cost`
   (what a refusal explains) and the compiled `pathfinder.step_cost` (what reach maps use) say
   the same: blocked in both, or allowed at the same cost.
2. Every cell `reach_map` offers for a Walk or a Run is accepted by `plan_move`, both as a
   destination and along the path the reach map shows, at the cost it showed; every cell it
   leaves out is refused to a destination move.
3. A search with only the scalar rules, over every (cell, metres spent, metres covered), finds
   the same cells at the same least costs as the compiled search: nothing a written path could
   do is left out.
"""

from __future__ import annotations

import functools
import heapq
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from sim.content.scenario import loads
from sim.core.actions import Movement, Refusal, Run, Walk
from sim.core.components import Position
from sim.core.creature import conditions, creatures
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.rules.movement.footing import (
    DIRECTIONS,
    Gait,
    Mover,
    gait_word,
    mover,
    standing_at,
    step_cost,
)
from sim.rules.movement.footing import step_problem as scalar_problem
from sim.rules.movement.jump import jump_reach, plan_jump
from sim.rules.movement.movement import _explicit, plan_move, traced
from sim.rules.reach import pathfinder as pf
from sim.rules.reach.fields import Window, distance_field, field_to, ground
from sim.rules.reach.pathfinder import BLOCKED, step_costs
from sim.rules.reach.reachmap import reach_map
from tests.helpers import scenario_text
from tests.movers import creature

KINDS = (Kind.OPEN,) * 5 + (Kind.DIFFICULT, Kind.WALL, Kind.PIT)


@dataclass(frozen=True)
class Case:
    world: World

    def __repr__(self) -> str:  # what hypothesis prints for a failing example
        layers = self.world.grid.layers
        shown = [f"{name}=\n{layers[name]}" for name in ("kind", "height", "water", "obstacle")]
        units = {
            uid: (self.world.need(uid, Position).cell, conditions(self.world, uid).names())
            for uid in creatures(self.world)
        }
        return "Case(" + "\n".join(shown) + f"\nunits={units})"


def _layer(shape: tuple[int, int], values: st.SearchStrategy[int]) -> st.SearchStrategy[Any]:
    return arrays(np.int16, shape, elements=values)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A small random map (kinds, ground 0..3 m, some water 0..3 m, some low obstacles) with
    ana (perhaps a flier or a swimmer, R-Z5) and perhaps bo, an ally or an enemy, standing or
    prone."""
    w, h = draw(st.integers(3, 12)), draw(st.integers(3, 12))
    kind = draw(arrays(np.uint8, (h, w), elements=st.sampled_from([int(k) for k in KINDS])))
    zero_or = st.one_of  # most cells flat, dry and clear
    height = draw(_layer((h, w), zero_or(st.just(0), st.integers(0, 6))))
    water = draw(_layer((h, w), zero_or(st.just(0), st.just(0), st.integers(1, 6))))
    obstacle = draw(_layer((h, w), zero_or(st.just(0), st.just(0), st.integers(1, 3))))
    cells = [(x, y) for y in range(h) for x in range(w)]
    ana_at = draw(st.sampled_from(cells))
    bo_at = draw(st.one_of(st.none(), st.sampled_from([c for c in cells if c != ana_at])))
    rows = [["." for _ in range(w)] for _ in range(h)]
    rows[ana_at[1]][ana_at[0]] = "a"
    ana = creature(
        "ana",
        "blue",
        "a",
        race=draw(st.sampled_from(["human", "halfling", "dwarf", "orc"])),
        agi=f"d{draw(st.sampled_from([4, 6, 8, 10, 12]))}+{draw(st.integers(1, 12))}",
        skills={"athletics": draw(st.integers(0, 10))},
        # R-Z5: sometimes a flier, sometimes a swimmer (wading is not difficult for it).
        fly=draw(st.sampled_from([0, 0, 0, 9])),
        swim=draw(st.sampled_from([0, 0, 6])),
    )
    units = [ana]
    if bo_at is not None:
        rows[bo_at[1]][bo_at[0]] = "b"
        units.append(
            creature(
                "bo",
                draw(st.sampled_from(["blue", "red"])),
                "b",
                prone=draw(st.booleans()),
            )
        )
    world = loads(scenario_text("\n".join("".join(r) for r in rows), "\n".join(units))).world
    layers = world.grid.layers
    for uid_at in (ana_at, bo_at):
        if uid_at is not None and kind[uid_at[1], uid_at[0]] in (int(Kind.WALL), int(Kind.PIT)):
            kind[uid_at[1], uid_at[0]] = int(Kind.OPEN)  # nobody stands in a wall or a pit
    layers["kind"][...] = kind
    layers["height"][...] = height
    layers["water"][...] = water
    layers["obstacle"][...] = obstacle
    return Case(world)


FAST = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FAST
@given(cases())
@pytest.mark.slow
def test_scalar_and_compiled_ground_rules_agree_on_every_step(case: Case) -> None:
    """R-U2, R-U3, R-M2, R-M3, R-M4, R-M5, R-M9: the same answer from both forms, for every
    Gait and every neighbouring pair."""
    world = case.world
    grid = world.grid
    m = mover(world, "ana")
    whole = Window(0, 0, grid.width, grid.height)
    for gait in Gait:
        g = ground(world, m, gait, whole, 0, None)
        costs = step_costs(g.planes, g.flags, g.params)
        for a in grid.cells():
            for d, (dx, dy) in enumerate(DIRECTIONS):
                b = Pos(a.x + dx, a.y + dy)
                if not grid.inside(b):
                    continue
                compiled = int(costs[d, b.y, b.x])
                problem = scalar_problem(world, m, gait, a, b)
                where = f"{gait.name} {a}->{b}"
                if problem is None:
                    assert compiled == step_cost(world, m, gait, a, b), where
                else:
                    assert compiled == BLOCKED, f"{where}: scalar says {problem!r}"


def _along(kind: type[Movement], path: tuple[tuple[Pos, bool], ...]) -> Movement:
    cells = tuple(p for p, _ in path)
    return kind("ana", cells, None, tuple(i for i, (_, jumped) in enumerate(path) if jumped))


@FAST
@given(cases(), st.data())
def test_reach_map_cells_are_exactly_what_the_move_check_accepts(
    case: Case, data: st.DataObject
) -> None:
    """R-M1..R-M6 and R-M9: what the reach map offers a Walk or a Run the check accepts at the
    same cost, by destination and along the offered path; what it leaves out (a dozen of those
    cells, drawn at random, to keep the test quick), it refuses."""
    world = case.world
    start = world.need("ana", Position).cell
    for kind in (Walk, Run):
        offered = reach_map(world, "ana", only=(kind,))
        for cell, offer in offered.items():
            assert offer.action == kind.name
            plan = plan_move(world, kind("ana", to=cell))
            assert not isinstance(plan, Refusal), f"{kind.name} to {cell}: {plan}"
            assert plan.cost == offer.cost, f"{kind.name} to {cell}"
            along = plan_move(world, _along(kind, offer.path))
            assert not isinstance(along, Refusal), f"{kind.name} along {offer.path}: {along}"
            assert along.cost == offer.cost
        left_out = [c for c in world.grid.cells() if c != start and c not in offered]
        some = st.lists(st.sampled_from(left_out), max_size=12, unique=True) if left_out else None
        for cell in data.draw(some) if some is not None else []:
            refusal = plan_move(world, kind("ana", to=cell))
            assert isinstance(refusal, Refusal), f"{kind.name} to {cell} accepted: {refusal}"
    # The full map (one shared field for Walk, Run and Sprint) agrees with each action's own.
    for cell, offer in reach_map(world, "ana").items():
        if offer.action in ("walk", "run"):
            own = Walk if offer.action == "walk" else Run
            plan = plan_move(world, own("ana", to=cell))
            assert not isinstance(plan, Refusal), f"{offer.action} to {cell}: {plan}"
            assert plan.cost == offer.cost


def _reference_costs(world: World, limit: int) -> dict[Pos, int]:
    """The least cost of every cell a Walk-like move of `limit` half-metres can end in, found
    from the scalar rules the move check applies to a written path (`step_problem`,
    `step_cost`, `plan_jump`), searching every (cell, metres spent, metres covered): a path may
    come back over its cells to build run-up for a jump, and run-up is the metres covered, not
    spent (R-M6). Falls are left out, as in reach maps."""
    m = mover(world, "ana")
    jr = jump_reach(world, "ana", m)
    grid = world.grid
    start = world.need("ana", Position).cell
    # A cell's steps and jumps are worked out when the search first stands on it, and kept
    # for its other (metres spent, covered): worked out for every cell of the map (most of
    # them beyond the limit) and each step again at each visit, they were most of this
    # test's time.

    @functools.cache
    def steps_from(a: Pos) -> list[tuple[Pos, int, int]]:
        """Each step to a neighbour the scalar rules allow: (cell, cost, metres covered)."""
        found = []
        for b in a.neighbours():
            if grid.inside(b) and scalar_problem(world, m, Gait.STRIDE, a, b) is None:
                ground = m.diagonal if b.x != a.x and b.y != a.y else m.orthogonal
                found.append((b, step_cost(world, m, Gait.STRIDE, a, b), ground))
        return found

    @functools.cache
    def jumps_from(a: Pos) -> list[tuple[Pos, int, int, int]]:
        """Every jump from `a` to any other cell the scalar rules allow."""
        found = []
        for b in grid.cells():
            if b == a:
                continue
            plan = plan_jump(world, m, jr, a, b)
            if not isinstance(plan, str):
                # R-M6 Decision: a jump's own metres are paid one for one, wherever it lands.
                found.append((b, plan.length, plan.length, plan.runup_needed))
        return found

    best: dict[Pos, int] = {}
    queue = [(0, 0, start.y, start.x)]
    seen: set[tuple[Pos, int, int]] = set()
    while queue:
        spent, covered, y, x = heapq.heappop(queue)
        here = Pos(x, y)
        if (here, spent, covered) in seen:
            continue
        seen.add((here, spent, covered))
        best.setdefault(here, spent)
        # (cell, cost, metres covered): run-up is metres covered (R-M6)
        moves = steps_from(here) + [
            (b, cost, length) for b, cost, length, runup in jumps_from(here) if runup <= covered
        ]
        for b, cost, length in moves:
            if spent + cost <= limit and (b, spent + cost, covered + length) not in seen:
                heapq.heappush(queue, (spent + cost, covered + length, b.y, b.x))
    standing = standing_at(world, "ana")
    return {cell: cost for cell, cost in best.items() if cell != start and cell not in standing}


@FAST
@given(cases())
@pytest.mark.slow
def test_the_reach_map_finds_every_path_the_scalar_rules_allow(case: Case) -> None:
    """R-M2..R-M6, R-M9: not circular, unlike a destination move (which asks the reach engine
    itself): an exhaustive search with the scalar rules, over metres spent and covered as well
    as cells,
    finds exactly the cells and least costs of the compiled reach map, detours for run-up
    included."""
    world = case.world
    m = mover(world, "ana")
    start = world.need("ana", Position).cell
    limit = 12
    field = distance_field(world, m, Gait.STRIDE, start, limit, jump_reach(world, "ana", m))
    assert dict(field.ends()) == _reference_costs(world, limit)


@FAST
@given(cases(), st.integers(2, 14), st.integers(1, 16))
def test_a_smaller_search_reads_as_the_larger_one_where_it_reaches(
    case: Case, small: int, more: int
) -> None:
    """Issue #11 (`fields.field_to`): a Sprint's check plans with the most its roll could give,
    and reads the reach map's search of the least roll instead where that reaches the cell. So
    every cell a search with the smaller limit reaches must have there the cost, the may-end
    and the path that a fresh search with the larger limit gives it; and `field_to` serves the
    larger limit from the smaller search only for those cells."""
    world = case.world
    m = mover(world, "ana")
    jr = jump_reach(world, "ana", m)
    start = world.need("ana", Position).cell
    larger = distance_field(world.copy(), m, Gait.STRIDE, start, small + more, jr)
    kept = world.copy()
    smaller = distance_field(kept, m, Gait.STRIDE, start, small, jr)
    compared = 0
    for cell in world.grid.cells():
        cost = smaller.cost(cell)
        served = field_to(kept, m, Gait.STRIDE, start, small + more, jr, cell)
        if cost is None:
            assert served.limit == small + more, cell
            assert served.cost(cell) == larger.cost(cell), cell
            continue
        assert served is smaller
        assert larger.cost(cell) == cost, cell
        assert larger.can_end(cell) == smaller.can_end(cell), cell
        assert larger.path_to(cell) == smaller.path_to(cell), cell
        compared += 1
    assert compared >= 1  # the start itself at least


@FAST
@given(cases())
def test_a_searched_path_gives_the_legs_a_written_path_would(case: Case) -> None:
    """Issue #11 (`movement.traced`): a move to a cell takes its legs from the search, priced
    as the search priced them, instead of putting each step to the scalar rules again. For
    every cell each gait's search reaches, those legs are the ones `_explicit` makes of the
    same path written out: same cells, costs, falls (none), jumps and ledges grabbed."""
    world = case.world
    m = mover(world, "ana")
    jr = jump_reach(world, "ana", m)
    start = world.need("ana", Position).cell
    compared = with_jump = 0
    for gait, jumps in (
        (Gait.STRIDE, jr),
        (Gait.STEP, None),
        (Gait.CRAWL, None),
        (Gait.SWIM, None),
    ):
        field = distance_field(world, m, gait, start, 20, jumps)
        for cell, _ in field.ends():
            route = field.route_to(cell)
            written = Movement(
                "ana",
                tuple(c for c, _, _ in route),
                jumps=tuple(i for i, (_, jumped, _) in enumerate(route) if jumped),
            )
            slow = _explicit(world, written, m, gait, jumps, start, gait_word(gait))
            assert traced(world, m, jumps, start, route) == slow, (gait, cell)
            compared += 1
            with_jump += any(j for _, j, _ in route)
    print(f"paths compared: {compared}, with a jump: {with_jump}")


def test_the_compiled_constants_are_the_python_ones() -> None:
    """numba bakes these into its cached code, so pathfinder writes them out; they must not
    drift from the directions and terrain kinds everything else uses (R-U3)."""
    assert tuple(zip(pf.DX.tolist(), pf.DY.tolist(), strict=True)) == DIRECTIONS
    assert (pf.DIFFICULT, pf.WALL, pf.PIT) == (Kind.DIFFICULT, Kind.WALL, Kind.PIT)


def test_warming_up_compiles_the_search_the_reach_map_uses() -> None:
    """`sim play` calls this as its window opens (a first compile takes seconds): after it, the
    search and the trace hold the one signature reach maps call them with."""
    pf.warm_up()
    field = distance_field(*_fighter_on_open_ground(), 8)
    field.path_to(Pos(2, 0))
    compiled = pf._bound()
    assert len(compiled["search"].signatures) == 1
    assert len(compiled["trace"].signatures) == 1


def _fighter_on_open_ground() -> tuple[World, Mover, Gait, Pos]:
    world = loads(scenario_text("a....", creature("ana", "blue", "a"))).world
    return world, mover(world, "ana"), Gait.STRIDE, Pos(0, 0)
