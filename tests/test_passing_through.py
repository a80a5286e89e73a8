"""A mover passing through an ally's cell (issue #10, item 12; R-M5 **Decision**, R-R4, R-R8):
when its move waits there for another creature's reaction, both stand in that cell, and the
state file (`sim run --state`) says the mover is passing through, where it is on its path and
where the move is going; once the window is answered the move ends in a cell of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.cli import main
from tests.test_invariants import PASSING


@pytest.fixture
def passing_map(tmp_path: Path) -> Path:
    path = tmp_path / "passing.toml"
    path.write_text(PASSING, encoding="utf-8")
    return path


def state_after(tmp_path: Path, scenario: Path, *lines: dict[str, object]) -> dict[str, object]:
    script = tmp_path / "script.jsonl"
    script.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "state.json"
    assert (
        main(["run", str(scenario), "--seed", "1", "--script", str(script), "--state", str(out)])
        == 0
    )
    state = json.loads(out.read_text(encoding="utf-8"))
    assert isinstance(state, dict)
    return state


# With seed 1, bram acts first (initiative), then ana.
WALK = [
    {"unit": "bram", "action": "end_turn"},
    {"unit": "ana", "action": "walk", "path": [[3, 1], [4, 1]]},
]


def test_the_state_file_says_the_mover_is_passing_through_its_ally(
    tmp_path: Path, passing_map: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = state_after(tmp_path, passing_map, *WALK)
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert events[-1] == {"type": "moved", "unit": "ana", "start": [2, 1], "end": [3, 1], "cost": 2}
    units = state["units"]
    assert isinstance(units, dict)
    assert units["ana"]["cell"] == units["bram"]["cell"] == [3, 1]
    assert state["moving"] == {
        "unit": "ana",
        "action": "walk",
        "cell": [3, 1],
        "to": [4, 1],
        "passing_through": ["bram"],
    }


def test_once_the_window_is_answered_the_mover_has_a_cell_of_its_own(
    tmp_path: Path, passing_map: Path
) -> None:
    state = state_after(tmp_path, passing_map, *WALK, {"unit": "grok", "reaction": "none"})
    assert state["moving"] is None
    units = state["units"]
    assert isinstance(units, dict)
    assert units["ana"]["cell"] == [4, 1] and units["bram"]["cell"] == [3, 1]


def test_a_move_waiting_in_a_cell_of_its_own_passes_through_nobody(tmp_path: Path) -> None:
    """With bram out of the way (below her path) the window opens in a cell of ana's own."""
    alone = tmp_path / "open.toml"
    alone.write_text(
        PASSING.replace("#.ab...#", "#.a....#").replace("#.g....#", "#.gb...#"), "utf-8"
    )
    state = state_after(tmp_path, alone, *WALK)
    assert state["moving"] == {
        "unit": "ana",
        "action": "walk",
        "cell": [3, 1],
        "to": [4, 1],
        "passing_through": [],
    }
