"""The data files shipped under sim/data: the rules' numbers, the catalogue, the AI's weights."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"


def data_text(name: str) -> str:
    """The text of the shipped data file `name` (a path under sim/data). Read from beside
    the package rather than through `importlib.resources`, whose import (tempfile, zipfile)
    cost every command 0.015 s of its start: the package is always installed as files."""
    return (DATA / name).read_text(encoding="utf-8")
