"""Issue #30 (a short command's start): the reach engine's functions run as written, interpreted,
until numba pays for itself; both forms must give the same arrays, so that when a process
switches (after INTERPRET_SECONDS of searching) no game can tell.

On random maps (tests/rules/reach/test_reach_property.py's cases: kinds, heights, water,
obstacles, fliers, swimmers, an ally or an enemy standing or prone) the interpreted and the
compiled functions give the same reach map (cells, costs, offers, paths), the same searched
fields and routes for every gait, and the same provocation sums along every path."""

from __future__ import annotations

import threading
import time
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given

from sim.cli.main import main
from sim.content.scenario import loads
from sim.core.components import Position
from sim.core.world import World
from sim.rules.movement.footing import Gait, mover
from sim.rules.movement.jump import jump_reach
from sim.rules.reach import pathfinder as pf
from sim.rules.reach.fields import distance_field
from sim.rules.reach.opportunity import provoked_along
from sim.rules.reach.reachmap import reach_map
from tests.helpers import scenario_text
from tests.movers import creature
from tests.rules.reach.test_first_start import python
from tests.rules.reach.test_reach_property import FAST, Case, cases

ROOT = Path(__file__).resolve().parents[3]


@contextmanager
def _interpreting() -> Iterator[None]:
    """The module's stand-ins replaced by the interpreted family for the block."""
    family = pf.interpreted()
    kept = {name: getattr(pf, name) for name in family}
    for name, func in family.items():
        setattr(pf, name, func)
    try:
        yield
    finally:
        for name, func in kept.items():
            setattr(pf, name, func)


def _looked(world: World) -> tuple[object, ...]:
    """Everything the search gives for ana on `world`: its reach map's arrays and paths, and
    for each gait the field's ends, routes and provocation sums (every foe weighing 1 + its
    index, so that an order or a missed foe shows)."""
    world = world.copy()  # nothing memoised from the other form's run
    found: list[object] = []
    reached = reach_map(world, "ana")
    found.append(tuple((a.dtype.str, a.tolist()) for a in reached.arrays()))
    found.append(tuple((cell, reached[cell].path) for cell in reached))
    m = mover(world, "ana")
    start = world.need("ana", Position).cell
    weights: dict[str, float] = {}
    for gait, jumps in (
        (Gait.STRIDE, jump_reach(world, "ana", m)),
        (Gait.STEP, None),
        (Gait.CRAWL, None),
        (Gait.SWIM, None),
    ):
        field = distance_field(world, m, gait, start, 20, jumps)
        ends = field.ends()
        found.append(tuple((cell, cost, field.route_to(cell)) for cell, cost in ends))
        asked = np.ones(field.dist.shape, dtype=np.bool_)
        sums = provoked_along(
            world, "ana", field, lambda foe: weights.setdefault(foe, 1.0 + len(weights)), asked
        )
        found.append((sums.dtype.str, sums.tolist()))
    return tuple(found)


def test_the_interpreted_functions_are_python_calling_each_other() -> None:
    family = pf.interpreted()
    assert set(family) >= {"search", "offer", "trace", "paths_provoked", "cell_flags"}
    for name, func in family.items():
        assert type(func) is types.FunctionType, name  # not a numba dispatcher
        assert func.__globals__ is family["search"].__globals__  # one namespace ...
        assert func.__globals__[name] is func  # ... in which they find each other as written
    # The tests run compiled: the controller compiled the cache (tests/conftest.py); a worker
    # that has run no search yet loads it here, as its first search would.
    pf.warm_up()
    compiled = pf._bound()
    assert pf._USE_COMPILED.is_set()
    assert type(compiled["search"]) is not types.FunctionType  # numba's dispatcher ...
    assert compiled["search"].py_func.__globals__["step_cost"] is compiled["step_cost"]  # ...'s
    assert pf.search.__wrapped__.__globals__["search"] is pf.search  # the module's: stand-ins


@FAST
@given(cases())
def test_interpreted_and_compiled_searches_give_the_same_maps(case: Case) -> None:
    compiled = _looked(case.world)
    with _interpreting():
        interpreted = _looked(case.world)
    assert interpreted == compiled
    print(f"reach map cells: {len(compiled[1])}")  # type: ignore[arg-type]


