"""Tiled maps (.tmx): read with pytmx into a scenario, and written from one (docs/tiled.md).

The schema: tile properties `kind`, `elevation`, `depth`, `obstacle`, `climbable` (a cell
takes those of every tile layer's tile there, later layers winning); an object layer `units`
whose objects are units (name: id, class or type: template, property `team` and any unit
override); map properties `name`, `description`, `seed`, and `items` and `objectives` (TOML
arrays of the scenario's tables, written as text).
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from sim.content import mapedit as me
from sim.content.scenario import (
    MAX_METRES,
    MAX_SEED,
    UNIT_KEYS,
    Scenario,
    ScenarioError,
    load,
    loads,
)
from sim.core.geometry import Pos
from sim.core.grid import KIND_NAMES, Kind

TILE_KEYS = ("kind", "elevation", "depth", "obstacle", "climbable")
MAP_KEYS = ("name", "description", "seed", "items", "objectives")
# What pytmx puts among a tile's properties besides the custom ones.
PYTMX_FIELDS = {
    "id", "frames", "type", "class", "width", "height", "source", "trans", "colliders",
    "probability", "x", "y",
}  # fmt: skip
LIST_KEYS = {"held", "carried", "abilities", "skills"}  # written as TOML text in Tiled
ASSETS = Path(__file__).resolve().parents[2] / "assets" / "tiled"
TILE = 32  # pixels a cell in exported maps
_UNSAFE = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)


class TiledError(Exception):
    """A Tiled map that cannot be imported, with every problem found."""


def _refuse_unsafe(path: Path) -> None:
    """No DTDs at all: an external entity could read files elsewhere, an entity bomb could
    fill the memory; Tiled never writes either."""
    try:
        head = path.read_bytes()
    except OSError as error:
        raise TiledError(f"{path}: cannot read the file: {error.strerror}") from None
    if _UNSAFE.search(head):
        raise TiledError(
            f"{path}: the file declares a DOCTYPE or entities; Tiled never writes them and "
            "they are refused (they could read other files or expand without end)"
        )
    for source in re.findall(rb'<tileset[^>]*\ssource="([^"]+)"', head):
        tileset = (path.parent / source.decode("utf-8", "replace")).resolve()
        if tileset.exists() and _UNSAFE.search(tileset.read_bytes()):
            raise TiledError(f"{tileset}: the tileset declares a DOCTYPE or entities; refused")


def _metres(what: str, value: Any) -> tuple[int | None, str]:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return None, f"{what} must be a number of metres, not {value!r}"
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


def _pytmx() -> Any:
    """pytmx, imported quietly: importing it loads its pygame tools, and pygame's banner would
    go to standard output ahead of a command's own output."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pytmx

    return pytmx


