"""A game continued from a save of before the policy "auto" (format version 1) goes on under
the default it began with, "always": undo and the replay viewer play it back the same."""

from __future__ import annotations

from pathlib import Path

from sim.formats.replay import load_save
from sim.ui.model.session import Session
from sim.ui.model.tape import Tape

OLD_SAVE = Path(__file__).resolve().parents[1] / "formats" / "saves" / "draw.v1.json"


def interrupted(log: object) -> bool:
    return any(getattr(e, "kind", "") == "action_lost" for e in log)  # type: ignore[attr-defined]


def test_undo_in_a_game_from_an_old_save_keeps_always(tmp_path: Path) -> None:
    save, scenario, battle = load_save(OLD_SAVE)
    session = Session(scenario, save.seed, battle, autosave=tmp_path / "game.autosave.json")
    session.rewind(1)  # ana's Draw again, bo's Interrupt with it
    assert session.battle.default_policy == "always"
    assert interrupted(session.battle.log)
    assert session.save().default_policy == "always"


def test_the_replay_viewer_plays_an_old_save_under_always() -> None:
    save, scenario, _ = load_save(OLD_SAVE)
    tape = Tape(scenario, save)
    assert tape.go(tape.length)
    assert interrupted(tape.battle.log)
    assert tape.go(0) and tape.go(1)  # back to the start and forth again
    assert interrupted(tape.battle.log)
