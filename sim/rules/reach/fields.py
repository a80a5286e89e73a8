"""Reach maps: every cell a creature can reach with one Movement Action, what it costs and the
cheapest path (R-M1..R-M9). One engine for the rules check, the UI and the AI.

Costs are whole half-metres. The map around the creature is cut to a window it cannot leave
within its limit, turned into plain arrays, and searched by the compiled Dijkstra of
`sim/rules/reach/pathfinder.py` with jumps folded in where the gait allows them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from sim.core.components import Team
from sim.core.geometry import Pos
from sim.core.occupancy import Standing
from sim.core.world import World
from sim.rules.movement.footing import STANDING, Gait, Mover, standing_at
from sim.rules.movement.jump import JumpReach
from sim.rules.reach import pathfinder as pf

INF = pf.BLOCKED
Int = npt.NDArray[np.int32]

# The terrain layers in the order of the pathfinder's first planes (P_KIND .. P_OBSTACLE).
TERRAIN = ("kind", "height", "water", "obstacle")
assert list(range(len(TERRAIN))) == [pf.P_KIND, pf.P_HEIGHT, pf.P_WATER, pf.P_OBSTACLE]
# `ground` lists the mover's numbers in the pathfinder's order.
assert (
    pf.M_HEIGHT,
    pf.M_GAIT,
    pf.M_JUMPS,
    pf.M_LIMIT,
    pf.M_GRAB_HEIGHT,
    pf.M_FLY,
    pf.M_SWIMMER,
    pf.PARAMS,
) == (0, 6, 7, 8, 15, 16, 17, 18)

GAIT_CODES = {Gait.STRIDE: pf.STRIDE, Gait.STEP: pf.STEP, Gait.CRAWL: pf.CRAWL, Gait.SWIM: pf.SWIM}


@dataclass(frozen=True, slots=True)
class Window:
    """A rectangle of the map [x0, x1) x [y0, y1) that a reach map is computed on."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def shape(self) -> tuple[int, int]:
        return (self.y1 - self.y0, self.x1 - self.x0)

    def local(self, pos: Pos) -> tuple[int, int]:
        return (pos.y - self.y0, pos.x - self.x0)

    def world_pos(self, y: int, x: int) -> Pos:
        return Pos(x + self.x0, y + self.y0)

    def holds(self, pos: Pos) -> bool:
        return self.x0 <= pos.x < self.x1 and self.y0 <= pos.y < self.y1


def window_around(world: World, centre: Pos, radius: int) -> Window:
    g = world.grid
    return Window(
        max(0, centre.x - radius),
        max(0, centre.y - radius),
        min(g.width, centre.x + radius + 1),
        min(g.height, centre.y + radius + 1),
    )


@dataclass(frozen=True, slots=True)
class Ground:
    """A window of the map as the compiled search reads it, for one mover and gait."""

    window: Window
    planes: Int  # pathfinder.P_* planes
    params: npt.NDArray[np.float64]  # pathfinder.M_* numbers
    flags: npt.NDArray[np.uint8]  # pathfinder.F_* flags of each cell
    can_end: npt.NDArray[np.bool_]  # cells a move may end in (R-M5, R-M8, R-M9)


def ground(
    world: World, m: Mover, gait: Gait, win: Window, limit: int, jr: JumpReach | None
) -> Ground:
    grid = world.grid
    if m.flying(gait):
        jr = None  # R-Z5: no jumps in flight
    hh, ww = win.shape
    box = (slice(win.y0, win.y1), slice(win.x0, win.x1))
    planes = np.zeros((pf.PLANES, hh, ww), dtype=np.int32)
    planes[: len(TERRAIN)] = grid.stacked(TERRAIN)[(slice(None), *box)]
    for x, y, enemy in _standing(world, m):
        if win.x0 <= x < win.x1 and win.y0 <= y < win.y1:
            planes[pf.P_STANDING, y - win.y0, x - win.x0] = 1
            planes[pf.P_ENEMY, y - win.y0, x - win.x0] = enemy
    # The M_* numbers in index order (a reach map makes several grounds: no per-index loop).
    jumps = (
        (0, 0, 0, 0, 0, 0, 0)
        if jr is None
        else (
            jr.standing_length,
            jr.length_cap,
            jr.skill_length,
            jr.height(0),
            jr.height_per_runup,
            jr.extra_height_cap,
            jr.height(0, grab=True),
        )
    )
    params = np.array(
        (
            m.height_half,
            m.leap_half,
            m.waist_half,
            m.orthogonal,
            m.diagonal,
            m.difficult_factor,
            GAIT_CODES[gait],
            0 if jr is None else 1,
            limit,
            *jumps,
            1 if m.flies else 0,
            1 if m.swimmer else 0,
        ),
        dtype=np.float64,
    )
    flags = pf.cell_flags(planes, params)
    # R-M5: a move cannot end on a standing creature; a crawler is prone and may share.
    can_end = flags >= pf.F_END
    return Ground(win, planes, params, flags, can_end)


def _standing(world: World, m: Mover) -> tuple[tuple[int, int, bool], ...]:
    """(x, y, an enemy of the mover) of each cell another standing creature holds (R-M5), kept
    as `standing_at` is: every search's ground reads it (issue #11: several a reach map)."""

    held = standing_at(world, m.unit)
    if isinstance(held, Standing):  # one cell wide: the index knows every holder's team
        return tuple((cell.x, cell.y, team != m.team) for cell, team in held.teams())

    def found() -> tuple[tuple[int, int, bool], ...]:
        return tuple(
            (cell.x, cell.y, world.need(other, Team).name != m.team)
            for cell, other in standing_at(world, m.unit).items()
        )

    return world.memo(("standing", m.unit, m.team), found, reads=STANDING)