def read_tmx(path: str | Path) -> tuple[me.MapState, list[str]]:
    """The scenario a Tiled map describes, and its warnings. Raises TiledError."""
    pytmx = _pytmx()
    path = Path(path)
    _refuse_unsafe(path)
    try:
        tmx = pytmx.TiledMap(str(path))
    except Exception as error:  # pytmx raises many kinds; all mean the same to the user
        raise TiledError(f"{path}: not a Tiled map that can be read: {error}") from None
    problems: list[str] = []
    unknown: set[str] = set()
    width, height = tmx.width, tmx.height
    cells: dict[Pos, dict[str, Any]] = {}
    for layer in tmx.layers:
        if not isinstance(layer, pytmx.TiledTileLayer):
            continue
        for x, y, gid in layer.iter_data():
            if not gid:
                continue
            props = tmx.get_tile_properties_by_gid(gid) or {}
            where = f"{path}: layer {layer.name!r}, the tile at [{x}, {y}]"
            cell = cells.setdefault(Pos(x, y), {})
            for key, value in props.items():
                if key in PYTMX_FIELDS:
                    continue  # pytmx's own fields, not custom properties
                if key not in TILE_KEYS:
                    unknown.add(f"tile property {key!r}")
                    continue
                if key == "kind":
                    if value not in KIND_NAMES:
                        problems.append(
                            f"{where}: kind {value!r} is not one of {', '.join(KIND_NAMES)}"
                        )
                        continue
                    cell["kind"] = Kind.named(value)
                elif key == "climbable":
                    flag = _bool(value)
                    if flag is None:
                        problems.append(f"{where}: climbable must be true or false, not {value!r}")
                        continue
                    cell["climbable"] = flag
                else:
                    half, message = _metres(key, value)
                    if half is None:
                        problems.append(f"{where}: {message}")
                        continue
                    cell[key] = half
    missing = [
        Pos(x, y)
        for y in range(height)
        for x in range(width)
        if "kind" not in cells.get(Pos(x, y), {})
    ]
    if missing:
        shown = ", ".join(f"[{p.x}, {p.y}]" for p in missing[:12])
        more = f" and {len(missing) - 12} more" if len(missing) > 12 else ""
        problems.append(f"{path}: no tile layer gives these cells a kind: {shown}{more}")
    terrain = tuple(
        tuple(
            me.Terrain(
                cells.get(Pos(x, y), {}).get("kind", Kind.OPEN),
                cells.get(Pos(x, y), {}).get("elevation", 0),
                cells.get(Pos(x, y), {}).get("depth", 0),
                cells.get(Pos(x, y), {}).get("obstacle", 0),
                cells.get(Pos(x, y), {}).get("climbable", False),
            )
            for x in range(width)
        )
        for y in range(height)
    )
    units: list[me.Unit] = []
    for layer in tmx.layers:
        if not isinstance(layer, pytmx.TiledObjectGroup):
            continue
        if layer.name != "units":
            continue
        for obj in layer:
            where = f"{path}: layer 'units', object {obj.name or obj.id!r}"
            template = getattr(obj, "class", None) or obj.type
            props = dict(obj.properties)
            team = props.pop("team", None)
            if not obj.name or not isinstance(team, str) or not team:
                problems.append(f"{where}: a unit needs a name (its id) and a property team")
                continue
            bottom = obj.y - obj.height if obj.gid else obj.y  # tile objects sit on their foot
            place = Pos(int(obj.x // tmx.tilewidth), int(bottom // tmx.tileheight))
            overrides: dict[str, Any] = {}
            for key, value in props.items():
                if key not in UNIT_KEYS or key in ("id", "team", "template", "at"):
                    unknown.add(f"unit property {key!r}")
                    continue
                if key in LIST_KEYS and isinstance(value, str):
                    try:
                        value = tomllib.loads(f"v = {value}")["v"]
                    except tomllib.TOMLDecodeError:
                        problems.append(
                            f'{where}: {key} must be TOML like ["spear"], not {value!r}'
                        )
                        continue
                if key == "prone":
                    value = _bool(value)
                overrides[key] = value
            units.append(me.Unit(-1, obj.name, team, template or None, place, overrides))
    props = dict(tmx.properties)
    seed: int | None = None
    if "seed" in props:
        try:
            seed = int(props["seed"])
            if not 0 <= seed <= MAX_SEED:
                raise ValueError
        except ValueError:
            problems.append(
                f"{path}: map property seed must be a whole number from 0 to {MAX_SEED}"
            )
    extras: dict[str, Any] = {}
    for key in ("items", "objectives"):
        if key in props:
            try:
                extras[key] = tomllib.loads(f"v = {props[key]}")["v"]
            except tomllib.TOMLDecodeError:
                problems.append(f"{path}: map property {key} must be a TOML array of tables")
    for key in props:
        if key not in MAP_KEYS:
            unknown.add(f"map property {key!r}")
    if problems:
        raise TiledError("\n".join(problems))
    warnings = []
    if unknown:
        warnings.append(
            f"{path}: properties outside the schema were left alone: {', '.join(sorted(unknown))}"
        )
    state = me.MapState(
        name=str(props.get("name", path.stem)),
        description=str(props.get("description", "")),
        seed=seed,
        terrain=terrain,
        units=tuple(units),
        goals=(),
    )
    return state, warnings


def to_scenario(path: str | Path) -> tuple[str, list[str]]:
    """A Tiled map as the text of a scenario file, and the warnings."""
    pytmx = _pytmx()
    state, warnings = read_tmx(path)
    tmx = pytmx.TiledMap(str(path))
    text = me.new_text(state.width, state.height)
    extra = ""
    for key in ("items", "objectives"):
        if key in tmx.properties:
            for table in tomllib.loads(f"v = {tmx.properties[key]}")["v"]:
                extra += f"\n[[{key}]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in table.items())
    source = me.open_text(text + extra, str(Path(path).with_suffix(".toml")))
    goals = source.state.goals
    out = me.render(source, replace(state, goals=goals))
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
            "\n".join(f"{path}: as a scenario: {p.message}" for p in error.problems)
        ) from None


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
