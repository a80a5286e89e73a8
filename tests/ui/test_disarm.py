"""A Disarm chosen from the action bar (R-X5), as a player makes it: the button, then the
target; the weapon is the target's, so when it holds more than one the list that opens is of
its weapons (never the disarmer's own items), and the one picked is the one the disarm is
after. Scripted dice; the initiative puts ana first."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.content.scenario import load
from sim.core import actions as a
from sim.core.components import Budget, Hands, Position
from sim.core.dice import LoadedDice
from sim.play.engine import AwaitingReaction
from sim.rules.combat.reactions import NONE
from sim.ui.input import orders
from sim.ui.input.app import App
from sim.ui.model.mode import Free, Picking
from sim.ui.model.session import Session
from tests.helpers import unit
from tests.ui import test_client as client
from tests.ui.test_client import Player, acting, at, fighters, write_scenario

shots = client.shots  # the fixture: where the screenshots go ($SIM_SHOTS keeps them)

OPEN = """
#########
#.......#
#..ab...#
#.......#
#########
"""


def opened(
    tmp_path: Path, grok_holds: str, dice: list[int], rows: str = OPEN, more: str = ""
) -> App:
    """ana with a longsword against grok holding `grok_holds` on `rows` (`more`: TOML lines
    after), with loaded `dice`."""
    text = fighters("disarm", rows, ana='held = ["longsword"]', grok=f"held = {grok_holds}")
    scenario = load(write_scenario(tmp_path, "disarm", text + more))
    return App(Session(scenario, 3, battle=scenario.begin(LoadedDice(dice))), (1280, 800))


def decline_reactions(app: App) -> None:
    """grok asks about reactions (an Interrupt of the disarm, R-R7): it lets it be."""
    while isinstance(app.session.battle.pending, AwaitingReaction):
        orders.answer(app, NONE)


def test_a_disarm_of_a_creature_with_two_weapons_lists_its_weapons(
    tmp_path: Path, shots: Path
) -> None:
    # Initiative: ana 8 on her d8, grok 1 on his d6; the disarm: ana's Hit Roll 8 on her d8
    # against grok's FCS Roll 1 on his d8.
    app = opened(tmp_path, '["club", "dagger"]', [8, 1, 8, 1])
    p = Player(app, shots)
    p.sit_down()
    assert acting(app) == "ana"
    grok = at(app, "grok")
    p.button("action", "disarm")
    assert app.view.targeting == "disarm"
    p.click_cell(grok)
    assert app.view.mode == Picking("disarm", target="grok")
    held = app.world.need("grok", Hands).items()
    assert orders.listed(app) == list(held) and len(held) == 2
    rows = app.scene.item_rows(app.session, app.view)
    assert [(value, ok) for value, _, ok, _ in rows] == [(held[0], True), (held[1], True)]
    assert "longsword" not in " ".join(label for _, label, _, _ in rows)
    p.shot("disarm_which_weapon")
    p.key(pygame.K_2)  # the dagger
    decline_reactions(app)
    taken = app.session.battle.decisions
    assert any(
        isinstance(d, a.Disarm) and (d.target, d.item) == ("grok", held[1]) for d in taken
    ), taken
    # Won: the dagger lies in grok's cell; the club is still in his hand.
    assert app.world.need("grok", Hands).items() == (held[0],)
    assert app.world.need(held[1], Position).cell == grok
    assert isinstance(app.view.mode, Free)


def test_a_disarm_of_a_creature_with_one_weapon_goes_after_it_at_once(
    tmp_path: Path, shots: Path
) -> None:
    app = opened(tmp_path, '["club"]', [8, 1, 8, 1])
    p = Player(app, shots)
    p.sit_down()
    grok = at(app, "grok")
    (club,) = app.world.need("grok", Hands).items()
    p.button("action", "disarm")
    p.click_cell(grok)
    decline_reactions(app)
    assert any(isinstance(d, a.Disarm) for d in app.session.battle.decisions)
    assert app.world.need("grok", Hands).items() == ()
    assert app.world.need(club, Position).cell == grok


def test_a_disarm_of_an_unarmed_creature_is_refused_with_the_reason(
    tmp_path: Path, shots: Path
) -> None:
    app = opened(tmp_path, "[]", [8, 1])
    p = Player(app, shots)
    p.sit_down()
    p.button("action", "disarm")  # greyed: no one in reach holds a weapon
    assert app.view.targeting is None
    assert "holds no weapon to disarm (R-X5)" in app.view.status, app.view.status
    assert not any(isinstance(d, a.Disarm) for d in app.session.battle.decisions)


FAR = """
#########
#.......#
#.a...b.#
#.......#
#########
"""


def test_a_disarm_held_ready_lists_the_weapons_as_held_ready(tmp_path: Path, shots: Path) -> None:
    """W, "an enemy comes within 1.5 m", Disarm, then grok 4 m away: out of reach now, the
    disarm is held ready (checked again when the trigger comes), so each of his weapons may be
    picked and says so; the one picked is the prepared action's."""
    app = opened(tmp_path, '["club", "dagger"]', [8, 1], FAR)
    p = Player(app, shots)
    p.sit_down()
    assert acting(app) == "ana"
    p.key(pygame.K_w)
    p.key(pygame.K_1 + orders.listed(app).index("within:1.5"))
    p.button("action", "disarm")
    assert app.view.targeting == "disarm" and app.view.preparing is not None
    p.click_cell(at(app, "grok"))
    assert app.view.mode == Picking("disarm", target="grok")
    rows = app.scene.item_rows(app.session, app.view)
    assert all(ok and words.startswith("held ready (now: ") for _, _, ok, words in rows), rows
    p.key(pygame.K_2)
    prepared = [d for d in app.session.battle.decisions if isinstance(d, a.Prepare)]
    assert len(prepared) == 1 and isinstance(prepared[0].then, a.Disarm)
    assert prepared[0].then.item == app.world.need("grok", Hands).items()[1]


TWO = """
#########
#.......#
#.ab..c.#
#.......#
#########
"""


def test_a_disarm_out_of_reach_is_refused_at_the_click_with_the_reason(
    tmp_path: Path, shots: Path
) -> None:
    """Disarm is open (grok is in reach), but vex, 4 m away with two weapons, gets no weapon
    list: the click says why, as for a target with one weapon."""
    vex = unit("vex", "red", "orc_raider", "c", held=["club", "dagger"], policy="ask")
    # Initiative: ana 8 on her d8, grok 1 on his d6, vex 1 on his d8.
    app = opened(tmp_path, '["club"]', [8, 1, 1], TWO, "\n" + vex)
    p = Player(app, shots)
    p.sit_down()
    assert acting(app) == "ana"
    p.button("action", "disarm")
    assert app.view.targeting == "disarm"
    p.click_cell(at(app, "vex"))
    assert not isinstance(app.view.mode, Picking)
    assert "vex at (6,2) is out of ana's reach (R-A4)" in app.view.status, app.view.status
    assert len(app.world.need("vex", Hands).items()) == 2  # refused: nothing changed
    assert app.world.need("ana", Budget).half == 2
