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

Only what the importer uses is kept: the map's size, properties, tilesets (each tile's class
and properties), tile layers in drawing order (groups flattened) and object layers. Tile
images are never opened.
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
from dataclasses import dataclass, field
from pathlib import Path

from sim.content import xmltree
from sim.core.files import Unreadable, read_bytes
from sim.core.limits import Limits, TiledLimits, limits

Value = str | int | float | bool
GID_FLAGS = 0xF0000000  # flipped horizontally, vertically, diagonally, rotated (hexagonal)
_WHOLE = re.compile(r"-?[0-9]{1,19}")
_TEXT_TAGS = frozenset({"data", "chunk", "property"})
_PACKED = {"data": ("tile", "gid")}  # the old XML layer format: one <tile gid=""/> a cell


class TiledError(Exception):
    """A Tiled map that cannot be imported, with every problem found (one a line)."""


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile a tileset describes: its class (`type` before Tiled 1.9) and properties."""

    id: int
    cls: str
    properties: dict[str, Value]


@dataclass(frozen=True, slots=True)
class Tileset:
    firstgid: int
    name: str
    source: str  # the file it was read from ("" inside the map)
    tiles: dict[int, Tile]


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
class TiledMap:
    path: Path
    width: int
    height: int
    tilewidth: int
    tileheight: int
    properties: dict[str, Value]
    tilesets: tuple[Tileset, ...]  # by firstgid
    layers: tuple[TileLayer | ObjectLayer, ...]  # in drawing order, bottom first

    def tile(self, gid: int) -> Tile | None:
        """The tile a layer's gid shows (its flip flags ignored), None for 0 or an undescribed
        tile."""
        gid &= ~GID_FLAGS
        if not gid:
            return None
        index = bisect.bisect_right([t.firstgid for t in self.tilesets], gid) - 1
        if index < 0:
            return None
        tileset = self.tilesets[index]
        return tileset.tiles.get(gid - tileset.firstgid)


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
            raise self.refuse(
                f"an {shown(orientation)} map; only orthogonal maps (square tiles) can be "
                "played on a grid of metre cells"
            )
        if root.attrs.get("infinite", "0") != "0":
            raise self.refuse(
                "an infinite map, which cannot be imported yet; in Tiled, untick Infinite in "
                "Map > Map Properties and save it again"
            )
        width = self.whole(root.attrs, "width", "the map's", root.line)
        height = self.whole(root.attrs, "height", "the map's", root.line)
        side = self.limits.map.side
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
        read_layers: list[TileLayer | ObjectLayer] = []
        for element in layers:
            if element.tag == "layer":
                read_layers.append(self.tile_layer(element, width, height))
            elif element.tag == "objectgroup":
                read_layers.append(self.object_layer(element))
        return TiledMap(
            self.path,
            width,
            height,
            tile_w,
            tile_h,
            self.properties(root, self.name),
            tuple(tilesets),
            tuple(read_layers),
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
            tiles[number] = Tile(number, cls, self.properties(tile, file))
        return Tileset(firstgid, body.attrs.get("name", ""), source or "", tiles)

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
        cells = width * height
        self.cells += cells
        if self.cells > self.limits.tiled.cells:
            raise self.refuse(
                f"{what}: tile layers of more than {self.limits.tiled.cells:,} cells in all",
                line,
            )
        data = element.find("data")
        if data is None:
            raise self.refuse(f"{what} has no <data>", line)
        return TileLayer(name, self.gids(data, width, height, what))

    def gids(self, data: xmltree.Element, width: int, height: int, what: str) -> array[int]:
        cells = width * height
        line = data.line
        encoding = data.attrs.get("encoding")
        compression = data.attrs.get("compression", "")
        if data.find("chunk") is not None:
            raise self.refuse(
                f"{what} is in chunks, as an infinite map's are; in Tiled, untick Infinite in "
                "Map > Map Properties and save it again",
                line,
            )
        if encoding is None:
            assert data.packed is not None  # xmltree packs every <data>'s tiles
            gids = data.packed
        elif encoding == "csv":
            if compression:
                message = f"{what}: CSV data cannot be {shown(compression)}-compressed"
                raise self.refuse(message, line)
            text = data.text
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
            gids = self.binary(data, cells, compression, what)
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
