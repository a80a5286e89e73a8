"""A Tiled map's tiles drawn for the map editor's palette: each tile's own picture where its
image is at hand (read within limits by sim/content/tileart.py, measured before it is decoded),
else a swatch of a colour of its own with its id, and under either the letter of its kind."""

from __future__ import annotations

import io
import zlib
from collections.abc import Mapping

import pygame

from sim.content import mapedit as me
from sim.content import tilekinds as tk
from sim.content import tmx
from sim.content.tileart import Picture, TileArt
from sim.content.tiled import TileUse
from sim.content.tmx import Tileset
from sim.core.geometry import Pos
from sim.core.grid import KIND_NAMES, Kind
from sim.ui.draw.camera import Camera
from sim.ui.draw.text import Fonts
from sim.ui.look import palette as pal

KIND_COLOURS = {
    Kind.OPEN: pal.OPEN,
    Kind.DIFFICULT: pal.DIFFICULT,
    Kind.WALL: pal.WALL,
    Kind.PIT: pal.PIT,
    Kind.FIRE: pal.FIRE,
    Kind.COVER: pal.COVER,
}


def swatch_colour(tileset: str, tile: int) -> pal.RGB:
    """A colour of the tile's own, the same every time (from its name's checksum)."""
    mixed = zlib.crc32(f"{tileset}\x00{tile}".encode())
    return (80 + mixed % 150, 80 + (mixed >> 8) % 150, 80 + (mixed >> 16) % 150)


