"""Issue #37: Tiled maps from anywhere, mutated at random, through `sim import-tiled`. Each case
imports, or is refused with short lines that name the map (or a file it names), within 10 s and
1 GiB; a refused map leaves the existing --out file as it was. The operators are those of the
issue: sizes, encodings, zlib/gzip bombs, entities and DOCTYPEs, tileset and template
references, deep XML, many layers, truncation, garbage, and odd property values; and (issue #31)
kinds files beside the map, broken or changing what its tiles are.

The cases run in a worker process (tests/content/tiled_worker.py) whose address space is
limited to what it had after its imports plus 1 GiB (RLIMIT_AS), and which is killed and
started again when a case passes 10 s; the test counts what each operator's cases did and
prints it. The default run is a few hundred cases; `python -m pytest -m long -s
tests/content/test_tiled_fuzz.py` runs thousands. Every case is made by a generator seeded
here, so a run is the same every time.
"""

from __future__ import annotations

import base64
import functools
import gzip
import json
import os
import random
import re
import select
import shutil
import struct
import subprocess
import sys
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parents[2]
SKIRMISH = (TOP / "scenarios" / "skirmish.tmx").read_text(encoding="utf-8")
SECONDS = 10.0
MEGABYTES = 1024
KEEP = "# an --out file that was there before\n"


# --- the maps the mutations start from -------------------------------------------------------


def _foreign() -> tuple[str, dict[str, bytes]]:
    """The skirmish as another tool would write it: base64 + zlib data, the tileset in a .tsx
    beside the map, a unit from an object template (.tx), a group layer, a DOCTYPE."""
    tileset = re.search(r" <tileset firstgid=\"1\"(.*?)>(.*?) </tileset>\n", SKIRMISH, re.S)
    assert tileset is not None
    tsx = f'<?xml version="1.0"?>\n<tileset{tileset.group(1)}>{tileset.group(2)}</tileset>\n'
    text = SKIRMISH.replace(tileset.group(0), ' <tileset firstgid="1" source="sim.tsx"/>\n')
    text = text.replace(
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n',
    )

    def packed(match: re.Match[str]) -> str:
        gids = [int(g) for g in match.group(1).replace("\n", "").split(",")]
        data = base64.b64encode(zlib.compress(struct.pack(f"<{len(gids)}I", *gids))).decode()
        return f'<data encoding="base64" compression="zlib">{data}</data>'

    text = re.sub(r'<data encoding="csv">\n(.*?)\n</data>', packed, text, flags=re.S)
    text = text.replace(' <layer id="3"', ' <group id="9" name="water">\n <layer id="3"', 1)
    text = re.sub(r'(<layer id="3".*?</layer>\n)', r"\1 </group>\n", text, count=1, flags=re.S)
    unit = re.search(r'  <object id="4" name="vex"[^>]*>.*?</object>\n', text, re.S)
    assert unit is not None
    template = unit.group(0).replace(' name="vex"', "").replace('id="4" ', "")
    tx = f'<?xml version="1.0"?>\n<template>\n{template}</template>\n'
    instance = '  <object id="4" name="vex" template="raider.tx" x="352" y="128"/>\n'
    text = text.replace(unit.group(0), instance)
    return text, {"sim.tsx": tsx.encode(), "raider.tx": tx.encode()}


BASES: list[tuple[str, dict[str, bytes]]] = [(SKIRMISH, {}), _foreign()]


@functools.cache
def _bomb(megabytes: int, gzipped: bool) -> bytes:
    """`megabytes` of zeros, compressed: a few kilobytes that inflate past any layer's size.
    A fully flushed deflate block of a megabyte of zeros is the same bytes wherever it stands,
    so the stream is that block repeated, in a zlib or gzip wrapper with its true checksum."""
    zeros = bytes(1 << 20)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH)
    assert packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH) == block
    stream = block * megabytes + packer.flush()
    if gzipped:
        crc = 0
        for _ in range(megabytes):
            crc = zlib.crc32(zeros, crc)
        size = (megabytes << 20) & 0xFFFFFFFF
        return b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + stream + struct.pack("<II", crc, size)
    adler = 1
    for _ in range(megabytes):
        adler = zlib.adler32(zeros, adler)
    return b"\x78\xda" + stream + struct.pack(">I", adler)


