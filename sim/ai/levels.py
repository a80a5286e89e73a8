"""The AI's levels and how long a game it plays may last."""

from __future__ import annotations

from sim.ai.weights import book

LEVELS = tuple(book().levels)  # as sim/data/ai.toml lists them
ROUND_CAP = 30  # a game AIs play out stops here when no side has won (a "capped" game)
