"""A creature's reach map: every cell it can reach with one Movement Action it can still pay
for, the cheapest such action, its cost in metres, the path, and the budget left after it; and
a face it can start up (or down) with a Climb that stops part-way, where it would hang."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from sim.core.actions import (
    Action,
    Climb,
    Crawl,
    Jump,
    Movement,
    Refusal,
    Run,
    Sprint,
    Step,
    Swim,
    Walk,
)
from sim.core.components import Body, Budget, Position
from sim.core.condition import Condition
from sim.core.creature import conditions, has
from sim.core.geometry import Pos
from sim.core.numbers import Tier
from sim.core.world import World
from sim.rules.budget import price
from sim.rules.movement.climb import ClimbPlan, plan_climb
from sim.rules.movement.footing import DIRECTIONS, Gait, Mover, mover, terrain_view
from sim.rules.movement.jump import jump_reach
from sim.rules.movement.movement import (
    GAITS,
    allowance,
    condition_problem,
    jumps_allowed,
    plan_move,
    standing_jump,
)
from sim.rules.reach import pathfinder as pf
from sim.rules.reach.fields import (
    INF,
    TERRAIN,
    Field,
    Int,
    Window,
    distance_field,
    field_radius,
    window_around,
)

# Cheapest first on the budget ladder (R-B1): Step is a Bonus Action, Walk and Jump a ½ Action,
# Run, Crawl, Swim and Climb 1 Action, Sprint 1 Action + 1 Bonus Action.
ORDER: tuple[type[Movement], ...] = (Step, Walk, Jump, Run, Crawl, Swim, Climb, Sprint)


Path = tuple[tuple[Pos, bool], ...]  # cells after the start; True where entered by a jump


@dataclass(frozen=True, slots=True)
class Hang:
    """Where a Climb that stops part-way leaves its climber (R-M7): in `cell` (the cell below
    the face), `height` metres above that cell's ground, on the face of `face`."""

    cell: Pos
    height: float
    face: Pos


@dataclass(frozen=True, slots=True)
class ReachCell:
    """One reachable cell. The path is worked out only when asked for (the hover path).
    `hang`: the action is a Climb that does not get there this action but hangs part-way; the
    cell is then the one the climb is aimed at (its "to"), not where the climber ends."""

    cell: Pos
    action: str
    cost: int  # half-metres of movement
    half_left: int
    bonus_left: int
    route: Field | Path = field(repr=False, compare=False)
    hang: Hang | None = None

    @property
    def metres(self) -> float:
        return self.cost / 2

    @property
    def path(self) -> Path:
        if isinstance(self.route, Field):
            return self.route.path_to(self.cell)
        return self.route


def _affordable(world: World, action: Action, budget: Budget) -> tuple[int, int] | None:
    cost = price(world, action, budget)
    if isinstance(cost, Refusal):
        return None
    return budget.half - cost.half, budget.bonus - cost.bonus


@dataclass(frozen=True, slots=True)
class Offer:
    """One Movement Action a reach map offers: its name, the budget left after it, and the
    search its cells were found by (None: each cell has its own path, as a Jump's)."""

    name: str
    half_left: int
    bonus_left: int
    field: Field | None