# --- the operators: each turns a map (and the files beside it) into a mutant ------------------

Files = dict[str, bytes]
Operator = Callable[[random.Random, str, Files, Path], str]


def _pick(rng: random.Random, text: str, pattern: str) -> re.Match[str] | None:
    found = list(re.finditer(pattern, text, re.S))
    return rng.choice(found) if found else None


def _swap(text: str, match: re.Match[str] | None, new: str) -> str:
    return text if match is None else text[: match.start()] + new + text[match.end() :]


SIZES = ["0", "-1", "1", "2", "1023", "1024", "1025", "5000", "1000000000000", "abc", "", "1.5"]


def sizes(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """A width, height, tile width or tile height of the map or of a layer, changed."""
    key = rng.choice(["width", "height", "tilewidth", "tileheight"])
    tag = rng.choice(["map", "layer"])
    match = _pick(rng, text, rf'<{tag} [^>]*?\b{key}="[^"]*"')
    if match is None:
        return text
    old = match.group(0)
    return _swap(text, match, re.sub(rf'\b{key}="[^"]*"', f'{key}="{rng.choice(SIZES)}"', old))


def _layer_data(rng: random.Random, cells: list[int]) -> str:
    """`cells` in a random encoding, sometimes one cell short or long, or damaged."""
    if rng.random() < 0.3:
        cells = cells[:-1] if rng.random() < 0.5 else [*cells, 1]
    raw = struct.pack(f"<{len(cells)}I", *cells)
    how = rng.choice(["csv", "base64", "zlib", "gzip", "zstd", "xml", "lzma", "csv-zlib"])
    if how == "csv":
        return '<data encoding="csv">' + ",".join(map(str, cells)) + "</data>"
    if how == "csv-zlib":
        return '<data encoding="csv" compression="zlib">1,2</data>'
    if how == "xml":
        return "<data>" + "".join(f'<tile gid="{g}"/>' for g in cells) + "</data>"
    packed = {
        "base64": raw,
        "zlib": zlib.compress(raw),
        "gzip": gzip.compress(raw),
        "zstd": raw,
        "lzma": raw,
    }[how]
    if rng.random() < 0.2:  # damaged: cut short or a byte changed
        cut = rng.randrange(len(packed) + 1)
        packed = packed[:cut] if rng.random() < 0.5 else packed[:cut] + b"\xff" + packed[cut + 1 :]
    compression = "" if how == "base64" else f' compression="{how}"'
    return f'<data encoding="base64"{compression}>{base64.b64encode(packed).decode()}</data>'


def encodings(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """A tile layer's data written again in another encoding."""
    match = _pick(rng, text, r"<data[^>]*>.*?</data>")
    return _swap(text, match, _layer_data(rng, [rng.choice([0, 1, 2, 3, 4]) for _ in range(98)]))


def bombs(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """A layer whose compressed data inflates to megabytes (up to the issue's 400 MB)."""
    gzipped = rng.random() < 0.5
    data = _bomb(rng.choice([1, 16, 64, 400]), gzipped)
    kind = "gzip" if gzipped else "zlib"
    new = f'<data encoding="base64" compression="{kind}">{base64.b64encode(data).decode()}</data>'
    return _swap(text, _pick(rng, text, r"<data[^>]*>.*?</data>"), new)


def entities(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """A DOCTYPE, harmless or with entities: a billion laughs, an external file, parameters."""
    lol = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    doctypes = [
        '<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">',
        '<!DOCTYPE map PUBLIC "-//x//y" "map.dtd">',
        "<!DOCTYPE map [<!ELEMENT map ANY>]>",
        f'<!DOCTYPE map [<!ENTITY l0 "lol">{lol}]>',
        '<!DOCTYPE map [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
        '<!DOCTYPE map [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>',
        '<!DOCTYPE map [<!ENTITY x SYSTEM "http://localhost/x">]>',
        '<!DOCTYPE map [<!ENTITY e "x">]>',
    ]
    doctype = rng.choice(doctypes)
    text = re.sub(r"<!DOCTYPE[^>]*>\n?", "", text)
    text = text.replace("?>\n", f"?>\n{doctype}\n", 1)
    name = re.search(r"ENTITY (\w+)", doctype)  # a general entity, used in a value
    if name is not None and rng.random() < 0.7:
        text = text.replace('value="Skirmish at the ford"', f'value="&{name.group(1)};"')
    elif rng.random() < 0.2:
        text = text.replace('value="Skirmish at the ford"', 'value="&undeclared;"')
    return text


SOURCES = [
    "/",
    "/dev/zero",
    "/etc/passwd",
    "../outside.tsx",
    "sub/../../outside.tsx",
    "missing.tsx",
    "a" * 300 + ".tsx",
    "folder.tsx",
    "fifo.tsx",
    "zero.tsx",
    "huge.tsx",
    "good.tsx",
    "sub/good.tsx",
    "tileset.json",
    "",
    "C:\\maps\\x.tsx",
    "map.tmx",
]


def _side_files(folder: Path, tileset: bytes) -> None:
    """What a reference may name: a folder, a pipe, a link to /dev/zero, a sparse file past
    the tileset size limit, a good tileset beside the map and below it, one outside."""
    (folder / "folder.tsx").mkdir()
    os.mkfifo(folder / "fifo.tsx")
    (folder / "zero.tsx").symlink_to("/dev/zero")
    with open(folder / "huge.tsx", "wb") as huge:
        huge.truncate(17 << 20)  # sparse: no disk used, the size is what is refused
    (folder / "good.tsx").write_bytes(tileset)
    (folder / "sub").mkdir()
    (folder / "sub" / "good.tsx").write_bytes(tileset)
    (folder.parent / "outside.tsx").write_bytes(tileset)


def references(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """A tileset or a template that names a file elsewhere, or a device, folder or pipe."""
    skirmish, _ = BASES[0]
    found = re.search(r" <tileset firstgid=\"1\"(.*?)>(.*?) </tileset>\n", skirmish, re.S)
    assert found is not None
    tsx = f'<?xml version="1.0"?>\n<tileset{found.group(1)}>{found.group(2)}</tileset>\n'
    _side_files(folder, tsx.encode())
    source = rng.choice(SOURCES)
    if rng.random() < 0.3 and "template=" in text:
        return text.replace('template="raider.tx"', f'template="{source.replace(".tsx", ".tx")}"')
    tileset = re.compile(r' <tileset firstgid="1"(?:[^>]*/>|[^>]*[^/]>.*?</tileset>)\n', re.S)
    named = f' <tileset firstgid="1" source="{source}"/>\n'
    return tileset.sub(lambda _: named, text, count=1)


def deep(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """Elements nested deep: groups round a layer, or properties in properties."""
    depth = rng.choice([5, 60, 70, 1000, 100_000])
    if rng.random() < 0.5:
        match = _pick(rng, text, r" <layer .*?</layer>\n")
        if match is None:
            return text
        return _swap(text, match, '<group name="g">' * depth + match.group(0) + "</group>" * depth)
    return text.replace(" <properties>", " <properties>" + "<x>" * depth + "</x>" * depth, 1)


def many(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """An element repeated many times: layers (the issue's 3,000), objects, tilesets, tiles."""
    count = rng.choice([2, 10, 255, 257, 3000, 20_000])
    pattern = rng.choice(
        [r" <layer .*?</layer>\n", r"  <object .*?</object>\n", r"  <tile id=.*?</tile>\n"]
    )
    match = _pick(rng, text, pattern)
    return _swap(text, match, match.group(0) * count) if match else text


def truncation(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """The map cut off anywhere (a download that stopped)."""
    return text[: rng.randrange(len(text))]


GARBAGE = ["<", ">", "&", '"', "'", "\x00", "]]>", "<!--", "<?", "\ufffd", "é", "\u202e", "&#0;"]


def garbage(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """Characters inserted, deleted or changed at random places."""
    chars = list(text)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(chars))
        roll = rng.random()
        if roll < 0.4:
            chars.insert(at, rng.choice(GARBAGE))
        elif roll < 0.7:
            del chars[at]
        else:
            chars[at] = chr(rng.randrange(0x20, 0x7F))
    return "".join(chars)


VALUES = [
    "",
    "lava",
    "wall",
    "-1",
    "0.3",
    "1e308",
    "nan",
    "true",
    "maybe",
    "[",
    "[" * 5000,
    '[{ kind = "survive" }]',
    "[1, 2]",
    '[{ kind = "reach", team = "blue", at = [99, 99] }]',
    '[{ "a b" = 1 }]',
    "9" * 30,
    "x" * 70_000,
]


def values(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """A property's value (a tile's kind or height, a unit's team or gear, the map's seed,
    items or objectives) set to something odd, or such a property added."""
    if rng.random() < 0.5:
        match = _pick(rng, text, r'<property name="[^"]*"( type="\w+")? value="[^"]*"')
        if match is None:
            return text
        name = re.search(r'name="([^"]*)"', match.group(0))
        assert name is not None
        kind = rng.choice(["", ' type="int"', ' type="float"', ' type="bool"'])
        value = rng.choice(VALUES).replace('"', "&quot;")
        return _swap(text, match, f'<property name="{name.group(1)}"{kind} value="{value}"')
    key = rng.choice(["seed", "items", "objectives", "held", "prone", "hp", "elevation"])
    value = rng.choice(VALUES).replace('"', "&quot;")
    return text.replace(
        "<properties>", f'<properties>\n  <property name="{key}" value="{value}"/>', 1
    )


KINDS_LINES = [
    'default = "open"',
    'default = "lava"',
    "default = 3",
    '[tileset."sim terrain"]\n0 = "wall"',
    '[tileset."sim terrain"]\n"0-3" = { kind = "open", depth = 2.5 }',
    '[tileset."sim terrain"]\n"5-2" = "open"',
    '[tileset."sim terrain"]\n"0-9999999999" = "pit"',
    '[tileset."sim terrain"]\n1 = { height = 0.3 }',
    '[tileset."sim terrain"]\n01 = "open"\n1 = "wall"',
    '[class]\nwall = { climbable = "yes" }',
    '[property.kind]\nwall = "open"\nopen = "fire"',
    "[property]\nkind = 1",
    "[tileset]",
    "[[tileset]]",
    '[class]\n"' + "x" * 5000 + '" = "open"',
    "a = [" * 3000,
    "\x00\xff",
    "[class\n",
]


def kinds(rng: random.Random, text: str, files: Files, folder: Path) -> str:
    """A kinds file beside the map (map.kinds.toml, which the import takes): entries that
    change the map's tiles, broken entries and broken TOML, a folder, a device (issue #31)."""
    roll = rng.random()
    beside = folder / "map.kinds.toml"
    if roll < 0.05:
        beside.mkdir()
    elif roll < 0.1:
        beside.symlink_to("/dev/zero")
    else:
        lines = rng.sample(KINDS_LINES, rng.randint(1, 3))
        beside.write_bytes("\n".join(lines).encode("utf-8", "surrogateescape"))
    return text


OPERATORS: dict[str, Operator] = {
    "sizes": sizes,
    "encodings": encodings,
    "bombs": bombs,
    "entities": entities,
    "references": references,
    "deep": deep,
    "many": many,
    "truncation": truncation,
    "garbage": garbage,
    "values": values,
    "kinds": kinds,
}


# --- the worker ------------------------------------------------------------------------------


class Worker:
    """tests/content/tiled_worker.py in a process of its own, started again after a case
    kills it or passes the time limit."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> subprocess.Popen[str]:
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        env["PYTHONPATH"] = os.pathsep.join([str(TOP), env.get("PYTHONPATH", "")])
        env["OPENBLAS_NUM_THREADS"] = "1"  # no thread stacks reserved in the limited space
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.content.tiled_worker", str(MEGABYTES)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=TOP,
            env=env,
        )
        assert process.stdout is not None
        assert json.loads(process.stdout.readline()) == {"ready": True}
        return process

    def run(self, case: dict[str, str]) -> dict[str, object]:
        """The worker's record of one case, or the crash of a case that killed it or hung."""
        if self.process is None:
            self.process = self.start()
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(case) + "\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], SECONDS)
        line = process.stdout.readline() if ready else ""
        if line:
            record: dict[str, object] = json.loads(line)
            return record
        process.kill()
        process.wait()
        self.process = None
        return {"crash": "no answer within 10 s" if not ready else "the worker died"}

    def stop(self) -> None:
        if self.process is not None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=30)
            self.process = None


def _verdict(record: dict[str, object], folder: Path, out: Path) -> str:
    """ "imported" or "refused", after checking the case against the issue's promises; an
    AssertionError says which was broken."""
    assert not record.get("crash"), record["crash"]
    seconds = record["seconds"]
    assert isinstance(seconds, float) and seconds < SECONDS, seconds
    err = str(record["err"])
    assert "Traceback" not in err, err
    if record["code"] == 0:
        assert record["out"] == f"wrote {out}\n", record
        assert out.read_text(encoding="utf-8") != KEEP
        return "imported"
    assert record["code"] == 1, record
    assert out.read_text(encoding="utf-8") == KEEP, "a refused map changed the --out file"
    lines = [line for line in err.splitlines() if not line.startswith("warning: ")]
    assert 1 <= len(lines) <= 52, err  # 50 problems, "… and N more", "nothing was written"
    for line in lines:
        assert line.startswith((str(folder), "… and ", "nothing was written to ")), line
        assert len(line) <= 300 + len(str(folder)), line
    return "refused"


def fuzz(cases: int, seed: int, tmp_path: Path) -> Counter[tuple[str, str]]:
    rng = random.Random(seed)
    counts: Counter[tuple[str, str]] = Counter()
    slowest: Counter[str] = Counter()  # each operator's longest case, in seconds
    worker = Worker()
    names = list(OPERATORS)
    try:
        for number in range(cases):
            name = names[number % len(names)]
            base, files = rng.choice(BASES)
            folder = tmp_path / f"case{number}" / "maps"
            folder.mkdir(parents=True)
            for file, data in files.items():
                (folder / file).write_bytes(data)
            text = OPERATORS[name](rng, base, files, folder)
            path = folder / "map.tmx"
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            out = folder / "map.toml"
            out.write_text(KEEP, encoding="utf-8")
            record = worker.run({"map": str(path), "out": str(out)})
            try:
                counts[(name, _verdict(record, folder, out))] += 1
                slowest[name] = max(slowest[name], float(str(record["seconds"])))
            except AssertionError as error:
                raise AssertionError(f"case {number} ({name}, {path}): {error}") from None
            shutil.rmtree(folder.parent)
    finally:
        worker.stop()
    print()
    for name in names:
        print(
            f"{name:>11}: {counts[(name, 'imported')]:4} imported, "
            f"{counts[(name, 'refused')]:4} refused, the longest in {slowest[name]:.2f} s"
        )
    return counts


@pytest.mark.slow
def test_mutated_maps_import_or_are_refused_in_a_line_within_10_s_and_1_gib(
    tmp_path: Path,
) -> None:
    counts = fuzz(300, 37, tmp_path)
    assert sum(counts.values()) == 300
    # Each operator's cases reached both ends (a mutation that never imports, or never is
    # refused, tests only one of them), the ones that can only be refused aside.
    for name in OPERATORS:
        assert counts[(name, "refused")] > 0, name
    for name in ("sizes", "encodings", "entities", "references", "many", "values", "kinds"):
        assert counts[(name, "imported")] > 0, name


@pytest.mark.long
def test_thousands_of_mutated_maps(tmp_path: Path) -> None:
    counts = fuzz(3000, 3737, tmp_path)
    assert sum(counts.values()) == 3000
