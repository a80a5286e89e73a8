"""Tiled maps (.tmx) into scenarios, and scenarios written as Tiled maps (docs/tiled.md).

The map is read by sim/content/tmx.py, which trusts nothing in it (issue #37); this module
maps what it read onto the schema. The schema: tile properties `kind`, `elevation`, `depth`,
`obstacle`, `climbable` (a cell takes those of every tile layer's tile there, later layers
winning); an object layer `units` whose objects are units (name: id, class or type: template,
property `team` and any unit override); map properties `name`, `description`, `seed`, and
`items` and `objectives` (TOML arrays of the scenario's tables, written as text).
"""

from __future__ import annotations

import math
import re
import shutil
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

import numpy as np

from sim.content import mapedit as me
from sim.content import packs, tmx
from sim.content import tilekinds as tk
from sim.content.scenario import (
    MAX_METRES,
    MAX_SEED,
    UNIT_KEYS,
    Problem,
    Scenario,
    ScenarioError,
    load,
    loads,
)
from sim.content.tilederror import TiledError
from sim.core.codec import as_toml
from sim.core.creature import side
from sim.core.files import write_atomically
from sim.core.geometry import Pos
from sim.core.grid import KIND_NAMES, Kind
from sim.core.limits import first_problems, limits
from sim.core.numbers import default_rules

__all__ = [
    "Imported",
    "TiledError",
    "import_map",
    "load_tmx",
    "read_tmx",
    "scenario_text",
    "to_scenario",
    "write_tmx",
]

TILE_KEYS = ("kind", "elevation", "depth", "obstacle", "climbable")
# Map properties; `content` and the content sections are the scenario's own content (issue
# #32): its packs as a TOML array, each section's tables as a TOML inline table.
MAP_KEYS = ("name", "description", "seed", "items", "objectives", "content", *packs.SECTIONS)
LIST_KEYS = {"held", "carried", "abilities", "skills"}  # written as TOML text in Tiled
ASSETS = Path(__file__).resolve().parents[2] / "assets" / "tiled"
TILE = 32  # pixels a cell in exported maps
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _metres(what: str, value: Any) -> tuple[int | None, str]:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return None, f"{what} must be a number of metres, not {tmx.shown(value)}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None, f"{what} must be a number of metres, not {as_toml(value)}"
    if not math.isfinite(value) or value < 0 or value > MAX_METRES or value * 2 != int(value * 2):
        return None, f"{what} must be 0 to {MAX_METRES} in half-metre steps, not {value}"
    return int(value * 2), ""


def _bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def _toml_text(text: Any) -> tuple[Any, bool]:
    """The TOML value a property's text holds, and whether it held one (tomllib nests by
    recursion, so a deeply nested value is refused like broken TOML)."""
    if not isinstance(text, str):
        return None, False
    try:
        return tomllib.loads(f"v = {text}")["v"], True
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return None, False


def _tile_terrain(tile: tmx.Tile, unknown: set[str]) -> tuple[dict[str, Any], list[str]]:
    """What a tile's properties set on its cells, and what is wrong with them."""
    cell: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in tile.properties.items():
        if key not in TILE_KEYS:
            unknown.add(f"tile property {tmx.shown(key)}")
        elif key == "kind":
            if value in KIND_NAMES:
                cell["kind"] = Kind.named(str(value))
            else:
                named = tmx.shown(str(value))
                problems.append(f"kind {named} is not one of {', '.join(KIND_NAMES)}")
        elif key == "climbable":
            flag = _bool(value)
            if flag is None:
                problems.append(f"climbable must be true or false, not {tmx.shown(str(value))}")
            else:
                cell["climbable"] = flag
        else:
            half, message = _metres(key, value)
            if half is None:
                problems.append(message)
            else:
                cell["height" if key == "elevation" else key] = half
    return cell, problems


