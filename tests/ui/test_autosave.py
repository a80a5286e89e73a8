"""Autosaves belong to a game, not to a scenario (issue #10, item 11): starting a scenario again
never replaces an earlier game's autosave, a game in which nothing was decided writes none, a
failed write says so (in the window and on exit) instead of claiming the game was saved,
`sim play --continue` takes up the last unfinished game, and temporary files left by a write
that was cut off are removed by the next save. `sim play` without a display fails at once,
touching no save (item 13)."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.cli.main import main
from sim.content.scenario import load
from sim.formats.replay import (
    STALE_SECONDS,
    load_save,
    new_autosave_path,
    read,
    record,
    unfinished_games,
    write,
)
from sim.play.decisions import parse
from sim.play.engine import AwaitingAction, Battle
from sim.ui.input import app as client
from sim.ui.input import handover
from sim.ui.input.app import App
from sim.ui.model.session import Session

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"

# Ana stands two cells from the ford (B); reaching it wins the battle for blue.
FORD = '''
name = "Race to the ford"
seed = 3

[map]
rows = """
#########
#a.B...b#
#########
"""

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"

[[objectives]]
kind = "reach"
team = "blue"
at = "B"
'''


def end_turns(session: Session, count: int) -> None:
    """`count` decisions: whoever is to act ends its turn (each one passes a turn)."""
    for _ in range(count):
        pending = session.battle.pending
        assert isinstance(pending, AwaitingAction)
        session.submit(parse({"unit": pending.unit, "action": "end_turn"}))


def autosaves(where: Path) -> list[Path]:
    return sorted(where.glob("*.autosave.json")) if where.exists() else []


# --- one autosave per game -------------------------------------------------------------------


def test_starting_again_and_closing_at_once_keeps_the_earlier_game(private_saves: Path) -> None:
    """The reported loss: 40 decisions, then the scenario started again and the window closed
    at once. The earlier game's autosave keeps its decisions (16 here: blue holds the ford, and
    wins, after 20 turns of the skirmish); the empty game writes none."""
    first = Session(load(SKIRMISH), 1)
    end_turns(first, 16)
    message, kept = first.close()
    assert kept and first.autosave is not None
    assert message == (
        f"autosaved to {first.autosave}; continue with: sim play {SKIRMISH} --continue "
        f"(or sim play --load {first.autosave})"
    )
    assert len(read(first.autosave).decisions) == 16

    again = Session(load(SKIRMISH), 1)
    message, kept = again.close()
    assert kept
    assert message == "nothing was decided in this game, so nothing was autosaved"
    assert autosaves(private_saves) == [first.autosave]
    assert len(read(first.autosave).decisions) == 16
    [game] = unfinished_games(load(SKIRMISH))
    assert game.path == first.autosave and len(game.save.decisions) == 16


def test_two_games_of_one_scenario_have_two_autosaves(private_saves: Path) -> None:
    one = Session(load(SKIRMISH), 1)
    two = Session(load(SKIRMISH), 2)
    end_turns(one, 3)
    end_turns(two, 5)  # started in the same second as `one`, perhaps: it must not take its file
    assert one.autosave != two.autosave
    assert autosaves(private_saves) == sorted(p for p in (one.autosave, two.autosave) if p)
    assert one.autosave is not None and len(read(one.autosave).decisions) == 3
    assert two.autosave is not None and len(read(two.autosave).decisions) == 5


def test_a_name_taken_by_another_game_meanwhile_is_not_overwritten(private_saves: Path) -> None:
    """Two `sim play` started in the same second pick the same name; the one that writes
    second sees the file is not its own and takes another name."""
    mine = Session(load(SKIRMISH), 1)
    theirs = Session(load(SKIRMISH), 2)
    assert mine.autosave is not None
    theirs.autosave = mine.autosave  # as if both had started in the same second
    end_turns(theirs, 2)
    end_turns(mine, 1)
    assert mine.autosave != theirs.autosave
    assert len(read(theirs.autosave).decisions) == 2
    assert len(read(mine.autosave).decisions) == 1


def test_a_game_name_is_its_start_time_and_a_second_game_in_that_second_gets_a_number(
    private_saves: Path,
) -> None:
    when = datetime(2026, 12, 3, 7, 57, 32, tzinfo=UTC)
    first = new_autosave_path(SKIRMISH, when)
    assert first == private_saves / "skirmish.20261203-075732.autosave.json"
    private_saves.mkdir()
    first.write_text("{}", encoding="utf-8")
    assert new_autosave_path(SKIRMISH, when) == private_saves / (
        "skirmish.20261203-075732-2.autosave.json"
    )


def test_a_game_loaded_from_its_autosave_goes_on_in_that_file(
    private_saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sim play --load AUTOSAVE` is the same game: it keeps autosaving into its file. A game
    loaded from any other save is autosaved anew, leaving that save alone."""
    game = Session(load(SKIRMISH), 1)
    end_turns(game, 4)
    assert game.autosave is not None
    opened: list[Session] = []
    monkeypatch.setattr(
        "sim.cli.main._window",
        lambda session, offer=None, ai=None, **_: opened.append(session) or 0,
    )
    assert main(["play", "--load", str(game.autosave)]) == 0
    assert opened[-1].autosave == game.autosave
    end_turns(opened[-1], 2)
    assert len(read(game.autosave).decisions) == 6
    assert autosaves(private_saves) == [game.autosave]

    other = private_saves / "quick.json"
    game.save_to(other)
    assert main(["play", "--load", str(other)]) == 0
    assert opened[-1].autosave not in (game.autosave, other)
    end_turns(opened[-1], 1)
    assert len(read(other).decisions) == 4
    assert len(read(game.autosave).decisions) == 6


