"""Who threatens which cells (R-A4), heights included: the geometry the combat rules, the AI
and the UI share (whether a move provokes is `opportunity`'s)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sim.core.catalog import Weapon
from sim.core.components import Body, Hands, Item, Position, Size, Stats, Team
from sim.core.creature import able, creatures, item_kind, side, team_of
from sim.core.geometry import Pos, footprint, gap
from sim.core.world import World
from sim.rules.reach.fields import Window


def reach_cells(world: World, unit: str, *, armed: bool = True) -> int:
    """R-A4: a melee attack reaches the 8 neighbours (1.5 m); a `reach` weapon two cells.
    `armed=False`: a hands-on reach (a grapple, R-G), which no weapon lengthens. Kept by the
    world until something held changes: threat and provocation maps ask it per cell."""
    return world.memo(
        ("reach_cells", unit, armed), lambda: _reach_cells(world, unit, armed), reads=(Hands, Item)
    )


def reach_bound(world: World) -> int:
    """The most cells any melee reach spans (R-A4): a reach weapon's, or a bare one's if the
    rules make that longer. No creature strikes a cell farther away."""
    rules = world.rules
    longest = max(
        rules.attack.melee_reach_half_metres,
        rules.attack.reach_weapon_half_metres,
    )
    return longest // rules.grid.diagonal_half_metres


def _reach_cells(world: World, unit: str, armed: bool) -> int:
    rules = world.rules
    reach = rules.attack.melee_reach_half_metres
    for item in world.need(unit, Hands).items() if armed else ():
        kind = world.catalog.get(item_kind(world, item))
        if isinstance(kind, Weapon) and kind.reach:
            reach = rules.attack.reach_weapon_half_metres
    return reach // rules.grid.diagonal_half_metres


def up_in(world: World, cell: Pos, besides: str = "") -> float:
    """Metres above `cell`'s ground of a creature hanging on a face there (R-M7), else 0: a
    creature hanging in a cell holds it, as one standing does (R-M5)."""
    for unit, elevation in hanging(world).get(cell, ()):
        if unit != besides:
            return elevation
    return 0.0


def hanging(world: World) -> dict[Pos, tuple[tuple[str, float], ...]]:
    """The creatures hanging on a face (R-M7), by cell, in scenario order, with their height
    above the cell's ground; kept by the world until a creature moves (most maps: none, and
    reach is asked for every cell a policy weighs)."""

    def found() -> dict[Pos, tuple[tuple[str, float], ...]]:
        out: dict[Pos, tuple[tuple[str, float], ...]] = {}
        for unit in creatures(world):
            pos = world.need(unit, Position)
            if pos.elevation:
                out[pos.cell] = (*out.get(pos.cell, ()), (unit, pos.elevation))
        return out

    return world.memo("hanging", found, reads=(Position, Team, Stats))


def reaches(
    world: World,
    attacker: str,
    at: Pos,
    target: Pos,
    *,
    armed: bool = True,
    up: float | None = None,
    target_side: int | None = None,
) -> bool:
    """Whether `attacker` in `at` reaches `target` (R-A4, heights included). R-Z3: a large
    attacker reaches from every cell of its footprint (`at` its top-left), and a large target
    (`target_side` cells wide; None: the creature whose top-left `target` is, when `up` is
    None too) is reached at any of its cells. **Decision** R-M7:
    heights are measured in three dimensions, a creature hanging on a face being as high as it
    has climbed: the attacker's own height above its cell's ground when `at` is where it is,
    and `up` metres above `target`'s ground (None: the creature hanging there, if any)."""
    cells = reach_cells(world, attacker, armed=armed)
    mine_side = side(world, attacker)
    theirs_side = target_side if target_side is not None else 1
    if target_side is None and up is None:
        theirs_side = large_at(world).get(target, 1)
    if mine_side > 1 or theirs_side > 1:
        return _reaches_footprint(world, attacker, at, mine_side, target, theirs_side, cells, up)
    if at == target or max(abs(at.x - target.x), abs(at.y - target.y)) > cells:
        return False
    grid = world.grid
    if not (grid.inside(at) and grid.inside(target)):
        return False
    own = world.need(attacker, Position)
    mine = own.elevation if own.cell == at else 0.0
    theirs = up_in(world, target, attacker) if up is None else up
    rise = _rise(grid.ground_half(at), mine, grid.ground_half(target), theirs)
    return rise <= world.need(attacker, Body).height


