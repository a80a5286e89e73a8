"""One way to begin a battle (`Scenario.begin`): on a copy of the scenario's world, so a loaded
scenario begins the same battle again, whichever path (run, reach, play, batch, the tests)
begins it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content.scenario import Scenario, load
from sim.core.components import Position
from sim.core.dice import Dice, SeededDice
from sim.core.events import to_json
from sim.core.geometry import Pos
from sim.formats.replay import begin
from sim.play.decisions import parse
from sim.play.engine import Battle
from tests.helpers import accept

SKIRMISH = Path(__file__).resolve().parents[2] / "scenarios" / "skirmish.toml"


def test_a_battle_leaves_its_scenario_as_loaded_and_begins_the_same_again() -> None:
    """R-T1: the same seed rolls the same initiative; a move in the first battle (R-M1) is not
    in the scenario, so the second begins where the first did."""
    scenario = load(SKIRMISH)
    before = scenario.world.need("ana", Position)
    first = scenario.begin(SeededDice(4), 4)
    unit = first.world.turn.current
    assert unit is not None
    start = first.world.need(unit, Position).cell
    accept(first, parse({"unit": unit, "action": "step", "to": [start.x, start.y + 1]}))
    assert first.world.need(unit, Position).cell == Pos(start.x, start.y + 1)
    assert scenario.world.need(unit, Position).cell == start
    assert scenario.world.need("ana", Position) == before
    second = scenario.begin(SeededDice(4), 4)
    assert [to_json(e) for e in second.log] == [to_json(e) for e in first.log[: len(second.log)]]
    assert second.world.need(unit, Position).cell == start


def test_run_reach_and_batches_begin_through_scenario_begin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`sim run` and `sim reach` (which began on the loaded world itself before) and a batch's
    games all begin with `Scenario.begin`, and none changes the scenario it was given."""
    begun: list[str] = []
    real = Scenario.begin

    def spy(
        self: Scenario, dice: Dice, seed: int | None = None, *, default_policy: str = "auto"
    ) -> Battle:
        begun.append(self.name)
        world = self.world
        battle = real(self, dice, seed, default_policy=default_policy)
        assert battle.world is not world and self.world is world
        return battle

    monkeypatch.setattr(Scenario, "begin", spy)
    assert main(["run", str(SKIRMISH), "--seed", "2", "--ai", "blue,red", "--round-cap", "1"]) == 0
    assert main(["reach", str(SKIRMISH), "--unit", "bram", "--seed", "2"]) == 0
    capsys.readouterr()
    assert begun == ["Skirmish at the ford"] * 2
    begin(load(SKIRMISH), 5)
    assert len(begun) == 3
