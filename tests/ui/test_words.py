"""Issue #15, what the client tells a player: rule ids go to a details part of the status line
and of tips, not into the words; item ids in the engine's refusals read as names; the item
list never offers worn armour; "can be hit by" names enemies, not allies; and a refusal
counts half-actions in words as it counts Bonus Actions."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.core.geometry import Pos
from sim.play.decisions import parse
from sim.ui.input.app import App
from sim.ui.words.wording import named_items, rule_ids
from tests.ui import test_client as client
from tests.ui.test_client import Player, at, make_app, write_scenario
from tests.ui.test_legal_bar import ELF, anas_turn

shots = client.shots

TRIO = """
name = "trio"
seed = 3

[map]
rows = \"\"\"
#########
#.......#
#..ac.b.#
#.......#
#########
\"\"\"

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"

[[units]]
id = "cas"
team = "blue"
template = "human_fighter"
at = "c"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
"""


def bar_button(app: App, name: str) -> pygame.Rect:
    app.frame()
    return next(r for r, k, v in app.renderer.hits.items if (k, v) == ("action", name))


def test_rule_ids_go_to_the_details_not_the_words(tmp_path: Path, shots: Path) -> None:
    """Hovering the greyed Swim: the status says why in words, and the rule id (R-M8) is in
    the status line's details, dim at its right end."""
    app = make_app(write_scenario(tmp_path, "elf", ELF))
    p = Player(app, shots)
    anas_turn(app, p)
    p.move_mouse(bar_button(app, "swim").center)
    app.frame()
    assert app.renderer.bar_status == "swim: ana has no water it can swim in within reach now"
    assert app.renderer.bar_details == ("R-M8",)
    p.shot("rule_id_details")


def test_item_ids_in_a_refusal_read_as_names(tmp_path: Path, shots: Path) -> None:
    """ana (an elf skirmisher) has nothing carried to draw: the engine's reason names the
    item by its id; the status line says the name."""
    app = make_app(write_scenario(tmp_path, "elf", ELF))
    p = Player(app, shots)
    anas_turn(app, p)
    draw = next(e for e in app.renderer.bar.entries if e.name == "draw")
    assert "'ana.shortsword'" in draw.detail  # the engine's words
    p.move_mouse(bar_button(app, "draw").center)
    app.frame()
    assert "ana carries no shortsword to draw" in app.renderer.bar_status
    assert "ana." not in app.renderer.bar_status
    assert named_items("saved cliff_fort.save.json at 1.5 m", app.world) == (
        "saved cliff_fort.save.json at 1.5 m"
    )
    assert rule_ids("no ids") == ("no ids", ())


def test_can_be_hit_by_names_enemies_only(tmp_path: Path, shots: Path) -> None:
    """ana selected, the cell between cas (her ally) and grok: both reach it, only grok is
    listed; the cell beside cas alone: nobody."""
    app = make_app(write_scenario(tmp_path, "trio", TRIO))
    p = Player(app, shots)
    anas_turn(app, p)
    app.view.selected = "ana"
    p.hover(Pos(5, 1))  # next to cas (4,2) and grok (6,2)
    assert app.scene.hover_info(app.session, app.view) == ("grok",)
    p.hover(Pos(3, 1))  # next to ana and cas only
    assert app.scene.hover_info(app.session, app.view) == ()
    p.shot("hit_by_enemies")


def test_a_refusal_counts_half_actions_in_words(tmp_path: Path) -> None:
    """A Brace spends both half-actions; a Fall Prone is then refused in the same words as a
    Bonus Action refusal: "costs 1 half-action", not "costs 1"."""
    app = make_app(write_scenario(tmp_path, "trio", TRIO))
    session = app.session
    for _ in range(4):
        pending = session.battle.pending
        if getattr(pending, "unit", "ana") != "ana":
            session.submit(parse({"unit": pending.unit, "action": "end_turn"}))  # type: ignore[union-attr]
    braced = session.submit(parse({"unit": "ana", "action": "brace"}))  # a 1 Action
    assert not hasattr(braced, "reason"), braced
    result = session.submit(parse({"unit": "ana", "action": "fall_prone"}))
    assert getattr(result, "reason", "") == (
        "ana has only 0 half-actions left; Fall Prone (½ Action) costs 1 half-action (R-B4)"
    )
    assert at(app, "ana") == Pos(3, 2)
