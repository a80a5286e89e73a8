"""`sim reach`: the cells one unit's actions reach, as JSON, and a dive with --submerged (R-M8)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sim.cli.main import main
from tests.helpers import scenario_text
from tests.movers import POOL, POOL_LEGEND, creature


def test_R_M8_sim_reach_submerged_prints_the_dive_and_who_it_provokes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`sim reach FILE --unit ana --action swim [--submerged]`: at the surface ana's Swim
    reaches the 1 m ford and leaving bo's reach at (2,1) provokes him; the dive stays in the
    2 m water and provokes nobody, since bo on the bank is not in the water (R-M8, R-R4)."""
    units = [
        creature("ana", "blue", "a"),
        creature("bo", "red", "b"),
        creature("cy", "red", "c"),
    ]
    path = tmp_path / "pool.toml"
    path.write_text(scenario_text(POOL, "\n".join(units), POOL_LEGEND), encoding="utf-8")

    def cells(*extra: str) -> dict[tuple[int, int], Any]:
        argv = ["reach", str(path), "--unit", "ana", "--action", "swim", "--seed", "1", *extra]
        assert main(argv) == 0
        report = json.loads(capsys.readouterr().out)
        return {tuple(c["cell"]): c for c in report["cells"]}

    surface = cells()
    assert (4, 1) in surface
    assert [p["enemy"] for p in surface[(3, 1)]["provokes"]] == ["bo"]
    dive = cells("--submerged")
    assert (4, 1) not in dive
    assert dive[(3, 1)]["path"] == [[2, 1], [3, 1]]
    assert dive[(3, 1)]["provokes"] == []


@pytest.mark.parametrize("action", ["walk", "step", "climb"])
def test_R_M8_sim_reach_refuses_submerged_with_an_action_that_does_not_dive(
    capsys: pytest.CaptureFixture[str], action: str
) -> None:
    """R-M8: only a Swim dives. `--submerged --action walk` was silently a plain Walk map."""
    skirmish = str(Path(__file__).resolve().parents[2] / "scenarios" / "skirmish.toml")
    argv = ["reach", skirmish, "--unit", "ana", "--action", action, "--submerged"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"sim reach: --submerged is a dive, and only a Swim dives (R-M8): not with --action "
        f"{action}; give --action swim, or no --action\n"
    )
