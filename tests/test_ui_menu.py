"""Issue #15, the Esc menu: Esc with nothing left to cancel opens it; it saves, saves and
quits, loads the quick save (refused in words when undo's rule forbids it), starts a new game,
and its settings make a side's reactions asked or automatic and change the AI's pause. While
it is open the keys that act on the battle wait."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.components import Policy
from sim.engine import AwaitingAction
from sim.ui.app import App
from tests import test_ui_client as client
from tests.test_ui_client import Player, make_app
from tests.test_ui_over import LAST_STAND

shots = client.shots
save_dir = client.save_dir


def opened(tmp_path: Path, shots: Path) -> tuple[App, Player]:
    path = tmp_path / "last.toml"
    path.write_text(LAST_STAND, encoding="utf-8")
    app = make_app(path, client.seed_where(path, "ana"))  # blue first, whatever the AGI
    p = Player(app, shots)
    if app.view.handover is not None:
        p.sit_down()
    assert app.view.selected == "ana"
    p.key(pygame.K_ESCAPE)  # drops the selection
    assert app.view.menu is None and app.view.selected is None
    p.key(pygame.K_ESCAPE)  # nothing left to cancel: the menu
    assert app.view.menu == "main"
    return app, p


def test_the_menu_opens_on_esc_and_holds_the_battle(tmp_path: Path, shots: Path) -> None:
    app, p = opened(tmp_path, shots)
    p.shot("menu")
    labels = [line.label for line in app.menu_lines()]
    assert labels == [
        "Resume", "Save", "Save and quit", "Load the quick save", "New game of this scenario",
        "Settings",
    ]  # fmt: skip
    p.key(pygame.K_e)  # End turn waits while the menu is open
    assert app.session.battle.pending == AwaitingAction("ana")
    p.button("menu", "resume")
    assert app.view.menu is None
    p.key(pygame.K_ESCAPE)
    p.key(pygame.K_1)  # the number key picks a line too: Resume
    assert app.view.menu is None


def test_save_load_and_new_game(tmp_path: Path, shots: Path, save_dir: Path) -> None:
    app, p = opened(tmp_path, shots)
    p.key(pygame.K_2)  # Save
    assert app.view.status == f"saved to {app.quicksave}" and app.quicksave.exists()
    seed = app.session.seed
    p.key(pygame.K_ESCAPE)
    p.key(pygame.K_5)  # New game
    assert app.session.seed == seed + 1 and app.view.menu is None
    p.sit_down()  # a new game begins with its handover screen
    p.key(pygame.K_ESCAPE)
    p.key(pygame.K_ESCAPE)
    p.key(pygame.K_4)  # Load: nothing rolled in this new game yet, so any save loads
    assert app.view.status.startswith("loaded") and app.session.seed == seed
    if app.view.handover is not None:
        p.sit_down()
    p.key(pygame.K_ESCAPE)
    p.key(pygame.K_ESCAPE)
    p.key(pygame.K_3)  # Save and quit
    assert not app.running and app.closing is not None


def test_settings_ask_reactions_and_the_ai_pause(tmp_path: Path, shots: Path) -> None:
    app, p = opened(tmp_path, shots)
    p.key(pygame.K_6)
    assert app.view.menu == "settings"
    assert app.menu_lines()[0].label == "Reactions of my side: automatic (policy)"
    p.shot("settings")
    p.key(pygame.K_1)
    assert (app.world.get("ana", Policy) or Policy()).reactions == "ask"
    assert app.menu_lines()[0].label == "Reactions of my side: asked"
    assert app.view.hint == ""  # the first-battle hint is taken up
    pause = app.ai_pause
    p.key(pygame.K_2)
    assert app.ai_pause != pause and f"{app.ai_pause:g} s" in app.menu_lines()[1].label
    p.key(pygame.K_ESCAPE)
    assert app.view.menu == "main"
    p.key(pygame.K_ESCAPE)
    assert app.view.menu is None
