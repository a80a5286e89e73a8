"""Kinds files (KINDS.toml): what the tiles of a map drawn for another game are on the battlefield.

A map drawn in Tiled for another game has tiles that say nothing of our terrain. A kinds file
names it, without editing the tileset (docs/tiled.md):

    default = "open"                       # any tile no entry below names
    [tileset.Desert]                       # tiles of the tileset named Desert, by id
    29 = "open"
    "0-8" = { kind = "wall", height = 1 }  # a range of ids
    [class]                                # tiles by their class (`type` before Tiled 1.9)
    water = { kind = "open", depth = 1 }
    [property.collides]                    # tiles by a property other tools use, by its value
    true = "wall"

An entry is a kind's name, or a table of `kind`, `height`, `depth`, `obstacle` (metres, in
half-metre steps) and `climbable`. A tile takes the first entry that names it: by id, by range,
by class, by property (in the file's order), then its own properties of our schema, then
`default`; ranges may not overlap, but an id inside a range is named by its own entry. The
file is read within its size limit and every problem is one `file:line:` line.

The starter file written for a map that needs one lists each of its tiles with a guess made from
what the tile says of itself (its class, image, properties, terrain name): wall, water, mud...
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sim.content.tilederror import TiledError
from sim.content.tmx import Value, shown
from sim.content.tomlspan import Spans
from sim.core.codec import as_toml
from sim.core.files import Unreadable, read_text
from sim.core.grid import KIND_NAMES, Kind
from sim.core.limits import first_problems, limits

MAX_METRES = 1000  # as scenario files (sim/content/scenario.py)
ENTRY_KEYS = ("kind", "height", "depth", "obstacle", "climbable")
TOP_KEYS = ("default", "tileset", "class", "property")
_RANGE = re.compile(r"\s*([0-9]{1,10})\s*(?:-\s*([0-9]{1,10})\s*)?")


class KindsError(TiledError):
    """A kinds file that cannot be used: every problem, one `file:line:` line each."""


@dataclass(frozen=True, slots=True)
class Entry:
    """What a tile makes of its cells: a kind, and numbers in half-metres. None leaves a
    value to the tile below (an entry without a kind lets the tile below decide)."""

    kind: Kind | None = None
    height: int | None = None
    depth: int | None = None
    obstacle: int | None = None
    climbable: bool | None = None

    def text(self) -> str:
        """The entry as a kinds file writes it: `"wall"`, or `{ kind = "open", depth = 1 }`."""
        parts = [] if self.kind is None else [f'kind = "{KIND_NAMES[self.kind]}"']
        for key in ("height", "depth", "obstacle"):
            half = getattr(self, key)
            if half:
                parts.append(f"{key} = {_metres_text(half)}")
        if self.climbable is not None:
            parts.append(f"climbable = {'true' if self.climbable else 'false'}")
        if self.kind is not None and len(parts) == 1:
            return f'"{KIND_NAMES[self.kind]}"'
        return "{ " + ", ".join(parts) + " }" if parts else "{}"

    def words(self) -> str:
        """The entry in the editor's words: `open, water 1 m`."""
        parts = [] if self.kind is None else [KIND_NAMES[self.kind]]
        for key, word in (("height", "ground"), ("depth", "water"), ("obstacle", "obstacle")):
            half = getattr(self, key)
            if half:
                parts.append(f"{word} {_metres_text(half)} m")
        if self.climbable:
            parts.append("climbable")
        return ", ".join(parts) or "(the tile below decides)"