# --- a write that fails ----------------------------------------------------------------------


@pytest.fixture
def unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A save directory that cannot be made: its parent is a file (root may write anywhere, so
    permissions would not stop the tests' root user)."""
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("", encoding="utf-8")
    where = blocker / "saves"
    monkeypatch.setenv("SIM_SAVE_DIR", str(where))
    return where


def test_a_failed_autosave_says_so_and_never_claims_the_game_was_saved(unwritable: Path) -> None:
    session = Session(load(SKIRMISH), 1)
    end_turns(session, 2)
    assert session.notice.startswith(f"autosave failed: {session.autosave}: cannot save: ")
    message, kept = session.close()
    assert not kept
    assert "autosaved to" not in message
    assert message.startswith(f"autosave failed: {session.autosave}: cannot save: ")
    assert message.endswith(": this game is not saved")


def test_a_later_failure_names_the_autosave_that_still_holds_the_game(
    private_saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session(load(SKIRMISH), 1)
    end_turns(session, 3)

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("sim.formats.replay.os.replace", full)
    end_turns(session, 1)
    message, kept = session.close()
    assert not kept
    assert message == (
        f"autosave failed: {session.autosave}: cannot save: No space left on device: this game "
        f"is not saved; the autosave {session.autosave} keeps it up to decision 3"
    )
    assert session.autosave is not None and len(read(session.autosave).decisions) == 3


def test_the_window_shows_a_failed_autosave_and_the_exit_message_says_so(
    unwritable: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In the window the failure is the session's notice (drawn in the sidebar); closing the
    window prints it on standard error with exit status 1, not "autosaved to"."""
    app = App(Session(load(SKIRMISH), 1), (1280, 800))
    handover.take_seat(app)
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingAction)
    app.submit(parse({"unit": pending.unit, "action": "end_turn"}))
    assert app.session.notice.startswith("autosave failed:")
    handover.take_seat(app)
    app.frame()  # the sidebar draws the notice

    session = Session(load(SKIRMISH), 1)
    end_turns(session, 1)
    real_run = App.run

    def close_at_once(self: App) -> None:
        self.handle(pygame.event.Event(pygame.QUIT))
        real_run(self)

    monkeypatch.setattr(App, "run", close_at_once)
    assert client.play(session, (800, 600)) == 1
    out, err = capsys.readouterr()
    assert "autosaved to" not in out + err
    assert err.startswith(f"sim play: autosave failed: {session.autosave}: cannot save: ")
    assert "this game is not saved" in err


def test_closing_the_window_prints_where_the_game_was_autosaved(
    private_saves: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    session = Session(load(SKIRMISH), 1)
    end_turns(session, 1)
    real_run = App.run

    def close_at_once(self: App) -> None:
        self.handle(pygame.event.Event(pygame.QUIT))
        real_run(self)

    monkeypatch.setattr(App, "run", close_at_once)
    assert client.play(session, (800, 600)) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"autosaved to {session.autosave}; continue with: sim play {SKIRMISH} ")
    assert session.autosave is not None and session.autosave.exists()


# --- continuing --------------------------------------------------------------------------------


def test_sim_play_offers_the_last_unfinished_game_and_continue_takes_it_up(
    private_saves: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    older = Session(load(SKIRMISH), 1)
    end_turns(older, 2)
    newer = Session(load(SKIRMISH), 1)
    end_turns(newer, 5)
    assert older.autosave is not None and newer.autosave is not None
    now = time.time()
    os.utime(older.autosave, (now - 600, now - 600))

    assert main(["play", str(SKIRMISH), "--text"]) == 0
    out = capsys.readouterr().out
    assert "An unfinished game of this scenario was autosaved (5 decisions, last saved " in out
    assert f"continue it with `sim play {SKIRMISH} --continue`" in out

    assert main(["play", str(SKIRMISH), "--continue", "--text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Continuing {newer.autosave} (5 decisions, last saved ")
    _, _, battle = load_save(newer.autosave)
    turn = battle.world.turn
    assert f": round {turn.round}, {turn.current} to act" not in out  # Enter shows the board
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    assert main(["play", str(SKIRMISH), "--continue", "--text"]) == 0
    assert f": round {turn.round}, {turn.current} to act" in capsys.readouterr().out


def test_continue_opens_the_window_on_the_game_and_keeps_its_autosave(
    private_saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Session(load(SKIRMISH), 1)
    end_turns(game, 3)
    opened: list[Session] = []
    monkeypatch.setattr(
        "sim.cli.main._window",
        lambda session, offer=None, ai=None, **_: opened.append(session) or 0,
    )
    assert main(["play", "--continue"]) == 0  # the default scenario is the skirmish
    [session] = opened
    assert session.autosave == game.autosave
    assert session.battle.decisions == game.battle.decisions
    assert session.battle.world == game.battle.world


def test_the_window_offers_the_unfinished_game_on_its_first_handover_screen(
    private_saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sim play SCENARIO` hands the offer to the window: its first handover screen says an
    unfinished game was autosaved; C takes it up, in its own autosave file."""
    game = Session(load(SKIRMISH), 1)
    end_turns(game, 3)
    assert game.autosave is not None
    offered: list[object] = []
    monkeypatch.setattr(
        "sim.cli.main._window", lambda session, offer=None, ai=None, **_: offered.append(offer) or 0
    )
    assert main(["play", str(SKIRMISH)]) == 0
    [offer] = offered
    assert offer == unfinished_games(load(SKIRMISH))[0]

    app = App(Session(load(SKIRMISH), 1), (1280, 800), offer=unfinished_games(load(SKIRMISH))[0])
    assert app.view.handover is not None
    assert app.view.offer.startswith("An unfinished game of this scenario was autosaved (3 ")
    assert app.view.offer.endswith("Press C to continue it; Enter starts this new one.")
    app.frame()
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_c, mod=0, unicode="c"))
    assert app.view.offer == ""
    assert app.view.status == f"continued {game.autosave}"
    assert app.session.autosave == game.autosave
    assert app.session.battle.decisions == game.battle.decisions
    assert app.session.battle.world == game.battle.world
    assert app.view.handover is not None  # the side to act takes the screen as usual
    handover.take_seat(app)
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingAction)
    app.submit(parse({"unit": pending.unit, "action": "end_turn"}))
    assert len(read(game.autosave).decisions) == 4
    assert autosaves(private_saves) == [game.autosave]


