"""Issue #37: a map from the internet never crashes, hangs or fills the memory. Each class of
broken or hostile map the issue found is refused in one line naming the file, the place and
what to do, and a refused map writes nothing (sim/content/tmx.py, sim/data/limits.toml)."""

from __future__ import annotations

import base64
import os
import re
import time
import zlib
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content.tiled import TiledError, to_scenario
from sim.core.limits import LimitsError, parse_limits
from tests.helpers import first_fast

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = (ROOT / "scenarios" / "skirmish.tmx").read_text(encoding="utf-8")
HEADER = 'width="14" height="7" tilewidth="32" tileheight="32"'
TILESET = re.compile(r' <tileset firstgid="1".*?</tileset>\n', re.S)


def _map(tmp_path: Path, text: str, name: str = "t.tmx") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _refused(
    path: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, seconds: float = 5.0
) -> str:
    """`sim import-tiled` refuses the map in one line, quickly, and leaves --out alone.
    Quickly: within `seconds` of this process's CPU, which others' load on a shared machine
    does not lengthen (a loaded run took longer by the clock), and within a minute of the
    clock, which a loader waiting on something never given would pass."""
    out = tmp_path / "out.toml"
    out.write_text("# kept\n", encoding="utf-8")
    start, cpu = time.monotonic(), time.process_time()
    assert main(["import-tiled", str(path), "--out", str(out)]) == 1
    assert time.process_time() - cpu < seconds
    assert time.monotonic() - start < 60
    err = capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "# kept\n"
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err.rstrip("\n")


def _header(**attrs: str) -> str:
    text = SKIRMISH
    for key, value in attrs.items():
        text = re.sub(rf'(<map [^>]*?\b){key}="[^"]*"', rf'\g<1>{key}="{value}"', text, count=1)
    return text


# --- the seven classes of the issue -------------------------------------------------------------


def test_1_a_tile_width_of_0_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _map(tmp_path, _header(tilewidth="0"))
    assert _refused(path, capsys, tmp_path) == (
        f"{path}: tiles of 0 × 32 pixels; a tile needs 1 to 16,384 pixels each way "
        "(Map > Map Properties: Tile Width and Tile Height)"
    )


def test_2_a_map_with_no_rows_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _map(tmp_path, "<tileset/>")
    assert _refused(path, capsys, tmp_path) == (
        f"{path}: line 1: the file holds a <tileset>, not the <map> of a Tiled map"
    )
    path = _map(tmp_path, "<map/>")
    assert _refused(path, capsys, tmp_path) == (
        f"{path}: line 1: the map's width is missing; Tiled always writes one"
    )
    path = _map(tmp_path, _header(height="0"))
    assert _refused(path, capsys, tmp_path) == (
        f"{path}: 14 × 0 cells; a map needs at least 1 each way"
    )


def test_3_a_negative_width_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _map(tmp_path, _header(width="-1"))
    assert _refused(path, capsys, tmp_path) == (
        f"{path}: -1 × 7 cells; a map needs at least 1 each way"
    )


def _tileset(source: str) -> str:
    return TILESET.sub(lambda _: f' <tileset firstgid="1" source="{source}"/>\n', SKIRMISH)


def test_4_a_tileset_that_is_a_folder_a_long_name_or_outside_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = {
        "/": "an absolute path; a map may only name files beside it or in folders below it",
        "../x.tsx": "outside the map's folder; a map may only name files beside it or in "
        "folders below it (copy the tileset next to the map)",
        "a" * 300 + ".tsx": "cannot read the file: File name too long",
        "folder.tsx": "a folder, not a file",
        "tiles.json": "only .tsx tilesets can be read; in Tiled, export the tileset as a .tsx file",
    }
    (tmp_path / "folder.tsx").mkdir()
    for source, reason in cases.items():
        path = _map(tmp_path, _tileset(source))
        named = repr(source if len(source) <= 60 else source[:60] + "…")
        assert _refused(path, capsys, tmp_path) == (
            f"{path}: line 9: tileset source {named}: {reason}"
        )


