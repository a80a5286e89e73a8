"""Issue #15, results where they happen: a hit, a miss and damage show over the creature they
happened to for a moment, and a line beside the action bar sums up the last decision."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from sim.core.events import AttackResolved, Damaged
from sim.core.purpose import AttackKind
from sim.play.decisions import parse
from sim.play.engine import AwaitingReaction
from sim.ui.draw import board
from sim.ui.model.markers import LIFETIME, markers, summary
from tests.ui import test_client as client
from tests.ui.test_client import Player, at, make_app, write_scenario
from tests.ui.test_playability import DOWNED, to_anas_turn

shots = client.shots


def test_an_attack_shows_its_result_on_the_board_and_beside_the_bar(
    tmp_path: Path, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ana clicks grok (1 HP) beside her: over grok's cell the board shows "hit" or "miss",
    (and over ana the result of grok's interrupt),
    and on a hit the damage ("-N") and "down"; the line above the status says what happened
    in words. The markers are gone once their time is up."""
    app = make_app(write_scenario(tmp_path, "downed", DOWNED))
    p = Player(app, shots)
    to_anas_turn(app, p)
    p.click_cell(at(app, "grok"))
    while isinstance(app.session.battle.pending, AwaitingReaction):
        pending = app.session.battle.pending
        app.submit(parse({"unit": pending.unit, "react": "none"}))
    events = app.session.battle.log
    resolved = [e for e in events if isinstance(e, AttackResolved)]
    assert resolved, "the attack resolved"
    texts = [(m.unit, m.text) for m in app.view.markers]
    hit = resolved[-1].hit
    assert ("grok", "hit" if hit else "miss") in texts
    for unit in ("ana", "grok"):  # one pile per creature: the newest results only
        assert len([m for m in app.view.markers if m.unit == unit]) <= 3
    damage = [e for e in events if isinstance(e, Damaged) and e.unit == "grok"]
    if hit:
        assert ("grok", f"-{damage[-1].amount}") in texts and ("grok", "down") in texts
    assert all(m.cell == at(app, m.unit) for m in app.view.markers), app.view.markers
    # grok (policy "always") interrupts first: its result is over ana, in the same line.
    assert app.view.last.startswith("ana: attack — ")
    assert f"attack on grok: {'hit' if hit else 'miss'}" in app.view.last
    p.shot("attack_result")
    later = app.view.markers[0].born + LIFETIME + 0.1
    monkeypatch.setattr(board.time, "monotonic", lambda: later)
    app.frame()
    assert app.view.markers == []
    assert app.view.last  # the summary stays until the next decision
    pygame.event.clear()


def test_results_in_words_from_events(tmp_path: Path) -> None:
    """The markers and the summary from a transcript's events: a miss, then damage that
    drops a creature, a healing; a decision with nothing to say says nothing."""
    app = make_app(write_scenario(tmp_path, "downed", DOWNED))
    world = app.world
    hit = AttackResolved("ana", "grok", "attack", 14, 9, True, tag=AttackKind.MELEE)
    wound = Damaged("grok", 5, "slashing", "ana", -4, dealer="ana")
    made = markers([hit, wound], world, 10.0)
    assert [(m.text, m.kind) for m in made] == [("hit", "hit"), ("-5", "damage"), ("down", "down")]
    assert summary([hit, wound], world) == "attack on grok: hit, 5 damage to grok (HP -4/16)"
    missed = AttackResolved("ana", "grok", "attack", 4, 9, False, tag=AttackKind.MELEE)
    assert [m.text for m in markers([missed], world, 0.0)] == ["miss"]
    assert summary([], world) == ""
    assert made[0].age(10.0) == 0 and made[0].age(10.0 + LIFETIME) == 1
