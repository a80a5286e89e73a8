"""Issue #12 in the client: the action bar offers what the core's legal decisions list
(`sim.play.legal.legal_decisions`), not its own judgement. A Slow or Quicken toggle changes a
button's cost only where the core lists that variant (where it changes the cost); an
unavailable button still shows its cost greyed, with the engine's reason on hover."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.core.actions import Action, Attack
from sim.play.decisions import parse
from sim.play.engine import AwaitingAction
from sim.play.legal import legal_decisions
from sim.ui.input.app import App
from sim.ui.model.actionbar import BAR_NAMES, DIVE, Entry, base_label
from tests.ui import test_client as client
from tests.ui.test_client import Player, at, make_app, write_scenario

shots = client.shots

ELF = """
name = "quick elf"
seed = 4

[map]
rows = \"\"\"
#########
#.......#
#..ab...#
#.......#
#########
\"\"\"

[[units]]
id = "ana"
team = "blue"
template = "elf_skirmisher"
at = "a"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
"""


def listed_names(app: App) -> set[str]:
    """The bar's names of the decisions the core lists now (a submerged Swim is the dive)."""
    out = set()
    for legal in legal_decisions(app.session.battle):
        decision = legal.decision
        assert isinstance(decision, Action)
        out.add(DIVE if getattr(decision, "submerged", False) else decision.name)
    return out


def anas_turn(app: App, p: Player) -> None:
    for _ in range(4):
        pending = app.session.battle.pending
        if isinstance(pending, AwaitingAction) and pending.unit != "ana":
            app.session.submit(parse({"unit": pending.unit, "action": "end_turn"}))
    assert app.session.battle.pending == AwaitingAction("ana")
    app.sync()
    if app.view.handover is not None:
        p.sit_down()


def entries(app: App) -> dict[str, Entry]:
    app.frame()
    return {e.name: e for e in app.renderer.bar.entries}


def test_the_bar_offers_what_the_core_lists(tmp_path: Path, shots: Path) -> None:
    """ana (an elf skirmisher beside grok): every open button is an action the core lists a
    decision of, and every action it lists has an open button; the others are greyed with
    the cost they would have and a reason in words."""
    app = make_app(write_scenario(tmp_path, "elf", ELF))
    p = Player(app, shots)
    anas_turn(app, p)
    bar = entries(app)
    # A greyed button's reason is found when first read (most are never hovered): the bar
    # costs the legal list, not every refused action's checks.
    assert all(e.words == "" for e in bar.values() if not e.ok)
    assert {n for n, e in bar.items() if e.ok} == listed_names(app) & set(BAR_NAMES)
    assert bar["attack"].ok and bar["attack"].label == "½"
    assert not bar["swim"].ok and bar["swim"].detail == (
        "ana has no water it can swim in within reach now (R-M8)"
    )
    assert not bar["release"].ok and bar["release"].label == "free"
    for entry in bar.values():
        if not entry.ok:
            assert entry.label == base_label(app.world.rules, entry.name), entry
            assert entry.detail and "Refusal(" not in entry.detail
    p.shot("bar_from_legal")


def test_quicken_changes_a_cost_only_where_the_core_lists_the_variant(
    tmp_path: Path, shots: Path
) -> None:
    """ana drinks her quickening draught (a source of Quicken, R-B6) and turns Quicken on: the
    Attack's button costs a Bonus Action (½ quickened), and the click attacks quickened; a
    Step (Bonus) and a Stow (Free) cost what they did, and say that Quicken does not change
    them (the core lists no such variant); End turn stays open and ends the turn."""
    app = make_app(write_scenario(tmp_path, "elf", ELF))
    p = Player(app, shots)
    anas_turn(app, p)
    result = app.session.submit(
        parse({"unit": "ana", "action": "consume", "item": "ana.quickening_draught"})
    )
    assert not hasattr(result, "reason"), result
    app.sync()
    plain = entries(app)
    p.key(pygame.K_q)
    assert app.view.quicken
    quick = entries(app)
    assert quick["attack"].ok and quick["attack"].label == "B"
    for name in ("step", "stow"):
        assert quick[name].ok and quick[name].label == plain[name].label
        assert "(Quicken does not change its cost)" in quick[name].detail
    assert quick["end_turn"].ok
    variants = {
        (legal.decision.name, legal.decision.quicken)  # type: ignore[union-attr]
        for legal in legal_decisions(app.session.battle)
    }
    assert ("attack", True) in variants and ("step", True) not in variants
    p.shot("bar_quickened")
    before = len(app.session.battle.decisions)
    p.button("action", "attack")
    p.click_cell(at(app, "grok"))
    sent = app.session.battle.decisions[before]
    assert isinstance(sent, Attack) and sent.quicken and sent.target == "grok"
    while app.session.battle.pending != AwaitingAction("ana"):
        pending = app.session.battle.pending
        app.session.submit(parse({"unit": pending.unit, "react": "none"}))  # type: ignore[union-attr]
    app.sync()
    p.button("action", "end_turn")
    assert app.session.battle.pending != AwaitingAction("ana")
