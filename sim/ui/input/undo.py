"""Taking the game back: undo (Z) and undo the turn (Shift+Z), which only the side whose
creature acts may do (sim/ui/model/rewind.py), so that a player never erases a move the other
side was just shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.ui.model import rewind
from sim.ui.words.status import decision_words, say

if TYPE_CHECKING:
    from sim.ui.input.app import App


def rewind_refusal(app: App) -> str | None:
    """Why the side at the screen may not take the game back now (undo, undo turn, a quick
    load on the board), or None."""
    return rewind.rewind_refusal(app.session, app.view, app.acting())


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
    taken = session.battle.decisions[keep] if keep is not None else None
    refused = rewind.undo_step(session, lambda: app.seats.turn() is not None)
    if refused or taken is None:
        app.view.status = say("cannot_undo", why=refused or session.undo_reason())
        return
    app.view.status = say("undone", what=decision_words(taken))
    app.view.clear_plan()
    app.sync()


def undo_turn(app: App) -> None:
    if not may_rewind(app, "undo"):
        return
    refused = rewind.undo_turn(app.session)
    if refused:
        app.view.status = say("cannot_undo", why=refused)
        return
    app.view.status = say("undone_turn")
    app.view.clear_plan()
    app.sync()
