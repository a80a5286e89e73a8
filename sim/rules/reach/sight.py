"""Line of sight (R-A5): a ranged or thrown attack needs a line that no wall cell blocks. To and
from a large creature (R-Z3) lines and distances are drawn from its footprint's cells: it is
seen when any of its cells is, and ranges count from the nearest cells."""

from __future__ import annotations

import math

from sim.core.actions import Refusal
from sim.core.components import Position
from sim.core.creature import cells_of
from sim.core.geometry import Pos
from sim.core.grid import Grid, Kind
from sim.core.numbers import Rules
from sim.core.world import World

SAMPLES_PER_CELL = 4


def cells_on_line(a: Pos, b: Pos) -> tuple[Pos, ...]:
    """The cells the line between the two cell centres passes, endpoints excluded.

    >>> cells_on_line(Pos(0, 0), Pos(3, 0))
    (Pos(x=1, y=0), Pos(x=2, y=0))
    """
    n = max(abs(b.x - a.x), abs(b.y - a.y))
    if n <= 1:
        return ()
    if (b.y, b.x) < (a.y, a.x):
        # Always trace from the same end, so sight is the same both ways.
        return cells_on_line(b, a)
    seen: dict[Pos, None] = {}
    steps = n * SAMPLES_PER_CELL
    for i in range(1, steps):
        t = i / steps
        x = a.x + (b.x - a.x) * t
        y = a.y + (b.y - a.y) * t
        cell = Pos(math.floor(x + 0.5), math.floor(y + 0.5))
        if cell not in (a, b):
            seen[cell] = None
    return tuple(seen)


def line_of_sight(grid: Grid, a: Pos, b: Pos) -> Pos | None:
    """The first wall cell between `a` and `b`, or None when the line is clear (R-A5)."""
    for cell in cells_on_line(a, b):
        if grid.inside(cell) and grid.kind(cell) is Kind.WALL:
            return cell
    return None


def blocked_line(grid: Grid, a: Pos, b: Pos, what: str) -> Refusal | None:
    """Why nothing can be aimed from `a` at `what` in `b` (R-A5): the wall in the way."""
    wall = line_of_sight(grid, a, b)
    if wall is not None:
        return Refusal(f"no line of sight to {what}: the wall at {wall} blocks it (R-A5)")
    return None


def sight_lines(world: World, a: str, b: str) -> tuple[tuple[Pos, Pos], ...]:
    """The lines between creatures `a` and `b`, from each cell of `a`'s footprint to each of
    `b`'s, nearest first (R-Z3: distances count from the nearest cells), in row order among
    equals; for two creatures of one cell, the one line between their cells."""
    mine, theirs = cells_of(world, a), cells_of(world, b)
    pairs = [(here, there) for here in mine for there in theirs]
    if len(pairs) == 1:
        return (pairs[0],)
    rules = world.rules
    return tuple(sorted(pairs, key=lambda p: distance_half(rules, p[0], p[1])))


def creature_line(world: World, a: str, b: str, what: str) -> Refusal | None:
    """Why `a` cannot aim at `b` (R-A5), named `what`: no line between a cell of the one and a
    cell of the other is clear (R-Z3), and the wall that blocks the nearest line says so."""
    first: Refusal | None = None
    for here, there in sight_lines(world, a, b):
        blocked = blocked_line(world.grid, here, there, what)
        if blocked is None:
            return None
        first = first or blocked
    return first


def distance_half(rules: Rules, a: Pos, b: Pos) -> int:
    """Grid distance in half-metres: 1 m straight, 1.5 m diagonal (R-U2).

    >>> from sim.core.numbers import default_rules
    >>> distance_half(default_rules(), Pos(0, 0), Pos(3, 1))
    7
    """
    dx, dy = abs(a.x - b.x), abs(a.y - b.y)
    diagonal = min(dx, dy)
    straight = max(dx, dy) - diagonal
    return diagonal * rules.grid.diagonal_half_metres + straight * rules.grid.orthogonal_half_metres


def creature_distance_half(world: World, a: str, b: str) -> int:
    """How far apart two creatures are for a range (R-C7, R-X17, R-X20), in half-metres: on the
    grid (R-U2); **Decision** when either hangs on a face (R-M7), in three dimensions, the height
    between them counting as a third direction the way a diagonal does (the longer of the two
    plus half the shorter, rounded down to the half-metre, R-U4).

    Between two creatures on the ground the distance stays the grid's, as R-A5 measures it;
    between large ones, from the nearest cells of their footprints (R-Z3)."""
    here, there = world.need(a, Position), world.need(b, Position)
    # R-Z3: from the nearest cells of two footprints.
    near, far = sight_lines(world, a, b)[0]
    flat = distance_half(world.rules, near, far)
    if not (here.elevation or there.elevation):
        return flat
    grid = world.grid
    rise = abs(
        grid.ground_half(near)
        + round(here.elevation * 2)
        - grid.ground_half(far)
        - round(there.elevation * 2)
    )
    return max(flat, rise) + min(flat, rise) // 2