class ReachMap(Mapping[Pos, ReachCell]):
    """A reach map as arrays over a window of the map (issue #11): for each cell the offer
    that gets there cheapest (`code`, -1 for none) and its cost. It reads as a mapping from
    cell to ReachCell, in row order, making each ReachCell only when asked; `arrays` gives
    the cells, costs and offers at once for callers that score every cell."""

    __slots__ = ("_code", "_cost", "_hangs", "_len", "_paths", "offers", "window")

    def __init__(
        self,
        window: Window,
        code: npt.NDArray[np.int8],
        cost: npt.NDArray[np.int32],
        offers: tuple[Offer, ...],
        paths: dict[Pos, Path],
        hangs: dict[Pos, Hang],
    ) -> None:
        self.window = window
        self.offers = offers
        self._code = code
        self._cost = cost
        self._paths = paths
        self._hangs = hangs
        self._len = int(np.count_nonzero(code >= 0))

    def _index(self, pos: object) -> int:
        """The offer index of `pos`; -1 for a cell no action gets to or anything else."""
        win = self.window
        if not isinstance(pos, Pos) or not (win.x0 <= pos.x < win.x1 and win.y0 <= pos.y < win.y1):
            return -1
        return int(self._code[pos.y - win.y0, pos.x - win.x0])

    def __getitem__(self, pos: Pos) -> ReachCell:
        index = self._index(pos)
        if index < 0:
            raise KeyError(pos)
        win = self.window
        y, x = pos.y - win.y0, pos.x - win.x0
        offer = self.offers[index]
        route = offer.field if offer.field is not None else self._paths[pos]
        cost = int(self._cost[y, x])
        return ReachCell(
            pos, offer.name, cost, offer.half_left, offer.bonus_left, route, self._hangs.get(pos)
        )

    def planes(self) -> tuple[npt.NDArray[np.int8], Int]:
        """The offer index (-1: no action gets there) and the cost of every cell of `window`,
        as planes (not to be changed): for callers that weigh every cell at once."""
        return self._code, self._cost

    def __contains__(self, pos: object) -> bool:
        return self._index(pos) >= 0

    def __iter__(self) -> Iterator[Pos]:
        ys, xs = np.nonzero(self._code >= 0)
        x0, y0 = self.window.x0, self.window.y0
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            yield Pos(x + x0, y + y0)

    def __len__(self) -> int:
        return self._len

    def __repr__(self) -> str:
        return f"ReachMap({dict(self.items())!r})"

    def arrays(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], Int, Int]:
        """x, y, cost and offer index (into `offers`) of every cell, in row order."""
        ys, xs = np.nonzero(self._code >= 0)
        return (
            xs + self.window.x0,
            ys + self.window.y0,
            self._cost[ys, xs],
            self._code[ys, xs].astype(np.int32),
        )


def reach_map(
    world: World,
    unit: str,
    only: tuple[type[Movement], ...] = ORDER,
    *,
    submerged: bool = False,
    quicken: bool = False,
    budget: Budget | None = None,
) -> ReachMap:
    """Every cell `unit` can end a Movement Action in now, by the cheapest action (pure).
    `submerged`: a Swim is a dive, in water at least as deep as `unit` is tall (R-M8).
    `quicken`: the actions are priced Quickened (R-B6), which may pay for one the plain budget
    cannot; where they go is the same. `budget` replaces the unit's own, as in `budget.price`:
    the turn's budget an Extended Action in progress gives back (R-B5)."""
    world = terrain_view(world, unit)  # a large creature moves its footprint (R-Z2)
    start = world.need(unit, Position).cell
    m = mover(world, unit)
    # No kinds asked, no budget read: a creature before its first turn has none.
    usable = _usable(world, unit, only, quicken, budget) if only else ()
    # Each kind's metres, worked out once: the window, the strides' search and each kind's
    # own search all read them (issue #31: each read was a kept answer asked again).
    limits: dict[type[Movement], int] = {
        kind: _limit(world, unit, kind) for kind, _ in usable if kind in LIMITED
    }
    # Walk, Run and Sprint follow the same ground rules and differ only in metres: one field
    # as far as the largest of their limits serves all three (its costs are least costs).
    strides = [limits[kind] for kind in STRIDES if kind in limits]
    most = max(strides, default=0)
    shared = None
    if strides:
        jr = jump_reach(world, unit, m)
        shared = distance_field(world, m, Gait.STRIDE, start, most, jr)
    radius = max((_radius(world, unit, k, m, most, limits) for k, _ in usable), default=1)
    win = window_around(world, start, radius)
    code = np.full(win.shape, -1, dtype=np.int8)
    cost = np.zeros(win.shape, dtype=np.int32)
    paths: dict[Pos, Path] = {}
    hangs: dict[Pos, Hang] = {}
    offers: list[Offer] = []
    # Cheapest action first, each offering the cells no earlier one got: those of a search's
    # field (within the most it may cost, for the strides that share one), or a few cells each
    # with its own path (a Jump, a Climb, a swimmer's Step out).
    partial: Partial = []
    climb = -1
    for index, (kind, left) in enumerate(usable):
        reached: Field | Found
        limit = INF - 1
        if kind in STRIDES:
            assert shared is not None
            reached, limit = shared, limits[kind]
        elif kind is Climb:
            reached, partial = _climbs(world, unit, start)
            climb = index
        else:
            reached = _cells(world, unit, kind, start, m, submerged, (win, code), limits)
        if isinstance(reached, Field):
            offers.append(Offer(kind.name, *left, reached))
            fw = reached.window
            sy, sx = fw.local(start)
            pf.offer(
                code, cost, reached.dist, reached.ground.can_end,
                fw.y0 - win.y0, fw.x0 - win.x0, limit, index, sy, sx,
            )  # fmt: skip
            continue
        offers.append(Offer(kind.name, *left, None))
        for cell, spent, route in reached:
            _offer(win, code, cost, paths, index, cell, spent, route)
    # A climb that only starts up a face is offered where no action gets there outright.
    for cell, spent, route, hang in partial:
        if _offer(win, code, cost, paths, climb, cell, spent, route):
            hangs[cell] = hang
    return ReachMap(win, code, cost, tuple(offers), paths, hangs)


