"""Every test saves into its own temporary directory, never into the player's save directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "saves"
    monkeypatch.setenv("SIM_SAVE_DIR", str(where))
    return where
