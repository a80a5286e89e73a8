"""Who is near a cell: the creatures by block of the map, kept up to date from the world's
journal of writes, so that a rule asks the few creatures near the action instead of every
creature (issue #30: the cost of a decision must not grow with creatures far from it)."""

from __future__ import annotations

from sim.core.components import Position, Size, Stats, Team
from sim.core.creature import creatures, side
from sim.core.geometry import Pos, gap
from sim.core.world import World

BLOCK = 8  # cells a side of a block: a reach or a trigger's distance spans one or two
READS = (Position, Size, Team, Stats)  # where a creature is, how large, and that it is one


class Blocks:
    """The creatures whose Position (a large one's top-left, R-Z1) is in each block, with
    that cell and their side, as of the world's write `mark`."""

    __slots__ = ("blocks", "largest", "mark", "where")

    def __init__(self) -> None:
        self.mark = -1  # never brought up to date
        self.where: dict[str, tuple[int, int]] = {}
        self.blocks: dict[tuple[int, int], dict[str, tuple[int, int, int]]] = {}
        self.largest = 1  # the widest footprint filed (R-Z1); never narrows

    def update(self, world: World) -> None:
        """File again the creatures written since the last look (all of them the first time,
        or when the journal does not reach back so far)."""
        due = world.refile(self.mark, READS)
        if due is None:
            return
        changed, afresh = due
        if afresh:
            self.where.clear()
            self.blocks.clear()
            changed = list(creatures(world))  # only creatures are filed
        for unit in dict.fromkeys(changed):
            old = self.where.pop(unit, None)
            if old is not None:
                del self.blocks[old][unit]
            pos = world.get(unit, Position)
            if pos is None or not world.has(unit, Team) or not world.has(unit, Stats):
                continue
            x, y, wide = pos.cell.x, pos.cell.y, side(world, unit)
            block = (x // BLOCK, y // BLOCK)
            self.where[unit] = block
            self.blocks.setdefault(block, {})[unit] = (x, y, wide)
            self.largest = max(self.largest, wide)
        self.mark = world.written


def near(world: World, cell: Pos, cells: int, wide: int = 1) -> list[str]:
    """The creatures a cell of whose footprint is within `cells` cells (Chebyshev) of a cell
    of the footprint `wide` cells a side whose top-left is `cell` (`gap`, R-Z3), in the order
    of `creatures`."""
    index = world.kept("placement", Blocks)
    index.update(world)
    x, y = cell.x, cell.y
    right, bottom = x + wide - 1, y + wide - 1
    reach = cells + index.largest - 1  # a large creature's top-left is farther than its edge
    found: list[str] = []
    blocks = index.blocks
    for by in range((y - reach) // BLOCK, (bottom + cells) // BLOCK + 1):
        for bx in range((x - reach) // BLOCK, (right + cells) // BLOCK + 1):
            filed = blocks.get((bx, by))
            if not filed:
                continue
            for unit, (ux, uy, us) in filed.items():
                # `gap` between the two footprints, written out: asked for every creature near.
                if (
                    ux - right <= cells
                    and x - (ux + us - 1) <= cells
                    and uy - bottom <= cells
                    and y - (uy + us - 1) <= cells
                ):
                    found.append(unit)
    if len(found) > 1:
        found.sort(key=world.ranks.__getitem__)
    return found


def near_scan(world: World, cell: Pos, cells: int, wide: int = 1) -> list[str]:
    """`near` by asking every creature: what it must always equal (tests hold it so)."""
    return [
        unit
        for unit in creatures(world)
        if gap(world.need(unit, Position).cell, side(world, unit), cell, wide) <= cells
    ]