def test_a_short_run_interprets_and_never_imports_numba(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A `sim run` of one Walk searches a few small windows: interpreted, well under the CPU
    numba's import and cache load would cost, and with the log this process (compiled) gives."""
    script = tmp_path / "walk.jsonl"
    script.write_text('{"unit": "bram", "action": "walk", "to": [3, 3]}\n', encoding="utf-8")
    skirmish = str(ROOT / "scenarios" / "skirmish.toml")
    args = ["run", skirmish, "--seed", "6", "--script", str(script)]
    code = (
        "import sys\n"
        "from sim.cli.main import main\n"
        f"status = main({args!r})\n"
        "from sim.rules.reach import pathfinder\n"
        "print('numba' in sys.modules, pathfinder._SPENT[0] > 0, status, file=sys.stderr)\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert done.stderr.split() == ["False", "True", "0"]  # no numba; it searched, interpreted
    assert '"type": "moved"' in done.stdout
    assert main(args) == 0  # compiled here (tests/conftest.py)
    assert capsys.readouterr().out == done.stdout


@pytest.fixture
def state() -> Iterator[None]:
    """The pathfinder's switches as the tests left them (compiled, nothing warming) afterwards."""
    spent = pf._SPENT[0]
    yield
    pf._SPENT[0] = spent
    pf._WARMING.clear()
    pf._FAILED.clear()
    pf._WARMED.clear()
    pf._USE_COMPILED.set()


def _arrays(world: World, unit: str) -> list[tuple[str, list[object]]]:
    return [(a.dtype.str, a.tolist()) for a in reach_map(world.copy(), unit).arrays()]


def _open_map(side: int) -> World:
    rows = "\n".join("a" + "." * (side - 1) if y == 0 else "." * side for y in range(side))
    return loads(scenario_text(rows, creature("ana", "blue", "a"))).world


def test_a_process_interprets_until_its_budget_then_compiles(state: None) -> None:
    """The stand-ins' switch: under INTERPRET_SECONDS of interpreting, a search runs
    interpreted (the time is counted); past it, the next one binds the compiled family and
    every later one uses it, with the same answers."""
    world = _open_map(12)
    compiled = _arrays(world, "ana")
    pf._USE_COMPILED.clear()
    pf._SPENT[0] = 0.0
    assert _arrays(world, "ana") == compiled
    assert 0 < pf._SPENT[0] < pf.INTERPRET_SECONDS and not pf._USE_COMPILED.is_set()
    pf._SPENT[0] = pf.INTERPRET_SECONDS
    assert _arrays(world, "ana") == compiled
    assert pf._USE_COMPILED.is_set() and pf._SPENT[0] == pf.INTERPRET_SECONDS


def test_a_window_too_large_to_interpret_is_searched_compiled_at_once(
    state: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pf, "INTERPRET_CELLS", 100)  # a 10x10 window: the 20x20 map's are larger
    world = _open_map(20)
    compiled = _arrays(world, "ana")
    pf._USE_COMPILED.clear()
    pf._SPENT[0] = 0.0
    assert _arrays(world, "ana") == compiled
    assert pf._SPENT[0] == 0.0 and pf._USE_COMPILED.is_set()


def test_the_warm_up_behind_ends_compiled_and_a_large_window_waits_for_it(
    state: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While `warm_up_behind`'s work runs in its thread, a small window is searched interpreted
    and a large one waits for the work to end, then is searched compiled; after it, every
    search is compiled and nothing is warming."""
    monkeypatch.setattr(pf, "INTERPRET_CELLS", 100)  # a 10x10 window
    small, large = _open_map(6), _open_map(20)
    expected = _arrays(small, "ana"), _arrays(large, "ana")
    pf._USE_COMPILED.clear()
    pf._SPENT[0] = pf.INTERPRET_SECONDS  # past the budget: only the warm-up keeps it interpreted
    release = threading.Event()
    work = pf.warm_up_behind()

    def behind() -> None:
        release.wait(10)
        time.sleep(0.3)  # a warm-up that takes a while: the large search must wait it out
        work()

    thread = threading.Thread(target=behind)
    thread.start()
    assert _arrays(small, "ana") == expected[0]  # interpreted, not waiting
    assert pf._SPENT[0] > pf.INTERPRET_SECONDS and not pf._USE_COMPILED.is_set()
    release.set()
    spent = pf._SPENT[0]
    assert _arrays(large, "ana") == expected[1]  # waited for the work, then compiled
    assert pf._WARMED.is_set() and pf._SPENT[0] == spent
    thread.join(60)
    assert pf._USE_COMPILED.is_set() and not pf._WARMING.is_set() and pf._WARMED.is_set()


def test_a_failed_warm_up_leaves_the_process_interpreting(
    state: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """numba missing or broken: the warm-up behind the window fails, says so once, and every
    search runs interpreted from then on, past the budget too, with the same answers."""
    world = _open_map(12)
    compiled = _arrays(world, "ana")

    def broken() -> None:
        raise ImportError("No module named 'numba'")

    monkeypatch.setattr(pf, "warm_up", broken)
    pf._USE_COMPILED.clear()
    pf.warm_up_behind()()
    assert pf._FAILED.is_set() and not pf._WARMING.is_set()
    assert "could not be compiled" in caplog.text and "No module named 'numba'" in caplog.text
    pf._SPENT[0] = pf.INTERPRET_SECONDS
    assert _arrays(world, "ana") == compiled
    assert pf._SPENT[0] > pf.INTERPRET_SECONDS and not pf._USE_COMPILED.is_set()
