"""`sim run` with loaded dice, as a player's script: a failed grapple does nothing beyond its
cost (R-G1), Assist (R-X21), a melee attack interrupted (R-R7), a slowed reaction refused between
turns with its slowed cost (R-B7), and a preparer set off in the next round still taking that
round's turn (R-P3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sim.cli.main import main
from sim.core.catalog import default_catalog
from tests.helpers import stated

TRIO_TEXT = '''
name = "Trio"

[map]
rows = """
#######
#.ag..#
#.b...#
#######
"""

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"
{fighter}held = []
policy = "never"

[[units]]
id = "bram"
team = "blue"
template = "human_fighter"
at = "b"
{fighter}policy = "ask"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "g"
{brute}policy = "ask"
'''


# The attributes this transcript was written for (tests/helpers.py).
TRIO = TRIO_TEXT.replace("{fighter}", stated("human_fighter")).replace(
    "{brute}", stated("orc_brute")
)


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], scenario: str, dice: str,
        lines: list[dict[str, Any]]) -> list[dict[str, Any]]:  # fmt: skip
    """`sim run SCENARIO --dice DICE --script LINES`: its records."""
    (tmp_path / "s.toml").write_text(scenario, encoding="utf-8")
    (tmp_path / "s.jsonl").write_text("\n".join(map(json.dumps, lines)) + "\n", encoding="utf-8")
    code = main(["run", str(tmp_path / "s.toml"), "--dice", dice,
                 "--script", str(tmp_path / "s.jsonl"), "--keep-going"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    return [json.loads(line) for line in out.splitlines()]


def test_sim_run_a_failed_grapple_assist_an_interrupted_attack_and_a_slowed_reaction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Initiative ana (8 + 4), bram (7 + 4), grok (1 + 3). ana grapples grok bare-handed and
    loses (1 + 6 + her Athletics against 10 + 8 + 4): nobody is grappled (R-G1). bram assists
    ana against grok (R-X21). On grok's turn bram's slowed Dodge is refused (no half-actions
    between his turns, R-B7); a plain one is taken. In round 2 ana's Hit Roll on grok gains the
    +2 (5 + 7 + 2), and her second attack is interrupted by grok and lost (R-R7)."""
    lines = [
        {"unit": "ana", "action": "grapple", "target": "grok"},
        {"unit": "grok", "reaction": "none"},  # no Interrupt of the Grapple
        {"unit": "ana", "action": "end_turn"},
        {"unit": "bram", "action": "assist", "ally": "ana", "enemy": "grok"},
        {"unit": "grok", "reaction": "none"},  # no Interrupt of the Assist
        {"unit": "bram", "action": "end_turn"},
        {"unit": "grok", "action": "attack", "target": "bram"},
        {"unit": "bram", "reaction": "dodge", "slow": True},
        {"unit": "bram", "reaction": "dodge"},
        {"unit": "grok", "action": "end_turn"},
        {"unit": "ana", "action": "attack", "target": "grok"},
        {"unit": "grok", "reaction": "none"},  # no Interrupt
        {"unit": "grok", "reaction": "none"},  # no defence
        {"unit": "ana", "action": "attack", "target": "grok"},
        {"unit": "grok", "reaction": "interrupt"},
    ]
    records = run(tmp_path, capsys, TRIO, "8,7,1,1,10" + ",5" * 14, lines)
    contest = next(r for r in records if r["type"] == "contest_resolved")
    athletics = default_catalog().templates["human_fighter"]["skills"]["athletics"]
    assert (contest["acting_total"], contest["other_total"], contest["winner"]) == (
        1 + 6 + athletics, 22, "grok"
    )  # fmt: skip
    gained = [(r["unit"], r["condition"]) for r in records if r["type"] == "condition_gained"]
    assert ("ana", "grappled") not in gained and ("grok", "grappling") not in gained
    assert ("grok", "grappled") not in gained and ("ana", "grappling") not in gained
    assert ("ana", "assisted") in gained
    refused = [r for r in records if r["type"] == "refused"]
    assert refused == [{
        "type": "refused", "line": 8, "unit": "bram", "action": None,
        "reason": "slowed, Dodge is a ½ Action: 1 half-action; bram has 0 half-actions and 1"
                  " Bonus Action left (half-actions only on its own turn): 1 half-action short"
                  " (R-B7)",
    }]  # fmt: skip
    hits = [r for r in records if r["type"] == "rolled" and r["purpose"].startswith("hit roll")]
    assert [(h["unit"], h["result"], h["bonus"]) for h in hits][1:] == [
        ("ana", 5, 9),  # FCS Bonus 7 + Assist 2
        ("grok", 5, 7),  # the Interrupt
    ]
    assert records[-1] == {"type": "action_lost", "unit": "ana", "action": "a melee attack",
                           "reason": "interrupted by grok (R-R7)"}  # fmt: skip


