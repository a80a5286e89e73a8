"""Tiled's map files (.tmx, .tsx, .tx) read into plain data, every number checked before use.

A map may come from anywhere, so nothing in it is trusted (issue #37): the file is read within
its size limit (sim/core/files.py), parsed within the XML limits (sim/content/xmltree.py),
and each number it declares (cells, tile sizes, layers, tilesets, tiles, objects) is checked
against sim/data/limits.toml before anything is allocated or looped over. Layer data is
decoded to exactly the map's cells: compressed data is inflated to at most width × height × 4
bytes (zlib's `max_length`, gzip through the same bounded inflater) and refused past it. The
files a map names (external tilesets, object templates) are resolved relative to the file that
names them and must be regular files inside the map's folder tree. Every refusal is one
TiledError line naming the file, the place and what to do.

Only what the importer uses is kept: the map's size, properties, tilesets (each tile's class,
properties, image and terrain name), tile layers in drawing order (groups flattened) and object
layers. An infinite map's chunks are put together into the smallest box that holds every tile
drawn. Tile images are named here, never opened (sim/content/tileart.py reads them).
"""

from __future__ import annotations

import base64
import binascii
import bisect
import math
import re
import sys
import zlib
from array import array
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from sim.content import xmltree
from sim.content.tilederror import TiledError
from sim.core.files import Unreadable, read_bytes
from sim.core.limits import Limits, TiledLimits, limits

Value = str | int | float | bool
GID_FLAGS = 0xF0000000  # flipped horizontally, vertically, diagonally, rotated (hexagonal)
_WHOLE = re.compile(r"-?[0-9]{1,19}")
_TEXT_TAGS = frozenset({"data", "chunk", "property"})
# The old XML layer format: one <tile gid=""/> a cell, in a layer's data or an infinite map's chunk.
_PACKED = {"data": ("tile", "gid"), "chunk": ("tile", "gid")}
# Why a map of each other orientation cannot be played on a grid of metre cells.
ORIENTATIONS = {
    "isometric": "an isometric map: its tiles are diamonds seen at an angle, so a cell's "
    "neighbours are not those of a square grid",
    "staggered": "a staggered isometric map: every other row is shifted half a tile, so a cell's "
    "neighbours are not those of a square grid",
    "hexagonal": "a hexagonal map: its cells have six neighbours, and the rules move over square "
    "cells with eight",
}


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile a tileset describes: its class (`type` before Tiled 1.9), properties, and its own
    image (a collection of images; "" in a tileset of one image)."""

    id: int
    cls: str
    properties: dict[str, Value]
    image: str = ""


@dataclass(frozen=True, slots=True)
class Tileset:
    firstgid: int
    name: str
    source: str  # the file it was read from ("" inside the map)
    tiles: dict[int, Tile]
    folder: Path = Path(".")  # what its image names are relative to
    image: str = ""  # the one image its tiles are cut from ("" for a collection of images)
    tilewidth: int = 0
    tileheight: int = 0
    columns: int = 0
    margin: int = 0
    spacing: int = 0
    tilecount: int = 0
    # The names of the terrains (Tiled's terrain types, later its Wang colours) a tile shows,
    # the one covering most of it first: ("Water",) for water, ("Sand", "Water") for a beach.
    terrain: dict[int, tuple[str, ...]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The name the map's kinds file knows it by: its name, else its file's."""
        return self.name or Path(self.source).stem or f"tileset at gid {self.firstgid}"


@dataclass(frozen=True, slots=True)
class TileLayer:
    name: str
    gids: array[int]  # row by row, flip flags included (GID_FLAGS)


@dataclass(frozen=True, slots=True)
class MapObject:
    id: int
    name: str
    cls: str  # its class, `type` before Tiled 1.9, or its template's
    x: float
    y: float
    width: float
    height: float
    gid: int  # a tile object's tile (0: none), flags removed
    properties: dict[str, Value]