def _metres_text(half: int) -> str:
    return str(half // 2) if half % 2 == 0 else f"{half / 2}"


@dataclass(frozen=True)
class Kinds:
    """A kinds file's entries. `find` says which names a tile."""

    path: str
    default: Entry | None = None
    ids: Mapping[str, Mapping[int, Entry]] = field(default_factory=dict)
    ranges: Mapping[str, Sequence[tuple[int, int, Entry]]] = field(default_factory=dict)
    classes: Mapping[str, Entry] = field(default_factory=dict)  # keys lower case
    properties: Sequence[tuple[str, Mapping[str, Entry]]] = ()  # values lower case

    def find(
        self, tileset: str, tile: int, cls: str = "", props: Mapping[str, Value] | None = None
    ) -> tuple[Entry, str] | None:
        """The entry that names a tile and where it is (`[tileset.Desert] 29`), or None.
        The default is not looked at here."""
        entry = self.ids.get(tileset, {}).get(tile)
        if entry is not None:
            return entry, f"[tileset.{toml_key(tileset)}] {tile}"
        for low, high, ranged in self.ranges.get(tileset, ()):
            if low <= tile <= high:
                return ranged, f"[tileset.{toml_key(tileset)}] {low}-{high}"
        if cls and cls.lower() in self.classes:
            return self.classes[cls.lower()], f"[class] {toml_key(cls.lower())}"
        for name, values in self.properties:
            if props and name in props:
                value = value_text(props[name]).lower()
                if value in values:
                    return values[value], f"[property.{toml_key(name)}] {toml_key(value)}"
        return None


def value_text(value: Value) -> str:
    """A property's value as a kinds file names it: `true`, `3`, `wall`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def toml_key(name: str) -> str:
    """A table key as TOML writes it: bare, or quoted."""
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else '"' + _escaped(name) + '"'


def _escaped(text: str) -> str:
    """Text inside a TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


# --- reading ---------------------------------------------------------------------------------


def load(path: str) -> Kinds:
    """The kinds file at `path`. Raises KindsError naming the file and each problem's line."""
    try:
        text = read_text(path, limits().files.tile_kinds, "a kinds file")
    except Unreadable as error:
        raise KindsError(f"{path}: {error}") from None
    return parse(text, path)


def parse(text: str, path: str = "<kinds>") -> Kinds:
    """A kinds file's text. Raises KindsError."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"\(at line (\d+), column \d+\)", str(error))
        line = found.group(1) if found else "1"
        reason = re.sub(r"\s*\(at line.*\)", "", str(error))
        raise KindsError(f"{path}:{line}: broken TOML ({reason})") from None
    except RecursionError:
        raise KindsError(f"{path}:1: broken TOML (nested too deep)") from None
    return _Parser(path, Spans(text)).kinds(raw)


@dataclass
class _Parser:
    path: str
    spans: Spans
    problems: list[str] = field(default_factory=list)

    def problem(self, where: tuple[str | int, ...], message: str) -> None:
        self.problems.append(f"{self.path}:{self.spans.line(where)}: {message}")

    def kinds(self, raw: dict[str, Any]) -> Kinds:
        for key in raw:
            if key not in TOP_KEYS:
                self.problem(
                    (key,), f"unknown key {shown(key)} (expected one of {', '.join(TOP_KEYS)})"
                )
        default = self.entry(("default",), raw["default"]) if "default" in raw else None
        ids: dict[str, dict[int, Entry]] = {}
        ranges: dict[str, list[tuple[int, int, Entry]]] = {}
        for name, table in self.tables(raw, "tileset", "a table of tile ids").items():
            ids[name], ranges[name] = self.tileset(name, table)
        classes = {
            cls.lower(): entry
            for cls, value in self.tables(raw, "class", "an entry").items()
            if (entry := self.entry(("class", cls), value)) is not None
        }
        properties: list[tuple[str, dict[str, Entry]]] = []
        for name, table in self.tables(raw, "property", "a table of values").items():
            values = {
                value.lower(): entry
                for value, given in table.items()
                if (entry := self.entry(("property", name, value), given)) is not None
            }
            properties.append((name, values))
        if self.problems:
            raise KindsError("\n".join(first_problems(self.problems)))
        return Kinds(self.path, default, ids, ranges, classes, tuple(properties))

    def tables(self, raw: dict[str, Any], key: str, holds: str) -> dict[str, Any]:
        """`raw[key]` when it is a table of tables (or entries), else a problem."""
        value = raw.get(key, {})
        if not isinstance(value, dict):
            self.problem((key,), f"[{key}] must be a table, not {type(value).__name__}")
            return {}
        if holds == "an entry":
            return value
        found: dict[str, Any] = {}
        for name, table in value.items():
            if isinstance(table, dict):
                found[name] = table
            else:
                self.problem(
                    (key, name), f"{key} {shown(name)} must be {holds}: [{key}.{toml_key(name)}]"
                )
        return found

    def tileset(
        self, name: str, table: dict[str, Any]
    ) -> tuple[dict[int, Entry], list[tuple[int, int, Entry]]]:
        ids: dict[int, Entry] = {}
        ranges: list[tuple[int, int, Entry]] = []
        spans: list[tuple[int, int, str]] = []
        for key, value in table.items():
            where = ("tileset", name, key)
            found = _RANGE.fullmatch(key)
            if found is None:
                self.problem(where, f"{shown(key)} is not a tile id (29) or a range of ids (0-8)")
                continue
            low = int(found.group(1))
            high = int(found.group(2)) if found.group(2) is not None else low
            if high < low:
                self.problem(where, f"the range {key} runs backwards; write {high}-{low}")
                continue
            entry = self.entry(where, value)
            if entry is None:
                continue
            spans.append((low, high, key))
            if found.group(2) is None:
                ids[low] = entry
            else:
                ranges.append((low, high, entry))
        # Ranges may not overlap, nor an id be named twice ("3" and "03"); an id inside a
        # range is the exception the range makes ("0-47" = "open", 37 = "difficult").
        for group in ([s for s in spans if s[0] != s[1] or "-" in s[2]], [s for s in spans
                      if s[0] == s[1] and "-" not in s[2]]):  # fmt: skip
            group.sort(key=lambda s: (s[0], s[1], self.spans.line(("tileset", name, s[2]))))
            reach = (-1, "")  # the highest id named so far, and the key that named it
            for low, high, key in group:
                if low <= reach[0]:
                    earlier = self.spans.line(("tileset", name, reach[1]))
                    self.problem(
                        ("tileset", name, key),
                        f"{key} names tile {low} again (line {earlier} names {reach[1]}); a "
                        "tile takes one entry",
                    )
                if high > reach[0]:
                    reach = (high, key)
        return ids, sorted(ranges, key=lambda r: r[0])

    def entry(self, where: tuple[str | int, ...], value: Any) -> Entry | None:
        """An entry: a kind's name, or a table of kind and numbers; None after a problem."""
        if isinstance(value, str):
            value = {"kind": value}
        if not isinstance(value, dict):
            self.problem(
                where,
                'an entry is a kind ("wall") or a table ({ kind = "open", depth = 1 }), not '
                f"{shown(str(value), 40)}",
            )
            return None
        ok = True
        fields: dict[str, Any] = {}
        for key, given in value.items():
            if key not in ENTRY_KEYS:
                self.problem(
                    where, f"unknown key {shown(key)} (expected one of {', '.join(ENTRY_KEYS)})"
                )
                ok = False
            elif key == "kind":
                if isinstance(given, str) and given in KIND_NAMES:
                    fields["kind"] = Kind.named(given)
                else:
                    self.problem(
                        where, f"kind {shown(str(given))} is not one of {', '.join(KIND_NAMES)}"
                    )
                    ok = False
            elif key == "climbable":
                if isinstance(given, bool):
                    fields["climbable"] = given
                else:
                    self.problem(where, f"climbable must be true or false, not {as_toml(given)}")
                    ok = False
            else:
                half = half_metres(given)
                if half is None:
                    self.problem(
                        where,
                        f"{key} must be 0 to {MAX_METRES} metres in half-metre steps, not "
                        f"{shown(str(given), 30)}",
                    )
                    ok = False
                else:
                    fields[key] = half
        return Entry(**fields) if ok else None


def half_metres(value: Any) -> int | None:
    """Metres as half-metres, or None when not 0 to MAX_METRES in half-metre steps."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not 0 <= value <= MAX_METRES or value * 2 != int(value * 2):
        return None
    return int(value * 2)


# --- guessing and the starter file ------------------------------------------------------------

# What a word in a tile's class, image, properties or terrain name says it is, the first match
# winning: a "stone wall" is a wall, "stone floor" a floor, "deep water" deeper than "water".
GUESSES: tuple[tuple[str, Entry], ...] = (
    (r"lava|magma|fire|flame|burning|brazier", Entry(Kind.FIRE)),
    (r"pit|hole|chasm|abyss|void|crevasse|trapdoor", Entry(Kind.PIT)),
    (r"deep.?water|ocean|sea\b|deep", Entry(Kind.OPEN, depth=4)),
    (r"water|river|lake|pond|stream|shallows?|puddle", Entry(Kind.OPEN, depth=2)),
    (
        r"mud|swamp|marsh|bog|snow|ice\b|rubble|scree|thorn|bramble|undergrowth|reed|"
        r"tall.?grass",
        Entry(Kind.DIFFICULT),
    ),
    (r"crate|barrel|box|fence|hedge|cover|sandbag|table|cart|log\b|bush|shrub", Entry(Kind.COVER)),
    (
        r"wall|cliff|rock|boulder|mountain|tree|trunk|building|house|roof|pillar|column|"
        r"statue|solid|collides|collision|blocked|block",
        Entry(Kind.WALL),
    ),
    (
        r"floor|ground|grass|dirt|road|path|pavement|cobble|brick|plank|carpet|sand|desert|"
        r"earth|soil|meadow|field|street",
        Entry(Kind.OPEN),
    ),
)
NO_GUESS = Entry(Kind.OPEN)


def guess(words: Iterable[str]) -> tuple[Entry, str]:
    """A guess at a tile from the words it says of itself, most telling first, and the word
    it was made from ("" when none said anything: open, to be told)."""
    for word in words:
        low = word.lower().replace("_", " ")
        for pattern, entry in GUESSES:
            if re.search(rf"(?<![a-z])(?:{pattern})", low):
                return entry, word
    return NO_GUESS, ""


@dataclass(frozen=True, slots=True)
class Need:
    """A tile of a map that needs an entry: where it is drawn and what it says of itself."""

    tileset: str  # its tileset's label
    tile: int
    cells: int
    first: tuple[int, int]  # in the map's own (Tiled's) coordinates
    layer: str
    words: tuple[str, ...] = ()

    def where(self) -> str:
        many = f"{self.cells:,} cells" if self.cells != 1 else "1 cell"
        return (
            f"{many}, the first at [{self.first[0]}, {self.first[1]}] in layer {shown(self.layer)}"
        )


def starter(map_name: str, needs: Sequence[Need], command: str) -> str:
    """A kinds file that names every tile in `needs` with a guess, grouped by tileset, each
    line saying how many cells the tile covers, where the first is, and why the guess."""
    lines = [
        f"# Tile kinds for {map_name}: what each of its tiles is on the battlefield.",
        "# Written as a start with a guess for each tile; check them, then run:",
        f"#   {command}",
        '# An entry is a kind ("open", "difficult", "wall", "pit", "fire", "cover") or a table',
        '# { kind = "open", height = 1, depth = 0.5, obstacle = 0.5, climbable = true } (metres).',
        "# An entry without a kind ({ depth = 1 }, or {}) lets the tile drawn below decide; the",
        '# top tile of a cell with a kind decides. Ranges name many tiles: "0-47" = "open".',
        '# default = "open" would name every tile not listed. See docs/tiled.md.',
    ]
    order = list(dict.fromkeys(need.tileset for need in needs))
    for tileset in order:
        lines.append("")
        lines.append(f"[tileset.{toml_key(tileset)}]")
        for need in sorted((n for n in needs if n.tileset == tileset), key=lambda n: n.tile):
            entry, word = guess(need.words)
            why = (
                f"guessed from {shown(word, 40)}" if word else "no guess: it says nothing of itself"
            )
            lines.append(f"{need.tile} = {entry.text()}  # {need.where()}; {why}")
    return "\n".join(lines) + "\n"


def set_entries(text: str, entries: Mapping[tuple[str, int], Entry]) -> str:
    """The kinds file `text` with these tiles' id entries set (the editor's choices): an id
    entry is replaced in place, a new one added to its tileset's table; the rest of the file,
    comments included, stays as it was."""
    import tomlkit

    doc = tomlkit.parse(text) if text.strip() else tomlkit.document()
    tilesets = doc.get("tileset")
    if tilesets is None:
        tilesets = tomlkit.table(is_super_table=True)
        doc["tileset"] = tilesets
    for (tileset, tile), entry in sorted(entries.items(), key=lambda e: (e[0][0], e[0][1])):
        if tileset not in tilesets:
            tilesets[tileset] = tomlkit.table()
        value = tomlkit.parse(f"v = {entry.text()}")["v"]
        tilesets[tileset][str(tile)] = value
    return tomlkit.dumps(doc)
