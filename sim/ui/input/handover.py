"""The handover screen between the sides' turns: Enter, Space or a click takes the seat, C takes
up the unfinished game offered there, F5 and F9 save and load; the board stays hidden."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from sim.ui.input.handler import EventHandler, Hit
from sim.ui.input.saving import FILE_KEYS, continue_offered
from sim.ui.model import hotseat

if TYPE_CHECKING:
    from sim.ui.input.app import App


def take_seat(app: App) -> None:
    """The side asked to sit down has the screen."""
    if hotseat.take_seat(app.session, app.view):
        app.hints.show(app.world, app.view)


class AftermathHandler(EventHandler):
    """The side that answered a reaction sees what its answer did (`View.aftermath`) before
    the screen is handed over: Enter, Space, Esc or the panel's button goes on."""

    def key(self, key: int, mod: int, char: str) -> None:
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_ESCAPE):
            self.app.view.aftermath = []

    def click(self, pos: tuple[int, int], hit: Hit | None) -> None:
        if hit is not None and hit[0] == "aftermath":
            self.app.view.aftermath = []


class HandoverHandler(EventHandler):
    """A side is asked to sit down (`View.handover`)."""

    def key(self, key: int, mod: int, char: str) -> None:
        app = self.app
        if app.seats.key(key):
            return
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            take_seat(app)
        elif key == pygame.K_c and app.view.offer:
            continue_offered(app)
        elif key in FILE_KEYS:
            FILE_KEYS[key](app)

    def click(self, pos: tuple[int, int], hit: Hit | None) -> None:
        if hit is not None and hit[0] == "handover":
            take_seat(self.app)