PAIR = '''
name = "Pair"

[map]
rows = """
#########
#a.....g#
#########
"""

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"
policy = "never"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "g"
policy = "never"
'''


def test_sim_run_preparing_never_costs_a_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-P3: initiative grok (6 + 3), ana (1 + 4). ana prepares in round 1; grok's round-2 Aim
    sets her plan off; after grok's turn she takes the rest of her round-1 turn (the Aim she
    held ready), then her round-2 turn, and round 3 begins with grok."""
    lines = [
        {"unit": "grok", "action": "end_turn"},
        {"unit": "ana", "action": "prepare", "trigger": "starts_action", "watch": "grok",
         "then": {"action": "aim"}},
        {"unit": "grok", "action": "aim"},
        {"unit": "grok", "action": "end_turn"},
        {"unit": "ana", "action": "end_turn"},
        {"unit": "ana", "action": "end_turn"},
    ]  # fmt: skip
    records = run(tmp_path, capsys, PAIR, "1,6", lines)
    turns = [(r["type"], r["unit"], r["round"]) for r in records
             if r["type"] in ("turn_started", "turn_resumed")]  # fmt: skip
    assert turns == [
        ("turn_started", "grok", 1),
        ("turn_started", "ana", 1),
        ("turn_started", "grok", 2),
        ("turn_resumed", "ana", 2),
        ("turn_started", "ana", 2),
        ("turn_started", "grok", 3),
    ]
    assert not [r for r in records if r["type"] == "refused"]


SKIRMISH = Path(__file__).resolve().parents[2] / "scenarios" / "skirmish.toml"


def test_a_refused_line_stops_the_run_with_status_1_unless_keep_going(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 6 lets bram act first in the skirmish: his Aim is taken, ana's Aim out of turn is
    refused (R-T3). Without --keep-going the run stops at that line, exit status 1, with a line
    on standard error saying so; bram's End Turn after it is not played, and the --state file
    is written as the battle stands. With --keep-going the same script plays on, status 0."""
    script = tmp_path / "s.jsonl"
    script.write_text(
        '{"unit": "bram", "action": "aim"}\n'
        '{"unit": "ana", "action": "aim"}\n'
        '{"unit": "bram", "action": "end_turn"}\n',
        encoding="utf-8",
    )
    state = tmp_path / "state.json"
    argv = ["run", str(SKIRMISH), "--seed", "6", "--script", str(script), "--state", str(state)]
    assert main(argv) == 1
    out, err = capsys.readouterr()
    records = [json.loads(line) for line in out.splitlines()]
    assert records[-1] == {
        "type": "refused", "line": 2, "unit": "ana", "action": "aim",
        "reason": "it is bram's turn, not ana's (R-T3)",
    }  # fmt: skip
    assert err == (
        "sim run: script line 2 was refused (its reason is in the log); the run stops there "
        "(--keep-going plays on past refused lines)\n"
    )
    assert json.loads(state.read_text(encoding="utf-8"))["turn"] == "bram"

    assert main([*argv, "--keep-going"]) == 0
    out, err = capsys.readouterr()
    records = [json.loads(line) for line in out.splitlines()]
    assert err == ""
    assert {"type": "turn_ended", "unit": "bram"} in records
    assert json.loads(state.read_text(encoding="utf-8"))["turn"] != "bram"
