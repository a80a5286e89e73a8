"""bench/goals.py and bench/toy.py (issue #30): a goal's line says its figure, its anchor, their
ratio and the verdict; the toy reference loop plays a generated battle to its end, the same
battle for the same seed. No time is measured here (speed is the benches' business)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import bench_module

ROOT = Path(__file__).resolve().parent.parent


def _bench(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "bench"))  # the benches import each other by name
    return bench_module(name)


@pytest.fixture(scope="module")
def goals() -> ModuleType:
    return _bench("goals")


@pytest.fixture(scope="module")
def toy() -> ModuleType:
    return _bench("toy")


def test_a_goal_line_has_figure_anchor_ratio_and_verdict(goals: ModuleType) -> None:
    line = goals.Goal("engine >= 100", 50.0, "battles/s/core", "toy loop", 62.5, False).line()
    assert line.startswith("engine >= 100")
    assert "50.00 battles/s/core" in line and "toy loop    62.50" in line
    assert "0.80x" in line and line.endswith("NOT met")
    assert goals.Goal("x", 3.0, "ms", "blit", 0.5, True).line().endswith("6.00x  met")


def test_the_toy_loop_plays_a_generated_battle_to_its_end(toy: ModuleType) -> None:
    text = _bench("engine").generated_map(2)
    battle = toy.battle(text, 7)
    assert [u.team for u in battle.units] == ["blue"] * 4 + ["red"] * 4
    decisions, rounds = battle.play()
    standing = {u.team for u in battle.units if u.hp > 0}
    print(f"toy battle: {decisions} decisions, {rounds} rounds, standing {standing}")
    assert decisions > 8 and 1 <= rounds < toy.ROUND_CAP and len(standing) == 1
    again = toy.battle(text, 7)
    assert again.play() == (decisions, rounds)
    assert [u.hp for u in again.units] == [u.hp for u in battle.units]
