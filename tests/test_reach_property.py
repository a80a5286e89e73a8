"""Issue 3, terrain and movement, under random maps (hypothesis): the two forms of the ground
rules agree, and the reach map agrees with the move check (R-U2, R-U3, R-M2..R-M6, R-M9).

1. For every Gait and every pair of neighbouring cells, the scalar `step_problem`/`step_cost`
   (what a refusal explains) and the compiled `pathfinder.step_cost` (what reach maps use) say
   the same: blocked in both, or allowed at the same cost.
2. Every cell `reach_map` offers for a Walk or a Run is accepted by `plan_move`, both as a
   destination and along the path the reach map shows, at the cost it showed; every cell it
   leaves out is refused to a destination move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from sim.actions import Movement, Refusal, Run, Walk
from sim.components import Position
from sim.creature import conditions, creatures
from sim.footing import DIRECTIONS, Gait, mover, step_cost
from sim.footing import step_problem as scalar_problem
from sim.geometry import Pos
from sim.grid import Kind
from sim.movement import plan_move
from sim.pathfinder import BLOCKED, step_costs
from sim.reach import Window, ground
from sim.reachmap import reach_map
from sim.scenario import loads
from sim.world import World
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
    ana and perhaps bo, an ally or an enemy, standing or prone."""
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
