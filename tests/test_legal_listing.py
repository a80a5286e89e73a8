"""Issue #13: `listing` is `legal_decisions` as a sequence that makes each move only when it is
asked for. Its length, every index (negative too), its slices and its iteration give exactly
the tuple `legal_decisions` gives, on every shipped scenario's first turn, with and without the
Slow variants; an index out of range is an IndexError."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.legal import legal_decisions, listing
from sim.replay import begin
from sim.scenario import load

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_listing_is_legal_decisions_made_when_asked(path: Path) -> None:
    battle = begin(load(path), 3)
    for slowed in (False, True):
        whole = legal_decisions(battle, slowed=slowed)
        lazy = listing(battle, slowed=slowed)
        moves = sum(1 for legal in whole if legal.decision.movement)
        assert moves > 0, "a first turn has somewhere to go"
        assert len(lazy) == len(whole)
        assert tuple(lazy) == whole
        assert [lazy[i] for i in range(len(lazy))] == list(whole)
        assert lazy[-1] == whole[-1] and lazy[-len(whole)] == whole[0]
        assert lazy[2:9] == whole[2:9]
        for wrong in (len(whole), -len(whole) - 1):
            with pytest.raises(IndexError):
                lazy[wrong]
