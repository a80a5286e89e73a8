"""Benchmark: the reach map against scipy's C Dijkstra on the same plain cost model.

Generated maps (15% walls, 20% difficult ground), a human in the middle, a 9 m and a 30 m
budget. Prints medians of repeated runs and the ratios to scipy measured in the same run, and
checks that both give the same distances. Our times include everything a reach map costs
(cutting the window, occupancy, the search); scipy's is its dijkstra alone on a graph built
beforehand. Every run of ours is cold: on a fresh copy of the world, which keeps no answer
from the run before (World.memo). Also the share of a full reach map (every Movement Action)
that is its own compiled searches, on the 40x40 4-vs-4 maps of bench/engine.py at the start
of each creature's first turn (goal of issue #11: the whole map within 3x of its searches).
Run: `python bench/reach.py` (needs the bench extra: `pip install -e '.[bench]'`).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.content.scenario import loads
from sim.core.creature import creatures
from sim.core.geometry import Pos
from sim.core.world import World
from sim.formats.replay import begin
from sim.rules.movement.footing import DIRECTIONS, Gait, mover
from sim.rules.movement.jump import jump_reach
from sim.rules.reach import fields as reach_module
from sim.rules.reach import pathfinder
from sim.rules.reach.fields import INF, distance_field, ground
from sim.rules.reach.pathfinder import step_costs
from sim.rules.reach.reachmap import reach_map

REPEATS = 15


def make_scenario(n: int, seed: int = 1) -> str:
    rng = np.random.default_rng(seed)
    r = rng.random((n, n))
    grid = np.where(r < 0.15, "#", np.where(r < 0.35, ",", "."))
    mid = n // 2
    grid[mid, mid] = "a"
    rows = "\n".join("".join(row) for row in grid)
    return (
        f'name = "bench {n}"\n[map]\nrows = """\n{rows}\n"""\n'
        '[[units]]\nid = "ana"\nteam = "blue"\ntemplate = "human_fighter"\nat = "a"\n'
    )


def median_ms(fn: Callable[[], object]) -> float:
    fn()  # warm-up
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def scipy_graph(fields_cost: np.ndarray, shape: tuple[int, int]):  # type: ignore[no-untyped-def]
    """The same window's step costs as a sparse graph (edges a -> b with cost[d, b])."""
    from scipy.sparse import csr_matrix

    hh, ww = shape
    rows, cols, data = [], [], []
    ys, xs = np.mgrid[0:hh, 0:ww]
    for d, (dx, dy) in enumerate(DIRECTIONS):
        ay, ax = ys - dy, xs - dx
        ok = (ay >= 0) & (ay < hh) & (ax >= 0) & (ax < ww) & (fields_cost[d] < INF)
        rows.append((ay * ww + ax)[ok])
        cols.append((ys * ww + xs)[ok])
        data.append(fields_cost[d][ok])
    n = hh * ww
    return csr_matrix(
        (np.concatenate(data).astype(float), (np.concatenate(rows), np.concatenate(cols))),
        shape=(n, n),
    )


@dataclass(frozen=True, slots=True)
class Times:
    """Median ms of one map size and budget: the plain field, with jumps, a whole reach map,
    scipy's Dijkstra alone and with its graph built; the cells reached."""

    field: float
    jumps: float
    reach_map: float
    scipy: float
    built: float
    cells: int