def _usable(
    world: World,
    unit: str,
    only: tuple[type[Movement], ...],
    quicken: bool,
    budget: Budget | None,
) -> tuple[tuple[type[Movement], tuple[int, int]], ...]:
    """The kinds of `only` that `unit` can pay for from `budget` (None: its own) and its state
    allows, each with the budget left after it. The prices depend on the unit only through
    its conditions (Slowed, Quickened), so the world keeps them by those and the budget: most
    creatures, most turns, have the same, and eight actions were priced for every reach map
    (issue #11). What its state forbids (`condition_problem`) reads the creature itself (a
    flier does not Jump, R-Z5): the answer is kept for each creature, by its own key."""

    own = budget if budget is not None else world.need(unit, Budget)

    def found() -> tuple[tuple[type[Movement], tuple[int, int]], ...]:
        out = []
        # A Movement's price reads of its kind only the tier, the kind of Free Action and
        # Sprint's extra Bonus (its name only for a refusal's words, not kept here): kinds
        # alike in those are priced once (issue #31: eight prices, four different). A list,
        # not a dict: a dict would hash each tier, an Enum hashed in Python.
        seen: list[tuple[Tier, str | None, int]] = []
        lefts: list[tuple[int, int] | None] = []
        for kind in only:
            alike = (kind.tier, kind.free_kind, kind.extra_bonus)
            if alike in seen:
                left = lefts[seen.index(alike)]
            else:
                left = _affordable(world, kind(unit, quicken=quicken), own)
                seen.append(alike)
                lefts.append(left)
            if left is not None:
                out.append((kind, left))
        return tuple(out)

    held = conditions(world, unit)

    def allowed() -> tuple[tuple[type[Movement], tuple[int, int]], ...]:
        paid = world.memo(("paid", held, only, quicken, own), found, reads=())
        return tuple(p for p in paid if condition_problem(world, unit, p[0]) is None)

    # Beside its conditions, what forbids a move reads only its Body (R-Z5: whether it flies).
    return world.memo(("usable", unit, held, only, quicken, own), allowed, reads=(Body,))


