"""Ground underfoot: what one move between neighbouring cells costs a creature, or why it cannot
be made (R-U2, R-U3, R-M2, R-M3, R-M4, R-M5, R-M9).

The same rules exist twice on purpose: `step_problem`/`step_cost` here, for one step with a
reason a player can read, and `pathfinder.step_cost`, compiled, for the thousands of steps of a
reach map. tests/rules/reach/test_reach_property.py checks that the two agree on random maps.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from sim.core.components import Body, Conditions, Position, Size, Stats, Team
from sim.core.creature import cells_of, creatures, lying, side
from sim.core.geometry import Pos, is_diagonal
from sim.core.grid import Kind
from sim.core.occupancy import standing
from sim.core.world import World

# (dx, dy) of the 8 neighbours; direction d of every step table and search.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
)


class Gait(enum.Enum):
    """How a creature moves, which decides which rules apply to a step."""

    STRIDE = "stride"  # Walk, Run, Sprint: may leap low obstacles and rises (R-M3)
    STEP = "step"  # Step: no leaping (R-M3 names Walk, Run and Sprint only)
    CRAWL = "crawl"  # Crawl, while prone (R-M8)
    SWIM = "swim"  # Swim, in water at least waist-deep (R-M8)


@dataclass(frozen=True, slots=True)
class Mover:
    """What the ground rules need to know about the creature that moves."""

    unit: str
    team: str
    height_half: float  # the creature's height in half-metres
    leap_half: float  # R-M3: half its height, in half-metres
    leap_width: int  # R-M3: the widest obstacle it leaps, in half-metres (one cell)
    waist_half: float  # R-M9: half its height, in half-metres
    orthogonal: int
    diagonal: int
    difficult_factor: int
    flies: bool = False  # R-Z5: it has a fly speed; its Steps, Walks, Runs and Sprints fly
    swimmer: bool = False  # R-Z5: it has a swim speed; water is not difficult for it
    side: int = 1  # R-Z1: cells a side; its moves are its footprint's top-left's (R-Z2)

    def flying(self, gait: Gait) -> bool:
        """R-Z5: a flier flies whenever it moves on its feet would (not crawling or swimming)."""
        return self.flies and (gait is Gait.STRIDE or gait is Gait.STEP)

    def at(self, cell: Pos) -> str:
        """Where a move puts the creature, in words: its cell, or its footprint from it."""
        return str(cell) if self.side == 1 else f"{cell} (its {self.side}x{self.side} cells)"


def mover(world: World, unit: str) -> Mover:
    return world.memo(("mover", unit), lambda: _mover(world, unit), reads=(Body, Team, Size))


def _mover(world: World, unit: str) -> Mover:
    rules = world.rules
    body = world.need(unit, Body)
    height = body.height * 2
    return Mover(
        unit=unit,
        team=world.need(unit, Team).name,
        height_half=height,
        leap_half=height * rules.movement.leap_height_fraction,
        leap_width=2 * rules.movement.leap_width_metres,
        waist_half=height * rules.movement.waist_fraction,
        orthogonal=rules.grid.orthogonal_half_metres,
        diagonal=rules.grid.diagonal_half_metres,
        difficult_factor=rules.movement.difficult_multiplier,
        flies=body.fly > 0,
        swimmer=body.swim > 0,
        side=side(world, unit),
    )


# --- occupancy (R-M5) ----------------------------------------------------------------------

# What who stands where is read from: places, being down (a condition), sides, and which
# entities are creatures.
STANDING = (Position, Conditions, Team, Stats, Size)


def standing_at(world: World, unit: str) -> Mapping[Pos, str]:
    """Where `unit` cannot stand for another standing creature (R-M5): the cells it holds, each
    cell of a large one's footprint (R-Z1); for a large `unit`, every top-left cell from which
    its footprint would cover one of those (R-Z2: its Position is its top-left). Every step of
    every path asks it: for a creature of one cell it is a view of the occupancy index, kept
    from the world's journal (issue #30); for a large one it is worked out from every creature
    and kept by the world until one moves, falls or gets up (World.memo)."""
    reach = side(world, unit)
    if reach == 1:
        return standing(world, unit)

    def held() -> Mapping[Pos, str]:
        out: dict[Pos, str] = {}
        for other in creatures(world):
            if other == unit or lying(world, other):
                continue
            for cell in cells_of(world, other):
                for dy in range(reach):
                    for dx in range(reach):
                        out.setdefault(Pos(cell.x - dx, cell.y - dy), other)
        return MappingProxyType(out)

    return world.memo(("standing_at", unit), held, reads=STANDING)


def terrain_view(world: World, unit: str) -> World:
    """The world as a large creature moves in it (R-Z2): a copy whose map is the footprint map
    of its size (`Grid.footprints`: each cell the worst of the footprint whose top-left it is),
    so one move of its Position is one move of its whole footprint and every ground rule,
    the compiled search's included, reads what the footprint meets. `world` itself for a
    creature of one cell. Kept until anything is written."""
    reach = side(world, unit)
    if reach == 1:
        return world

    def view() -> World:
        copy = world.copy()
        copy.grid = world.grid.footprints(reach)
        return copy

    return world.memo(("terrain_view", reach), view)


def blocker(world: World, unit: str, cell: Pos) -> str | None:
    """A standing enemy in `cell`, which no creature may move through (R-M5)."""
    other = standing_at(world, unit).get(cell)
    if other is None:
        return None
    if world.need(other, Team).name == world.need(unit, Team).name:
        return None
    return other


# --- one step ------------------------------------------------------------------------------


def water_problem(world: World, m: Mover, gait: Gait, cell: Pos) -> str | None:
    depth = world.grid.water_half(cell)
    if m.flying(gait):
        return None  # R-Z5: it flies over water of any depth
    if gait is Gait.SWIM:
        if depth < m.waist_half:
            return f"{cell}: water {depth / 2:g} m deep is too shallow to swim (R-M8)"
        return None
    if depth > m.height_half:
        return f"{cell}: water {depth / 2:g} m deep is over {m.unit}'s head; swim (R-M9)"
    if gait is Gait.CRAWL and depth >= m.waist_half:
        return f"{cell}: water {depth / 2:g} m deep is too deep to crawl through (R-M9)"
    return None


def is_difficult(world: World, m: Mover, cell: Pos) -> bool:
    """R-M2, R-M9: difficult ground, or water from waist-deep up to the creature's height
    (R-Z5: not for a creature with a swim speed)."""
    depth = world.grid.water_half(cell)
    if world.grid.kind(cell) is Kind.DIFFICULT:
        return True
    return not m.swimmer and m.waist_half <= depth <= m.height_half


def step_problem(
    world: World,
    m: Mover,
    gait: Gait,
    a: Pos,
    b: Pos,
    *,
    allow_fall: bool = False,
    action: str | None = None,
) -> str | None:
    """Why the move from `a` to its neighbour `b` is not allowed, or None if it is.
    With `allow_fall`, a drop higher than the creature is allowed: it falls (R-M4). `action`
    names the Movement Action taken ("Run"), which one gait serves several of."""
    word = action or gait_word(gait)
    grid = world.grid
    if not grid.inside(b):
        return f"{b}: off the map (R-U1)"
    kind = grid.kind(b)
    # R-Z2: a large creature's cell is its footprint's top-left; the map it reads holds the
    # worst of the footprint, so these say so.
    big = " (R-Z2)" if m.side > 1 else ""
    if kind is Kind.WALL:
        return f"{m.at(b)}: a wall (R-U1){big}"
    if m.flying(gait):
        return _flight_problem(world, m, a, b)
    if kind is Kind.PIT:
        return f"{m.at(b)}: a pit; jump across it (R-M6){big}"
    if is_diagonal(a, b):
        for corner in (Pos(b.x, a.y), Pos(a.x, b.y)):
            if not grid.inside(corner) or grid.kind(corner) in (Kind.WALL, Kind.PIT):
                return f"{m.at(b)}: the diagonal would cut the corner at {m.at(corner)} (R-U3){big}"
    water = water_problem(world, m, gait, b)
    if water:
        return water
    enemy = blocker(world, m.unit, b)
    if enemy is not None:
        return f"{m.at(b)}: {enemy} stands there and is not an ally (R-M5)"
    if gait is Gait.SWIM:
        return None  # swimming and diving ignore the ground below (R-M8)
    rise = grid.ground_half(b) - grid.ground_half(a)
    obstacle = grid.obstacle_half(b)
    climb = max(rise, 0) + obstacle
    if climb > 0 and gait is not Gait.STRIDE:
        what = "a Step" if gait is Gait.STEP else "a Crawl"
        return (
            f"{b}: {_what(rise, obstacle)} {climb / 2:g} m high; {what} cannot leap (R-M3); "
            "walk, jump or climb"
        )
    if climb > m.leap_half:
        return (
            f"{b}: {_what(rise, obstacle)} {climb / 2:g} m high; a {word} can leap "
            f"{m.leap_half / 2:.2g} m; jump or climb (R-M3)"
        )
    if obstacle and grid.obstacle_half(a) and gait is Gait.STRIDE:
        return (
            f"{b}: the obstacles at {a} and {b} are more than {m.leap_width / 2:g} m across; "
            f"a {word} leaps only narrower ones; jump over them or climb (R-M3)"
        )
    drop = -rise
    if drop > m.height_half and not allow_fall:
        return f"{b}: a drop of {drop / 2:g} m is higher than {m.unit}; climb down or fall (R-M4)"
    return None


def _flight_problem(world: World, m: Mover, a: Pos, b: Pos) -> str | None:
    """R-Z5: a flier's move over pits, water, difficult ground, ledges and obstacles; walls
    still block it, a diagonal still may not cut a wall's corner (R-U3), and a standing enemy
    still holds its cell (R-M5)."""
    grid = world.grid
    # R-Z2: a large flier's map holds the worst of each footprint, a wall over a pit, so its
    # flight is stopped by the walls any of its cells would meet and by nothing below.
    big = " (R-Z2)" if m.side > 1 else ""
    if is_diagonal(a, b):
        for corner in (Pos(b.x, a.y), Pos(a.x, b.y)):
            if not grid.inside(corner) or grid.kind(corner) is Kind.WALL:
                return f"{m.at(b)}: the diagonal would cut the corner at {m.at(corner)} (R-U3){big}"
    enemy = blocker(world, m.unit, b)
    if enemy is not None:
        return f"{m.at(b)}: {enemy} stands there and is not an ally (R-M5)"
    return None


def _what(rise: int, obstacle: int) -> str:
    if obstacle and rise > 0:
        return "ledge and obstacle"
    return "an obstacle" if obstacle else "ledge"


def gait_word(gait: Gait) -> str:
    return {Gait.STRIDE: "Walk", Gait.STEP: "Step", Gait.CRAWL: "Crawl", Gait.SWIM: "Swim"}[gait]


def step_cost(world: World, m: Mover, gait: Gait, a: Pos, b: Pos) -> int:
    """Half-metres the step costs (R-U2), doubled on difficult ground at either end (R-M2)."""
    base = m.diagonal if is_diagonal(a, b) else m.orthogonal
    if gait is Gait.SWIM or m.flying(gait):
        return base  # R-M8: the ground below a swimmer; R-Z5: all of it below a flier
    if is_difficult(world, m, a) or is_difficult(world, m, b):
        return base * m.difficult_factor
    return base


def is_fall(world: World, m: Mover, a: Pos, b: Pos, up: float = 0.0) -> bool:
    """Going from `a` (`up` metres above its ground: hanging on a face, R-M7) down to `b` drops
    further than the creature is tall (R-M4)."""
    return world.grid.ground_half(a) + up * 2 - world.grid.ground_half(b) > m.height_half
