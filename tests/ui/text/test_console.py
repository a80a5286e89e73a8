"""`sim play --text`, driven by scripted keystrokes (lines on standard input) through whole
battles: hotseat with its handovers and reaction prompts, against the AI, undo, save and load
(saves that the window loads too), and every refusal with its reason, changing nothing. The
scenario's seed fixes the dice, so each transcript is the same every run."""

from __future__ import annotations

import io
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content.scenario import load
from sim.core.actions import EndTurn
from sim.core.components import Position
from sim.core.geometry import Pos
from sim.formats.replay import load_save
from sim.ui.model.rewind import loaded
from sim.ui.model.session import Session

PIT = """\
name = "Pit fight"
seed = 4

[map]
rows = \"\"\"
#########
#.a...g.#
#.......#
#########
\"\"\"

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"
held = ["longsword"]
policy = "ask"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "g"
held = ["club"]
hp = 4
policy = "ask"
"""
# Seed 4: grok acts first; run next to ana (3,1), end; ana attacks, grok lets it come, the
# Hit Roll 9 against its Defense Roll 7 takes its 4 hit points (transcripts below).
OPENING = "\ngo 3,1\nend\n\nattack grok\n\n"


@pytest.fixture
def pit(tmp_path: Path) -> Path:
    path = tmp_path / "pit.toml"
    path.write_text(PIT, encoding="utf-8")
    return path


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    keys: str,
) -> tuple[int, list[str]]:
    """`sim play ARGS --text` with `keys` typed, line by line: the exit status and the lines
    printed (each command echoed after its prompt)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(keys))
    code = main(["play", *args, "--text"])
    return code, capsys.readouterr().out.splitlines()


def after(lines: list[str], prompt: str) -> list[str]:
    """The lines from the one that starts with `prompt` on."""
    at = next(i for i, line in enumerate(lines) if line.startswith(prompt))
    return lines[at:]


def test_a_hotseat_battle_with_reaction_prompts_is_played_to_its_end(
    pit: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = play(monkeypatch, capsys, [str(pit)], OPENING + "none\nnone\n")
    assert code == 0
    # The board stays hidden until the side asked takes the seat.
    assert out[:3] == [
        "Pit fight (seed 4); `help` lists the commands",
        "=== RED to play: hand over the terminal; Enter takes the seat ===",
        "RED: press Enter to take the seat> ",
    ]
    assert "RED grok> go 3,1" in out
    assert "  grok: run (2 half)" in out and "  grok moves (6,1) -> (3,1) (3 m)" in out
    # BLUE reads what RED did while it was away, then plays; RED is asked about the attack.
    blue = after(out, "BLUE has the screen")
    assert blue[1:3] == ["  Pit fight begins (seed 4)", "  ana rolls d8 for initiative: 4 +3 = 7"]
    assert "  grok moves (6,1) -> (3,1) (3 m)" in blue
    react = after(out, "BLUE ana> attack grok")
    assert react[:4] == [
        "BLUE ana> attack grok",
        "  ana: attack (1 half)",
        "=== RED to react: hand over the terminal; Enter takes the seat ===",
        "RED: press Enter to take the seat> ",
    ]
    prompt = after(out, "grok: ana starts a melee attack next to grok. React?")
    assert prompt[1:4] == [
        "  1 interrupt: attack first; on a hit its action is lost; costs 2 Bonus Actions",
        "  2 none: let it happen; keep the Bonus Actions",
        "RED grok reacts (1-2)> none",
    ]
    # The board shows whom the attack under way is aimed at: "<" beside grok's letter.
    board = after(out, "Pit fight: round 1, grok to react — RED sees")
    assert board[3] == "1 ##. AbG<. . . . ##"
    # The reacting player sees how its reaction came out before the battle goes on.
    assert after(out, "RED grok reacts (1-3)> none")[1:8] == [
        "  grok does not react",
        "  grok rolls d10 for defense roll: ana's melee attack (RES Roll): 7",
        "  ana's melee attack on grok: Hit Roll 9 vs Defense 7: HIT",
        "  grok takes 4 slashing damage from ana's longsword (HP 0)",
        "  grok: down (Incapacitated)",
        "  battle over: blue wins: every other side is incapacitated (R-C6)",
        "Pit fight: round 1",
    ]
    over = after(out, "The battle is over:")
    assert over[1:3] == ["  BLUE wins after 1 round", "  every other side is incapacitated"]
    assert out[-1].startswith("autosaved to ") and out[-1].endswith("(the battle is over)")


def test_the_side_at_the_screen_reads_only_what_it_may_and_refusals_change_nothing(
    pit: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = (
        "look 3,1\n"  # the board is hidden until the seat is taken
        "\n"
        "walk 3,1\n"  # a Walk is 2.5 m for grok; 3,1 is 3 m away
        "walk 30,1\n"
        "walk 3\n"
        "attack ana\n"
        "attack nobody\n"
        "fly 3,1\n"
        "undo\n"
        "load\n"
        "threat purple\n"
        "log many\n"
        "actions\n"
    )
    code, out = play(monkeypatch, capsys, [str(pit)], keys)
    assert code == 0
    said = {line.split("> ", 1)[1]: reply for line, reply in pairwise(out) if "> " in line}
    assert said["look 3,1"] == "RED has not taken the seat: press Enter first"
    assert said["walk 3,1"] == (
        "cannot move there: walk: 2.5 m allowed (Speed 8 / 3, hide taking 1 off its Speed 9), "
        "this path costs 3 m; the metres run out at (3,1) (R-M1)"
    )
    assert said["walk 30,1"] == "(30,1) is off the map (9 x 4)"
    assert said["walk 3"] == "'3' is not a cell; write it x,y, e.g. 3,2"
    assert said["attack ana"] == "refused: ana at (2,1) is out of grok's reach (R-A4)"
    assert said["attack nobody"] == "attack: 'nobody' is not a creature in sight"
    assert said["fly 3,1"] == "unknown command 'fly': `help` lists the commands"
    assert said["undo"] == "cannot undo: nothing to undo"
    assert said["load"] == "cannot load: no quick save of this scenario yet: `save` makes one"
    assert said["threat purple"] == "no team 'purple': teams are blue, red"
    assert said["log many"] == "log takes a number of lines, not 'many'"
    listed = after(out, "RED grok> actions")
    assert listed[1] == "grok's actions (+ can be taken now, - cannot):"
    assert "  + walk           ½     ½ Action: 1 half-action; click a cell to move" in listed
    # Nothing was decided: no autosave replaces anything.
    assert out[-1] == "nothing was decided in this game, so nothing was autosaved"


def test_a_planned_path_shows_where_leaving_provokes_and_the_threat_counts(
    pit: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Overlays in letters: the reach map's actions, the path (* and @), "!" where leaving
    a cell provokes an Attack of Opportunity, and the threat's counts."""
    keys = "\ngo 3,1\nend\n\nthreat on\nlook 1,2\nlook 6,2\n"
    code, out = play(monkeypatch, capsys, [str(pit)], keys)
    assert code == 0
    step = after(out, "BLUE ana> look 1,2")
    # ana (A) would leave grok's reach from her cell (2,1): "!" there; grok (G, red) threatens
    # the cells around it (1: one enemy); "@" is where the Step ends; S, W, R the reach map.
    assert step[2:7] == [
        "  0 1 2 3 4 5 6 7 8",
        "0 ##################",
        "1 ##S A!GrR1R R R ##",
        "2 ##@ S1S1W1R R R ##",
        "3 ##################",
    ]
    assert step[7:10] == [
        "reach (cheapest Movement Action to end there): S step, W walk, R run",
        "path: * the way, @ where it ends; ! leaving that cell provokes an Attack of Opportunity",
        "threat: 2nd character = how many enemies can attack in that cell",
    ]
    # Issue #33's words: a foe that can attack is warned of, and that its roll stays rolled.
    assert after(out, "(1,2): open")[1:6] == [
        "  Step 1.5 m",
        "  left after: 2 half, 1 bonus",
        "  ! leaving (2,1): grok may attack",
        "  the move leaves grok's reach: grok may attack, and its roll cannot be undone",
        "  can be hit there by: nobody",
    ]
    run = after(out, "BLUE ana> look 6,2")
    assert run[5] == "2 ##S S1*1*!* @ R ##"  # along row 2; leaving (4,2) provokes
    assert after(out, "(6,2): open")[1:4] == [
        "  Run 4.5 m",
        "  left after: 0 half, 2 bonus",
        "  ! leaving (4,2): grok may attack",
    ]


