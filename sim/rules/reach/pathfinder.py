"""The compiled search behind reach maps: the ground rules of one step and one jump, and a
Dijkstra over a window of the map that folds both in (R-U2, R-U3, R-M2..R-M6, R-M9).

These are the same rules as `footing.step_problem` and `jump.plan_jump`, written once more as
scalar code that numba compiles, because one reach map asks them thousands of times.
A process first runs them as written, interpreted (`INTERPRET_SECONDS`): importing numba and
loading the compiled code costs more CPU than a short command's few searches (a `sim run` of a
Walk), so such a command never imports numba. Once interpreting has cost that much, or a window
is too large to interpret (`INTERPRET_CELLS`), numba is imported and the functions are compiled
at their first compiled call, only the ones called; the compiled code is cached in the user's
cache directory (`cache_dir`), so only the first start after an install or an update of this
file compiles (`cold` tells whether it will, and `warm_up` compiles what the client needs on
both cores). Both forms give the same arrays (tests/rules/reach/test_interpreted.py).
tests/rules/reach/test_reach_property.py checks on random maps that the two forms of the step rules
agree, that an exhaustive search with the scalar rules finds the same cells at the same least costs,
and that every cell a reach map offers is accepted by the move check at the cost it showed.

Inputs are plain arrays so that the compiled code needs no Python objects:
`planes[p, y, x]` holds the window's layers (the P_* indices) and `params` the mover's numbers
(the M_* indices), both made by `fields.py`.
"""

from __future__ import annotations

import atexit
import functools
import os
import sys
import threading
import time
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import logging
    import subprocess

BLOCKED = 1 << 20  # larger than any reachable cost, small enough to add safely

# Planes of the window (int32 each).
P_KIND, P_HEIGHT, P_WATER, P_OBSTACLE, P_STANDING, P_ENEMY = range(6)
PLANES = 6

# The mover's numbers (float64 each), in half-metres unless said.
M_HEIGHT, M_LEAP, M_WAIST, M_ORTHOGONAL, M_DIAGONAL, M_DIFFICULT = range(6)
M_GAIT, M_JUMPS, M_LIMIT = 6, 7, 8
M_STANDING_LENGTH, M_LENGTH_CAP, M_SKILL_LENGTH, M_STANDING_HEIGHT = 9, 10, 11, 12
M_HEIGHT_PER_RUNUP, M_EXTRA_HEIGHT_CAP, M_GRAB_HEIGHT = 13, 14, 15
# R-Z5: 1 for a mover with a fly speed (its strides and steps fly), with a swim speed (water
# is not difficult for it).
M_FLY, M_SWIMMER = 16, 17
# M_STANDING_HEIGHT and M_GRAB_HEIGHT are the heights a standing jump reaches without and with a
# ledge grab, each rounded once from its exact parts (R-U4, `JumpReach.height`): a run-up adds
# whole metres to either, so the compiled search needs no rounding of its own.
PARAMS = 18

# numba compiles module globals into the code as constants, and its cache on disk knows only
# this file's text: so the constants below are written out here, not imported, and
# tests/rules/reach/test_reach_property.py checks them against footing.DIRECTIONS and grid.Kind.

# Gait codes (reach.GAIT_CODES gives them to footing.Gait) and the terrain kinds the rules test.
STRIDE, STEP, CRAWL, SWIM = range(4)
DIFFICULT, WALL, PIT = 1, 2, 3  # grid.Kind

# (dx, dy) of the 8 neighbours, direction d as in footing.DIRECTIONS.
DX = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)
DY = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)

Int32 = npt.NDArray[np.int32]
Flags = npt.NDArray[np.uint8]
Float = npt.NDArray[np.float64]

F = TypeVar("F", bound=Callable[..., Any])
# Each compiled function's numba options, by name; the module's own namespace is where numba
# looks up the functions a compiled one calls, so binding replaces the names there.
_INLINE: dict[str, bool] = {}
# Each compiled function as written, and its numba dispatcher once bound: the module's own
# name may have been replaced meanwhile (bench/reach.py times `search` by wrapping it).
_PURE: dict[str, Callable[..., Any]] = {}
_COMPILED: dict[str, Any] = {}
_BINDING = threading.Lock()
_MAKING = threading.Lock()
# The same functions interpreted, each calling the others as written (`interpreted`), and the
# CPU seconds this process has spent in them.
_INTERPRETED: dict[str, Callable[..., Any]] = {}
_SPENT = [0.0]
# Whether calls go to the compiled functions now (set once they are bound in the calling thread,
# or once a warm-up finished); whether a warm-up is under way in another thread
# (`warm_up_behind`): meanwhile calls run interpreted, not waiting for it, but for a large window,
# which waits for it to end (`_WARMED`); and whether compiling failed (numba missing or broken):
# then every call runs interpreted, slowly but the same.
_USE_COMPILED = threading.Event()
_WARMING = threading.Event()
_WARMED = threading.Event()
_FAILED = threading.Event()
_SAID: list[bool] = []  # the compile notice, once said
_HELPERS: list[subprocess.Popen[bytes]] = []  # a cold warm-up's compiling process, while it runs
# Interpreted, a reach map costs about 100 times its compiled time (0.1 s against 1 ms on a
# 40x40 window); importing numba and loading the compiled code from its cache costs about 0.3 s
# of CPU. So a process interprets until it has spent this much on it, then compiles: a short
# command stays interpreted, a battle or a session compiles within its first turns, having lost
# at most this much and one search.
INTERPRET_SECONDS = 0.15
# A window with more cells than this (40x40) is searched compiled at once: interpreted, one
# search of a large map's window would take seconds.
INTERPRET_CELLS = 40 * 40


def _log() -> logging.Logger:
    """This module's logger. `logging` and `subprocess` are imported only when a compile is
    said or started: every command imports this module, and the two cost a short `sim run`
    0.01 s of its start."""
    import logging

    return logging.getLogger(__name__)


