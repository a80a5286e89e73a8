"""The replay viewer (`sim replay SAVE`): the client's board, sidebar and log on a save played
back, stepped by decision, turn or round, forward and back, or played at a chosen speed.
Nothing is decided here: the keys that would act are not taken, and nothing is autosaved."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pygame

from sim.core.geometry import Pos
from sim.formats.replay import read, replay
from sim.play.engine import Accepted, AwaitingAction, AwaitingReaction, BattleOver
from sim.ui.input import camera
from sim.ui.input.app import App, window_size
from sim.ui.input.board import BoardHandler, toggle
from sim.ui.input.handler import EventHandler
from sim.ui.input.loop import run_window
from sim.ui.input.menu import Menu, MenuHandler
from sim.ui.model.menu import Line as MenuLine
from sim.ui.model.menu import scale_lines
from sim.ui.model.session import Session
from sim.ui.model.tape import SPEEDS, Tape
from sim.ui.words.status import say as say_status

# The status line's reminder, short enough for the bar of the smallest window; F1 has them all
# (sim/ui/draw/prompts.py REPLAY_HELP).
KEYS = "Left/Right: decision · Space: play/pause · F1: all keys"
# The client's keys that only look: overlays, help, zoom, the log; every other key would act.
LOOKING = {
    pygame.K_r, pygame.K_t, pygame.K_y, pygame.K_F1, pygame.K_PLUS, pygame.K_EQUALS,
    pygame.K_KP_PLUS, pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_PAGEUP, pygame.K_PAGEDOWN,
    pygame.K_ESCAPE,
}  # fmt: skip


class Viewer(App):
    """The client showing a `Tape`: every side's view, the battle at the tape's position."""

    def __init__(
        self,
        tape: Tape,
        size: tuple[int, int] = (1400, 860),
        *,
        window: bool = False,
        scale: float | None = None,
        nested: bool = False,
    ):
        """`nested`: opened from a game's menu, in its window; closing it goes back there."""
        self.tape = tape
        self.nested = nested
        self.playing = False
        self.speed = SPEEDS.index(1.0)
        self.typed: str | None = None  # the turn number being typed after G
        self.next_at = 0.0
        session = Session(tape.scenario, tape.seed, tape.battle)
        session.autosave = None  # a replay is never autosaved
        super().__init__(session, size, window=window, scale=scale)
        self.menu = ReplayMenu(self)
        self.view.hint = ""
        self.show()

    # --- what is shown -------------------------------------------------------------------------
    def sync(self) -> None:
        """Everyone's view, no handover; the creature the battle waits for is selected."""
        view = self.view
        view.handover = None
        view.side = None
        view.omniscient = True
        view.replaying = True
        pending = self.session.battle.pending
        if isinstance(pending, AwaitingAction | AwaitingReaction):
            view.selected = pending.unit

    def show(self, results: bool = False) -> None:
        """After the tape moved: its battle on the board; one decision forward also shows that
        decision's results on the board and in the Last line."""
        self.session.show(self.tape.battle)
        self.view.markers = []
        self.view.last = ""
        self.view.clear_plan()
        if results:
            self.show_results(Accepted(self.tape.events()))
        self.sync()
        self.say()

    def say(self, extra: str = "") -> None:
        tape = self.tape
        state = f"playing ×{SPEEDS[self.speed]:g}/s" if self.playing else "paused"
        if isinstance(tape.battle.pending, BattleOver) and tape.position == tape.length:
            state = "the end"
        typed = f" · to turn: {self.typed}_" if self.typed is not None else ""
        self.view.status = say_status(
            "replay", where=tape.where(), state=state, typed=typed, more=extra or KEYS
        )

    def move(self, moved: bool, results: bool = False) -> None:
        if moved:
            self.show(results)
        else:
            self.say(say_status("replay_nowhere"))

    # --- playing -------------------------------------------------------------------------------
    def tick(self, now: float | None = None) -> bool:
        """While playing: the next decision when its time has come; True if one was shown."""
        if not self.playing:
            return False
        now = time.monotonic() if now is None else now
        if now < self.next_at:
            return False
        self.next_at = now + 1.0 / SPEEDS[self.speed]
        if not self.tape.step(1):
            self.playing = False
            self.say()
            return False
        self.show(results=True)
        return True

    def run(self) -> None:
        run_window(
            lambda: self.running,
            self.handle,
            self.frame,
            self.tick,
            wait=lambda: 20 if self.playing else 100,  # playing: step on time, not on events
        )

    def step(self) -> bool:
        """Between frames: the next decision while playing."""
        return self.tick()

    def handler(self) -> EventHandler:
        """The menu's handler while it is open, else the tape's."""
        if self.view.menu is not None:
            return ReplayMenuHandler(self)
        return ReplayHandler(self)


