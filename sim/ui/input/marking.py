"""The board while Prepare's area is marked (`Marking`, R-P2): a click marks or unmarks a cell,
Backspace unmarks the last one, Enter makes the marked cells the trigger."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from sim.core.geometry import Pos
from sim.ui.input.board import BoardHandler
from sim.ui.model.actionbar import trigger_words, unmarkable
from sim.ui.model.mode import Free, Marking
from sim.ui.words.status import count, say

if TYPE_CHECKING:
    from sim.ui.input.app import App


def mark(app: App, cell: Pos) -> None:
    """Prepare's area: a click marks a cell, or unmarks a marked one."""
    view = app.view
    mode = view.mode
    if not isinstance(mode, Marking) or app.acting() is None:
        return
    if not app.world.grid.inside(cell):
        return
    marked = mode.cells
    if cell in marked:
        view.mode = Marking(tuple(c for c in marked if c != cell))
        view.status = say("area_unmarked", cell=cell, cells=count(len(marked) - 1, "cell"))
    elif (problem := unmarkable(app.world, cell)) is not None:
        view.status = say("area_refused", why=problem)
    else:
        view.mode = Marking((*marked, cell))
        view.status = say("area_marked", cell=cell, cells=count(len(marked) + 1, "cell"))


def confirm_area(app: App) -> None:
    """Enter: the marked cells become Prepare's "enters_area" trigger; the action to hold
    ready is chosen next, as for the other triggers."""
    view = app.view
    if view.marking is None:
        return
    if not view.marking:
        view.status = say("area_empty")
        return
    cells = sorted(view.marking, key=lambda c: (c.y, c.x))
    view.mode = Free()
    view.preparing = {"trigger": "enters_area", "cells": [[c.x, c.y] for c in cells]}
    view.status = say("prepare_trigger", trigger=trigger_words(view.preparing))


class MarkHandler(BoardHandler):
    """Prepare's area is being marked."""

    def mode_key(self, key: int) -> bool:
        app = self.app
        view = app.view
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            confirm_area(app)
        elif key == pygame.K_BACKSPACE:
            cells = view.marking
            if cells:
                view.mode = Marking(tuple(cells[:-1]))
                view.status = say(
                    "area_unmarked", cell=cells[-1], cells=count(len(cells) - 1, "cell")
                )
        else:
            return False
        return True

    def on_cell(self, cell: Pos, shift: bool) -> None:
        mark(self.app, cell)
