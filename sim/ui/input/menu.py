"""The Esc menu of the game: its lines, what picking one does (save, load, a new game, watch a
replay, the settings), and its keys and clicks while it is open (`MenuHandler`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from sim.formats.replay import ReplayError, Save, read, save_dir
from sim.ui.draw.render import MENU_TITLES
from sim.ui.input.handler import EventHandler, Hit, cancel
from sim.ui.input.policies import ask_reactions, side_asked
from sim.ui.input.saving import NO_QUICK_SAVE, new_game, quick_load, save
from sim.ui.input.undo import rewind_refusal
from sim.ui.model.menu import AI_PAUSES, WATCH, replay_lines, save_words, scaled
from sim.ui.model.menu import Line as MenuLine
from sim.ui.model.menu import lines as menu_lines
from sim.ui.words.status import say

if TYPE_CHECKING:
    from sim.ui.input.app import App

# The Settings page's + and - (the main keyboard's = is + without Shift).
SCALE_KEYS = {
    pygame.K_PLUS: "ui_larger", pygame.K_EQUALS: "ui_larger", pygame.K_KP_PLUS: "ui_larger",
    pygame.K_MINUS: "ui_smaller", pygame.K_KP_MINUS: "ui_smaller",
}  # fmt: skip


class Menu:
    """The menu of `app`'s game; the page open is `app.view.menu`."""

    def __init__(self, app: App) -> None:
        self.app = app
        # The quick save's refusal, with what it was worked out for (`load_refusal`).
        self._load_checked: tuple[tuple[object, ...], str | None] | None = None
        self._about: dict[Path, tuple[tuple[int, int], str]] = {}  # `about`, by file

    def lines(self) -> list[MenuLine]:
        app = self.app
        view = app.view
        if view.menu == "replays":
            return replay_lines([(p.name, self.about(p)) for p in self.saves()])
        asked = side_asked(app)
        return menu_lines(
            settings=view.menu == "settings",
            may_load=self.load_refusal(),
            asked=asked,
            pause=app.seats.pause,
            seated=view.side is not None,
            scale=app.renderer.m.scale,
            may_watch=self.watch_refusal(),
        )

    def load_refusal(self) -> str | None:
        """Why the quick save cannot be loaded now (as F9 would refuse it), or None: not this
        side's to take back, no quick save, one that cannot be read, or dice rolled since it
        (undo's rule). The save is read again only when it or the game changed."""
        app = self.app
        refused = rewind_refusal(app)
        if refused is not None:
            return refused
        try:
            stat = app.quicksave.stat()
        except OSError:
            return NO_QUICK_SAVE
        key = (str(app.quicksave), stat.st_mtime_ns, stat.st_size, app.session.version)
        if self._load_checked is None or self._load_checked[0] != key:
            try:
                why = app.session.load_refusal(read(app.quicksave)) or None
            except ReplayError as error:
                why = str(error)
            self._load_checked = (key, why)
        return self._load_checked[1]

    def title(self) -> str:
        """The open menu page's title, saying where Esc goes."""
        return MENU_TITLES.get(self.app.view.menu or "main", MENU_TITLES["main"])

    def watch_refusal(self) -> str | None:
        """Why no save can be watched from the menu now, or None."""
        if self.app.replayer is None:
            return "not from here: sim replay SAVE opens the replay viewer"
        if not self.saves():
            return f"no saves yet in {save_dir()}"
        return None

    def saves(self) -> list[Path]:
        """The saves in the save directory the menu offers to watch, newest first (as many as
        the number keys pick)."""
        found = save_dir().glob("*.json") if save_dir().is_dir() else iter(())
        files = [p for p in found if p.is_file()]
        return sorted(files, key=lambda p: (-p.stat().st_mtime, p.name))[:8]

    def about(self, path: Path) -> str:
        """What the save at `path` holds and when it was written (`save_words`), read again
        only when the file changed: the page asks it every frame."""
        try:
            stat = path.stat()
        except OSError:
            return save_words(None, "?")
        key = (stat.st_mtime_ns, stat.st_size)
        kept = self._about.get(path)
        if kept is None or kept[0] != key:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(stat.st_mtime))
            try:
                found: Save | None = read(path)
            except ReplayError:
                found = None
            kept = self._about[path] = (key, save_words(found, when))
        return kept[1]

    def watch(self, path: Path) -> None:
        """Open a save in the replay viewer over the game; the game waits until it is closed.
        A save that cannot be played back is refused in words, and the game stays."""
        app = self.app
        if app.replayer is None:
            return
        try:
            app.watching = app.replayer(path, app)
        except ReplayError as error:
            app.view.status = say("cannot_watch", fault=error)
            return
        app.view.menu = None

    def pick(self, value: str) -> None:
        app = self.app
        view = app.view
        line = next((line for line in self.lines() if line.value == value), None)
        if line is None:
            return
        if not line.ok:
            view.status = say("menu_refused", label=line.label, why=line.detail)
            return
        if value in ("resume", "save", "load", "new"):
            view.menu = None
        if value == "save":
            save(app)
        elif value == "save_quit":
            if save(app):
                app.closing = app.session.close()
                app.running = False
        elif value == "load":
            quick_load(app)
        elif value == "new":
            new_game(app)
        elif value == "settings":
            view.menu = "settings"
        elif value == "replays":
            view.menu = "replays"
        elif value.startswith(WATCH):
            self.watch(save_dir() / value.removeprefix(WATCH))
        elif value == "back":
            view.menu = "main"
        elif value == "reactions":
            ask_reactions(app, not side_asked(app))
        elif value == "ai_pause":
            seats = app.seats
            at = AI_PAUSES.index(seats.pause) if seats.pause in AI_PAUSES else -1
            seats.pause = AI_PAUSES[(at + 1) % len(AI_PAUSES)]
        elif value in ("ui_larger", "ui_smaller"):
            app.set_scale(scaled(app.renderer.m.scale, 1 if value == "ui_larger" else -1))


class MenuHandler(EventHandler):
    """The menu is open: its number keys, + and - on the Settings page, Esc, and clicks on its
    lines; the keys and clicks that act on the battle wait."""

    def key(self, key: int, mod: int, char: str) -> None:
        app = self.app
        if app.seats.key(key):
            return
        lines = app.menu.lines()
        if pygame.K_1 <= key <= pygame.K_9 and key - pygame.K_1 < len(lines):
            app.menu.pick(lines[key - pygame.K_1].value)
        elif app.view.menu == "settings" and key in SCALE_KEYS:
            app.menu.pick(SCALE_KEYS[key])
        elif key == pygame.K_ESCAPE:
            cancel(app)

    def click(self, pos: tuple[int, int], hit: Hit | None) -> None:
        if hit is not None and hit[0] == "menu":
            self.app.menu.pick(hit[1])