@dataclass(frozen=True, slots=True)
class ObjectLayer:
    name: str
    objects: tuple[MapObject, ...]


@dataclass(frozen=True, slots=True)
class _Chunked:
    """An infinite map's tile layer as read: chunks of (x, y, width, height, gids)."""

    name: str
    chunks: tuple[tuple[int, int, int, int, array[int]], ...]
    line: int


@dataclass(frozen=True, slots=True)
class TiledMap:
    path: Path
    width: int
    height: int
    tilewidth: int
    tileheight: int
    properties: dict[str, Value]
    tilesets: tuple[Tileset, ...]  # by firstgid
    layers: tuple[TileLayer | ObjectLayer, ...]  # in drawing order, bottom first
    # An infinite map: the cell of its own coordinates that became [0, 0] here.
    origin: tuple[int, int] = (0, 0)

    def tile(self, gid: int) -> Tile | None:
        """The tile a layer's gid shows (its flip flags ignored), None for 0 or an undescribed
        tile."""
        found = self.locate(gid)
        return None if found is None else found[0].tiles.get(found[1])

    def locate(self, gid: int) -> tuple[Tileset, int] | None:
        """The tileset of a layer's gid and the tile's id in it (flip flags ignored); None for
        0 or a gid below every tileset."""
        gid &= ~GID_FLAGS
        if not gid:
            return None
        index = bisect.bisect_right([t.firstgid for t in self.tilesets], gid) - 1
        if index < 0:
            return None
        tileset = self.tilesets[index]
        return tileset, gid - tileset.firstgid


def read(path: str | Path) -> TiledMap:
    """The Tiled map at `path`. Raises TiledError."""
    return _Reader(Path(path), limits()).read()


def shown(text: str, most: int = 60) -> str:
    """A name from a file, cut for a message: a 300-character name is not repeated whole."""
    return repr(text if len(text) <= most else text[:most] + "…")


