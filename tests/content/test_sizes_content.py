"""Issue #32, large creatures in content tools (R-Z1): a Tiled map draws a large unit's object
over its footprint and reads its size back from it, refusing odd shapes with where they are;
the map editor knows each unit's size and places a template of size 2 or 3 only where its
footprint fits (the editor window's use of this is in tests/ui/test_editor_sizes.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.content import mapedit as me
from sim.content.scenario import load, loads
from sim.content.tiled import TiledError, to_scenario, write_tmx
from sim.core.creature import side
from sim.core.geometry import Pos
from tests.helpers import scenario_text
from tests.movers import creature
from tests.rules.test_sizes import BRUTE, FIELD, ogre


def test_R_Z1_tiled_export_draws_each_unit_over_its_footprint_and_import_reads_it_back(
    tmp_path: Path,
) -> None:
    """R-Z1: the ogre (size 2 on the unit) and the brute (size 2 from its template) are 64x64
    pixel objects over their 2x2 cells, ana a 32x32 one; read back, both are size 2 and the
    world is the one written."""
    units = ogre() + "\n" + creature("ana", "blue", "a") + '\n[[units]]\nid = "brute"\n'
    units += 'team = "red"\ntemplate = "brute"\nat = [5, 0]\n'
    path = tmp_path / "big.toml"
    path.write_text(scenario_text(FIELD, units, BRUTE))
    write_tmx(path, tmp_path / "big.tmx")
    drawn = re.findall(
        r'<object id="\d+" name="(\w+)"[^>]* width="(\d+)" height="(\d+)"',
        (tmp_path / "big.tmx").read_text(),
    )
    assert sorted(drawn) == [("ana", "32", "32"), ("brute", "64", "64"), ("ogre", "64", "64")]
    text, warnings = to_scenario(tmp_path / "big.tmx")
    assert warnings == []
    after = loads(text).world
    assert after == load(path).world
    assert (side(after, "ogre"), side(after, "brute"), side(after, "ana")) == (2, 2, 1)


def _map(tmp_path: Path, unit: str) -> Path:
    """A 5x4 map of open ground with one unit object (its attributes and properties)."""
    path = tmp_path / "odd.tmx"
    rows = ",\n".join(",".join("1" for _ in range(5)) for _ in range(4))
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" orientation="orthogonal" renderorder="right-down" width="5" '
        'height="4" tilewidth="32" tileheight="32" infinite="0" nextlayerid="3" nextobjectid="2">\n'
        ' <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="1" '
        'columns="0">\n'
        '  <tile id="0"><properties><property name="kind" value="open"/></properties>'
        '<image width="32" height="32" source="open.png"/></tile>\n'
        " </tileset>\n"
        ' <layer id="1" name="ground" width="5" height="4">\n'
        f'  <data encoding="csv">{rows}</data>\n </layer>\n'
        f' <objectgroup id="2" name="units">{unit}'
        '<object id="9" name="ana" type="human_fighter" x="128" y="96" width="32" height="32">'
        '<properties><property name="team" value="blue"/></properties></object>'
        "</objectgroup>\n"
        "</map>\n"
    )
    return path


def _object(size: str, props: str = "") -> str:
    return (
        f'<object id="1" name="ogre" type="orc_brute" x="32" y="32" {size}>'
        f'<properties><property name="team" value="red"/>{props}</properties></object>'
    )


def test_R_Z1_a_unit_object_drawn_over_3x3_tiles_is_a_size_3_unit(tmp_path: Path) -> None:
    """R-Z1: an object 96x96 pixels from (32,32) is a unit of size 3 on cells (1,1) to (3,3);
    a point object, or a one-tile one, leaves the size to the template (1 here)."""
    text, _ = to_scenario(_map(tmp_path, _object('width="96" height="96"')))
    assert "size = 3" in text and side(loads(text).world, "ogre") == 3
    text, _ = to_scenario(_map(tmp_path, _object('width="0" height="0"')))
    assert "size" not in text and side(loads(text).world, "ogre") == 1


@pytest.mark.parametrize(
    ("size", "props", "problem"),
    [
        (
            'width="40" height="40"',
            "",
            "it is 40x40 pixels; a unit's object is a point or covers its footprint, 1 to 3 "
            "tiles square (32x32, 64x64, 96x96; size, R-Z1)",
        ),
        (
            'width="64" height="32"',
            "",
            "it is 64x32 pixels; a unit's object is a point or covers its footprint, 1 to 3 "
            "tiles square (32x32, 64x64, 96x96; size, R-Z1)",
        ),
        (
            'width="128" height="128"',
            "",
            "it is 128x128 pixels; a unit's object is a point or covers its footprint, 1 to 3 "
            "tiles square (32x32, 64x64, 96x96; size, R-Z1)",
        ),
        (
            'width="64" height="64"',
            '<property name="size" type="int" value="3"/>',
            "it covers 2x2 tiles but its property size is 3 (R-Z1); make them agree",
        ),
    ],
)
def test_R_Z1_an_odd_unit_object_is_refused_with_the_layer_and_the_object(
    tmp_path: Path, size: str, props: str, problem: str
) -> None:
    path = _map(tmp_path, _object(size, props))
    with pytest.raises(TiledError) as error:
        to_scenario(path)
    assert str(error.value) == f"{path}: layer 'units', object 'ogre': {problem}"


# --- the map editor (R-Z1) -----------------------------------------------------------------------

# A wall at (5,1), a pit at (1,4); ana at (3,3).
ROOM = """
........
.....#..
........
...a....
._......
"""
GIANT = """
[races.giant]
speed = 12
height = 4.5
size = 3
"""


def _source(tmp_path: Path) -> me.Source:
    units = creature("ana", "blue", "a")
    return me.open_text(scenario_text(ROOM, units, BRUTE + GIANT), str(tmp_path / "room.toml"))


def test_R_Z1_the_editor_knows_a_units_size_from_the_unit_its_template_or_its_race(
    tmp_path: Path,
) -> None:
    source = _source(tmp_path)
    state = me.place_unit(source.state, "brute", "red", Pos(0, 0))
    state = me.place_unit(state, "human_fighter", "red", Pos(6, 2), uid="big")
    state = me.set_unit(state, "big", overrides={"race": "giant"})
    brute, big = state.unit("brute1"), state.unit("big")
    assert brute is not None and big is not None
    assert me.unit_side(source, brute) == 2 and me.unit_side(source, big) == 3
    assert me.unit_side(source, state.units[0]) == 1  # ana
    assert me.unit_cells(source, brute) == (Pos(0, 0), Pos(1, 0), Pos(0, 1), Pos(1, 1))
    assert me.unit_covering(source, state, Pos(1, 1)) == brute
    assert me.unit_covering(source, state, Pos(2, 1)) is None
    resized = me.set_unit(state, "brute1", overrides={"size": 1})
    assert me.unit_covering(source, resized, Pos(1, 1)) is None


@pytest.mark.parametrize(
    ("cell", "problem"),
    [
        ((7, 0), "brute1 is size 2: its 2x2 cells from (7,0) would go off the map at (8,0) (R-Z1)"),
        ((4, 0), "brute1 is size 2: its 2x2 cells from (4,0) would stand on wall at (5,1) (R-Z1)"),
        ((0, 3), "brute1 is size 2: its 2x2 cells from (0,3) would stand on pit at (1,4) (R-Z1)"),
        (
            (2, 2),
            "brute1 is size 2: its 2x2 cells from (2,2) would stand on ana at (3,3) (R-M5, R-Z1)",
        ),
        ((6, 2), None),
    ],
)
def test_R_Z1_the_editor_places_a_2x2_template_only_where_its_footprint_fits(
    tmp_path: Path, cell: tuple[int, int], problem: str | None
) -> None:
    source = _source(tmp_path)
    state = me.place_unit(source.state, "brute", "red", Pos(*cell))
    assert me.footprint_problem(source, state, "brute1") == problem
    if problem is None:  # what fits in the editor loads as a scenario
        loads(me.render(source, state), "room.toml")


def test_R_Z1_a_large_flier_may_be_placed_over_a_pit_and_a_prone_unit_may_share_cells(
    tmp_path: Path,
) -> None:
    """R-Z5 with R-Z1: a flying brute over the pit at (1,4) fits, as the loader allows; a prone
    one may lie on ana's cell (R-M5)."""
    source = _source(tmp_path)
    state = me.place_unit(source.state, "brute", "red", Pos(0, 3))
    flier = me.set_unit(state, "brute1", overrides={"fly": 9})
    assert me.footprint_problem(source, flier, "brute1") is None
    prone = me.place_unit(source.state, "brute", "red", Pos(2, 2))
    prone = me.set_unit(prone, "brute1", overrides={"prone": True})
    assert me.footprint_problem(source, prone, "brute1") is None
    loads(me.render(source, flier), "room.toml")
