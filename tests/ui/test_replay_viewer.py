"""Issue #15, the replay viewer (`sim replay SAVE`): a save from `sim batch --keep` played back,
stepped by decision, turn and round, forward and back, played at a chosen speed, the log in
step, overlays on, and a jump to any turn; nothing is decided and nothing autosaved."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from sim.cli.main import main
from sim.core.components import Position
from sim.core.events import TurnStarted
from sim.formats.replay import load_save
from sim.ui.input.viewer import Viewer, open_save
from sim.ui.model.tape import SPEEDS
from tests.tools.test_batch import DUEL
from tests.ui import test_client as client
from tests.ui.test_client import Player

shots = client.shots
save_dir = client.save_dir  # saves go to a temporary directory


@pytest.fixture
def kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """One game of the batch tests' goblin duel, kept by `sim batch --keep`."""
    duel = tmp_path / "duel.toml"
    duel.write_text(DUEL, encoding="utf-8")
    where = tmp_path / "kept"
    code = main(["batch", str(duel), "--games", "1", "--workers", "1", "--keep", str(where),
                 "--keep-only", "all"])  # fmt: skip
    capsys.readouterr()
    assert code == 0
    (save,) = where.iterdir()
    return save


def key(p: Player, k: int, shift: bool = False) -> None:
    p.key(k, pygame.KMOD_SHIFT if shift else 0)


def test_step_by_decision_turn_and_round(kept: Path, shots: Path, save_dir: Path) -> None:
    save, _, whole = load_save(kept)
    viewer = Viewer(open_save(kept), (1280, 800))
    p = Player(viewer, shots)
    tape = viewer.tape
    assert tape.position == 0 and tape.length == len(save.decisions) > 3
    assert viewer.view.status.startswith("Replay decision 0/")
    # Forward one decision: its results on the board, the log in step with the battle.
    key(p, pygame.K_RIGHT)
    assert tape.position == 1
    assert viewer.session.battle.log == whole.log[: tape.ends[1]]
    p.shot("first_decision")
    key(p, pygame.K_LEFT)
    assert tape.position == 0 and viewer.session.battle.decisions == []
    # By turn: each stop is where a TurnStarted happened.
    key(p, pygame.K_RIGHT, shift=True)
    second = tape.turns[1].position
    assert tape.position == second
    assert isinstance(
        [e for e in viewer.session.battle.log if isinstance(e, TurnStarted)][-1], TurnStarted
    )
    assert "turn 2/" in viewer.view.status
    key(p, pygame.K_LEFT, shift=True)
    assert tape.position == tape.turns[0].position
    # By round, then the end and back to the start.
    key(p, pygame.K_DOWN)
    assert tape.position == (tape.rounds[1].position if len(tape.rounds) > 1 else tape.length)
    key(p, pygame.K_END)
    assert tape.position == tape.length
    assert viewer.session.battle.log == whole.log
    p.shot("the_end")
    key(p, pygame.K_RIGHT)
    assert "no further that way" in viewer.view.status
    key(p, pygame.K_HOME)
    assert tape.position == 0
    # Jump to a turn by number; a turn that does not exist is refused in words.
    p.key(pygame.K_g)
    p.key(pygame.K_3)
    p.key(pygame.K_RETURN)
    assert tape.position == tape.turns[2].position and "turn 3/" in viewer.view.status
    p.key(pygame.K_g)
    for digit in "999":
        p.key(pygame.K_0 + int(digit))
    p.key(pygame.K_RETURN)
    assert f"there is no turn 999: this battle has turns 1 to {len(tape.turns)}" in (
        viewer.view.status
    )
    # Nothing is decided: the keys that act (E ends a turn, A attacks) do nothing.
    before = tape.position
    p.key(pygame.K_e)
    p.key(pygame.K_a)
    assert tape.position == before and viewer.session.battle.decisions == list(
        save.decisions[:before]
    )
    assert viewer.session.close() == ("", True)  # never autosaved
    assert not save_dir.exists() or list(save_dir.iterdir()) == []


def test_play_pause_speed_and_overlays(kept: Path, shots: Path) -> None:
    viewer = Viewer(open_save(kept), (1280, 800))
    p = Player(viewer, shots)
    tape = viewer.tape
    p.key(pygame.K_RIGHTBRACKET)
    assert SPEEDS[viewer.speed] == 2.0
    p.key(pygame.K_SPACE)
    assert viewer.playing and "playing ×2/s" in viewer.view.status
    assert viewer.tick(100.0) and tape.position == 1
    assert not viewer.tick(100.2)  # half a second apart at 2 a second
    assert viewer.tick(100.5) and tape.position == 2
    p.key(pygame.K_SPACE)
    assert not viewer.playing and not viewer.tick(200.0)
    p.key(pygame.K_LEFTBRACKET)
    p.key(pygame.K_LEFTBRACKET)
    assert SPEEDS[viewer.speed] == 0.5
    p.key(pygame.K_t)  # the threat overlay, as in the game
    assert viewer.view.show_threat
    viewer.frame()
    # Every side's threat, as everyone is seen: the legend names whose (issue #33).
    assert "blue, red reach (count)" in viewer.renderer.legend
    # No action buttons: nothing is decided here (issue #33: they were dead weight).
    assert not [v for _, k, v in viewer.renderer.hits.items if k == "action"]
    # Only the toggles that work here: no Slow, Quicken, Disengage, Undo, Save or Load.
    toggles = [v for _, k, v in viewer.renderer.hits.items if k == "toggle"]
    assert toggles == ["reach", "threat", "own", "help"]
    p.shot("threats_in_replay")
    # A click on a creature selects it (its details, its reach); nothing moves.
    grok = viewer.world.need("grok", Position).cell
    p.click_cell(grok)
    assert viewer.view.selected == "grok" and tape.position == 2
    # Played to the end, it stops there.
    p.key(pygame.K_SPACE)
    now = 300.0
    while viewer.tick(now):
        now += 2.0
    assert tape.position == tape.length and not viewer.playing


def test_sim_replay_reports_a_bad_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"sim replay: {bad}") and "Traceback" not in err


def test_f1_in_the_viewer_lists_the_viewers_keys_and_the_status_line_fits(
    kept: Path, shots: Path
) -> None:
    """The help in the replay viewer is its own (stepping, playing, jumping to a turn), not the
    game's keys that do nothing there (click a cell to move, E, Z, F5...); the status line, at
    the design size, fits the bar whole: its reminder points to F1 for the rest."""
    viewer = Viewer(open_save(kept), (1280, 800))
    p = Player(viewer, shots)
    fonts = viewer.renderer.fonts
    plain = fonts.draw
    drawn: list[str] = []

    def recording(*args: object, **kwargs: object) -> pygame.Rect:
        drawn.append(str(args[1]))
        return plain(*args, **kwargs)  # type: ignore[arg-type]

    fonts.draw = recording  # type: ignore[method-assign]
    try:
        viewer.frame()
        assert "F1: all keys" in viewer.view.status
        assert viewer.view.status in drawn, drawn  # whole, not cut short with "…"
        p.key(pygame.K_F1)
        drawn.clear()
        p.shot("replay_help")
    finally:
        fonts.draw = plain  # type: ignore[method-assign]
    assert "Shift+Right / Left" in drawn and "G, a number, Enter" in drawn
    assert "[ / ]" in drawn and "one round forward / back" in drawn
    assert "end the turn" not in drawn and "commit the move shown" not in drawn
