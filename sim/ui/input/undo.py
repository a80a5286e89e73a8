"""Taking the game back: undo (Z) and undo the turn (Shift+Z), which only the side whose
creature acts may do, so that a player never erases a move the other side was just shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.play.engine import BattleOver
from sim.ui.words.status import decision_words, say

if TYPE_CHECKING:
    from sim.ui.input.app import App


def rewind_refusal(app: App) -> str | None:
    """Why the side at the screen may not take the game back now (undo, undo turn, a quick
    load on the board), or None: only the side whose creature is to act may, so a player
    answering a reaction cannot erase the other side's move it has just been shown."""
    pending = app.session.battle.pending
    if isinstance(pending, BattleOver):
        return None  # the game is over: nothing is hidden from anyone any more
    if app.view.handover is not None:
        return "take the screen first"
    if app.acting() is None:
        return "only the side whose creature is acting may undo or load"
    return None


def may_rewind(app: App, what: str) -> bool:
    """Whether the game may be taken back now; if not, the status line says why."""
    refused = rewind_refusal(app)
    if refused is not None:
        app.view.status = say("cannot_rewind", what=what, why=refused)
    return refused is None


def undo(app: App) -> None:
    if not may_rewind(app, "undo"):
        return
    session = app.session
    keep = session.undo_step_point()
    if keep is None:
        app.view.status = say("cannot_undo", why=session.undo_reason())
        return
    before = list(session.battle.decisions)
    session.rewind(keep)
    taken = before[len(session.battle.decisions)]  # then the refused ones after it, if any
    # The AI's own answers undone with the player's decision: else it would only give them
    # again at once.
    while app.seats.turn() is not None:
        keep = session.undo_step_point()
        if keep is None:
            break
        session.rewind(keep)
    app.view.status = say("undone", what=decision_words(taken))
    app.view.clear_plan()
    app.sync()


def undo_turn(app: App) -> None:
    if not may_rewind(app, "undo"):
        return
    keep = app.session.turn_start_point()
    if keep is None:
        reason = app.session.turn_undo_reason() or "nothing done this turn yet"
        app.view.status = say("cannot_undo", why=reason)
        return
    app.session.rewind(keep)
    app.view.status = say("undone_turn")
    app.view.clear_plan()
    app.sync()
