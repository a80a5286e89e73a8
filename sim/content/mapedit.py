"""The map editor's model: a scenario as edits see it, the edits, their undo history and saving.

No pygame here, so every edit is testable without a window. Saving rewrites only what the edits
changed in the file as it was opened (tomlkit keeps the rest, comments and layout included).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import Array, InlineTable, String, StringType, Table, Trivia

from sim.content.packs import Content
from sim.content.scenario import (
    MAX_METRES,
    MAX_SEED,
    Problem,
    ScenarioError,
    legend_terrain,
    loads,
    map_levels,
    read_content,
    read_terrain,
)
from sim.content.tilekinds import Entry
from sim.core.files import Unreadable, read_text, write_atomically
from sim.core.geometry import Pos, footprint
from sim.core.grid import KIND_NAMES, Kind
from sim.core.limits import limits
from sim.core.numbers import Race, default_rules

MAX_HALF = 2 * MAX_METRES
# Characters a saved map may take for a new legend entry or [map.levels] key: never a quote, a
# backslash or a space, which a row string could not hold as written.
_POOL = (
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ!$&*+-/:;<=>?@|`{}()[]abcdefghijklmnopqrstuvwxyz0123456789"
    + "".join(chr(c) for c in range(0xC0, 0x250))
)


@dataclass(frozen=True, slots=True)
class Terrain:
    """One cell's terrain; heights, depths and obstacles in half-metres (R-U2)."""

    kind: Kind = Kind.OPEN
    height: int = 0
    water: int = 0
    obstacle: int = 0
    climbable: bool = False

    def shape(self) -> tuple[Kind, int, bool]:
        """What only the map's rows and legend can say (heights and depths rows cannot)."""
        return (self.kind, self.obstacle, self.climbable)


@dataclass(frozen=True)
class Unit:
    """A [[units]] table: `key` is its index in the file as opened, -1 for a new one."""

    key: int
    id: str
    team: str
    template: str | None
    cell: Pos
    overrides: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Goal:
    """An [[objectives]] table; `at` is a cell, or the marker of a reach goal's cells."""

    key: int
    kind: str
    team: str | None = None
    rounds: int | None = None
    at: Pos | str | None = None


Rows = tuple[tuple[Terrain, ...], ...]


@dataclass(frozen=True)
class MapState:
    """Everything an edit can change. Immutable: undo keeps the states themselves."""

    name: str
    description: str
    seed: int | None
    terrain: Rows  # [y][x]; rows no edit touched are shared between states
    units: tuple[Unit, ...]
    goals: tuple[Goal, ...]
    # A Tiled map's tiles and what each was made (the editor's tile palette, saved to the map's
    # kinds file): ((tileset, tile id), entry) pairs. Kept here so that undo takes them back too.
    tile_kinds: tuple[tuple[tuple[str, int], Entry], ...] = ()

    @property
    def width(self) -> int:
        return len(self.terrain[0])

    @property
    def height(self) -> int:
        return len(self.terrain)

    def at(self, pos: Pos) -> Terrain:
        return self.terrain[pos.y][pos.x]

    def inside(self, pos: Pos) -> bool:
        return 0 <= pos.x < self.width and 0 <= pos.y < self.height

    def unit(self, uid: str) -> Unit | None:
        return next((u for u in self.units if u.id == uid), None)

    def unit_at(self, pos: Pos) -> Unit | None:
        return next((u for u in self.units if u.cell == pos), None)


class EditError(Exception):
    """A file the editor cannot open, with the problems that stop it (as `sim check` words
    them)."""


# --- the file as opened ------------------------------------------------------------------------


def _block_rows(value: Any) -> list[str]:
    if isinstance(value, str):
        lines = value.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return lines
    return [str(v) for v in value]


@dataclass(frozen=True)
class PaletteEntry:
    """A template the editor's palette offers: its keys, and the file that defines it ("" for
    a shipped one)."""

    name: str
    keys: Mapping[str, Any]
    origin: str = ""

    def summary(self) -> str:
        """`ogre (monsters.toml): ogrekin STR d12+4 AGI d6+4 RES d10+4 tusk`."""
        k = self.keys
        held = k.get("held", [])
        origin = f" ({Path(self.origin).name})" if self.origin else ""
        return (
            f"{self.name}{origin}: {k.get('race', '')} STR {k.get('str')} AGI {k.get('agi')} "
            f"RES {k.get('res')} {', '.join(held) if isinstance(held, list) else ''}"
        )


