"""The client's hover plan (sim/ui/model/planner.py): a path to a cell of the reach map takes the
engine's check once per kind and state, then that kind's cost for the next cells; each such
plan must be the one a check of that very path gives (issue #15 speed, what the hover says is
what the click does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.content.scenario import load
from sim.core.actions import Refusal
from sim.formats.replay import begin
from sim.ui.model.planner import Planner

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_hovered_reach_cell_plans_as_a_check_of_its_path(path: Path) -> None:
    battle = begin(load(path), 1)
    unit = battle.pending.unit  # type: ignore[union-attr]
    kept = Planner()  # keeps each kind's cost after its first check
    reach = kept.reach(battle, 0, unit, None)
    assert reach, f"{path.stem}: {unit} has no reach map"
    checked = 0
    for cell in sorted(reach, key=lambda p: (p.y, p.x)):
        plan = kept.plan(battle, 0, unit, cell, (), None, False, False)
        fresh = Planner()._judge  # a planner with nothing kept: the engine checks this path
        steps = list(reach[cell].path)
        again = fresh(battle, unit, steps, reach[cell].action, None, False, False)
        assert plan == again, f"{path.stem}: {cell}"
        assert plan is not None and plan.decision() is not None
        assert not isinstance(battle.check(plan.decision()), Refusal), f"{path.stem}: {cell}"
        checked += 1
    assert checked == len(reach)
