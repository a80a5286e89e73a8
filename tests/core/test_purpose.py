"""sim/core/purpose.py (issue #28): the tags events carry for code stay out of the event log, and
on played battles they say what the words that code used to match said."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sim.core.creature import creatures
from sim.core.events import (
    AttackResolved,
    CheckResolved,
    ContestResolved,
    Damaged,
    Rolled,
    to_json,
)
from sim.core.purpose import AttackKind, RollKind
from tests.golden_play import GAMES
from tests.helpers import first_fast


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


def _dealer_in_words(source: str, units: tuple[str, ...]) -> str | None:
    """Whose damage the words "ana's longsword" name, as sim batch read them before the tags."""
    found = [unit for unit in units if source.startswith(f"{unit}'s ")]
    return max(found, key=len) if found else None


# What the games below checked: a game may hold no attack (since issue #35 red wins the chasm
# by holding the banner two rounds, before random players meet), so the count is over all of
# them (pytest-xdist's --dist loadfile keeps this file on one worker, in order).
CHECKED = {"attacks": 0, "dealt": 0}


# hard_vs_normal_skirmish is left out for its time (seconds of look-ahead), not its events.
@pytest.mark.parametrize("name", first_fast(sorted(set(GAMES) - {"hard_vs_normal_skirmish"})))
def test_the_tags_say_what_the_matched_words_said(name: str) -> None:
    """On each golden game, every test code made of the words before issue #28 agrees with the
    tag that replaced it: a Hit Roll (the hard AI), a Sprint's roll (the board), the Attack
    action's attacks (sim batch's hit rates) and the dealer of a damage (the summaries)."""
    battle = GAMES[name]()
    units = tuple(creatures(battle.world))
    attacks = dealt = 0
    for e in battle.log:
        if isinstance(e, Rolled):
            assert ("hit roll" in e.purpose) == (e.tag is RollKind.HIT), e
            assert e.purpose.startswith("sprint") == (e.tag is RollKind.SPRINT), e
        elif isinstance(e, AttackResolved):
            action = e.purpose in ("melee attack", "ranged attack")
            assert action == (e.tag in (AttackKind.MELEE, AttackKind.RANGED)), e
            attacks += 1
        elif isinstance(e, Damaged):
            assert e.dealer == _dealer_in_words(e.source, units), e
            dealt += e.dealer is not None
    CHECKED["attacks"] += attacks
    CHECKED["dealt"] += dealt


def test_the_games_checked_attacks_and_dealers() -> None:
    """The golden games above held attacks and damage with a dealer to check (printed)."""
    print(f"checked {CHECKED['attacks']} attacks and {CHECKED['dealt']} dealt damages")
    assert CHECKED["attacks"] >= 20 and CHECKED["dealt"] >= 10