@dataclass
class Source:
    """The file as opened: its text and what its map's characters are. Saving always rewrites
    this text, so undoing past a save and saving again is still right."""

    path: str
    text: str
    raw: dict[str, Any]
    state: MapState
    rows: list[str]
    heights: list[str] | None
    depths: list[str] | None
    legend: dict[str, Terrain]
    levels: dict[str, int]
    unit_markers: dict[int, str]  # [[units]] index -> its `at` marker
    item_markers: dict[int, tuple[str, Pos]]
    goal_markers: dict[str, tuple[Pos, ...]]  # reach goals drawn by a marker: its cells
    markers: set[str]  # every character used as a marker
    # Its own templates, races, equipment and abilities and its packs' (issue #32): the
    # palette offers its templates beside the shipped ones.
    content: Content

    def palette(self) -> list[PaletteEntry]:
        """The templates a unit may be placed with: the scenario's own and its packs' (those
        without problems) first, in file order, then the shipped ones by name."""
        own = {e.name: e for e in self.content.entries if e.section == "templates"}
        templates = self.content.catalog.templates
        shipped = sorted(name for name in templates if name not in own)
        found = [
            PaletteEntry(name, templates[name], entry.file or self.path)
            for name, entry in own.items()
            if name in templates
        ]
        return found + [PaletteEntry(name, templates[name]) for name in shipped]

    def kept_goal_markers(self, state: MapState) -> set[str]:
        """The reach goals' markers that `state` still uses."""
        return {g.at for g in state.goals if isinstance(g.at, str)}

    def locker(self, state: MapState) -> Callable[[Pos], Terrain | None]:
        """For `paint`: a cell of a reach goal's marker keeps its character, so only its
        height and depth can change; this gives the terrain whose kind, obstacle and climbable
        it must keep."""
        cells = {
            p for char in self.kept_goal_markers(state) for p in self.goal_markers.get(char, ())
        }
        return lambda pos: state.at(pos) if pos in cells else None


def new_text(width: int, height: int, name: str = "New map") -> str:
    """A new, empty scenario: open ground with a wall round it."""
    rows = []
    for y in range(height):
        if y in (0, height - 1) or width < 3 or height < 3:
            rows.append("#" * width)
        else:
            rows.append("#" + "." * (width - 2) + "#")
    body = "\n".join(rows)
    return f'name = "{name}"\ndescription = ""\n\n[map]\nrows = """\n{body}\n"""\n'


def open_text(text: str, path: str = "<scenario>") -> Source:
    """Read a scenario for editing. Raises EditError when its map cannot be drawn."""
    try:
        raw = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        try:
            loads(text, path)
        except ScenarioError as error:
            raise EditError(str(error)) from None
        raise
    grid, markers, problems = read_terrain(raw, text, path)
    if grid is None or problems:
        raise EditError("\n".join(f"{path}:{p.line}: {p.message}" for p in problems))
    terrain = tuple(
        tuple(
            Terrain(
                Kind(int(grid.layers["kind"][y, x])),
                int(grid.layers["height"][y, x]),
                int(grid.layers["water"][y, x]),
                int(grid.layers["obstacle"][y, x]),
                bool(grid.layers["climbable"][y, x]),
            )
            for x in range(grid.width)
        )
        for y in range(grid.height)
    )
    stops: list[str] = []
    units: list[Unit] = []
    unit_markers: dict[int, str] = {}
    for index, table in enumerate(raw.get("units", [])):
        cell = _place(table.get("at") if isinstance(table, dict) else None, markers)
        if (
            not isinstance(table, dict)
            or not isinstance(table.get("id"), str)
            or not isinstance(table.get("team"), str)
            or cell is None
        ):
            stops.append(f"[[units]] number {index + 1} needs an id, a team and a cell to edit it")
            continue
        if isinstance(table["at"], str):
            unit_markers[index] = table["at"]
        template = table.get("template")
        units.append(
            Unit(
                key=index,
                id=table["id"],
                team=table["team"],
                template=template if isinstance(template, str) else None,
                cell=cell,
                overrides={
                    k: v for k, v in table.items() if k not in ("id", "team", "template", "at")
                },
            )
        )
    item_markers: dict[int, tuple[str, Pos]] = {}
    ground = raw["items"] if isinstance(raw.get("items"), list) else []  # not item kinds
    for index, item in enumerate(ground):
        if isinstance(item, dict) and isinstance(item.get("at"), str):
            cells = markers.get(item["at"], ())
            if len(cells) == 1:
                item_markers[index] = (item["at"], cells[0])
    goals: list[Goal] = []
    goal_markers: dict[str, tuple[Pos, ...]] = {}
    for index, entry in enumerate(raw.get("objectives", [])):
        if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
            stops.append(f"[[objectives]] number {index + 1} needs a kind to edit it")
            continue
        at = entry.get("at")
        where: Pos | str | None = None
        if isinstance(at, str):
            where = at
            goal_markers[at] = markers.get(at, ())
        elif at is not None:
            where = _place(at, markers)
        rounds = entry.get("rounds")
        team = entry.get("team")
        goals.append(
            Goal(
                index,
                entry["kind"],
                team if isinstance(team, str) else None,
                rounds if isinstance(rounds, int) else None,
                where,
            )
        )
    if stops:
        raise EditError("\n".join(f"{path}: {s}" for s in stops))
    seed = raw.get("seed")
    state = MapState(
        name=str(raw.get("name", "")),
        description=str(raw.get("description", "")),
        seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
        terrain=terrain,
        units=tuple(units),
        goals=tuple(goals),
    )
    mapt = raw["map"]
    return Source(
        path=path,
        text=text,
        raw=raw,
        state=state,
        rows=_block_rows(mapt["rows"]),
        heights=_block_rows(mapt["heights"]) if "heights" in mapt else None,
        depths=_block_rows(mapt["depths"]) if "depths" in mapt else None,
        legend={c: Terrain(*t) for c, t in legend_terrain(raw).items()},
        levels=map_levels(raw),
        unit_markers=unit_markers,
        item_markers=item_markers,
        goal_markers=goal_markers,
        markers=set(markers),
        content=read_content(raw, text, path)[0],
    )


