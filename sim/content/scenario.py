"""Scenario files: a TOML map of ASCII rows with a legend, units, items and objectives.

Every problem is collected with its line, so `sim check` can list them all at once.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sim.content import packs, tomlspan
from sim.content.packs import Content, Entry, Pack
from sim.content.tomlspan import Path as KeyPath
from sim.content.tomlspan import Problem as Problem  # re-exported: the editor names it
from sim.content.tomlspan import Spans
from sim.core.catalog import (
    MODE_KEYS,
    Armour,
    Catalog,
    Report,
    Weapon,
    default_catalog,
    mode_problem,
    size_value,
)
from sim.core.codec import as_toml
from sim.core.components import (
    Attribute,
    Body,
    Conditions,
    Gear,
    Hands,
    Health,
    Item,
    Policy,
    Position,
    Repertoire,
    Size,
    Stats,
    Team,
)
from sim.core.condition import Condition
from sim.core.dice import Dice
from sim.core.files import Unreadable, read_text
from sim.core.geometry import Pos, footprint
from sim.core.grid import KIND_NAMES, Grid, Kind
from sim.core.limits import first_problems, limits
from sim.core.numbers import Race, Rules, default_rules
from sim.core.world import World
from sim.play.auto import AUTO
from sim.play.engine import DEFENCES, REACTION_POLICIES, Battle
from sim.rules.budget import refilled
from sim.rules.objectives import Objective, Reach, Survive

# Characters every map may use without declaring them; a scenario's [legend] adds or overrides.
DEFAULT_LEGEND: dict[str, Any] = {
    ".": "open",
    "#": "wall",
    ",": "difficult",
    "_": "pit",
    "^": "fire",
    "%": "cover",
    "~": {"kind": "open", "water": 1.0},
}
UNIT_KEYS = {
    "id",
    "team",
    "template",
    "at",
    "race",
    "str",
    "agi",
    "fcs",
    "res",
    "skills",
    "held",
    "carried",
    "armour",
    "hp",
    "policy",
    "defence",
    "prone",
    "abilities",
    *MODE_KEYS,  # R-Z5: fly, swim and climb speeds, over the race's
    "size",
}
TEMPLATE_KEYS = UNIT_KEYS - {"id", "team", "template", "at", "policy", "defence", "prone"}
LEGEND_KEYS = {"kind", "height", "water", "obstacle", "climbable"}
TOP_KEYS = {
    "name",
    "description",
    "seed",
    "map",
    "legend",
    "units",
    "items",
    "objectives",
    "content",
    *packs.SECTIONS,
}
ITEM_KEYS = {"kind", "at", "id"}
OBJECTIVE_KEYS = {
    "defeat": {"kind", "team"},
    "reach": {"kind", "team", "at"},
    "survive": {"kind", "team", "rounds"},
}
ID = re.compile(r"^[a-z][a-z0-9_]*$")
ATTRIBUTE = re.compile(r"^d([0-9]+)\+([0-9]+)$")
# The documented range of every number a scenario or template sets (docs/scenarios.md,
# "Ranges"). These are not rules: they are bounds beyond which a number can only be a typo, kept
# so that no number in a file can make the engine slow, huge or overflow.
# Heights, depths and obstacles are stored as int16 half-metres: the loader stops well below that.
MAX_METRES = 1000
MAX_BONUS = 50  # an attribute's Bonus; the shipped templates use up to 7
MAX_HP = 1000
MAX_MAP_SIDE = limits().map.side  # cells across and down (sim/data/limits.toml, [map])
MAX_ROUNDS = 10_000  # a survive objective
MAX_SEED = 2**63 - 1
MAX_EQUIPMENT = 100  # names in a unit's `held` or `carried`; the shipped templates use up to 3


class ScenarioError(Exception):
    """A scenario that cannot be played, with every problem found and its line."""

    def __init__(self, path: str, problems: list[Problem]) -> None:
        self.path = path
        self.problems = problems
        # Every problem is kept; the message lists the first screenful (sim check of a file
        # with 200,000 unknown keys prints 51 lines, not 21 MB).
        lines = [f"{p.file or path}:{p.line}: {p.message}" for p in problems]
        super().__init__("\n".join(first_problems(lines)))


@dataclass(frozen=True)
class Scenario:
    """A loaded scenario: a fresh world to play, and what it was made from."""

    name: str
    description: str
    path: str
    digest: str
    world: World
    objectives: tuple[Objective, ...] = ()
    seed: int | None = None
    markers: dict[str, tuple[Pos, ...]] = field(default_factory=dict)
    # The units whose table names no `policy`: they answer reactions by the default policy.
    defaulted: tuple[str, ...] = ()
    # Its own templates, races, equipment and abilities, and the content packs it names
    # (issue #32); `digest` covers the packs too.
    content: tuple[Entry, ...] = ()
    packs: tuple[Pack, ...] = ()

    def begin(self, dice: Dice, seed: int | None = None, *, default_policy: str = AUTO) -> Battle:
        """The one way a battle begins (the command line, the client, batches, the AI's tests):
        on a copy of this scenario's world, which stays as loaded so it can begin again.
        `default_policy`: the reaction policy of the units that name none ("auto"; a save
        from before it replays under the old default "always", sim/formats/replay.py)."""
        world = self.world.copy()
        if default_policy != AUTO:
            for uid in self.defaulted:
                world.set(uid, replace(world.need(uid, Policy), reactions=default_policy))
        return Battle.begin(
            world,
            dice,
            scenario=self.name,
            seed=seed,
            objectives=self.objectives,
            default_policy=default_policy,
        )


@dataclass
class _Loader:
    path: str
    text: str
    rules: Rules
    catalog: Catalog
    spans: Spans = field(init=False)
    problems: list[Problem] = field(default_factory=list)
    # The last number given to an item id made from each name ("ana.dagger3"): a new id of
    # that name starts its search there, so naming n daggers takes n steps, not n squared.
    numbered: dict[str, int] = field(default_factory=dict)
    # The content entries with problems of their own, by (namespace, name): a unit or a
    # template that names one says nothing more of it (sim/content/packs.py).
    broken: frozenset[tuple[str, str]] = frozenset()
    # Where problems go instead of `problems` while a content template is checked: to its own
    # file and line, by its key (`_check_template`).
    report: Report | None = None
    reported: int = 0  # problems found so far, wherever they went
    listed: dict[str, str] = field(default_factory=dict)  # `known`'s, by kind
    # The map could not be read: units, items and objectives are still checked, all but where
    # they stand, so every problem of the file is listed at once (issue #33).
    mapless: bool = False
    large: set[str] = field(default_factory=set)  # units placed so far larger than one cell

    def __post_init__(self) -> None:
        self.spans = Spans(self.text)

    @property
    def races(self) -> dict[str, Race]:
        """The rules' races with those the scenario's content adds or replaces."""
        return (
            {**self.rules.races, **self.catalog.races} if self.catalog.races else self.rules.races
        )

    def known(self, kind: str) -> str:
        """The names of the battle's templates (by name), races or abilities (in file order),
        for a message: the first few, a scenario's content may have thousands."""
        if kind not in self.listed:
            names = {
                "templates": sorted(self.catalog.templates),
                "races": list(self.races),
                "abilities": list(self.catalog.abilities),
            }[kind]
            self.listed[kind] = packs.known_names(names)
        return self.listed[kind]

    def unknown(self, space: str, name: Any) -> bool:
        """Whether a name that is not in the catalog is to be reported: not when it is a
        content entry with problems of its own (those are listed). A name that is not a
        string (`template = []`) is never an entry's, and may not even be hashable."""
        return not isinstance(name, str) or (space, name) not in self.broken

    def unknown_keys(
        self, base: KeyPath, table: dict[str, Any], allowed: set[str], what: str = "key"
    ) -> None:
        """A problem for each key of `table` not in `allowed`, at that key."""
        for key in table:
            if key not in allowed:
                self.problem(
                    (*base, key),
                    f"unknown {what} {key!r} (expected one of {', '.join(sorted(allowed))})",
                )

    def problem(self, where: KeyPath | int, message: str) -> None:
        self.reported += 1
        if self.report is not None:  # a content template's: the key after its own path
            self.report(
                str(where[2]) if isinstance(where, tuple) and len(where) > 2 else "", message
            )
            return
        line = where if isinstance(where, int) else self.spans.line(where)
        self.problems.append(Problem(line, message))


def load(path: str | Path, rules: Rules | None = None, catalog: Catalog | None = None) -> Scenario:
    """Read and check a scenario file; raise ScenarioError listing every problem."""
    name = str(path)
    try:
        text = read_text(path, limits().files.scenario, "a scenario file")
    except Unreadable as error:
        raise ScenarioError(name, [Problem(1, str(error))]) from None
    return loads(text, name, rules, catalog)


def loads(
    text: str, path: str = "<scenario>", rules: Rules | None = None, catalog: Catalog | None = None
) -> Scenario:
    loader = _Loader(path, text, rules or default_rules(), catalog or default_catalog())
    try:
        raw = tomlspan.parse(text)
    except tomlspan.TomlProblem as error:
        message = error.message
        if _GROUND.search(text) and _KINDS.search(text):
            message += (
                " ([[items]] are items on the ground and [items.NAME] kinds of item, and TOML "
                "lets a file have only one of them: put the kinds in a content pack)"
            )
        raise ScenarioError(path, [Problem(error.line, message)]) from None
    scenario = _build(loader, raw)
    if loader.problems or scenario is None:
        raise ScenarioError(path, _in_order(loader.problems))
    return scenario


_GROUND = re.compile(r"^\s*\[\[\s*items\s*\]\]", re.MULTILINE)
_KINDS = re.compile(r"^\s*\[\s*items\s*\.", re.MULTILINE)


def _in_order(problems: list[Problem]) -> list[Problem]:
    """The scenario's own problems in line order, then each content pack's, in the order the
    scenario names them."""
    files = list(dict.fromkeys(p.file for p in problems if p.file))
    return sorted(problems, key=lambda p: (files.index(p.file) + 1 if p.file else 0, p.line))


def _build(ld: _Loader, raw: dict[str, Any]) -> Scenario | None:
    ld.unknown_keys((), raw, TOP_KEYS)
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        ld.problem(("name",), "the scenario needs a `name` (a string)")
        name = ""
    seed = raw.get("seed")
    if seed is not None and not (
        isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed <= MAX_SEED
    ):
        ld.problem(
            ("seed",), f"`seed` must be a whole number from 0 to {MAX_SEED}, not {as_toml(seed)}"
        )
        seed = None
    content = _content(ld, raw)
    legend = _legend(ld, raw.get("legend", {}))
    rows = _rows(ld, raw.get("map"))
    units = raw.get("units", [])
    if not isinstance(units, list) or not units:
        ld.problem(("units",), "the scenario needs at least one [[units]] table")
        units = []
    # `items` that is not a list is item kinds, the scenario's own content ([items.NAME]).
    ground = raw["items"] if isinstance(raw.get("items"), list) else []
    used = _markers(units) | _markers(ground) | _markers(raw.get("objectives", []))
    markers: dict[str, tuple[Pos, ...]] = {}
    if rows is None:
        ld.mapless = True
        grid = Grid(1, 1)
    else:
        grid, markers = _grid(ld, rows, legend, used)
        if isinstance(raw.get("map"), dict):
            _layer_rows(ld, grid, raw["map"])
    world = World(grid, ld.rules, ld.catalog)
    _units(ld, world, units, markers)
    _ground_items(ld, world, ground, markers)
    declared = {u["team"] for u in units if isinstance(u, dict) and isinstance(u.get("team"), str)}
    objectives = _objectives(ld, world, raw.get("objectives", []), markers, declared)
    if ld.problems:
        return None
    return Scenario(
        name=name,
        description=str(raw.get("description", "")),
        path=ld.path,
        digest=digest(ld.text, content.packs),
        world=world,
        objectives=objectives,
        seed=seed,
        markers=markers,
        defaulted=tuple(
            u["id"] for u in units if isinstance(u, dict) and "policy" not in u and u.get("id")
        ),
        content=content.entries,
        packs=content.packs,
    )


def digest(text: str, packs: tuple[Pack, ...] = ()) -> str:
    """A scenario's sha256: its text's, or with content packs, that of its text's and each
    pack's, so a save notices a pack that changed (sim/formats/replay.py)."""
    own = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if not packs:
        return own
    lines = [own, *(f"{pack.path} {pack.sha256}" for pack in packs)]
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def _content(ld: _Loader, raw: dict[str, Any]) -> Content:
    """The scenario's own content and its packs' (sim/content/packs.py), which becomes the
    loader's catalog: the units below are checked against it."""
    folder = Path(ld.path).parent
    content, problems = packs.gather(
        raw, ld.spans, ld.path, folder, ld.rules, ld.catalog, _template_check(ld)
    )
    ld.problems += problems
    ld.reported += len(problems)
    ld.catalog = content.catalog
    ld.broken = content.broken
    ld.listed = {}
    return content


def _template_check(ld: _Loader) -> packs.TemplateCheck:
    """A content template is checked as a unit with its keys would be, without a place on a
    map: race, attributes, skills, equipment that fits in the hands, abilities and hp."""
    listed: dict[str, str] = {}  # the names the messages list: one catalog for all templates

    def check(
        name: str,
        table: dict[str, Any],
        catalog: Catalog,
        broken: frozenset[tuple[str, str]],
        report: Report,
    ) -> bool:
        sub = _Loader(ld.path, "", ld.rules, catalog, broken=broken, report=report, listed=listed)
        sub.unknown_keys(("templates", name), table, TEMPLATE_KEYS, "template key")
        _stats(sub, ("templates", name), name, table, template=True)
        return sub.reported == 0

    return check


# --- the map ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Terrain:
    kind: Kind
    height_half: int = 0
    water_half: int = 0
    obstacle_half: int = 0
    climbable: bool = False


def _half(ld: _Loader, where: KeyPath, what: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        ld.problem(where, f"{what} must be a number of metres, not {as_toml(value)}")
        return 0
    # The range before the steps: `int(value * 2)` overflows for 1e308 (issue #10).
    if not math.isfinite(value) or value < 0:
        ld.problem(where, f"{what} must be 0 or more in half-metre steps, not {value}")
        return 0
    if value > MAX_METRES:
        ld.problem(where, f"{what} must be at most {MAX_METRES} m, not {value}")
        return 0
    if (value * 2) != int(value * 2):
        ld.problem(where, f"{what} must be 0 or more in half-metre steps, not {value}")
        return 0
    return int(value * 2)


def _legend(ld: _Loader, raw: Any) -> dict[str, _Terrain]:
    entries = dict(DEFAULT_LEGEND)
    if not isinstance(raw, dict):
        ld.problem(("legend",), "[legend] must be a table of character = terrain")
        raw = {}
    entries.update(raw)
    legend: dict[str, _Terrain] = {}
    for char, entry in entries.items():
        where: KeyPath = ("legend", char)
        if len(char) != 1:
            ld.problem(where, f"legend key {char!r} must be a single character")
            continue
        if isinstance(entry, str):
            entry = {"kind": entry}
        if not isinstance(entry, dict):
            ld.problem(where, f"legend entry {char!r} must be a terrain name or a table")
            continue
        for key in entry:
            if key not in LEGEND_KEYS:
                ld.problem(
                    where,
                    f"legend {char!r}: unknown key {key!r} "
                    f"(expected {', '.join(sorted(LEGEND_KEYS))})",
                )
        kind_name = entry.get("kind", "open")
        if kind_name not in KIND_NAMES:
            ld.problem(
                where,
                f"legend {char!r}: unknown terrain {kind_name!r} "
                f"(expected one of {', '.join(KIND_NAMES)})",
            )
            continue
        climbable = entry.get("climbable", False)
        if not isinstance(climbable, bool):
            ld.problem(where, f"legend {char!r}: climbable must be true or false")
            climbable = False
        legend[char] = _Terrain(
            kind=Kind.named(kind_name),
            height_half=_half(ld, where, f"legend {char!r}: height", entry.get("height", 0)),
            water_half=_half(ld, where, f"legend {char!r}: water", entry.get("water", 0)),
            obstacle_half=_half(ld, where, f"legend {char!r}: obstacle", entry.get("obstacle", 0)),
            climbable=climbable,
        )
    return legend


MAP_KEYS = ("rows", "heights", "depths", "levels")


def _rows(ld: _Loader, raw: Any) -> list[tuple[int, str]] | None:
    """The map's rows with their file lines."""
    if not isinstance(raw, dict) or "rows" not in raw:
        ld.problem(("map",), 'the scenario needs [map] with rows = """...""" (one line per row)')
        return None
    for key in raw:
        if key not in MAP_KEYS:
            ld.problem(
                ("map", key), f"unknown key {key!r} in [map] (expected {', '.join(MAP_KEYS)})"
            )
    return _block(ld, raw["rows"], "rows")


def _block(ld: _Loader, rows: Any, key: str) -> list[tuple[int, str]] | None:
    """A block of rows under [map] (`rows`, `heights`, `depths`) with their file lines."""
    first = ld.spans.line(("map", key))
    text_lines = ld.text.split("\n")
    if isinstance(rows, str):
        key_line = text_lines[first - 1] if first - 1 < len(text_lines) else ""
        # A newline right after an opening """ or ''' is not part of the string (TOML), so the
        # first row is on the next line; otherwise it starts on the key's own line.
        opener = re.search(r"=\s*(\"\"\"|''')(.*)$", key_line)
        offset = 1 if opener is not None and not opener.group(2).strip() else 0
        lines = rows.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        numbered = [(first + offset + i, row) for i, row in enumerate(lines)]
    elif isinstance(rows, list) and all(isinstance(r, str) for r in rows):
        # Each row's line: where its quoted text next appears after the previous row.
        numbered = []
        offset = sum(len(line) + 1 for line in text_lines[: first - 1])
        for row in rows:
            at = min(
                (
                    i
                    for i in (ld.text.find(f'"{row}"', offset), ld.text.find(f"'{row}'", offset))
                    if i >= 0
                ),
                default=-1,
            )
            if at >= 0:
                offset = at + len(row) + 2
            numbered.append((ld.text.count("\n", 0, offset) + 1, row))
    else:
        ld.problem(("map", key), f"map {key} must be a multi-line string or a list of strings")
        return None
    if not numbered or all(not row for _, row in numbered):
        ld.problem(("map", key), f"the map has no {key}")
        return None
    if key == "rows":  # heights and depths rows are measured against the map instead
        width = len(numbered[0][1])
        if len(numbered) > MAX_MAP_SIDE or max(len(row) for _, row in numbered) > MAX_MAP_SIDE:
            ld.problem(
                ("map", key),
                f"the map is {max(len(row) for _, row in numbered)} cells across and "
                f"{len(numbered)} down; at most {MAX_MAP_SIDE} each way",
            )
            return None
        for line, row in numbered:
            if len(row) != width:
                ld.problem(line, f"map row has {len(row)} cells; the first row has {width}")
    return numbered


def _grid(
    ld: _Loader, rows: list[tuple[int, str]], legend: dict[str, _Terrain], markers_used: set[str]
) -> tuple[Grid, dict[str, tuple[Pos, ...]]]:
    width = max(len(row) for _, row in rows)
    grid = Grid(width, len(rows))
    markers: dict[str, list[Pos]] = {}
    for y, (line, row) in enumerate(rows):
        for x, char in enumerate(row):
            pos = Pos(x, y)
            if char in markers_used:
                markers.setdefault(char, []).append(pos)
            terrain = legend.get(char)
            if terrain is None:
                if char in markers_used:
                    terrain = _Terrain(Kind.OPEN)
                else:
                    ld.problem(
                        line,
                        f"row {y}, column {x}: {char!r} is not in the legend "
                        "and no unit, item or objective uses it as a marker",
                    )
                    continue
            grid.set_cell(
                pos,
                kind=terrain.kind,
                height_half=terrain.height_half,
                water_half=terrain.water_half,
                obstacle_half=terrain.obstacle_half,
                climbable=terrain.climbable,
            )
    return grid, {char: tuple(cells) for char, cells in markers.items()}


def _layer_rows(ld: _Loader, grid: Grid, raw: dict[str, Any]) -> None:
    """`heights` and `depths`: one character a cell giving the ground height or water depth in
    metres, where a legend alone would be clumsy. Digits are whole metres, "." keeps what the
    legend says, and [map.levels] names other characters (e.g. "h" = 1.5)."""
    levels: dict[str, int] = {str(d): 2 * d for d in range(10)}
    extra = raw.get("levels", {})
    if not isinstance(extra, dict):
        ld.problem(("map", "levels"), "[map.levels] must be a table like { h = 1.5 }")
        extra = {}
    for char, metres in extra.items():
        if len(char) != 1 or char == ".":
            ld.problem(
                ("map", "levels", char), f"level key {char!r} must be one character, not '.'"
            )
            continue
        levels[char] = _half(ld, ("map", "levels", char), f"level {char!r}", metres)
    for key, layer in (("heights", "height"), ("depths", "water")):
        if key not in raw:
            continue
        block = _block(ld, raw[key], key)
        if block is None:
            continue
        if len(block) != grid.height:
            ld.problem(("map", key), f"{key} has {len(block)} rows; the map has {grid.height}")
        for y, (line, row) in enumerate(block[: grid.height]):
            if len(row) != grid.width:
                ld.problem(line, f"{key} row has {len(row)} cells; the map has {grid.width}")
                continue
            for x, char in enumerate(row):
                if char == ".":
                    continue
                if char not in levels:
                    ld.problem(
                        line,
                        f"{key} row {y}, column {x}: {char!r} is not a digit, '.' or a "
                        "character of [map.levels]",
                    )
                    continue
                grid.layers[layer][y, x] = levels[char]


# --- units -------------------------------------------------------------------------------------


def _cell(
    ld: _Loader, where: KeyPath, value: Any, world: World, markers: dict[str, tuple[Pos, ...]]
) -> Pos | None:
    """The cell `value` names (a marker or [x, y]); None, with a problem, when it names none.
    Without a map (`ld.mapless`) only its form is checked, and None is returned."""
    if ld.mapless and (isinstance(value, str) or _pair(value)):
        return None
    if isinstance(value, str):
        cells = markers.get(value, ())
        if not cells:
            ld.problem(where, f"marker {value!r} does not appear in the map")
            return None
        if len(cells) > 1:
            ld.problem(
                where,
                f"marker {value!r} appears {len(cells)} times in the map; it must mark one cell",
            )
            return None
        return cells[0]
    if _pair(value):
        pos = Pos(value[0], value[1])
        if not world.grid.inside(pos):
            ld.problem(where, f"{pos} is outside the {world.grid.width}x{world.grid.height} map")
            return None
        return pos
    ld.problem(
        where, f'`at` must be a map marker like "a" or a cell like [3, 4], not {as_toml(value)}'
    )
    return None


def _pair(value: Any) -> bool:
    """Whether `value` is a cell as [x, y], two whole numbers."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _attribute(ld: _Loader, where: KeyPath, name: str, value: Any) -> Attribute | None:
    match = ATTRIBUTE.match(value) if isinstance(value, str) else None
    if match is None:
        ld.problem(where, f'{name} must look like "d8+6" (die and Bonus), not {as_toml(value)}')
        return None
    # Past a few digits a number is out of range anyway, and int() refuses very long digit
    # strings outright: so those are read as "too large" without converting them.
    die, bonus = (int(g) if len(g) <= 9 else 10**9 for g in match.groups())
    if die not in ld.rules.attribute_dice:
        dice = ", ".join(f"d{d}" for d in ld.rules.attribute_dice)
        ld.problem(where, f"{name} die d{die} is not one of {dice} (R-C1)")
        return None
    if bonus > MAX_BONUS:
        digits = match.group(2)
        shown = digits if len(digits) <= 12 else f"a number of {len(digits)} digits"
        ld.problem(where, f"{name} Bonus must be at most {MAX_BONUS}, not {shown}")
        return None
    return Attribute(die, bonus)


def _units(
    ld: _Loader, world: World, units: list[Any], markers: dict[str, tuple[Pos, ...]]
) -> None:
    most = limits().map.units
    if len(units) > most:
        ld.problem(("units",), f"{len(units):,} units; a scenario may have at most {most:,}")
        return
    standing: dict[Pos, str] = {}
    seen: set[str] = set()  # ids declared so far, also by units that had problems
    for index, unit in enumerate(units):
        base: KeyPath = ("units", index)
        if not isinstance(unit, dict):
            ld.problem(base, "each [[units]] entry must be a table")
            continue
        ld.unknown_keys(base, unit, UNIT_KEYS, "unit key")
        # A unit with a bad id, team or template is checked on all the same (it is never added
        # to the world): every problem of the file is listed at once, not one stage at a time.
        before = ld.reported
        uid = unit.get("id")
        if not isinstance(uid, str) or not ID.match(uid):
            ld.problem(
                (*base, "id"),
                "each unit needs an `id` of lower-case letters, digits "
                f"and _ starting with a letter, not {uid!r}",
            )
            uid = f"units[{index}]" if not isinstance(uid, str) or len(uid) > 40 else uid
        elif uid in seen:
            ld.problem((*base, "id"), f"unit id {uid!r} is used twice")
        seen.add(uid)
        team = unit.get("team")
        if not isinstance(team, str) or not team:
            ld.problem((*base, "team"), f"unit {uid!r} needs a `team` (a name)")
            team = ""
        merged: dict[str, Any] = {}
        template = unit.get("template")
        known_template = True
        if template is not None:
            if not isinstance(template, str) or template not in ld.catalog.templates:
                if ld.unknown("templates", template):
                    ld.problem(
                        (*base, "template"),
                        f"unknown template {template!r} (known: {ld.known('templates')})",
                    )
                known_template = False
            else:
                merged.update(ld.catalog.templates[template])
        merged.update({k: v for k, v in unit.items() if k in TEMPLATE_KEYS})
        _unit(ld, world, base, uid, team, merged, unit, markers, standing,
              known_template=known_template, clean=ld.reported == before)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Kit:
    """A creature's equipment by name: what its hands hold (and how many hands each takes),
    what it carries, what it wears."""

    held: tuple[tuple[str, int], ...] = ()
    carried: tuple[str, ...] = ()
    armour: str | None = None


@dataclass(frozen=True, slots=True)
class _Stats:
    """What a unit's or a template's keys make of a creature, wherever it stands."""

    race: Race
    attributes: tuple[tuple[str, Attribute], ...]
    skills: tuple[tuple[str, int], ...]
    abilities: tuple[str, ...]
    hp: int
    max_hp: int
    kit: _Kit
    size: int = 1  # R-Z1: cells a side


def _stats(
    ld: _Loader,
    base: KeyPath,
    who: str,
    stats: dict[str, Any],
    *,
    template: bool = False,
    ask_missing: bool = True,
) -> _Stats | None:
    """A creature's race, attributes, skills, abilities, hit points and equipment, every key
    checked (so one unit's or template's problems are listed together); None when any has a
    problem. `who` names it in messages; `template`: a content template's keys (issue #32);
    `ask_missing`: False for a unit whose template is unknown, whose keys it would have given
    are not asked for."""
    before = ld.reported
    missing = [k for k in ("race", *ld.rules.attribute_names) if k not in stats]
    if missing and ask_missing:
        needs = "needs" if template else "needs a template or"
        subject = f"template {who!r}" if template else f"unit {who!r}"
        ld.problem(base, f"{subject} {needs} {', '.join(missing)}")
    race = None
    if "race" in stats:
        name = stats["race"]
        race = ld.races.get(name) if isinstance(name, str) else None
        if race is None and ld.unknown("races", name):
            ld.problem((*base, "race"), f"unknown race {name!r} (known: {ld.known('races')})")
    attrs: list[tuple[str, Attribute]] = []
    for name in ld.rules.attribute_names:
        if name in stats:
            attribute = _attribute(ld, (*base, name), name.upper(), stats[name])
            if attribute is not None:
                attrs.append((name, attribute))
    skills_raw = stats.get("skills", {})
    skills: list[tuple[str, int]] = []
    if not isinstance(skills_raw, dict):
        ld.problem((*base, "skills"), "skills must be a table like { athletics = 2 }")
        skills_raw = {}
    low = ld.rules.skill_levels.min
    high = ld.rules.skill_levels.max
    for skill, level in skills_raw.items():
        if skill not in ld.rules.skills:
            ld.problem(
                (*base, "skills"), f"unknown skill {skill!r} (known: {', '.join(ld.rules.skills)})"
            )
        elif not isinstance(level, int) or isinstance(level, bool) or not low <= level <= high:
            ld.problem(
                (*base, "skills"),
                f"skill {skill} must be a level {low}-{high}, not {as_toml(level)} (R-C3)",
            )
        else:
            skills.append((skill, level))
    abilities = _abilities(ld, (*base, "abilities"), stats.get("abilities", []))
    res = dict(attrs).get("res")
    max_hp = res.die + res.bonus if res is not None else 1  # R-C6
    hp = stats.get("hp", max_hp)
    if not isinstance(hp, int) or isinstance(hp, bool) or not 1 <= hp <= MAX_HP:
        ld.problem(
            (*base, "hp"), f"hp must be a whole number from 1 to {MAX_HP}, not {as_toml(hp)}"
        )
    kit = _kit(ld, base, who, stats)
    modes: dict[str, int] = {}
    for key in MODE_KEYS:  # R-Z5: a template's or a unit's speed replaces its race's
        if key in stats:
            problem = mode_problem(key, stats[key])
            if problem:
                ld.problem((*base, key), problem)
            else:
                modes[key] = stats[key]
    size: int | str = 1
    if "size" in stats:
        size = size_value(stats["size"], ld.rules.sizes.largest)
        if isinstance(size, str):
            ld.problem((*base, "size"), size)
    elif race is not None:
        size = race.size
    if ld.reported > before or race is None or isinstance(size, str):
        return None
    race = replace(
        race,
        fly=modes.get("fly", race.fly),
        swim=modes.get("swim", race.swim),
        climb=modes.get("climb", race.climb),
    )
    return _Stats(race, tuple(attrs), tuple(skills), abilities, min(hp, max_hp), max_hp, kit, size)


def _unit(
    ld: _Loader,
    world: World,
    base: KeyPath,
    uid: str,
    team: str,
    stats: dict[str, Any],
    unit: dict[str, Any],
    markers: dict[str, tuple[Pos, ...]],
    standing: dict[Pos, str],
    *,
    known_template: bool = True,
    clean: bool = True,
) -> None:
    """Every key is checked, so one unit's problems are all listed together; the unit is added
    only when it has none (`clean`: its id, team and template had none). Of a unit whose
    template is unknown, the keys the template would have given are not asked for."""
    before = ld.reported
    made = _stats(ld, base, uid, stats, ask_missing=known_template)
    race = made.race if made is not None else None
    pos = _cell(ld, (*base, "at"), unit.get("at"), world, markers)
    # R-Z5: a flier may begin over a pit, in the air.
    flies = race is not None and race.fly > 0
    walls = (Kind.WALL,) if flies else (Kind.WALL, Kind.PIT)
    side = made.size if made is not None else 1
    cells = footprint(pos, side) if pos is not None else ()
    for here in cells:
        if not world.grid.inside(here):
            ld.problem(
                (*base, "at"),
                f"unit {uid!r} is size {side}: its {side}x{side} cells from {pos} go off the "
                f"{world.grid.width}x{world.grid.height} map at {here} (R-Z1)",
            )
            pos = None
            break
        if world.grid.kind(here) in walls:
            kind = world.grid.kind(here).name.lower()
            whose = f"stands in {kind} at {here}"
            if side > 1:
                whose = f"is size {side}: its cell {here} is {kind} (R-Z1)"
            ld.problem((*base, "at"), f"unit {uid!r} {whose}")
            pos = None
            break
    prone = unit.get("prone", False)
    if not isinstance(prone, bool):
        ld.problem((*base, "prone"), "prone must be true or false")
        prone = False
    swims = (
        race is not None
        and pos is not None
        and (prone or not flies)  # R-Z5: a flier over deep water is in the air
        and _swims(ld, world, pos, race.height, prone)
    )
    prone = prone and not swims
    if pos is not None and not prone:
        taken = next((c for c in footprint(pos, side) if c in standing), None)
        if taken is not None:
            rule = "R-M5, R-Z1" if side > 1 or standing[taken] in ld.large else "R-M5"
            ld.problem(
                (*base, "at"), f"{uid!r} and {standing[taken]!r} both stand in {taken} ({rule})"
            )
        else:
            for here in footprint(pos, side):
                standing[here] = uid
            if side > 1:
                ld.large.add(uid)
    policy = unit.get("policy", AUTO)
    defence = unit.get("defence", "best")
    if policy not in REACTION_POLICIES:
        ld.problem(
            (*base, "policy"),
            f"policy must be one of {', '.join(REACTION_POLICIES)}, not {as_toml(policy)}",
        )
    if defence not in DEFENCES:
        ld.problem(
            (*base, "defence"),
            f"defence must be one of {', '.join(DEFENCES)}, not {as_toml(defence)}",
        )
    if not clean or ld.reported > before or made is None or race is None or pos is None:
        return
    world.add_entity(
        uid,
        Team(team),
        Position(pos),
        Body(race.name, race.speed, race.height, race.fly, race.swim, race.climb),
        Stats(made.attributes, made.skills),
        Health(made.hp, made.max_hp),
        refilled(ld.rules),
        Conditions(
            ((Condition.PRONE, 1),) if prone else ((Condition.SWIMMING, 1),) if swims else ()
        ),
        Policy(policy, defence),
    )
    if made.size > 1:
        world.set(uid, Size(made.size))
    hands, gear = _equip(ld, world, uid, made.kit)
    world.set(uid, hands)
    world.set(uid, gear)
    if made.abilities:
        world.set(uid, Repertoire(made.abilities))


def _swims(ld: _Loader, world: World, cell: Pos, height: float, prone: bool) -> bool:
    """Whether a unit placed in `cell` begins the battle swimming, at the surface: in water
    deeper than it is tall, which can only be swum (R-M9), or lying down in water at least
    waist-deep, where a creature that falls prone swims instead (R-M10)."""
    depth = world.grid.water_half(cell)  # half-metres
    waist = height * ld.rules.movement.waist_fraction
    return depth > height * 2 or (prone and depth >= waist * 2)


def _abilities(ld: _Loader, where: KeyPath, raw: Any) -> tuple[str, ...]:
    """R-X20: the spells and abilities a unit knows, by their names in the rules data."""
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        ld.problem(where, 'abilities must be a list of names like ["firebolt", "mend"]')
        return ()
    names: list[str] = []
    said: set[str] = set()  # each wrong name is one problem, however often it is listed
    for name in raw:
        if name in said:
            continue
        if name not in ld.catalog.abilities:
            said.add(name)
            if ld.unknown("abilities", name):
                known = ld.known("abilities")
                ld.problem(where, f"unknown ability {name!r} in abilities (known: {known})")
        elif name in names:
            said.add(name)
            ld.problem(where, f"ability {name!r} is listed twice")
        else:
            names.append(name)
    return tuple(names)


def _new_item(ld: _Loader, world: World, owner: str, kind: str) -> str:
    """`owner.kind`, else `owner.kindN` with the smallest N from 2 that is free."""
    stem = f"{owner}.{kind}"
    n = ld.numbered.get(stem, 1)
    item = stem
    while world.exists(item):
        n += 1
        item = f"{stem}{n}"
    ld.numbered[stem] = n
    world.add_entity(item, Item(kind))
    return item


def _kit(ld: _Loader, base: KeyPath, who: str, stats: dict[str, Any]) -> _Kit:
    """The equipment `held`, `carried` and `armour` name, checked: known names, at most
    MAX_EQUIPMENT of each, and what the hands hold fits in them (R-C7)."""
    held: list[tuple[str, int]] = []
    carried: list[str] = []
    free = Hands().free
    for key in ("held", "carried"):
        names = stats.get(key, [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            ld.problem((*base, key), f"{key} must be a list of equipment names")
            continue
        if len(names) > MAX_EQUIPMENT:
            ld.problem(
                (*base, key),
                f"{key} must name at most {MAX_EQUIPMENT} items, not {len(names)}",
            )
            continue
        for name in names:
            kind = ld.catalog.equipment.get(name)
            if kind is None:
                if ld.unknown(packs.EQUIPMENT, name):
                    ld.problem((*base, key), f"unknown equipment {name!r} in {key}")
                continue
            if key == "carried":
                carried.append(name)
                continue
            need = 2 if isinstance(kind, Weapon) and kind.two_handed else 1
            if free < need:
                # One line for the hands, not one per item that follows the first misfit.
                ld.problem(
                    (*base, key),
                    f"{who!r} cannot hold {name}: only {free} hand(s) free (R-C7)",
                )
                break
            free -= need
            held.append((name, need))
    armour = stats.get("armour")
    worn = None
    if armour is not None:
        kind = ld.catalog.equipment.get(armour) if isinstance(armour, str) else None
        if isinstance(kind, Armour):
            worn = str(armour)
        elif kind is not None or ld.unknown(packs.EQUIPMENT, armour):
            ld.problem((*base, "armour"), f"{armour!r} is not a known armour")
    return _Kit(tuple(held), tuple(carried), worn)


def _equip(ld: _Loader, world: World, uid: str, kit: _Kit) -> tuple[Hands, Gear]:
    """A unit's equipment as items of its own (`ana.longsword`), in its hands, on its belt and
    worn."""
    hands = Hands()
    for name, need in kit.held:
        hands = hands.put(_new_item(ld, world, uid, name), need)
    carried = tuple(_new_item(ld, world, uid, name) for name in kit.carried)
    worn = _new_item(ld, world, uid, kit.armour) if kit.armour is not None else None
    return hands, Gear(worn, carried)


def _ground_items(
    ld: _Loader, world: World, items: Any, markers: dict[str, tuple[Pos, ...]]
) -> None:
    if not isinstance(items, list):
        ld.problem(("items",), "items must be [[items]] tables")
        return
    for index, entry in enumerate(items):
        base: KeyPath = ("items", index)
        if not isinstance(entry, dict):
            ld.problem(base, "each [[items]] entry must be a table")
            continue
        for key, value in entry.items():
            if key in ITEM_KEYS:
                continue
            # TOML reads [items.pebble] after [[items]] as a table of the last item.
            hint = (
                f"; [items.{key}] after [[items]] is a table of that item: put kinds of item "
                "in a content pack"
                if isinstance(value, dict)
                else ""
            )
            expected = ", ".join(sorted(ITEM_KEYS))
            ld.problem((*base, key), f"unknown item key {key!r} (expected one of {expected}){hint}")
        kind = entry.get("kind")
        known = isinstance(kind, str) and kind in ld.catalog.equipment
        if not known and ld.unknown(packs.EQUIPMENT, kind):
            ld.problem(
                (*base, "kind"), f"item needs a known `kind` of equipment, not {as_toml(kind)}"
            )
        pos = _cell(ld, (*base, "at"), entry.get("at"), world, markers)
        if pos is None or not isinstance(kind, str) or not known:
            continue
        if world.grid.kind(pos) is Kind.WALL:
            ld.problem((*base, "at"), f"item {kind!r} lies in a wall at {pos}")
            continue
        item = entry["id"] if "id" in entry else _new_item_id(ld, world, kind)
        if not isinstance(item, str) or not item or world.exists(item):
            ld.problem((*base, "id"), f"item id {item!r} is not a new name")
            continue
        world.add_entity(item, Item(kind), Position(pos))


def _new_item_id(ld: _Loader, world: World, kind: str) -> str:
    """`kindN` with the smallest N from 1 that is free (found in linear time, as `_new_item`)."""
    n = ld.numbered.get(kind, 0) + 1
    while world.exists(f"{kind}{n}"):
        n += 1
    ld.numbered[kind] = n - 1
    return f"{kind}{n}"


# --- objectives --------------------------------------------------------------------------------


def _markers(raw: Any) -> set[str]:
    """The map markers that a list of [[units]], [[items]] or [[objectives]] names in `at`."""
    found: set[str] = set()
    if isinstance(raw, list):
        for entry in raw:
            if isinstance(entry, dict) and isinstance(entry.get("at"), str):
                found.add(entry["at"])
    return found


def _objectives(
    ld: _Loader,
    world: World,
    raw: Any,
    markers: dict[str, tuple[Pos, ...]],
    teams: set[str],
) -> tuple[Objective, ...]:
    """`teams` are the teams the [[units]] declare (also units with problems of their own)."""
    if not isinstance(raw, list):
        ld.problem(("objectives",), "objectives must be [[objectives]] tables")
        return ()
    found: list[Objective] = []
    for index, entry in enumerate(raw):
        base: KeyPath = ("objectives", index)
        if not isinstance(entry, dict):
            ld.problem(base, "each [[objectives]] entry must be a table")
            continue
        kind = entry.get("kind")
        team = entry.get("team")
        allowed = OBJECTIVE_KEYS.get(kind) if isinstance(kind, str) else None
        for key in entry:
            if allowed is not None and key not in allowed:
                ld.problem(
                    (*base, key),
                    f"unknown key {key!r} for a {kind} objective "
                    f"(expected {', '.join(sorted(allowed))})",
                )
        if kind == "defeat":
            continue  # R-C6 always applies; naming it is allowed for clarity
        if allowed is None:
            ld.problem(
                (*base, "kind"),
                f"objective kind must be defeat, reach or survive, not {as_toml(kind)}",
            )
            continue
        if not isinstance(team, str) or team not in teams:
            ld.problem((*base, "team"), f"objective team {team!r} has no units")
            continue
        if kind == "reach":
            at = entry.get("at")
            if isinstance(at, str):
                cells = markers.get(at, ())
                if ld.mapless:
                    continue
                if not cells:
                    ld.problem((*base, "at"), f"marker {at!r} does not appear in the map")
                    continue
                found.append(Reach(team, cells))
            else:
                cell = _cell(ld, (*base, "at"), at, world, markers)
                if cell is not None:
                    found.append(Reach(team, (cell,)))
        else:  # survive
            rounds = entry.get("rounds")
            if (
                not isinstance(rounds, int)
                or isinstance(rounds, bool)
                or not 1 <= rounds <= MAX_ROUNDS
            ):
                ld.problem(
                    (*base, "rounds"),
                    f"survive needs `rounds`, a whole number from 1 to {MAX_ROUNDS}",
                )
                continue
            found.append(Survive(team, rounds))
    return tuple(found)


def read_terrain(
    raw: dict[str, Any], text: str, path: str = "<scenario>", rules: Rules | None = None
) -> tuple[Grid | None, dict[str, tuple[Pos, ...]], list[Problem]]:
    """The map of a parsed scenario exactly as `load` builds it, with its markers and the
    problems of the map alone: the map editor opens files whose units still have problems."""
    ld = _Loader(path, text, rules or default_rules(), default_catalog())
    legend = _legend(ld, raw.get("legend", {}))
    rows = _rows(ld, raw.get("map"))
    if rows is None:
        return None, {}, ld.problems
    used = set()
    for key in ("units", "items", "objectives"):
        used |= _markers(raw.get(key, []))
    grid, markers = _grid(ld, rows, legend, used)
    if isinstance(raw.get("map"), dict):
        _layer_rows(ld, grid, raw["map"])
    return grid, markers, ld.problems


def read_content(
    raw: dict[str, Any], text: str, path: str = "<scenario>", rules: Rules | None = None
) -> tuple[Content, list[Problem]]:
    """The content of a parsed scenario and of its packs exactly as `load` reads it, with its
    problems: the map editor offers its templates (those without problems) in its palette."""
    ld = _Loader(path, text, rules or default_rules(), default_catalog())
    return _content(ld, raw), ld.problems


def legend_terrain(raw: dict[str, Any]) -> dict[str, tuple[Kind, int, int, int, bool]]:
    """Each legend character (built-in and the file's) as kind, height, water, obstacle (all
    but kind in half-metres) and climbable; entries with problems are left out."""
    ld = _Loader("<scenario>", "", default_rules(), default_catalog())
    return {
        char: (t.kind, t.height_half, t.water_half, t.obstacle_half, t.climbable)
        for char, t in _legend(ld, raw.get("legend", {})).items()
    }


def map_levels(raw: dict[str, Any]) -> dict[str, int]:
    """The characters of `heights` and `depths` rows and their half-metres (digits and
    [map.levels]), as `load` reads them."""
    levels = {str(d): 2 * d for d in range(10)}
    extra = raw.get("map", {}).get("levels", {}) if isinstance(raw.get("map"), dict) else {}
    ld = _Loader("<scenario>", "", default_rules(), default_catalog())
    if isinstance(extra, dict):
        for char, metres in extra.items():
            if len(char) == 1 and char != ".":
                levels[char] = _half(ld, ("map", "levels", char), "level", metres)
    return levels