@dataclass
class _Reader:
    path: Path
    limits: Limits
    name: str = field(init=False)
    root: Path = field(init=False)  # the map's folder: what it names must be inside it
    tiles: int = 0  # in all the map's tilesets, its own and those in .tsx files
    cells: int = 0
    templates: dict[Path, tuple[dict[str, str], dict[str, Value]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.name = str(self.path)
        self.root = self.path.resolve().parent

    def refuse(self, message: str, line: int | None = None, file: str | None = None) -> TiledError:
        where = f"{file or self.name}:" + (f" line {line}:" if line else "")
        return TiledError(f"{where} {message}")

    # --- files -------------------------------------------------------------------------------

    def document(
        self, path: Path, limit: int, what: str, tag: str, shown_as: str, cited: str = ""
    ) -> xmltree.Element:
        """The root element of the file at `path`, which must be a <tag>. A file that cannot
        be read is named by `cited`, where the map names it, when given."""
        try:
            data = read_bytes(path, limit, what)
        except Unreadable as error:
            raise TiledError(f"{cited or shown_as}: {error}") from None
        tl = self.limits.tiled
        try:
            root = xmltree.parse(
                data,
                xmltree.XmlLimits(
                    tl.xml_depth,
                    tl.xml_elements,
                    tl.text_chars,
                    tl.cells,
                    tl.xml_markup_bytes,
                    _counted(tl),
                ),
                _TEXT_TAGS,
                _PACKED,
            )
        except xmltree.XmlError as error:
            raise TiledError(f"{shown_as}: {error}") from None
        if root.tag != tag:
            raise self.refuse(
                f"the file holds a <{root.tag}>, not the <{tag}> of {what}",
                root.line,
                shown_as,
            )
        return root

    def reference(self, source: str, line: int, what: str) -> Path:
        """The file a `source` attribute of the map names, relative to the map, refused
        unless it is inside the map's folder tree."""
        where = f"{what} source {shown(source)}"
        if not source.strip():
            raise self.refuse(f"{where}: an empty name", line)
        if Path(source).is_absolute() or re.match(r"[A-Za-z]:[\\/]", source):
            raise self.refuse(
                f"{where}: an absolute path; a map may only name files beside it or in "
                "folders below it",
                line,
            )
        try:
            target = (self.path.parent / source).resolve()
        except (OSError, RuntimeError, ValueError) as error:  # too long, a loop of links
            reason = error.strerror if isinstance(error, OSError) else str(error)
            raise self.refuse(f"{where}: cannot be looked up ({reason})", line) from None
        if not target.is_relative_to(self.root):
            raise self.refuse(
                f"{where}: outside the map's folder; a map may only name files beside it or "
                f"in folders below it (copy the {what} next to the map)",
                line,
            )
        return target

    # --- the map -----------------------------------------------------------------------------

    def read(self) -> TiledMap:
        tl = self.limits.tiled
        files = self.limits.files
        root = self.document(self.path, files.tiled_map, "a Tiled map", "map", self.name)
        orientation = root.attrs.get("orientation", "orthogonal")
        if orientation != "orthogonal":
            reason = ORIENTATIONS.get(
                orientation, f"an {shown(orientation)} map, an orientation Tiled does not write"
            )
            raise self.refuse(
                f"{reason}; only orthogonal maps (square tiles seen from above) can be played on "
                "a grid of metre cells: draw it again on a new orthogonal map (File > New > New "
                "Map, Orientation: Orthogonal)"
            )
        infinite = root.attrs.get("infinite", "0").strip() not in ("", "0")
        side = self.limits.map.side
        width = height = 0
        if not infinite:
            width = self.whole(root.attrs, "width", "the map's", root.line)
            height = self.whole(root.attrs, "height", "the map's", root.line)
            if width < 1 or height < 1:
                raise self.refuse(f"{width} × {height} cells; a map needs at least 1 each way")
            if width > side or height > side:
                raise self.refuse(f"{width} × {height} cells; at most {side} each way")
        tile_w = self.whole(root.attrs, "tilewidth", "the map's", root.line)
        tile_h = self.whole(root.attrs, "tileheight", "the map's", root.line)
        if not (1 <= tile_w <= tl.tile_pixels and 1 <= tile_h <= tl.tile_pixels):
            raise self.refuse(
                f"tiles of {tile_w} × {tile_h} pixels; a tile needs 1 to {tl.tile_pixels:,} "
                "pixels each way (Map > Map Properties: Tile Width and Tile Height)"
            )
        # The counts of layers, tilesets and objects were checked as the XML was parsed.
        layers = _layer_elements(root)
        tilesets = sorted(
            (self.tileset(element) for element in root.findall("tileset")),
            key=lambda t: t.firstgid,
        )
        read_layers: list[TileLayer | ObjectLayer | _Chunked] = []
        for element in layers:
            if element.tag == "layer":
                if infinite:
                    read_layers.append(self.chunked_layer(element))
                else:
                    read_layers.append(self.tile_layer(element, width, height))
            elif element.tag == "objectgroup":
                read_layers.append(self.object_layer(element))
        origin = (0, 0)
        if infinite:
            read_layers, (width, height), origin = self.assemble(read_layers, tile_w, tile_h)
        return TiledMap(
            self.path,
            width,
            height,
            tile_w,
            tile_h,
            self.properties(root, self.name),
            tuple(tilesets),
            tuple(layer for layer in read_layers if not isinstance(layer, _Chunked)),
            origin,
        )

    def whole(
        self, attrs: dict[str, str], key: str, what: str, line: int, default: int | None = None
    ) -> int:
        text = attrs.get(key)
        if text is None:
            if default is not None:
                return default
            raise self.refuse(f"{what} {key} is missing; Tiled always writes one", line)
        if not _WHOLE.fullmatch(text.strip()):
            raise self.refuse(f"{what} {key} must be a whole number, not {shown(text, 30)}", line)
        return int(text)

    def decimal(self, attrs: dict[str, str], key: str, what: str, line: int) -> float:
        text = attrs.get(key, "0")
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise self.refuse(f"{what} {key} must be a number, not {shown(text, 30)}", line)
        return value

    def properties(self, element: xmltree.Element, file: str) -> dict[str, Value]:
        """The custom properties of `element`, typed as Tiled types them (int, float, bool;
        any other type, or a value not of its type, stays text)."""
        found: dict[str, Value] = {}
        holder = element.find("properties")
        if holder is None:
            return found
        for prop in holder.findall("property"):
            name = prop.attrs.get("name", "")
            if not name:
                raise self.refuse("a property without a name", prop.line, file)
            kind = prop.attrs.get("type", "string")
            found[name] = _typed(kind, prop.attrs.get("value", prop.text))
        return found

    # --- tilesets ----------------------------------------------------------------------------

    def tileset(self, element: xmltree.Element) -> Tileset:
        line = element.line
        firstgid = self.whole(element.attrs, "firstgid", "a tileset's", line)
        if not 1 <= firstgid <= ~GID_FLAGS & 0xFFFFFFFF:
            raise self.refuse(f"a tileset's firstgid must be 1 or more, not {firstgid}", line)
        source = element.attrs.get("source")
        file, body = self.name, element
        if source is not None:
            path = self.reference(source, line, "tileset")
            if not source.lower().endswith(".tsx"):
                raise self.refuse(
                    f"tileset source {shown(source)}: only .tsx tilesets can be read; in Tiled, "
                    "export the tileset as a .tsx file",
                    line,
                )
            file = str(self.path.parent / source)
            cited = f"{self.name}: line {line}: tileset source {shown(source)}"
            body = self.document(
                path, self.limits.files.tiled_tileset, "a tileset", "tileset", file, cited
            )
        tiles: dict[int, Tile] = {}
        terrain: dict[int, tuple[str, ...]] = {}
        terrains = [t.attrs.get("name", "") for t in _children(body, "terraintypes", "terrain")]
        for tile in body.findall("tile"):
            self.tiles += 1
            if self.tiles > self.limits.tiled.tiles:
                raise self.refuse(
                    f"more than {self.limits.tiled.tiles:,} tiles in the map's tilesets",
                    tile.line,
                    file,
                )
            number = self.whole(tile.attrs, "id", "a tile's", tile.line)
            if number < 0:
                raise self.refuse(f"a tile's id must be 0 or more, not {number}", tile.line, file)
            cls = tile.attrs.get("class") or tile.attrs.get("type", "")
            image = tile.find("image")
            source = image.attrs.get("source", "") if image is not None else ""
            tiles[number] = Tile(number, cls, self.properties(tile, file), source)
            named = _terrains(tile.attrs.get("terrain", ""), terrains, 0)
            if named:
                terrain[number] = named
        for wangset in _children(body, "wangsets", "wangset"):
            colours = [c.attrs.get("name", "") for c in wangset.findall("wangcolor")]
            for wangtile in wangset.findall("wangtile"):
                number_text = wangtile.attrs.get("tileid", "")
                named = _terrains(wangtile.attrs.get("wangid", ""), colours, 1)
                if named and _WHOLE.fullmatch(number_text.strip()):
                    terrain.setdefault(int(number_text), named)
        attrs = body.attrs

        def size(key: str) -> int:
            text = attrs.get(key, "0").strip()
            return int(text) if _WHOLE.fullmatch(text) and 0 <= int(text) < 1 << 31 else 0

        image = body.find("image")
        return Tileset(
            firstgid,
            attrs.get("name", ""),
            source or "",
            tiles,
            folder=Path(file).parent,
            image=image.attrs.get("source", "") if image is not None else "",
            tilewidth=size("tilewidth"),
            tileheight=size("tileheight"),
            columns=size("columns"),
            margin=size("margin"),
            spacing=size("spacing"),
            tilecount=size("tilecount"),
            terrain=terrain,
        )

    # --- layers ------------------------------------------------------------------------------

    def tile_layer(self, element: xmltree.Element, width: int, height: int) -> TileLayer:
        name = element.attrs.get("name", "")
        what = f"layer {shown(name)}"
        line = element.line
        for key, size in (("width", width), ("height", height)):
            given = self.whole(element.attrs, key, f"{what}:", line, default=size)
            if given != size:
                raise self.refuse(
                    f"{what} is {key} {given} but the map is {size}; Tiled writes layers the "
                    "size of their map (save it again in Tiled)",
                    line,
                )
        self.count_cells(width * height, what, line)
        data = element.find("data")
        if data is None:
            raise self.refuse(f"{what} has no <data>", line)
        return TileLayer(name, self.gids(data, width, height, what))

    def chunked_layer(self, element: xmltree.Element) -> _Chunked:
        """An infinite map's tile layer: its chunks, each decoded to its own cells."""
        name = element.attrs.get("name", "")
        what = f"layer {shown(name)}"
        data = element.find("data")
        if data is None:
            raise self.refuse(f"{what} has no <data>", element.line)
        side = self.limits.map.side
        chunks: list[tuple[int, int, int, int, array[int]]] = []
        for chunk in data.findall("chunk"):
            at = f"{what}, the chunk"
            x = self.whole(chunk.attrs, "x", f"{at}'s", chunk.line)
            y = self.whole(chunk.attrs, "y", f"{at}'s", chunk.line)
            w = self.whole(chunk.attrs, "width", f"{at}'s", chunk.line)
            h = self.whole(chunk.attrs, "height", f"{at}'s", chunk.line)
            if not (1 <= w <= side and 1 <= h <= side and abs(x) < 1 << 31 and abs(y) < 1 << 31):
                raise self.refuse(
                    f"{at} at [{x}, {y}] of {w} × {h} cells; a chunk needs 1 to {side} cells "
                    "each way (save the map again in Tiled)",
                    chunk.line,
                )
            self.count_cells(w * h, what, chunk.line)
            chunks.append((x, y, w, h, self.decode(data, chunk, w, h, f"{at} at [{x}, {y}]")))
        return _Chunked(name, tuple(chunks), element.line)

    def assemble(
        self, layers: list[TileLayer | ObjectLayer | _Chunked], tile_w: int, tile_h: int
    ) -> tuple[list[TileLayer | ObjectLayer | _Chunked], tuple[int, int], tuple[int, int]]:
        """An infinite map's layers cut to the smallest box that holds every tile drawn in
        them, its size, and the cell of the map's own coordinates at the box's corner; objects
        are moved with it."""
        box: list[int] = []  # left, top, right, bottom (exclusive)
        for layer in layers:
            if not isinstance(layer, _Chunked):
                continue
            for x, y, w, _, gids in layer.chunks:
                raw = gids.tobytes()  # rows found without a Python loop over cells
                for row in range(len(gids) // w):
                    cells = raw[row * w * 4 : (row + 1) * w * 4]
                    right = len(cells.rstrip(b"\0"))
                    if not right:
                        continue
                    left = (len(cells) - len(cells.lstrip(b"\0"))) // 4
                    found = (x + left, y + row, x + (right + 3) // 4, y + row + 1)
                    box = (
                        list(found)
                        if not box
                        else [
                            min(box[0], found[0]),
                            min(box[1], found[1]),
                            max(box[2], found[2]),
                            max(box[3], found[3]),
                        ]
                    )
        if not box:
            raise self.refuse(
                "an infinite map with no tile drawn in any tile layer; a map needs at least one "
                "cell"
            )
        left, top, right, bottom = box
        width, height = right - left, bottom - top
        side = self.limits.map.side
        if width > side or height > side:
            raise self.refuse(
                f"an infinite map whose tiles cover {width} × {height} cells (from [{left}, "
                f"{top}] to [{right - 1}, {bottom - 1}]); at most {side} each way: erase what "
                "lies beyond the battlefield"
            )
        tile_layers = sum(isinstance(layer, _Chunked) for layer in layers)
        most = self.limits.tiled.cells
        if tile_layers * width * height > most:
            raise self.refuse(
                f"{tile_layers} tile layers of {width} × {height} cells; at most {most:,} cells "
                "in all"
            )
        shifted: list[TileLayer | ObjectLayer | _Chunked] = []
        for layer in layers:
            if isinstance(layer, _Chunked):
                shifted.append(TileLayer(layer.name, _placed(layer, box)))
            elif isinstance(layer, ObjectLayer):
                dx, dy = left * tile_w, top * tile_h
                objects = tuple(replace(o, x=o.x - dx, y=o.y - dy) for o in layer.objects)
                shifted.append(ObjectLayer(layer.name, objects))
        return shifted, (width, height), (left, top)

    def count_cells(self, cells: int, what: str, line: int) -> None:
        self.cells += cells
        if self.cells > self.limits.tiled.cells:
            raise self.refuse(
                f"{what}: tile layers of more than {self.limits.tiled.cells:,} cells in all",
                line,
            )

    def gids(self, data: xmltree.Element, width: int, height: int, what: str) -> array[int]:
        if data.find("chunk") is not None:
            raise self.refuse(
                f"{what} is in chunks, as an infinite map's are, but the map is not infinite; "
                "the map is damaged (save it again in Tiled)",
                data.line,
            )
        return self.decode(data, data, width, height, what)

    def decode(
        self, data: xmltree.Element, holder: xmltree.Element, width: int, height: int, what: str
    ) -> array[int]:
        """The tiles of `holder` (a layer's <data>, or a chunk in it) in the encoding its
        <data> names: exactly `width` × `height` of them."""
        cells = width * height
        line = holder.line
        encoding = data.attrs.get("encoding")
        compression = data.attrs.get("compression", "")
        if encoding is None:
            assert holder.packed is not None  # xmltree packs every <data>'s and <chunk>'s tiles
            gids = holder.packed
        elif encoding == "csv":
            if compression:
                message = f"{what}: CSV data cannot be {shown(compression)}-compressed"
                raise self.refuse(message, line)
            text = holder.text
            count = text.count(",") + 1 if text.strip() else 0
            if count != cells:
                raise self.refuse(
                    f"{what} has {count:,} tiles for {width} × {height} cells; the layer is "
                    "damaged (save it again in Tiled)",
                    line,
                )
            try:
                gids = array("I", map(int, text.split(",")))
            except (ValueError, OverflowError):
                raise self.refuse(
                    f"{what}: the CSV data holds something other than tile numbers "
                    f"(0 to {0xFFFFFFFF})",
                    line,
                ) from None
        elif encoding == "base64":
            gids = self.binary(holder, cells, compression, what)
        else:
            raise self.refuse(
                f"{what}: unknown data encoding {shown(encoding)}; Tiled writes csv or base64",
                line,
            )
        if len(gids) != cells:
            raise self.refuse(
                f"{what} has {len(gids):,} tiles for {width} × {height} cells; the layer is "
                "damaged (save it again in Tiled)",
                line,
            )
        return gids

    def binary(self, data: xmltree.Element, cells: int, compression: str, what: str) -> array[int]:
        """Base64 layer data, inflated to at most `cells` × 4 bytes."""
        line = data.line
        size = cells * 4
        try:
            raw = base64.b64decode(data.text.strip())
        except (binascii.Error, ValueError):
            raise self.refuse(f"{what}: the base64 data is damaged", line) from None
        if compression in ("zlib", "gzip"):
            # wbits 15: a zlib stream; 31: a gzip member. Either is inflated one bounded call.
            inflater = zlib.decompressobj(15 if compression == "zlib" else 31)
            try:
                payload = inflater.decompress(raw, size + 1)
            except zlib.error as error:
                message = f"{what}: the {compression} data is damaged ({error})"
                raise self.refuse(message, line) from None
            if len(payload) > size:
                raise self.refuse(
                    f"{what}: the {compression} data inflates to more than {size:,} bytes, the "
                    f"most {cells:,} cells need; the layer is damaged (or a bomb)",
                    line,
                )
            if not inflater.eof:
                raise self.refuse(f"{what}: the {compression} data is cut short", line)
        elif compression == "zstd":
            payload = self.unzstd(raw, size, what, line)
        elif compression:
            raise self.refuse(
                f"{what}: {shown(compression)} compression cannot be read here; in Tiled, set "
                "Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib)",
                line,
            )
        else:
            payload = raw
        if len(payload) != size:
            raise self.refuse(
                f"{what} has {len(payload):,} bytes of tiles for {cells:,} cells ({size:,} "
                "expected); the layer is damaged (save it again in Tiled)",
                line,
            )
        gids = array("I")
        gids.frombytes(payload)
        if sys.byteorder == "big":  # Tiled's numbers are little-endian
            gids.byteswap()
        return gids

    def unzstd(self, raw: bytes, size: int, what: str, line: int) -> bytes:
        """zstd layer data, read as a stream up to `size` + 1 bytes (a frame may declare any
        size; only what is read counts). Python 3.11 has no zstd: the `zstandard` package does
        it where it is installed (the `tiled` extra)."""
        try:
            import zstandard
        except ImportError:
            raise self.refuse(
                f"{what}: zstd compression needs the zstandard package (pip install "
                "zstandard); or in Tiled, set Map > Map Properties > Tile Layer Format to CSV or "
                "Base64 (zlib)",
                line,
            ) from None
        try:
            with zstandard.ZstdDecompressor().stream_reader(raw) as stream:
                payload = stream.read(size + 1)
                more = stream.read(1) if len(payload) <= size else b""
        except zstandard.ZstdError as error:
            raise self.refuse(f"{what}: the zstd data is damaged ({error})", line) from None
        if len(payload) > size or more:
            raise self.refuse(
                f"{what}: the zstd data inflates to more than {size:,} bytes, the most "
                f"{size // 4:,} cells need; the layer is damaged (or a bomb)",
                line,
            )
        return payload

    # --- objects -----------------------------------------------------------------------------

    def object_layer(self, element: xmltree.Element) -> ObjectLayer:
        name = element.attrs.get("name", "")
        objects: list[MapObject] = []
        for obj in element.findall("object"):
            attrs: dict[str, str] = {}
            props: dict[str, Value] = {}
            if "template" in obj.attrs:
                attrs, props = self.template(obj.attrs["template"], obj.line)
            attrs = {**attrs, **obj.attrs}
            props = {**props, **self.properties(obj, self.name)}
            what = f"layer {shown(name)}, object {shown(attrs.get('name') or attrs.get('id', ''))}:"
            gid = self.whole(attrs, "gid", what, obj.line, default=0)
            objects.append(
                MapObject(
                    id=self.whole(attrs, "id", what, obj.line, default=0),
                    name=attrs.get("name", ""),
                    cls=attrs.get("class") or attrs.get("type", ""),
                    x=self.decimal(attrs, "x", what, obj.line),
                    y=self.decimal(attrs, "y", what, obj.line),
                    width=self.decimal(attrs, "width", what, obj.line),
                    height=self.decimal(attrs, "height", what, obj.line),
                    gid=gid & ~GID_FLAGS if gid > 0 else 0,
                    properties=props,
                )
            )
        return ObjectLayer(name, tuple(objects))

    def template(self, source: str, line: int) -> tuple[dict[str, str], dict[str, Value]]:
        """An object template's object: the attributes and properties an object that names it
        starts from. Each template file is read once."""
        path = self.reference(source, line, "template")
        if path not in self.templates:
            shown_as = str(self.path.parent / source)
            cited = f"{self.name}: line {line}: template {shown(source)}"
            root = self.document(
                path,
                self.limits.files.tiled_template,
                "an object template",
                "template",
                shown_as,
                cited,
            )
            obj = root.find("object")
            if obj is None:
                raise self.refuse("the template holds no <object>", root.line, shown_as)
            self.templates[path] = (
                {k: v for k, v in obj.attrs.items() if k not in ("id", "x", "y", "template")},
                self.properties(obj, shown_as),
            )
        return self.templates[path]


LAYER_TAGS = ("layer", "objectgroup", "imagelayer", "group")


def _counted(tl: TiledLimits) -> dict[tuple[str, str], tuple[str, int]]:
    """What the XML parser counts, by parent and tag, and the limit of each count: a map of
    3,000 layers is refused at its 257th, before the rest is parsed."""
    counted = {
        (parent, tag): ("layers", tl.layers) for parent in ("map", "group") for tag in LAYER_TAGS
    }
    counted[("map", "tileset")] = ("tilesets", tl.tilesets)
    counted[("tileset", "tile")] = ("tiles", tl.tiles)
    counted[("objectgroup", "object")] = ("objects", tl.objects)
    return counted


def _layer_elements(root: xmltree.Element) -> list[xmltree.Element]:
    """Every layer of the map in drawing order, the layers of groups in their place; groups
    and image layers are counted among them (the limit is on layers of any kind)."""
    found: list[xmltree.Element] = []
    stack = [iter(root.children)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        if child.tag in LAYER_TAGS:
            found.append(child)
        if child.tag == "group":
            stack.append(iter(child.children))
    return found


def _placed(layer: _Chunked, box: list[int]) -> array[int]:
    """A chunked layer's tiles in the cells of `box` (left, top, right, bottom), row by row; a
    later chunk over an earlier one wins, as in Tiled."""
    left, top, right, bottom = box
    width = right - left
    cells = array("I", bytes(4 * width * (bottom - top)))
    for x, y, w, h, gids in layer.chunks:
        start, stop = max(x, left), min(x + w, right)
        if start >= stop:
            continue
        for row in range(max(y, top), min(y + h, bottom)):
            into = (row - top) * width + start - left
            source = (row - y) * w + start - x
            cells[into : into + stop - start] = gids[source : source + stop - start]
    return cells


def _children(element: xmltree.Element, holder: str, tag: str) -> list[xmltree.Element]:
    """The <tag> elements inside `element`'s <holder>s."""
    return [child for box in element.findall(holder) for child in box.findall(tag)]


def _terrains(corners: str, names: list[str], first: int) -> tuple[str, ...]:
    """The names of the terrains a tile shows, the one covering most of it first: old terrain
    types (`first` 0) list a tile's four corners ("" for none); a Wang set (`first` 1) lists
    eight edges and corners (0 for none)."""
    parts = [p.strip() for p in corners.split(",")]
    if len(parts) not in (4, 8) or not all(_WHOLE.fullmatch(p) for p in parts if p):
        return ()
    numbers = [int(p) - first for p in parts if p]
    counts = Counter(n for n in numbers if 0 <= n < len(names))
    return tuple(names[n] for n, _ in counts.most_common() if names[n])


def _typed(kind: str, text: str) -> Value:
    """A property's value as Tiled types it; a value not of its type stays text, for the
    importer to refuse with the property's name."""
    if kind == "int" and _WHOLE.fullmatch(text.strip()):
        return int(text)
    if kind == "float":
        try:
            number = float(text)
        except ValueError:
            return text
        return number if math.isfinite(number) else text
    if kind == "bool" and text in ("true", "false"):
        return text == "true"
    return text
