"""Issue #31: kinds files (sim/content/tilekinds.py) and the refusals of maps that cannot map
onto a metre grid. Each broken kinds file or map is refused in lines that name the file and the
line (or the layer, the tile) and the fix; nothing is written."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content import tilekinds as tk
from sim.content.tiled import TiledError, to_scenario
from sim.core.grid import Kind

FOREIGN = Path(__file__).resolve().parent / "foreign"


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str], out: Path) -> list[str]:
    """`sim` refuses, writes nothing to `out`, and says why in lines without a traceback."""
    out.write_text("# kept\n", encoding="utf-8")
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert out.read_text(encoding="utf-8") == "# kept\n"
    return err.splitlines()


def _dungeon(tmp_path: Path) -> Path:
    shutil.copytree(FOREIGN / "dungeon", tmp_path / "dungeon")
    return tmp_path / "dungeon" / "dungeon.tmx"


KINDS_PROBLEMS = {
    # The kinds file's text, and the one line each problem is told in ({k} is its path).
    '[class]\nfloor = "lava"\n': "{k}:2: kind 'lava' is not one of open, difficult, wall, pit, "
    "fire, cover",
    '[class]\nfloor = { kind = "open", height = 0.3 }\n': "{k}:2: height must be 0 to 1000 "
    "metres in half-metre steps, not '0.3'",
    '[class]\nfloor = { kind = "open", heigth = 1 }\n': "{k}:2: unknown key 'heigth' (expected "
    "one of kind, height, depth, obstacle, climbable)",
    '[class]\nfloor = { climbable = "yes" }\n': (
        '{k}:2: climbable must be true or false, not "yes"'
    ),
    "[class]\nfloor = 3\n": '{k}:2: an entry is a kind ("wall") or a table ({ kind = "open", '
    "depth = 1 }), not '3'",
    '[tileset.dungeon]\n"5-2" = "open"\n': "{k}:2: the range 5-2 runs backwards; write 2-5",
    '[tileset.dungeon]\nfloor = "open"\n': "{k}:2: 'floor' is not a tile id (29) or a range of "
    "ids (0-8)",
    '[tileset.dungeon]\n"0-3" = "open"\n"2-4" = "wall"\n': "{k}:3: 2-4 names tile 2 again "
    "(line 2 names 0-3); a tile takes one entry",
    '[tileset.dungeon]\n3 = "open"\n03 = "wall"\n': "{k}:3: 03 names tile 3 again (line 2 "
    "names 3); a tile takes one entry",
    'tileset = "dungeon"\n': "{k}:1: [tileset] must be a table, not str",
    '[tileset]\ndungeon = "open"\n': "{k}:2: tileset 'dungeon' must be a table of tile ids: "
    "[tileset.dungeon]",
    'kinds = "open"\n': "{k}:1: unknown key 'kinds' (expected one of default, tileset, class, "
    "property)",
    '[class\nfloor = "open"\n': "{k}:1: broken TOML (Expected ']' at the end of a table "
    "declaration)",
}


@pytest.mark.parametrize("text", list(KINDS_PROBLEMS), ids=range(len(KINDS_PROBLEMS)))
def test_a_broken_kinds_file_is_refused_by_line(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _dungeon(tmp_path)
    kinds = tmp_path / "broken.toml"
    kinds.write_text(text, encoding="utf-8")
    out = tmp_path / "out.toml"
    lines = _refused(["import-tiled", str(path), "--kinds", str(kinds), "--out", str(out)],
                     capsys, out)  # fmt: skip
    assert lines == [KINDS_PROBLEMS[text].replace("{k}", str(kinds))]


def test_a_kinds_file_is_read_within_its_limit_and_never_from_a_device(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _dungeon(tmp_path)
    out = tmp_path / "out.toml"
    argv = ["import-tiled", str(path), "--out", str(out), "--kinds"]
    assert _refused([*argv, "/dev/zero"], capsys, out) == [
        "/dev/zero: not a regular file but a device or a pipe; name a file"
    ]
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as sparse:
        sparse.truncate(9 << 20)
    assert _refused([*argv, str(huge)], capsys, out) == [
        f"{huge}: 9,437,184 bytes; a kinds file may have at most 8,388,608"
    ]
    assert _refused([*argv, str(tmp_path / "none.toml")], capsys, out) == [
        f"{tmp_path / 'none.toml'}: cannot read the file: No such file or directory"
    ]


def test_a_tile_the_kinds_file_does_not_name_is_told_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _dungeon(tmp_path)
    kinds = path.with_name("dungeon.kinds.toml")
    kinds.write_text('[class]\nfloor = "open"\nwall = "wall"\n', encoding="utf-8")
    out = tmp_path / "out.toml"
    lines = _refused(["import-tiled", str(path), "--out", str(out)], capsys, out)
    assert lines == [
        f"{path}: tileset 'dungeon', tile {tile}: {kinds} has no entry for it ({where}); add "
        f'`{tile} = "open"` (or what it is) under [tileset.dungeon], or a default'
        for tile, where in (
            (2, "4 cells, the first at [3, 2] in layer 'Floor'"),
            (3, "4 cells, the first at [11, 2] in layer 'Floor'"),
        )
    ]
    kinds.write_text('default = "difficult"\n[class]\nfloor = "open"\nwall = "wall"\n')
    assert main(["import-tiled", str(path), "--out", str(out)]) == 0  # the file beside the map


def test_entries_are_found_by_id_range_class_property_then_default() -> None:
    kinds = tk.parse(
        'default = "cover"\n'
        '[tileset."big set"]\n3 = "wall"\n"0-9" = { kind = "open", depth = 2.5 }\n'
        '[class]\nMud = "difficult"\n'
        '[property.solid]\ntrue = "wall"\n',
        "k.toml",
    )
    assert kinds.find("big set", 3) == (tk.Entry(Kind.WALL), '[tileset."big set"] 3')
    assert kinds.find("big set", 4, "mud") == (
        tk.Entry(Kind.OPEN, depth=5),
        '[tileset."big set"] 0-9',
    )
    assert kinds.find("other", 4, "MUD") == (tk.Entry(Kind.DIFFICULT), "[class] mud")
    assert kinds.find("other", 4, "", {"solid": True}) == (
        tk.Entry(Kind.WALL),
        "[property.solid] true",
    )
    assert kinds.find("other", 4, "", {"solid": False}) is None
    assert kinds.default == tk.Entry(Kind.COVER)
    assert tk.Entry(Kind.OPEN, height=3, climbable=True).text() == (
        '{ kind = "open", height = 1.5, climbable = true }'
    )
    assert tk.Entry(Kind.WALL).text() == '"wall"' and tk.Entry().text() == "{}"


def test_the_editor_s_choices_are_written_into_the_kinds_file_keeping_the_rest() -> None:
    text = '# mine\ndefault = "open"\n\n[tileset.t]\n3 = "wall"  # the hedge\n'
    again = tk.set_entries(
        text, {("t", 3): tk.Entry(Kind.COVER), ("u v", 0): tk.Entry(Kind.OPEN, depth=2)}
    )
    assert again.startswith('# mine\ndefault = "open"\n')
    kinds = tk.parse(again)
    assert kinds.ids == {"t": {3: tk.Entry(Kind.COVER)}, "u v": {0: tk.Entry(Kind.OPEN, depth=2)}}


ORIENTATIONS = {
    "isometric": "an isometric map: its tiles are diamonds seen at an angle, so a cell's "
    "neighbours are not those of a square grid",
    "staggered": "a staggered isometric map: every other row is shifted half a tile, so a cell's "
    "neighbours are not those of a square grid",
    "hexagonal": "a hexagonal map: its cells have six neighbours, and the rules move over square "
    "cells with eight",
}


@pytest.mark.parametrize("orientation", list(ORIENTATIONS))
def test_maps_of_other_orientations_are_refused_by_name_with_the_reason(
    orientation: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _dungeon(tmp_path)
    text = path.read_text(encoding="utf-8").replace(
        'orientation="orthogonal"',
        f'orientation="{orientation}" staggeraxis="y" staggerindex="odd" hexsidelength="6"',
    )
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out.toml"
    assert _refused(["import-tiled", str(path), "--out", str(out)], capsys, out) == [
        f"{path}: {ORIENTATIONS[orientation]}; only orthogonal maps (square tiles seen from "
        "above) can be played on a grid of metre cells: draw it again on a new orthogonal map "
        "(File > New > New Map, Orientation: Orthogonal)"
    ]


def _infinite(tmp_path: Path, chunks: str) -> Path:
    shutil.copytree(FOREIGN / "infinite", tmp_path / "infinite")
    path = tmp_path / "infinite" / "endless.tmx"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'<data encoding="csv">.*?</data>', chunks, text, flags=re.S)
    path.write_text(text, encoding="utf-8")
    return path


def test_broken_infinite_maps_are_refused_in_a_line(tmp_path: Path) -> None:
    far = (
        '<data encoding="csv"><chunk x="0" y="0" width="1" height="1">1</chunk>'
        '<chunk x="2000" y="0" width="1" height="1">1</chunk></data>'
    )
    with pytest.raises(TiledError) as refused:
        to_scenario(_infinite(tmp_path / "a", far))
    assert str(refused.value).endswith(
        "endless.tmx: an infinite map whose tiles cover 2001 × 1 cells (from [0, 0] to [2000, "
        "0]); at most 1024 each way: erase what lies beyond the battlefield"
    )
    empty = '<data encoding="csv"><chunk x="0" y="0" width="2" height="1">0,0</chunk></data>'
    with pytest.raises(TiledError, match=r"endless.tmx: an infinite map with no tile drawn in"):
        to_scenario(_infinite(tmp_path / "b", empty))
    wide = '<data encoding="csv"><chunk x="0" y="0" width="5000" height="1">1</chunk></data>'
    with pytest.raises(TiledError) as refused:
        to_scenario(_infinite(tmp_path / "c", wide))
    assert re.fullmatch(
        r".*endless.tmx: line 10: layer 'ground', the chunk at \[0, 0\] of 5000 × 1 cells; a chunk "
        r"needs 1 to 1024 cells each way \(save the map again in Tiled\)",
        str(refused.value),
    )
    short = '<data encoding="csv"><chunk x="0" y="0" width="2" height="2">1,1,1</chunk></data>'
    with pytest.raises(TiledError, match=r"line 10: layer 'ground', the chunk at \[0, 0\] has 3"):
        to_scenario(_infinite(tmp_path / "d", short))


def test_chunks_in_a_map_that_is_not_infinite_and_stray_gids_are_named(tmp_path: Path) -> None:
    path = _dungeon(tmp_path)
    text = path.read_text(encoding="utf-8")
    chunked = re.sub(
        r'<data encoding="csv">.*?</data>',
        '<data encoding="csv"><chunk x="0" y="0" width="1" height="1">1</chunk></data>',
        text,
        flags=re.S,
    )
    path.write_text(chunked, encoding="utf-8")
    with pytest.raises(TiledError, match=r"line 15: layer 'Floor' is in chunks, as an infinite"):
        to_scenario(path)
    stray = text.replace('<tileset firstgid="1"', '<tileset firstgid="3"', 1)
    path.write_text(stray, encoding="utf-8")
    with pytest.raises(TiledError) as refused:
        to_scenario(path)
    assert str(refused.value).splitlines()[:2] == [
        f"{path}: layer 'Floor': tile number {gid} belongs to no tileset ({cells} cells, the "
        f"first at {first} in layer 'Floor'); the map is damaged (save it again in Tiled)"
        for gid, cells, first in ((1, 64, "[1, 1]"), (2, 56, "[0, 0]"))
    ]


def test_an_item_without_its_equipment_is_named(tmp_path: Path) -> None:
    path = _dungeon(tmp_path)
    text = path.read_text(encoding="utf-8").replace(' type="healing_potion"', "")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TiledError) as refused:
        to_scenario(path)
    assert str(refused.value) == (
        f"{path}: layer 'items', object '5': an item needs its equipment (dagger, rope...) as its "
        "class"
    )
    path.write_text(text.replace('<object id="5"', '<object id="5" type="ladder"'))
    with pytest.raises(TiledError, match=r"as a scenario: item needs a known `kind` of equipment"):
        from sim.content.tiled import load_tmx

        load_tmx(path)


def test_kinds_are_for_tiled_maps_only_and_a_map_plays_with_the_file_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["edit", str(tmp_path / "x.toml"), "--kinds", "k.toml"]) == 2
    assert capsys.readouterr().err == (
        "sim edit: --kinds names what a Tiled map's tiles are: give a .tmx map with it\n"
    )
    path = _dungeon(tmp_path)  # dungeon.kinds.toml beside it: `sim run` reads the map directly
    assert main(["run", str(path), "--seed", "3", "--ai", "blue,red"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith('{"type": "battle_ended"')
