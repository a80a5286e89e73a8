"""A decision the AI takes and the reason it gives for it, in words a player reads."""

from __future__ import annotations

from dataclasses import dataclass

from sim.play.engine import (
    Decision,
)


@dataclass(frozen=True, slots=True)
class Choice:
    """A decision and why it was taken, in words a player reads in the log."""

    decision: Decision
    score: float
    why: str


def percent(chance: float) -> str:
    """A chance as a player reads it: "72 %"."""
    return f"{round(chance * 100)} %"