def large_at(world: World) -> dict[Pos, int]:
    """The sizes of the large creatures (R-Z1), by their Position: most maps have none."""

    def found() -> dict[Pos, int]:
        return {
            world.need(unit, Position).cell: side(world, unit)
            for unit in creatures(world)
            if side(world, unit) > 1
        }

    return world.memo("large_at", found, reads=(Position, Size, Team, Stats))


def _reaches_footprint(
    world: World,
    attacker: str,
    at: Pos,
    mine_side: int,
    target: Pos,
    theirs_side: int,
    cells: int,
    up: float | None,
) -> bool:
    """`reaches` between footprints (R-Z3): some cell of the attacker's reaches some cell of
    the target's, distances counted from the nearest cells."""
    if gap(at, mine_side, target, theirs_side) > cells:
        return False
    grid = world.grid
    own = world.need(attacker, Position)
    mine = own.elevation if own.cell == at else 0.0
    height = world.need(attacker, Body).height
    ours = footprint(at, mine_side)
    for aim in footprint(target, theirs_side):
        if not grid.inside(aim) or aim in ours:
            continue
        theirs = up_in(world, aim, attacker) if up is None else up
        for cell in ours:
            if not grid.inside(cell):
                continue
            if max(abs(cell.x - aim.x), abs(cell.y - aim.y)) > cells:
                continue
            rise = _rise(grid.ground_half(cell), mine, grid.ground_half(aim), theirs)
            if rise <= height:
                return True
    return False


def _rise(at_half: int, mine: float, target_half: int, theirs: float) -> float:
    """Metres between striker and struck (R-A4 with heights, R-M7): grounds in half-metres,
    each creature's height above its ground in metres."""
    return abs(at_half / 2 + mine - target_half / 2 - theirs)


def reaching_from(world: World, attacker: str, target: Pos) -> list[Pos]:
    """Every cell of the map from which `attacker` reaches `target` (`reaches`, with the
    creature hanging at `target` if any), in row order: where it could strike from. One pass
    over the few cells around instead of asking `reaches` of each (issue #13: the easy AI asks
    it for every foe on every decision), kept as `reached_plane` is."""
    if not world.grid.inside(target):
        return []
    key = ("reaching_from", target, *_striker(world, attacker))
    return list(world.memo(key, lambda: tuple(_reaching_from(world, attacker, target)), reads=()))


def _reaching_from(world: World, attacker: str, target: Pos) -> list[Pos]:
    """`reaching_from`, worked out."""
    grid = world.grid
    cells = reach_cells(world, attacker)
    own = world.need(attacker, Position)
    height = world.need(attacker, Body).height
    theirs = up_in(world, target, attacker)
    ground = grid.ground_half
    low = ground(target)
    out = []
    for y in range(max(0, target.y - cells), min(grid.height, target.y + cells + 1)):
        for x in range(max(0, target.x - cells), min(grid.width, target.x + cells + 1)):
            at = Pos(x, y)
            if at == target:
                continue
            mine = own.elevation if own.cell == at else 0.0
            if _rise(ground(at), mine, low, theirs) <= height:
                out.append(at)
    return out


def out_of_reach(world: World, attacker: str, target: str) -> str:
    """Why `attacker` cannot reach `target` with a melee attack, in a player's words."""
    where = world.need(target, Position)
    if where.elevation:
        return (
            f"{target} hangs {where.elevation:g} m up a face at {where.cell}, out of "
            f"{attacker}'s reach (R-A4, R-M7)"
        )
    own = world.need(attacker, Position)
    if own.elevation:
        return (
            f"{attacker} hangs {own.elevation:g} m up a face at {own.cell}; {target} at "
            f"{where.cell} is out of its reach (R-A4, R-M7)"
        )
    return f"{target} at {where.cell} is out of {attacker}'s reach (R-A4)"