def test_enter_starts_the_new_game_and_the_offer_lapses(private_saves: Path) -> None:
    game = Session(load(SKIRMISH), 1)
    end_turns(game, 3)
    assert game.autosave is not None
    before = game.autosave.read_bytes()
    app = App(Session(load(SKIRMISH), 1), (1280, 800), offer=unfinished_games(load(SKIRMISH))[0])
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    assert app.view.offer == "" and app.view.handover is None
    assert app.session.battle.decisions == []
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingAction)
    app.submit(parse({"unit": pending.unit, "action": "end_turn"}))
    assert app.session.autosave != game.autosave
    assert game.autosave.read_bytes() == before
    assert len(autosaves(private_saves)) == 2


def test_finished_games_and_other_scenarios_are_not_offered(
    private_saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ford = tmp_path / "ford.toml"
    ford.write_text(FORD, encoding="utf-8")
    session = Session(load(ford), 3)
    battle = session.battle
    if battle.pending == AwaitingAction("grok"):
        session.submit(parse({"unit": "grok", "action": "end_turn"}))
    session.submit(parse({"unit": "ana", "action": "walk", "to": [3, 1]}))
    assert battle.world.turn.over
    assert session.autosave is not None and read(session.autosave).over
    other = Session(load(SKIRMISH), 1)
    end_turns(other, 1)

    assert unfinished_games(load(ford)) == []
    code = main(["play", str(ford), "--continue"])
    assert code == 1
    assert capsys.readouterr().err == (
        f"sim play: no unfinished game of {ford} was autosaved; "
        f"`sim play {ford}` starts a new one\n"
    )
    assert main(["play", str(ford), "--text"]) == 0
    assert "unfinished" not in capsys.readouterr().out


def test_a_save_for_a_changed_scenario_or_a_damaged_one_is_not_offered(
    private_saves: Path, tmp_path: Path
) -> None:
    ford = tmp_path / "ford.toml"
    ford.write_text(FORD, encoding="utf-8")
    session = Session(load(ford), 3)
    session.submit(parse({"unit": "ana", "policy": "never", "defence": "dodge"}))
    session.close()
    assert len(unfinished_games(load(ford))) == 1
    (private_saves / "ford.20260101-000000.autosave.json").write_text("{", encoding="utf-8")
    assert len(unfinished_games(load(ford))) == 1
    ford.write_text(FORD.replace("Race to", "Run to"), encoding="utf-8")
    assert unfinished_games(load(ford)) == []


def test_continue_and_load_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--continue", "--load", "x.json"]) == 2
    assert capsys.readouterr().err == "sim play: give --load SAVE or --continue, not both\n"
    assert main(["play", "--continue", "--seed", "4"]) == 2
    assert "leave out --seed" in capsys.readouterr().err


def test_record_says_whether_the_battle_was_over(tmp_path: Path) -> None:
    scenario = load(SKIRMISH)
    battle: Battle = Session(scenario, 1).battle
    save = record(battle, scenario, 1)
    assert not save.over
    path = tmp_path / "over.json"
    write(path, replace(save, over=True))
    assert read(path).over


# --- file mode ---------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600])
def test_rewriting_an_autosave_keeps_the_files_mode(private_saves: Path, mode: int) -> None:
    """The write goes through a temporary file (mkstemp makes it 0600) renamed over the save:
    a save made readable to others stayed so only until the next autosave."""
    session = Session(load(SKIRMISH), 1)
    end_turns(session, 1)
    assert session.autosave is not None
    session.autosave.chmod(mode)
    end_turns(session, 1)
    assert stat.S_IMODE(session.autosave.stat().st_mode) == mode
    assert len(read(session.autosave).decisions) == 2


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_save_gets_the_mode_the_umask_gives_new_files(
    tmp_path: Path, umask: int, mode: int
) -> None:
    scenario = load(SKIRMISH)
    save = record(Session(scenario, 1).battle, scenario, 1)
    path = tmp_path / "new.json"
    before = os.umask(umask)
    try:
        write(path, save)
    finally:
        os.umask(before)
    assert stat.S_IMODE(path.stat().st_mode) == mode


# --- temporary files ---------------------------------------------------------------------------


def test_the_next_save_removes_temporary_files_left_by_an_interrupted_write(
    private_saves: Path,
) -> None:
    session = Session(load(SKIRMISH), 1)
    end_turns(session, 1)
    assert session.autosave is not None
    # Left by writes that were killed: one of this file (the old naming, without ".tmp"), one
    # of another game long ago; and one of another file being written this very moment.
    own = private_saves / f".{session.autosave.name}.k3j9x0ab"
    old = private_saves / ".skirmish.20250101-000000.autosave.json.q1w2e3r4.tmp"
    busy = private_saves / ".skirmish.save.json.z9y8x7w6.tmp"
    keep = private_saves / "notes.txt"
    for path in (own, old, busy, keep):
        path.write_text('{"format": "sim-save", "vers', encoding="utf-8")
    long_ago = time.time() - STALE_SECONDS - 5
    os.utime(old, (long_ago, long_ago))
    os.utime(keep, (long_ago, long_ago))
    end_turns(session, 1)
    assert not own.exists() and not old.exists()
    assert busy.exists() and keep.exists()
    assert sorted(p.name for p in private_saves.iterdir()) == sorted(
        [session.autosave.name, busy.name, keep.name]
    )
    assert len(read(session.autosave).decisions) == 2


# --- no display --------------------------------------------------------------------------------


@pytest.mark.slow
def test_sim_play_without_a_display_fails_at_once_and_touches_no_save(tmp_path: Path) -> None:
    """No $DISPLAY, no $WAYLAND_DISPLAY, no SDL_VIDEODRIVER: SDL would fall back to an
    invisible window; `sim play` says there is no display and suggests --text instead."""
    saves = tmp_path / "saves"
    saves.mkdir()
    earlier = saves / "skirmish.20260101-000000.autosave.json"
    game = Session(load(SKIRMISH), 1)
    game.autosave = None  # written below, under a name of its own
    end_turns(game, 2)
    write(earlier, game.save())
    before = earlier.read_bytes()
    gone = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "XDG_RUNTIME_DIR")
    env = {k: v for k, v in os.environ.items() if k not in gone}
    env.update(PYTHONPATH=str(ROOT), SIM_SAVE_DIR=str(saves))
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "sim", "play", str(SKIRMISH)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert time.monotonic() - started < 30
    assert done.returncode == 1
    # One clear line: SDL's own ("error: XDG_RUNTIME_DIR is invalid...") is kept off it.
    assert done.stderr == (
        "sim play: no display found ($DISPLAY and $WAYLAND_DISPLAY are not set, or nothing "
        "answers there), so no window can open; use `sim play --text` to print the battle in "
        "the terminal instead\n"
    )
    assert done.stdout == "", "no battle text nor offer for a game that never starts"
    assert sorted(saves.iterdir()) == [earlier]
    assert earlier.read_bytes() == before


