"""Where a creature hidden from a side may be now: `hard` samples it on each fork it plays.

Issue #29, fair information. The battle as a side knows it (sim/ai/sight.py) puts a hidden
creature where the side last saw it: one guess, which a look-ahead would treat as certain,
though the creature has had turns to move since. `hard` plays each candidate on several dice
seeds; on each seed's forks the hidden creatures stand on a cell drawn from those they could
have reached since they were seen (determinization, as information-set search does it): its
choice weighs the places they may be, never the place they are.
"""

from __future__ import annotations

import math
from collections.abc import Collection

from sim.ai.sight import Sightings
from sim.core.components import Position
from sim.core.creature import creatures, speed
from sim.core.dice import SeededDice
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.play.engine import Battle
from sim.rules.movement.diving import submerged, water_body

_GROUND = frozenset(kind for kind in Kind if kind not in (Kind.WALL, Kind.PIT))


def whereabouts(
    world: World,
    team: str,
    unit: str,
    sightings: Sightings,
    walks: float,
) -> tuple[Pos, ...]:
    """The cells `unit`, hidden from `team`, may stand on now in `world` (the battle as the
    side knows it, where the unit stands where it was last seen): every cell within its
    `walks` Walks (Speed / 3, R-M1) a turn of that place for each round since it was seen
    (or since the battle began), that it could stand on (not a wall or a pit; a diver stays
    in its water) and that no other creature takes. In reading order; the place it was seen
    among them."""
    origin = world.need(unit, Position).cell
    seen = sightings.since(team, unit)
    turns = max(1, world.turn.round - (seen if seen is not None else 1) + 1)
    walk = speed(world, unit) / world.rules.movement.walk_speed_divisor
    radius = math.ceil(turns * walks * walk)
    grid = world.grid
    taken = {world.need(u, Position).cell for u in creatures(world) if u != unit}
    water = water_body(grid, origin) if submerged(world, unit) else None
    out = []
    for y in range(max(0, origin.y - radius), min(grid.height, origin.y + radius + 1)):
        for x in range(max(0, origin.x - radius), min(grid.width, origin.x + radius + 1)):
            cell = Pos(x, y)
            if cell in taken:
                continue
            if water is not None:
                if cell in water:
                    out.append(cell)
            elif grid.kind(cell) in _GROUND:
                out.append(cell)
    return tuple(out) or (origin,)


def guessed(
    known: Battle,
    team: str,
    lost: Collection[str],
    sightings: Sightings,
    seed: int,
    walks: float,
    kept: Collection[Pos] = (),
) -> Battle:
    """A fork of `known` (the battle as `team` knows it, sealed dice) with each creature of
    `lost` (hidden from the side) on a cell of its `whereabouts` drawn with dice of `seed`:
    the same seed, the same places. Two hidden creatures never share a cell, and none stands
    on a cell of `kept`: the side's legal moves end there, so the rules say it is free."""
    fork = known.fork(known.dice)
    dice = SeededDice(seed)
    taken: set[Pos] = set(kept)
    for unit in sorted(lost):
        cells = [c for c in whereabouts(fork.world, team, unit, sightings, walks) if c not in taken]
        if not cells:
            continue
        cell = cells[dice.roll(len(cells)) - 1]
        taken.add(cell)
        fork.world.set(unit, Position(cell))
    return fork