def open_file(path: str | Path) -> Source:
    try:
        text = read_text(path, limits().files.scenario, "a scenario file")
    except Unreadable as error:
        raise EditError(f"{path}:1: {error}") from None
    return open_text(text, str(path))


def _place(at: Any, markers: Mapping[str, tuple[Pos, ...]]) -> Pos | None:
    if isinstance(at, str):
        cells = markers.get(at, ())
        return cells[0] if len(cells) == 1 else None
    if (
        isinstance(at, list)
        and len(at) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in at)
    ):
        return Pos(at[0], at[1])
    return None


# --- edits ---------------------------------------------------------------------------------------


def brush(state: MapState, centre: Pos, radius: int = 0) -> list[Pos]:
    """The square of cells within `radius` of `centre` (0: the cell alone), inside the map."""
    return [
        Pos(x, y)
        for y in range(centre.y - radius, centre.y + radius + 1)
        for x in range(centre.x - radius, centre.x + radius + 1)
        if state.inside(Pos(x, y))
    ]


def rectangle(state: MapState, a: Pos, b: Pos) -> list[Pos]:
    """Every cell of the rectangle with corners `a` and `b`, inside the map."""
    return [
        Pos(x, y)
        for y in range(min(a.y, b.y), max(a.y, b.y) + 1)
        for x in range(min(a.x, b.x), max(a.x, b.x) + 1)
        if state.inside(Pos(x, y))
    ]


def flood(state: MapState, start: Pos) -> list[Pos]:
    """The cells joined to `start` side by side that have exactly its terrain."""
    if not state.inside(start):
        return []
    same = state.at(start)
    seen = {start}
    todo = [start]
    while todo:
        pos = todo.pop()
        for step in (Pos(1, 0), Pos(-1, 0), Pos(0, 1), Pos(0, -1)):
            nxt = Pos(pos.x + step.x, pos.y + step.y)
            if nxt not in seen and state.inside(nxt) and state.at(nxt) == same:
                seen.add(nxt)
                todo.append(nxt)
    return sorted(seen, key=lambda p: (p.y, p.x))


def _clamp(half: int) -> int:
    return max(0, min(MAX_HALF, half))


def _layered(t: Terrain, layer: str, half: int) -> Terrain:
    half = _clamp(half)
    if layer == "height":
        return replace(t, height=half)
    if layer == "water":
        return replace(t, water=half)
    if layer == "obstacle":
        return replace(t, obstacle=half)
    raise ValueError(f"no layer {layer!r}")


def set_kind(kind: Kind) -> Callable[[Terrain], Terrain]:
    return lambda t: replace(t, kind=kind)


def shift(layer: str, halves: int) -> Callable[[Terrain], Terrain]:
    """Raise (or lower, with a negative count) `height`, `water` or `obstacle` by half-metres,
    never below 0 or above the format's 1000 m."""
    return lambda t: _layered(t, layer, getattr(t, layer) + halves)


