"""Jumping (R-M6): how far and how high a creature jumps, with run-up, skill and ledge grabs,
and whether a jump from one cell to another along a straight line can be made."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from sim.core.components import Stats
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.rules.movement.footing import Mover, blocker, standing_at

# R-U4: a sum of exact parts (AGI Bonus / 10, a height of 1.8 m) comes out of floating point a
# hair under the whole half-metre it equals (0.6 + 3.6 = 4.2 is fine, others are not); this
# margin is far below any real part (heights are given to the centimetre), so it only undoes
# that error. The compiled search is given the heights rounded here (pathfinder.M_GRAB_HEIGHT).
ROUNDING = 1e-6


def rounded_half(exact: float) -> int:
    """An exact total in half-metres, rounded down to the half-metre once (R-U4).

    >>> rounded_half(1.6 + 3.6), rounded_half(0.6 + 3.6), rounded_half(0.2 + 0.1 + 2.7)
    (5, 4, 3)
    """
    return math.floor(exact + ROUNDING)


@dataclass(frozen=True, slots=True)
class JumpReach:
    """A creature's jump allowances, in half-metres (R-M6). R-U4: a total of several parts is
    rounded down to the half-metre once, at the end. A length's parts but the standing length
    are whole half-metres (the run-up, the skill's metres), so rounding the standing length
    alone rounds the total the same; a height adds the exact standing height, the run-up's
    whole metres and, grabbing a ledge, the jumper's own height (rarely a whole half-metre),
    and only then rounds (`height`): AGI Bonus 8 and 1.8 m reach 0.8 + 1.8 = 2.6, so 2.5 m."""

    standing_length: int  # AGI Bonus / 4, rounded down
    length_cap: int  # AGI Bonus / 2, the most a run-up can bring it to
    skill_length: int  # +1 m per 5 levels of the better of Athletics and Acrobatics
    standing_height: float  # AGI Bonus / 10, exact: rounded with what it is added to
    height_per_runup: int  # run-up half-metres for each extra metre of height
    extra_height_cap: int  # at most this much extra height from a run-up
    grab_height: float  # the jumper's height, added when grabbing a ledge

    def length(self, runup: int) -> int:
        return min(self.standing_length + runup, max(self.length_cap, self.standing_length)) + (
            self.skill_length
        )

    def height(self, runup: int, grab: bool = False) -> int:
        """The height reached with `runup` half-metres of run-up, grabbing a ledge or not."""
        extra = min((runup // self.height_per_runup) * 2, self.extra_height_cap)
        return rounded_half(self.standing_height + extra + (self.grab_height if grab else 0.0))

    @property
    def max_length(self) -> int:
        return self.length(10**6)

    @property
    def max_runup(self) -> int:
        """The run-up beyond which no jump goes longer or higher."""
        for_length = max(self.length_cap - self.standing_length, 0)
        for_height = (self.extra_height_cap // 2) * self.height_per_runup
        return max(for_length, for_height)

    def runup_for_length(self, needed: int) -> int | None:
        """The least run-up (half-metres) that makes a jump of `needed` long, or None."""
        if needed <= self.length(0):
            return 0
        if needed > self.max_length:
            return None
        return needed - self.skill_length - self.standing_length

    def runup_for_height(self, needed: int, grab: bool = False) -> int | None:
        """The least run-up that reaches `needed` half-metres of height (grabbing a ledge, or
        not), or None: whole metres of run-up height on top of the standing height, which the
        rounding once at the end leaves whole (R-U4)."""
        standing = self.height(0, grab)
        if needed <= standing:
            return 0
        steps = -(-(needed - standing) // 2)  # whole metres of extra height
        if steps * 2 > self.extra_height_cap:
            return None
        return steps * self.height_per_runup


def jump_reach(world: World, unit: str, m: Mover) -> JumpReach:
    return world.memo(("jump_reach", unit, m), lambda: _jump_reach(world, unit, m), reads=(Stats,))


def _jump_reach(world: World, unit: str, m: Mover) -> JumpReach:
    stats = world.need(unit, Stats)
    bonus = stats.attribute("agi").bonus
    numbers = world.rules.movement
    skill = max(stats.skill("athletics"), stats.skill("acrobatics"))

    def share(divisor: int) -> int:
        """AGI Bonus / the rules' divisor in whole half-metres, rounded down (R-U4)."""
        return (2 * bonus) // divisor

    return JumpReach(
        standing_length=share(numbers.standing_jump_length_divisor),
        length_cap=share(numbers.running_jump_max_length_divisor),
        skill_length=2 * (skill // numbers.jump_skill_levels_per_metre),
        standing_height=2 * bonus / numbers.standing_jump_height_divisor,
        height_per_runup=2 * numbers.running_jump_height_per_metres,
        extra_height_cap=2 * numbers.running_jump_max_extra_height,
        grab_height=m.height_half,
    )


def line_between(a: Pos, b: Pos) -> tuple[Pos, ...] | None:
    """The cells strictly between `a` and `b` if they lie on one straight orthogonal or diagonal
    line, else None.

    >>> line_between(Pos(0, 0), Pos(3, 0))
    (Pos(x=1, y=0), Pos(x=2, y=0))
    >>> line_between(Pos(0, 0), Pos(2, 1)) is None
    True
    """
    dx, dy = b.x - a.x, b.y - a.y
    if (dx, dy) == (0, 0) or (dx and dy and abs(dx) != abs(dy)):
        return None
    n = max(abs(dx), abs(dy))
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    return tuple(Pos(a.x + sx * i, a.y + sy * i) for i in range(1, n))


@dataclass(frozen=True, slots=True)
class JumpPlan:
    """A jump that can be made: its length, the run-up it needs, whether it grabs a ledge, and
    the height it must reach above its take-off (to land, or to clear what it passes over)."""

    length: int
    runup_needed: int
    grabs_ledge: bool
    height: int = 0
    ledge: bool = False  # it lands higher than it takes off: a ledge it may grab


def _m(half: int) -> str:
    return f"{half / 2:g} m"


def lengths(jr: JumpReach, unit: str, runup: int) -> str:
    """How long `unit` jumps (R-M6), for a refusal: standing, with the run-up made so far, and
    at most, with the run-up that takes.

    >>> jr = JumpReach(2, 4, 0, 1.6, 6, 2, 3.6)
    >>> print(lengths(jr, "ana", 0))
    ana jumps 1 m standing, at most 2 m with a run-up of 1 m
    >>> print(lengths(jr, "ana", 1))
    ana jumps 1 m standing, 1.5 m with the 0.5 m run-up made, at most 2 m with a run-up of 1 m
    """
    out = f"{unit} jumps {_m(jr.length(0))} standing"
    if jr.length(0) < jr.length(runup) < jr.max_length:
        out += f", {_m(jr.length(runup))} with the {_m(runup)} run-up made"
    if jr.max_length > jr.length(0):
        out += f", at most {_m(jr.max_length)} with a run-up of "
        out += _m(jr.runup_for_length(jr.max_length) or 0)
    return out


def heights(jr: JumpReach, unit: str, runup: int, ledge: bool) -> str:
    """How high `unit` reaches (R-M6, each total rounded once, R-U4), for a refusal: standing,
    with the run-up made so far, at most with a run-up, and the same grabbing a ledge.

    >>> jr = JumpReach(4, 8, 0, 1.6, 6, 2, 3.6)  # AGI Bonus 8, 1.8 m tall
    >>> for part in heights(jr, "ana", 0, True).split("; "):
    ...     print(part)
    ana reaches 0.5 m standing, 1.5 m with a run-up of 3 m
    grabbing the ledge, 2.5 m standing, 3.5 m with a run-up of 3 m
    """
    top = jr.runup_for_height(jr.height(10**6)) or 0

    def reached(grab: bool) -> str:
        now, most = jr.height(runup, grab), jr.height(10**6, grab)
        out = f"{_m(jr.height(0, grab))} standing"
        if jr.height(0, grab) < now < most:
            out += f", {_m(now)} with the {_m(runup)} run-up made"
        if most > jr.height(0, grab):
            out += f", {_m(most)} with a run-up of {_m(top)}"
        return out

    return f"{unit} reaches {reached(False)}" + (
        f"; grabbing the ledge, {reached(True)}" if ledge else ""
    )


def plan_jump(
    world: World, m: Mover, jr: JumpReach, a: Pos, b: Pos, runup: int = 0, lift: int = 0
) -> JumpPlan | str:
    """Whether a jump from `a` to `b` can be made with some run-up; else the reason. `runup` is
    the run-up already made: with it the jumper lands on a ledge without grabbing if it can.
    `lift`: half-metres above `a`'s ground the jumper leaves from (hanging on a face, R-M7); a
    drop from there higher than the jumper is a fall, not a refusal (R-M4). A refusal for
    length or height says what is needed and what the jumper reaches (`lengths`, `heights`)."""
    grid = world.grid
    between = line_between(a, b)
    if between is None:
        return f"{b}: a jump goes in a straight line (orthogonal or diagonal) from {a} (R-M6)"
    if not grid.inside(b):
        return f"{b}: off the map (R-U1)"
    per = m.diagonal if a.x != b.x and a.y != b.y else m.orthogonal
    length = per * (len(between) + 1)
    base = grid.ground_half(a) + lift
    clearance = 0
    for cell in between:
        kind = grid.kind(cell)
        if kind is Kind.WALL:
            return f"{cell}: a wall is in the way of the jump (R-M6)"
        if blocker(world, m.unit, cell) is not None:
            return f"{cell}: {blocker(world, m.unit, cell)} is in the way of the jump (R-M5)"
        if kind is not Kind.PIT:
            clearance = max(clearance, grid.ground_half(cell) - base + grid.obstacle_half(cell))
    line = (a, *between, b)
    for p, q in pairwise(line):
        # R-U3: a diagonal jump may not cut the corner of a wall either.
        for corner in (Pos(q.x, p.y), Pos(p.x, q.y)) if p.x != q.x and p.y != q.y else ():
            if not grid.inside(corner) or grid.kind(corner) is Kind.WALL:
                return f"{b}: the jump would cut the corner at {corner} (R-U3)"
    kind = grid.kind(b)
    if kind in (Kind.WALL, Kind.PIT):
        return f"{b}: a jump cannot land in a {kind.name.lower()} (R-M6)"
    if grid.water_half(b) > m.height_half:
        return f"{b}: water over {m.unit}'s head; a jump cannot land there (R-M9)"
    other = standing_at(world, m.unit).get(b)
    if other is not None:
        return f"{b}: {other} stands there (R-M5)"
    rise = grid.ground_half(b) - base
    if -rise > m.height_half and not lift:
        return f"{b}: a drop of {-rise / 2:g} m is higher than {m.unit}; climb down (R-M4)"
    landing = max(rise, 0) + grid.obstacle_half(b)
    need_len = jr.runup_for_length(length)
    if need_len is None:
        return f"{b}: a jump of {_m(length)}; {lengths(jr, m.unit, runup)} (R-M6)"
    need_clear = jr.runup_for_height(clearance)
    if need_clear is None:
        return (
            f"{b}: the jump must clear {_m(clearance)}; {heights(jr, m.unit, runup, False)} (R-M6)"
        )
    grabs = False
    need_land = jr.runup_for_height(landing)
    if rise > 0:
        # R-M6: grabbing the ledge adds the jumper's height to the height reached; grab only
        # when the run-up made so far does not land it on top and grabbing needs less.
        with_grab = jr.runup_for_height(landing, grab=True)
        if with_grab is not None and (
            need_land is None or (need_land > runup and with_grab < need_land)
        ):
            need_land, grabs = with_grab, True
    if need_land is None:
        return f"{b}: {_m(landing)} up; {heights(jr, m.unit, runup, rise > 0)} (R-M6)"
    runup_needed = max(need_len, need_clear, need_land)
    return JumpPlan(length, runup_needed, grabs, max(landing, clearance), rise > 0)
