"""Issue #15, the Esc menu: Esc with nothing left to cancel opens it; it saves, saves and
quits, loads the quick save (refused in words when undo's rule forbids it), starts a new game,
and its settings make a side's reactions asked or automatic and change the AI's pause. While
it is open the keys that act on the battle wait."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.content.scenario import load
from sim.core.components import Policy
from sim.play.engine import AwaitingAction
from sim.ui.input.app import App
from sim.ui.input.saving import NO_QUICK_SAVE
from sim.ui.input.viewer import Viewer, nested
from sim.ui.model.session import Session
from tests.ui import test_client as client
from tests.ui import test_replay_viewer as replays
from tests.ui.test_client import Player, make_app, seed_where
from tests.ui.test_over import LAST_STAND

shots = client.shots
save_dir = client.save_dir
kept = replays.kept  # a game kept by `sim batch --keep`


def opened(tmp_path: Path, shots: Path) -> tuple[App, Player]:
    path = tmp_path / "last.toml"
    path.write_text(LAST_STAND, encoding="utf-8")
    app = make_app(path, seed_where(path, "ana"))  # blue first, whatever the shipped AGI
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
    labels = [line.label for line in app.menu.lines()]
    assert labels == [
        "Resume", "Save", "Save and quit", "Load the quick save", "New game of this scenario",
        "Settings", "Watch a replay",
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


def test_no_quick_save_yet_is_said_before_loading(tmp_path: Path, shots: Path) -> None:
    """Before the first save the menu's Load line is greyed with the reason, and Load and F9
    say it instead of failing to read a file; nothing changes. After a save it loads."""
    app, p = opened(tmp_path, shots)
    assert not app.quicksave.exists()
    load_line = next(line for line in app.menu.lines() if line.value == "load")
    assert not load_line.ok and load_line.detail == NO_QUICK_SAVE
    before = (app.session.seed, len(app.session.battle.log))
    p.key(pygame.K_4)  # Load, greyed: its line says why
    assert app.view.status == f"Load the quick save: {NO_QUICK_SAVE}"
    p.key(pygame.K_ESCAPE)
    p.key(pygame.K_F9)
    assert app.view.status == f"cannot load: {NO_QUICK_SAVE}"
    assert (app.session.seed, len(app.session.battle.log)) == before
    p.key(pygame.K_F5)
    assert app.quicksave.exists()
    p.key(pygame.K_ESCAPE)  # the menu again
    assert next(line for line in app.menu.lines() if line.value == "load").ok
    p.key(pygame.K_4)
    assert app.view.status == f"loaded {app.quicksave}"


def test_settings_ask_reactions_and_the_ai_pause(tmp_path: Path, shots: Path) -> None:
    app, p = opened(tmp_path, shots)
    p.key(pygame.K_6)
    assert app.view.menu == "settings"
    assert app.menu.lines()[0].label == "Reactions of my side: automatic (auto)"
    p.shot("settings")
    p.key(pygame.K_1)
    assert (app.world.get("ana", Policy) or Policy()).reactions == "ask"
    assert app.menu.lines()[0].label == "Reactions of my side: asked"
    assert app.view.hint == ""  # the first-battle hint is taken up
    p.key(pygame.K_1)  # automatic again: the default policy "auto", not "always"
    assert (app.world.get("ana", Policy) or Policy()).reactions == "auto"
    assert app.menu.lines()[0].label == "Reactions of my side: automatic (auto)"
    assert app.view.status == "BLUE: reactions automatic (auto)"
    pause = app.seats.pause
    p.key(pygame.K_2)
    assert app.seats.pause != pause and f"{app.seats.pause:g} s" in app.menu.lines()[1].label
    p.key(pygame.K_ESCAPE)
    assert app.view.menu == "main"
    p.key(pygame.K_ESCAPE)
    assert app.view.menu is None


def test_watch_a_replay_from_the_menu_and_come_back(
    tmp_path: Path, shots: Path, save_dir: Path, kept: Path
) -> None:
    """The menu's Watch a replay lists the saves, newest first; one opens in the replay viewer
    over the game (the game waits), is stepped, and its own menu's Back to the game returns to
    the game as it was. A save that cannot be played back is refused in words."""
    path = tmp_path / "last.toml"
    path.write_text(LAST_STAND, encoding="utf-8")
    app = App(Session(load(path), seed_where(path, "ana")), (1280, 800), replayer=nested)
    p = Player(app, shots)
    if app.view.handover is not None:
        p.sit_down()
    # No saves yet: the line is refused, saying why.
    watch = next(line for line in app.menu.lines() if line.value == "replays")
    assert not watch.ok and watch.detail == f"no saves yet in {save_dir}"
    save_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(kept, save_dir / "duel.save.json")
    (save_dir / "broken.json").write_text("{not json", encoding="utf-8")
    os.utime(save_dir / "duel.save.json", (1_000_000_000, 1_000_000_000))  # the older one
    p.key(pygame.K_ESCAPE)
    while app.view.menu is None:
        p.key(pygame.K_ESCAPE)
    p.button("menu", "replays")
    assert app.view.menu == "replays"
    assert [line.value for line in app.menu.lines()] == [
        "watch:broken.json", "watch:duel.save.json", "back",
    ]  # fmt: skip
    p.shot("replay_page")
    # The broken save: refused in words, no viewer, the page stays.
    p.button("menu", "watch:broken.json")
    assert app.watching is None and app.view.status.startswith("cannot watch it: ")
    assert "Traceback" not in app.view.status
    decisions = list(app.session.battle.decisions)
    p.key(pygame.K_2)  # the number key picks the line: the duel
    viewer = app.watching
    assert isinstance(viewer, Viewer) and viewer.nested and viewer.tape.position == 0
    p.key(pygame.K_RIGHT)  # the viewer's keys through the game's window
    assert viewer.tape.position == 1
    assert app.frame() is app.surface and viewer.surface is app.surface
    p.shot("watching_from_the_menu")
    # Its toggles: only those that work in a replay.
    toggles = [v for _, k, v in viewer.renderer.hits.items if k == "toggle"]
    assert toggles == ["reach", "threat", "own", "help"]
    # Its menu: back to the game.
    while viewer.view.menu is None:
        p.key(pygame.K_ESCAPE)
    assert [line.value for line in viewer.menu.lines()] == ["resume", "close", "settings"]
    assert viewer.menu.title() == "Menu (Esc: back to the replay)"
    app.frame()
    rect = next(r for r, k, v in viewer.renderer.hits.items if (k, v) == ("menu", "close"))
    p.click(rect.center)
    assert app.watching is None and app.view.status == "back from the replay"
    assert list(app.session.battle.decisions) == decisions  # the game is as it was
    assert app.view.menu is None
    app.frame()
    assert any(k == "toggle" and v == "save" for _, k, v in app.renderer.hits.items)


def test_watch_a_replay_is_refused_where_there_is_no_viewer(tmp_path: Path, shots: Path) -> None:
    app, _ = opened(tmp_path, shots)  # an App made without one (a play-test, sim render)
    watch = next(line for line in app.menu.lines() if line.value == "replays")
    assert not watch.ok and watch.detail == "not from here: sim replay SAVE opens the replay viewer"
