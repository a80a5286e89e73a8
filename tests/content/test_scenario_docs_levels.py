"""docs/scenarios.md's `heights`/`depths` example loads, and says what the loader does."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.content.scenario import ScenarioError, loads
from sim.core.geometry import Pos

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")


def levels_example() -> str:
    """The first TOML block of the "Heights and depths rows" section."""
    section = DOC.split("### Heights and depths rows\n", 1)[1]
    return section.split("```toml\n", 1)[1].split("```", 1)[0]


def test_the_heights_and_depths_example_of_the_scenarios_doc_loads() -> None:
    grid = loads(levels_example(), "doc.toml").world.grid
    # Heights in half-metres: '.' keeps the legend's 3 m bluff, the digit 4 replaces it.
    assert grid.ground_half(Pos(5, 1)) == 6
    assert grid.ground_half(Pos(6, 1)) == 8
    assert grid.ground_half(Pos(1, 1)) == 0
    assert grid.climbable(Pos(6, 1))
    # Depths: [map.levels] h = 0.5 m, digits are whole metres, '.' keeps the legend's water.
    assert grid.water_half(Pos(3, 2)) == 1
    assert grid.water_half(Pos(3, 3)) == 2
    assert grid.water_half(Pos(4, 3)) == 4
    assert grid.water_half(Pos(1, 1)) == 0


def test_a_heights_character_not_a_digit_dot_or_level_is_refused_as_the_doc_says() -> None:
    example = levels_example()
    broken = example.replace("......4..", "......x..", 1)
    assert broken != example
    with pytest.raises(ScenarioError) as error:
        loads(broken, "scenario.toml")
    message = "heights row 1, column 6: 'x' is not a digit, '.' or a character of [map.levels]"
    assert str(error.value) == f"scenario.toml:14: {message}"
    assert f"`scenario.toml:14: {message}`" in DOC


def test_heights_rows_of_the_wrong_shape_are_refused_with_the_docs_wording() -> None:
    example = levels_example()
    one_short = example.replace('heights = """\n.........\n', 'heights = """\n', 1)
    with pytest.raises(ScenarioError) as error:
        loads(one_short, "scenario.toml")
    assert [p.message for p in error.value.problems] == ["heights has 4 rows; the map has 5"]
    assert "`heights has 4 rows; the map has 5`" in DOC
    narrow = example.replace("......4..", "......4.", 1)
    with pytest.raises(ScenarioError) as error:
        loads(narrow, "scenario.toml")
    # One problem, in the heights' own words (not also "map row ... the first row has").
    assert [p.message for p in error.value.problems] == ["heights row has 8 cells; the map has 9"]
    assert "`heights row has 8 cells; the map has 9`" in DOC