def test_5_a_tileset_that_is_a_device_or_a_pipe_is_never_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _map(tmp_path, _tileset("/dev/zero"))
    assert "tileset source '/dev/zero': an absolute path" in _refused(path, capsys, tmp_path)
    (tmp_path / "zero.tsx").symlink_to("/dev/zero")
    path = _map(tmp_path, _tileset("zero.tsx"))
    assert "tileset source 'zero.tsx': outside the map's folder" in _refused(path, capsys, tmp_path)
    os.mkfifo(tmp_path / "pipe.tsx")  # inside the folder: opened without waiting, not read
    path = _map(tmp_path, _tileset("pipe.tsx"))
    assert _refused(path, capsys, tmp_path) == (
        f"{path}: line 9: tileset source 'pipe.tsx': not a regular file but a device or a "
        "pipe; name a file"
    )
    with open(tmp_path / "huge.tsx", "wb") as huge:
        huge.truncate(17 << 20)  # sparse: refused by its size, never read
    path = _map(tmp_path, _tileset("huge.tsx"))
    assert _refused(path, capsys, tmp_path) == (
        f"{path}: line 9: tileset source 'huge.tsx': 17,825,792 bytes; a tileset may have at "
        "most 16,777,216"
    )


def test_6_a_map_larger_than_1024_cells_each_way_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _map(tmp_path, _header(width="5000", height="5000"), "desert.tmx")
    assert _refused(path, capsys, tmp_path, 2.0) == (
        f"{path}: 5000 × 5000 cells; at most 1024 each way"
    )
    path = _map(tmp_path, _header(width="1000000000000", height="1"))
    assert _refused(path, capsys, tmp_path, 2.0) == (
        f"{path}: 1000000000000 × 1 cells; at most 1024 each way"
    )


def zeros_bomb(mebibytes: int) -> bytes:
    """A zlib stream that inflates to `mebibytes` MiB of zeros, made in a fraction of a second:
    a MiB deflated and then fully flushed is a block that refers to nothing before it, so the
    stream is the first such block (after the header), that block again and again, the end,
    and the Adler-32 of all those zeros. (Deflating all 400 MiB took 2.5 s in the fast lane;
    the stream made this way was checked once to inflate to them, checksum and all.)"""
    zero = bytes(1 << 20)
    packer = zlib.compressobj(9)
    first = packer.compress(zero) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(zero) + packer.flush(zlib.Z_FULL_FLUSH)
    end = packer.flush()[:-4]  # the last (empty) block, without the checksum of two MiB
    check = 1
    for _ in range(mebibytes):
        check = zlib.adler32(zero, check)
    return first + block * (mebibytes - 1) + end + check.to_bytes(4, "big")


def test_the_zeros_bomb_inflates_to_its_zeros() -> None:
    """The bomb's making, checked on a small one (a stream of blocks each fully flushed)."""
    assert zlib.decompress(zeros_bomb(3)) == bytes(3 << 20)


def test_7_a_zlib_bomb_in_a_layer_is_refused_at_the_layers_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bomb = zeros_bomb(400)
    data = f'<data encoding="base64" compression="zlib">{base64.b64encode(bomb).decode()}</data>'
    text = re.sub(r'<data encoding="csv">.*?</data>', data, SKIRMISH, count=1, flags=re.S)
    path = _map(tmp_path, text)
    assert _refused(path, capsys, tmp_path, 2.0) == (
        f"{path}: line 37: layer 'terrain': the zlib data inflates to more than 392 bytes, "
        "the most 98 cells need; the layer is damaged (or a bomb)"
    )


# --- the rest of the issue ----------------------------------------------------------------------


