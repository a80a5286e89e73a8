"""The AI's levels and how long a game it plays may last."""

from __future__ import annotations

import tomllib

from sim.core.datafiles import data_text


def _names() -> tuple[str, ...]:
    """The levels sim/data/ai.toml lists, in its order. Read here, not through
    `sim.ai.weights.book()`: every command's parser names the levels, and only the commands
    that play an AI need its weight sets (`sim run` of a script started 0.05 s sooner)."""
    text = data_text("ai.toml")
    return tuple(tomllib.loads(text)["levels"])


LEVELS = _names()
ROUND_CAP = 30  # a game AIs play out stops here when no side has won (a "capped" game)
