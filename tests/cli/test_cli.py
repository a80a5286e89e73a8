"""The command line: `sim run` (scripts, dice, refusals, --state), `sim play`, `sim check`."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sim.cli.main import DEFAULT_SCENARIO, main
from sim.core import events as ev
from sim.play.decisions import ALL_ACTION_NAMES, FIELDS, PARSERS
from tests.helpers import stated

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"

# Two creatures on a small map; "A" is a raised cell (1.5 m) that only ana stands on.
# ana: human_fighter, AGI d8+4; grok: orc_brute, AGI d6+3. A rock lies on the ground at "r".
DUEL_TEXT = """\
name = "Duel"

[map]
rows = \"\"\"
#######
#A.r.g#
#######
\"\"\"

[legend]
"A" = { kind = "open", height = 1.5 }

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "A"
{fighter}
[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "g"
{brute}
[[items]]
kind = "rock"
at = "r"
"""
# The duel's attributes are stated as its transcripts were written (tests/helpers.py).
DUEL = DUEL_TEXT.replace("{fighter}", stated("human_fighter")).replace(
    "{brute}", stated("orc_brute")
)


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL, encoding="utf-8")
    return path


def script(tmp_path: Path, *lines: dict[str, Any] | str) -> Path:
    """A script file: dicts become JSON lines, strings are written as they are."""
    path = tmp_path / "script.jsonl"
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, list[Any], str]:
    """`sim ...` in this process: the exit code, stdout as JSON records, and stderr."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def sim(*argv: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m sim ...` in a fresh interpreter, as a player would run it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "sim", *map(str, argv)],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def of_type(records: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [r for r in records if r["type"] == kind]


# --- determinism -------------------------------------------------------------------------------

# Every unit tries to end its turn in a fixed order, twice over: whatever the initiative order,
# some lines are accepted and some are refused, and both must come out the same each time.
ROUNDS = [
    {"unit": uid, "action": "end_turn"} for _ in range(2) for uid in ("ana", "bram", "grok", "vex")
]


def test_the_same_seed_and_script_print_the_same_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DESIGN: two battles with the same seed and the same decisions give the same event log."""
    path = script(tmp_path, {"unit": "bram", "action": "aim"}, *ROUNDS)
    first = run(capsys, "run", SKIRMISH, "--seed", "7", "--script", path, "--keep-going")
    second = run(capsys, "run", SKIRMISH, "--seed", "7", "--script", path, "--keep-going")
    assert first == second
    code, log, err = first
    assert code == 0 and err == ""
    assert log[0] == {
        "type": "battle_started",
        "scenario": "Skirmish at the ford",
        "seed": 7,
        "dice": "seed 7",
    }
    assert of_type(log, "turn_ended"), "some end_turn lines should have been accepted"


@pytest.mark.slow
def test_python_m_sim_prints_the_same_log_as_the_sim_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m sim` is the same entry point: same log, twice, and the same as `main`."""
    path = script(tmp_path, *ROUNDS)
    once = sim("run", SKIRMISH, "--seed", "11", "--script", path, "--keep-going")
    again = sim("run", SKIRMISH, "--seed", "11", "--script", path, "--keep-going")
    assert once.returncode == 0, once.stderr
    assert once.stdout == again.stdout
    assert main(["run", str(SKIRMISH), "--seed", "11", "--script", str(path), "--keep-going"]) == 0
    assert capsys.readouterr().out == once.stdout


def test_without_a_seed_the_scenario_seed_is_used_and_recorded(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """skirmish.toml says `seed = 1`; the log says which seed was used, so it replays."""
    code, log, _ = run(capsys, "run", SKIRMISH)
    assert code == 0
    assert log[0]["seed"] == 1


@pytest.mark.slow
def test_a_script_can_come_from_standard_input() -> None:
    aim = {"unit": "bram", "action": "aim"}  # seed 6: bram acts first
    done = sim("run", SKIRMISH, "--seed", "6", "--script", "-", stdin=json.dumps(aim) + "\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('{"type": "battle_started"')


@pytest.mark.slow
def test_help() -> None:
    done = sim("--help")
    assert done.returncode == 0
    for command in ("play", "run", "check"):
        assert command in done.stdout
    run_help = sim("run", "--help")
    assert run_help.returncode == 0
    for option in ("--seed", "--script", "--dice", "--state"):
        assert option in run_help.stdout


# --- loaded dice -------------------------------------------------------------------------------


def test_dice_gives_the_initiative_rolls(duel: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R-T1 with --dice: ana rolls 2 on her d8, grok 6 on his d6; the log shows exactly those."""
    code, log, _ = run(capsys, "run", duel, "--dice", "2,6")
    assert code == 0
    rolls = [r for r in of_type(log, "rolled") if r["purpose"] == "initiative"]
    assert [(r["unit"], r["die"], r["result"]) for r in rolls] == [("ana", 8, 2), ("grok", 6, 6)]
    scores = {r["unit"]: r["score"] for r in of_type(log, "initiative_rolled")}
    assert scores == {"ana": 2 + 4, "grok": 6 + 3}
    assert of_type(log, "initiative_order") == [
        {"type": "initiative_order", "order": ["grok", "ana"]}
    ]
    assert log[0]["seed"] is None  # loaded dice have no seed
    assert log[0]["dice"].startswith("loaded dice")


def test_dice_that_run_out_stop_the_run_with_a_message(
    duel: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two creatures need two initiative rolls; one result is not enough."""
    code, _, err = run(capsys, "run", duel, "--dice", "4")
    assert code == 1
    assert "--dice" in err and "ran out" in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_dice_that_run_out_give_no_traceback_from_the_command(duel: Path) -> None:
    done = sim("run", duel, "--dice", "4")
    assert done.returncode == 1
    assert "ran out" in done.stderr
    assert "Traceback" not in done.stderr


def test_dice_that_run_out_during_the_script_name_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Sprint rolls AGI when declared (R-M1); the four results went to initiative."""
    path = script(tmp_path, {"unit": "grok", "action": "end_turn", "slow": True},
                  {"unit": "grok", "action": "sprint", "to": [10, 2]})  # fmt: skip
    code, log, err = run(
        capsys, "run", SKIRMISH, "--dice", "3,2,6,1", "--script", path, "--keep-going"
    )
    assert code == 1
    assert err == (
        "sim run: --dice at script line 2: the loaded dice ran out after 4 results "
        "(a d6 was needed)\n"
    )
    assert log[-1]["type"] == "refused"  # line 1; nothing of line 2 was printed


def test_a_die_result_the_die_cannot_roll_is_an_error(
    duel: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ana's AGI die is a d8: a 9 cannot come up on it."""
    code, _, err = run(capsys, "run", duel, "--dice", "9,1")
    assert code == 1
    assert "9" in err and "d8" in err
    assert "ran out" not in err


def test_the_state_is_still_written_when_the_dice_run_out(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "state.json"
    code, _, _ = run(capsys, "run", duel, "--dice", "4", "--state", out)
    assert code == 1
    assert set(json.loads(out.read_text())["units"]) == {"ana", "grok"}


def test_the_state_file_keeps_its_mode_and_a_new_one_gets_the_umasks(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A state file a user made private stays private when it is written again; a new one is
    readable as new files are (it was written through a fixed ".tmp" name with its own mode)."""
    import os
    import stat

    out = tmp_path / "state.json"
    mask = os.umask(0o022)
    try:
        assert run(capsys, "run", duel, "--dice", "4,3", "--state", out)[0] in (0, 1)
        assert stat.S_IMODE(out.stat().st_mode) == 0o644
        out.chmod(0o600)
        assert run(capsys, "run", duel, "--dice", "4,3", "--state", out)[0] in (0, 1)
        assert stat.S_IMODE(out.stat().st_mode) == 0o600
    finally:
        os.umask(mask)
    assert set(json.loads(out.read_text())["units"]) == {"ana", "grok"}
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary


# --- refused lines -----------------------------------------------------------------------------


def test_bad_lines_are_refused_with_a_reason_and_the_run_goes_on(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --dice 6,1 ana (6+4) acts before grok (1+3)."""
    path = script(
        tmp_path,
        "this is not json",
        {"unit": "zed", "action": "aim"},
        {"unit": "ana", "action": "fly"},
        {"unit": "grok", "action": "aim"},
        "",
        {"unit": "ana", "action": "aim"},
        {"unit": "ana", "action": "draw"},
        {"unit": "ana", "action": "aim", "speed": 3},
        [1, 2],
        {"unit": "ana", "action": "end_turn"},
        {"unit": "grok", "action": "brace"},
    )
    code, log, err = run(capsys, "run", duel, "--dice", "6,1", "--script", path, "--keep-going")
    assert code == 0 and err == ""
    refusals = of_type(log, "refused")
    assert [(r["line"], r["unit"], r["action"]) for r in refusals] == [
        (1, None, None),
        (2, "zed", "aim"),
        (3, "ana", "fly"),
        (4, "grok", "aim"),
        (7, "ana", "draw"),
        (8, "ana", "aim"),
        (9, None, None),
    ]
    reasons = [r["reason"] for r in refusals]
    assert "not JSON" in reasons[0]
    assert "no unit 'zed'" in reasons[1]
    assert 'unknown action "fly"' in reasons[2] and "not built" not in reasons[2]
    assert "it is ana's turn, not grok's" in reasons[3]
    assert '"item"' in reasons[4]
    assert "unknown field(s) for aim: speed" in reasons[5]
    assert "JSON object" in reasons[6]
    for record in refusals:
        assert list(record) == ["type", "line", "unit", "action", "reason"]
    # Lines after the refused ones still work: ana aims and ends her turn, grok braces.
    spent = [(r["unit"], r["action"]) for r in of_type(log, "spent")]
    assert spent == [("ana", "aim"), ("grok", "brace")]
    assert {"type": "turn_started", "unit": "grok", "round": 1} in log


def test_R_R8_a_reaction_written_as_an_action_is_refused_saying_how_to_answer_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-R8: Dodge is a reaction, not an action. With grok's defence window open (his player
    declined the Interrupt first, R-R7), the line {"action": "dodge"} is refused saying how a
    reaction is answered, and the window stays open for the answer it names."""
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL.replace("#A.r.g#", "#Agr..#"), encoding="utf-8")
    path = script(
        tmp_path,
        {"unit": "grok", "policy": "ask"},
        {"unit": "ana", "action": "attack", "target": "grok"},
        {"unit": "grok", "reaction": "none"},
        {"unit": "grok", "action": "dodge"},
        {"unit": "grok", "reaction": "dodge"},
    )
    args = ("run", scenario, "--dice", "6,1,5,3,2,1,1", "--script", path, "--keep-going")
    code, log, _ = run(capsys, *args)
    assert code == 0  # with --keep-going: the line after the refused one is still played
    refusals = of_type(log, "refused")
    assert [(r["line"], r["unit"], r["action"]) for r in refusals] == [(4, "grok", "dodge")]
    assert refusals[0]["reason"] == (
        'unknown action "dodge": a reaction, answered when the engine opens a window for the '
        "creature (an attack on it, a throw at it, a foe leaving its reach or acting beside it): "
        '{"unit": "grok", "reaction": "dodge"}, or in the client the reaction prompt (R-R8)'
    )
    answers = [(r["window"], r["choice"], r["by"]) for r in of_type(log, "reaction_answered")]
    assert answers == [("interrupt", "none", "player"), ("defence", "dodge", "player")]


def test_policy_lines_set_how_a_creature_answers_reactions(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Policy lines are allowed at any time, also for the creature whose turn it is not."""
    path = script(
        tmp_path,
        {"unit": "grok", "policy": "never", "defence": "dodge"},
        {"unit": "ana", "policy": "always"},
        {"unit": "ana", "policy": "sometimes"},
        {"unit": "ana", "policy": "ask", "defence": "hide"},
        {"unit": "ana", "policy": "ask", "speed": 2},
    )
    code, log, _ = run(capsys, "run", duel, "--dice", "6,1", "--script", path, "--keep-going")
    assert code == 0
    assert of_type(log, "policy_set") == [
        {"type": "policy_set", "unit": "grok", "reactions": "never", "defence": "dodge"},
        {"type": "policy_set", "unit": "ana", "reactions": "always", "defence": "best"},
    ]
    refusals = of_type(log, "refused")
    assert [r["line"] for r in refusals] == [3, 4, 5]
    assert "reaction policy must be one of auto, ask, always, never" in refusals[0]["reason"]
    assert "preferred defence must be one of" in refusals[1]["reason"]
    assert "unknown field(s) for a policy line: speed" in refusals[2]["reason"]


def test_after_the_battle_is_over_every_line_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A survive objective of 1 round: when round 2 begins, blue has won."""
    path = tmp_path / "short.toml"
    path.write_text(DUEL + '\n[[objectives]]\nkind = "survive"\nteam = "blue"\nrounds = 1\n')
    lines = script(
        tmp_path,
        {"unit": "ana", "action": "end_turn"},
        {"unit": "grok", "action": "end_turn"},
        {"unit": "ana", "action": "aim"},
    )
    code, log, _ = run(capsys, "run", path, "--dice", "6,1", "--script", lines)
    assert code == 1  # the last line is refused, and the run stops there
    assert of_type(log, "battle_ended") == [
        {"type": "battle_ended", "winners": ["blue"], "reason": "blue held out for 1 round"}
    ]
    assert of_type(log, "refused")[-1]["reason"] == "the battle is over: a side has won (R-C6)"


# --- the state file ----------------------------------------------------------------------------


def test_state_writes_each_unit_and_the_items_on_the_ground(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ana aims (1 Bonus Action) and drops her shield (a Free Action); the state says so."""
    path = script(
        tmp_path,
        {"unit": "ana", "action": "aim"},
        {"unit": "ana", "action": "drop", "item": "heater"},
    )
    out = tmp_path / "state.json"
    code, _, _ = run(capsys, "run", duel, "--dice", "6,1", "--script", path, "--state", out)
    assert code == 0
    state = json.loads(out.read_text(encoding="utf-8"))
    assert state["round"] == 1 and state["turn"] == "ana"
    assert state["over"] is False and state["winners"] == []
    assert state["units"]["ana"] == {
        "team": "blue",
        "cell": [1, 1],
        "height": 1.5,
        "hp": 15,
        "max_hp": 15,
        "conditions": {"aiming": 2},
        "budget": {"half": 2, "bonus": 1},
        "held": ["ana.longsword"],
        "carried": ["ana.healing_potion"],
        "armour": "ana.mail",
    }
    grok = state["units"]["grok"]
    assert (grok["cell"], grok["height"], grok["hp"], grok["held"]) == (
        [5, 1],
        0.0,
        16,
        ["grok.greataxe"],
    )
    assert grok["budget"] == {"half": 2, "bonus": 2}
    assert state["ground_items"] == {
        "rock1": {"kind": "rock", "cell": [3, 1]},
        "ana.heater": {"kind": "heater", "cell": [1, 1]},
    }


def test_state_without_a_script_is_the_start_of_the_battle(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "start.json"
    assert main(["run", str(duel), "--dice", "6,1", "--state", str(out)]) == 0
    state = json.loads(out.read_text(encoding="utf-8"))
    assert state["units"]["ana"]["conditions"] == {}
    assert state["units"]["ana"]["held"] == ["ana.longsword", "ana.heater"]


def test_a_state_file_that_cannot_be_written_is_a_clear_error(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "run", duel, "--dice", "6,1", "--state", tmp_path / "no" / "s.json")
    assert code == 2
    assert "cannot write the state" in err


# --- wrong arguments ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "no-such.toml"], "no scenario file at no-such.toml"),
        (["play", "no-such.toml"], "no scenario file at no-such.toml"),
        (["run", "{duel}", "--dice", "a,b"], "--dice must be whole numbers separated by commas"),
        (["run", "{duel}", "--dice", "4,0"], "--dice results must be 1 or more"),
        (["run", "{duel}", "--dice", ""], "--dice needs at least one result"),
        (["run", "{duel}", "--dice", "4,2", "--seed", "3"], "--seed or --dice, not both"),
        (["run", "{duel}", "--script", "no-such.jsonl"], "cannot read the script no-such.jsonl"),
        (["run", "{duel}", "--script", "{tmp}"], "cannot read the script"),
        (["run", "{duel}", "--script", "{latin1}"], "not UTF-8"),
    ],
)
def test_wrong_arguments_give_a_clear_message(
    argv: list[str],
    message: str,
    duel: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes(b'{"unit": "\xe9"}\n')
    args = [a.format(duel=duel, tmp=tmp_path, latin1=latin1) if "{" in a else a for a in argv]
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == []
    assert message in err
    assert err.startswith(f"sim {argv[0]}: ")
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [[], ["fly"], ["run"], ["run", "x.toml", "--seed", "x"], ["check"], ["run", "x", "--bogus"]],
)
def test_argument_errors_exit_2_with_usage(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert "usage: sim" in capsys.readouterr().err


def test_a_broken_scenario_stops_run_with_its_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(DUEL.replace('"orc_brute"', '"orc_boss"'), encoding="utf-8")
    code, out, err = run(capsys, "run", path)
    assert code == 1
    assert out == []
    line = DUEL.splitlines().index('template = "orc_brute"') + 1
    assert f"{path}:{line}: unknown template 'orc_boss'" in err


# --- play and check ----------------------------------------------------------------------------


def test_play_prints_the_default_scenario(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sim play --text` (tests/ui/text/ play whole battles): Enter takes the seat."""
    assert DEFAULT_SCENARIO == SKIRMISH
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    assert main(["play", "--text"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Skirmish at the ford (seed 1); `help` lists the commands"
    assert "Skirmish at the ford: round 1, grok to act — RED sees" in lines
    assert "0 ############################" in lines
    for uid in ("ana", "bram", "grok", "vex"):
        assert uid in out


def test_play_takes_a_scenario_and_a_seed(
    duel: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    assert main(["play", str(duel), "--seed", "5", "--text"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Duel (seed 5); `help` lists the commands"
    assert "HP 15/15" in out and "HP 16/16" in out


def test_check_on_good_files_exits_0(duel: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(SKIRMISH), str(duel)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{SKIRMISH}: ok", f"{duel}: ok"]


def test_check_reads_a_tiled_map_as_play_imports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`sim check MAP.tmx` checks the map as `sim play` would import it (it used to read the
    XML as TOML and say "not valid TOML"); a missing file and a damaged map are named."""
    shipped = SKIRMISH.with_suffix(".tmx")
    broken = tmp_path / "broken.tmx"
    broken.write_text("<map>", encoding="utf-8")
    missing = tmp_path / "missing.toml"
    assert main(["check", str(shipped), str(missing), str(broken)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{shipped}: ok"
    assert lines[1] == f"no scenario file at {missing}"
    assert lines[2].startswith(f"{broken}: line 1: broken XML")
    assert not any("TOML" in line for line in lines)


@pytest.mark.slow
def test_check_from_the_command_line() -> None:
    done = sim("check", SKIRMISH)
    assert done.returncode == 0
    assert done.stdout.strip().endswith(": ok")


# --- the documentation says what the code does --------------------------------------------------

COMMANDS_DOC = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")


def test_the_commands_doc_lists_every_action_of_the_registry_with_its_fields() -> None:
    """docs/commands.md's action table has a row `| `name` | cost | fields | ...` for every
    action of the registry, and names each field the action takes (sim/core/codec.py)."""
    table = COMMANDS_DOC.split("| action | cost | fields | what it does |")[1].split("\n\n")[0]
    rows = {
        line.split("|")[1].strip().strip("`"): line.split("|")[3]
        for line in table.splitlines()
        if line.startswith("| `")
    }
    assert sorted(rows) == sorted(ALL_ACTION_NAMES) == sorted(PARSERS)
    for name, fields in rows.items():
        named = {f.strip("`") for f in re.findall(r"`[a-z_]+`", fields)}
        # A Jump and a Climb are documented with `to` alone, though the parser takes a path.
        assert named <= FIELDS[name] and bool(named) == bool(FIELDS[name]), name


def test_the_commands_doc_lists_every_event_with_its_fields() -> None:
    """Each event's row names the fields of its JSON: not the tags for code (issue #28)."""
    for event in _event_classes():
        names = ", ".join(f"`{f.name}`" for f in ev.logged(event))
        row = f"| `{ev._snake(event.__name__)}` | {names} |"
        assert row in COMMANDS_DOC, f"docs/commands.md lacks the row {row}"


def test_the_commands_doc_shows_every_key_of_the_state_file(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "state.json"
    assert main(["run", str(duel), "--dice", "6,1", "--state", str(out)]) == 0
    state = json.loads(out.read_text(encoding="utf-8"))
    for key in [*state, *state["units"]["ana"]]:
        assert f'"{key}":' in COMMANDS_DOC, key


def _event_classes() -> list[type[ev.Event]]:
    return [
        cls
        for cls in vars(ev).values()
        if isinstance(cls, type) and issubclass(cls, ev.Event) and cls is not ev.Event
    ]


def test_the_command_line_imports_what_only_some_commands_use_when_they_run() -> None:
    """Issue #30: `sim run` of a script does not wait for the AI, the terminal board, Tiled's
    importer or the batch runner; a command that uses one imports it then."""
    later = ("sim.ai.chooser", "sim.ai.seats", "sim.cli.textview", "sim.content.tiled",
             "sim.tools.batch", "sim.tools.fairness", "sim.formats.state",
             "sim.ui.look.metrics")  # fmt: skip
    code = (
        "import sys, sim.cli.main\n"
        f"print(sorted(m for m in {later!r} if m in sys.modules))\n"
        "sim.cli.main.main(['run', sys.argv[1], '--seed', '6', '--ai', 'red=random',"
        " '--round-cap', '1', '--state', sys.argv[2]])\n"
        f"print(sorted(m for m in {later!r} if m in sys.modules))\n"
    )
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path)
    with_state = ROOT / "does-not-exist-dir" / "state.json"  # refused: written after the run
    done = subprocess.run(
        [sys.executable, "-c", code, str(SKIRMISH), str(with_state)],
        capture_output=True, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert lines[0] == "[]", done.stderr
    assert lines[-1] == str(sorted(("sim.ai.chooser", "sim.ai.seats", "sim.formats.state")))


def test_the_keep_only_choices_are_the_batch_runners() -> None:
    from sim.cli.main import KEEP_ONLY
    from sim.tools.batch import KEEP

    assert KEEP_ONLY == KEEP


def test_the_reach_actions_and_the_scale_bounds_are_the_reach_maps_and_the_clients() -> None:
    from sim.cli.main import MAX_SCALE, MIN_SCALE, MOVES
    from sim.rules.reach.reachmap import ORDER
    from sim.ui.look import metrics

    assert tuple(kind.name for kind in ORDER) == MOVES
    assert (MIN_SCALE, MAX_SCALE) == (metrics.MIN_SCALE, metrics.MAX_SCALE)


def test_at_exit_the_command_leaves_its_objects_to_the_process_end() -> None:
    """Issue #30: the collector's passes at interpreter exit cost 0.2 s CPU once numba is
    loaded; the command freezes what is alive as it exits, and nothing before."""
    code = (
        "import atexit, gc, sim.cli.main\n"
        "before = gc.get_freeze_count()\n"
        "atexit._run_exitfuncs()\n"
        "print(before, gc.get_freeze_count() > 1000)\n"
    )
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=path),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "True"]
