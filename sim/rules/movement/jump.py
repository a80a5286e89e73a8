"""Jumping (R-M6): how far and how high a creature jumps, with run-up, skill and ledge grabs,
and whether a jump from one cell to another along a straight line can be made."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from sim.core.components import Stats
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.rules.movement.footing import Mover, blocker, standing_at


@dataclass(frozen=True, slots=True)
class JumpReach:
    """A creature's jump allowances, in half-metres (R-M6, rounded down per R-U4)."""

    standing_length: int  # AGI Bonus / 4
    length_cap: int  # AGI Bonus / 2, the most a run-up can bring it to
    skill_length: int  # +1 m per 5 levels of the better of Athletics and Acrobatics
    standing_height: int  # AGI Bonus / 10
    height_per_runup: int  # run-up half-metres for each extra metre of height
    extra_height_cap: int  # at most this much extra height from a run-up
    grab_height: float  # the jumper's height, added when grabbing a ledge

    def length(self, runup: int) -> int:
        return min(self.standing_length + runup, max(self.length_cap, self.standing_length)) + (
            self.skill_length
        )

    def height(self, runup: int) -> int:
        extra = min((runup // self.height_per_runup) * 2, self.extra_height_cap)
        return self.standing_height + extra

    @property
    def max_length(self) -> int:
        return self.length(10**6)

    def runup_for_length(self, needed: int) -> int | None:
        """The least run-up (half-metres) that makes a jump of `needed` long, or None."""
        if needed <= self.length(0):
            return 0
        if needed > self.max_length:
            return None
        return needed - self.skill_length - self.standing_length

    def runup_for_height(self, needed: float) -> int | None:
        """The least run-up that clears `needed` half-metres of height, or None."""
        if needed <= self.standing_height:
            return 0
        steps = -(-(needed - self.standing_height) // 2)  # whole metres of extra height
        if steps * 2 > self.extra_height_cap:
            return None
        return int(steps) * self.height_per_runup


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
        standing_height=share(numbers.standing_jump_height_divisor),
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
    """A jump that can be made: its length, the run-up it needs, and whether it grabs a ledge."""

    length: int
    runup_needed: int
    grabs_ledge: bool


def plan_jump(
    world: World, m: Mover, jr: JumpReach, a: Pos, b: Pos, runup: int = 0, lift: int = 0
) -> JumpPlan | str:
    """Whether a jump from `a` to `b` can be made with some run-up; else the reason. `runup` is
    the run-up already made: with it the jumper lands on a ledge without grabbing if it can.
    `lift`: half-metres above `a`'s ground the jumper leaves from (hanging on a face, R-M7); a
    drop from there higher than the jumper is a fall, not a refusal (R-M4)."""
    grid = world.grid
    between = line_between(a, b)
    if between is None:
        return f"{b}: a jump goes in a straight line (orthogonal or diagonal) from {a}"
    if not grid.inside(b):
        return f"{b}: off the map"
    per = m.diagonal if a.x != b.x and a.y != b.y else m.orthogonal
    length = per * (len(between) + 1)
    base = grid.ground_half(a) + lift
    clearance = 0
    for cell in between:
        kind = grid.kind(cell)
        if kind is Kind.WALL:
            return f"{cell}: a wall is in the way of the jump"
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
        return f"{b}: a jump cannot land in a {kind.name.lower()}"
    if grid.water_half(b) > m.height_half:
        return f"{b}: water over {m.unit}'s head; a jump cannot land there"
    other = standing_at(world, m.unit).get(b)
    if other is not None:
        return f"{b}: {other} stands there (R-M5)"
    rise = grid.ground_half(b) - base
    if -rise > m.height_half and not lift:
        return f"{b}: a drop of {-rise / 2:g} m is higher than {m.unit}; climb down (R-M4)"
    landing = max(rise, 0) + grid.obstacle_half(b)
    need_len = jr.runup_for_length(length)
    if need_len is None:
        return f"{b}: a jump of {length / 2:g} m; {m.unit} can jump at most {jr.max_length / 2:g} m"
    need_clear = jr.runup_for_height(clearance)
    if need_clear is None:
        return f"{b}: the jump must clear {clearance / 2:g} m; too high for {m.unit} (R-M6)"
    grabs = False
    need_land = jr.runup_for_height(landing)
    if rise > 0:
        # R-M6: grabbing the ledge adds the jumper's height to the height reached; grab only
        # when the run-up made so far does not land it on top and grabbing needs less.
        with_grab = jr.runup_for_height(landing - jr.grab_height)
        if with_grab is not None and (
            need_land is None or (need_land > runup and with_grab < need_land)
        ):
            need_land, grabs = with_grab, True
    if need_land is None:
        top = (jr.height(10**6) + (jr.grab_height if rise > 0 else 0)) / 2
        return f"{b}: {landing / 2:g} m up; {m.unit} can reach {top:.2g} m with a jump (R-M6)"
    return JumpPlan(length, max(need_len, need_clear, need_land), grabs)
