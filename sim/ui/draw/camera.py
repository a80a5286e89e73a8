"""The board's camera: which cell is where on screen, zoom about a point, pan."""

from __future__ import annotations

import math

from sim.core.geometry import Pos
from sim.ui.look.palette import MAX_CELL, MIN_CELL


class Camera:
    """Cells are `cell` pixels wide; world pixel (0, 0) is at screen (`x`, `y`)."""

    def __init__(self, cell: int = 40, x: float = 0.0, y: float = 0.0) -> None:
        self.cell = cell
        self.x = x
        self.y = y

    def screen(self, pos: Pos) -> tuple[int, int]:
        """Top-left pixel of a cell."""
        return (math.floor(self.x + pos.x * self.cell), math.floor(self.y + pos.y * self.cell))

    def centre(self, pos: Pos) -> tuple[int, int]:
        sx, sy = self.screen(pos)
        half = self.cell // 2
        return sx + half, sy + half

    def cell_at(self, px: float, py: float) -> Pos:
        return Pos(math.floor((px - self.x) / self.cell), math.floor((py - self.y) / self.cell))

    def zoom(self, factor: float, about: tuple[float, float]) -> None:
        new = max(MIN_CELL, min(MAX_CELL, round(self.cell * factor)))
        if new == self.cell and factor != 1:
            new = max(MIN_CELL, min(MAX_CELL, self.cell + (1 if factor > 1 else -1)))
        ax, ay = about
        wx, wy = (ax - self.x) / self.cell, (ay - self.y) / self.cell
        self.cell = new
        self.x = ax - wx * new
        self.y = ay - wy * new

    def pan(self, dx: float, dy: float) -> None:
        self.x += dx
        self.y += dy

    def fit(self, width: int, height: int, view_w: int, view_h: int, margin: int = 16) -> None:
        """Show the whole map of `width` x `height` cells in a view, centred."""
        usable_w, usable_h = max(1, view_w - 2 * margin), max(1, view_h - 2 * margin)
        self.cell = max(MIN_CELL, min(MAX_CELL, min(usable_w // width, usable_h // height)))
        self.x = (view_w - width * self.cell) / 2
        self.y = (view_h - height * self.cell) / 2

    def clamp(self, width: int, height: int, view_w: int, view_h: int) -> None:
        """Keep at least a few cells of the map on screen."""
        keep = 3 * self.cell
        self.x = min(max(self.x, keep - width * self.cell), view_w - keep)
        self.y = min(max(self.y, keep - height * self.cell), view_h - keep)