def zone(world: World, attacker: str) -> frozenset[Pos]:
    """`threatened` as a set, kept by the world while the attacker stands where it stands with
    the same reach, footprint and height (all `threatened` reads but the ground): a provocation
    check asks it for every leg of every candidate path, and a policy of every foe on every
    decision, while a decision moves one creature (issue #30: another's move or blow had each
    foe's zone worked out again). Until a creature moves or what it holds changes, the answer
    is the one kept for `attacker` alone, with no key to make (a call is then as cheap as a
    lookup: the hot path of every provocation check)."""
    return world.memo(
        ("zone", attacker),
        lambda: _kept_zone(world, attacker),
        reads=(Position, Hands, Item, Body, Size),
    )


def _kept_zone(world: World, attacker: str) -> frozenset[Pos]:
    """`zone`, kept by what `threatened` reads of the attacker rather than by every write."""
    key = (
        "zone kept",
        attacker,
        world.need(attacker, Position),
        reach_cells(world, attacker),
        side(world, attacker),
        world.need(attacker, Body).height,
    )
    return world.memo(key, lambda: frozenset(threatened(world, attacker)), reads=())


def threatened(world: World, attacker: str) -> tuple[Pos, ...]:
    """Every cell the attacker reaches from where it stands, in row order: from every cell of
    a large one's footprint (R-Z3)."""
    at = world.need(attacker, Position).cell
    cells = reach_cells(world, attacker)
    wide = side(world, attacker) - 1
    out = []
    for y in range(at.y - cells, at.y + wide + cells + 1):
        for x in range(at.x - cells, at.x + wide + cells + 1):
            pos = Pos(x, y)
            if reaches(world, attacker, at, pos, up=0.0):  # a creature on the ground there
                out.append(pos)
    return tuple(out)


def enemies(world: World, unit: str) -> tuple[str, ...]:
    """Creatures of other teams that can still act (R-K2)."""

    # Those able to act are kept from the journal, and the answer for each team while they and
    # every side stay the same (issue #30: most changes of a condition down no one).
    standing = able(world)
    team = team_of(world, unit)
    sides = world.stamp((Team,))
    kept: dict[str, tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...]]]
    kept = world.kept("enemies", dict)
    found = kept.get(team)
    if found is None or found[0] is not standing or found[1] != sides:
        foes = tuple(other for other in standing if team_of(world, other) != team)
        found = kept[team] = (standing, sides, foes)
    return found[2]


def gaps(window: Window, cell: Pos) -> npt.NDArray[np.int64]:
    """Cells (Chebyshev) from `cell` to every cell of `window`, as a plane."""
    # Two ranges broadcast: np.ogrid cost more than the arithmetic (issue #30).
    xs = np.abs(np.arange(window.x0 - cell.x, window.x1 - cell.x, dtype=np.int64))
    ys = np.abs(np.arange(window.y0 - cell.y, window.y1 - cell.y, dtype=np.int64))
    out: npt.NDArray[np.int64] = np.maximum(xs[None, :], ys[:, None])
    return out


def _hung(world: World, window: Window, besides: str) -> npt.NDArray[np.float64]:
    """`up_in(world, cell, besides)` for every cell of `window`, as a plane."""
    out = np.zeros(window.shape, dtype=np.float64)
    for cell, hangers in hanging(world).items():
        if window.holds(cell):
            out[window.local(cell)] = next((up for u, up in hangers if u != besides), 0.0)
    return out


def _ground(world: World, window: Window) -> npt.NDArray[np.int32]:
    """The ground's height (half-metres) of every cell of `window`."""
    return world.grid.stacked(("height",))[0, window.y0 : window.y1, window.x0 : window.x1]


