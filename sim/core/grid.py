"""The terrain: named numpy layers over the 1-metre grid (R-U1); only this module uses [y, x]."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from sim.core.geometry import Pos


class Kind(enum.IntEnum):
    """What a cell's ground is."""

    OPEN = 0
    DIFFICULT = 1
    WALL = 2
    PIT = 3
    FIRE = 4
    COVER = 5

    @classmethod
    def named(cls, name: str) -> Kind:
        return cls[name.upper()]


KIND_NAMES = tuple(kind.name.lower() for kind in Kind)
# Each kind at its number: a cell's kind is read per cell of every search and every path, and
# an index is several times cheaper than calling the enum (issue #11).
_KINDS = tuple(sorted(Kind))
assert all(kind == number for number, kind in enumerate(_KINDS))

# Layer name -> dtype. Heights and depths are whole half-metres (R-U2, exact arithmetic).
LAYERS: dict[str, type] = {
    "kind": np.uint8,
    "height": np.int16,  # ground height, half-metres
    "water": np.int16,  # water depth, half-metres
    "obstacle": np.int16,  # height of a low obstacle standing on the cell, half-metres
    "climbable": np.bool_,  # the cell's faces can be climbed
}


@dataclass(frozen=True, slots=True)
class Cell:
    """Everything the layers say about one cell, in metres."""

    pos: Pos
    kind: Kind
    height: float
    water: float
    obstacle: float
    climbable: bool


class Grid:
    """The map's layers. Treated as immutable once built: worlds share it when copied.
    Written only through `set_cell`, which counts the writes (`version`) so that answers a
    world keeps about its terrain (World.memo) are worked out again after a map edit."""

    def __init__(self, width: int, height: int) -> None:
        if width < 1 or height < 1:
            raise ValueError("a map needs at least one cell")
        self.width = width
        self.height = height
        self.version = 0
        self.layers: dict[str, npt.NDArray[np.generic]] = {
            name: np.zeros((height, width), dtype=dtype) for name, dtype in LAYERS.items()
        }
        self._stacks: dict[tuple[str, ...], tuple[int, npt.NDArray[np.int32]]] = {}
        self._footprints: dict[int, tuple[int, Grid]] = {}

    def __getstate__(self) -> dict[str, object]:
        """Pickled without the stacks and footprint grids it keeps (`stacked`, `footprints`):
        they are only a shortcut."""
        state = dict(self.__dict__)
        state["_stacks"] = {}
        state["_footprints"] = {}
        return state

    def footprints(self, side: int) -> Grid:
        """The map as a creature `side` cells wide meets it (R-Z1, R-Z2): each cell holds what
        the footprint whose top-left it is holds at its worst. A wall or pit in any of its
        cells, or a cell off the map, makes it that; else one difficult cell makes it
        difficult; the highest ground, the deepest water and the highest obstacle count, and it
        is climbable where any cell is. Kept until the next `set_cell`; shared, not changed."""
        if side == 1:
            return self
        kept = self._footprints.get(side)
        if kept is not None and kept[0] == self.version:
            return kept[1]
        out = Grid(self.width, self.height)
        rank = _RANK[self.layers["kind"]]
        worst = _sliding_max(rank, side, int(_RANK[Kind.WALL]))
        out.layers["kind"] = _BY_RANK[worst].astype(np.uint8)
        for name in ("height", "water", "obstacle"):
            layer = self.layers[name]
            out.layers[name] = _sliding_max(layer, side, 0).astype(layer.dtype)
        climbable = self.layers["climbable"].astype(np.int16)
        out.layers["climbable"] = _sliding_max(climbable, side, 0).astype(np.bool_)
        self._footprints[side] = (self.version, out)
        return out

    def stacked(self, names: tuple[str, ...]) -> npt.NDArray[np.int32]:
        """The named layers as one int32 array [layer, y, x], kept until the next `set_cell`:
        every reach map cuts its window out of it rather than converting each layer again.
        Shared: callers must not change it."""
        kept = self._stacks.get(names)
        if kept is not None and kept[0] == self.version:
            return kept[1]
        stack = np.stack([self.layers[n].astype(np.int32) for n in names])
        self._stacks[names] = (self.version, stack)
        return stack

    def inside(self, pos: Pos) -> bool:
        return 0 <= pos.x < self.width and 0 <= pos.y < self.height

    def cells(self) -> Iterator[Pos]:
        for y in range(self.height):
            for x in range(self.width):
                yield Pos(x, y)

    def kind(self, pos: Pos) -> Kind:
        return _KINDS[int(self.layers["kind"][pos.y, pos.x])]

    def ground_half(self, pos: Pos) -> int:
        return int(self.layers["height"][pos.y, pos.x])

    def level_around(self, pos: Pos) -> bool:
        """Whether every cell of the map around `pos` has its ground as high as `pos`."""
        height = self.layers["height"]
        around = height[max(pos.y - 1, 0) : pos.y + 2, max(pos.x - 1, 0) : pos.x + 2]
        return bool((around == height[pos.y, pos.x]).all())

    def water_half(self, pos: Pos) -> int:
        return int(self.layers["water"][pos.y, pos.x])

    def obstacle_half(self, pos: Pos) -> int:
        return int(self.layers["obstacle"][pos.y, pos.x])

    def climbable(self, pos: Pos) -> bool:
        return bool(self.layers["climbable"][pos.y, pos.x])

    def cell(self, pos: Pos) -> Cell:
        return Cell(
            pos=pos,
            kind=self.kind(pos),
            height=self.ground_half(pos) / 2,
            water=self.water_half(pos) / 2,
            obstacle=self.obstacle_half(pos) / 2,
            climbable=self.climbable(pos),
        )

    def set_cell(
        self,
        pos: Pos,
        *,
        kind: Kind,
        height_half: int = 0,
        water_half: int = 0,
        obstacle_half: int = 0,
        climbable: bool = False,
    ) -> None:
        """Used by loaders and the map editor."""
        self.version += 1
        self.layers["kind"][pos.y, pos.x] = int(kind)
        self.layers["height"][pos.y, pos.x] = height_half
        self.layers["water"][pos.y, pos.x] = water_half
        self.layers["obstacle"][pos.y, pos.x] = obstacle_half
        self.layers["climbable"][pos.y, pos.x] = climbable

    def same_as(self, other: Grid) -> bool:
        return (
            self.width == other.width
            and self.height == other.height
            and all(np.array_equal(self.layers[n], other.layers[n]) for n in LAYERS)
        )


# What decides a footprint's kind (`Grid.footprints`), worst last: a cell that cannot be entered
# before one that costs double, fire and cover (what entering does) before open ground.
_ORDER = (Kind.OPEN, Kind.COVER, Kind.FIRE, Kind.DIFFICULT, Kind.PIT, Kind.WALL)
_RANK = np.array([_ORDER.index(kind) for kind in _KINDS], dtype=np.int16)
_BY_RANK = np.array([int(kind) for kind in _ORDER], dtype=np.int16)


def _sliding_max(layer: npt.NDArray[np.generic], side: int, off: int) -> npt.NDArray[np.int64]:
    """The largest value of each `side` x `side` block of `layer` whose top-left is the cell,
    cells off the map counting as `off`."""
    height, width = layer.shape
    padded = np.full((height + side - 1, width + side - 1), off, dtype=np.int64)
    padded[:height, :width] = layer
    out = padded[:height, :width].copy()
    for dy in range(side):
        for dx in range(side):
            np.maximum(out, padded[dy : dy + height, dx : dx + width], out=out)
    return out
