"""Two creatures in one cell (R-M5). A mover passing through an ally's cell (issue #10, item 12;
R-M5 **Decision**, R-R4, R-R8): when its move waits there for another creature's reaction, both
stand in that cell, and the state file (`sim run --state`) says the mover is passing through,
where it is on its path and where the move is going; once the window is answered the move ends
in a cell of its own. A creature revived in a cell another stands in stays down, Prone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.core.creature import has, incapacitated
from sim.play.engine import AwaitingAction, Battle
from tests.helpers import accepted, give, refused, scenario_text, seeded_battle, unit
from tests.play.test_invariants import PASSING, assert_invariants


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


# --- a creature revived in a cell another stands in (R-M5, R-X11) -------------------------------

SHARED = scenario_text(
    """
    #######
    #ab...#
    #.m..c#
    #######
    """,
    "\n".join(
        [
            unit("ana", "blue", "human_fighter", "a"),
            unit("mira", "blue", "halfling_medic", "m"),
            unit("bram", "blue", "halfling_medic", "b"),
            unit("grok", "red", "orc_brute", "c"),
        ]
    ),
)


def until(b: Battle, uid: str) -> None:
    while b.pending != AwaitingAction(uid):
        pending = b.pending
        assert isinstance(pending, AwaitingAction)
        accepted(b, unit=pending.unit, action="end_turn")


def test_a_creature_revived_where_another_stands_stays_down_prone() -> None:
    """Incapacitated, ana is down and mira may step into her cell (R-M5); bram's Aid revives
    her (R-X11) but she may not stand beside mira there: she comes to Prone, and Stand Up is
    refused until the cell is hers alone."""
    b = seeded_battle(SHARED, 1)
    give(b, "ana", "incapacitated")
    until(b, "mira")
    accepted(b, unit="mira", action="step", to=[1, 1])
    until(b, "bram")
    events = accepted(b, unit="bram", action="aid", target="ana")
    assert [(e["type"], e.get("condition")) for e in events[-2:]] == [
        ("condition_gained", "prone"),
        ("condition_lost", "incapacitated"),
    ]
    assert has(b.world, "ana", "prone") and not incapacitated(b.world, "ana")
    assert_invariants(b)
    until(b, "ana")
    assert refused(b, unit="ana", action="stand_up") == (
        "ana cannot stand up: mira is standing in (1,1) until it moves or falls prone (R-M10)"
    )
    until(b, "mira")
    accepted(b, unit="mira", action="step", to=[2, 2])
    until(b, "ana")
    accepted(b, unit="ana", action="stand_up")
    assert not has(b.world, "ana", "prone")
    assert_invariants(b)


def test_a_creature_revived_in_a_cell_of_its_own_gets_up() -> None:
    b = seeded_battle(SHARED, 1)
    give(b, "ana", "incapacitated")
    until(b, "bram")
    accepted(b, unit="bram", action="aid", target="ana")
    assert not has(b.world, "ana", "prone") and not incapacitated(b.world, "ana")