def reached_plane(
    world: World, attacker: str, at: Pos, window: Window, target_side: int = 1
) -> npt.NDArray[np.bool_]:
    """`reaches(world, attacker, at, cell, target_side=target_side)` (R-A4, heights included)
    for every cell of `window`, as a plane, with the same arithmetic (issue #11: a policy weighs
    the threat of every cell it could move to). R-Z3: a large attacker reaches from each cell of
    its footprint, and a creature `target_side` cells wide whose top-left is the cell is reached
    at any of its cells."""
    grid = world.grid
    if not grid.inside(at):
        return np.zeros(window.shape, dtype=np.bool_)
    if side(world, attacker) > 1 or target_side > 1:
        return _reached_footprints(world, attacker, at, window, target_side)
    key = ("reached_plane", at, window, *_striker(world, attacker))
    return world.memo(key, lambda: _reached_plane(world, attacker, at, window), reads=())


def _striker(world: World, attacker: str) -> tuple[object, ...]:
    """All a plane of one cell's reach reads of the world beside the ground: the attacker, its
    place, reach and height, and who hangs where (R-M7). A plane is kept by it, not until
    anything is written (issue #30: a policy weighs each foe's reach every decision, and a
    decision moves one creature)."""
    return (
        attacker,
        world.need(attacker, Position),
        reach_cells(world, attacker),
        world.need(attacker, Body).height,
        tuple(hanging(world).items()),
    )


def _reached_plane(world: World, attacker: str, at: Pos, window: Window) -> npt.NDArray[np.bool_]:
    """`reached_plane` of creatures one cell wide (shared: read-only)."""
    grid = world.grid
    gap = gaps(window, at)
    own = world.need(attacker, Position)
    mine = own.elevation if own.cell == at else 0.0
    ground = _ground(world, window)
    rise = np.abs(grid.ground_half(at) / 2 + mine - ground / 2 - _hung(world, window, attacker))
    near = (gap > 0) & (gap <= reach_cells(world, attacker))
    out: npt.NDArray[np.bool_] = near & (rise <= world.need(attacker, Body).height)
    out.flags.writeable = False
    return out


def reaching_plane(
    world: World, attacker: str, target: Pos, window: Window, target_side: int = 1
) -> npt.NDArray[np.bool_]:
    """`reaches(world, attacker, cell, target, target_side=target_side)` (R-A4, heights
    included) for every cell of `window`, as a plane, with the same arithmetic. R-Z3: from any
    cell of a large attacker's footprint whose top-left is the cell, to any cell of a target
    `target_side` cells wide."""
    grid = world.grid
    if not grid.inside(target):
        return np.zeros(window.shape, dtype=np.bool_)
    if side(world, attacker) > 1 or target_side > 1:
        return _reaching_footprints(world, attacker, target, window, target_side)
    key = ("reaching_plane", target, window, *_striker(world, attacker))
    return world.memo(key, lambda: _reaching_plane(world, attacker, target, window), reads=())


def _reaching_plane(
    world: World, attacker: str, target: Pos, window: Window
) -> npt.NDArray[np.bool_]:
    """`reaching_plane` of creatures one cell wide (shared: read-only)."""
    grid = world.grid
    gap = gaps(window, target)
    own = world.need(attacker, Position)
    mine = np.zeros(window.shape, dtype=np.float64)
    if window.holds(own.cell):
        mine[window.local(own.cell)] = own.elevation
    ground = _ground(world, window)
    theirs = up_in(world, target, attacker)
    rise = np.abs(ground / 2 + mine - grid.ground_half(target) / 2 - theirs)
    near = (gap > 0) & (gap <= reach_cells(world, attacker))
    out: npt.NDArray[np.bool_] = near & (rise <= world.need(attacker, Body).height)
    out.flags.writeable = False
    return out


# --- planes between footprints (R-Z3) ---------------------------------------------------------


def _beyond(world: World, window: Window) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int32]]:
    """Which cells of `window` are on the map, and their ground (half-metres; 0 off it): a
    footprint's plane reads past the window's right and bottom edges, and past the map's."""
    g = world.grid
    inside = np.zeros(window.shape, dtype=np.bool_)
    ground = np.zeros(window.shape, dtype=np.int32)
    x0, y0 = max(window.x0, 0), max(window.y0, 0)
    x1, y1 = min(window.x1, g.width), min(window.y1, g.height)
    if x0 < x1 and y0 < y1:
        part = (slice(y0 - window.y0, y1 - window.y0), slice(x0 - window.x0, x1 - window.x0))
        inside[part] = True
        ground[part] = world.grid.stacked(("height",))[0, y0:y1, x0:x1]
    return inside, ground


