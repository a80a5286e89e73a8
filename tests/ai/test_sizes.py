"""Issue #32, large creatures in what the AI weighs and the client shows (R-Z3 with R-R4, R-A4):
the threat and menace planes and the compiled provocation twin count every footprint cell of a
large creature, as attacker and as mover, and agree with the one-cell answers (`reaches`,
`provocations`) on random maps; the threat overlay marks the ring round an ogre's footprint."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.ai.context import Context, strike_spots
from sim.core.components import Position
from sim.core.creature import cells_of, creatures, side
from sim.core.geometry import Pos, footprint
from sim.core.grid import Kind
from sim.play.engine import Battle
from sim.rules.reach.fields import Field
from sim.rules.reach.opportunity import provocations, provoked_along, provoking_cells
from sim.rules.reach.reachmap import reach_map
from sim.rules.reach.threat import reached_plane, reaches
from sim.ui.model.planner import threat_map
from tests.movers import begin, creature, legend
from tests.rules.test_sizes import ogre

# Ground the random maps are drawn from: open mostly, difficult ground, a ledge, a high ledge.
GROUND = "......,,LH"
EXTRA = legend(L={"height": 1.5}, H={"height": 3.0})


def _place(seed: int) -> Battle:
    """A random 9x7 map: the ogre (size 2 or 3) among two or three foes, some of them large
    too, some holding spears (reach 2), each placed near it where its footprint fits on no
    one else."""
    rng = random.Random(seed)
    rows = ["".join(rng.choice(GROUND) for _ in range(9)) for _ in range(7)]
    taken: set[Pos] = set()
    units = []
    sizes = [rng.choice((2, 2, 3)), *(rng.choice((1, 1, 2)) for _ in range(rng.randint(2, 3)))]
    for index, size in enumerate(sizes):
        uid = ("ogre", "bo", "cy", "di")[index]
        team = "red" if index == 0 else "blue"
        for _ in range(200):
            at = Pos(rng.randrange(9 - size + 1), rng.randrange(7 - size + 1))
            mine = {Pos(at.x + dx, at.y + dy) for dy in range(size) for dx in range(size)}
            # Near the ogre, so that threats and provocations are many.
            if index and min(abs(c.x - 3) + abs(c.y - 3) for c in mine) > 4:
                continue
            if not mine & taken:
                break
        taken |= mine
        keys: dict[str, object] = {"size": size} if size > 1 else {}
        if index and rng.random() < 0.3:
            keys["held"] = ["spear"]
        text = creature(uid, team, "o", **keys).replace('at = "o"', f"at = [{at.x}, {at.y}]")
        units.append(text)
    return begin("\n".join(rows), *units, extra=EXTRA, dice=(6,) * 20)


@pytest.mark.parametrize("seed", range(12))
def test_R_Z3_threat_and_menace_planes_are_the_one_cell_answers_with_large_creatures(
    seed: int,
) -> None:
    """R-Z3: for every creature, large or not, the planes `Context.threat` and `menace` read
    equal the sums over `reaches` cell by cell, with footprints on both sides."""
    b = _place(seed)
    world = b.world
    compared = 0
    for unit in creatures(world):
        context = Context(world, unit)
        window = context.window
        for y in range(window.y0, window.y1):
            for x in range(window.x0, window.x1):
                cell = Pos(x, y)
                assert context.threat(cell) == context.threat_at(cell), (unit, cell)
                assert context.menace(cell) == context.menace_at(cell), (unit, cell)
                compared += context.threat_at(cell) > 0
    assert compared > 0


@pytest.mark.parametrize("seed", range(12))
def test_R_Z3_the_compiled_twin_of_a_large_movers_provocations_is_their_sum(seed: int) -> None:
    """R-R4 with R-Z3: the ogre's `provoked_along` (what the AI weighs) equals the sum over
    `provocations` of each path of its reach map, each foe weighed by a distinct power of two;
    and `provoking_cells` holds every top-left its footprint leaves a foe's reach from."""
    b = _place(seed)
    world = b.world
    foes = [u for u in creatures(world) if u != "ogre"]
    weights = {foe: float(2**i) for i, foe in enumerate(foes)}
    planes: dict[int, np.ndarray] = {}
    for cell, offered in reach_map(world, "ogre").items():
        field = offered.route
        if not isinstance(field, Field) or offered.hang is not None:
            continue
        if id(field) not in planes:
            planes[id(field)] = provoked_along(
                world, "ogre", field, weights.__getitem__, field.ground.can_end
            )
        route = tuple(p for p, _ in offered.path)
        found = provocations(world, "ogre", route)
        expected = sum(weights[p.enemy] for p in found)
        assert planes[id(field)][field.window.local(cell)] == expected, (cell, offered.action)
        assert all(p.cell in provoking_cells(world, "ogre") for p in found)


