"""The board as characters: two per cell, the first for what stands or is planned there (a
creature's letter, a path, the reach map's action letter, the terrain), the second for what
threatens it or marks it (a "!" where leaving provokes, a count of the enemies that reach it,
"+" for the selected creature's own reach, a creature's side). Every overlay is told by a
character; colour, where the terminal has it, only repeats it (sim/ui/look/palette.py's
colour-blind-safe colours)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sim.core.components import Body, Item, Position
from sim.core.creature import cells_of, creatures, side, team_of
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.rules.objectives import Reach
from sim.ui.look import palette as pal
from sim.ui.model.planner import PathPlan
from sim.ui.model.scene import Scene
from sim.ui.model.session import Session
from sim.ui.model.view import View

TERRAIN = {
    Kind.OPEN: ".",
    Kind.DIFFICULT: ",",
    Kind.WALL: "#",
    Kind.PIT: "_",
    Kind.FIRE: "^",
    Kind.COVER: "%",
}
TERRAIN_WORDS = {
    ".": "open",
    ",": "difficult",
    "#": "wall",
    "_": "pit",
    "^": "fire",
    "%": "cover",
    "~": "water",
}
TERRAIN_INK: dict[str, pal.RGB] = {
    "#": pal.WALL_MARK,
    ",": pal.DIFFICULT_MARK,
    "_": pal.PIT_MARK,
    "^": pal.FIRE_MARK,
    "%": pal.COVER_MARK,
    "~": pal.WATER,
}
PATH, END, PROVOKES, OWN, ITEM, RAISED, FLAG, AREA = "*", "@", "!", "+", "&", "'", "F", "o"


@dataclass(frozen=True, slots=True)
class Glyph:
    """One character with the colours that repeat what it says (None: the terminal's)."""

    char: str
    ink: pal.RGB | None = None
    back: pal.RGB | None = None


@dataclass
class Overlays:
    """What the board shows over the terrain, cell by cell."""

    reach: dict[Pos, str] = field(default_factory=dict)  # cell -> cheapest Movement Action
    threat: dict[Pos, int] = field(default_factory=dict)  # cell -> enemies that reach it
    own: frozenset[Pos] = frozenset()  # the selected creature's own reach
    path: tuple[Pos, ...] = ()  # the planned or the moving path (its last cell is the end)
    provokes: frozenset[Pos] = frozenset()  # leaving these provokes an Attack of Opportunity
    area: frozenset[Pos] = frozenset()  # cells marked for a Prepare trigger
    aims: frozenset[Pos] = frozenset()  # creatures an action under way is aimed at


def letters(world: World) -> dict[str, str]:
    """Each creature's letter on the board: the first of its id's letters no other creature
    has taken yet, in capitals, in the scenario's order; then any free letter or digit."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"]
    for unit in creatures(world):
        mine = [c.upper() for c in unit if c.isalnum()]
        letter = next((c for c in mine if c not in taken), "") or next(
            (c for c in spare if c not in taken), "?"
        )
        taken.add(letter)
        out[unit] = letter
    return out


def roster_words(world: World, unit: str) -> str:
    """What the roster adds after a creature's hit points, in the window panel's words: its
    movement modes ("moves: fly 12 m", R-Z5) and a large creature's footprint ("size 2 (2×2)",
    R-Z1); "" for a plain walker of one cell. The board shows neither: its letters hold one
    character a creature, and "^" there is fire."""
    words = []
    body = world.need(unit, Body)
    if body.modes:
        words.append("moves: " + ", ".join(f"{mode} {metres} m" for mode, metres in body.modes))
    wide = side(world, unit)
    if wide > 1:
        words.append(f"size {wide} ({wide}×{wide})")
    return "".join(f"  {w}" for w in words)


def team_marks(world: World) -> dict[str, str]:
    """Each side's mark beside its creatures' letters: its name's first letter, lower case,
    or its place among the sides (a digit) where two names begin alike."""
    teams = list(dict.fromkeys(team_of(world, u) for u in creatures(world)))
    firsts = [t[:1].lower() for t in teams]
    if len(set(firsts)) == len(firsts) and all(f.isalpha() for f in firsts):
        return dict(zip(teams, firsts, strict=True))
    return {team: str(i % 10) for i, team in enumerate(teams)}


def overlays(scene: Scene, session: Session, view: View, plan: PathPlan | None) -> Overlays:
    """The overlays shown now: the selected creature's reach map (on its turn, for its side),
    the threat and own reach when switched on, the planned path and where it provokes, a
    move or aim under way during a reaction prompt, and marked areas."""
    world = session.battle.world
    shown = Overlays()
    shown.reach = dict(scene.reach_cells(session, view))
    if view.show_threat:
        shown.threat = dict(scene.threats(session, view))
    if view.show_own and view.selected and world.has(view.selected, Position):
        shown.own = frozenset(scene.own_reach(session, view.selected))
    if plan is not None:
        shown.path = plan.cells
        shown.provokes = frozenset(p.cell for p in plan.provocations)
    happening = scene.underway_shown(session, view)
    if happening is not None:
        if happening.move is not None:
            shown.path = happening.move.ahead
        shown.aims = frozenset(end for _, end, _ in Scene.aim_ends(world, happening))
    shown.area = frozenset(c for cells, _ in scene.marked_areas(session, view) for c in cells)
    return shown


def cells(
    world: World, scene: Scene, session: Session, view: View, shown: Overlays
) -> list[list[tuple[Glyph, Glyph]]]:
    """Every cell's two characters, row by row."""
    grid = world.grid
    names = letters(world)
    marks = team_marks(world)
    order = tuple(dict.fromkeys(team_of(world, u) for u in creatures(world)))
    at: dict[Pos, str] = {}
    for unit, _ in scene.shown(session, view):
        for cell in cells_of(world, unit):  # a large creature on all its cells (R-Z1)
            at.setdefault(cell, unit)
    items = {pos.cell for item, pos in world.each(Position) if world.has(item, Item)}
    flags = {c for o in session.battle.objectives if isinstance(o, Reach) for c in o.cells}
    end = shown.path[-1] if shown.path else None
    out = []
    for y in range(grid.height):
        row = []
        for x in range(grid.width):
            pos = Pos(x, y)
            there = at.get(pos)
            ground = _terrain(world, pos)
            first: Glyph
            if there is not None:
                style = pal.team_style(team_of(world, there), order)
                first = Glyph(names[there], pal.ink_on(style.colour), style.colour)
            elif pos == end:
                first = Glyph(END, pal.PATH_EDGE, pal.PATH)
            elif pos in shown.path:
                first = Glyph(PATH, pal.PATH_EDGE, pal.PATH)
            elif pos in shown.reach:
                move = pal.MOVE_STYLES.get(shown.reach[pos])
                if move is None:
                    first = Glyph("?")
                else:
                    first = Glyph(move.letter, pal.ink_on(move.colour), move.colour)
            elif pos in shown.area:
                first = Glyph(AREA, pal.BLACK, pal.YELLOW)
            else:
                first = Glyph(ground, TERRAIN_INK.get(ground))
            row.append((first, _second(world, pos, there, marks, order, shown, items, flags)))
        out.append(row)
    return out


