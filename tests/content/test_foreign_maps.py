"""Issue #31: maps drawn in Tiled for other games import in one step with a kinds file.

tests/content/foreign/ holds ten maps written as other tools and older Tiled versions write them
(README there says which feature each carries); none has a `kind` property. Each is imported
with its kinds file through `sim import-tiled`, checked by `sim check`, and played by the AI to
the end. A map without a kinds file is refused tile by tile and gets a starter kinds file that
names exactly the tiles it draws; the desert walk-through of docs/tiled.md is played as written.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest

from sim.ai.chooser import AI
from sim.ai.seats import play, take_seats
from sim.cli.main import main
from sim.content import tilekinds as tk
from sim.content import tmx
from sim.content.scenario import load
from sim.content.tilederror import TiledError
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.formats.replay import begin
from sim.play.engine import BattleOver
from tests.helpers import first_fast

ROOT = Path(__file__).resolve().parents[2]
FOREIGN = Path(__file__).resolve().parent / "foreign"
# Each map, its file inside its folder, and a cell of it with what its tiles make of it.
MAPS = {
    "dungeon": ("dungeon.tmx", {Pos(0, 0): (Kind.WALL, 0, 0), Pos(3, 2): (Kind.OPEN, 0, 2)}),
    "forest": (
        "maps/forest.tmx",
        {Pos(0, 0): (Kind.WALL, 0, 0), Pos(2, 1): (Kind.DIFFICULT, 0, 0)},
    ),
    "old": ("castle.tmx", {Pos(3, 4): (Kind.DIFFICULT, 0, 0), Pos(3, 2): (Kind.WALL, 0, 0)}),
    "infinite": ("endless.tmx", {Pos(4, 1): (Kind.WALL, 0, 0), Pos(6, 4): (Kind.OPEN, 0, 1)}),
    "flipped": ("ruins.tmx", {Pos(3, 2): (Kind.WALL, 0, 0), Pos(8, 3): (Kind.COVER, 0, 0)}),
    "twosets": ("meadow.tmx", {Pos(6, 1): (Kind.OPEN, 0, 3), Pos(2, 2): (Kind.OPEN, 4, 0)}),
    "templates": ("camp.tmx", {Pos(0, 0): (Kind.WALL, 0, 0), Pos(4, 2): (Kind.OPEN, 0, 2)}),
    "groups": ("hall.tmx", {Pos(5, 2): (Kind.OPEN, 0, 2), Pos(1, 1): (Kind.OPEN, 0, 0)}),
    "heights": ("ledge.tmx", {Pos(4, 1): (Kind.OPEN, 2, 0), Pos(4, 2): (Kind.OPEN, 3, 0)}),
    "island": ("island.tmx", {Pos(0, 0): (Kind.OPEN, 0, 6), Pos(3, 2): (Kind.WALL, 0, 0)}),
}


def _copy(tmp_path: Path, name: str) -> Path:
    """The map's folder copied, so that what an import writes stays in the test's folder."""
    shutil.copytree(FOREIGN / name, tmp_path / name)
    return tmp_path / name / MAPS[name][0]


def _played(scenario_file: Path, seed: int = 1) -> BattleOver:
    """The scenario played to its end by the AI, easy against normal."""
    battle = begin(load(scenario_file), seed)
    take_seats(battle, ("blue", "red"))
    result = play(battle, {"blue": AI("easy", seed), "red": AI("normal", seed + 1)})
    assert result == "over", f"{scenario_file}: the game was {result} in round "
    pending = battle.pending
    assert isinstance(pending, BattleOver)
    return pending


@pytest.mark.parametrize("name", first_fast(sorted(MAPS)))
def test_a_foreign_map_imports_with_its_kinds_file_checks_and_is_played_to_the_end(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _copy(tmp_path, name)
    kinds = path.with_name(f"{path.stem}.kinds.toml")
    out = tmp_path / f"{name}.toml"
    if not kinds.exists():
        # The camp's tiles say what they are (Wang colours "Stone wall", "Grass", "Water"): the
        # starter's guesses are right, and the map imports with the starter as written.
        assert main(["import-tiled", str(path), "--out", str(out)]) == 1
        assert f"{kinds} now names each of the 3 tiles with a guess" in capsys.readouterr().err
        assert not out.exists()
    assert main(["import-tiled", str(path), "--kinds", str(kinds), "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    assert main(["check", str(out)]) == 0
    world = load(out).world
    for cell, (kind, height, water) in MAPS[name][1].items():
        grid = world.grid
        assert (grid.kind(cell), grid.ground_half(cell), grid.water_half(cell)) == (
            kind,
            height,
            water,
        ), (name, cell)
    assert {"ana", "bram", "grok", "vex"} <= set(world.entities())
    if name == "dungeon":  # the object layer `items`: a potion lying at [5, 6]
        assert [e for e in world.entities() if "." not in e and "potion" in e] == [
            "healing_potion1"
        ]
    over = _played(out)
    assert over.winners in (("blue",), ("red",))


def test_the_starter_kinds_file_names_exactly_the_tiles_a_map_draws(tmp_path: Path) -> None:
    """For each map, without its kinds file: the refusal lists each tile drawn once (its
    tileset, id, cells and first cell) and the starter names exactly those tiles."""
    listed = 0
    for name in sorted(MAPS):
        path = _copy(tmp_path, name)
        kinds = path.with_name(f"{path.stem}.kinds.toml")
        kinds.unlink(missing_ok=True)
        drawn: dict[tuple[str, int], int] = {}
        tiled = tmx.read(path)
        for layer in tiled.layers:
            if isinstance(layer, tmx.TileLayer):
                for gid in layer.gids:
                    found = tiled.locate(gid)
                    if found is not None:
                        key = (found[0].label, found[1])
                        drawn[key] = drawn.get(key, 0) + 1
        with pytest.raises(TiledError) as refused:
            from sim.content.tiled import to_scenario

            to_scenario(path)
        lines = str(refused.value).splitlines()
        assert len(lines) == len(drawn) + 1, (name, lines)
        for (tileset, tile), cells in sorted(drawn.items()):
            many = f"{cells:,} cells" if cells > 1 else "1 cell"
            assert any(
                line.startswith(f"{path}: tileset '{tileset}', tile {tile} has no kind ({many}, ")
                for line in lines
            ), (name, tileset, tile)
        assert lines[-1].startswith(f"{path}: no tile says what it is on the battlefield: {kinds}")
        starter = tk.parse(kinds.read_text(encoding="utf-8"), str(kinds))
        named = {(t, i) for t, ids in starter.ids.items() for i in ids}
        assert named == set(drawn), name
        assert starter.default is None and not any(starter.ranges.values()) and not starter.classes
        listed += len(named)
    print(f"{len(MAPS)} maps, {listed} tiles named by their starters")


def test_the_starter_guesses_from_what_tiles_say_of_themselves(tmp_path: Path) -> None:
    """Classes, image names, properties and terrain names: wall, water, mud..."""
    path = _copy(tmp_path, "forest")  # a collection of images: grass, mud, oak_tree, bush
    path.with_name("forest.kinds.toml").unlink()
    assert main(["import-tiled", str(path), "--out", str(tmp_path / "f.toml")]) == 1
    text = path.with_name("forest.kinds.toml").read_text(encoding="utf-8")
    assert re.findall(r"^(\d+) = (.*?)  # .*guessed from '(\w+)'$", text, re.M) == [
        ("0", '"open"', "grass"),
        ("1", '"difficult"', "mud"),
        ("2", '"wall"', "oak_tree"),
        ("3", '"cover"', "bush"),
    ]
    assert tk.guess(["Deep water"]) == (tk.Entry(Kind.OPEN, depth=4), "Deep water")
    assert tk.guess(["cliff face"])[0] == tk.Entry(Kind.WALL)
    assert tk.guess(["lava_01"])[0] == tk.Entry(Kind.FIRE)
    assert tk.guess(["banana"]) == (tk.NO_GUESS, "")


def test_the_desert_walk_through_of_the_docs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/tiled.md, step by step, on the stand-in of Tiled's desert.tmx."""
    folder = tmp_path / "desert"
    shutil.copytree(ROOT / "docs" / "examples" / "desert", folder)
    path, kinds, out = folder / "desert.tmx", folder / "desert.kinds.toml", folder / "desert.toml"
    # 1. Imported as it is: refused, with the starter written and the command to run again.
    assert main(["import-tiled", str(path), "--out", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        f"{path}: tileset 'Desert', tile 1 has no kind (24 cells, the first at [0, 9] in layer "
        "'Ground')"
    )
    assert err[-1] == (
        f"{path}: no tile says what it is on the battlefield: {kinds} now names each of the 31 "
        f"tiles with a guess; check it, then run: sim import-tiled {path} --kinds {kinds} --out "
        f"{out}"
    )
    starter = kinds.read_text(encoding="utf-8")
    assert "29 = \"open\"  # 215 cells, the first at [0, 0] in layer 'Ground'; guessed from " in (
        starter
    )
    # 2. The kinds file as the docs finish it: cacti slow, boulders give cover, the square is a
    # platform 1 m up.
    finished = (ROOT / "docs" / "examples" / "desert" / "desert.kinds.finished.toml").read_text(
        encoding="utf-8"
    )
    kinds.write_text(finished, encoding="utf-8")
    # 3. It has no units: the refusal says where they come from.
    assert main(["import-tiled", str(path), "--out", str(out)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{path}: the map has no units: add an object layer named units in Tiled, one object a "
        f"unit (docs/tiled.md), or place them with: sim edit {path}"
    )
    # 4. The units layer as Tiled writes it (Layer > New > Object Layer, four rectangles).
    units = "".join(
        f'  <object id="{n}" name="{name}" class="{template}" x="{x * 32}" y="{y * 32}" '
        f'width="32" height="32">\n   <properties>\n    <property name="team" value="{team}"/>'
        "\n   </properties>\n  </object>\n"
        for n, (name, template, team, x, y) in enumerate(
            [
                ("ana", "human_fighter", "blue", 2, 10),
                ("bram", "human_archer", "blue", 5, 4),
                ("grok", "orc_brute", "red", 21, 10),
                ("vex", "orc_raider", "red", 18, 3),
            ],
            1,
        )
    )
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            " </layer>\n",
            f' </layer>\n <objectgroup id="2" name="units">\n{units} </objectgroup>\n',
        ),
        encoding="utf-8",
    )
    assert main(["import-tiled", str(path), "--out", str(out)]) == 0
    assert main(["check", str(out)]) == 0
    grid = load(out).world.grid
    assert grid.kind(Pos(14, 3)) is Kind.DIFFICULT  # a cactus
    assert grid.kind(Pos(1, 1)) is Kind.COVER  # a boulder
    assert grid.ground_half(Pos(5, 3)) == 2  # the cobblestone square
    assert grid.ground_half(Pos(7, 5)) == 0  # the patch of sand in it
    _played(out)


