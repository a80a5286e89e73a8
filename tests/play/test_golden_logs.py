"""Golden battle logs: the engine's speed work must not change one event of a played battle.

Each game of tests/golden_play.py (the bench's scripted policy on generated 4-vs-4 maps and on
the skirmish, AI-vs-AI games at every level, random play on every shipped scenario) is played
again and its log compared, event by event, with the log recorded in tests/golden/. When a log
is meant to change (the shipped data changed, a rule was fixed), record them again with
`python -m tests.golden_play` and say why in the commit.
"""

from __future__ import annotations

import gzip

import pytest

from tests.golden_play import GAMES, GOLDEN, lines


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.slow if n.startswith("hard") else ())
        for n in sorted(GAMES)
    ],
)
def test_the_battle_log_is_the_recorded_one(name: str) -> None:
    recorded = gzip.decompress((GOLDEN / f"{name}.jsonl.gz").read_bytes()).decode().splitlines()
    played = lines(GAMES[name]())
    for index, (want, got) in enumerate(zip(recorded, played, strict=False)):
        assert got == want, f"{name}: event {index} differs\nrecorded: {want}\nplayed:   {got}"
    assert len(played) == len(recorded), f"{name}: {len(played)} events, {len(recorded)} recorded"
    assert len(recorded) > 100  # every golden game is a real battle, not a few opening events