def _terrain(world: World, pos: Pos) -> str:
    grid = world.grid
    kind = grid.kind(pos)
    if kind is Kind.OPEN and grid.water_half(pos):
        return "~"
    return TERRAIN[kind]


def _second(
    world: World,
    pos: Pos,
    unit: str | None,
    marks: dict[str, str],
    order: tuple[str, ...],
    shown: Overlays,
    items: set[Pos],
    flags: set[Pos],
) -> Glyph:
    if pos in shown.provokes:
        return Glyph(PROVOKES, pal.ink_on(pal.PROVOKE), pal.PROVOKE)
    if unit is not None:
        if pos in shown.aims:
            return Glyph("<", pal.BLACK, pal.YELLOW)
        style = pal.team_style(team_of(world, unit), order)
        return Glyph(marks[team_of(world, unit)], pal.ink_on(style.colour), style.colour)
    count = shown.threat.get(pos, 0)
    if count:
        return Glyph(str(count) if count < 10 else "+", pal.ink_on(pal.THREAT), pal.THREAT)
    if pos in shown.own:
        return Glyph(OWN, pal.WHITE, pal.OWN_REACH)
    if pos in flags:
        return Glyph(FLAG, pal.BLACK, pal.YELLOW)
    if pos in items:
        return Glyph(ITEM)
    if world.grid.ground_half(pos) > 0:
        return Glyph(RAISED)
    ground = _terrain(world, pos)
    # Walls, water and rough ground run on through both characters; open ground is a dot.
    return Glyph(ground, TERRAIN_INK.get(ground)) if ground != "." else Glyph(" ")