def test_a_video_driver_that_cannot_open_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, private_saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pygame.display.quit()
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    try:
        assert main(["play", str(SKIRMISH)]) == 1
    finally:
        pygame.display.quit()
    err = capsys.readouterr().err
    assert err.startswith("sim play: cannot open a window (")
    assert err.endswith("use `sim play --text` to print the battle in the terminal instead\n")
    assert not private_saves.exists()


def test_the_dummy_driver_asked_for_by_name_still_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests and `sim render` draw with SDL_VIDEODRIVER=dummy: a stand-in asked for by name is
    not a missing display."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.quit()
    assert client.display_problem() is None
    assert pygame.display.get_driver() == "dummy"


def test_a_save_directory_that_cannot_be_looked_into_is_a_failed_write_not_a_crash(
    private_saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without permission to look into the save directory (faked: the tests run as root), a
    game still starts, and its autosave fails with the reason."""

    def denied(self: Path, *args: object, **kwargs: object) -> object:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "exists", denied)
    monkeypatch.setattr(Path, "mkdir", denied)
    session = Session(load(SKIRMISH), 1)
    assert unfinished_games(load(SKIRMISH)) == []
    end_turns(session, 1)
    assert session.notice == f"autosave failed: {session.autosave}: cannot save: Permission denied"


# --- the sides the AI plays ------------------------------------------------------------------


def test_a_game_against_the_ai_goes_on_against_it_when_loaded_or_continued(
    private_saves: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save records the sides the AI plays when it is written (the window keeps the
    session's list: `--ai`, and I handing a side over or back); `sim play --load` and
    `--continue` seat the AI there again and say so, unless `--ai` chooses otherwise."""
    app = App(Session(load(SKIRMISH), 1), (1280, 800), ai={"red": "hard"})
    assert app.session.ai == {"red": "hard"}
    end_turns(app.session, 2)
    quick = private_saves / "quick.json"
    app.session.save_to(quick)
    assert '"ai": {\n  "red": "hard"\n }' in quick.read_text()
    assert read(quick).ai == (("red", "hard"),)
    opened: list[tuple[Session, dict[str, str] | None]] = []
    monkeypatch.setattr(
        "sim.cli.main._window",
        lambda session, offer=None, ai=None, **_: opened.append((session, ai)) or 0,
    )
    capsys.readouterr()
    assert main(["play", "--load", str(quick)]) == 0
    assert opened[-1][1] == {"red": "hard"}
    assert "The AI plays RED (hard), as when the game was saved" in capsys.readouterr().out
    assert main(["play", "--continue"]) == 0  # its autosave, written with the same sides
    assert opened[-1][1] == {"red": "hard"}
    assert "The AI plays RED (hard)" in capsys.readouterr().out
    assert main(["play", "--load", str(quick), "--ai", "blue=easy"]) == 0
    assert opened[-1][1] == {"blue": "easy"}
    assert "as when the game was saved" not in capsys.readouterr().out
    # Handed back to its player (I during its turn), red is no longer the AI's in the saves.
    app.seats.seated.clear()
    app.seats.shown()
    app.session.save_to(quick)
    assert read(quick).ai == ()
    assert main(["play", "--load", str(quick)]) == 0
    assert opened[-1][1] == {}


@pytest.mark.parametrize(
    "ai", ['{"red": "godlike"}', '["red"]', '{"red": 3}'], ids=["level", "list", "number"]
)
def test_a_save_with_a_damaged_ai_entry_is_refused_and_says_what(
    private_saves: Path, ai: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Session(load(SKIRMISH), 1)
    end_turns(game, 1)
    path = private_saves / "bad.json"
    game.save_to(path)
    text = path.read_text().replace('"ai": {}', f'"ai": {ai}')
    assert text != path.read_text()
    path.write_text(text)
    assert main(["play", "--load", str(path), "--text"]) == 1
    err = capsys.readouterr().err
    assert f'sim play: {path}: damaged save: "ai" must map each side the AI plays' in err, err


def test_continuing_the_offered_game_seats_the_ai_it_was_played_against(
    private_saves: Path,
) -> None:
    """C on the first handover screen takes up the unfinished game with the sides the AI
    played in it, as `sim play --continue` does."""
    earlier = App(Session(load(SKIRMISH), 1), (1280, 800), ai={"red": "easy"})
    end_turns(earlier.session, 3)
    [offer] = unfinished_games(load(SKIRMISH))
    assert offer.save.ai == (("red", "easy"),)
    app = App(Session(load(SKIRMISH), 2), (1280, 800), offer=offer)
    assert app.view.ai == {}
    app.frame()
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_c, mod=0, unicode="c"))
    assert app.session.autosave == offer.path
    assert app.view.ai == {"red": "easy"} and app.session.ai == {"red": "easy"}
    assert sorted(app.seats.seated) == ["red"] and app.seats.seated["red"].level == "easy"


def test_a_save_naming_a_side_the_scenario_lacks_is_refused(
    private_saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Session(load(SKIRMISH), 1)
    end_turns(game, 1)
    path = private_saves / "purple.json"
    game.save_to(path)
    path.write_text(path.read_text().replace('"ai": {}', '"ai": {"purple": "hard"}'))
    assert main(["play", "--load", str(path), "--text"]) == 1
    err = capsys.readouterr().err
    assert (
        f'sim play: {path}: damaged save: "ai" names a side the scenario does not have: purple '
        "(its sides: blue, red)"
    ) in err, err
