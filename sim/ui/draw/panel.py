"""What the drawn panels share: the fonts and the sizes of one UI scale, the clickable
rectangles of a frame, a cell's rectangle on screen, drawing whole lines above a floor, and
the scene whose answers they draw (sim/ui/model/scene.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import pygame

from sim.core.geometry import Pos
from sim.ui.draw.camera import Camera
from sim.ui.draw.text import Fonts
from sim.ui.look.metrics import Metrics
from sim.ui.model.scene import Memo, Scene

T = TypeVar("T")


@dataclass
class Hits:
    """Clickable rectangles of the last frame: (rect, kind, value)."""

    items: list[tuple[pygame.Rect, str, str]] = field(default_factory=list)

    def add(self, rect: pygame.Rect, kind: str, value: str) -> None:
        self.items.append((rect, kind, value))

    def at(self, pos: tuple[int, int]) -> tuple[str, str] | None:
        for rect, kind, value in reversed(self.items):
            if rect.collidepoint(pos):
                return kind, value
        return None


def cell_rect(camera: Camera, cell: Pos) -> pygame.Rect:
    return pygame.Rect(*camera.screen(cell), camera.cell, camera.cell)


class Panel:
    """A part of the window that draws the scene's answers; `hits` is the frame's, shared by
    every panel, and `memo` keeps what it measured (wrapped lines, places)."""

    def __init__(self, fonts: Fonts, metrics: Metrics, scene: Scene) -> None:
        self.fonts = fonts
        self.m = metrics
        self.scene = scene
        self.hits = Hits()
        self.memo = Memo()

    def floored(self, floor: int, draw: Callable[[], T]) -> T:
        """Draw lines that may outrun their room (a short window, a large scale): those that
        do not fit above `floor` are left out whole."""
        self.fonts.floor = floor
        try:
            return draw()
        finally:
            self.fonts.floor = None