def compare(n: int, metres: int) -> Times:
    """The reach map's search against scipy's on an n x n generated map with a `metres`
    budget, after checking that both find the same cells at the same costs."""
    from scipy.sparse.csgraph import dijkstra

    scenario = loads(make_scenario(n), f"bench{n}.toml")
    world = scenario.world
    m = mover(world, "ana")
    jr = jump_reach(world, "ana", m)
    start = Pos(n // 2, n // 2)
    limit = metres * 2
    plain = distance_field(world, m, Gait.STRIDE, start, limit)
    # scipy gets the window's plain cost model (no jumps), the fairest like-for-like.
    g = ground(world, m, Gait.STRIDE, plain.window, limit, None)
    costs = step_costs(g.planes, g.flags, g.params)
    graph = scipy_graph(costs, plain.window.shape)
    sy, sx = plain.window.local(start)
    source = sy * plain.window.shape[1] + sx
    ref = dijkstra(graph, indices=source, limit=limit)
    ours = plain.dist.reshape(-1).astype(float)
    ours[ours >= INF] = np.inf
    assert np.array_equal(np.isinf(ref), np.isinf(ours)), "reachable cells differ"
    assert np.array_equal(ref[~np.isinf(ref)], ours[~np.isinf(ours)]), "costs differ"
    shape = plain.window.shape
    return Times(
        median_ms(lambda: distance_field(world.copy(), m, Gait.STRIDE, start, limit)),
        median_ms(lambda: distance_field(world.copy(), m, Gait.STRIDE, start, limit, jr)),
        median_ms(lambda: reach_map(world.copy(), "ana")),
        median_ms(lambda: dijkstra(graph, indices=source, limit=limit)),
        median_ms(lambda: dijkstra(scipy_graph(costs, shape), indices=source, limit=limit)),
        int((~np.isinf(ref)).sum()),
    )


def main() -> None:
    try:
        import scipy.sparse.csgraph  # noqa: F401
    except ImportError:
        print("scipy is missing: pip install -e '.[bench]'")
        raise SystemExit(1) from None
    pathfinder.warm_up()  # the compiled engine, not a process's first searches interpreted
    print(f"reach map vs scipy.sparse.csgraph.dijkstra, median of {REPEATS} runs (ms)")
    header = f"{'map':>9} {'budget':>7} {'cells':>6} {'field':>8} {'+jumps':>8} "
    header += f"{'reach_map':>10} {'scipy':>8} {'+graph':>8} {'ratio':>6} {'ratio_j':>7}"
    print(header)
    verdicts = []
    jumps_note = ""
    for n in (32, 128, 512):
        for metres in (9, 30):
            t = compare(n, metres)
            ratio, ratio_j = t.field / t.scipy, t.jumps / t.scipy
            print(
                f"{n:>4}x{n:<4} {metres:>5} m {t.cells:>6} {t.field:>8.3f} {t.jumps:>8.3f} "
                f"{t.reach_map:>10.3f} {t.scipy:>8.3f} {t.built:>8.3f} {ratio:>6.2f} "
                f"{ratio_j:>7.2f}"
            )
            if n == 128 and metres == 30:
                verdicts.append(
                    ("30 m on 128x128 within 3x of scipy, on the same plain cost model", ratio <= 3)
                )
                jumps_note = f"with jumps folded in (scipy cannot express run-up): {ratio_j:.1f}x"
            if n == 512 and metres == 30:
                verdicts.append(("512x512, every rule on, under 16 ms", t.jumps < 16))
    print(
        "field: the plain cost model (walk/run, no jumps); +jumps: jumps folded in (every rule "
        "on); reach_map: every affordable Movement Action; scipy: dijkstra alone on a prepared "
        "graph; +graph: building that graph too; ratio: field / scipy; ratio_j: +jumps / scipy."
    )
    for goal, met in verdicts:
        print(f"goal: {goal}: {verdict(met)}")
    print(f"for information, 30 m on 128x128 {jumps_note}")
    whole, searched = search_share()
    ratio = whole / searched
    print(
        f"full reach map on the 40x40 4-vs-4 maps: median {whole:.2f} ms, its compiled "
        f"searches {searched:.2f} ms: {ratio:.1f}x"
    )
    print(f"goal: full reach map within 3x of its compiled searches: {verdict(ratio <= 3)}")


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def search_share() -> tuple[float, float]:
    """Median ms of a full reach map and of the compiled searches it runs, per creature at
    the start of its first turn on eight generated 40x40 battle maps. Both in CPU time of
    this process, so that a shared machine's load weighs on neither."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from engine import generated_map  # bench/engine.py's maps

    searching = [0.0]
    search = pathfinder.search

    def timed(*args: object) -> object:
        start = time.process_time()
        out = search(*args)  # type: ignore[arg-type]
        searching[0] += time.process_time() - start
        return out

    wholes, searches = [], []
    reach_module.pf.search = timed  # type: ignore[assignment]
    try:
        for seed in range(1, 9):
            world: World = begin(loads(generated_map(seed), f"<bench map {seed}>"), 0).world
            for unit in creatures(world):
                reach_map(world.copy(), unit)  # warm-up
                for _ in range(5):
                    searching[0] = 0.0
                    start = time.process_time()
                    reach_map(world.copy(), unit)
                    wholes.append(time.process_time() - start)
                    searches.append(searching[0])
    finally:
        reach_module.pf.search = search
    return statistics.median(wholes) * 1000, statistics.median(searches) * 1000


if __name__ == "__main__":
    main()
