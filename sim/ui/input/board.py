"""The board's keys and clicks in every mode of sim/ui/model/mode.py (`BoardHandler`): a
reaction prompt's answers, the toggles, actions, undo, the quick save, policies, the camera and
the log; a click on the panels, or on a cell, which each mode's handler takes (`on_cell`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from sim.core.creature import creatures
from sim.core.geometry import Pos
from sim.play.engine import AwaitingReaction, BattleOver
from sim.ui.input import camera
from sim.ui.input.handler import EventHandler, Hit, cancel
from sim.ui.input.orders import answer, choose, choose_action, pick_item
from sim.ui.input.policies import set_policy
from sim.ui.input.saving import FILE_KEYS, play_again, quick_load, save
from sim.ui.input.undo import undo, undo_turn
from sim.ui.model.actionbar import prompt_options
from sim.ui.model.planner import hidden_from
from sim.ui.model.view import TOGGLES
from sim.ui.words.status import say

if TYPE_CHECKING:
    from sim.ui.input.app import App

TOGGLE_KEYS = {
    pygame.K_r: "reach", pygame.K_t: "threat", pygame.K_y: "own",
    pygame.K_g: "disengage", pygame.K_s: "slow", pygame.K_q: "quicken",
}  # fmt: skip
ACTION_KEYS = {pygame.K_a: "attack", pygame.K_c: "cast", pygame.K_u: "use", pygame.K_w: "prepare"}
LOG_PAGE = 8  # lines PageUp and PageDown scroll the log


def toggle(app: App, name: str) -> None:
    """A toggle of the action bar (or its key): an overlay, help, Disengage, Slow or Quicken,
    and the bar's undo, save and load buttons."""
    if name in TOGGLES:
        app.view.toggle(name)
    elif name == "undo":
        undo(app)
    elif name == "undo_turn":
        undo_turn(app)
    elif name == "save":
        save(app)
    elif name == "load":
        quick_load(app)


def next_own(app: App) -> None:
    """Tab: select the next creature of the side at the screen."""
    own = [u for u in creatures(app.world) if app.mine(u)]
    if not own:
        return
    view = app.view
    i = own.index(view.selected) if view.selected in own else -1
    view.selected = own[(i + 1) % len(own)]
    view.clear_plan()


def go_ahead(handler: BoardHandler) -> None:
    """Enter: the decision held back for a second click goes ahead, as that click would make
    it (the cell clicked first is clicked again); one made without a cell is submitted."""
    app = handler.app
    held = app.view.confirm
    if held is None:
        return
    if held.cell is not None:
        handler.click_cell(held.cell)
    else:
        app.view.confirm = None
        app.submit(held.decision)


class BoardHandler(EventHandler):
    """The board is shown and the side at the screen plays: what is the same in every mode."""

    def key(self, key: int, mod: int, char: str) -> None:
        app = self.app
        view = app.view
        if app.seats.key(key):
            return
        pending = app.session.battle.pending
        if (
            isinstance(pending, AwaitingReaction)
            and app.mine(pending.unit)
            and pygame.K_1 <= key <= pygame.K_9
        ):
            options = prompt_options(app.session.battle)
            index = key - pygame.K_1
            if index < len(options):
                answer(app, options[index])
            return
        if self.mode_key(key):
            return
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER) and view.confirm is not None:
            go_ahead(self)
            return
        if key == pygame.K_ESCAPE:
            cancel(app)
        elif key == pygame.K_F1 or char == "?":
            toggle(app, "help")
        elif key == pygame.K_e:
            if app.acting() is not None:
                choose_action(app, "end_turn")
        elif key in TOGGLE_KEYS:
            toggle(app, TOGGLE_KEYS[key])
        elif key in ACTION_KEYS:
            choose_action(app, ACTION_KEYS[key])
        elif key == pygame.K_z:
            undo_turn(app) if mod & pygame.KMOD_SHIFT else undo(app)
        elif key in FILE_KEYS:
            FILE_KEYS[key](app)
        elif key == pygame.K_n and isinstance(app.session.battle.pending, BattleOver):
            play_again(app)
        elif key == pygame.K_p:
            set_policy(app, True)
        elif key == pygame.K_o:
            set_policy(app, False)
        elif key == pygame.K_TAB:
            next_own(app)
        elif key == pygame.K_BACKSPACE:
            if view.waypoints:
                view.waypoints.pop()
        elif camera.key(app, key):
            pass
        elif key == pygame.K_PAGEUP:
            view.log_offset += LOG_PAGE
        elif key == pygame.K_PAGEDOWN:
            view.log_offset = max(0, view.log_offset - LOG_PAGE)

    def mode_key(self, key: int) -> bool:
        """The keys this mode takes before the board's own (a list's numbers, the marked
        area's Enter and Backspace); whether it took this one."""
        return False

    def click(self, pos: tuple[int, int], hit: Hit | None) -> None:
        app = self.app
        view = app.view
        if hit is not None:
            self.hit(*hit)
            return
        if view.help:
            view.help = False
            return
        if view.hover is not None:
            shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT) or app.shift
            self.click_cell(view.hover, shift)

    def hit(self, kind: str, value: str) -> None:
        """A click on the panels: the action bar, a prompt's option, a list's line, the menu,
        the battle's end, a creature's line in the sidebar."""
        app = self.app
        view = app.view
        if kind == "toggle":
            toggle(app, value)
        elif kind == "action":
            choose_action(app, value)
        elif kind == "option":
            answer(app, value)
        elif kind == "item":
            pick_item(app, value)
        elif kind == "choice":
            choose(app, value)
        elif kind == "menu":
            app.menu.pick(value)
        elif kind == "over" and value == "again":
            play_again(app)
        elif kind == "unit" and not hidden_from(app.world, value, view.side):
            view.selected = value
            view.clear_plan()

    def click_cell(self, cell: Pos, shift: bool = False) -> None:
        """A click on a board's cell (`shift`: with Shift held): a reaction prompt waits for
        its answer first; else the mode's (`on_cell`)."""
        pending = self.app.session.battle.pending
        if isinstance(pending, AwaitingReaction):
            self.app.view.status = say("answer_first", unit=pending.unit)
            return
        self.on_cell(cell, shift)

    def on_cell(self, cell: Pos, shift: bool) -> None:
        """What a click on `cell` does in this mode."""