def cache_dir() -> Path:
    """Where numba keeps the compiled search: `$NUMBA_CACHE_DIR` if set (numba's own
    setting), else `$XDG_CACHE_HOME/sim/numba`, else `~/.cache/sim/numba`."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return Path(configured)
    cache = os.environ.get("XDG_CACHE_HOME")
    return (Path(cache) if cache else Path.home() / ".cache") / "sim" / "numba"


def compiled(inline: bool = False) -> Callable[[F], F]:
    """numba's `njit(cache=True)`, put off until one of this module's compiled functions is
    first called: importing the simulator does not import numba. `inline`: compiled into each
    compiled caller (only the small steps of the search's inner loop: it costs compile time)."""

    def mark(func: F) -> F:
        _INLINE[func.__name__] = inline
        _PURE[func.__name__] = func

        name = func.__name__

        @functools.wraps(func)
        def either(*args: Any) -> Any:
            if _USE_COMPILED.is_set():
                return _COMPILED[name](*args)
            small = _small(args)
            if not small and _WARMING.is_set():
                _WARMED.wait()  # interpreted, it could take longer than the warm-up's end
                if _USE_COMPILED.is_set():
                    return _COMPILED[name](*args)
            interpret = small and (_WARMING.is_set() or _SPENT[0] < INTERPRET_SECONDS)
            if interpret or _FAILED.is_set():
                # This thread's CPU: a warm-up behind, in another, is not interpreting.
                start = time.thread_time()
                try:
                    return interpreted()[name](*args)
                finally:
                    _SPENT[0] += time.thread_time() - start
            space = _bound()
            _USE_COMPILED.set()
            return space[name](*args)

        return cast(F, either)

    return mark


def _small(args: tuple[Any, ...]) -> bool:
    """Whether the call's window (every array of two or more dimensions among its arguments:
    the others are made from it) has at most INTERPRET_CELLS cells."""
    return all(
        not isinstance(a, np.ndarray) or a.ndim < 2 or a.shape[-1] * a.shape[-2] <= INTERPRET_CELLS
        for a in args
    )


def _family(make: Callable[[Callable[..., Any]], Any]) -> dict[str, Any]:
    """Every function as written, remade by `make` in a namespace of its own (this module's
    constants) in which each finds the others as remade: the module's own names stay the
    stand-ins that choose between the families, so a family can be made in one thread while
    another calls the other family."""
    space = dict(globals())
    family = {
        name: make(types.FunctionType(func.__code__, space, name, func.__defaults__))
        for name, func in _PURE.items()
    }
    space.update(family)
    return family


def interpreted() -> dict[str, Callable[..., Any]]:
    """Every compiled function as written, run by Python, calling the others as written."""
    with _MAKING:
        if not _INTERPRETED:
            _INTERPRETED.update(_family(lambda func: func))
    return _INTERPRETED


def _bound() -> dict[str, Any]:
    """Every compiled function's numba dispatcher by name (each compiles, or loads from the
    cache, at its own first call), calling the others' dispatchers."""
    with _BINDING:
        if not _COMPILED:
            # Before numba reads it; child processes (batch workers) inherit the same place.
            os.environ["NUMBA_CACHE_DIR"] = str(cache_dir())
            from numba import njit
            from numba.core import config

            # numba imported earlier (by another library) reads the setting now.
            config.reload_config()  # type: ignore[no-untyped-call]
            _skip_blas_probe()

            def jit(func: Callable[..., Any]) -> Any:
                if _INLINE[func.__name__]:
                    return njit(func, cache=True, inline="always")
                return njit(func, cache=True, inline="never")

            _COMPILED.update(_family(jit))
            from numba.core import event

            event.register("numba:compile", _notice())  # type: ignore[no-untyped-call]
    return _COMPILED


def _skip_blas_probe() -> None:
    """Load numba's array implementations without their probe for a BLAS: as numba loads
    them (at the first compile or cache load) it imports scipy.linalg, where scipy is
    installed, to see whether `np.dot` may call a BLAS; that import alone took 0.15 s of
    each start's 1.2 s (issue #30), and the search calls no BLAS. Without the probe a float
    `np.dot` compiled later in the process uses numba's own loop; numba's linear algebra
    (`np.linalg`) still finds scipy when it is compiled, since the block is lifted at once."""
    probed = "scipy.linalg.cython_blas"
    if probed in sys.modules or "numba.np.arraymath" in sys.modules:
        return  # scipy already paid for, or numba's registries already loaded
    # An import of it fails at once, in any thread meanwhile (a warm-up behind the window
    # binds here): the simulator imports no scipy, so only the probe is refused.
    sys.modules[probed] = None  # type: ignore[assignment]
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules[probed]


def _say_compiling() -> None:
    """Says once a process what the wait is, as the compile begins (or, from `warm_up`, as it
    is known to be coming). Logged, so that a command, which has no handler of its own, prints
    it at once to standard error."""
    with _MAKING:
        if _SAID:
            return
        _SAID.append(True)
    _log().warning(
        "sim: compiling the reach engine for this machine, once after installing or "
        "updating (a few seconds); it is kept in %s",
        cache_dir(),
    )


def _notice() -> Any:
    """A numba event listener that says once, as this module's first function really compiles,
    what the wait is (made when numba is first imported: its base class is numba's)."""
    from numba.core import event

    class Notice(event.Listener):
        """Says once, as this module's first function really compiles (numba's cache had
        none for this source), what the wait is. Logged, so that a command, which has no
        handler of its own, prints it at once to standard error."""

        def on_start(self, happening: Any) -> None:
            dispatcher = happening.data["dispatcher"]
            if getattr(dispatcher, "py_func", None) is None:
                return
            if dispatcher.py_func.__module__ != __name__:
                return  # another library's code
            _say_compiling()

        def on_end(self, happening: Any) -> None:
            pass

    return Notice()


# What each window cell is to this mover, worked out once per search (`cell_flags`).
F_ENTER = 1  # this gait may step in: no wall or pit, water right for it, no standing enemy
F_SOLID = 2  # a wall or a pit: no diagonal step past its corner (R-U3)
F_WALL = 4  # a wall: no jump over it or past its corner
F_DIFFICULT = 8  # difficult ground, or water from waist-deep to the mover's height (R-M2, R-M9)
F_LAND = 16  # a jump may land: no wall or pit, not over its head, nobody standing (R-M5, R-M6)
F_ENEMY = 32  # a standing enemy: no jumping over it (R-M5)
F_PIT = 64  # a pit: nothing to clear when jumped over
# A move may end here (F_ENTER, and nobody standing but for a crawler, who is prone and may
# share, R-M5): the top bit, so that `flags >= F_END` reads it in one comparison.
F_END = 128


@compiled()
def cell_flags(planes: Int32, params: Float) -> Flags:
    """The F_* flags of every window cell for the mover and gait in `params`."""
    hh, ww = planes.shape[1], planes.shape[2]
    gait = int(params[M_GAIT])
    height, waist = params[M_HEIGHT], params[M_WAIST]
    # R-Z5: a flier's steps and strides fly: only walls block them and their corners.
    flying = params[M_FLY] > 0 and gait in (STRIDE, STEP)
    swimmer = params[M_SWIMMER] > 0
    out = np.zeros((hh, ww), dtype=np.uint8)
    for y in range(hh):
        for x in range(ww):
            kind = planes[P_KIND, y, x]
            water = planes[P_WATER, y, x]
            flags = 0
            solid = kind == WALL if flying else kind in (WALL, PIT)
            if solid:
                flags |= F_SOLID
            if kind == WALL:
                flags |= F_WALL
            if kind == PIT:
                flags |= F_PIT
            if flying:
                pass  # R-Z5: nothing on the ground is difficult for a flier
            elif kind == DIFFICULT or (not swimmer and waist <= water and water <= height):
                flags |= F_DIFFICULT
            if planes[P_ENEMY, y, x]:
                flags |= F_ENEMY
            if flying:
                water_ok = True
            elif gait == SWIM:
                water_ok = water >= waist
            elif gait == CRAWL:
                water_ok = water < waist
            else:
                water_ok = water <= height
            if not solid and water_ok and not planes[P_ENEMY, y, x]:
                flags |= F_ENTER
                if gait == CRAWL or not planes[P_STANDING, y, x]:
                    flags |= F_END
            if not solid and water <= height and not planes[P_STANDING, y, x]:
                flags |= F_LAND
            out[y, x] = flags
    return out


@compiled(inline=True)
def step_cost(planes: Int32, flags: Flags, params: Float, ay: int, ax: int, d: int) -> int:
    """Half-metres to step from window cell (ay, ax) to its neighbour in direction d, or
    BLOCKED (the compiled `footing.step_problem` and `footing.step_cost`)."""
    hh, ww = flags.shape
    dx, dy = DX[d], DY[d]
    by, bx = ay + dy, ax + dx
    if by < 0 or by >= hh or bx < 0 or bx >= ww or not flags[by, bx] & F_ENTER:
        return BLOCKED
    if dx != 0 and dy != 0:
        # R-U3: a diagonal may not cut the corner of a wall or a pit (a wall's, for a flier).
        if (flags[ay, bx] | flags[by, ax]) & F_SOLID:
            return BLOCKED
        base = int(params[M_DIAGONAL])
    else:
        base = int(params[M_ORTHOGONAL])
    gait = int(params[M_GAIT])
    if gait == SWIM:
        return base  # swimming ignores the ground below (R-M8)
    if params[M_FLY] > 0 and gait in (STRIDE, STEP):
        return base  # R-Z5: and flying all of it
    rise = planes[P_HEIGHT, by, bx] - planes[P_HEIGHT, ay, ax]
    climb = max(rise, 0) + planes[P_OBSTACLE, by, bx]
    if gait == STRIDE:
        if climb > params[M_LEAP]:
            return BLOCKED
        if planes[P_OBSTACLE, ay, ax] > 0 and planes[P_OBSTACLE, by, bx] > 0:
            return BLOCKED  # R-M3: two obstacle cells in a row are more than 1 m across
    elif climb > 0:
        return BLOCKED
    if -rise > params[M_HEIGHT]:
        return BLOCKED
    if (flags[ay, ax] | flags[by, bx]) & F_DIFFICULT:
        return base * int(params[M_DIFFICULT])
    return base


@compiled()
def _jump_length(params: Float, runup: int) -> int:
    """JumpReach.length: the longest jump with `runup` half-metres of run-up."""
    standing = int(params[M_STANDING_LENGTH])
    cap = max(int(params[M_LENGTH_CAP]), standing)
    return min(standing + runup, cap) + int(params[M_SKILL_LENGTH])


@compiled()
def _runup_for_length(params: Float, needed: int) -> int:
    """JumpReach.runup_for_length, BLOCKED for None."""
    if needed <= _jump_length(params, 0):
        return 0
    if needed > _jump_length(params, 1 << 30):
        return BLOCKED
    return needed - int(params[M_SKILL_LENGTH]) - int(params[M_STANDING_LENGTH])


@compiled()
def _runup_for_height(params: Float, needed: int, grab: bool) -> int:
    """JumpReach.runup_for_height, BLOCKED for None: whole metres of run-up height on top of
    what a standing jump reaches, grabbing a ledge or not."""
    standing = int(params[M_GRAB_HEIGHT]) if grab else int(params[M_STANDING_HEIGHT])
    extra = max(needed - standing, 0)
    steps = -(-extra // 2)
    if steps * 2 > int(params[M_EXTRA_HEIGHT_CAP]):
        return BLOCKED
    return steps * int(params[M_HEIGHT_PER_RUNUP])


@compiled()
def jump_line(
    planes: Int32,
    flags: Flags,
    params: Float,
    ay: int,
    ax: int,
    d: int,
    runup_made: int,
    max_cost: int,
    costs: Int32,
    runups: Int32,
) -> int:
    """The jumps from (ay, ax) in direction d that beat walking the same line (R-M6, R-U3),
    for a jumper that has made `runup_made` of run-up and may spend `max_cost` more: for k
    cells, `costs[k]` (BLOCKED if none) and the run-up it needs `runups[k]`. Returns the
    largest k filled (the compiled `jump.plan_jump`, searched along one line)."""
    hh, ww = flags.shape
    dx, dy = DX[d], DY[d]
    diagonal = dx != 0 and dy != 0
    per = int(params[M_DIAGONAL]) if diagonal else int(params[M_ORTHOGONAL])
    max_cells = min(_jump_length(params, runup_made) // per, max_cost // per, len(costs) - 1)
    base = planes[P_HEIGHT, ay, ax]
    height = params[M_HEIGHT]
    clearance = 0  # the most the jump must rise above its take-off to pass over (R-M6)
    blocked_between = False
    walk = 0
    last = 0
    for k in range(1, max_cells + 1):
        by, bx = ay + dy * k, ax + dx * k
        if by < 0 or by >= hh or bx < 0 or bx >= ww:
            break
        costs[k] = BLOCKED
        last = k
        length = per * k
        walk_k = walk + step_cost(planes, flags, params, by - dy, bx - dx, d)
        walk = min(walk_k, BLOCKED)
        if k > 1:
            cy, cx = by - dy, bx - dx  # the cell before the landing is now passed over
            if flags[cy, cx] & (F_WALL | F_ENEMY):
                blocked_between = True
            if not flags[cy, cx] & F_PIT:
                rise_c = planes[P_HEIGHT, cy, cx] - base + planes[P_OBSTACLE, cy, cx]
                clearance = max(clearance, rise_c)
        if diagonal and (flags[by - dy, bx] | flags[by, bx - dx]) & F_WALL:
            blocked_between = True  # R-U3: no cutting a wall's corner in the air either
        if blocked_between:
            break  # every longer jump on this line passes the same obstacle
        if length >= walk_k:
            continue  # walking the line costs no more than the shortest such jump could
        if not flags[by, bx] & F_LAND:
            continue
        rise = planes[P_HEIGHT, by, bx] - base
        if -rise > height:
            continue
        cost = length  # R-M6 Decision: paid one for one, difficult ground at either end or not
        if cost >= walk_k or cost > max_cost:
            continue  # walking the line is as cheap, or the jump is out of budget
        landing = max(rise, 0) + planes[P_OBSTACLE, by, bx]
        need_clear = _runup_for_height(params, clearance, False)
        need_land = _runup_for_height(params, landing, False)
        if rise > 0:
            need_land = min(need_land, _runup_for_height(params, landing, True))
        runup = max(need_clear, need_land, _runup_for_length(params, length))
        if runup <= runup_made:
            costs[k] = cost
            runups[k] = runup
    return last


@compiled()
def runup_levels(params: Float, hh: int, ww: int) -> int:
    """How many amounts of run-up (metres covered) a search tells apart: 0, 1, ... up to the
    most run-up any jump can need (R-M6), beyond which more metres covered make no difference.
    A jump in an hh x ww window is at most its longest line long, so neither a long jump cap (a
    large AGI Bonus) nor a large budget makes the search bigger than the window needs."""
    if params[M_JUMPS] == 0 or int(params[M_GAIT]) != STRIDE:
        return 1
    standing = int(params[M_STANDING_LENGTH])
    longest = max(hh, ww) * max(int(params[M_ORTHOGONAL]), int(params[M_DIAGONAL]))
    for_length = min(max(int(params[M_LENGTH_CAP]), standing) - standing, longest)
    for_height = (int(params[M_EXTRA_HEIGHT_CAP]) // 2) * int(params[M_HEIGHT_PER_RUNUP])
    return min(max(for_length, for_height), int(params[M_LIMIT])) + 1


@compiled()
def _covered(params: Float, d: int, cells: int) -> int:
    """Half-metres of ground a move of `cells` cells in direction d covers: its length, not
    what it costs (R-M6: crossing difficult ground adds no run-up)."""
    per = int(params[M_DIAGONAL]) if DX[d] != 0 and DY[d] != 0 else int(params[M_ORTHOGONAL])
    return per * cells


@compiled(inline=True)
def _push(cell: Int32, after: Int32, head: Int32, entries: int, state: int, bucket: int) -> int:
    cell[entries], after[entries], head[bucket] = state, head[bucket], entries
    return entries + 1


@compiled(inline=True)
def _bucket(bucket: int, ahead: int, span: int) -> int:
    """The bucket `ahead` costs after `bucket`, round the ring of `span` (0 < ahead < span)."""
    later = bucket + ahead
    return later - span if later >= span else later


@compiled()
def search(planes: Int32, flags: Flags, params: Float, sy: int, sx: int) -> tuple[Int32, Int32]:
    """The least cost from (sy, sx) to every window cell within the limit (BLOCKED elsewhere),
    and the cost of every search state.

    A jump needs run-up, the metres covered so far in the action (R-M6): not the metres spent,
    since difficult ground costs double but covers no more. A path may come back over its
    cells to build run-up up. So the search runs over states (cell, metres covered so far,
    counted up to `runup_levels` - 1 and no further), each reached at the least metres spent:
    a cell reached having covered 1 m and again having covered 3 m are different states when a
    jump needs 3 m. Costs are small whole numbers, so states wait in one bucket per cost
    (Dial's form of Dijkstra, the buckets reused round-robin) and are settled cheapest first.
    Returns `(least, states)`: `least[y, x]`, and `states[cell * levels + covered]`."""
    hh, ww = flags.shape
    n = hh * ww
    levels = runup_levels(params, hh, ww)
    # Room for two queue entries a state is plenty in practice; a search that needs more
    # starts again with twice the room. Memory follows the window, never the budget.
    capacity = 2 * n * levels + 1
    while True:
        dist, finished = _settle(planes, flags, params, sy, sx, levels, capacity)
        if finished:
            break
        capacity *= 2
    least = np.full(n, BLOCKED, dtype=np.int32)
    for i in range(n):
        for level in range(levels):
            least[i] = min(least[i], dist[i * levels + level])
    return least.reshape(hh, ww), dist


@compiled()
def _plain_runs(planes: Int32, flags: Flags) -> Int32:
    """`runs[d, y, x]`: how many steps in a row from (y, x) in direction d cost exactly a
    step's length, each into open, level ground: enterable, not difficult, no obstacle, as
    high as the cell before, past no solid corner. A jump along such a run never costs less
    than walking it (R-M6 prices a jump by its length), so `_settle` does not look for one
    there. The cell the run starts from must itself be plain for that (`_settle` checks)."""
    hh, ww = flags.shape
    runs = np.zeros((8, hh, ww), dtype=np.int32)
    for d in range(8):
        dy, dx = DY[d], DX[d]
        # Each cell's run reads its neighbour's in direction d, so that one comes first.
        for i in range(hh):
            y = hh - 1 - i if dy > 0 else i
            for j in range(ww):
                x = ww - 1 - j if dx > 0 else j
                by, bx = y + dy, x + dx
                if by < 0 or by >= hh or bx < 0 or bx >= ww:
                    continue
                f = flags[by, bx]
                if not f & F_ENTER or f & F_DIFFICULT or planes[P_OBSTACLE, by, bx] != 0:
                    continue
                if planes[P_HEIGHT, by, bx] != planes[P_HEIGHT, y, x]:
                    continue
                if dx != 0 and dy != 0 and (flags[y, bx] | flags[by, x]) & F_SOLID:
                    continue
                runs[d, y, x] = 1 + runs[d, by, bx]
    return runs


@compiled()
def _settle(
    planes: Int32, flags: Flags, params: Float, sy: int, sx: int, levels: int, capacity: int
) -> tuple[Int32, bool]:
    """`search`'s states and their least costs, with room for `capacity` queue entries;
    False if that was not enough."""
    hh, ww = flags.shape
    n = hh * ww
    limit = int(params[M_LIMIT])
    jumps = params[M_JUMPS] != 0 and int(params[M_GAIT]) == STRIDE
    top = levels - 1
    dist = np.full(n * levels, BLOCKED, dtype=np.int32)
    done = np.zeros(n * levels, dtype=np.bool_)
    # Every leg costs less than `span` (a step, doubled on difficult ground, or a jump along the
    # window's longest line), so the states waiting at any time fit in `span` buckets.
    longest = max(hh, ww) * max(int(params[M_ORTHOGONAL]), int(params[M_DIAGONAL]))
    span = longest * max(int(params[M_DIFFICULT]), 1) + 1
    head = np.full(span, -1, dtype=np.int32)  # bucket c % span: a linked list of states
    cell = np.empty(capacity, dtype=np.int32)
    after = np.empty(capacity, dtype=np.int32)
    costs = np.empty(max(hh, ww) + 2, dtype=np.int32)
    runups = np.empty(max(hh, ww) + 2, dtype=np.int32)
    runs = _plain_runs(planes, flags) if jumps else np.zeros((8, 1, 1), dtype=np.int32)
    orthogonal, diagonal = int(params[M_ORTHOGONAL]), int(params[M_DIAGONAL])
    # Per cell: the most run-up of a state settled at a lower cost (`ahead`), and of those
    # settled at the cost `ahead_at` last seen there (`level_at`); see `done` below.
    ahead = np.full(n, -1, dtype=np.int32)
    level_at = np.full(n, -1, dtype=np.int32)
    ahead_at = np.full(n, -1, dtype=np.int32)
    start = (sy * ww + sx) * levels
    dist[start] = 0
    entries = _push(cell, after, head, 0, start, 0)
    waiting = 1  # entries queued and not yet taken: the search ends when none are left
    spent = 0
    bucket = 0  # spent % span, kept without a division
    while waiting > 0 and spent <= limit:
        e = head[bucket]
        head[bucket] = -1  # every state queued from here costs more, so lands elsewhere
        while e != -1:
            state = cell[e]
            e = after[e]
            waiting -= 1
            if done[state] or dist[state] != spent:
                continue
            done[state] = True
            here = state // levels
            covered = state % levels
            # A state with no more run-up than one settled at a lower cost in the same cell
            # leads nowhere that one does not lead at a lower cost, so its moves are not
            # taken (issue #11: this halves a search with jumps). Its own cost is kept. No
            # cell's least cost changes, and a state only such a one leads to is never at its
            # cell's least cost, which is where `trace` goes back through: paths come out the
            # same (compared on 1.1 million paths of the shipped and bench maps).
            if ahead_at[here] < spent:
                ahead[here] = max(ahead[here], level_at[here])
                level_at[here] = -1
                ahead_at[here] = spent
            if ahead[here] >= covered:
                continue
            level_at[here] = max(level_at[here], covered)
            ay, ax = here // ww, here % ww
            if entries + 8 * (max(hh, ww) + 1) >= capacity:
                return dist, False  # no room for this state's moves and jumps
            for d in range(8):
                total = spent + step_cost(planes, flags, params, ay, ax, d)
                if total <= limit:
                    level = min(covered + _covered(params, d, 1), top)
                    b = ((ay + DY[d]) * ww + ax + DX[d]) * levels + level
                    if total < dist[b]:
                        dist[b] = total
                        entries = _push(
                            cell, after, head, entries, b, _bucket(bucket, total - spent, span)
                        )
                        waiting += 1
            if not jumps:
                continue
            plain = not flags[ay, ax] & F_DIFFICULT and planes[P_OBSTACLE, ay, ax] == 0
            longest_jump = _jump_length(params, covered)
            for d in range(8):
                if plain:
                    per = diagonal if DX[d] != 0 and DY[d] != 0 else orthogonal
                    # No jump from here in d beats walking (see `_plain_runs`): `jump_line`
                    # would give none, so it is not asked (issue #11: most lines of most maps).
                    if runs[d, ay, ax] >= min(longest_jump, limit - spent) // per:
                        continue
                last = jump_line(
                    planes, flags, params, ay, ax, d, covered, limit - spent, costs, runups
                )
                for k in range(1, last + 1):
                    if costs[k] >= BLOCKED:
                        continue
                    total = spent + costs[k]
                    level = min(covered + _covered(params, d, k), top)
                    b = ((ay + DY[d] * k) * ww + ax + DX[d] * k) * levels + level
                    if total < dist[b]:
                        dist[b] = total
                        entries = _push(
                            cell, after, head, entries, b, _bucket(bucket, total - spent, span)
                        )
                        waiting += 1
        spent += 1
        bucket = bucket + 1 if bucket + 1 < span else 0
    return dist, True


@compiled()
def _back(
    planes: Int32,
    flags: Flags,
    params: Float,
    least: Int32,
    states: Int32,
    y: int,
    x: int,
    level: int,
    here: int,
    strict: bool,
    costs: Int32,
    runups: Int32,
) -> tuple[int, int, int, int, int]:
    """A state the search reached (y, x) having covered `level` from, at cost `here`: (y, x,
    its level, its cost, 1 if by a jump), or y = -1. A step before a jump, directions in
    DIRECTIONS order; with `strict`, only a cell at its own least cost (not one passed on a
    detour that builds run-up)."""
    hh, ww = flags.shape
    levels = runup_levels(params, hh, ww)
    top = levels - 1
    for d in range(8):
        py, px = y - DY[d], x - DX[d]
        if py < 0 or py >= hh or px < 0 or px >= ww:
            continue
        before = here - step_cost(planes, flags, params, py, px, d)
        if before < 0 or (strict and least[py, px] != before):
            continue
        for pl in range(levels):
            if min(pl + _covered(params, d, 1), top) != level:
                continue
            if states[(py * ww + px) * levels + pl] == before:
                return py, px, pl, before, 0
    if params[M_JUMPS] == 0 or int(params[M_GAIT]) != STRIDE:
        return -1, -1, -1, -1, 0
    limit = int(params[M_LIMIT])
    for d in range(8):
        per = int(params[M_DIAGONAL]) if DX[d] and DY[d] else int(params[M_ORTHOGONAL])
        for k in range(1, min(_jump_length(params, 1 << 30) // per, max(hh, ww)) + 1):
            py, px = y - DY[d] * k, x - DX[d] * k
            if py < 0 or py >= hh or px < 0 or px >= ww:
                break
            last = jump_line(planes, flags, params, py, px, d, limit, here, costs, runups)
            if k > last or costs[k] >= BLOCKED:
                continue
            before = here - costs[k]
            if before < 0 or (strict and least[py, px] != before):
                continue
            for pl in range(levels):
                if pl < runups[k] or min(pl + _covered(params, d, k), top) != level:
                    continue  # not enough run-up made by then (R-M6), or another state
                if states[(py * ww + px) * levels + pl] == before:
                    return py, px, pl, before, 1
    return -1, -1, -1, -1, 0


@compiled()
def _back_step(
    planes: Int32,
    flags: Flags,
    params: Float,
    least: Int32,
    states: Int32,
    y: int,
    x: int,
    level: int,
    here: int,
    costs: Int32,
    runups: Int32,
) -> tuple[int, int, int, int, int]:
    """`_back` strictly (a cell at its own least cost) and, failing that, on any state: the
    one step back every walk from a target to the start takes; y = -1 when neither finds one."""
    for strict in range(1, -1, -1):  # a variable, not a literal: `_back` compiles once
        found = _back(
            planes, flags, params, least, states, y, x, level, here, strict == 1, costs, runups
        )
        if found[0] >= 0:
            break
    return found


@compiled()
def trace(
    planes: Int32,
    flags: Flags,
    params: Float,
    least: Int32,
    states: Int32,
    ty: int,
    tx: int,
) -> npt.NDArray[np.int64]:
    """The cheapest path back from (ty, tx) to the start, as rows (y, x, jumped, cost of the
    leg into (y, x)) from the target backwards. Each cell goes back to a cell reached at its
    own least cost where it can (see `_back`), so a path is always the same for the same field
    and takes no detour it does not need for run-up."""
    hh, ww = flags.shape
    # A path back never meets a search state twice, and every leg costs 1 or more.
    levels = runup_levels(params, hh, ww)
    rows = min(int(params[M_LIMIT]), hh * ww * levels) + 1
    out = np.empty((rows, 4), dtype=np.int64)
    costs = np.empty(max(hh, ww) + 2, dtype=np.int32)
    runups = np.empty(max(hh, ww) + 2, dtype=np.int32)
    y, x = ty, tx
    here = least[y, x] + 0  # widened to int64 by the literal: `_back` compiles for one type
    level = 0
    while states[(y * ww + x) * levels + level] != here:
        level += 1  # the least-covered state the least cost reached the target in
    count = 0
    while here != 0:
        py, px, pl, before, jumped = _back_step(
            planes, flags, params, least, states, y, x, level, here, costs, runups
        )
        if py < 0:
            return out[:0]  # unreachable: the field is not one `search` made
        out[count, 0], out[count, 1], out[count, 2] = y, x, jumped
        out[count, 3] = here - before
        y, x, level, here = py, px, pl, before
        count += 1
    return out[:count]


@compiled()
def step_costs(planes: Int32, flags: Flags, params: Float) -> Int32:
    """`out[d, y, x]`: the cost to step into window cell (y, x) from its neighbour in direction
    -d, BLOCKED where not allowed: the whole window's step rules as one array (for tests and
    for the benchmark's like-for-like graph)."""
    hh, ww = flags.shape
    out = np.full((8, hh, ww), BLOCKED, dtype=np.int32)
    for d in range(8):
        for y in range(hh):
            for x in range(ww):
                ay, ax = y - DY[d], x - DX[d]
                if 0 <= ay < hh and 0 <= ax < ww:
                    out[d, y, x] = step_cost(planes, flags, params, ay, ax, d)
    return out


@compiled()
def offer(
    code: npt.NDArray[np.int8],
    cost: Int32,
    dist: Int32,
    can_end: npt.NDArray[np.bool_],
    oy: int,
    ox: int,
    limit: int,
    index: int,
    sy: int,
    sx: int,
) -> None:
    """Give offer `index` every cell of a search's window (at (oy, ox) in the reach map's
    arrays) that a move may end in within `limit`, unless an earlier offer has it; never the
    start (sy, sx), in the search's window."""
    hh, ww = dist.shape
    for y in range(hh):
        for x in range(ww):
            d = dist[y, x]
            if d > limit or not can_end[y, x] or (y == sy and x == sx):
                continue
            if code[y + oy, x + ox] < 0:
                code[y + oy, x + ox] = index
                cost[y + oy, x + ox] = d


# What the client compiles before its window opens, in two halves of about the same work
# (5 s of CPU each here): the search, and the paths back through it with the cells' flags.
SEARCHES = ("search", "offer")
PATHS = ("cell_flags", "trace", "paths_provoked")


def cold(names: Sequence[str] = SEARCHES + PATHS) -> bool:
    """Whether numba's cache lacks the compiled code of any of `names` for this source and
    this numba (it would compile them at their first call, for seconds). It reads numba's
    cache index the way numba does (tests/rules/reach/test_first_start.py keeps it true);
    where the cache has no index of one at all (a first start), it says so at once, before
    numba is imported."""
    indexed = {path.name.split("-")[0] for path in cache_dir().rglob("*.nbi")}
    if any(f"{__name__.rsplit('.', 1)[-1]}.{name}" not in indexed for name in names):
        return True
    return _cold(_bound(), names)


def _cold(space: dict[str, Any], names: Sequence[str]) -> bool:
    try:
        return any(not space[name]._cache._cache_file._load_index() for name in names)
    except (AttributeError, OSError, ValueError, EOFError):
        return False  # a numba whose cache reads otherwise: no notice rather than a wrong one


def warm_up() -> None:
    """Compile the search and its paths (or load them from numba's cache) now, on a small
    open window, so that the first reach map a player asks for does not pause. When they
    must be compiled, a second process compiles the paths while this one compiles the
    searches (the machine's other core: numba compiles in one thread), and this one then
    loads the paths from the cache."""
    helper = None
    if cold():
        _say_compiling()  # before numba's import, which the compile waits for
        root = str(Path(__file__).resolve().parents[3])  # where `sim` is imported from
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
        # Frozen as it ends: the collector's walk over numba's objects at exit (0.2 s) would
        # be waited for, the helper being the longer half.
        command = (
            "from sim.rules.reach import pathfinder; pathfinder._warm(pathfinder.PATHS); "
            "import gc; gc.freeze()"
        )
        import subprocess

        helper = subprocess.Popen(
            [sys.executable, "-c", command],
            env=dict(os.environ, PYTHONPATH=path),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _HELPERS.append(helper)
    try:
        _warm(SEARCHES)
        if helper is not None:
            helper.wait()  # if it failed, `_warm` below compiles the paths here
    finally:
        if helper is not None:
            _stop(helper)
    _warm(PATHS)
    _USE_COMPILED.set()


def _stop(helper: subprocess.Popen[bytes]) -> None:
    """A warm-up's compiling process stopped (if it still runs) and forgotten."""
    if helper.poll() is None:
        helper.kill()
        helper.wait()
    if helper in _HELPERS:
        _HELPERS.remove(helper)


@atexit.register
def _stop_helpers() -> None:
    """A window closed while its warm-up compiled behind it: its compiling process goes too."""
    for helper in list(_HELPERS):
        _stop(helper)


def warm_up_behind() -> Callable[[], None]:
    """`warm_up` for a thread of its own, which the caller starts: from this call until that
    work has finished, calls run interpreted rather than wait for it (the client's window
    answers while the engine loads, or compiles after an install), but for a window too large
    to interpret, which waits for it. If it fails (numba missing or broken), the process goes
    on interpreting, and the failure is logged once."""
    _WARMING.set()

    def work() -> None:
        try:
            warm_up()
        except Exception:
            _FAILED.set()
            _log().exception("sim: the reach engine could not be compiled; searching without it")
        finally:
            _WARMING.clear()
            _WARMED.set()

    return work


def _warm(names: Sequence[str]) -> None:
    """Call each of `names` once on a small open window, so that it is compiled or loaded."""
    planes = np.zeros((PLANES, 3, 3), dtype=np.int32)
    params = np.zeros(PARAMS, dtype=np.float64)
    for index, value in (
        (M_HEIGHT, 3.6),
        (M_LEAP, 1.8),
        (M_WAIST, 1.8),
        (M_ORTHOGONAL, 2),
        (M_DIAGONAL, 3),
        (M_DIFFICULT, 2),
        (M_JUMPS, 1),
        (M_LIMIT, 4),
        (M_STANDING_LENGTH, 2),
        (M_LENGTH_CAP, 4),
        (M_STANDING_HEIGHT, 1),
        (M_HEIGHT_PER_RUNUP, 6),
        (M_EXTRA_HEIGHT_CAP, 2),
        (M_GRAB_HEIGHT, 5),
    ):
        params[index] = value
    space = _bound()
    # The flags and a finished search's arrays as `search` would give them (the start cell,
    # cost 0), written out so that warming the paths compiles no search.
    flags = np.full((3, 3), F_ENTER | F_LAND, dtype=np.uint8)
    least = np.full((3, 3), BLOCKED, dtype=np.int32)
    least[1, 1] = 0
    levels = int(space["runup_levels"].py_func(params, 3, 3))
    states = np.full(9 * levels, BLOCKED, dtype=np.int32)
    states[4 * levels] = 0
    examples: dict[str, Callable[[], object]] = {
        "cell_flags": lambda: space["cell_flags"](planes, params),
        "search": lambda: space["search"](planes, flags, params, 1, 1),
        "offer": lambda: space["offer"](
            np.full((3, 3), -1, dtype=np.int8),
            np.zeros((3, 3), dtype=np.int32),
            least,
            flags > 0,
            0,
            0,
            4,
            0,
            1,
            1,
        ),
        "trace": lambda: space["trace"](planes, flags, params, least, states, 1, 1),
        "paths_provoked": lambda: space["paths_provoked"](
            planes,
            flags,
            params,
            least,
            states,
            1,
            1,
            flags > 0,
            np.zeros((1, 3, 3), dtype=np.uint8),
            np.ones(1),
        ),
    }
    for name in names:
        examples[name]()


@compiled()
def path_provoked(
    planes: Int32,
    flags: Flags,
    params: Float,
    least: Int32,
    states: Int32,
    sy: int,
    sx: int,
    ty: int,
    tx: int,
    zones: Flags,
    weights: Float,
) -> float:
    """The sum, over the legs of the path `trace` gives from (sy, sx) to (ty, tx) in order, of
    `weights[e]` for every zone `e` (a plane of the window) the leg leaves: its start in the
    zone, its end not. The compiled half of `opportunity.provoked_along`, the twin of
    `opportunity.provoked` on the ground (R-R4), with its legs and order; kept here, beside
    `trace`, so that numba's cache of it is renewed whenever the search changes."""
    rows = trace(planes, flags, params, least, states, ty, tx)
    total = 0.0
    py, px = sy, sx
    for i in range(rows.shape[0] - 1, -1, -1):
        cy, cx = rows[i, 0], rows[i, 1]
        for e in range(weights.shape[0]):
            if zones[e, py, px] and not zones[e, cy, cx]:
                total += weights[e]
        py, px = cy, cx
    return total


@compiled()
def paths_provoked(
    planes: Int32,
    flags: Flags,
    params: Float,
    least: Int32,
    states: Int32,
    sy: int,
    sx: int,
    asked: npt.NDArray[np.bool_],
    zones: Flags,
    weights: Float,
) -> Float:
    """`path_provoked` of every window cell marked in `asked` (0 elsewhere), in one call.

    A path back from a search state is the same whichever target it was met on the way back
    from (`trace` reads nothing but the state), so the sum up to each state passed is kept and
    a later path back stops at the first state already summed (issue #30: one walk per cell of
    a field rather than one per cell of each path). The legs are added in the same order from
    the start as `path_provoked` adds them, so every sum is the same number."""
    hh, ww = flags.shape
    out = np.zeros((hh, ww), dtype=np.float64)
    levels = runup_levels(params, hh, ww)
    count_states = hh * ww * levels
    summed = np.full(count_states, -1, dtype=np.int64)  # the cost each state was summed at
    sums = np.zeros(count_states, dtype=np.float64)
    walk = np.empty((min(int(params[M_LIMIT]), count_states) + 1, 4), dtype=np.int64)
    costs = np.empty(max(hh, ww) + 2, dtype=np.int32)
    runups = np.empty(max(hh, ww) + 2, dtype=np.int32)
    for ty in range(hh):
        for tx in range(ww):
            if not asked[ty, tx] or least[ty, tx] >= BLOCKED or (ty == sy and tx == sx):
                continue
            # Back as `trace` goes, to the start or to the first state already summed.
            y, x = ty, tx
            here = least[y, x] + 0  # widened to int64 by the literal, as in `trace`
            level = 0
            while states[(y * ww + x) * levels + level] != here:
                level += 1
            count = 0
            total = 0.0
            py, px = sy, sx
            found = True
            while here != 0:
                state = (y * ww + x) * levels + level
                if summed[state] == here:
                    total = sums[state]
                    py, px = y, x
                    break
                by, bx, bl, before, _ = _back_step(
                    planes, flags, params, least, states, y, x, level, here, costs, runups
                )
                if by < 0:
                    found = False  # unreachable: `trace` gives no path, `path_provoked` 0
                    break
                walk[count, 0], walk[count, 1], walk[count, 2], walk[count, 3] = y, x, state, here
                y, x, level, here = by, bx, bl, before
                count += 1
            if not found:
                continue
            # Forward from there, leg by leg, keeping the sum at each state passed.
            for i in range(count - 1, -1, -1):
                cy, cx = walk[i, 0], walk[i, 1]
                for e in range(weights.shape[0]):
                    if zones[e, py, px] and not zones[e, cy, cx]:
                        total += weights[e]
                summed[walk[i, 2]] = walk[i, 3]
                sums[walk[i, 2]] = total
                py, px = cy, cx
            out[ty, tx] = total
    return out