def search_of(world: World, unit: str, kind: type[Movement]) -> tuple[Field, int] | None:
    """The search `reach_map(world, unit, (kind,))` reads its cells off, and the most a move
    of `kind` may cost in it: that map's cells are those of the search a move may end in
    within it, never the start (as `pf.offer` offers them), each at its cost there. None when
    that map has no such search: its cells each have a path of their own (a Jump, a Climb, a
    swimmer's Step out), or it has none (`kind` not paid for, no water to swim in). For a
    caller that weighs every cell of one kind's search at once without making the map."""
    world = terrain_view(world, unit)  # a large creature moves its footprint (R-Z2)
    if kind is Jump or kind is Climb or not _usable(world, unit, (kind,), False, None):
        return None
    start = world.need(unit, Position).cell
    m = mover(world, unit)
    if kind in STRIDES:
        limit = _limit(world, unit, kind)
        jr = jump_reach(world, unit, m)
        return distance_field(world, m, Gait.STRIDE, start, limit, jr), limit
    found = _cells(world, unit, kind, start, m, False, None, None)
    return (found, INF - 1) if isinstance(found, Field) else None


@dataclass(frozen=True, slots=True)
class Ends:
    """Where one Movement Action can end: its cells in row order (x and y apart), and the path
    to the cheapest (the first in row order of those that cost least)."""

    xs: tuple[int, ...]
    ys: tuple[int, ...]
    nearest: Path


def ends_by_kind(
    world: World,
    unit: str,
    kinds: tuple[tuple[type[Movement], Budget | None], ...],
    *,
    submerged: bool = False,
    quicken: bool = False,
    first: bool = False,
) -> dict[type[Movement], Ends]:
    """For each (kind, budget) but Climb, the cells of `reach_map(world, unit, (kind,),
    submerged=, quicken=, budget=)`, by kind (none where that map is empty), worked out without
    the maps: Walk, Run and Sprint share one search, the largest of their limits (its costs
    are least costs within each smaller one), and only the cells are read off it. `first`: of
    a Jump, whose landings are each put to the check, only the first in row order, with its
    path as `nearest` (what the action bar needs: whether it goes anywhere, and where first)."""
    world = terrain_view(world, unit)  # a large creature moves its footprint (R-Z2)
    start = world.need(unit, Position).cell
    m = mover(world, unit)
    # The kinds paid from one budget (most often all of them) asked at once: `_usable` asks
    # each kind of its own, so they are the kinds each asked alone would give.
    by_budget: dict[Budget | None, list[type[Movement]]] = {}
    for kind, budget in kinds:
        by_budget.setdefault(budget, []).append(kind)
    paid = {
        kind
        for budget, some in by_budget.items()
        for kind, _ in _usable(world, unit, tuple(some), quicken, budget)
    }
    usable = [kind for kind, _ in kinds if kind in paid]
    limits: dict[type[Movement], int] = {
        kind: _limit(world, unit, kind) for kind in usable if kind in STRIDES
    }
    shared = None
    if limits:
        jr = jump_reach(world, unit, m)
        shared = distance_field(world, m, Gait.STRIDE, start, max(limits.values()), jr)
    out: dict[type[Movement], Ends] = {}
    for kind in usable:
        assert kind is not Climb, "a Climb's cells are its check's (sim/play/legal.py _climbs)"
        reached: Field | Found
        limit = INF - 1
        if kind in STRIDES:
            assert shared is not None
            reached, limit = shared, limits[kind]
        else:
            # A Jump skips cells an earlier action offers: here none.
            reached = _cells(world, unit, kind, start, m, submerged, None, limits, first=first)
        found = _field_ends(reached, limit) if isinstance(reached, Field) else _found_ends(reached)
        if found is not None:
            out[kind] = found
    return out


def _field_ends(field: Field, limit: int) -> Ends | None:
    """The cells a move may end in within `limit` (never the start), as `pf.offer` offers."""
    win = field.window
    ok = (field.dist <= limit) & field.ground.can_end
    ok[win.local(field.start)] = False
    ys, xs = np.nonzero(ok)
    if not len(xs):
        return None
    near = int(np.argmin(field.dist[ys, xs]))
    nearest = field.path_to(win.world_pos(int(ys[near]), int(xs[near])))
    return Ends(tuple((xs + win.x0).tolist()), tuple((ys + win.y0).tolist()), nearest)


