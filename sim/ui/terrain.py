"""The static terrain layer: drawn once per zoom level in chunks of cells and cached.

Each kind of ground has a pattern as well as a colour (difficult ground dotted, walls bricked,
pits hollow, fire zigzagged, cover hatched); water is shaded by depth and rippled; ground height
lightens or darkens the cell and is labelled; ledges are thick edges labelled with their drop;
low obstacles are a raised block with their height; climbable faces carry rungs.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pygame

from sim.geometry import Pos
from sim.grid import Grid, Kind
from sim.ui import palette as pal
from sim.ui.camera import Camera
from sim.ui.palette import RGB
from sim.ui.text import Fonts

CHUNK = 16  # cells per chunk side
MAX_CHUNKS = 160
LEDGE_HALF = 2  # a rise of 1 m or more between neighbours is drawn as a ledge


def _shade(colour: RGB, height_half: int) -> RGB:
    """Higher ground is lighter, lower ground darker."""
    f = max(-0.45, min(0.45, 0.07 * height_half))
    if f >= 0:
        return tuple(round(c + (255 - c) * f) for c in colour)  # type: ignore[return-value]
    return tuple(round(c * (1 + f)) for c in colour)  # type: ignore[return-value]


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def metres_label(half: int) -> str:
    """
    >>> metres_label(3), metres_label(-4), metres_label(2)
    ('1.5', '-2', '1')
    """
    m = half / 2
    return f"{m:g}"


class TerrainLayer:
    """Terrain tiles and chunks for one grid, cached by cell size."""

    def __init__(self, grid: Grid, fonts: Fonts) -> None:
        self.grid = grid
        self.fonts = fonts
        self._tiles: dict[tuple[int, ...], pygame.Surface] = {}
        self._chunks: OrderedDict[tuple[int, int, int], pygame.Surface] = OrderedDict()
        layers = grid.layers
        self.kind = np.asarray(layers["kind"])
        self.height = np.asarray(layers["height"])
        self.water = np.asarray(layers["water"])
        self.obstacle = np.asarray(layers["obstacle"])
        self.climbable = np.asarray(layers["climbable"])

    # --- tiles: one per distinct cell look, per size -------------------------------------
    def tile(self, size: int, kind: int, height: int, water: int, obstacle: int, climb: bool):  # type: ignore[no-untyped-def]
        key = (size, kind, height, water, obstacle, int(climb))
        found = self._tiles.get(key)
        if found is None:
            found = self._make_tile(size, Kind(kind), height, water, obstacle, climb)
            if len(self._tiles) > 2000:
                self._tiles.clear()
            self._tiles[key] = found
        return found

    def _make_tile(
        self, c: int, kind: Kind, height: int, water: int, obstacle: int, climb: bool
    ) -> pygame.Surface:
        s = pygame.Surface((c, c))
        base = {
            Kind.OPEN: pal.OPEN,
            Kind.DIFFICULT: pal.DIFFICULT,
            Kind.WALL: pal.WALL,
            Kind.PIT: pal.PIT,
            Kind.FIRE: pal.FIRE,
            Kind.COVER: pal.COVER,
        }[kind]
        s.fill(_shade(base, height) if kind not in (Kind.WALL, Kind.PIT) else base)
        step = max(4, c // 5)
        w = max(1, c // 24)
        if kind is Kind.DIFFICULT:
            r = max(1, c // 16)
            for y in range(step // 2, c, step):
                for x in range(step // 2 + (y // step % 2) * step // 2, c, step):
                    pygame.draw.circle(s, pal.DIFFICULT_MARK, (x, y), r)
        elif kind is Kind.WALL:
            brick = max(3, c // 3)
            for y in range(0, c, brick):
                pygame.draw.line(s, pal.WALL_MARK, (0, y), (c, y), w)
                off = (y // brick % 2) * brick // 2
                for x in range(off, c, brick):
                    pygame.draw.line(s, pal.WALL_MARK, (x, y), (x, y + brick), w)
        elif kind is Kind.PIT:
            inset = max(1, c // 6)
            pygame.draw.rect(s, pal.PIT_MARK, (inset, inset, c - 2 * inset, c - 2 * inset), w)
            pygame.draw.line(s, pal.PIT_MARK, (inset, inset), (c - inset, c - inset), w)
            pygame.draw.line(s, pal.PIT_MARK, (c - inset, inset), (inset, c - inset), w)
        elif kind is Kind.FIRE:
            for y in range(step // 2, c, step):
                points = [
                    (x, y + (step // 3 if (x // step) % 2 else -step // 3))
                    for x in range(0, c + step, step)
                ]
                pygame.draw.lines(s, pal.FIRE_MARK, False, points, max(1, c // 16))
        elif kind is Kind.COVER:
            for k in range(-c, c, step):
                pygame.draw.line(s, pal.COVER_MARK, (k, c), (k + c, 0), w)
        if water > 0:
            depth = min(0.85, 0.3 + 0.12 * water)
            veil = pygame.Surface((c, c), pygame.SRCALPHA)
            veil.fill((*pal.WATER, round(255 * depth)))
            s.blit(veil, (0, 0))
            wave = _mix(pal.WATER, pal.WHITE, 0.55)
            amp = max(1, c // 14)
            for y in range(step // 2, c, step):
                points = [
                    (x, y + (amp if (x // max(2, step // 2)) % 2 else -amp))
                    for x in range(0, c + step, max(2, step // 2))
                ]
                pygame.draw.lines(s, wave, False, points, 1)
        if obstacle > 0:
            inset = max(2, c // 4)
            rect = pygame.Rect(inset, inset, c - 2 * inset, c - 2 * inset)
            pygame.draw.rect(s, pal.OBSTACLE, rect)
            pygame.draw.rect(s, pal.BLACK, rect, max(1, c // 20))
        if climb:
            for x in (max(1, c // 8), c - max(2, c // 8)):
                for y in range(step // 2, c, step):
                    pygame.draw.line(
                        s, pal.BLACK, (x - max(1, c // 16), y), (x + max(1, c // 16), y), w
                    )
        if c >= 26:
            small = max(10, c // 3)
            if height:
                self._label(s, f"h{metres_label(height)}", (2, c - 2), small, "bottomleft")
            if water:
                self._label(s, f"~{metres_label(water)}", (c - 2, c - 2), small, "bottomright")
            if obstacle:
                self._label(s, f"ob{metres_label(obstacle)}", (c // 2, c // 2), small, "center")
        return s

    def _label(
        self, s: pygame.Surface, text: str, pos: tuple[int, int], size: int, anchor: str
    ) -> None:
        ink = self.fonts.render(text, size, pal.BLACK)
        rect = ink.get_rect(**{anchor: pos})
        back = pygame.Surface(rect.inflate(2, 0).size, pygame.SRCALPHA)
        back.fill((255, 255, 255, 170))
        s.blit(back, rect.inflate(2, 0))
        s.blit(ink, rect)

    # --- chunks ------------------------------------------------------------------------------
    def chunk(self, cx: int, cy: int, c: int) -> pygame.Surface:
        key = (cx, cy, c)
        found = self._chunks.get(key)
        if found is not None:
            self._chunks.move_to_end(key)
            return found
        found = self._make_chunk(cx, cy, c)
        self._chunks[key] = found
        while len(self._chunks) > MAX_CHUNKS:
            self._chunks.popitem(last=False)
        return found

    def _make_chunk(self, cx: int, cy: int, c: int) -> pygame.Surface:
        g = self.grid
        x0, y0 = cx * CHUNK, cy * CHUNK
        x1, y1 = min(g.width, x0 + CHUNK), min(g.height, y0 + CHUNK)
        s = pygame.Surface(((x1 - x0) * c, (y1 - y0) * c))
        k, h, wt, ob, cl = self.kind, self.height, self.water, self.obstacle, self.climbable
        blits = []
        for y in range(y0, y1):
            for x in range(x0, x1):
                tile = self.tile(
                    c, int(k[y, x]), int(h[y, x]), int(wt[y, x]), int(ob[y, x]), bool(cl[y, x])
                )
                blits.append((tile, ((x - x0) * c, (y - y0) * c)))
        s.blits(blits, doreturn=False)
        # The grid: thin lines, dark enough to read on every ground, thinner when zoomed out.
        grid_colour = pal.GRID if c >= 12 else _mix(pal.GRID, pal.OPEN, 0.4)
        for x in range(x1 - x0 + 1):
            pygame.draw.line(s, grid_colour, (x * c, 0), (x * c, (y1 - y0) * c))
        for y in range(y1 - y0 + 1):
            pygame.draw.line(s, grid_colour, (0, y * c), ((x1 - x0) * c, y * c))
        self._ledges(s, x0, y0, x1, y1, c)
        return s

    def _ledges(self, s: pygame.Surface, x0: int, y0: int, x1: int, y1: int, c: int) -> None:
        """Thick edges where neighbouring ground differs by 1 m or more, labelled with the rise."""
        h = self.height
        g = self.grid
        thick = max(2, c // 8)
        labels = c >= 30
        for y in range(y0, y1):
            for x in range(x0, x1):
                here = int(h[y, x])
                for dx, dy in ((1, 0), (0, 1)):
                    nx, ny = x + dx, y + dy
                    if nx >= g.width or ny >= g.height:
                        continue
                    diff = int(h[ny, nx]) - here
                    if abs(diff) < LEDGE_HALF:
                        continue
                    px, py = (x - x0) * c, (y - y0) * c
                    if dx:
                        a, b = (px + c, py), (px + c, py + c)
                    else:
                        a, b = (px, py + c), (px + c, py + c)
                    pygame.draw.line(s, pal.LEDGE, a, b, thick)
                    if labels:
                        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
                        self._label(
                            s, f"{metres_label(abs(diff))}m", mid, max(10, c // 3), "center"
                        )

    def draw(self, target: pygame.Surface, camera: Camera, view: pygame.Rect) -> None:
        """Blit the chunks that show in `view` (a rect of `target`)."""
        c = camera.cell
        g = self.grid
        span = CHUNK * c
        first_x = max(0, int((view.left - camera.x) // span))
        first_y = max(0, int((view.top - camera.y) // span))
        last_x = min((g.width - 1) // CHUNK, int((view.right - camera.x) // span))
        last_y = min((g.height - 1) // CHUNK, int((view.bottom - camera.y) // span))
        blits = []
        for cy in range(first_y, last_y + 1):
            for cx in range(first_x, last_x + 1):
                sx, sy = camera.screen(Pos(cx * CHUNK, cy * CHUNK))
                blits.append((self.chunk(cx, cy, c), (sx, sy)))
        target.blits(blits, doreturn=False)