def set_level(layer: str, half: int) -> Callable[[Terrain], Terrain]:
    return lambda t: _layered(t, layer, half)


def set_climbable(climbable: bool) -> Callable[[Terrain], Terrain]:
    return lambda t: replace(t, climbable=climbable)


def paint(
    state: MapState,
    cells: Iterable[Pos],
    change: Callable[[Terrain], Terrain],
    locked: Callable[[Pos], Terrain | None] = lambda pos: None,
) -> MapState:
    """`change` applied to each cell. A locked cell (a reach goal's marker) takes only a new
    height or depth."""
    rows = [list(row) for row in state.terrain]
    touched: set[int] = set()
    for pos in cells:
        if not state.inside(pos):
            continue
        new = change(rows[pos.y][pos.x])
        keep = locked(pos)
        if keep is not None and new.shape() != keep.shape():
            continue
        if new != rows[pos.y][pos.x]:
            rows[pos.y][pos.x] = new
            touched.add(pos.y)
    if not touched:
        return state
    terrain = tuple(tuple(row) if y in touched else state.terrain[y] for y, row in enumerate(rows))
    return replace(state, terrain=terrain)


def new_unit_id(state: MapState, template: str | None) -> str:
    """A fresh id from the template's last word ("brute1", "brute2", ...)."""
    stem = re.sub(r"[^a-z0-9_]", "", (template or "unit").split("_")[-1].lower()) or "unit"
    if not stem[0].isalpha():
        stem = "u" + stem
    taken = {u.id for u in state.units}
    number = 1
    while f"{stem}{number}" in taken:
        number += 1
    return f"{stem}{number}"


def place_unit(
    state: MapState, template: str | None, team: str, cell: Pos, uid: str | None = None
) -> MapState:
    unit = Unit(-1, uid or new_unit_id(state, template), team, template, cell)
    return replace(state, units=(*state.units, unit))


def unit_side(source: Source, unit: Unit) -> int:
    """How many cells a side `unit` covers (R-Z1): its own `size`, else its template's, else
    its race's (the scenario's content's races, then the rules'); 1 when none says, or when
    what says is no size (the checker names that)."""
    keys = _unit_keys(source, unit)
    size = keys.get("size")
    if size is None:
        race = _race(source, keys)
        size = race.size if race is not None else 1
    return size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else 1


def unit_flies(source: Source, unit: Unit) -> bool:
    """Whether `unit` has a fly speed (R-Z5): its own `fly`, else its template's, else its
    race's; not when what says is no number (the checker names that)."""
    keys = _unit_keys(source, unit)
    fly = keys.get("fly")
    if fly is None:
        race = _race(source, keys)
        fly = race.fly if race is not None else 0
    return isinstance(fly, int | float) and not isinstance(fly, bool) and fly > 0


def _unit_keys(source: Source, unit: Unit) -> dict[str, Any]:
    """A unit's keys: its template's (if the battle's catalog knows it) under its own."""
    template = source.content.catalog.templates.get(unit.template or "", {})
    return {**template, **unit.overrides}


def _race(source: Source, keys: Mapping[str, Any]) -> Race | None:
    name = keys.get("race")
    if not isinstance(name, str):
        return None
    return source.content.catalog.races.get(name) or default_rules().races.get(name)


def unit_cells(source: Source, unit: Unit) -> tuple[Pos, ...]:
    """The cells `unit` stands on, its top-left first (R-Z1)."""
    return footprint(unit.cell, unit_side(source, unit))


def unit_covering(source: Source, state: MapState, pos: Pos) -> Unit | None:
    """The unit standing on `pos`: on its top-left or on any cell of a large one's footprint
    (R-Z1); the last placed when several overlap."""
    return next((u for u in reversed(state.units) if pos in unit_cells(source, u)), None)


