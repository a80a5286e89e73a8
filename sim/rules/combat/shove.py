"""Shove (R-X15), a Bonus Action: a STR Contest against a creature in reach (R-C4: a tie goes to
the one shoved). A loser is pushed straight away from the shover by half the shover's STR Roll
(the die alone, rounded down, minimum 1) metres, cell by cell (R-U2), stopping at walls and
creatures, falling off ledges (R-M4), into water (R-M9) and through fire (R-K4); being pushed
never provokes (R-R4); a grapple it pulls apart ends (R-G4, grapple.loosened after each
cell). Then it makes a STR Save against the
shover's winning total or falls Prone, or starts swimming in waist-deep water (R-M10). A flier
is pushed through the air: over pits, off ledges and over water without falling or swimming,
until a failed save brings it down there (R-Z5, flight.py). A large creature (R-Z1) is pushed
straight away from the shover's centre to its own, its whole footprint a cell at a time (R-Z2):
every cell it enters must be open to the push, and the footprint's highest ground and deepest
water decide its falls, landings and swimming, as its moves do."""

from __future__ import annotations

import math
from collections.abc import Generator, Iterator

from sim.core import events as ev
from sim.core.actions import Refusal, Shove
from sim.core.components import Position
from sim.core.condition import Condition
from sim.core.creature import cells_of, conditions, creatures, has, incapacitated, lying, side
from sim.core.dice import Dice
from sim.core.geometry import Pos, footprint, half_metres, is_diagonal
from sim.core.grid import Kind
from sim.core.purpose import RollKind
from sim.core.world import World
from sim.rules.candidates import Scene
from sim.rules.combat.checks import acting_wins, roll_check, saved
from sim.rules.combat.hide import reveal
from sim.rules.combat.reactions import Ask, Reply
from sim.rules.combat.sizes import size_modifier, too_large
from sim.rules.movement.footing import Mover, mover, terrain_view
from sim.rules.movement.movement import fall
from sim.rules.movement.prone import knocked_down, knocked_off
from sim.rules.reach.target import in_reach

Resolution = Generator[ev.Event | Ask, Reply | None, None]

# The 8 directions of R-U1, counter-clockwise from "right" as y grows downwards.
_COMPASS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def away(a: Pos, b: Pos) -> tuple[int, int]:
    """The one of the 8 directions nearest to the line from `a` through `b`.

    >>> away(Pos(0, 0), Pos(1, 0)), away(Pos(2, 2), Pos(1, 1)), away(Pos(0, 0), Pos(2, 1))
    ((1, 0), (-1, -1), (1, 1))
    >>> away(Pos(0, 0), Pos(1, 2)), away(Pos(0, 0), Pos(0, -2))
    ((1, 1), (0, -1))
    """
    octant = round(math.atan2(b.y - a.y, b.x - a.x) / (math.pi / 4)) % 8
    return _COMPASS[octant]


def check_shove(world: World, action: Shove) -> Refusal | None:
    refusal = in_reach(world, action.actor, action.target, "shove", "R-X15")
    if refusal is not None:
        return refusal
    return too_large(world, action.actor, action.target, "shove")


def resolve_shove(world: World, action: Shove, dice: Dice) -> Resolution:
    actor, target = action.actor, action.target
    yield from reveal(world, actor, "shoved")
    mine = roll_check(
        world,
        dice,
        actor,
        "str",
        f"shove {target}: STR Contest",
        tag=RollKind.SHOVE,
        modifier=size_modifier(world, actor, target),  # R-Z4
    )
    yield mine.rolled
    theirs = roll_check(
        world,
        dice,
        target,
        "str",
        f"resist {actor}'s shove: STR Contest",
        tag=RollKind.RESIST_SHOVE,
    )
    yield theirs.rolled
    if not acting_wins(mine.total, theirs.total):
        return
    if has(world, target, Condition.HANGING):
        # R-M4: shoved off the face it hangs on, it falls from there; no push, no save.
        yield from knocked_off(world, target, f"shoved off the face by {actor} (R-M4)")
        return
    rules = world.rules
    metres = max(
        rules.actions.shove_min_push_metres,
        mine.rolled.result // rules.actions.shove_push_divisor,
    )
    yield from push(world, actor, target, metres)
    if (
        incapacitated(world, target)
        or has(world, target, Condition.PRONE)
        or has(world, target, Condition.SWIMMING)
    ):
        return  # a fall already put it down, or it is in the water: nothing left to keep
    purpose = f"keep its feet: STR Save against {mine.total}"
    keep = roll_check(world, dice, target, "str", purpose, tag=RollKind.KEEP_FEET)
    yield keep.rolled
    if not saved(keep.total, mine.total):
        yield from knocked_down(world, target)


