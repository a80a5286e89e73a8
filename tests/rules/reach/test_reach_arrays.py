"""Issue #11: the reach map as arrays. `reach_map` reads as a mapping from cell to ReachCell
(row order, each ReachCell made when asked) and gives the same cells at once as arrays; the
terrain stack it cuts windows from follows map edits; half-metres keep their exact rounding."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from sim.core.actions import Climb, Jump, Movement, Swim
from sim.core.components import Budget
from sim.core.geometry import Pos, half_metres
from sim.core.grid import Kind
from sim.core.world import World
from sim.play.engine import Battle
from sim.rules.reach.reachmap import ORDER, ReachMap, reach_map, search_of
from tests.movers import begin, creature

# ana with a wall, difficult ground, a pond and a pit nearby; bo far off.
ROWS = """
..........
.a..#,,...
....#,~~..
......._..
.........b
"""


def _battle() -> Battle:
    return begin(ROWS, creature("ana", "blue", "a"), creature("bo", "red", "b"))


def test_reach_map_reads_as_a_mapping_in_row_order_and_as_arrays() -> None:
    cells = reach_map(_battle().world, "ana")
    assert isinstance(cells, ReachMap)
    keys = list(cells)
    assert keys == sorted(keys, key=lambda p: (p.y, p.x)), "row order, as before"
    assert len(cells) == len(keys) > 20
    xs, ys, costs, codes = cells.arrays()
    assert [Pos(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)] == keys
    for pos, cost, code in zip(keys, costs.tolist(), codes.tolist(), strict=True):
        offer = cells[pos]
        assert (offer.cell, offer.cost, offer.action) == (pos, cost, cells.offers[code].name)
    assert Pos(1, 1) not in cells  # where ana stands
    assert Pos(4, 1) not in cells  # a wall
    assert Pos(99, 99) not in cells and "not a cell" not in cells
    with pytest.raises(KeyError):
        cells[Pos(4, 1)]
    assert cells.get(Pos(4, 1)) is None and cells.get("not a cell") is None  # type: ignore[call-overload]
    assert dict(cells.items()) == {p: cells[p] for p in keys}


def test_the_terrain_stack_follows_a_map_edit() -> None:
    """A wall painted in the map editor (Grid.set_cell) is a wall to the next reach map."""
    world = _battle().world
    assert Pos(2, 1) in reach_map(world, "ana")
    world.grid.set_cell(Pos(2, 1), kind=Kind.WALL)
    assert Pos(2, 1) not in reach_map(world.copy(), "ana")


def test_half_metres_rounds_as_the_exact_fraction_does() -> None:
    """R-U4: metres round down to the half-metre, a float's error (2.9999999 m) counted as the
    whole number it stands for. The quick form for floats gives the exact form's answer."""

    def exact(metres: float) -> int:
        return int(Fraction(metres).limit_denominator(1000) * 2 // 1)

    rng = random.Random(7)
    values = [a / b for a in range(-40, 120) for b in range(1, 25)]
    values += [n / 2 - e for n in range(40) for e in (1e-9, 1e-6, 2e-4, 6e-4, 3e-3)]
    values += [rng.uniform(-5.0, 60.0) for _ in range(20_000)]
    near = sum(1 for v in values if (v * 2) % 1 >= 0.999)  # the ones the quick form hands on
    assert [half_metres(v) for v in values] == [exact(v) for v in values]
    print(f"half_metres: {len(values)} floats, {near} within 1/1000 under a whole half-metre")
    assert near >= 100
    assert half_metres(3) == 6 and half_metres(Fraction(10, 3)) == 6


def _searched(world: World, kind: type[Movement]) -> dict[Pos, int] | None:
    """The cells and costs `search_of` gives for `kind`, as `pf.offer` offers them."""
    found = search_of(world, "ana", kind)
    if found is None:
        return None
    field, limit = found
    ok = (field.dist <= limit) & field.ground.can_end
    ok[field.window.local(field.start)] = False
    ys, xs = np.nonzero(ok)
    return {
        field.window.world_pos(y, x): int(field.dist[y, x])
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True)
    }


def test_search_of_gives_the_cells_of_a_reach_map_of_one_kind() -> None:
    """Issue #30: the AI reads one kind's cells off its search (`search_of`) rather than a reach
    map of that kind made again: the same cells at the same costs, and None exactly where that
    map's cells are not one search's (a Jump's, a Climb's) or there are none (no water to swim,
    nothing left to pay with)."""
    world = _battle().world
    searched = 0
    for kind in ORDER:
        cells = reach_map(world, "ana", only=(kind,))
        found = _searched(world, kind)
        if found is None:
            assert kind in (Jump, Climb, Swim) or not cells, kind
            assert not cells or cells.offers[0].field is None, kind
            continue
        searched += 1
        assert found == {pos: cells[pos].cost for pos in cells}, kind
        assert found and all(cells[pos].action == kind.name for pos in cells), kind
    assert searched >= 4  # Step, Walk, Run, Crawl, Sprint
    spent = world.copy()
    spent.set("ana", replace(spent.need("ana", Budget), half=0, bonus=0))
    assert all(_searched(spent, kind) is None for kind in ORDER)
    assert all(not reach_map(spent, "ana", only=(kind,)) for kind in ORDER)
