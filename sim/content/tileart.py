"""Tile images of a Tiled map, found and read within limits and measured before they are decoded.

The map editor shows a map's tiles as they look (issue #31). An image is named by a tileset
(one picture the tiles are cut from) or by a tile (a collection of images); it is found
relative to the file that names it and, like every file a map names, only inside the map's
folder tree. It is read through the bounded reader (limits.toml [files] tile_image) and its
width and height are read from its header and held to [tiled] image_pixels before anything
decodes it: a small file that inflates to gigapixels is never opened. Web addresses, missing
files and unknown formats give no picture (the editor draws a swatch) and a reason.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

from sim.content.tmx import Tileset
from sim.core.files import Unreadable, read_bytes
from sim.core.limits import limits


@dataclass(frozen=True, slots=True)
class Picture:
    """A tile's picture: the image file's bytes, its format, and the tile's area in it."""

    path: Path
    data: bytes
    kind: str  # "png", "gif", "bmp", "jpeg": what a decoder is told
    area: tuple[int, int, int, int]  # x, y, width, height


def size_of(data: bytes) -> tuple[str, int, int] | None:
    """The format, width and height an image's header declares (PNG, GIF, BMP, JPEG), or None
    for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return "gif", width, height
    if data.startswith(b"BM") and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return "bmp", abs(width), abs(height)
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[str, int, int] | None:
    """A JPEG's size, from its first start-of-frame marker (the segments before it skipped by
    their lengths: at most one step a segment, so a damaged file ends the walk)."""
    at = 2
    while at + 9 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return "jpeg", width, height
        if length < 2:
            return None
        at += 2 + length
    return None


@dataclass
class TileArt:
    """The pictures of one map's tiles; each image file is read once."""

    map_path: Path
    files: dict[Path, tuple[bytes, str, int, int] | str] = field(default_factory=dict)

    def picture(self, tileset: Tileset, tile: int) -> Picture | str:
        """The picture of `tile` of `tileset`, or why there is none."""
        own = tileset.tiles.get(tile)
        if own is not None and own.image:
            found = self.image(tileset.folder, own.image)
            if isinstance(found, str):
                return found
            data, kind, width, height = found
            return Picture(self._path(tileset.folder, own.image), data, kind, (0, 0, width, height))
        if not tileset.image:
            return "its tileset names no image"
        found = self.image(tileset.folder, tileset.image)
        if isinstance(found, str):
            return found
        data, kind, width, height = found
        tw, th = tileset.tilewidth, tileset.tileheight
        if tw < 1 or th < 1:
            return "its tileset has no tile size"
        margin, spacing = tileset.margin, tileset.spacing
        columns = tileset.columns or max(0, (width - 2 * margin + spacing) // (tw + spacing))
        if columns < 1:
            return "its tileset's image is narrower than a tile"
        x = margin + (tile % columns) * (tw + spacing)
        y = margin + (tile // columns) * (th + spacing)
        if x + tw > width or y + th > height:
            return f"tile {tile} lies outside its tileset's image ({width} × {height} pixels)"
        return Picture(self._path(tileset.folder, tileset.image), data, kind, (x, y, tw, th))

    def _path(self, folder: Path, source: str) -> Path:
        return (folder / source).resolve()

    def image(self, folder: Path, source: str) -> tuple[bytes, str, int, int] | str:
        """An image file's bytes, format and size, or why it cannot be shown."""
        if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", source):
            return f"its image is on the web ({source[:60]}), and nothing is fetched"
        if not source.strip() or Path(source).is_absolute():
            return "its image is not named relative to the map"
        try:
            path = self._path(folder, source)
        except (OSError, RuntimeError, ValueError):
            return "its image's name cannot be looked up"
        if not path.is_relative_to(self.map_path.resolve().parent):
            return "its image is outside the map's folder"
        if path not in self.files:
            self.files[path] = self._read(path)
        return self.files[path]

    def _read(self, path: Path) -> tuple[bytes, str, int, int] | str:
        try:
            data = read_bytes(path, limits().files.tile_image, "a tile image")
        except Unreadable as error:
            return f"its image {path.name}: {error}"
        found = size_of(data)
        if found is None:
            return f"its image {path.name} is not a PNG, GIF, BMP or JPEG"
        kind, width, height = found
        most = limits().tiled.image_pixels
        if width < 1 or height < 1 or width * height > most:
            return f"its image {path.name} is {width} × {height} pixels; at most {most:,} in all"
        return data, kind, width, height
