"""Issue #13: `listing` is `legal_decisions` as a sequence that makes each move only when it is
asked for. Its length, every index (negative too), its slices and its iteration give exactly
the tuple `legal_decisions` gives, on every shipped scenario's first turn, with and without the
Slow variants; an index out of range is an IndexError."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.actions import Action
from sim.legal import Legal, legal_decisions, listing
from sim.replay import begin
from sim.scenario import load

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_listing_is_legal_decisions_made_when_asked(path: Path) -> None:
    battle = begin(load(path), 3)
    for slowed in (False, True):
        whole = legal_decisions(battle, slowed=slowed)
        lazy = listing(battle, slowed=slowed)
        moves = sum(1 for legal in whole if _moving(legal))
        assert moves > 0, "a first turn has somewhere to go"
        assert len(lazy) == len(whole)
        assert tuple(lazy) == whole
        assert [lazy[i] for i in range(len(lazy))] == list(whole)
        assert lazy[-1] == whole[-1] and lazy[-len(whole)] == whole[0]
        assert lazy[2:9] == whole[2:9]
        for wrong in (len(whole), -len(whole) - 1):
            with pytest.raises(IndexError):
                lazy[wrong]


def _moving(legal: Legal) -> bool:
    return isinstance(legal.decision, Action) and legal.decision.movement


def _kind(legal: Legal) -> tuple[object, ...]:
    d = legal.decision
    assert isinstance(d, Action)
    return (type(d), d.slow, d.quicken, getattr(d, "submerged", False), legal.cost)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_kinds_keep_every_non_move_and_one_move_per_action_and_variant(path: Path) -> None:
    """What the action bar reads: every decision but moves, and one move of each Movement
    Action, variant and cost; each one of the full list."""
    battle = begin(load(path), 3)
    whole = legal_decisions(battle)
    kinds = list(listing(battle).kinds())
    assert all(legal in whole for legal in kinds)
    assert [k for k in kinds if not _moving(k)] == [w for w in whole if not _moving(w)]
    moves = [k for k in kinds if _moving(k)]
    assert {_kind(k) for k in moves} == {_kind(w) for w in whole if _moving(w)}
    assert len(moves) == len({_kind(k) for k in moves}) < len(whole)