def _widened(window: Window, by: int) -> Window:
    return Window(window.x0, window.y0, window.x1 + by, window.y1 + by)


def _any_of_block(
    plane: npt.NDArray[np.bool_], wide: int, shape: tuple[int, int]
) -> npt.NDArray[np.bool_]:
    """For each cell of a `shape` window, whether any cell of the `wide` x `wide` block whose
    top-left it is holds in `plane` (the window widened by `wide` - 1)."""
    height, width = shape
    out = np.zeros(shape, dtype=np.bool_)
    for dy in range(wide):
        for dx in range(wide):
            out |= plane[dy : dy + height, dx : dx + width]
    return out


def _reached_footprints(
    world: World, attacker: str, at: Pos, window: Window, target_side: int
) -> npt.NDArray[np.bool_]:
    """`reached_plane` where a footprint is larger than a cell: the cells some cell of the
    attacker's footprint reaches (`_reaches_footprint`'s pairs), then every top-left whose
    footprint of `target_side` holds one."""
    wide = _widened(window, target_side - 1)
    inside, ground = _beyond(world, wide)
    hung = np.zeros(wide.shape, dtype=np.float64)
    for cell, hangers in hanging(world).items():
        if wide.holds(cell):
            hung[wide.local(cell)] = next((up for u, up in hangers if u != attacker), 0.0)
    own = world.need(attacker, Position)
    mine = own.elevation if own.cell == at else 0.0
    height = world.need(attacker, Body).height
    cells = reach_cells(world, attacker)
    ours = footprint(at, side(world, attacker))
    aimed = np.zeros(wide.shape, dtype=np.bool_)
    grid = world.grid
    for cell in ours:
        if not grid.inside(cell):
            continue
        gap = gaps(wide, cell)
        rise = np.abs(grid.ground_half(cell) / 2 + mine - ground / 2 - hung)
        aimed |= (gap <= cells) & (rise <= height)
    for cell in ours:
        if wide.holds(cell):
            aimed[wide.local(cell)] = False
    return _any_of_block(aimed & inside, target_side, window.shape)


def _reaching_footprints(
    world: World, attacker: str, target: Pos, window: Window, target_side: int
) -> npt.NDArray[np.bool_]:
    """`reaching_plane` where a footprint is larger than a cell: for each cell of the target's
    footprint, the top-lefts from whose footprint some cell reaches it, not counting those
    whose footprint covers it (`_reaches_footprint`'s pairs)."""
    mine_side = side(world, attacker)
    wide = _widened(window, mine_side - 1)
    inside, ground = _beyond(world, wide)
    height = world.need(attacker, Body).height
    cells = reach_cells(world, attacker)
    grid = world.grid
    ys, xs = np.ogrid[window.y0 : window.y1, window.x0 : window.x1]
    out = np.zeros(window.shape, dtype=np.bool_)
    for aim in footprint(target, target_side):
        if not grid.inside(aim):
            continue
        theirs = up_in(world, aim, attacker)
        gap = gaps(wide, aim)
        rise = np.abs(ground / 2 - grid.ground_half(aim) / 2 - theirs)
        striking = (gap > 0) & (gap <= cells) & (rise <= height) & inside
        covers = (aim.x - mine_side < xs) & (xs <= aim.x) & (aim.y - mine_side < ys) & (ys <= aim.y)
        out |= _any_of_block(striking, mine_side, window.shape) & ~covers
    own = world.need(attacker, Position)
    if own.elevation and window.holds(own.cell):
        # R-M7: where it hangs, its own height counts: asked as the one-cell answer is.
        out[window.local(own.cell)] = reaches(
            world, attacker, own.cell, target, target_side=target_side
        )
    return out
