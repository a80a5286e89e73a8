"""The example scripts in docs/examples play on the shipped scenarios from the command line and
show what docs/commands.md says they show (R-M4, R-M6, R-M7, R-M8, R-M9, R-M10)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sim.cli.main import main

TOP = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], scenario: str, script: str) -> list[dict[str, object]]:
    """The script's log; with --keep-going, since three show a refusal on purpose."""
    code = main(["run", str(TOP / "scenarios" / scenario), "--script",
                 str(TOP / "docs" / "examples" / script), "--keep-going"])  # fmt: skip
    assert code == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_cliff_climb_hangs_part_way_goes_on_next_turn_and_a_step_off_the_cliff_falls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """R-M7: ana climbs 8 m of the 10 m tower, hangs, and reaches the top next turn;
    R-M4: bram steps off the 3 m cliff, falls, takes 2 damage and lands prone."""
    log = run(capsys, "cliff_fort.toml", "cliff_climb.jsonl")
    climbs = [(e["end"], e["elevation"]) for e in log if e["type"] == "climbed"]
    assert climbs == [([2, 1], 8.0), ([3, 1], 0.0)]
    assert {"type": "fell", "unit": "bram", "at": [9, 4], "metres": 3.0} in log
    assert any(e["type"] == "damaged" and e["source"] == "fall" and e["amount"] == 2 for e in log)
    assert not [e for e in log if e["type"] == "refused"]


def test_chasm_jumps_folded_into_runs_and_a_jump_too_long_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """R-M6: ana clears the 1 m end of the chasm with a running jump, lia the 3 m wide end;
    bram's 4 m jump is refused with the first failing cell and why."""
    log = run(capsys, "chasm.toml", "chasm_jump.jsonl")
    jumps = [(e["unit"], e["start"], e["end"]) for e in log if e["type"] == "jumped"]
    assert jumps == [("ana", [7, 1], [9, 1]), ("lia", [5, 3], [9, 3])]
    reasons = [e["reason"] for e in log if e["type"] == "refused"]
    # How far bram can jump follows his template's AGI Bonus and skills (R-M6): less than 4 m;
    # the refusal says how far standing and at most with a run-up.
    found = re.fullmatch(
        r"\(9,2\): a jump of 4 m; bram jumps (\d+(?:\.5)?) m standing, at most "
        r"(\d+(?:\.5)?) m with a run-up of \d+(?:\.5)? m \(R-M6\)",
        reasons[0],
    )
    assert found is not None, reasons[0]
    assert float(found.group(1)) <= float(found.group(2)) < 4
    # A destination too far states the allowance and what the cheapest path there costs (R-M1).
    assert reasons[1].startswith("run: 9 m allowed (Speed 9), the cheapest path to (10,1) costs ")


def test_river_wading_swimming_and_stepping_out(capsys: pytest.CaptureFixture[str]) -> None:
    """R-M9: 0.5 m of water is difficult for the halfling, ordinary for the human (pip's
    written path wades it; a destination would hop in, paying the jump one for one, R-M6); R-M8: pip
    swims the channel, may not Walk while swimming, and steps out on the far bank; R-M10: ana
    falling prone in waist-deep water starts to swim."""
    log = run(capsys, "river_crossing.toml", "river_swim.jsonl")
    moves = [(e["unit"], e["end"], e["cost"]) for e in log if e["type"] == "moved"]
    assert ("pip", [6, 4], 4) in moves and ("ana", [6, 4], 3) in moves
    assert {"type": "condition_gained", "unit": "ana", "condition": "swimming", "value": 1} in log
    refused = [e["reason"] for e in log if e["type"] == "refused"]
    assert refused == [
        "pip is swimming; it must keep swimming, Step out where its feet touch the bottom or "
        "onto a bank no higher than half its height above the water, or Climb a climbable "
        "bank beside it (R-M8)"
    ]
    assert log[-1] == {"type": "moved", "unit": "pip", "start": [12, 4], "end": [13, 4], "cost": 2}


def test_harbour_ways_out_of_the_water_and_a_dive(capsys: pytest.CaptureFixture[str]) -> None:
    """R-M8: the sea wall is too high to step out onto and the refusal sends bram to a Climb,
    which he begins from the water; ana dives past the quay, the orc cannot single her out,
    and she steps out onto the quay, level with the water's surface."""
    log = run(capsys, "harbour.toml", "harbour_out.jsonl")
    refused = [e["reason"] for e in log if e["type"] == "refused"]
    assert refused == [
        "(7,4): the bank 2 m above the water; a swimmer steps out at most 0.65 m up; climb it "
        "from the water (R-M8, R-M7)",
        "grok cannot see ana: it is under the water (R-M8)",
    ]
    assert {"type": "condition_gained", "unit": "ana", "condition": "submerged", "value": 1} in log
    climbs = [(e["unit"], e["end"], e["metres"]) for e in log if e["type"] == "climbed"]
    assert climbs == [("bram", [7, 4], 2.0)]
    lost = [(e["unit"], e["condition"]) for e in log if e["type"] == "condition_lost"]
    assert lost == [("bram", "swimming"), ("ana", "submerged"), ("ana", "swimming")]
    assert log[-1] == {"type": "moved", "unit": "ana", "start": [3, 2], "end": [3, 1], "cost": 2}