def _found_ends(found: Found) -> Ends | None:
    """A few cells each with its path (a Jump's, a swimmer's Step out), in row order; the first
    of each cell kept, as `_offer` keeps it."""
    first: dict[Pos, tuple[int, Path]] = {}
    for cell, spent, route in found:
        first.setdefault(cell, (spent, route))
    if not first:
        return None
    cells = sorted(first, key=lambda c: (c.y, c.x))
    near = min(cells, key=lambda c: first[c][0])  # the first in row order that costs least
    return Ends(tuple(c.x for c in cells), tuple(c.y for c in cells), first[near][1])


def _radius(
    world: World,
    unit: str,
    kind: type[Movement],
    m: Mover,
    strides: int,
    limits: Mapping[type[Movement], int],
) -> int:
    """How far (cells, Chebyshev) from where it stands `kind` looks for cells: its search's
    window (`strides`: the limit of the one the strides share; `limits`: each kind's), a
    Jump's longest line."""
    if kind is Climb or (kind is Step and has(world, unit, Condition.SWIMMING) and not m.flies):
        return 1
    if kind is Jump:
        return jump_reach(world, unit, m).length(0) // 2 + 1
    return field_radius(m, strides if kind in STRIDES else limits[kind])


def _offer(
    win: Window,
    code: npt.NDArray[np.int8],
    cost: Int,
    paths: dict[Pos, Path],
    index: int,
    cell: Pos,
    spent: int,
    route: Path,
) -> bool:
    """Offer `cell` by offer `index` unless a cheaper action gets there; whether it did."""
    y, x = win.local(cell)
    if code[y, x] >= 0:
        return False
    code[y, x] = index
    cost[y, x] = spent
    paths[cell] = route
    return True


Found = list[tuple[Pos, int, Path]]
Partial = list[tuple[Pos, int, Path, Hang]]


def _climbs(world: World, unit: str, start: Pos) -> tuple[Found, Partial]:
    """The neighbouring cells a Climb gets to (R-M7), and those whose face it only starts up
    or down this action, hanging part-way: the check itself is asked for each of the eight
    cells around. A climber hanging on a face may go on up to it, or back down to the ground
    of the cell it hangs in: that cell is offered too (the one cell a reach map offers where
    its creature is)."""
    found: Found = []
    partial: Partial = []
    grid = world.grid
    # On its own feet a climber needs a face: the check refuses level ground outright, so
    # a cell level with this one is not put to it (most cells of most maps).
    hanging = has(world, unit, Condition.HANGING)
    afoot = not hanging and not has(world, unit, Condition.SWIMMING)
    level = grid.ground_half(start)
    if afoot and grid.level_around(start):
        return found, partial  # issue #31: one look at the ground around, not eight
    for cell in (*start.neighbours(), *((start,) if hanging else ())):
        if not grid.inside(cell) or (afoot and grid.ground_half(cell) == level):
            continue
        climbed = plan_climb(world, Climb(unit, to=cell))
        if isinstance(climbed, ClimbPlan):
            cost = round(climbed.metres * 2)
            if climbed.face is None:
                found.append((cell, cost, ((cell, False),)))
            else:
                hang = Hang(climbed.end, climbed.elevation, climbed.face)
                partial.append((cell, cost, ((cell, False),), hang))
    return found, partial


STRIDES = (Walk, Run, Sprint)
# The kinds whose metres an allowance gives (`_limit`): not a Jump's, not a Climb's.
LIMITED = (Step, Walk, Run, Crawl, Swim, Sprint)


def _limit(world: World, unit: str, kind: type[Movement]) -> int:
    """The metres an action offers; for Sprint what its least roll gives. The strides share
    one search as far as the most of theirs; a Sprint's check plans with the most its roll
    could give (the roll comes after) and reads this smaller search for a cell it reaches
    (`fields.field_to`): half the cells of a search as far as the most (issue #11)."""
    return allowance(world, unit, kind, roll=1) if kind is Sprint else allowance(world, unit, kind)


