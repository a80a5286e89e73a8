"""Cells and distances on the 1-metre grid (R-U1, R-U2, R-U4), in exact half-metres."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

# R-U2: distances are kept in integer half-metres so every sum is exact.
HALF_METRES_PER_METRE = 2


class Pos(NamedTuple):
    """A cell (x, y): x to the right, y downwards, (0, 0) top-left (R-U1)."""

    x: int
    y: int

    def __str__(self) -> str:
        return f"({self.x},{self.y})"

    def neighbours(self) -> tuple[Pos, ...]:
        """The 8 neighbours, in a fixed order (R-U1).

        >>> Pos(1, 1).neighbours()[:3]
        (Pos(x=0, y=0), Pos(x=1, y=0), Pos(x=2, y=0))
        """
        return tuple(
            Pos(self.x + dx, self.y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy
        )

    def is_adjacent(self, other: Pos) -> bool:
        return self != other and max(abs(self.x - other.x), abs(self.y - other.y)) == 1


def is_diagonal(a: Pos, b: Pos) -> bool:
    return a.x != b.x and a.y != b.y


def half_metres(metres: float | Fraction | int) -> int:
    """Metres to whole half-metres, rounded down (R-U4).

    >>> half_metres(3), half_metres(2.9), half_metres(Fraction(10, 3))
    (6, 5, 6)
    """
    if isinstance(metres, int):
        return metres * HALF_METRES_PER_METRE
    if isinstance(metres, float):
        # The exact form below is slow (Fraction); its answer is the floor of the plain
        # product unless that lies within 1/1000 under a whole number, where the 1/1000
        # approximation may round a float's error (2.9999999) back up to it.
        half = metres * HALF_METRES_PER_METRE
        floor = math.floor(half)
        if half - floor < 0.999:
            return floor
    return int(Fraction(metres).limit_denominator(1000) * HALF_METRES_PER_METRE // 1)


def metres(half: int) -> float:
    """Half-metres back to metres for display.

    >>> metres(7)
    3.5
    """
    return half / HALF_METRES_PER_METRE


def floor_half(value: Fraction | float | int) -> Fraction:
    """A formula's allowance rounded down to the half-metre (R-U4).

    >>> floor_half(Fraction(9, 3)), floor_half(Fraction(7, 4))
    (Fraction(3, 1), Fraction(3, 2))
    """
    return Fraction(half_metres(value), HALF_METRES_PER_METRE)


def footprint(anchor: Pos, side: int) -> tuple[Pos, ...]:
    """The cells a creature `side` cells wide stands on, from its top-left `anchor` (R-Z1), in
    row order.

    >>> footprint(Pos(2, 3), 2)
    (Pos(x=2, y=3), Pos(x=3, y=3), Pos(x=2, y=4), Pos(x=3, y=4))
    """
    if side == 1:
        return (anchor,)
    return tuple(Pos(anchor.x + dx, anchor.y + dy) for dy in range(side) for dx in range(side))


def gap(a: Pos, a_side: int, b: Pos, b_side: int) -> int:
    """Cells (Chebyshev) between the nearest cells of two footprints, 0 where they overlap:
    distances to and from a large creature count from its nearest cell (R-Z3).

    >>> gap(Pos(0, 0), 2, Pos(3, 1), 1), gap(Pos(0, 0), 1, Pos(3, 1), 1)
    (2, 3)
    """
    dx = max(0, b.x - (a.x + a_side - 1), a.x - (b.x + b_side - 1))
    dy = max(0, b.y - (a.y + a_side - 1), a.y - (b.y + b_side - 1))
    return max(dx, dy)
