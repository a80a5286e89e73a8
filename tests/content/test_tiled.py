"""Tiled maps (sim/content/tiled.py): export, import back to the same world, and bad input
refused."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content.scenario import load, loads
from sim.content.tiled import TiledError, to_scenario, write_tmx
from sim.core.geometry import Pos
from sim.core.grid import Kind

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_export_then_import_gives_the_same_world(path: Path, tmp_path: Path) -> None:
    write_tmx(path, tmp_path / "map.tmx")
    text, warnings = to_scenario(tmp_path / "map.tmx")
    assert warnings == []
    # Read as if written back beside the scenario, where its content packs are (ogre_ford).
    before, after = load(path), loads(text, str(path))
    assert after.world.grid.same_as(before.world.grid)
    assert after.world == before.world
    assert after.objectives == before.objectives


def test_the_shipped_tmx_is_played() -> None:
    from sim.tools.batch import Plan, play_game

    text, _ = to_scenario(ROOT / "scenarios" / "skirmish.tmx")
    scenario = loads(text, "skirmish.tmx")
    game = play_game(Plan(scenario, (("blue", "normal"), ("red", "normal"))), 0)
    assert game.result in ("won", "draw", "capped") and game.rounds >= 1


def test_import_tiled_writes_a_scenario_sim_check_accepts(tmp_path: Path) -> None:
    out = tmp_path / "skirmish.toml"
    assert main(["import-tiled", str(ROOT / "scenarios" / "skirmish.tmx"), "--out", str(out)]) == 0
    assert main(["check", str(out)]) == 0


def _tmx(tmp_path: Path, tile_props: str, extra: str = "", units: str = "") -> Path:
    path = tmp_path / "bad.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" orientation="orthogonal" renderorder="right-down" width="2" '
        'height="1" tilewidth="32" tileheight="32" infinite="0" nextlayerid="3" nextobjectid="2">\n'
        ' <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="1" '
        'columns="0">\n'
        f'  <tile id="0"><properties>{tile_props}</properties>'
        '<image width="32" height="32" source="missing.png"/></tile>\n'
        " </tileset>\n"
        ' <layer id="1" name="ground" width="2" height="1">\n'
        f'  <data encoding="csv">1,{extra or "1"}</data>\n </layer>\n'
        f' <objectgroup id="2" name="units">{units}</objectgroup>\n'
        "</map>\n"
    )
    return path


def test_a_wrong_kind_names_the_layer_and_the_tile(tmp_path: Path) -> None:
    path = _tmx(tmp_path, '<property name="kind" value="lava"/>')
    with pytest.raises(
        TiledError, match=r"layer 'ground', the tile at \[0, 0\]: kind 'lava' is not"
    ):
        to_scenario(path)


def test_a_cell_with_no_kind_is_named(tmp_path: Path) -> None:
    path = _tmx(tmp_path, '<property name="kind" value="open"/>', extra="0")
    with pytest.raises(TiledError, match=r"no tile layer gives these cells a kind: \[1, 0\]"):
        to_scenario(path)


def test_a_half_metre_step_is_needed_and_typos_are_warned_about(tmp_path: Path) -> None:
    path = _tmx(
        tmp_path,
        '<property name="kind" value="open"/><property name="elevation" type="float" value="0.3"/>',
    )
    with pytest.raises(
        TiledError, match=r"elevation must be 0 to 1000 in half-metre steps, not 0\.3"
    ):
        to_scenario(path)
    unit = (
        '<object id="1" name="ana" type="human_fighter" x="0" y="0" width="32" height="32">'
        '<properties><property name="team" value="blue"/></properties></object>'
    )
    path = _tmx(
        tmp_path,
        '<property name="kind" value="open"/><property name="kidn" value="x"/>',
        units=unit,
    )
    text, warnings = to_scenario(path)
    assert warnings == [
        f"{path}: properties outside the schema were left alone: tile property 'kidn'"
    ]
    assert loads(text).world.exists("ana")


def test_entity_bombs_and_external_entities_are_refused_fast(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.tmx"
    lol = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    bomb.write_text(f'<?xml version="1.0"?><!DOCTYPE map [<!ENTITY l0 "lol">{lol}]><map>&l9;</map>')
    start, cpu = time.monotonic(), time.process_time()
    with pytest.raises(TiledError, match=r"bomb.tmx: line 1: the file declares entities; Tiled"):
        to_scenario(bomb)
    # Fast in this process's CPU, which a shared machine's load does not lengthen; and no
    # wait on anything by the clock.
    assert time.process_time() - cpu < 1
    assert time.monotonic() - start < 60
    xxe = tmp_path / "xxe.tmx"
    xxe.write_text(
        '<?xml version="1.0"?><!DOCTYPE map [<!ENTITY x SYSTEM "file:///etc/passwd">]><map>&x;</map>'
    )
    with pytest.raises(TiledError, match=r"xxe.tmx: line 1: the file declares entities; Tiled"):
        to_scenario(xxe)
    assert main(["import-tiled", str(xxe), "--out", str(tmp_path / "x.toml")]) == 1
    assert not (tmp_path / "x.toml").exists()


def test_a_map_drawn_for_another_tool_imports_with_its_extras_left_alone(tmp_path: Path) -> None:
    """zlib/base64 layer data, a flipped tile, a polygon layer, tile names and collision shapes,
    a tileset image that is not there: ignored, and the properties outside the schema named once."""
    import base64
    import struct
    import zlib

    flip = 0x80000000  # flipped horizontally
    gids = [1, 1, 1, 2 | flip, 2, 1]
    data = base64.b64encode(zlib.compress(struct.pack("<6I", *gids))).decode()
    path = tmp_path / "foreign.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" orientation="orthogonal" renderorder="right-down" width="3" '
        'height="2" tilewidth="16" tileheight="16" infinite="0" nextlayerid="4" '
        'nextobjectid="3">\n'
        ' <properties><property name="name" value="Foreign"/>'
        '<property name="author" value="someone"/></properties>\n'
        ' <tileset firstgid="1" name="dungeon" tilewidth="16" tileheight="16" tilecount="2" '
        'columns="2"><image source="nowhere/dungeon.png" width="32" height="16"/>\n'
        '  <tile id="0"><properties><property name="kind" value="open"/>'
        '<property name="name" value="floor"/></properties></tile>\n'
        '  <tile id="1"><properties><property name="kind" value="wall"/></properties>'
        '<objectgroup draworder="index"><object id="1" x="0" y="0" width="16" height="16"/>'
        "</objectgroup></tile>\n"
        " </tileset>\n"
        ' <layer id="1" name="floor" width="3" height="2">'
        f'<data encoding="base64" compression="zlib">{data}</data></layer>\n'
        ' <objectgroup id="2" name="lights"><object id="1" x="3" y="3">'
        '<polygon points="0,0 10,0 10,10"/></object></objectgroup>\n'
        ' <objectgroup id="3" name="units"><object id="2" name="ana" type="human_fighter" '
        'x="20" y="4" width="8" height="8"><properties><property name="team" value="blue"/>'
        "</properties></object></objectgroup>\n"
        "</map>\n"
    )
    text, warnings = to_scenario(path)
    assert warnings == [
        f"{path}: properties outside the schema were left alone: map property 'author', "
        "tile property 'name'"
    ]
    scenario = loads(text)
    grid = scenario.world.grid
    assert [grid.kind(p).name for p in grid.cells()] == ["OPEN"] * 3 + ["WALL", "WALL", "OPEN"]
    assert scenario.name == "Foreign"


def test_sim_play_of_a_tmx_names_the_map_in_its_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unit = (
        '<object id="1" name="ana" type="human_fighter" x="0" y="0" width="32" height="32">'
        '<properties><property name="team" value="blue"/></properties></object>'
    )
    path = _tmx(tmp_path, '<property name="kind" value="wall"/>', units=unit)
    assert main(["play", str(path), "--text"]) == 1
    assert capsys.readouterr().err == (
        f"{path}: as a scenario: unit 'ana' stands in wall at (0,0)\n"
    )
    assert main(["play", str(ROOT / "scenarios" / "skirmish.tmx"), "--text"]) == 0
    assert "Skirmish at the ford" in capsys.readouterr().out


def _with_tileset(tmp_path: Path, tileset: str, ground: str, over: str) -> Path:
    path = tmp_path / "room.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" '
        'height="3" tilewidth="32" tileheight="32" infinite="0" nextlayerid="3" nextobjectid="1">\n'
        f' <tileset firstgid="1" source="{tileset}"/>\n'
        f' <layer id="1" name="ground" width="4" height="3"><data encoding="csv">{ground}</data>'
        "</layer>\n"
        f' <layer id="2" name="over" width="4" height="3"><data encoding="csv">{over}</data>'
        "</layer>\n"
        "</map>\n"
    )
    return path


def test_the_shipped_tileset_draws_kinds_heights_and_water_in_layers(tmp_path: Path) -> None:
    """assets/tiled/terrain.tsx, copied beside the map (a map names only files in its own
    folder tree): kinds in one layer, a 1.5 m rise and 1 m of water above."""
    import shutil

    shutil.copy(ROOT / "assets" / "tiled" / "terrain.tsx", tmp_path / "terrain.tsx")
    tsx = "terrain.tsx"
    # gids: 1 open, 3 wall, 9 elevation 1.5, 15 depth 1, 21 climbable
    ground = "3,3,3,3,3,1,1,3,3,3,3,3"
    over = "0,0,0,0,0,9,15,0,0,0,0,0"
    text, warnings = to_scenario(_with_tileset(tmp_path, tsx, ground, over))
    assert warnings == []
    state = me_state(text)
    assert (state.at(Pos(1, 1)).kind, state.at(Pos(1, 1)).height) == (Kind.OPEN, 3)
    assert (state.at(Pos(2, 1)).water, state.at(Pos(0, 0)).kind) == (2, Kind.WALL)


def test_an_external_tileset_with_entities_is_refused(tmp_path: Path) -> None:
    (tmp_path / "evil.tsx").write_text(
        '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        '<tileset name="e" tilewidth="32" tileheight="32" tilecount="1" columns="0">&x;</tileset>'
    )
    path = _with_tileset(tmp_path, "evil.tsx", "1,1,1,1,1,1,1,1,1,1,1,1", "0,0,0,0,0,0,0,0,0,0,0,0")
    with pytest.raises(TiledError, match=r"evil.tsx: line 1: the file declares entities"):
        to_scenario(path)


def me_state(text: str):  # type: ignore[no-untyped-def]
    from sim.content import mapedit

    return mapedit.open_text(text).state


def test_sim_edit_opens_a_tmx_to_save_beside_it_as_toml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    import sim.ui.input.app
    import sim.ui.input.editor

    opened: list[tuple[object, str | None]] = []
    monkeypatch.setattr(sim.ui.input.app, "display_problem", lambda: None)
    monkeypatch.setattr(
        sim.ui.input.editor,
        "edit",
        lambda source, out, scale=None, palette=None: opened.append((source, out)) or 0,
    )
    shutil.copy(ROOT / "scenarios" / "skirmish.tmx", tmp_path / "ford.tmx")
    assert main(["edit", str(tmp_path / "ford.tmx")]) == 0
    [(source, out)] = opened
    assert out == str(tmp_path / "ford.toml")
    assert [u.id for u in source.state.units] == ["ana", "bram", "grok", "vex"]


@pytest.mark.slow
def test_import_tiled_prints_only_its_own_words(tmp_path: Path) -> None:
    """Nothing but the command's line reaches standard output (pytmx, which read maps before,
    loaded pygame's tools and its banner; a fresh process, as a user runs it)."""
    import os
    import subprocess
    import sys

    out = tmp_path / "skirmish.toml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sim",
            "import-tiled",
            str(ROOT / "scenarios" / "skirmish.tmx"),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
        env={k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"wrote {out}"]