@dataclass(frozen=True, slots=True)
class Field:
    """Least cost (half-metres) from `start` to every window cell within `limit`; INF elsewhere."""

    start: Pos
    limit: int
    ground: Ground
    dist: Int
    states: Int  # the search's states, for tracing paths back (pathfinder.search)

    @property
    def window(self) -> Window:
        return self.ground.window

    def cost(self, pos: Pos) -> int | None:
        if not self.window.holds(pos):
            return None
        y, x = self.window.local(pos)
        value = int(self.dist[y, x])
        return None if value >= INF else value

    def can_end(self, pos: Pos) -> bool:
        if not self.window.holds(pos):
            return False
        y, x = self.window.local(pos)
        return bool(self.ground.can_end[y, x])

    def ends(self) -> list[tuple[Pos, int]]:
        """Every cell a move may end in, with its cost, in row order (start excluded)."""
        ok = (self.dist < INF) & self.ground.can_end
        ys, xs = np.nonzero(ok)
        costs = self.dist[ys, xs].tolist()
        x0, y0 = self.window.x0, self.window.y0
        cells = [Pos(x + x0, y + y0) for y, x in zip(ys.tolist(), xs.tolist(), strict=True)]
        return [(c, cost) for c, cost in zip(cells, costs, strict=True) if c != self.start]

    def path_to(self, target: Pos) -> tuple[tuple[Pos, bool], ...]:
        """The cheapest path from the start (excluded) to `target`: (cell, entered by a jump)."""
        return tuple((cell, jumped) for cell, jumped, _ in self.route_to(target))

    def route_to(self, target: Pos) -> tuple[tuple[Pos, bool, int], ...]:
        """`path_to` with what each leg into its cell costs (half-metres), as the search
        priced it: a move to `target` is planned from it without putting each step to the
        rules again (`movement.traced`; a jump is still planned, for its ledge)."""
        if self.cost(target) is None:
            raise ValueError(f"{target} is not reachable")
        y, x = self.window.local(target)
        g = self.ground
        rows = pf.trace(g.planes, g.flags, g.params, self.dist, self.states, y, x).tolist()
        if not rows and target != self.start:  # pragma: no cover - a search made this field
            raise AssertionError(f"no path back from {target}")
        x0, y0 = self.window.x0, self.window.y0
        return tuple(
            (Pos(x + x0, y + y0), bool(jumped), cost) for y, x, jumped, cost in reversed(rows)
        )


def field_radius(m: Mover, limit: int) -> int:
    """How many cells around its start the window of a search with `limit` half-metres
    reaches: every cell the limit could get to, and a margin of one."""
    return limit // m.orthogonal + 1


def distance_field(
    world: World,
    m: Mover,
    gait: Gait,
    start: Pos,
    limit: int,
    jr: JumpReach | None = None,
) -> Field:
    """The reach of one Movement Action with `limit` half-metres (jumps folded in if `jr` and
    the gait is a stride)."""

    def search() -> Field:
        win = window_around(world, start, field_radius(m, limit))
        g = ground(world, m, gait, win, limit, jr)
        sy, sx = win.local(start)
        dist, states = pf.search(g.planes, g.flags, g.params, sy, sx)
        return Field(start, limit, g, dist, states)

    # One search serves the reach map, the check of a move and its resolution (issue #11), and
    # a search with a larger limit serves every smaller one: a Walk checked after the reach map
    # searched as far as a Sprint's least roll goes reads that field (see `within`; `field_to`
    # serves a larger limit from a smaller search that reaches the cell asked about).
    kept = _fields(world, m, gait, start, jr)
    found = kept.get(limit)
    if found is None:
        wider = [k for k in kept if k > limit]
        found = within(kept[min(wider)], limit) if wider else search()
        kept[limit] = found
    return found


def _fields(
    world: World, m: Mover, gait: Gait, start: Pos, jr: JumpReach | None
) -> dict[int, Field]:
    """The searches kept for one mover, gait and start, by limit; dropped together when a
    creature or the terrain changes."""
    kept: dict[int, Field] = world.memo(("fields", m, gait, start, jr), dict, reads=STANDING)
    return kept


def field_to(
    world: World,
    m: Mover,
    gait: Gait,
    start: Pos,
    limit: int,
    jr: JumpReach | None,
    target: Pos,
) -> Field:
    """`distance_field(world, m, gait, start, limit, jr)` as far as `target` is concerned: its
    cost, whether a move may end there and the path to it. A kept search with a smaller limit
    that reaches `target` gives the same three (a least cost within the smaller limit is the
    least cost, and the states at or below it are the same states: see `within`), so a move
    to a cell the reach map offered is checked on the reach map's own search instead of a
    larger one (issue #11: a Sprint's check plans with the most its roll could give, and the
    reach map searches only as far as the least roll goes)."""
    kept = _fields(world, m, gait, start, jr)
    for smaller in sorted(k for k in kept if k < limit):
        if kept[smaller].cost(target) is not None:
            return kept[smaller]
    return distance_field(world, m, gait, start, limit, jr)


def within(field: Field, limit: int) -> Field:
    """`field` cut to the cells a search with the smaller `limit` from the same start reaches.

    It is the same answer as that search's: costs are least costs, and a path of at most
    `limit` never leaves the smaller window nor passes a state that costs more; the run-up the
    search tells apart never differs below `limit` (`pathfinder.runup_levels` counts it up to
    the same cap, or to at least `limit`). The wider window and states are kept, so paths
    trace back through the same states (compared on the bench and shipped maps' games)."""
    dist = np.where(field.dist <= limit, field.dist, INF).astype(np.int32)
    return Field(field.start, limit, field.ground, dist, field.states)