@pytest.mark.parametrize("seed", range(12))
def test_R_Z3_strike_spots_are_every_open_top_left_whose_footprint_reaches_the_foe(
    seed: int,
) -> None:
    """R-Z3 in what the AI walks toward (`nearest_foe` measures from these): for every
    creature, large or not, the strike spots against its foes are exactly the top-lefts where
    its footprint lies on the map, clear of walls and of every other standing creature's
    cells, and from which `reaches` the foe, as every cell of the map says."""
    b = _place(seed)
    world = b.world
    grid = world.grid
    checked = large = 0
    for unit in creatures(world):
        mine = side(world, unit)
        foes = [u for u in creatures(world) if u != unit]  # any other, for the one-cell pairs
        taken = {c for u in creatures(world) if u != unit for c in cells_of(world, u)}
        for foe in foes:
            target = world.need(foe, Position).cell
            found = strike_spots(world, unit, [foe])
            expected = []
            for y in range(-2, grid.height + 1):
                for x in range(-2, grid.width + 1):
                    at = Pos(x, y)
                    cells = footprint(at, mine)
                    if all(
                        grid.inside(c) and c not in taken and grid.kind(c) != Kind.WALL
                        for c in cells
                    ) and reaches(world, unit, at, target, target_side=side(world, foe)):
                        expected.append(at)
            assert sorted(found) == sorted(expected), (unit, foe)
            checked += len(found)
            large += len(found) * (mine > 1 or side(world, foe) > 1)
    print(f"strike spots checked: {checked}, with a large creature: {large}")
    assert large > 0


def test_R_Z3_a_foe_reaching_any_cell_of_the_ogre_threatens_it_there() -> None:
    """R-Z3 in the AI's threat: ana at (4,3) reaches the ogre wherever one of its four cells
    is within 1.5 m of her: its top-left anywhere from (2,1) to (5,4), sixteen cells, and
    nowhere else; the plane says so cell for cell, as `reaches` does, and the ogre's threat
    counts her two attacks there, against 0.7 of one at (0,0), where she is only close."""
    rows = """
    ........
    ........
    ........
    ....a...
    ........
    """
    b = begin(rows, ogre(at=[0, 0]), creature("ana", "blue", "a"))
    world = b.world
    context = Context(world, "ogre")
    window = context.window
    plane = reached_plane(world, "ana", Pos(4, 3), window, 2)
    marked = {window.world_pos(int(y), int(x)) for y, x in zip(*np.nonzero(plane), strict=True)}
    assert marked == {Pos(x, y) for x in range(2, 6) for y in range(1, 5)}
    for y in range(window.y0, window.y1):
        for x in range(window.x0, window.x1):
            cell = Pos(x, y)
            assert reaches(world, "ana", Pos(4, 3), cell, target_side=2) == (cell in marked)
    # Her two attacks where she reaches it, 0.7 of one where she is only close (the AI's
    # weights of R-A4 reach, sim/ai/context.py).
    assert context.threat(Pos(2, 2)) == pytest.approx(context.threat(Pos(0, 0)) * 2 / 0.7)


def test_R_Z3_the_threat_overlay_marks_the_ring_round_every_cell_of_an_ogre() -> None:
    """R-Z3 in the window's threat overlay (T): the ogre at (1,1) threatens the 12 cells round
    its four, which hold it, not the cells one further off."""
    rows = """
    ......
    ......
    ......
    ......
    .....a
    """
    b = begin(rows, ogre(at=[1, 1]), creature("ana", "blue", "a"))
    world = b.world
    shown = threat_map(world, ("red",), "blue")
    ring = {Pos(x, y) for x in range(4) for y in range(4)} - set(cells_of(world, "ogre"))
    assert set(shown) == ring and all(who == ["ogre"] for who in shown.values())
    assert side(world, "ogre") == 2 and world.need("ogre", Position).cell == Pos(1, 1)
