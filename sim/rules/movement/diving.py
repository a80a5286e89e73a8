"""Diving (R-M8 Decision): swimming submerged in water at least as deep as the swimmer is tall,
and who can see, single out or strike a submerged creature."""

from __future__ import annotations

from sim.core.components import Position
from sim.core.condition import Condition
from sim.core.creature import has
from sim.core.geometry import Pos
from sim.core.grid import Grid
from sim.core.world import World


def water_body(grid: Grid, cell: Pos) -> frozenset[Pos]:
    """The cells of the water `cell` is in: every cell with water that can be swum or waded to
    from it, neighbour by neighbour (empty when `cell` is dry)."""
    if not grid.inside(cell) or grid.water_half(cell) <= 0:
        return frozenset()
    seen = {cell}
    todo = [cell]
    while todo:
        here = todo.pop()
        for there in here.neighbours():
            if there not in seen and grid.inside(there) and grid.water_half(there) > 0:
                seen.add(there)
                todo.append(there)
    return frozenset(seen)


def submerged(world: World, unit: str) -> bool:
    return has(world, unit, Condition.SUBMERGED)


def apart(world: World, a: str, b: str, *, a_under: bool | None = None) -> bool:
    """Whether water stands between `a` and `b`: one of them is submerged and the other is not
    in that water. Then neither sees the other (line of sight is the same both ways), neither
    can single out the other, and neither makes an Attack of Opportunity on the other.
    `a_under`: whether `a` is submerged (None: as it is now), for a move it is about to make
    (a dive, or a Swim up to the surface)."""
    for diver, other, under in ((a, b, a_under), (b, a, None)):
        if submerged(world, diver) if under is None else under:
            body = water_body(world.grid, world.need(diver, Position).cell)
            if world.need(other, Position).cell not in body:
                return True
    return False


def too_shallow_to_dive(world: World, height_half: float, cells: tuple[Pos, ...]) -> Pos | None:
    """The first of `cells` whose water is shallower than the swimmer is tall (R-M8: it dives
    only in water at least as deep as its height)."""
    for cell in cells:
        if world.grid.water_half(cell) < height_half:
            return cell
    return None