@dataclass(frozen=True)
class TileUse:
    """A tile drawn in the map (whatever its flips), what names it and what it says of
    itself; `entry` None: nothing names it."""

    gid: int  # flip flags removed
    tileset: tmx.Tileset | None  # None: a gid below every tileset (a damaged map)
    tile: int
    need: tk.Need
    entry: tk.Entry | None
    source: str  # what named it, in words: a kinds file's entry, "its properties", "a guess"
    guessed: bool = False  # the entry is a guess (the editor's, for a tile nothing names)


@dataclass(frozen=True)
class Imported:
    """A Tiled map as the editor and the importer see it: the scenario's state, the map's
    `items` and `objectives` tables, warnings, and each tile drawn with what names it."""

    tiled: tmx.TiledMap
    state: me.MapState
    extras: dict[str, Any]  # the map's items, objectives and content, as _map_extras reads them
    warnings: list[str]
    uses: dict[int, TileUse]  # by gid
    kinds_path: Path  # the kinds file used, or the one a starter (or the editor) would write


def _words(tileset: tmx.Tileset, tile: tmx.Tile | None, number: int) -> tuple[str, ...]:
    """What a tile says of itself, most telling first: its class, the terrains it shows (the
    one covering most of it first), its image's name, its properties' text (and the names of
    those that are true)."""
    words: list[str] = []
    if tile is not None:
        words.append(tile.cls)
    words.extend(tileset.terrain.get(number, ()))
    if tile is not None:
        words.append(Path(tile.image).stem if tile.image else "")
        for key, value in tile.properties.items():
            if isinstance(value, str):
                words.append(value)
            elif value is True:
                words.append(key)
    # Not the tileset's own name or image: "perspective_walls" would make every tile a wall.
    return tuple(w for w in words if w)


def kinds_beside(path: str | Path) -> Path:
    """The kinds file a map uses when none is named: MAP.kinds.toml beside it."""
    path = Path(path)
    return path.with_name(f"{path.stem}.kinds.toml")