OGRES = """\
[weapons.maul]
wd = 9
damage = "crushing"
weight = 8
two_handed = true

[templates.ogre]
based_on = "orc_brute"
held = ["maul"]
"""


def _with_content(path: Path, **props: str) -> None:
    """The map given map properties (TOML text, as Tiled holds it), and grok made an ogre."""
    text = path.read_text()
    head, rest = text.split(">\n <tileset", 1)
    lines = "".join(f'  <property name="{k}" value={quoteattr(v)}/>\n' for k, v in props.items())
    text = f"{head}>\n <properties>\n{lines} </properties>\n <tileset{rest}"
    path.write_text(text.replace('name="grok" type="orc_brute"', 'name="grok" type="ogre"'))


def test_a_foreign_map_keeps_its_content_packs_and_its_kinds_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issues #31 and #32 together: a map drawn for another game, its tiles named by its kinds
    file, names a content pack beside it and a weapon of its own; the import writes `content`
    first, the weapon's table, and copies the pack beside the scenario; a problem inside the
    pack is named by the map, the pack's file and its line."""
    path = _copy(tmp_path, "dungeon")
    (path.parent / "ogres.toml").write_text(OGRES)
    _with_content(
        path, content='["ogres.toml"]', weapons='{ cudgel = { based_on = "club", wd = 4 } }'
    )
    out = tmp_path / "out" / "dungeon.toml"
    assert main(["import-tiled", str(path), "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    text = out.read_text()
    assert text.startswith('content = ["ogres.toml"]\n')
    assert '\n[weapons.cudgel]\nbased_on = "club"\nwd = 4\n' in text
    assert (out.parent / "ogres.toml").read_text() == OGRES
    scenario = load(out)
    assert [(e.section, e.name) for e in scenario.content] == [
        ("weapons", "cudgel"), ("weapons", "maul"), ("templates", "ogre"),
    ]  # fmt: skip
    assert main(["check", str(out)]) == 0
    assert "grok" in scenario.world.entities()
    assert _played(out).winners in (("blue",), ("red",))

    (path.parent / "ogres.toml").write_text(OGRES.replace("wd = 9", "wd = 51"))
    capsys.readouterr()
    again = tmp_path / "again.toml"
    assert main(["import-tiled", str(path), "--out", str(again)]) == 1
    assert capsys.readouterr().err == (
        f"{path}: as a scenario: {path.parent / 'ogres.toml'}:2: weapons.maul: wd must be a "
        "whole number from 0 to 50, not 51\n"
        f"nothing was written to {again}\n"
    )
    assert not again.exists()


def test_kinds_of_item_in_the_map_properties_and_items_on_the_ground_are_refused_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scenario's `items` is either items on the ground or kinds of item: the dungeon's
    `items` object layer lays a potion, so kinds of item in the map property are refused with
    where they belong instead."""
    path = _copy(tmp_path, "dungeon")
    _with_content(path, items='{ pebble = { based_on = "dagger" } }')
    out = tmp_path / "dungeon.toml"
    assert main(["import-tiled", str(path), "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"{path}: layer 'items' lays items on the ground, but the map property items holds "
        "kinds of item; put those in a content pack named by the map property content\n"
    )
    assert not out.exists()
