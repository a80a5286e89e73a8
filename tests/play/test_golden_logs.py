"""Golden battle logs: the engine's speed work must not change one event of a played battle.

Each game of tests/golden_play.py (the bench's scripted policy on generated 4-vs-4 maps and on
the skirmish, AI-vs-AI games at every level, random play on every shipped scenario) is played
again and its log compared, event by event, with the log recorded in tests/golden/. When a log
is meant to change (the shipped data changed, a rule was fixed), record them again with
`python -m tests.golden_play` and say why in the commit.

The same battles, played once (`golden_play.played`), show that the tags of sim/core/purpose.py
(issue #28) say what the words code matched before them said (tests/core/test_purpose.py has
the tags' other tests).
"""

from __future__ import annotations

import gzip

import pytest

from sim.core.creature import creatures
from sim.core.events import AttackResolved, Damaged, Rolled
from sim.core.purpose import AttackKind, RollKind
from tests.golden_play import GAMES, GOLDEN, lines, played

# Every golden game; the hard AI's look-ahead takes seconds, so its game is left to the whole
# suite (the fast lane, `-m "not slow"`, plays the others).
NAMES = [
    pytest.param(n, marks=pytest.mark.slow if n.startswith("hard") else ()) for n in sorted(GAMES)
]


@pytest.mark.parametrize("name", NAMES)
def test_the_battle_log_is_the_recorded_one(name: str) -> None:
    recorded = gzip.decompress((GOLDEN / f"{name}.jsonl.gz").read_bytes()).decode().splitlines()
    got_lines = lines(played(name))
    for index, (want, got) in enumerate(zip(recorded, got_lines, strict=False)):
        assert got == want, f"{name}: event {index} differs\nrecorded: {want}\nplayed:   {got}"
    assert len(got_lines) == len(recorded), (
        f"{name}: {len(got_lines)} events, {len(recorded)} recorded"
    )
    assert len(recorded) > 100  # every golden game is a real battle, not a few opening events


def _dealer_in_words(source: str, units: tuple[str, ...]) -> str | None:
    """Whose damage the words "ana's longsword" name, as sim batch read them before the tags."""
    found = [unit for unit in units if source.startswith(f"{unit}'s ")]
    return max(found, key=len) if found else None


# What the games below checked: a game may hold no attack (since issue #35 red wins the chasm
# by holding the banner two rounds, before random players meet), so the count is over all of
# them (pytest-xdist's --dist loadfile keeps this file on one worker, in order).
CHECKED = {"attacks": 0, "dealt": 0}


@pytest.mark.parametrize("name", NAMES)
def test_the_tags_say_what_the_matched_words_said(name: str) -> None:
    """On each golden game (the battle the log test above played, or played here if that test
    did not run), every test code made of the words before issue #28 agrees with the tag that
    replaced it: a Hit Roll (the hard AI), a Sprint's roll (the board), the Attack action's
    attacks (sim batch's hit rates) and the dealer of a damage (the summaries)."""
    battle = played(name)
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