def test_3000_layers_are_refused_at_the_257th(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layer = re.search(r' <layer id="1".*?</layer>\n', SKIRMISH, re.S)
    assert layer is not None
    path = _map(tmp_path, SKIRMISH.replace(layer.group(0), layer.group(0) * 3000))
    assert _refused(path, capsys, tmp_path, 2.0) == (
        f"{path}: line 2852: more than 256 layers; a map may have at most 256"
    )


def test_xml_past_its_limits_is_refused_by_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = SKIRMISH.replace(" <properties>", " <properties>" + "<x>" * 100 + "</x>" * 100, 1)
    path = _map(tmp_path, deep)
    assert _refused(path, capsys, tmp_path) == (
        f"{path}: line 3: elements nested more than 64 deep"
    )
    long = SKIRMISH.replace("Skirmish at the ford", "x" * 70_000)
    path = _map(tmp_path, long)
    assert _refused(path, capsys, tmp_path) == (
        f"{path}: line 4: <property> attribute 'value' has 70,000 characters; at most 65,536"
    )


@pytest.mark.slow  # megabytes of markup; the refusals by line above stay in the fast lane
def test_xml_past_its_size_limits_is_refused_by_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    attributes = " ".join(f'a{i}=""' for i in range(200_000))  # 1.4 MB in one tag
    path = _map(tmp_path, SKIRMISH.replace("<map ", f"<map {attributes} ", 1))
    assert _refused(path, capsys, tmp_path) == (
        f"{path}: line 2: a tag (or other markup) of more than 1,048,576 bytes; the file is "
        "damaged or not a Tiled file"
    )
    many = SKIRMISH.replace("<properties>", "<properties>" + "<x/>" * 250_001, 1)
    path = _map(tmp_path, many)
    assert _refused(path, capsys, tmp_path, 10.0) == (f"{path}: line 3: more than 250,000 elements")


def test_entities_are_refused_and_a_doctype_alone_is_read(tmp_path: Path) -> None:
    """Tiled before 1.0 wrote a DOCTYPE naming its DTD: harmless, never fetched."""
    old = SKIRMISH.replace(
        "?>\n", '?>\n<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n', 1
    )
    assert to_scenario(_map(tmp_path, old)) == to_scenario(ROOT / "scenarios" / "skirmish.tmx")
    entity = SKIRMISH.replace("?>\n", '?>\n<!DOCTYPE map [<!ENTITY e "ford">]>\n', 1)
    with pytest.raises(TiledError, match=r"t.tmx: line 2: the file declares entities; Tiled"):
        to_scenario(_map(tmp_path, entity))


def test_old_and_foreign_layer_formats_import_and_damaged_ones_are_named(tmp_path: Path) -> None:
    """The XML <tile gid> layers of old Tiled, gzip; data one cell short, unknown encodings."""
    same = to_scenario(ROOT / "scenarios" / "skirmish.tmx")

    def layer(data: str) -> Path:
        csv = r'<data encoding="csv">.*?</data>'
        return _map(tmp_path, re.sub(csv, data, SKIRMISH, count=1, flags=re.S))

    gids = re.search(r'<data encoding="csv">(.*?)</data>', SKIRMISH, re.S)
    assert gids is not None
    cells = [int(g) for g in gids.group(1).replace("\n", "").split(",")]
    xml = "<data>" + "".join(f'<tile gid="{g}"/>' for g in cells) + "</data>"
    assert to_scenario(layer(xml)) == same
    import gzip
    import struct

    packed = base64.b64encode(gzip.compress(struct.pack(f"<{len(cells)}I", *cells))).decode()
    assert to_scenario(layer(f'<data encoding="base64" compression="gzip">{packed}</data>')) == (
        same
    )
    short = ",".join(map(str, cells[:-1]))
    with pytest.raises(TiledError, match=r"line 37: layer 'terrain' has 97 tiles for 14 × 7"):
        to_scenario(layer(f'<data encoding="csv">{short}</data>'))
    with pytest.raises(TiledError, match=r"'lzma' compression cannot be read here; in Tiled"):
        to_scenario(layer(f'<data encoding="base64" compression="lzma">{packed}</data>'))
    # zstd (issue #31), where the zstandard package is installed (the test extra has it).
    import zstandard

    raw = struct.pack(f"<{len(cells)}I", *cells)
    squeezed = base64.b64encode(zstandard.ZstdCompressor().compress(raw)).decode()
    assert to_scenario(layer(f'<data encoding="base64" compression="zstd">{squeezed}</data>')) == (
        same
    )
    with pytest.raises(TiledError, match=r"line 37: layer 'terrain': the zstd data is damaged"):
        to_scenario(layer(f'<data encoding="base64" compression="zstd">{packed}</data>'))
    bomb = base64.b64encode(zstandard.ZstdCompressor().compress(bytes(1 << 24))).decode()
    with pytest.raises(TiledError, match=r"the zstd data inflates to more than 392 bytes, the"):
        to_scenario(layer(f'<data encoding="base64" compression="zstd">{bomb}</data>'))


def test_a_map_that_fails_as_a_scenario_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, import-tiled wrote the scenario and then listed its problems."""
    text = SKIRMISH.replace('name="vex" type="orc_raider"', 'name="vex" type="dragon"')
    path = _map(tmp_path, text)
    out = tmp_path / "out.toml"
    out.write_text("# kept\n", encoding="utf-8")
    assert main(["import-tiled", str(path), "--out", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"{path}: as a scenario: unknown template 'dragon'")
    assert err[1] == f"nothing was written to {out}"
    assert out.read_text(encoding="utf-8") == "# kept\n"


def test_a_thousand_and_one_units_are_refused_before_they_are_written(tmp_path: Path) -> None:
    unit = re.search(r'  <object id="4" name="vex".*?</object>\n', SKIRMISH, re.S)
    assert unit is not None
    path = _map(tmp_path, SKIRMISH.replace(unit.group(0), unit.group(0) * 998))
    with pytest.raises(TiledError, match=r"t.tmx: 1,001 units; a map may have at most 1,000"):
        to_scenario(path)


# --- every file the simulator reads ------------------------------------------------------------


@pytest.mark.parametrize("count", first_fast([60, 200_000]))
def test_sim_check_lists_50_problems_and_counts_the_rest(
    count: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "keys.toml"
    keys = "".join(f"k{i} = 1\n" for i in range(count))
    path.write_text(keys + (ROOT / "scenarios" / "skirmish.toml").read_text(encoding="utf-8"))
    assert main(["check", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 51
    assert lines[0].startswith(f"{path}:1: unknown key 'k0' (expected one of")
    assert lines[-1] == f"… and {count - 50:,} more"


def test_a_scenario_save_or_script_that_is_a_device_or_too_large_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "/dev/zero"]) == 1
    assert capsys.readouterr().out == (
        "/dev/zero:1: not a regular file but a device or a pipe; name a file\n"
    )
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as out:
        out.truncate(20_000_000)
    assert main(["check", str(huge)]) == 1
    assert capsys.readouterr().out == (
        f"{huge}:1: 20,000,000 bytes; a scenario file may have at most 16,777,216\n"
    )
    skirmish = str(ROOT / "scenarios" / "skirmish.toml")
    assert main(["run", skirmish, "--script", "/dev/zero"]) == 2
    assert capsys.readouterr().err == (
        "sim run: cannot read the script /dev/zero: not a regular file but a device or a "
        "pipe; name a file\n"
    )
    from sim.formats.replay import ReplayError, read

    with pytest.raises(ReplayError, match=r"^/dev/zero: cannot read the save: not a regular"):
        read("/dev/zero")


def test_the_limits_file_is_checked_key_by_key() -> None:
    import tomllib

    raw = tomllib.loads((ROOT / "sim" / "data" / "limits.toml").read_text(encoding="utf-8"))
    assert parse_limits(raw).map.side == 1024
    with pytest.raises(LimitsError, match=r"\[map\] side must be a whole number of 1 or more"):
        parse_limits({**raw, "map": {**raw["map"], "side": 0}})
    with pytest.raises(LimitsError, match=r"\[tiled\] layer is not a limit"):
        parse_limits({**raw, "tiled": {**raw["tiled"], "layer": 3}})
    with pytest.raises(LimitsError, match=r"\[problems\] is missing"):
        parse_limits({k: v for k, v in raw.items() if k != "problems"})