def _uses(
    tiled: tmx.TiledMap,
    kinds: tk.Kinds | None,
    problems: list[str],
    unknown: set[str],
) -> dict[int, TileUse]:
    """Every tile drawn in the map's tile layers, and what names it: the kinds file's entry,
    else its own properties of our schema, else the kinds file's default."""
    seen: dict[int, tuple[int, int, str]] = {}  # gid: cells, first index, layer
    for layer in tiled.layers:
        if not isinstance(layer, tmx.TileLayer):
            continue
        # Each tile's count and first cell in one sorting pass, whatever the number of tiles.
        gids = np.frombuffer(layer.gids, dtype=np.uint32) & np.uint32(~tmx.GID_FLAGS & 0xFFFFFFFF)
        found, firsts, counts = np.unique(gids, return_index=True, return_counts=True)
        for gid, first, count in zip(found.tolist(), firsts.tolist(), counts.tolist(), strict=True):
            if not gid:
                continue
            cells, before, name = seen.get(gid, (0, first, layer.name))
            seen[gid] = (cells + count, before, name)
    width, (ox, oy) = tiled.width, tiled.origin
    uses: dict[int, TileUse] = {}
    for gid, (cells, first, layer_name) in seen.items():
        cell = (first % width + ox, first // width + oy)
        found = tiled.locate(gid)
        if found is None:
            need = tk.Need("", gid, cells, cell, layer_name)
            problems.append(
                f"{tiled.path}: layer {tmx.shown(layer_name)}: tile number {gid} belongs to no "
                f"tileset ({need.where()}); the map is damaged (save it again in Tiled)"
            )
            uses[gid] = TileUse(gid, None, gid, need, None, "")
            continue
        tileset, number = found
        tile = tileset.tiles.get(number)
        need = tk.Need(
            tileset.label, number, cells, cell, layer_name, _words(tileset, tile, number)
        )
        entry: tk.Entry | None = None
        source = ""
        named = None
        if kinds is not None:
            named = kinds.find(
                tileset.label, number, tile.cls if tile else "", tile.properties if tile else {}
            )
        if kinds is not None and named is not None:
            entry, source = named[0], f"{kinds.path} {named[1]}"
        elif tile is not None and any(key in TILE_KEYS for key in tile.properties):
            cell_terrain, wrong = _tile_terrain(tile, unknown)
            where = (
                f"{tiled.path}: layer {tmx.shown(layer_name)}, the tile at [{cell[0]}, {cell[1]}]"
            )
            more = f" (and {cells - 1:,} more cells)" if cells > 1 else ""
            problems.extend(f"{where}: {message}{more}" for message in wrong)
            entry, source = tk.Entry(**cell_terrain), "its properties"
        elif kinds is not None and kinds.default is not None:
            entry, source = kinds.default, f"{kinds.path} default"
        uses[gid] = TileUse(gid, tileset, number, need, entry, source)
    return uses


def compose(
    tiled: tmx.TiledMap, entries: Mapping[int, tk.Entry | None]
) -> tuple[me.Rows, list[int]]:
    """The cells' terrain from the tiles drawn on them, bottom layer first: a tile whose entry
    has a kind decides the cell (kind and numbers, those it does not give 0), one without a
    kind sets only the numbers it gives, and a tile with no entry is passed over. Also the
    cells (their indexes, row by row) no tile gave a kind: they are open."""
    width, height = tiled.width, tiled.height
    kind: list[Kind | None] = [None] * (width * height)
    levels = {key: [0] * (width * height) for key in ("height", "depth", "obstacle")}
    climbable = [False] * (width * height)
    for layer in tiled.layers:
        if not isinstance(layer, tmx.TileLayer):
            continue
        for index, gid in enumerate(layer.gids):
            if not gid:
                continue
            entry = entries.get(gid & ~tmx.GID_FLAGS)
            if entry is None:
                continue
            if entry.kind is not None:
                kind[index] = entry.kind
                for key, values in levels.items():
                    values[index] = getattr(entry, key) or 0
                climbable[index] = bool(entry.climbable)
                continue
            for key, values in levels.items():
                half = getattr(entry, key)
                if half is not None:
                    values[index] = half
            if entry.climbable is not None:
                climbable[index] = entry.climbable
    rows = tuple(
        tuple(
            me.Terrain(
                kind[i] or Kind.OPEN,
                levels["height"][i],
                levels["depth"][i],
                levels["obstacle"][i],
                climbable[i],
            )
            for i in range(y * width, (y + 1) * width)
        )
        for y in range(height)
    )
    return rows, [i for i, k in enumerate(kind) if k is None]


def _units(tiled: tmx.TiledMap, problems: list[str], unknown: set[str]) -> list[me.Unit]:
    units: list[me.Unit] = []
    for layer in tiled.layers:
        if not isinstance(layer, tmx.ObjectLayer) or layer.name != "units":
            continue
        most = limits().map.units
        if len(units) + len(layer.objects) > most:
            # Refused before any is read: each unit costs the scenario writer a millisecond.
            count = len(units) + len(layer.objects)
            problems.append(f"{tiled.path}: {count:,} units; a map may have at most {most:,}")
            return []
        for obj in layer.objects:
            where = f"{tiled.path}: layer 'units', object {tmx.shown(obj.name or str(obj.id))}"
            props = dict(obj.properties)
            team = props.pop("team", None)
            if not obj.name or not isinstance(team, str) or not team:
                problems.append(f"{where}: a unit needs a name (its id) and a property team")
                continue
            place = Pos(*_cell_of(tiled, obj))
            overrides: dict[str, Any] = {}
            for key, value in props.items():
                if key not in UNIT_KEYS or key in ("id", "team", "template", "at"):
                    unknown.add(f"unit property {tmx.shown(key)}")
                    continue
                if key in LIST_KEYS and isinstance(value, str):
                    value, ok = _toml_text(value)
                    if not ok:
                        problems.append(
                            f'{where}: {key} must be TOML like ["spear"], not '
                            f"{tmx.shown(str(obj.properties[key]))}"
                        )
                        continue
                if key == "prone":
                    flag = _bool(value)
                    if flag is None:
                        problems.append(f"{where}: prone must be true or false")
                        continue
                    value = flag
                overrides[key] = value
            size = _footprint_of(tiled, obj, overrides.get("size"), where, problems)
            if size is None:
                continue
            if size > 1:
                overrides["size"] = size
            units.append(me.Unit(-1, obj.name, team, obj.cls or None, place, overrides))
    return units


def _footprint_of(
    tiled: tmx.TiledMap, obj: tmx.MapObject, said: Any, where: str, problems: list[str]
) -> int | None:
    """How many tiles a side a unit's object covers: its size (R-Z1), as `write_tmx` draws a
    large unit; 1 for a point or an object within one tile (a marker), which leaves the size to
    its property or template. None, with the problem, for any other shape, or one its property
    `size` contradicts."""
    w, h = obj.width, obj.height
    if w <= tiled.tilewidth and h <= tiled.tileheight:
        return 1
    largest = default_rules().sizes.largest
    wide, high = w / tiled.tilewidth, h / tiled.tileheight
    if wide != high or wide not in range(1, largest + 1):
        sides = ", ".join(
            f"{n * tiled.tilewidth}x{n * tiled.tileheight}" for n in range(1, largest + 1)
        )
        problems.append(
            f"{where}: it is {w:g}x{h:g} pixels; a unit's object is a point or covers its "
            f"footprint, 1 to {largest} tiles square ({sides}; size, R-Z1)"
        )
        return None
    size = int(wide)
    if said is not None and said != size:
        shown = str(said) if isinstance(said, int) else tmx.shown(str(said))
        problems.append(
            f"{where}: it covers {size}x{size} tiles but its property size is {shown} (R-Z1); "
            "make them agree"
        )
        return None
    return size


def _map_extras(
    tiled: tmx.TiledMap, problems: list[str], unknown: set[str]
) -> tuple[int | None, dict[str, Any]]:
    """The map's seed, its `items` and `objectives` as lists of tables, and its content:
    `content`, a list of pack paths, and each content section's tables (`items` as a table is
    item kinds, issue #32)."""
    props, path = tiled.properties, tiled.path
    seed: int | None = None
    if "seed" in props:
        value = props["seed"]
        if isinstance(value, str) and re.fullmatch(r"[0-9]{1,19}", value.strip()):
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SEED:
            seed = value
        else:
            problems.append(
                f"{path}: map property seed must be a whole number from 0 to {MAX_SEED}"
            )
    extras: dict[str, Any] = {}
    for key in ("items", "objectives"):
        if key in props:
            value, ok = _toml_text(props[key])
            if ok and isinstance(value, list) and all(isinstance(t, dict) for t in value):
                extras[key] = value
            elif ok and key == "items" and isinstance(value, dict):
                extras[key] = value  # kinds of item, the scenario's own content
            else:
                problems.append(f"{path}: map property {key} must be a TOML array of tables")
    if "content" in props:
        value, ok = _toml_text(props["content"])
        if ok and isinstance(value, list) and all(isinstance(p, str) for p in value):
            extras["content"] = value
        else:
            problems.append(
                f"{path}: map property content must be a TOML array of file names, "
                'like ["monsters.toml"]'
            )
    for key in packs.SECTIONS:
        if key in props and key != "items":
            value, ok = _toml_text(props[key])
            if ok and isinstance(value, dict):
                extras[key] = value
            else:
                problems.append(
                    f"{path}: map property {key} must be a TOML table of {key}, like "
                    f'{{ ogre = {{ based_on = "orc_brute" }} }}'
                )
    for key in props:
        if key not in MAP_KEYS:
            unknown.add(f"map property {tmx.shown(key)}")
    return seed, extras


def _read(
    path: str | Path,
    kinds: str | Path | None = None,
    *,
    guess: bool = False,
    out: str | Path | None = None,
) -> Imported:
    """The scenario a Tiled map describes, with the kinds file at `kinds` (None: the one
    beside the map, MAP.kinds.toml, when there is one). A tile nothing names is refused with
    every such tile listed, or with `guess` given a guess (the editor shows it); `out` is the
    scenario file the refusal's command writes. Its `extras` are the map's `items`,
    `objectives` and content, as `_map_extras` gives them. Raises TiledError with every problem (the
    first screenful of them)."""
    tiled = tmx.read(path)
    named_file = kinds is not None
    kinds_path = Path(kinds) if kinds is not None else kinds_beside(tiled.path)
    rules: tk.Kinds | None = None
    if named_file or kinds_path.is_file():
        rules = tk.load(str(kinds_path))
    problems: list[str] = []
    unknown: set[str] = set()
    uses = _uses(tiled, rules, problems, unknown)
    entries = {gid: use.entry for gid, use in uses.items()}
    terrain, kindless = compose(tiled, entries)
    width = tiled.width
    unnamed = [use for use in uses.values() if use.entry is None and use.tileset is not None]
    if unnamed and (rules is not None or kindless):
        if guess:
            for use in unnamed:
                entry, _ = tk.guess(use.need.words)
                uses[use.gid] = replace(use, entry=entry, source="a guess", guessed=True)
            terrain, _ = compose(tiled, {gid: use.entry for gid, use in uses.items()})
        elif rules is not None:
            problems.extend(
                f"{tiled.path}: tileset {tmx.shown(u.need.tileset)}, tile {u.tile}: "
                f"{rules.path} has no entry for it ({u.need.where()}); add "
                f'`{u.tile} = "open"` (or what it is) under '
                f"[tileset.{tk.toml_key(u.need.tileset)}], or a default"
                for u in unnamed
            )
        else:
            problems.extend(
                f"{tiled.path}: tileset {tmx.shown(u.need.tileset)}, tile {u.tile} has no kind "
                f"({u.need.where()})"
                for u in sorted(unnamed, key=lambda u: (u.need.tileset, u.tile))
            )
            problems = first_problems(problems, limits().problems.shown - 1)
            problems.append(_starter(tiled, [u.need for u in unnamed], kinds_path, out))
    elif kindless and not guess:
        ox, oy = tiled.origin  # an infinite map's cells are named as Tiled names them
        shown = ", ".join(f"[{i % width + ox}, {i // width + oy}]" for i in kindless[:12])
        more = f" and {len(kindless) - 12:,} more" if len(kindless) > 12 else ""
        problems.append(
            f"{tiled.path}: no tile layer gives these cells a kind: {shown}{more} (draw a tile "
            "there)"
        )
    units = _units(tiled, problems, unknown)
    seed, extras = _map_extras(tiled, problems, unknown)
    _items(tiled, problems, extras)
    if problems:
        raise TiledError("\n".join(first_problems(problems)))
    warnings = []
    if unknown:
        left = ", ".join(first_problems(sorted(unknown)))
        warnings.append(f"{tiled.path}: properties outside the schema were left alone: {left}")
    props = tiled.properties
    state = me.MapState(
        name=str(props.get("name", tiled.path.stem)),
        description=str(props.get("description", "")),
        seed=seed,
        terrain=terrain,
        units=tuple(units),
        goals=(),
    )
    return Imported(tiled, state, extras, warnings, uses, kinds_path)


def _starter(
    tiled: tmx.TiledMap, needs: list[tk.Need], kinds_path: Path, out: str | Path | None
) -> str:
    """Write a starter kinds file for the tiles in `needs` beside the map, and say so in the
    refusal's last line: the file and the one command to run again."""
    out = out or tiled.path.with_suffix(".toml")
    command = f"sim import-tiled {tiled.path} --kinds {kinds_path} --out {out}"
    try:
        write_atomically(kinds_path, tk.starter(tiled.path.name, needs, command))
    except OSError as error:
        return (
            f"{tiled.path}: no tile says what it is on the battlefield, and a starter kinds "
            f"file could not be written to {kinds_path} ({error.strerror or error}); see "
            "docs/tiled.md for what one holds"
        )
    return (
        f"{tiled.path}: no tile says what it is on the battlefield: {kinds_path} now names "
        f"each of the {len(needs):,} tiles with a guess; check it, then run: {command}"
    )


def _items(tiled: tmx.TiledMap, problems: list[str], extras: dict[str, Any]) -> None:
    """Items lying on the ground from an object layer `items`: each object's class (`type`)
    is the equipment, its name (when it has one) the item's id, its position the cell."""
    for layer in tiled.layers:
        if not isinstance(layer, tmx.ObjectLayer) or layer.name != "items":
            continue
        if isinstance(extras.get("items"), dict) and layer.objects:
            # A scenario's `items` is either the items on the ground or its kinds of item.
            problems.append(
                f"{tiled.path}: layer 'items' lays items on the ground, but the map property "
                "items holds kinds of item; put those in a content pack "
                "named by the map property content"
            )
            return
        for obj in layer.objects:
            where = f"{tiled.path}: layer 'items', object {tmx.shown(obj.name or str(obj.id))}"
            if not obj.cls:
                problems.append(
                    f"{where}: an item needs its equipment (dagger, rope...) as its class"
                )
                continue
            item: dict[str, Any] = {"kind": obj.cls, "at": list(_cell_of(tiled, obj))}
            if obj.name:
                item["id"] = obj.name
            extras.setdefault("items", []).append(item)


def _cell_of(tiled: tmx.TiledMap, obj: tmx.MapObject) -> tuple[int, int]:
    """The cell an object is in: its top-left corner's, a tile object's foot's."""
    bottom = obj.y - obj.height if obj.gid else obj.y  # tile objects sit on their foot
    return int(obj.x // tiled.tilewidth), int(bottom // tiled.tileheight)


def read_tmx(path: str | Path, kinds: str | Path | None = None) -> tuple[me.MapState, list[str]]:
    """The scenario a Tiled map describes, and its warnings. Raises TiledError."""
    found = _read(path, kinds)
    return found.state, found.warnings


def import_map(path: str | Path, kinds: str | Path | None = None, guess: bool = False) -> Imported:
    """A Tiled map with what names each of its tiles (`guess`: a guess for a tile nothing
    names, as the editor opens a map). Raises TiledError."""
    return _read(path, kinds, guess=guess)


def scenario_text(found: Imported, state: me.MapState | None = None) -> str:
    """An imported map (or `state`, the editor's edit of it) as the text of a scenario file.
    Raises TiledError when its items or objectives do not make a scenario."""
    path = found.tiled.path
    text = me.new_text(found.state.width, found.state.height)
    if "content" in found.extras:  # a top-level key: before the first table
        text = f"content = {_toml(found.extras['content'])}\n" + text
    for key, tables in found.extras.items():
        if key == "content":
            continue
        if isinstance(tables, dict):  # a content section: [weapons.maul], ...
            for name, table in tables.items():
                text += f"\n[{key}.{_key(name)}]\n" + _keys(table)
            continue
        for table in tables:
            text += f"\n[[{key}]]\n" + _keys(table)
    try:
        source = me.open_text(text, str(path.with_suffix(".toml")))
    except me.EditError as error:
        # The map's items or objectives, which are the only text taken whole from the map.
        lines = [re.sub(r"^.*?:\d+: ", "", line) for line in str(error).splitlines()]
        raise TiledError(
            "\n".join(first_problems([f"{path}: as a scenario: {line}" for line in lines]))
        ) from None
    return me.render(source, replace(state or found.state, goals=source.state.goals))


def to_scenario(
    path: str | Path, kinds: str | Path | None = None, out: str | Path | None = None
) -> tuple[str, list[str]]:
    """A Tiled map as the text of a scenario file (to be written to `out`), and the warnings.
    Raises TiledError."""
    found = _read(path, kinds, out=out)
    return scenario_text(found), found.warnings


def load_tmx(path: str | Path, kinds: str | Path | None = None) -> tuple[Scenario, list[str]]:
    """A Tiled map as a scenario to play, and the warnings. The scenario's own problems (a unit
    in a wall, an unknown template) are TiledErrors too, named by the map, not by lines of a
    file that was never written."""
    text, warnings = to_scenario(path, kinds)
    try:
        return loads(text, str(path)), warnings
    except ScenarioError as error:
        raise TiledError("\n".join(as_scenario(path, error.problems))) from None


def _keys(table: Any) -> str:
    """A table's keys as TOML lines (a value that is no table is left for the check to name)."""
    if not isinstance(table, dict):
        return f"value = {_toml(table)}\n"
    return "".join(f"{_key(k)} = {_toml(v)}\n" for k, v in table.items())


def as_scenario(path: str | Path, problems: list[Problem]) -> list[str]:
    """A Tiled map's problems as a scenario, named by the map: `MAP.tmx: as a scenario: ...`,
    with the file and line of those in a content pack (the first screenful); a map with no
    units is told where they come from."""
    lines = []
    for p in problems:
        line = f"{path}: as a scenario: {f'{p.file}:{p.line}: ' if p.file else ''}{p.message}"
        if not p.file and "needs at least one [[units]]" in p.message:
            line = (
                f"{path}: the map has no units: add an object layer named units in Tiled, one "
                f"object a unit (docs/tiled.md), or place them with: sim edit {path}"
            )
        lines.append(line)
    return first_problems(lines)


def _key(key: str) -> str:
    """A key of an items or objectives table as TOML writes it: bare, or quoted."""
    return key if _BARE_KEY.fullmatch(key) else _toml(key)


def _toml(value: Any) -> str:
    import tomlkit

    return str(tomlkit.item(me.toml_value(value)).as_string())


# --- export ------------------------------------------------------------------------------------


def write_tmx(scenario_path: str | Path, out: str | Path) -> None:
    """Write a scenario as a Tiled map beside a copy of the shipped tile images."""
    scenario_path, out = Path(scenario_path), Path(out)
    source = me.open_file(scenario_path)
    world = load(scenario_path).world  # refuse a scenario with problems, with sim check's words
    state = source.state
    shapes: dict[tuple[Kind, int, bool], int] = {}
    heights: dict[int, int] = {}
    depths: dict[int, int] = {}
    for row in state.terrain:
        for t in row:
            shapes.setdefault(t.shape(), 0)
            if t.height:
                heights.setdefault(t.height, 0)
            if t.water:
                depths.setdefault(t.water, 0)
    tiles: list[tuple[str, dict[str, Any]]] = []
    for kind, obstacle, climbable in shapes:
        props: dict[str, Any] = {"kind": KIND_NAMES[kind]}
        if obstacle:
            props["obstacle"] = obstacle / 2
        if climbable:
            props["climbable"] = True
        shapes[(kind, obstacle, climbable)] = len(tiles) + 1
        tiles.append((f"{KIND_NAMES[kind]}.png", props))
    for half in heights:
        heights[half] = len(tiles) + 1
        tiles.append(("elevation.png", {"elevation": half / 2}))
    for half in depths:
        depths[half] = len(tiles) + 1
        tiles.append(("depth.png", {"depth": half / 2}))
    images = out.parent / "sim_tiles"
    images.mkdir(parents=True, exist_ok=True)
    for name in {image for image, _ in tiles}:
        shutil.copyfile(ASSETS / name, images / name)
    w, h = state.width, state.height

    def layer(lid: int, name: str, gid: Any) -> str:
        rows = [",".join(str(gid(state.terrain[y][x])) for x in range(w)) for y in range(h)]
        data = ",\n".join(rows)
        return (
            f' <layer id="{lid}" name="{name}" width="{w}" height="{h}">\n'
            f'  <data encoding="csv">\n{data}\n</data>\n </layer>\n'
        )

    def props_xml(props: dict[str, Any], indent: str) -> str:
        lines = [f"{indent}<properties>"]
        for key, value in props.items():
            kind = (
                "bool"
                if isinstance(value, bool)
                else "int"
                if isinstance(value, int)
                else "float"
                if isinstance(value, float)
                else "string"
            )
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            lines.append(
                f'{indent} <property name="{key}" type="{kind}" value={quoteattr(shown)}/>'
            )
        lines.append(f"{indent}</properties>")
        return "\n".join(lines) + "\n"

    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        '<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
        'renderorder="right-down" '
        f'width="{w}" height="{h}" tilewidth="{TILE}" tileheight="{TILE}" infinite="0" '
        f'nextlayerid="5" nextobjectid="{len(state.units) + 1}">\n',
    ]
    map_props: dict[str, Any] = {"name": state.name}
    if state.description:
        map_props["description"] = state.description
    if state.seed is not None:
        map_props["seed"] = state.seed
    for key in ("items", "objectives"):
        if source.raw.get(key) and isinstance(source.raw[key], list):
            tables = []
            for index, table in enumerate(source.raw[key]):
                table = dict(table)
                if isinstance(table.get("at"), str):
                    cells = (
                        (source.item_markers[index][1],)
                        if key == "items"
                        else source.goal_markers.get(table["at"], ())
                    )
                    if len(cells) != 1:
                        raise me.EditError(
                            f"{scenario_path}: a reach goal of {len(cells)} cells (marker "
                            f"{table['at']!r}) has no place in a Tiled map; give it one cell"
                        )
                    table["at"] = [cells[0].x, cells[0].y]
                tables.append(
                    "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in table.items()) + " }"
                )
            map_props[key] = "[" + ", ".join(tables) + "]"
    raw_content = source.raw.get("content")
    if isinstance(raw_content, list):
        map_props["content"] = _toml(raw_content)
    for key in packs.SECTIONS:
        section = source.raw.get(key)
        if isinstance(section, dict):  # `items` that is a list was written above
            map_props[key] = _toml(section)
    parts.append(props_xml(map_props, " "))
    parts.append(
        f' <tileset firstgid="1" name="sim terrain" tilewidth="{TILE}" tileheight="{TILE}" '
        f'tilecount="{len(tiles)}" columns="0">\n'
        '  <grid orientation="orthogonal" width="1" height="1"/>\n'
    )
    for index, (image, props) in enumerate(tiles):
        parts.append(f'  <tile id="{index}">\n')
        parts.append(props_xml(props, "   "))
        parts.append(
            f'   <image width="{TILE}" height="{TILE}" source="sim_tiles/{image}"/>\n  </tile>\n'
        )
    parts.append(" </tileset>\n")
    parts.append(layer(1, "terrain", lambda t: shapes[t.shape()]))
    if heights:
        parts.append(layer(2, "elevation", lambda t: heights.get(t.height, 0)))
    if depths:
        parts.append(layer(3, "depth", lambda t: depths.get(t.water, 0)))
    parts.append(' <objectgroup id="4" name="units">\n')
    for number, unit in enumerate(state.units, 1):
        cls = f' type="{unit.template}"' if unit.template else ""
        span = side(world, unit.id) * TILE  # R-Z1: the object covers the unit's footprint
        parts.append(
            f'  <object id="{number}" name="{unit.id}"{cls} x="{unit.cell.x * TILE}" '
            f'y="{unit.cell.y * TILE}" width="{span}" height="{span}">\n'
        )
        props = {"team": unit.team}
        for key, value in unit.overrides.items():
            props[key] = _toml(value) if key in LIST_KEYS else value
        parts.append(props_xml(props, "   "))
        parts.append("  </object>\n")
    parts.append(" </objectgroup>\n</map>\n")
    if isinstance(raw_content, list):
        carry_packs(raw_content, scenario_path.parent, out.parent)
    me.save(out, "".join(parts))


def carry_packs(paths: list[str], origin: Path, destination: Path) -> list[Path]:
    """The content packs `paths` (as a scenario names them) copied from beside a file in
    `origin` to the same places beside one in `destination`, so a map or scenario written there
    finds them; the files written. Raises EditError, writing nothing, when one is missing or
    refused where it is, or a different file is already in its place (never overwritten)."""
    try:
        return packs.carry(paths, origin, destination)
    except packs.PackError as error:
        raise me.EditError(str(error)) from None