def footprint_problem(source: Source, state: MapState, uid: str) -> str | None:
    """Why the unit `uid` cannot stand where `state` puts it, as the loader would refuse it
    (R-Z1, R-M5): a cell of its footprint off the map, on a wall, on a pit (unless it flies,
    R-Z5), or on another unit's footprint; None when it fits."""
    unit = state.unit(uid)
    if unit is None:
        return None
    side = unit_side(source, unit)
    keys = _unit_keys(source, unit)
    race = _race(source, keys)
    fly = keys.get("fly", race.fly if race is not None else 0)
    solid = (Kind.WALL,) if isinstance(fly, int | float) and fly > 0 else (Kind.WALL, Kind.PIT)
    big = f"{uid} is size {side}: its {side}x{side} cells from {unit.cell}" if side > 1 else uid
    for cell in footprint(unit.cell, side):
        if not state.inside(cell):
            return f"{big} would go off the map at {cell} (R-Z1)"
        kind = state.at(cell).kind
        if kind in solid:
            return f"{big} would stand on {kind.name.lower()} at {cell} (R-Z1)"
    if unit.overrides.get("prone") is True:
        return None  # a prone creature may share cells (R-M5)
    mine = set(footprint(unit.cell, side))
    for other in state.units:
        if other.id == uid or other.overrides.get("prone") is True:
            continue
        met = next((c for c in unit_cells(source, other) if c in mine), None)
        if met is not None:
            return f"{big} would stand on {other.id} at {met} (R-M5, R-Z1)"
    return None


def move_unit(state: MapState, uid: str, cell: Pos) -> MapState:
    return _with_unit(state, uid, lambda u: replace(u, cell=cell))


def delete_unit(state: MapState, uid: str) -> MapState:
    return replace(state, units=tuple(u for u in state.units if u.id != uid))


