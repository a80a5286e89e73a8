"""Issue #31: the map editor gives a Tiled map's tiles their kinds by looking. Driven headless:
the desert stand-in opened without a kinds file, a cactus and a boulder clicked in the palette
and given kinds, a cell painted by hand, units placed, undo, and the save that writes the
scenario and the kinds file; then `sim import-tiled` takes the saved kinds file as it is."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from sim.cli.main import main
from sim.content import mapedit as me
from sim.content import tilekinds as tk
from sim.content.tileart import TileArt, size_of
from sim.content.tiled import scenario_text
from sim.content.tilepalette import TilePalette, open_palette
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.ui.input.editor import Editor

ROOT = Path(__file__).resolve().parents[2]


def _press(editor: Editor, pos: tuple[int, int], button: int = 1) -> None:
    editor.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    editor.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def _cell(editor: Editor, cell: Pos, button: int = 1) -> None:
    _press(editor, editor.camera.centre(cell), button)


def _tile(editor: Editor, tile: int) -> None:
    """Click the palette's thumbnail of the Desert tileset's `tile`."""
    editor.frame()
    [rect] = [r for r, key in editor._tile_rects if key == ("Desert", tile)]
    _press(editor, rect.center)


def _kind(editor: Editor, kind: Kind) -> None:
    editor.frame()
    [rect] = [r for r, k in editor._kind_rects if k is kind]
    _press(editor, rect.center)


@pytest.fixture
def desert(tmp_path: Path) -> tuple[Editor, Path]:
    folder = tmp_path / "desert"
    shutil.copytree(ROOT / "docs" / "examples" / "desert", folder)
    path = folder / "desert.tmx"
    palette = open_palette(path)
    source = me.open_text(scenario_text(palette.imported), str(folder / "desert.toml"))
    editor = Editor(source, (1280, 800), save_to=str(folder / "desert.toml"), palette=palette)
    return editor, path


def test_a_maker_gives_the_desert_s_tiles_kinds_by_looking_and_saves_both_files(
    desert: tuple[Editor, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    ed, path = desert
    assert ed.message.startswith("31 tiles had no kind and were guessed: click a tile")
    assert ed.palette is not None and ed.sheet is not None
    ed.frame()
    assert len(ed._tile_rects) == 31
    # The palette shows the tiles as the tileset's image draws them (no swatch was needed).
    assert ed.sheet.reasons == {}
    _tile(ed, 37)  # a cactus
    assert ed.tile == ("Desert", 37)
    _kind(ed, Kind.DIFFICULT)
    assert ed.message == "Tile 37 of Desert: difficult"
    assert [ed.state.at(p).kind for p in (Pos(14, 3), Pos(2, 13))] == [Kind.DIFFICULT] * 2
    # A cell painted by hand keeps its paint when its tile is given another kind.
    ed.paint, ed.paint_name = me.set_kind(Kind.WALL), "wall"
    _cell(ed, Pos(1, 1))  # a boulder, tile 45
    assert ed.state.at(Pos(1, 1)).kind is Kind.WALL
    _tile(ed, 45)
    _kind(ed, Kind.COVER)
    assert ed.state.at(Pos(1, 1)).kind is Kind.WALL  # painted: kept
    assert ed.state.at(Pos(21, 12)).kind is Kind.COVER  # the other boulder of tile 45
    # Right-click picks the tile that decides a cell; Enter sets its numbers.
    _cell(ed, Pos(5, 3), button=3)
    assert ed.tile == ("Desert", 33)
    assert ed.apply_field("height = 1") == "Tile 33 of Desert: open, ground 1 m"
    assert ed.state.at(Pos(5, 3)).height == 2 and ed.state.at(Pos(0, 0)).height == 0
    assert ed.apply_field("height = 0.3").startswith("height must be 0 to 1000 metres")
    # Undo takes a choice back with its cells.
    ed.history.undo()
    assert ed.state.at(Pos(5, 3)).height == 0
    assert dict(ed.state.tile_kinds)[("Desert", 33)] == tk.Entry(Kind.OPEN)
    ed.history.redo()
    # Two units, one each side, then save: the scenario and the kinds file.
    ed.shape, ed.team = "unit", 0
    _cell(ed, Pos(2, 10))
    ed.team = 1
    _cell(ed, Pos(21, 10))
    assert ed.save() is True
    kinds = path.with_name("desert.kinds.toml")
    assert ed.message == f"Saved {path.with_suffix('.toml')} and {kinds}"
    assert main(["check", str(path.with_suffix(".toml"))]) == 0
    saved = tk.load(str(kinds))
    assert saved.ids["Desert"][37] == tk.Entry(Kind.DIFFICULT)
    assert saved.ids["Desert"][45] == tk.Entry(Kind.COVER)
    assert saved.ids["Desert"][33] == tk.Entry(Kind.OPEN, height=2)
    assert len(saved.ids["Desert"]) == 31  # every guess written, so the map imports as seen
    # The kinds file beside the map is what `sim import-tiled` now takes; the map itself has no
    # units (they are in the editor's scenario), so the import says where they come from.
    out = path.with_name("again.toml")
    assert main(["import-tiled", str(path), "--out", str(out)]) == 1
    assert "the map has no units" in capsys.readouterr().err
    ed.frame()  # draws with the map's art, kinds marked


def test_the_palette_keeps_a_hand_written_kinds_file_and_adds_only_what_changed(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "desert"
    shutil.copytree(ROOT / "docs" / "examples" / "desert", folder)
    finished = folder / "desert.kinds.finished.toml"
    kinds = folder / "desert.kinds.toml"
    shutil.copy(finished, kinds)
    palette = open_palette(folder / "desert.tmx")
    assert palette.guessed() == []
    source = me.open_text(scenario_text(palette.imported))
    state = me.MapState(**{**source.state.__dict__, "tile_kinds": palette.initial()})
    assert palette.kinds_text(state) is None  # nothing changed: the file is not written
    state = palette.assign(state, ("Desert", 38), tk.Entry(Kind.WALL))
    text = palette.kinds_text(state)
    assert text is not None
    assert text.startswith(finished.read_text(encoding="utf-8").rstrip("\n"))
    assert text.rstrip("\n").endswith('38 = "wall"')
    assert tk.parse(text).find("Desert", 38) == (tk.Entry(Kind.WALL), "[tileset.Desert] 38")


def test_a_map_of_our_own_schema_saves_no_kinds_file(tmp_path: Path) -> None:
    shutil.copy(ROOT / "scenarios" / "skirmish.tmx", tmp_path / "ford.tmx")
    palette = open_palette(tmp_path / "ford.tmx")
    assert palette.guessed() == [] and all(u.source == "its properties" for u in palette.uses)
    source = me.open_text(scenario_text(palette.imported), str(tmp_path / "ford.toml"))
    ed = Editor(source, (1280, 800), save_to=str(tmp_path / "ford.toml"), palette=palette)
    assert ed.save() is True
    assert ed.message == f"Saved {tmp_path / 'ford.toml'}"
    assert not (tmp_path / "ford.kinds.toml").exists()


def test_tile_images_are_measured_before_they_are_decoded(tmp_path: Path) -> None:
    """A PNG that declares 100,000 × 100,000 pixels is refused from its header; a web address
    and a file outside the map's folder give a swatch and the reason."""
    import struct
    import zlib

    png = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR"
    png += struct.pack(">IIBBBBB", 100_000, 100_000, 8, 6, 0, 0, 0)
    png += struct.pack(">I", zlib.crc32(png[12:29]))
    assert size_of(png) == ("png", 100_000, 100_000)
    (tmp_path / "huge.png").write_bytes(png)
    art = TileArt(tmp_path / "map.tmx")
    assert art.image(tmp_path, "huge.png") == (
        "its image huge.png is 100000 × 100000 pixels; at most 16,777,216 in all"
    )
    assert art.image(tmp_path, "https://example.org/t.png").startswith("its image is on the web")
    assert art.image(tmp_path, "../t.png") == "its image is outside the map's folder"
    assert art.image(tmp_path, "none.png") == (
        "its image none.png: cannot read the file: No such file or directory"
    )
    shutil.copy(ROOT / "docs" / "examples" / "desert" / "tmw_desert_spacing.png", tmp_path)
    found = art.image(tmp_path, "tmw_desert_spacing.png")
    assert not isinstance(found, str) and found[1:] == ("png", 265, 199)


def test_a_tile_without_its_image_is_a_swatch_with_the_reason(tmp_path: Path) -> None:
    """The zstd map's second tileset names an image that is not there."""
    shutil.copytree(Path(__file__).resolve().parents[1] / "content" / "foreign" / "twosets",
                    tmp_path / "twosets")  # fmt: skip
    palette: TilePalette = open_palette(tmp_path / "twosets" / "meadow.tmx")
    source = me.open_text(scenario_text(palette.imported))
    ed = Editor(source, (1280, 800), save_to=str(tmp_path / "m.toml"), palette=palette)
    ed.frame()
    assert ed.sheet is not None
    assert ed.sheet.reasons == {
        ("Stones", 7): "its image stones.png: cannot read the file: No such file or directory"
    }