class TileSheet:
    """Thumbnails of a map's tiles, decoded once each image file and kept at one size."""

    def __init__(self, art: TileArt, fonts: Fonts) -> None:
        self.art = art
        self.fonts = fonts
        self._images: dict[object, pygame.Surface | None] = {}
        self._thumbs: dict[tuple[str, int, int], pygame.Surface] = {}
        # The board's tiles at the camera's cell size, flips applied; emptied when it zooms.
        self._board: tuple[int, dict[tuple[int, int], pygame.Surface]] = (0, {})
        self.reasons: dict[tuple[str, int], str] = {}  # why a tile shows a swatch

    def _decoded(self, picture: Picture) -> pygame.Surface | None:
        key = picture.path
        if key not in self._images:
            try:
                self._images[key] = pygame.image.load(
                    io.BytesIO(picture.data), f"tile.{picture.kind}"
                )
            except (pygame.error, ValueError):
                self._images[key] = None
        return self._images[key]

    def thumb(self, tileset: Tileset, tile: int, size: int) -> pygame.Surface:
        """The tile at `size` pixels square."""
        key = (tileset.label, tile, size)
        if key not in self._thumbs:
            self._thumbs[key] = self._make(tileset, tile, size)
        return self._thumbs[key]

    def _make(self, tileset: Tileset, tile: int, size: int) -> pygame.Surface:
        found = self.art.picture(tileset, tile)
        image = None
        if isinstance(found, Picture):
            image = self._decoded(found)
            if image is None:
                found = "its image could not be decoded"
        if image is not None and isinstance(found, Picture):
            x, y, w, h = found.area
            cut = image.subsurface(pygame.Rect(x, y, w, h))
            if cut.get_bitsize() >= 24:  # smoothscale takes 24- and 32-bit pictures only
                return pygame.transform.smoothscale(cut, (size, size))
            return pygame.transform.scale(cut, (size, size))
        self.reasons[(tileset.label, tile)] = str(found)
        surface = pygame.Surface((size, size))
        colour = swatch_colour(tileset.label, tile)
        surface.fill(colour)
        self.fonts.draw(surface, str(tile), (size // 2, size // 2), max(10, size // 2),
                        pal.ink_on(colour), anchor="center")  # fmt: skip
        return surface

    def draw(
        self,
        target: pygame.Surface,
        tileset: Tileset,
        tile: int,
        entry: tk.Entry | None,
        rect: pygame.Rect,
        selected: bool,
    ) -> None:
        """The tile's thumbnail in `rect`, a strip of its kind's colour under it with the
        kind's initial (never told by colour alone), outlined when selected."""
        strip = max(6, rect.height // 4)
        picture = self.thumb(tileset, tile, min(rect.width, rect.height - strip))
        target.blit(picture, picture.get_rect(midtop=rect.midtop))
        band = pygame.Rect(rect.x, rect.bottom - strip, rect.width, strip)
        if entry is None or entry.kind is None:
            pygame.draw.rect(target, pal.PANEL_LIGHT, band)
            letter = "~" if entry is not None and entry.depth else "-"
            colour = pal.PANEL_LIGHT
        else:
            colour = KIND_COLOURS[entry.kind]
            pygame.draw.rect(target, colour, band)
            letter = KIND_NAMES[entry.kind][0].upper()
        if entry is not None and (entry.depth or entry.height):
            letter += "~" if entry.depth else "^"
        self.fonts.draw(target, letter, band.center, max(9, strip + 2), pal.ink_on(colour),
                        bold=True, anchor="center")  # fmt: skip
        if selected:
            pygame.draw.rect(target, pal.HIGHLIGHT, rect.inflate(4, 4), 2)

    def draw_art(
        self,
        target: pygame.Surface,
        camera: Camera,
        board: pygame.Rect,
        tiled: tmx.TiledMap,
        uses: Mapping[int, TileUse],
    ) -> None:
        """The map as Tiled draws it, every tile layer bottom first (flips applied), in the
        cells the board shows."""
        size = camera.cell
        if size < 4:
            return
        if self._board[0] != size:
            self._board = (size, {})
        cache = self._board[1]
        first = camera.cell_at(board.left, board.top)
        last = camera.cell_at(board.right - 1, board.bottom - 1)
        xs = range(max(0, first.x), min(tiled.width - 1, last.x) + 1)
        ys = range(max(0, first.y), min(tiled.height - 1, last.y) + 1)
        for layer in tiled.layers:
            if not isinstance(layer, tmx.TileLayer):
                continue
            for y in ys:
                row = y * tiled.width
                for x in xs:
                    gid = layer.gids[row + x]
                    if not gid:
                        continue
                    picture = cache.get((gid, size))
                    if picture is None:
                        use = uses.get(gid & ~tmx.GID_FLAGS)
                        if use is None or use.tileset is None:
                            continue
                        picture = _flipped(self.thumb(use.tileset, use.tile, size), gid)
                        cache[(gid, size)] = picture
                    target.blit(picture, camera.screen(Pos(x, y)))

    def draw_kinds(
        self, target: pygame.Surface, camera: Camera, board: pygame.Rect, terrain: me.Rows
    ) -> None:
        """What the tiles made of each cell the board shows, as a badge in its corner: the
        kind's colour and initial, ~ for water, ^ for raised ground (open ground unmarked)."""
        size = camera.cell
        if size < 10:
            return
        badge = max(8, size // 3)
        first = camera.cell_at(board.left, board.top)
        last = camera.cell_at(board.right - 1, board.bottom - 1)
        for y in range(max(0, first.y), min(len(terrain) - 1, last.y) + 1):
            row = terrain[y]
            for x in range(max(0, first.x), min(len(row) - 1, last.x) + 1):
                t = row[x]
                if t.kind is Kind.OPEN and not t.water and not t.height and not t.obstacle:
                    continue
                letter = KIND_NAMES[t.kind][0].upper() if t.kind is not Kind.OPEN else ""
                letter += "~" if t.water else "^" if t.height else ""
                colour = pal.WATER if t.kind is Kind.OPEN and t.water else KIND_COLOURS[t.kind]
                sx, sy = camera.screen(Pos(x, y))
                box = pygame.Rect(sx + 1, sy + 1, badge + (badge // 2) * (len(letter) - 1), badge)
                pygame.draw.rect(target, colour, box)
                pygame.draw.rect(target, pal.BLACK, box, 1)
                self.fonts.draw(target, letter, box.center, badge + 2, pal.ink_on(colour),
                                bold=True, anchor="center")  # fmt: skip


def _flipped(picture: pygame.Surface, gid: int) -> pygame.Surface:
    """A tile as a flipped gid shows it: diagonally (transposed), then across, then down."""
    if gid & 0x20000000:
        picture = pygame.transform.rotate(pygame.transform.flip(picture, True, False), 90)
    across, down = bool(gid & 0x80000000), bool(gid & 0x40000000)
    return pygame.transform.flip(picture, across, down) if across or down else picture
