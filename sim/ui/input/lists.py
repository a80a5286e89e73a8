"""The board with a list open over it (`Picking` an item, `Choosing` a spell, an ability or a
trigger): the number keys pick its lines, and a click on the board waits for the choice."""

from __future__ import annotations

import pygame

from sim.core.geometry import Pos
from sim.ui.input.board import BoardHandler
from sim.ui.input.orders import choose, listed, pick_item
from sim.ui.words.status import say


class ListHandler(BoardHandler):
    """An item list, or a chooser of spells, abilities or Prepare's triggers, is open."""

    def mode_key(self, key: int) -> bool:
        app = self.app
        values = listed(app)
        if not (values and pygame.K_1 <= key <= pygame.K_9):
            return False
        index = key - pygame.K_1
        if index < len(values):
            if app.view.picking:
                pick_item(app, values[index])
            else:
                choose(app, values[index])
        return True

    def on_cell(self, cell: Pos, shift: bool) -> None:
        self.app.view.status = say("choose_first")
