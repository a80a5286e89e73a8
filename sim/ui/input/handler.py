"""What an event means in the window, one handler per mode (as the python-tcod tutorial's event
handlers): `EventHandler` reads the mouse and the keys the same way everywhere, and each mode's
handler (handover, menu, the board's modes of sim/ui/model/mode.py) says what they do there."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from sim.ui.input import camera
from sim.ui.model.mode import Choosing, Free, Marking, Picking, Targeting
from sim.ui.words.status import say

if TYPE_CHECKING:
    from sim.ui.input.app import App

Hit = tuple[str, str]  # what a click hit on the panels: (kind, value), sim/ui/draw/panel.py


class EventHandler:
    """One event at a time for the window `app`: the mouse moves the hover and drags or wheels
    the camera, a right click without a drag cancels (Esc); a left click and a key are the
    mode's (`click`, `key`)."""

    def __init__(self, app: App) -> None:
        self.app = app

    def handle(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.MOUSEMOTION:
            camera.motion(self.app, event.pos, event.rel, event.buttons)
        elif kind == pygame.MOUSEBUTTONDOWN:
            self.press(event.pos, event.button)
        elif kind == pygame.MOUSEBUTTONUP:
            self.release(event.pos, event.button)
        elif kind == pygame.MOUSEWHEEL:
            camera.zoom(self.app, camera.wheel_factor(event.y), self.app.view.mouse)
        elif kind == pygame.KEYDOWN:
            self.key(event.key, event.mod, getattr(event, "unicode", ""))

    def press(self, pos: tuple[int, int], button: int) -> None:
        app = self.app
        camera.motion(app, pos, (0, 0), (0, 0, 0))
        if button in (2, 3):
            app.drag_moved = 0
            return
        if button == 1:
            self.click(pos, app.renderer.hits.at(pos))

    def release(self, pos: tuple[int, int], button: int) -> None:
        if button == 3 and self.app.drag_moved < 4:
            cancel(self.app)

    def click(self, pos: tuple[int, int], hit: Hit | None) -> None:
        """A left click at `pos`, on what it `hit` on the panels (None: nothing there)."""

    def key(self, key: int, mod: int, char: str) -> None:
        """A key pressed, with the modifiers held and the character it typed."""


def cancel(app: App) -> None:
    """Esc: close what is open, else drop the plan, else the selection; with nothing left to
    cancel, open the menu."""
    view = app.view
    if view.confirm is not None:
        view.confirm = None
        view.status = say("confirm_dropped")
    elif view.menu is not None:
        view.menu = None if view.menu == "main" else "main"
    elif view.help:
        view.help = False
    elif isinstance(view.mode, Picking | Targeting | Choosing):
        view.mode = Free()
    elif view.preparing is not None or isinstance(view.mode, Marking):
        view.preparing = None
        view.mode = Free()
        view.status = say("prepare_cancelled")
    elif view.waypoints:
        view.waypoints.clear()
    elif view.move_only:
        view.move_only = None
    elif view.selected is not None:
        view.selected = None
    else:
        view.menu = "main"
