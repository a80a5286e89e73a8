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
