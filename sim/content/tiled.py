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
from dataclasses import replace
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from sim.content import mapedit as me
from sim.content import tmx
from sim.content.scenario import (
    MAX_METRES,
    MAX_SEED,
    UNIT_KEYS,
    Scenario,
    ScenarioError,
    load,
    loads,
)
from sim.content.tmx import TiledError
from sim.core.geometry import Pos
from sim.core.grid import KIND_NAMES, Kind
from sim.core.limits import first_problems, limits

__all__ = ["TiledError", "load_tmx", "read_tmx", "to_scenario", "write_tmx"]

TILE_KEYS = ("kind", "elevation", "depth", "obstacle", "climbable")
MAP_KEYS = ("name", "description", "seed", "items", "objectives")
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
        return None, f"{what} must be a number of metres, not {value!r}"
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
                cell[key] = half
    return cell, problems


def _terrain(
    tiled: tmx.TiledMap, problems: list[str], unknown: set[str]
) -> tuple[tuple[me.Terrain, ...], ...]:
    """The cells' terrain: each tile layer's tiles in turn, a later layer's properties
    winning. A tile's properties are read once, whatever the cells it covers."""
    width, height, path = tiled.width, tiled.height, tiled.path
    values: dict[str, list[Any]] = {
        "kind": [None] * (width * height),
        "elevation": [0] * (width * height),
        "depth": [0] * (width * height),
        "obstacle": [0] * (width * height),
        "climbable": [False] * (width * height),
    }
    read: dict[int, tuple[dict[str, Any], list[str]]] = {}
    for layer in tiled.layers:
        if not isinstance(layer, tmx.TileLayer):
            continue
        told: set[int] = set()
        for index, gid in enumerate(layer.gids):
            if not gid:
                continue
            if gid not in read:
                tile = tiled.tile(gid)
                read[gid] = _tile_terrain(tile, unknown) if tile else ({}, [])
            cell, wrong = read[gid]
            if wrong and gid not in told:
                told.add(gid)
                count = layer.gids.count(gid)
                more = f" (and {count - 1:,} more cells)" if count > 1 else ""
                where = f"{path}: layer {tmx.shown(layer.name)}, the tile at "
                where += f"[{index % width}, {index // width}]"
                problems.extend(f"{where}: {message}{more}" for message in wrong)
            for key, value in cell.items():
                values[key][index] = value
    missing = [i for i, kind in enumerate(values["kind"]) if kind is None]
    if missing:
        shown = ", ".join(f"[{i % width}, {i // width}]" for i in missing[:12])
        more = f" and {len(missing) - 12} more" if len(missing) > 12 else ""
        problems.append(f"{path}: no tile layer gives these cells a kind: {shown}{more}")
    return tuple(
        tuple(
            me.Terrain(
                values["kind"][i] or Kind.OPEN,
                values["elevation"][i],
                values["depth"][i],
                values["obstacle"][i],
                values["climbable"][i],
            )
            for i in range(y * width, (y + 1) * width)
        )
        for y in range(height)
    )


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
            bottom = obj.y - obj.height if obj.gid else obj.y  # tile objects sit on their foot
            place = Pos(int(obj.x // tiled.tilewidth), int(bottom // tiled.tileheight))
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
            units.append(me.Unit(-1, obj.name, team, obj.cls or None, place, overrides))
    return units


def _map_extras(
    tiled: tmx.TiledMap, problems: list[str], unknown: set[str]
) -> tuple[int | None, dict[str, list[dict[str, Any]]]]:
    """The map's seed, and its `items` and `objectives` as lists of tables."""
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
    extras: dict[str, list[dict[str, Any]]] = {}
    for key in ("items", "objectives"):
        if key in props:
            value, ok = _toml_text(props[key])
            if ok and isinstance(value, list) and all(isinstance(t, dict) for t in value):
                extras[key] = value
            else:
                problems.append(f"{path}: map property {key} must be a TOML array of tables")
    for key in props:
        if key not in MAP_KEYS:
            unknown.add(f"map property {tmx.shown(key)}")
    return seed, extras


def _read(path: str | Path) -> tuple[me.MapState, dict[str, list[dict[str, Any]]], list[str]]:
    """The scenario a Tiled map describes, its `items` and `objectives` tables, and its
    warnings. Raises TiledError with every problem (the first screenful of them)."""
    tiled = tmx.read(path)
    problems: list[str] = []
    unknown: set[str] = set()
    terrain = _terrain(tiled, problems, unknown)
    units = _units(tiled, problems, unknown)
    seed, extras = _map_extras(tiled, problems, unknown)
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
    return state, extras, warnings


def read_tmx(path: str | Path) -> tuple[me.MapState, list[str]]:
    """The scenario a Tiled map describes, and its warnings. Raises TiledError."""
    state, _, warnings = _read(path)
    return state, warnings


def to_scenario(path: str | Path) -> tuple[str, list[str]]:
    """A Tiled map as the text of a scenario file, and the warnings. Raises TiledError."""
    state, extras, warnings = _read(path)
    text = me.new_text(state.width, state.height)
    for key, tables in extras.items():
        for table in tables:
            text += f"\n[[{key}]]\n" + "".join(
                f"{_key(k)} = {_toml(v)}\n" for k, v in table.items()
            )
    try:
        source = me.open_text(text, str(Path(path).with_suffix(".toml")))
    except me.EditError as error:
        # The map's items or objectives, which are the only text taken whole from the map.
        lines = [re.sub(r"^.*?:\d+: ", "", line) for line in str(error).splitlines()]
        raise TiledError(
            "\n".join(first_problems([f"{path}: as a scenario: {line}" for line in lines]))
        ) from None
    out = me.render(source, replace(state, goals=source.state.goals))
    return out, warnings


def load_tmx(path: str | Path) -> tuple[Scenario, list[str]]:
    """A Tiled map as a scenario to play, and the warnings. The scenario's own problems (a unit
    in a wall, an unknown template) are TiledErrors too, named by the map, not by lines of a
    file that was never written."""
    text, warnings = to_scenario(path)
    try:
        return loads(text, str(path)), warnings
    except ScenarioError as error:
        raise TiledError(
            "\n".join(
                first_problems([f"{path}: as a scenario: {p.message}" for p in error.problems])
            )
        ) from None


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
    load(scenario_path)  # refuse a scenario with problems, with sim check's words
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
        if source.raw.get(key):
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
        parts.append(
            f'  <object id="{number}" name="{unit.id}"{cls} x="{unit.cell.x * TILE}" '
            f'y="{unit.cell.y * TILE}" width="{TILE}" height="{TILE}">\n'
        )
        props = {"team": unit.team}
        for key, value in unit.overrides.items():
            props[key] = _toml(value) if key in LIST_KEYS else value
        parts.append(props_xml(props, "   "))
        parts.append("  </object>\n")
    parts.append(" </objectgroup>\n</map>\n")
    me.save(out, "".join(parts))
