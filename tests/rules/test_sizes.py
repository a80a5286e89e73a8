"""Issue #32, large creatures (R-Z1..R-Z4) as transcripts with loaded dice: a size-2 ogre stands
on its 2x2 cells from its top-left Position, moves its whole footprint, reaches and threatens
from every cell, and Shove, Trip and Grapple weigh sizes.

Every small creature is tests/movers.BASE (a human 1.8 m tall, STR d8+6, AGI d8+8, FCS d8+6,
RES d10+5, reaction policy "never"); the ogre is the same stat block with `size = 2` unless a
test says otherwise.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.content.scenario import ScenarioError, load, loads
from sim.content.tiled import to_scenario, write_tmx
from sim.core.components import Size
from sim.core.creature import cells_of, side
from sim.core.geometry import Pos
from sim.formats.state import unit_state
from sim.rules.movement.footing import standing_at
from tests.helpers import _toml, scenario_text
from tests.movers import begin, creature

# o: the ogre's top-left cell; a: ana.
FIELD = """
........
.o......
........
....a...
........
"""


def ogre(at: str | list[int] = "o", team: str = "red", **keys: object) -> str:
    """The ogre's [[units]] table: BASE at size 2, at a marker or a cell [x, y]."""
    text = creature("ogre", team, "o", **({"size": 2} | keys))
    return text.replace('at = "o"', f"at = {_toml(at)}")


def problems(rows: str, *units: str, extra: str = "") -> list[str]:
    """Each problem as "KEY LINE: message", KEY the text of the line the problem names."""
    text = scenario_text(rows, "\n".join(units), extra)
    with pytest.raises(ScenarioError) as error:
        loads(text, "big.toml")
    lines = text.splitlines()
    return [f"{lines[p.line - 1].strip()}: {p.message}" for p in error.value.problems]


# --- R-Z1 size and footprint ---------------------------------------------------------------------


def test_R_Z1_a_size_2_creature_stands_on_its_2x2_cells_and_holds_each_of_them() -> None:
    """R-Z1: the ogre's Position (1,1) is its footprint's top-left; it stands on (1,1), (2,1),
    (1,2) and (2,2), and R-M5 holds for each: ana finds it standing on every one."""
    b = begin(FIELD, ogre(), creature("ana", "blue", "a"))
    assert side(b.world, "ogre") == 2 and b.world.need("ogre", Size) == Size(2)
    assert cells_of(b.world, "ogre") == (Pos(1, 1), Pos(2, 1), Pos(1, 2), Pos(2, 2))
    held = standing_at(b.world, "ana")
    assert [held.get(c) for c in (Pos(1, 1), Pos(2, 1), Pos(1, 2), Pos(2, 2))] == ["ogre"] * 4
    assert held.get(Pos(3, 1)) is None and held.get(Pos(0, 0)) is None
    assert side(b.world, "ana") == 1 and cells_of(b.world, "ana") == (Pos(4, 3),)
    assert unit_state(b.world, "ogre")["size"] == 2 and "size" not in unit_state(b.world, "ana")


def test_R_Z1_size_comes_from_a_race_or_a_template_and_a_unit_may_override_it() -> None:
    """R-Z1: a race of the scenario's own content says `size = 3`; a template based on it is
    size 3; a unit of that template saying `size = 1` is one cell."""
    extra = """
    [races.giant]
    speed = 12
    height = 4.5
    size = 3
    [templates.hill_giant]
    race = "giant"
    str = "d12+10"
    agi = "d6+4"
    fcs = "d6+4"
    res = "d12+10"
    """
    rows = """
    ......
    .g....
    ......
    ......
    ....s.
    """
    units = """
    [[units]]
    id = "grum"
    team = "red"
    template = "hill_giant"
    at = "g"
    [[units]]
    id = "runt"
    team = "red"
    template = "hill_giant"
    size = 1
    at = "s"
    """
    world = loads(scenario_text(rows, units, extra), "giants.toml").world
    assert side(world, "grum") == 3 and len(cells_of(world, "grum")) == 9
    assert side(world, "runt") == 1 and not world.has("runt", Size)


@pytest.mark.parametrize("size", [0, 4, "2", 1.5, True])
def test_R_Z1_a_size_that_is_not_1_2_or_3_is_refused_with_its_line(size: object) -> None:
    found = problems(FIELD, ogre(size=size), creature("ana", "blue", "a"))
    written = _toml(size)
    assert found == [
        f"size = {written}: size must be one of 1, 2, 3 (cells a side, R-Z1), not {size!r}"
    ]


def test_R_Z1_a_race_with_a_bad_size_is_refused_with_its_line() -> None:
    extra = """
    [races.blob]
    speed = 6
    height = 1.0
    size = 5
    """
    found = problems(FIELD, ogre(), creature("ana", "blue", "a"), extra=extra)
    assert found == [
        "size = 5: races.blob: size must be one of 1, 2, 3 (cells a side, R-Z1), not 5"
    ]


def test_R_Z1_a_footprint_off_the_map_on_a_wall_or_on_another_creature_is_refused() -> None:
    """R-Z1: placed at (6,3) of an 8-wide, 5-high map, the ogre's cells run to (7,4): it fits;
    at (7,3) they go off the map; over a wall or over ana they are refused, with the unit's
    line; two creatures on one cell name R-M5 with R-Z1."""
    rows = """
    ........
    ......#.
    ....a...
    ........
    ........
    """
    ana = creature("ana", "blue", "a")
    assert side(begin(rows, ogre(at=[6, 3]), ana).world, "ogre") == 2
    assert problems(rows, ogre(at=[7, 3]), ana) == [
        "at = [7, 3]: unit 'ogre' is size 2: its 2x2 cells from (7,3) go off the 8x5 map at "
        "(8,3) (R-Z1)"
    ]
    assert problems(rows, ogre(at=[5, 0]), ana) == [
        "at = [5, 0]: unit 'ogre' is size 2: its cell (6,1) is wall (R-Z1)"
    ]
    assert problems(rows, ogre(at=[3, 1]), ana) == [
        "at = \"a\": 'ana' and 'ogre' both stand in (4,2) (R-M5, R-Z1)"
    ]


def test_R_Z1_tiled_export_and_import_keep_sizes_and_the_scenarios_content(tmp_path: Path) -> None:
    """R-Z1: a unit's `size` and a template's (in the scenario's own content) survive the trip
    through a Tiled map: the world read back is the world written."""
    extra = """
    [templates.brute]
    race = "orc"
    size = 2
    str = "d10+8"
    agi = "d6+4"
    fcs = "d6+4"
    res = "d10+8"
    """
    units = ogre() + "\n" + creature("ana", "blue", "a") + '\n[[units]]\nid = "brute"\n'
    units += 'team = "red"\ntemplate = "brute"\nat = [5, 0]\n'
    path = tmp_path / "big.toml"
    path.write_text(scenario_text(FIELD, units, extra))
    write_tmx(path, tmp_path / "big.tmx")
    text, warnings = to_scenario(tmp_path / "big.tmx")
    assert warnings == []
    before, after = load(path).world, loads(text).world
    assert after == before
    assert side(after, "ogre") == 2 and side(after, "brute") == 2 and side(after, "ana") == 1