def set_unit(
    state: MapState,
    uid: str,
    *,
    id: str | None = None,
    team: str | None = None,
    template: str | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> MapState:
    """Change a unit's id, team, template or overrides (the whole table of overrides)."""

    def change(unit: Unit) -> Unit:
        return replace(
            unit,
            id=unit.id if id is None else id,
            team=unit.team if team is None else team,
            template=unit.template if template is None else template,
            overrides=unit.overrides if overrides is None else dict(overrides),
        )

    return _with_unit(state, uid, change)


def _with_unit(state: MapState, uid: str, change: Callable[[Unit], Unit]) -> MapState:
    return replace(state, units=tuple(change(u) if u.id == uid else u for u in state.units))


def set_info(
    state: MapState,
    *,
    name: str | None = None,
    description: str | None = None,
    seed: int | str | None = "",
) -> MapState:
    """Name, description and seed (`seed=None` removes it; the default leaves it)."""
    return replace(
        state,
        name=state.name if name is None else name,
        description=state.description if description is None else description,
        seed=state.seed if isinstance(seed, str) else seed,
    )


def add_goal(state: MapState, kind: str, team: str, rounds: int | None, at: Pos | None) -> MapState:
    return replace(state, goals=(*state.goals, Goal(-1, kind, team, rounds, at)))


def remove_goal(state: MapState, index: int) -> MapState:
    return replace(state, goals=state.goals[:index] + state.goals[index + 1 :])


# --- undo ----------------------------------------------------------------------------------------


class History:
    """Every state the edits made, and where undo and redo stand among them."""

    def __init__(self, first: MapState) -> None:
        self._states = [first]
        self._at = 0

    @property
    def state(self) -> MapState:
        return self._states[self._at]

    def push(self, state: MapState) -> bool:
        """Record an edit's result; an edit that changed nothing is not one to undo."""
        if state == self.state:
            return False
        del self._states[self._at + 1 :]
        self._states.append(state)
        self._at += 1
        return True

    def amend(self, state: MapState) -> None:
        """Replace the newest edit's result: the rest of one brush stroke is the same edit."""
        if self._at == 0:
            self.push(state)
            return
        self._states[self._at] = state

    @property
    def undoable(self) -> int:
        """How many edits undo can still take back."""
        return self._at

    def undo(self) -> bool:
        if self._at == 0:
            return False
        self._at -= 1
        return True

    def redo(self) -> bool:
        if self._at + 1 >= len(self._states):
            return False
        self._at += 1
        return True


def change_words(before: MapState, after: MapState) -> str:
    """What an edit changed, in a few words, for the editor's undo and redo to say.

    >>> state = open_text(new_text(5, 4)).state
    >>> change_words(state, paint(state, [Pos(1, 1), Pos(2, 1)], set_kind(Kind.WALL)))
    '2 cells'
    >>> change_words(state, set_info(state, name="Ford"))
    "the map's name, description or seed"
    """
    parts = []
    cells = sum(
        a != b
        for row_a, row_b in zip(before.terrain, after.terrain, strict=True)
        if row_a is not row_b
        for a, b in zip(row_a, row_b, strict=True)
    )
    if cells:
        parts.append(f"{cells} cell{'' if cells == 1 else 's'}")
    units = {u.id: u for u in before.units}
    others = {u.id: u for u in after.units}
    changed = sorted(
        uid for uid in units.keys() | others.keys() if units.get(uid) != others.get(uid)
    )
    if changed:
        parts.append(f"unit{'' if len(changed) == 1 else 's'} {', '.join(changed)}")
    if before.goals != after.goals:
        parts.append("the objectives")
    if (before.name, before.description, before.seed) != (
        after.name,
        after.description,
        after.seed,
    ):
        parts.append("the map's name, description or seed")
    return ", ".join(parts) or "nothing"


# --- saving --------------------------------------------------------------------------------------


def _metres(half: int) -> int | float:
    return half // 2 if half % 2 == 0 else half / 2


def toml_value(value: Any) -> Any:
    """A TOML value for tomlkit: dicts as inline tables so a unit stays one table."""
    if isinstance(value, Mapping):
        table = tomlkit.inline_table()
        table.update({k: toml_value(v) for k, v in value.items()})
        return table
    if isinstance(value, list | tuple):
        array = tomlkit.array()
        array.extend(toml_value(v) for v in value)
        return array
    return value


def _cell_value(pos: Pos) -> Array:
    array = tomlkit.array()
    array.extend([pos.x, pos.y])
    return array


def _block_item(lines: list[str], like: Any) -> Any:
    """Rows for `rows`, `heights` or `depths`, written as the file wrote its rows."""
    if isinstance(like, list | Array):
        array = tomlkit.array()
        array.extend(lines)
        return array
    body = "\n".join(lines) + "\n"
    literal = isinstance(like, String) and like.type == StringType.MLL
    if literal and "'''" not in body:
        return String(StringType.MLL, body, "\n" + body, Trivia())
    if "\\" in body or '"' in body:
        return tomlkit.string(body, multiline=True)
    return String(StringType.MLB, body, "\n" + body, Trivia())


class _MapWriter:
    """Writes changed cells back into the rows, choosing for each a legend character and,
    where its height or depth differs from the legend's, a `heights`/`depths` character."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.rows = [list(r) for r in source.rows]
        self.heights = [list(r) for r in source.heights] if source.heights is not None else None
        self.depths = [list(r) for r in source.depths] if source.depths is not None else None
        self.legend = dict(source.legend)
        self.levels = dict(source.levels)
        self.new_legend: dict[str, Terrain] = {}
        self.new_levels: dict[str, int] = {}
        used = {c for row in source.rows for c in row}
        self.taken = used | set(self.legend) | source.markers
        self.by_level: dict[int, str] = {}
        for char, half in self.levels.items():
            self.by_level.setdefault(half, char)

    def fresh(self, taken: set[str]) -> str:
        for char in _POOL:
            if char not in taken:
                return char
        raise EditError("the map uses too many different terrains to save")

    def level_char(self, half: int) -> str:
        if half not in self.by_level:
            char = self.fresh(set(self.levels) | {"."})
            self.levels[char] = half
            self.new_levels[char] = half
            self.by_level[half] = char
        return self.by_level[half]

    def write(self, pos: Pos, terrain: Terrain, keep_char: bool) -> None:
        x, y = pos.x, pos.y
        char = self.rows[y][x]
        if keep_char:  # a reach goal's marker: the character stays, heights and depths say
            base = self.legend.get(char, Terrain())
        else:
            char, base = self.choose(char, terrain)
            self.rows[y][x] = char
        for layer, attr in (("heights", "height"), ("depths", "water")):
            want = getattr(terrain, attr)
            block = getattr(self, layer)
            if getattr(base, attr) == want:
                if block is not None:
                    block[y][x] = "."
                continue
            if block is None:
                block = [["."] * len(self.rows[0]) for _ in self.rows]
                setattr(self, layer, block)
            block[y][x] = self.level_char(want)

    def choose(self, current: str, terrain: Terrain) -> tuple[str, Terrain]:
        fits = [
            c
            for c, t in self.legend.items()
            if t.shape() == terrain.shape() and c not in self.source.markers
        ]
        exact = [
            c
            for c in fits
            if self.legend[c].height == terrain.height and self.legend[c].water == terrain.water
        ]
        for group in (exact, fits):
            if current in group:
                return current, self.legend[current]
            if group:
                return group[0], self.legend[group[0]]
        char = self.fresh(self.taken)
        self.taken.add(char)
        self.legend[char] = terrain
        self.new_legend[char] = terrain
        return char, terrain


def render(source: Source, state: MapState) -> str:
    """The file's text with `state`'s edits written into it; untouched parts stay as written."""
    doc = tomlkit.parse(source.text)
    old = source.state
    for key, value, before in (
        ("name", state.name, old.name),
        ("description", state.description, old.description),
    ):
        if value != before:
            doc[key] = value
    if state.seed != old.seed:
        if state.seed is None:
            doc.pop("seed", None)
        else:
            doc["seed"] = state.seed
    _write_map(doc, source, state)
    _write_units(doc, source, state)
    _write_goals(doc, source, state)
    return tomlkit.dumps(doc)


def _released_markers(source: Source, state: MapState, changed: set[Pos]) -> dict[int, Pos]:
    """Units whose marker goes (moved, deleted, or its cell repainted), with the marker's cell."""
    now = {u.key: u for u in state.units if u.key >= 0}
    released: dict[int, Pos] = {}
    for key in source.unit_markers:
        cell = next(u.cell for u in source.state.units if u.key == key)
        unit = now.get(key)
        if unit is None or unit.cell != cell or cell in changed:
            released[key] = cell
    return released


def _changed(source: Source, state: MapState) -> set[Pos]:
    old = source.state.terrain
    return {
        Pos(x, y)
        for y, row in enumerate(state.terrain)
        if row is not old[y]
        for x, cell in enumerate(row)
        if cell != old[y][x]
    }


def _write_map(doc: Any, source: Source, state: MapState) -> None:
    changed = _changed(source, state)
    released = set(_released_markers(source, state, changed).values())
    items_released = {cell for _, cell in source.item_markers.values() if cell in changed}
    goal_cells = {
        p for char in source.kept_goal_markers(state) for p in source.goal_markers.get(char, ())
    }
    dropped_goals = {p for cells in source.goal_markers.values() for p in cells} - goal_cells
    todo = changed | released | items_released | dropped_goals
    if not todo:
        return
    writer = _MapWriter(source)
    for pos in sorted(todo, key=lambda p: (p.y, p.x)):
        writer.write(pos, state.at(pos), keep_char=pos in goal_cells)
    mapt = doc["map"]
    original = mapt["rows"]
    mapt["rows"] = _block_item(["".join(r) for r in writer.rows], original)
    for key in ("heights", "depths"):
        block = getattr(writer, key)
        if block is not None:
            lines = ["".join(r) for r in block]
            if key in mapt:
                if lines != _block_rows(source.raw["map"][key]):
                    mapt[key] = _block_item(lines, mapt[key])
            else:
                mapt[key] = _block_item(lines, original)  # tomlkit puts it before [map.levels]
    if writer.new_levels:
        if "levels" not in mapt:
            mapt["levels"] = tomlkit.table()
        for char, half in writer.new_levels.items():
            mapt["levels"][char] = _metres(half)
    if writer.new_legend:
        if "legend" not in doc:
            doc["legend"] = tomlkit.table()
        for char, t in writer.new_legend.items():
            entry = tomlkit.inline_table()
            entry["kind"] = KIND_NAMES[t.kind]
            for attr, name in (("height", "height"), ("water", "water"), ("obstacle", "obstacle")):
                if getattr(t, attr):
                    entry[name] = _metres(getattr(t, attr))
            if t.climbable:
                entry["climbable"] = True
            doc["legend"][char] = entry
    # Items whose marker cell was repainted lie at their cell instead.
    for index, (_, cell) in source.item_markers.items():
        if cell in changed:
            doc["items"][index]["at"] = _cell_value(cell)


def _unit_fields(unit: Unit, at: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {"id": unit.id, "team": unit.team}
    if unit.template is not None:
        fields["template"] = unit.template
    fields["at"] = at
    fields.update(unit.overrides)
    return fields


def _update(table: Table | InlineTable, raw: Mapping[str, Any], fields: Mapping[str, Any]) -> None:
    for key, value in fields.items():
        if key not in raw or raw[key] != value:
            table[key] = _cell_value(value) if isinstance(value, Pos) else toml_value(value)
    for key in raw:
        if key not in fields:
            del table[key]


def _write_units(doc: Any, source: Source, state: MapState) -> None:
    changed = _changed(source, state)
    released = _released_markers(source, state, changed)
    raw_units = source.raw.get("units", [])
    tables: list[Table] = []
    for unit in state.units:
        if unit.key >= 0:
            table = doc["units"][unit.key]
            marker = source.unit_markers.get(unit.key)
            at: Any = marker if marker is not None and unit.key not in released else unit.cell
            raw = dict(raw_units[unit.key])
            if isinstance(raw.get("at"), list) and isinstance(at, Pos):
                raw["at"] = Pos(*raw["at"])
            _update(table, raw, _unit_fields(unit, at))
        else:
            table = tomlkit.table()
            _update(table, {}, _unit_fields(unit, unit.cell))
        tables.append(table)
    if [u.key for u in state.units] == list(range(len(raw_units))):
        return
    units = tomlkit.aot()
    for table in tables:
        units.append(table)
    if "units" in doc:
        doc["units"] = units
    elif tables:
        doc.append("units", units)


def _goal_fields(goal: Goal) -> dict[str, Any]:
    fields: dict[str, Any] = {"kind": goal.kind}
    if goal.team is not None:
        fields["team"] = goal.team
    if goal.rounds is not None:
        fields["rounds"] = goal.rounds
    if goal.at is not None:
        fields["at"] = goal.at
    return fields


def _write_goals(doc: Any, source: Source, state: MapState) -> None:
    raw_goals = source.raw.get("objectives", [])
    if state.goals == source.state.goals:
        return
    tables: list[Table] = []
    for goal in state.goals:
        if goal.key >= 0:
            table = doc["objectives"][goal.key]
            raw = dict(raw_goals[goal.key])
            if isinstance(raw.get("at"), list):
                raw["at"] = Pos(*raw["at"])
            _update(table, raw, _goal_fields(goal))
        else:
            table = tomlkit.table()
            _update(table, {}, _goal_fields(goal))
        tables.append(table)
    if [g.key for g in state.goals] == list(range(len(raw_goals))):
        return
    goals = tomlkit.aot()
    for table in tables:
        goals.append(table)
    if "objectives" in doc:
        if tables:
            doc["objectives"] = goals
        else:
            del doc["objectives"]
    elif tables:
        doc.append("objectives", goals)


def check(source: Source, state: MapState) -> list[Problem]:
    """What `sim check` says about the file `state` would save, in its words."""
    try:
        loads(render(source, state), source.path)
    except ScenarioError as error:
        return list(error.problems)
    return []


def save(path: str | Path, text: str) -> None:
    """Write atomically (a crash never leaves half a map), keeping the mode of the file it
    replaces; a new file gets what the umask gives."""
    write_atomically(path, text)


def problem_cells(source: Source, state: MapState, problems: Iterable[Problem]) -> set[Pos]:
    """The cells a problem concerns: the cell it names, or the cell of the unit, item or
    objective whose table holds its line."""
    problems = list(problems)
    if not problems:
        return set()
    text = render(source, state)
    lines = text.split("\n")
    starts: list[tuple[int, str, int]] = []  # (line, array, index)
    counts: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        found = re.match(r"^\s*\[\[\s*(units|items|objectives)\s*\]\]", line)
        if found:
            name = found.group(1)
            starts.append((number, name, counts.get(name, 0)))
            counts[name] = counts.get(name, 0) + 1
        elif re.match(r"^\s*\[", line):
            starts.append((number, "", 0))
    raw = tomllib.loads(text)
    cells: set[Pos] = set()
    for problem in problems:
        if problem.file:  # a content pack's (issue #32): no cell of this map
            continue
        named = re.search(r"row (\d+), column (\d+)", problem.message)
        if named:
            cells.add(Pos(int(named.group(2)), int(named.group(1))))
            continue
        owner = [s for s in starts if s[0] <= problem.line]
        if not owner or not owner[-1][1]:
            continue
        _, name, index = owner[-1]
        if name == "units" and index < len(state.units):
            cells.add(state.units[index].cell)
        elif name == "objectives" and index < len(state.goals):
            goal = state.goals[index]
            if isinstance(goal.at, Pos):
                cells.add(goal.at)
            elif isinstance(goal.at, str):
                cells |= set(source.goal_markers.get(goal.at, ()))
        elif name == "items":
            at = raw.get("items", [{}])[index].get("at")
            if isinstance(at, list) and len(at) == 2:
                cells.add(Pos(at[0], at[1]))
    return {c for c in cells if state.inside(c)}


def parse_seed(text: str) -> int | None:
    """A seed typed in the editor; None for an empty field. Raises ValueError when bad."""
    text = text.strip()
    if not text:
        return None
    value = int(text)
    if not 0 <= value <= MAX_SEED:
        raise ValueError(f"the seed must be a whole number from 0 to {MAX_SEED}")
    return value
