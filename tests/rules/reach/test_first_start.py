"""The first start after an install (issue #30): importing the simulator does not import numba,
a short command searches interpreted, a longer one compiles only the searches it uses, says so
on standard error as it begins, and keeps them in the user's cache directory, so the next start
neither compiles nor says anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.rules.reach import pathfinder

ROOT = Path(__file__).resolve().parents[3]
SKIRMISH = str(ROOT / "scenarios" / "skirmish.toml")
NOTICE = "sim: compiling the reach engine for this machine"


def _env(cache: Path) -> dict[str, str]:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    env.pop("NUMBA_CACHE_DIR", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def python(code: str) -> subprocess.CompletedProcess[str]:
    """`code` run by a fresh interpreter of this one's, with this checkout's `sim`."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def _sim(env: dict[str, str], *args: str, script: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sim", *args],
        input=script,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


def test_the_cache_is_numba_s_setting_else_the_xdg_cache_else_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert pathfinder.cache_dir() == tmp_path / "numba"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert pathfinder.cache_dir() == tmp_path / "xdg" / "sim" / "numba"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert pathfinder.cache_dir() == tmp_path / "home" / ".cache" / "sim" / "numba"


def test_importing_the_command_line_does_not_import_numba(tmp_path: Path) -> None:
    code = "import sys, sim.cli.main; print('numba' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=_env(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_an_empty_cache_is_known_cold_before_numba_is_imported(tmp_path: Path) -> None:
    """A first start's notice (the window's and the terminal's) comes at once: with no index of
    the search in the cache, `cold` says so without importing numba (0.3 s and more)."""
    code = (
        "import sys\n"
        "from sim.rules.reach import pathfinder\n"
        "print(pathfinder.cold(), 'numba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=_env(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]


def test_the_reach_engine_is_warm_once_the_tests_have_begun() -> None:
    """tests/conftest.py compiled it: `cold` reads numba's cache as numba does."""
    assert not pathfinder.cold()


@pytest.mark.slow
def test_a_fresh_cache_is_filled_by_the_first_command_that_searches_enough(tmp_path: Path) -> None:
    env = _env(tmp_path)
    checked = _sim(env, "check", SKIRMISH)
    assert checked.returncode == 0 and NOTICE not in checked.stderr  # no search: no compile
    aim = '{"unit": "bram", "action": "aim"}\n'
    aimed = _sim(env, "run", SKIRMISH, "--seed", "6", "--script", "-", script=aim)
    assert aimed.returncode == 0, aimed.stderr
    assert NOTICE not in aimed.stderr  # an Aim asks for no reach map: nothing is compiled
    walk = '{"unit": "bram", "action": "walk", "to": [3, 3]}\n'
    walked = _sim(env, "run", SKIRMISH, "--seed", "6", "--script", "-", script=walk)
    assert walked.returncode == 0, walked.stderr
    assert '"type": "moved"' in walked.stdout
    cache = tmp_path / "sim" / "numba"
    assert NOTICE not in walked.stderr and not cache.exists()  # one Walk: interpreted
    # Six rounds: the process interprets until it has spent INTERPRET_SECONDS of CPU on
    # searches, which a fast host reached only near the end of three (CI, 2026-12-08: 2 runs
    # of 3 ended before another search, so `search` itself was never compiled); six leave
    # rounds of searches after it on any host this has run on.
    game = ("--seed", "6", "--ai", "blue,red", "--round-cap", "6")
    first = _sim(env, "run", SKIRMISH, *game)
    assert first.returncode == 0, first.stderr
    assert first.stderr.splitlines()[0].startswith(NOTICE)  # six rounds: worth compiling
    assert str(cache) in first.stderr
    kept = sorted(p.name.split("-")[0] for p in cache.rglob("*.nbi"))
    print(f"compiled for six rounds of AI play: {kept}")
    assert "pathfinder.search" in kept and "pathfinder.step_costs" not in kept  # what it used
    again = _sim(env, "run", SKIRMISH, *game)
    assert again.returncode == 0 and NOTICE not in again.stderr
    assert again.stdout == first.stdout


def test_the_window_shows_its_first_frame_then_prepares_behind_saying_so() -> None:
    """`sim play` (issue #30): the first frame (the handover screen) is drawn before the reach
    engine is prepared, which then goes on in a thread of its own while the window answers;
    until it has finished, every frame has the notice written across its foot, and after it
    the frame is the plain one. With the engine cached, the client has nothing to say."""
    import threading

    import pygame

    from sim.cli.main import _compiling
    from tests.ui.test_client import make_app

    order: list[str] = []
    app = make_app(ROOT / "scenarios" / "skirmish.toml")
    plain = pygame.surfarray.array3d(app.frame())
    release = threading.Event()

    def notice() -> str:
        order.append("notice")
        return "Preparing the reach engine: compiling it once after installing or updating..."

    def work() -> None:
        release.wait(10)
        order.append("work")

    app.prepare(notice, work)
    assert app.preparing is not None
    while app.preparing_notice is None and app.preparing.is_alive():
        app.preparing.join(0.01)
    said = pygame.surfarray.array3d(app.frame())  # a frame drawn while the work goes on
    release.set()
    app.preparing.join(10)
    after = pygame.surfarray.array3d(app.frame())
    assert order == ["notice", "work"]
    differs = (said != plain).any(axis=(0, 2)).nonzero()[0]  # rows that differ
    assert differs.size and differs.min() > said.shape[1] * 0.9  # only at the foot
    assert (after == plain).all()
    assert _compiling() is None  # tests/conftest.py compiled it


def test_searches_run_interpreted_while_a_warm_up_is_behind() -> None:
    """While the client's warm-up runs in its thread, a search does not wait for it: it runs
    interpreted (whatever this process has interpreted before) and gives what compiled would."""
    from sim.content.scenario import load
    from sim.rules.reach.reachmap import reach_map

    world = load(ROOT / "scenarios" / "skirmish.toml").world
    compiled = reach_map(world.copy(), "bram").arrays()
    spent = pathfinder._SPENT[0]
    used = pathfinder._USE_COMPILED.is_set()
    pathfinder._USE_COMPILED.clear()
    pathfinder._WARMING.set()
    try:
        interpreted = reach_map(world.copy(), "bram").arrays()
        assert pathfinder._SPENT[0] > spent  # it ran interpreted
    finally:
        pathfinder._WARMING.clear()
        if used:
            pathfinder._USE_COMPILED.set()
    assert all((a == b).all() for a, b in zip(interpreted, compiled, strict=True))


@pytest.mark.slow  # a process of its own, as the first start above
def test_a_search_does_not_import_scipy_and_leaves_it_importable() -> None:
    """numba probes for a BLAS through scipy.linalg as it loads its registries (0.15 s of each
    start, issue #30); the search uses none, so the probe is skipped, and scipy imports as
    usual afterwards."""
    pytest.importorskip("scipy")  # without scipy there is no probe to skip
    code = (
        "import sys\n"
        "from sim.rules.reach import pathfinder\n"
        "pathfinder._warm(pathfinder.SEARCHES)\n"
        "print('scipy.linalg' in sys.modules)\n"
        "import scipy.linalg.cython_blas\n"
        "print('ok')\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "ok"]