def _cells(
    world: World,
    unit: str,
    kind: type[Movement],
    start: Pos,
    mv: Mover,
    submerged: bool,
    offered: tuple[Window, npt.NDArray[np.int8]] | None,
    limits: Mapping[type[Movement], int] | None,
    *,
    first: bool = False,
) -> Found | Field:
    """The cells `kind` gets to: a search's field, or a few cells each with its path. A Jump
    is not asked for a cell an earlier (cheaper) action offers (`offered`; None: none);
    `first`: a Jump stops at the first landing in row order. `limits`: the metres of each
    kind, as `_limit` gives them, where the caller has them (None: worked out here)."""
    if kind is Jump:
        if offered is not None and (offered[1] >= 0).any():
            return _landings(world, unit, start, mv, offered, first)

        # Nothing offered (a map of Jumps alone, or the listing's `ends_by_kind`): the same
        # landings, kept until anything is written (issue #30: the listing's and the AI's
        # reach map of a Jump each put every cell around to the check).
        def landings() -> tuple[tuple[Pos, int, Path], ...]:
            return tuple(_landings(world, unit, start, mv, None, first))

        return list(world.memo(("landings", unit, start, mv, first), landings))
    if kind is Step and has(world, unit, Condition.SWIMMING) and not mv.flies:
        # R-M8: out of the water with a Step, one straight metre (R-Z5: a flier takes off).
        found: Found = []
        for cell in start.neighbours():
            plan = plan_move(world, Step(unit, (cell,)))
            if not isinstance(plan, Refusal):
                found.append((cell, plan.cost, ((cell, False),)))
        return found
    jr = jump_reach(world, unit, mv) if jumps_allowed(kind) else None
    limit = limits[kind] if limits is not None and kind in limits else _limit(world, unit, kind)
    if kind is Swim:
        # No water deep enough to swim within reach: the search would find nothing.
        around = window_around(world, start, field_radius(mv, limit))
        water = world.grid.stacked(TERRAIN)[
            pf.P_WATER, around.y0 : around.y1, around.x0 : around.x1
        ]
        if water.max() < (mv.height_half if submerged else mv.waist_half):
            return []
    if kind is Swim and submerged:
        # R-M8: a dive swims only where the water is at least as deep as the swimmer is tall,
        # which is what the search reads as deep enough to swim when the waist is that high.
        mv = replace(mv, waist_half=mv.height_half)
    return distance_field(world, mv, GAITS[kind], start, limit, jr)


def _landings(
    world: World,
    unit: str,
    start: Pos,
    mv: Mover,
    offered: tuple[Window, npt.NDArray[np.int8]] | None,
    first: bool,
) -> Found:
    """The cells a standing Jump lands in, but those `offered` (None: none); `first`: only
    the first in row order."""
    # Few candidates: ask the check itself for each cell around that a standing jump
    # could land in. A jump goes in a straight line (orthogonal or diagonal) no longer
    # than the standing jump (R-M6): the check refuses any other cell, so it is not asked.
    longest = jump_reach(world, unit, mv).length(0)
    radius = longest // 2 + 1
    found: Found = []
    # Only cells of the map: a long jump (a large AGI Bonus) must not mean a long loop. The
    # cells of the eight lines, in row order (issue #31: not every cell of the square around).
    grid = world.grid
    lines: list[tuple[int, int]] = []
    for dx, dy in DIRECTIONS:
        per = mv.diagonal if dx and dy else mv.orthogonal
        x, y, n = start.x + dx, start.y + dy, 1
        while n <= radius and per * n <= longest and 0 <= x < grid.width and 0 <= y < grid.height:
            lines.append((y, x))
            x, y, n = x + dx, y + dy, n + 1
    lines.sort()
    for y, x in lines:
        cell = Pos(x, y)
        if offered is not None and offered[1][offered[0].local(cell)] >= 0:
            continue
        plan = standing_jump(world, mv, start, cell)
        if not isinstance(plan, Refusal):
            found.append((cell, plan.cost, ((cell, True),)))
            if first:
                return found
    return found