def paint(glyph: Glyph, colour: bool) -> str:
    """A character with its colours as 24-bit ANSI codes (when `colour`)."""
    if not colour or (glyph.ink is None and glyph.back is None):
        return glyph.char
    codes = []
    if glyph.ink is not None:
        codes.append("38;2;{};{};{}".format(*glyph.ink))
    if glyph.back is not None:
        codes.append("48;2;{};{};{}".format(*glyph.back))
    return f"\x1b[{';'.join(codes)}m{glyph.char}\x1b[0m"


def draw(rows: list[list[tuple[Glyph, Glyph]]], colour: bool) -> list[str]:
    """The board's lines with the columns' x above (tens, then units) and each row's y."""
    width = len(rows[0]) if rows else 0
    label = len(str(max(len(rows) - 1, 0)))
    pad = " " * (label + 1)
    lines = []
    if width > 10:
        lines.append(
            pad + "".join(f"{x // 10 if x >= 10 else ' '} " for x in range(width)).rstrip()
        )
    lines.append(pad + "".join(f"{x % 10} " for x in range(width)).rstrip())
    for y, row in enumerate(rows):
        body = "".join(paint(a, colour) + paint(b, colour) for a, b in row)
        lines.append(f"{y:>{label}} {body}".rstrip())
    return lines


def key_lines(
    world: World, shown: Overlays, rows: Iterable[Iterable[tuple[Glyph, Glyph]]]
) -> list[str]:
    """What the characters on the board mean, for those shown now."""
    seen_first = {a.char for row in rows for a, _ in row}
    seen_second = {b.char for row in rows for _, b in row}
    out = []
    moves = [
        f"{style.letter} {name}"
        for name, style in pal.MOVE_STYLES.items()
        if name in set(shown.reach.values())
    ]
    if moves:
        out.append("reach (cheapest Movement Action to end there): " + ", ".join(moves))
    if shown.path:
        out.append(
            f"path: {PATH} the way, {END} where it ends; "
            f"{PROVOKES} leaving that cell provokes an Attack of Opportunity"
        )
    if shown.threat:
        out.append("threat: 2nd character = how many enemies can attack in that cell")
    if shown.own:
        out.append(f"{OWN}: the cells the selected creature can attack in")
    if shown.aims:
        out.append("<: the creature the action under way is aimed at")
    if shown.area:
        out.append(f"{AREA}: an area watched by a prepared action")
    terrain = [f"{c} {w}" for c, w in TERRAIN_WORDS.items() if c in seen_first]
    marks = [
        words
        for mark, words in (
            (ITEM, f"{ITEM} item on the ground"),
            (RAISED, f"{RAISED} raised ground (look X,Y: how high)"),
            (FLAG, f"{FLAG} a goal cell"),
        )
        if mark in seen_second
    ]
    out.append("ground: " + ", ".join(terrain + marks))
    return out