class ReplayMenu(Menu):
    """Resume, close (back to the game it was opened from) and the UI scale: the game's save,
    load, new game and reaction settings have no game here."""

    def __init__(self, viewer: Viewer) -> None:
        super().__init__(viewer)
        self.viewer = viewer

    def lines(self) -> list[MenuLine]:
        if self.viewer.view.menu == "settings":
            return [*scale_lines(self.viewer.renderer.m.scale), MenuLine("back", "Back", True, "")]
        close = (
            MenuLine("close", "Back to the game", True, "close the replay; the game is as it was")
            if self.viewer.nested
            else MenuLine("close", "Close the replay", True, "close the window")
        )
        return [
            MenuLine("resume", "Resume", True, "back to the replay (Esc)"),
            close,
            MenuLine("settings", "Settings", True, "the UI scale"),
        ]

    def title(self) -> str:
        if self.viewer.view.menu == "settings":
            return super().title()
        return "Menu (Esc: back to the replay)"

    def pick(self, value: str) -> None:
        if value == "close":
            viewer = self.viewer
            viewer.view.menu = None
            viewer.playing = False
            viewer.running = False
            return
        super().pick(value)


class ReplayMenuHandler(MenuHandler):
    """The viewer's menu: its number keys, + and - and Esc; the tape waits."""

    def key(self, key: int, mod: int, char: str) -> None:
        if key not in (pygame.K_i, pygame.K_SPACE):
            super().key(key, mod, char)


class ReplayHandler(BoardHandler):
    """The tape's keys, and of the client's only those that look (`LOOKING`): nothing is
    decided here."""

    def __init__(self, viewer: Viewer) -> None:
        super().__init__(viewer)
        self.viewer = viewer

    def key(self, key: int, mod: int, char: str) -> None:
        viewer = self.viewer
        tape = viewer.tape
        shift = bool(mod & pygame.KMOD_SHIFT)
        if viewer.typed is not None:
            if pygame.K_0 <= key <= pygame.K_9:
                viewer.typed += chr(key)
                viewer.say()
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                typed, viewer.typed = viewer.typed, None
                problem = tape.jump(int(typed)) if typed else "type the turn's number first"
                viewer.show()
                if problem:
                    viewer.say(problem)
            elif key == pygame.K_ESCAPE:
                viewer.typed = None
                viewer.say()
            return
        if key == pygame.K_RIGHT:
            viewer.move(tape.turn(True) if shift else tape.step(1), results=not shift)
        elif key == pygame.K_LEFT:
            viewer.move(tape.turn(False) if shift else tape.step(-1))
        elif key == pygame.K_DOWN:
            viewer.move(tape.round(True))
        elif key == pygame.K_UP:
            viewer.move(tape.round(False))
        elif key == pygame.K_HOME:
            viewer.move(tape.go(0))
        elif key == pygame.K_END:
            viewer.move(tape.go(tape.length))
        elif key == pygame.K_SPACE:
            viewer.playing = not viewer.playing and tape.position < tape.length
            viewer.next_at = 0.0
            viewer.say()
        elif key == pygame.K_RIGHTBRACKET:
            viewer.speed = min(len(SPEEDS) - 1, viewer.speed + 1)
            viewer.say()
        elif key == pygame.K_LEFTBRACKET:
            viewer.speed = max(0, viewer.speed - 1)
            viewer.say()
        elif key == pygame.K_g:
            viewer.typed = ""
            viewer.say()
        elif key in LOOKING or char == "?":
            super().key(key, mod, char)

    def hit(self, kind: str, value: str) -> None:
        """Only the overlay toggles, help, selecting a creature and the viewer's own menu:
        nothing that acts."""
        if kind == "toggle" and value in ("reach", "threat", "own", "help"):
            toggle(self.viewer, value)
        elif kind in ("unit", "menu"):
            super().hit(kind, value)

    def click_cell(self, cell: Pos, shift: bool = False) -> None:
        """A click on the board selects the creature there (its reach, its details)."""
        viewer = self.viewer
        unit = viewer.unit_at(cell)
        if unit is not None:
            viewer.view.selected = unit
            viewer.view.clear_plan()


def open_save(path: str | Path) -> Tape:
    """The tape of a save, or ReplayError saying what is wrong with it and where."""
    save = read(path)
    scenario, _ = replay(save, where=str(path))  # checks it comes out as saved
    return Tape(scenario, save)


def nested(path: Path, host: App) -> Viewer:
    """The viewer on a save, opened from the game's menu in its window and at its UI scale
    (`App.replayer`); ReplayError when the save cannot be played back."""
    viewer = Viewer(
        open_save(path),
        host.surface.get_size(),
        scale=host.renderer.m.scale,
        nested=True,
    )
    viewer.surface = host.surface
    camera.fit(viewer)
    return viewer


def watch(tape: Tape, size: tuple[int, int] | None = None, scale: float | None = None) -> int:
    """`sim replay SAVE`: open the viewer on a save's tape until the window is closed (`size`
    None fits it to the display; `scale` None follows the window's size)."""
    try:
        viewer = Viewer(tape, size or window_size(), window=True, scale=scale)
    except pygame.error as error:
        print(f"sim replay: cannot open a window ({error})", file=sys.stderr)
        return 1
    viewer.run()
    return 0
