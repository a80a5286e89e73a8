"""Taking the game back at the screen (no pygame): undo, undo the turn and loading a save, with
who may do it. Only the side whose creature is to act may, so that a player answering a
reaction cannot erase the other side's move it has just been shown; and a die once rolled stays
rolled while the battle goes on (sim/ui/model/session.py). The window (Z, Shift+Z, F9) and the
terminal (`undo`, `load`) ask the same questions here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sim.formats.replay import ReplayError, is_autosave, load_save, save_dir
from sim.play.engine import AwaitingReaction, BattleOver
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.status import say


def quick_save(session: Session) -> Path:
    """The scenario's quick save (F5 and F9 in the window, `save` and `load` in the terminal):
    one file a scenario, beside the autosaves."""
    return save_dir() / f"{Path(session.scenario.path).stem}.save.json"


def rewind_refusal(session: Session, view: View, acting: str | None) -> str | None:
    """Why the side at the screen may not take the game back now (undo, undo turn, a load on
    the board), or None. `acting`: the creature of the side at the screen whose action the
    battle waits for, if any."""
    if isinstance(session.battle.pending, BattleOver):
        return None  # the game is over: nothing is hidden from anyone any more
    if view.handover is not None:
        return "take the screen first"
    if acting is None:
        return "only the side whose creature is acting may undo or load"
    return None


def load_refusal(session: Session, view: View, acting: str | None) -> str | None:
    """Why the side at the screen may not load a save now, or None: from the handover screen
    between turns (or at a fresh start) anyone may; not from the one before a reaction
    prompt, which follows the other side's move; on the board, as undo."""
    between_turns = view.handover is not None and not isinstance(
        session.battle.pending, AwaitingReaction
    )
    return None if between_turns else rewind_refusal(session, view, acting)


def undo_step(session: Session, ai_turn: Callable[[], bool]) -> str:
    """Undo the last decision ("" when done, else why not). The AI's own answers are undone
    with the player's decision (`ai_turn`: whether the battle now waits for the AI): else it
    would only give them again at once."""
    keep = session.undo_step_point()
    if keep is None:
        return session.undo_reason()
    session.rewind(keep)
    while ai_turn():
        keep = session.undo_step_point()
        if keep is None:
            break
        session.rewind(keep)
    return ""


def undo_turn(session: Session) -> str:
    """Go back to the start of the current turn, or to just after its last dice roll ("" when
    done, else why not)."""
    keep = session.turn_start_point()
    if keep is None:
        return session.turn_undo_reason() or "nothing done this turn yet"
    session.rewind(keep)
    return ""


def loaded(session: Session, path: Path | str) -> Session | str:
    """The game of the save at `path`, to play on in place of `session`'s; or why not (the
    save cannot be read or replayed, or loading it would take back a dice roll). It goes on
    being autosaved where `sitting_autosave` says (nowhere when `session` was not autosaved)."""
    try:
        saved, scenario, battle = load_save(path)
    except ReplayError as error:
        return say("save_fault", fault=error)
    refused = session.load_refusal(saved)
    if refused:
        return say("cannot_load", why=refused)
    unsaved = session.autosave is None and not is_autosave(path)  # a play-test, say
    game = Session(scenario, saved.seed, battle, autosave=sitting_autosave(session, path))
    if unsaved:
        game.autosave = None
    return game


def sitting_autosave(session: Session, path: Path | str) -> Path | None:
    """Where a game loaded at the screen goes on being autosaved: in the loaded autosave
    itself (as `sim play --load` does), else in the autosave the sitting (`session`, the game
    it replaces) has written already, so a load does not start a second autosave of the same
    sitting; None (a file of its own) when the sitting has written none yet."""
    if is_autosave(path):
        return Path(path)
    return session.autosave if session.autosaved is not None else None