def centre(world: World, unit: str) -> Pos:
    """The middle of `unit`'s footprint in half-cells (twice its coordinates): a push goes
    straight away from the shover's middle through the target's (R-X15 with R-Z1).

    For creatures of one cell this is their cell doubled, which points the same way."""
    cell, wide = world.need(unit, Position).cell, side(world, unit)
    return Pos(2 * cell.x + wide - 1, 2 * cell.y + wide - 1)


def push(world: World, shover: str, unit: str, metres: int) -> Resolution:
    """Move `unit` straight away from `shover`, one cell at a time. A diagonal cell is 1.5 m
    (R-U2); the first cell is always entered when nothing stops it (the minimum push). A large
    creature's whole footprint moves (R-Z2): ground, falls and water are read from the
    footprint's map (`terrain_view`), fire from every cell it now stands on."""
    dx, dy = away(centre(world, shover), centre(world, unit))
    m = mover(world, unit)
    grid = world.grid.footprints(m.side)  # the footprint's highest ground, deepest water
    allowed = half_metres(metres)
    spent = 0
    fire = world.rules.conditions.fire_terrain_stacks
    while True:
        here = world.need(unit, Position).cell
        there = Pos(here.x + dx, here.y + dy)
        cost = m.diagonal if is_diagonal(here, there) else m.orthogonal
        if spent and spent + cost > allowed:
            break
        stop = _stopped_by(world, m, here, there)
        if stop is not None:
            yield ev.MoveCutShort(unit, here, f"the push stopped at {stop}")
            break
        yield ev.Pushed(unit, here, there, shover)
        spent += cost
        if any(world.grid.kind(c) is Kind.FIRE for c in footprint(there, m.side)):
            yield ev.ConditionGained(
                unit, Condition.BURNING, conditions(world, unit).count(Condition.BURNING) + fire
            )
        if m.flies and not lying(world, unit):
            continue  # R-Z5: a flier pushed off a ledge or over water stays in the air
        drop = grid.ground_half(here) - grid.ground_half(there)
        if drop > m.height_half:
            yield from fall(terrain_view(world, unit), m, unit, here, there)  # R-M4
            break
        if grid.water_half(there) > m.height_half and not has(world, unit, Condition.SWIMMING):
            yield ev.ConditionGained(unit, Condition.SWIMMING, 1)  # R-M9: over its head, it swims
            break


def _stopped_by(world: World, m: Mover, a: Pos, b: Pos) -> str | None:
    """What stops a push from `a` into its neighbour `b`, or None. **Decision** a wall, a pit's
    edge, a wall corner cut diagonally (R-U3), any creature, a rise of ground or an obstacle
    (a push lifts no one); a swimmer stops at water too shallow to swim. A large creature's
    footprint is stopped by any of these in a cell it enters (R-Z2), and by a corner any of
    its cells would cut; the rise and the water are its footprint's (highest, deepest)."""
    grid = world.grid
    before = footprint(a, m.side)
    entered = [c for c in footprint(b, m.side) if c not in before]
    # R-Z5: a flier is pushed through the air over a pit (walls still stop it).
    solid = (Kind.WALL,) if m.flies and not lying(world, m.unit) else (Kind.WALL, Kind.PIT)
    for cell in entered:
        if not grid.inside(cell):
            return f"the edge of the map at {cell}"
        if grid.kind(cell) in solid:
            return f"the {grid.kind(cell).name.lower()} at {cell}"
    if is_diagonal(a, b):
        # R-U3 for each footprint cell: the cells beside its diagonal are these two footprints.
        for corner in (*footprint(Pos(b.x, a.y), m.side), *footprint(Pos(a.x, b.y), m.side)):
            if grid.inside(corner) and grid.kind(corner) in solid:
                return f"the corner of the {grid.kind(corner).name.lower()} at {corner}"
    for other in creatures(world):
        if other == m.unit:
            continue
        held = cells_of(world, other)
        met = next((c for c in entered if c in held), None)
        if met is not None:
            return f"{other} at {met}"
    view = grid.footprints(m.side)
    if has(world, m.unit, Condition.SWIMMING):
        if view.water_half(b) < m.waist_half:
            return f"the bank at {b}"
        return None
    rise = view.ground_half(b) - view.ground_half(a)
    if rise > 0:
        return f"a rise of {rise / 2:g} m at {b}"
    obstacle = max(grid.obstacle_half(c) for c in entered)
    if obstacle > 0:
        at = next(c for c in entered if grid.obstacle_half(c) == obstacle)
        return f"an obstacle {obstacle / 2:g} m high at {at}"
    return None


def shove_candidates(scene: Scene, other: str) -> Iterator[Shove]:
    """Anyone in sight and reach, allies too."""
    if scene.near(other):
        yield Shove(scene.unit, target=other)
