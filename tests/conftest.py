"""Every test saves into its own temporary directory, never into the player's save directory;
the reach engine is compiled (or loaded from its cache) once before any test runs."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "saves"
    monkeypatch.setenv("SIM_SAVE_DIR", str(where))
    return where


def pytest_configure(config: pytest.Config) -> None:
    """Compile the reach engine before the tests start, once (in the process that hands the
    tests to pytest-xdist's workers, not in each of them): a command a test runs in a child
    process after a fresh install would otherwise say that it is compiling, and wait for it."""
    if hasattr(config, "workerinput"):
        return  # a worker: the controller has compiled it
    from sim.rules.reach import pathfinder

    pathfinder.warm_up()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test marked `long` (a hunt of thousands of cases) runs only when the run's `-m` names
    `long`; any other run, the whole suite and the fast lane alike, skips it, saying how."""
    if "long" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="a long hunt: run it with -m long")
    for item in items:
        if item.get_closest_marker("long") is not None:
            item.add_marker(skip)
