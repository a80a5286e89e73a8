"""sim/core/purpose.py (issue #28): the tags events carry for code stay out of the event log, and
on played battles they say what the words that code used to match said."""

from __future__ import annotations

from dataclasses import replace

from sim.core.events import (
    AttackResolved,
    CheckResolved,
    ContestResolved,
    Damaged,
    Rolled,
    to_json,
)
from sim.core.purpose import AttackKind, RollKind


def test_the_log_leaves_the_tags_out() -> None:
    """The JSON of an event is the same whatever its tag: no field for it, in the same order."""
    sprint = Rolled("ana", "sprint distance (AGI Roll + Bonus)", 4, 3, 1, 4, tag=RollKind.SPRINT)
    assert to_json(sprint) == to_json(replace(sprint, tag=RollKind.HIT))
    assert list(to_json(sprint)) == ["type", "unit", "purpose", "die", "result", "bonus", "total"]
    attack = AttackResolved("ana", "bob", "melee attack", 12, 5, True, tag=AttackKind.MELEE)
    assert list(to_json(attack)) == [
        "type", "attacker", "target", "purpose", "hit_roll", "defense_roll", "hit",
    ]  # fmt: skip
    check = CheckResolved("bo", "catch ana.dagger", 16, 11, True, tag=RollKind.CATCH)
    assert "tag" not in to_json(check)
    contest = ContestResolved("grapple", "ana", 14, "bo", 11, "ana", tag=RollKind.GRAPPLE)
    assert "tag" not in to_json(contest)
    blow = Damaged("bob", 1, "crushing", "ana's fist", 14, dealer="ana")
    assert to_json(blow) == {
        "type": "damaged", "unit": "bob", "amount": 1, "damage_type": "crushing",
        "source": "ana's fist", "hp": 14,
    }  # fmt: skip


# On played battles (the golden games), the tags against the words code matched before them:
# tests/play/test_golden_logs.py, which plays those games once for both checks.