def test_undo_takes_a_move_back_but_never_a_dice_roll(
    pit: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = (
        "\ngo 3,1\nundo\nwalk 5,2\nundo turn\ngo 3,1\nend\n\nattack grok\n\nnone\nparry\n\nundo\n"
    )
    code, out = play(monkeypatch, capsys, [str(pit)], keys)
    assert code == 0
    assert after(out, "RED grok> undo")[1] == "undone"
    assert after(out, "RED grok> undo turn")[1] == "back to the start of the turn"
    assert after(out, "BLUE ana> undo")[1] == (
        "cannot undo: the last decision rolled dice; undo stops at a dice roll"
    )
    autosave = Path(out[-1].split()[2].rstrip(";"))
    save, _, battle = load_save(autosave)
    # The first run and the walk were taken back; the second run and the attack stay.
    assert [type(d).__name__ for d in save.decisions[:2]] == ["Run", "EndTurn"]
    assert battle.world.need("grok", Position).cell == Pos(3, 1)


def test_a_text_save_loads_in_the_window_and_a_window_save_in_the_text(
    pit: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "game.json"
    code, out = play(monkeypatch, capsys, [str(pit)], f"\ngo 3,1\nsave {saved}\nquit\n")
    assert code == 0 and f"saved to {saved}" in out
    # The window's load takes it (the same save format, sim/formats/replay.py).
    window = loaded(Session(load(pit), 4), saved)
    assert isinstance(window, Session)
    assert window.battle.world.need("grok", Position).cell == Pos(3, 1)
    # A save of the window's game, one decision further, loads in the text mode.
    window.submit(EndTurn("grok"))
    further = tmp_path / "window.json"
    window.save_to(further)
    code, out = play(monkeypatch, capsys, ["--load", str(further)], f"\nload {saved}\n")
    assert out[0] == "Pit fight (seed 4, 2 decisions replayed)"
    assert "BLUE has the screen; since it last looked:" in out
    # Loading the earlier save on the board: allowed (nothing rolled since), the other side
    # is then asked to sit down.
    assert after(out, f"BLUE ana> load {saved}")[1] == f"loaded {saved}"


def test_against_the_ai_the_player_hands_its_side_over_and_the_battle_ends(
    pit: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = play(monkeypatch, capsys, [str(pit), "--ai", "red"], "attack grok\nai\n")
    assert code == 0
    # No handover: the AI's side plays at once, its reasons before its events.
    assert out[1] == "  Pit fight begins (seed 4)"
    assert "  AI grok: runs to 1,1, closing in" in out
    assert "BLUE is played by the AI (normal); `ai off blue` takes it back" in out
    assert "  AI ana: attacks grok: 27 % to hit, 1.1 damage expected, 27 % to take it down" in out
    over = after(out, "The battle is over:")
    assert over[1] == "  BLUE wins after 3 rounds"
    save, _, _ = load_save(Path(out[-1].split()[2]))
    assert save.over and dict(save.ai) == {"blue": "normal", "red": "normal"}


def test_tab_completes_commands_creatures_cells_and_options(pit: Path) -> None:
    from sim.ui.text.console import Console, candidates

    console = Console(Session(load(pit), 4), input, io.StringIO())
    console.seating.seat_on(console.session)
    console.sync()
    console.do("")  # RED takes the seat
    assert {"walk", "attack", "undo", "look", "end"} <= set(candidates(console, []))
    assert candidates(console, ["attack"]) == ["ana"]
    cells = candidates(console, ["walk"])
    assert "5,1" in cells and "6,1" not in cells  # the reach map's cells, not its own
    assert candidates(console, ["walk", "5,1"])[-1] == "via"
    assert candidates(console, ["threat"]) == ["on", "off", "blue", "red"]


def test_the_terminal_mode_imports_no_pygame(pit: Path, tmp_path: Path) -> None:
    """`sim play --text` runs where pygame could not open anything: it never imports it."""
    probe = (
        "import sys, io\n"
        "sys.stdin = io.StringIO('')\n"
        "from sim.cli.main import main\n"
        f"code = main(['play', {str(pit)!r}, '--text'])\n"
        "assert 'pygame' not in sys.modules, 'pygame was imported'\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={"SIM_SAVE_DIR": str(tmp_path), "PATH": "", "PYTHONPATH": str(Path.cwd())},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Pit fight (seed 4)" in done.stdout


@pytest.mark.slow  # the command as a process; the completions are shown in-process above
def test_in_a_real_terminal_tab_completes_and_a_handover_clears_the_screen(
    pit: Path, tmp_path: Path
) -> None:
    """Keystrokes through a pseudo-terminal, as a player types them: Enter takes the seat,
    Tab completes "wa" to "walk" (readline), and the handover clears the screen."""
    import os
    import pty
    import select
    import time

    main_fd, terminal = pty.openpty()
    env = {**os.environ, "SIM_SAVE_DIR": str(tmp_path), "TERM": "xterm", "PYTHONPATH": os.getcwd()}
    env.pop("NO_COLOR", None)
    child = subprocess.Popen(
        [sys.executable, "-m", "sim.cli", "play", "--text", str(pit)],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=env,
        close_fds=True,
    )
    os.close(terminal)
    seen = b""

    def until(wanted: bytes, seconds: float = 60.0) -> None:
        nonlocal seen
        deadline = time.monotonic() + seconds
        while wanted not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([main_fd], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(main_fd, 65536)
                except OSError:  # the child closed the terminal
                    break
        assert wanted in seen, seen[-2000:].decode(errors="replace")

    try:
        until(b"RED: press Enter to take the seat> ")
        assert b"\x1b[2J" in seen  # the handover's new screen
        os.write(main_fd, b"\r")
        until(b"RED grok> ")
        os.write(main_fd, b"wa\t")
        until(b"RED grok> walk")
        os.write(main_fd, b" 5,1\r")
        until(b"grok moves (6,1) -> (5,1) (1 m)")
        assert b"\x1b[38;2;" in seen  # coloured, as the letters say it
        os.write(main_fd, b"quit\r")
        until(b"autosaved to ")
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(main_fd)


def test_the_roster_says_who_flies_who_swims_and_who_is_large(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-Z5 and R-Z1 in the terminal's roster, in the window panel's words: Ogre ford's bat
    swarms fly 12 m, its river beast swims 10 m, its ogre stands on 2x2 cells; an adventurer
    walks and holds one cell, and its line says nothing more."""
    scenario = str(Path(__file__).resolve().parents[3] / "scenarios" / "ogre_ford.toml")
    code, out = play(monkeypatch, capsys, [scenario, "--ai", "red"], "")
    assert code == 0
    roster = {line.split()[1]: line for line in out if " HP " in line and len(line.split()) > 3}
    assert roster["flap"].endswith("HP 10/10  moves: fly 12 m")
    assert roster["maw"].endswith("HP 20/20  moves: swim 10 m")
    assert roster["grum"].endswith("HP 24/24  size 2 (2×2)")
    assert roster["ana"].endswith("HP 12/12")
