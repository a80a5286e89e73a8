"""The static terrain layer: drawn once per zoom level in chunks of cells and cached.

Each kind of ground has a pattern as well as a colour (difficult ground dotted, walls bricked,
pits hollow, fire zigzagged, cover hatched); water is shaded by depth and rippled; ground height
lightens or darkens the cell and is labelled; low obstacles are a raised block with their height.

Edges between cells live on a second, transparent layer drawn *above* the overlays, so a reach
or threat overlay never hides them: a ledge (a rise of 1 m or more) is a thick line with
hachures on its low side and its height written once per straight run; a face that can be
climbed (up to a climbable cell) carries a ladder on its low side instead of hachures.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pygame

from sim.core.geometry import Pos
from sim.core.grid import Grid, Kind
from sim.ui.draw.camera import Camera
from sim.ui.draw.text import Fonts
from sim.ui.look import palette as pal
from sim.ui.look.palette import RGB
from sim.ui.model.actionbar import metres

CHUNK = 16  # cells per chunk side
MAX_CHUNKS = 160  # kept beyond what is on screen: the cache always holds a whole screen
# The chunk caches keep this many screens' worth of pixels (of the last frame's chunks): zooming
# in and back out over five sizes finds each size's chunks drawn (issue #30: a zoom step within
# 16 ms), at some 6 MB a screen of 1.5 megapixels for the ground and as much for the edges.
KEPT_SCREENS = 5
LEDGE_HALF = 2  # a rise of 1 m or more between neighbours is drawn as a ledge
KEY = (255, 0, 255)  # the edge layer's transparent colour


def _shade(colour: RGB, height_half: int) -> RGB:
    """Higher ground is lighter, lower ground darker."""
    f = max(-0.45, min(0.45, 0.07 * height_half))
    if f >= 0:
        return tuple(round(c + (255 - c) * f) for c in colour)  # type: ignore[return-value]
    return tuple(round(c * (1 + f)) for c in colour)  # type: ignore[return-value]


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


class Chunks:
    """Chunk surfaces by (cx, cy, cell size), least recently used first, with the pixels they
    hold (a chunk without edges is None and holds none): kept within `MAX_CHUNKS` or a
    budget of pixels, whichever keeps more."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[int, int, int], pygame.Surface | None] = OrderedDict()
        self.pixels = 0

    def __contains__(self, key: tuple[int, int, int]) -> bool:
        return key in self._kept

    def __len__(self) -> int:
        return len(self._kept)

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        return iter(self._kept)

    def get(self, key: tuple[int, int, int]) -> pygame.Surface | None:
        """The chunk at `key`, made the most recently used (None: none, or no edges)."""
        if key not in self._kept:
            return None
        self._kept.move_to_end(key)
        return self._kept[key]

    def put(self, key: tuple[int, int, int], chunk: pygame.Surface | None, budget: int) -> None:
        """Keep `chunk`, then let go of the least recently used past the count and `budget`."""
        self.discard(key)
        self._kept[key] = chunk
        self.pixels += _pixels(chunk)
        while len(self._kept) > MAX_CHUNKS and self.pixels > budget:
            self.pixels -= _pixels(self._kept.popitem(last=False)[1])

    def discard(self, key: tuple[int, int, int]) -> None:
        if key in self._kept:
            self.pixels -= _pixels(self._kept.pop(key))

    def clear(self) -> None:
        self._kept.clear()
        self.pixels = 0


def _pixels(chunk: pygame.Surface | None) -> int:
    return 0 if chunk is None else chunk.get_width() * chunk.get_height()


@dataclass(frozen=True, slots=True)
class Edge:
    """The edge between cell (x, y) and its neighbour along `axis` ("x": the cell to the east,
    "y": the cell to the south); `diff` is the neighbour's ground minus this one's, in
    half-metres; `climb` when the face up is climbable; `label` on one edge of each run."""

    x: int
    y: int
    axis: str
    diff: int
    climb: bool
    label: bool = False


class TerrainLayer:
    """Terrain tiles and chunks for one grid, cached by cell size."""

    def __init__(self, grid: Grid, fonts: Fonts) -> None:
        self.grid = grid
        self.fonts = fonts
        self._tiles: dict[tuple[int, ...], pygame.Surface] = {}
        self._chunks = Chunks()
        self._edge_chunks = Chunks()
        layers = grid.layers
        self.kind = np.asarray(layers["kind"])
        self.height = np.asarray(layers["height"])
        self.water = np.asarray(layers["water"])
        self.obstacle = np.asarray(layers["obstacle"])
        self.climbable = np.asarray(layers["climbable"])
        self._find_looks()
        # Each ledge run's label and the edges it may sit on, best first (draw_labels).
        self.runs: list[tuple[str, tuple[Edge, ...]]] = []
        self.edges = self._find_edges()
        self._by_chunk = self._chunk_edges()
        self._on_screen = 0  # pixels of the chunks the last frame showed (KEPT_SCREENS)
        # The ground and the edges as last drawn, by camera and view (`draw`, `draw_edges`).
        self._ground: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._edges_shown: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._edges_moving: tuple[object, ...] | None = None  # the last view drawn directly
        self._ground_moving: tuple[object, ...] | None = None
        self._placed: tuple[object, list[tuple[pygame.Surface, pygame.Rect]]] | None = None

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
        if c >= 26:
            small = max(10, c // 3)
            if height:
                inset = max(2, c // 16 + 2)  # clear of a ledge line on the left edge
                self._label(s, f"h{metres(height)}", (inset, c - 2), small, "bottomleft")
            if water:
                self._label(s, f"~{metres(water)}", (c - 2, c - 2), small, "bottomright")
            if obstacle:
                self._label(s, f"ob{metres(obstacle)}", (c // 2, c // 2), small, "center")
        return s

    def _label(
        self,
        s: pygame.Surface,
        text: str,
        pos: tuple[int, int],
        size: int,
        anchor: str,
        *,
        opaque: bool = False,
    ) -> None:
        """Black text on a light backing (opaque on the colour-keyed edge layer)."""
        ink = self.fonts.render(text, size, pal.BLACK)
        rect = ink.get_rect(**{anchor: pos})
        if opaque:
            pygame.draw.rect(s, (250, 250, 244), rect.inflate(4, 0))
            pygame.draw.rect(s, pal.BLACK, rect.inflate(4, 0), 1)
        else:
            back = pygame.Surface(rect.inflate(2, 0).size, pygame.SRCALPHA)
            back.fill((255, 255, 255, 170))
            s.blit(back, rect.inflate(2, 0))
        s.blit(ink, rect)

    # --- chunks ------------------------------------------------------------------------------
    def chunk(self, cx: int, cy: int, c: int) -> pygame.Surface:
        key = (cx, cy, c)
        found = self._chunks.get(key)
        if found is None:
            found = self._make_chunk(cx, cy, c)
            self._chunks.put(key, found, KEPT_SCREENS * self._on_screen)
        return found

    def _make_chunk(self, cx: int, cy: int, c: int) -> pygame.Surface:
        g = self.grid
        x0, y0 = cx * CHUNK, cy * CHUNK
        x1, y1 = min(g.width, x0 + CHUNK), min(g.height, y0 + CHUNK)
        w, h = x1 - x0, y1 - y0
        looks = self._look[y0:y1, x0:x1]
        pixels = self._tile_pixels(c, looks)
        # Each cell's tile in its place, gathered by numpy in surfarray's (x, y) order, not
        # blitted a cell at a time: a zoom step draws every chunk on screen afresh (issue #30).
        picture = pixels[looks.T].transpose(0, 2, 1, 3, 4).reshape(w * c, h * c, 3)
        # The grid: thin lines, dark enough to read on every ground, thinner when zoomed out.
        grid_colour = pal.GRID if c >= 12 else _mix(pal.GRID, pal.OPEN, 0.4)
        picture[::c, :] = grid_colour
        picture[:, ::c] = grid_colour
        s = pygame.Surface((w * c, h * c))
        pygame.surfarray.blit_array(s, picture)
        return s

    def _tile_pixels(self, c: int, looks: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
        """The pixels of each look's tile at size `c` (`[look, x, y, rgb]`), made for the
        looks in `looks` where they are not yet."""
        if c not in self._look_pixels:
            if len(self._look_pixels) >= 8:  # zoomed through many sizes: keep the latest
                self._look_pixels.pop(next(iter(self._look_pixels)))
            count = len(self._look_keys)
            self._look_pixels[c] = (
                np.zeros((count, c, c, 3), dtype=np.uint8),
                np.zeros(count, dtype=np.bool_),
            )
        pixels, made = self._look_pixels[c]
        if made.all():
            return pixels
        for look in np.unique(looks[~made[looks]]).tolist():
            kind, height, water, obstacle, climb = self._look_keys[look]
            tile = self.tile(c, kind, height, water, obstacle, bool(climb))
            pixels[look] = pygame.surfarray.array3d(tile)
            made[look] = True
        return pixels

    def changed(self, cells: Iterable[Pos]) -> None:
        """The grid's layers were changed at `cells` (the map editor paints in place): redraw
        the chunks they are in, and find the edges again (a ledge's edge layer reaches into
        its neighbours' chunks, so every edge chunk is redrawn)."""
        touched = {(p.x // CHUNK, p.y // CHUNK) for p in cells}
        if not touched:
            return
        for key in [k for k in self._chunks if (k[0], k[1]) in touched]:
            self._chunks.discard(key)
        self._find_looks()
        self.edges = self._find_edges()
        self._by_chunk = self._chunk_edges()
        self._edge_chunks.clear()
        # The pictures of the screen made from those chunks, and the labels placed on them.
        self._ground = self._edges_shown = self._placed = None

    def _find_looks(self) -> None:
        """Each cell's look (kind, height, water, obstacle, climbable) as a number, once for
        the grid: a chunk reads its cells' numbers in one go instead of five layers per cell
        (a zoom to a new size draws every chunk on screen afresh)."""
        layers = [self.kind, self.height, self.water, self.obstacle, self.climbable]
        code = np.zeros(self.kind.shape, dtype=np.int64)
        for layer in layers:
            values = np.asarray(layer, dtype=np.int64)
            low = int(values.min()) if values.size else 0
            span = int(values.max()) - low + 1 if values.size else 1
            code = code * span + (values - low)
        found, look = np.unique(code, return_inverse=True)
        self._look = look.reshape(self.kind.shape)
        firsts = np.unique(look.ravel(), return_index=True)[1]
        flat = [np.asarray(layer).ravel() for layer in layers]
        self._look_keys = [tuple(int(f[i]) for f in flat) for i in firsts[: len(found)]]
        # Per tile size: every look's tile as pixels, and which of them are made yet.
        self._look_pixels: dict[int, tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]] = {}

    def _chunk_edges(self) -> dict[tuple[int, int], list[Edge]]:
        """The edges by the chunk they are drawn in (a chunk's layer looks up its own, not
        every edge of the map)."""
        out: dict[tuple[int, int], list[Edge]] = {}
        for edge in self.edges:
            out.setdefault((edge.x // CHUNK, edge.y // CHUNK), []).append(edge)
        return out

    def _visible_chunks(self, camera: Camera, view: pygame.Rect) -> list[tuple[int, int]]:
        c = camera.cell
        g = self.grid
        span = CHUNK * c
        first_x = max(0, int((view.left - camera.x) // span))
        first_y = max(0, int((view.top - camera.y) // span))
        last_x = min((g.width - 1) // CHUNK, int((view.right - camera.x) // span))
        last_y = min((g.height - 1) // CHUNK, int((view.bottom - camera.y) // span))
        return [(cx, cy) for cy in range(first_y, last_y + 1) for cx in range(first_x, last_x + 1)]

    def draw(self, target: pygame.Surface, camera: Camera, view: pygame.Rect) -> None:
        """Blit the ground chunks that show in `view` (a rect of `target`): one picture of
        them once the camera has stayed a frame, made again only when the camera or the view
        changes (a 256x256 map fitted to the screen is some 200 chunks, too many blits for
        every frame); while it moves, the chunks themselves."""
        key = (camera.cell, camera.x, camera.y, tuple(view))
        if self._ground is None or self._ground[0] != key:
            c = camera.cell
            visible = self._visible_chunks(camera, view)
            # A cache smaller than a screen of chunks would rebuild every chunk each time the
            # camera moves, and one of a screen every chunk at each zoom back and forth.
            self._on_screen = len(visible) * (CHUNK * c) ** 2
            blits = []
            for cx, cy in visible:
                sx, sy = camera.screen(Pos(cx * CHUNK, cy * CHUNK))
                blits.append((self.chunk(cx, cy, c), (sx - view.x, sy - view.y)))
            if self._ground_moving != key:
                # The camera moves: the chunks straight onto the board (a picture of them would
                # cost a fill and a whole-board blit more while each frame's view is new).
                self._ground_moving = key
                clip = target.get_clip()
                target.set_clip(view.clip(clip))
                target.fill(pal.VOID, view)
                target.blits(
                    [(chunk, (x + view.x, y + view.y)) for chunk, (x, y) in blits], doreturn=False
                )
                target.set_clip(clip)
                return
            picture = pygame.Surface(view.size)
            picture.fill(pal.VOID)
            picture.blits(blits, doreturn=False)
            self._ground = (key, picture)
        target.blit(self._ground[1], view.topleft)

    # --- edges: ledges and climbable faces, drawn above the overlays -------------------------
    def draw_edges(self, target: pygame.Surface, camera: Camera, view: pygame.Rect) -> None:
        """Blit the edge layer (ledges, hachures, ladders) over whatever is drawn: one
        colour-keyed picture, made again only when the camera or the view changes."""
        if not self.edges:
            return
        key = (camera.cell, camera.x, camera.y, tuple(view))
        if self._edges_shown is None or self._edges_shown[0] != key:
            c = camera.cell
            margin = self._margin(c)
            blits = []
            for cx, cy in self._visible_chunks(camera, view):
                layer = self._edge_chunk(cx, cy, c)
                if layer is not None:
                    sx, sy = camera.screen(Pos(cx * CHUNK, cy * CHUNK))
                    blits.append((layer, (sx - margin - view.x, sy - margin - view.y)))
            if self._edges_moving != key:
                # The camera moves: the layers straight onto the board, no picture made (it
                # would cost more than it saves while each frame's view is new).
                self._edges_moving = key
                clip = target.get_clip()
                target.set_clip(view.clip(clip))
                target.blits(
                    [(layer, (x + view.x, y + view.y)) for layer, (x, y) in blits], doreturn=False
                )
                target.set_clip(clip)
                return
            picture = pygame.Surface(view.size)
            picture.fill(KEY)
            picture.blits(blits, doreturn=False)
            # One colour-keyed picture once the camera has stayed a frame, run-length encoded:
            # each later blit of it is a quarter of a plain one.
            picture.set_colorkey(KEY, pygame.RLEACCEL)
            self._edges_shown = (key, picture)
        target.blit(self._edges_shown[1], view.topleft)

    def draw_labels(
        self, target: pygame.Surface, camera: Camera, view: pygame.Rect, avoid: list[pygame.Rect]
    ) -> None:
        """The ledges' heights ("1.5m"), each on a card on its run of edges where it covers
        no other label (another ledge's, a cell's height, depth or obstacle, a reach letter or
        a threat count) and no token (`avoid`); a label with no such place along its run is
        left out (the cells' own heights still tell it). Drawn above the tokens."""
        c = camera.cell
        if c < 24 or not self.runs:
            return
        key = (c, camera.x, camera.y, view.topleft, view.size, tuple(map(tuple, avoid)))
        if self._placed is None or self._placed[0] != key:
            self._placed = (key, self._place(camera, view, avoid))
        target.blits(self._placed[1], doreturn=False)

    def _place(
        self, camera: Camera, view: pygame.Rect, avoid: list[pygame.Rect]
    ) -> list[tuple[pygame.Surface, pygame.Rect]]:
        c = camera.cell
        size = max(11, c // 4)
        taken = list(avoid)  # a token fills its cell, its HP bar at the bottom
        out: list[tuple[pygame.Surface, pygame.Rect]] = []
        for text, run in self.runs:
            ink = self.fonts.render(text, size, pal.BLACK)
            for edge in run:
                sx, sy = camera.screen(Pos(edge.x, edge.y))
                a, b, _ = self._segment(edge, sx, sy, c)
                if not view.collidepoint(a) and not view.collidepoint(b):
                    continue
                around = self._cell_labels(edge, camera)
                spot = None
                for t in (0.5, 0.25, 0.75):
                    centre = (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t))
                    card = ink.get_rect(center=centre).inflate(4, 2)
                    if card.collidelist(taken) < 0 and card.collidelist(around) < 0:
                        spot = card
                        break
                if spot is not None:
                    face = pygame.Surface(spot.size)
                    face.fill((250, 250, 244))
                    pygame.draw.rect(face, pal.BLACK, face.get_rect(), 1)
                    face.blit(ink, ink.get_rect(center=face.get_rect().center))
                    out.append((face, spot))
                    taken.append(spot)
                    break
        return out

    def _cell_labels(self, edge: Edge, camera: Camera) -> list[pygame.Rect]:
        """Where the labels of the two cells beside an edge are, on screen, as `_make_tile`
        and the overlays draw them: a height (bottom left), a depth (bottom right), an
        obstacle (middle), the reach letter (top left) and the threat count (top right),
        whether drawn now or not."""
        c = camera.cell
        small = max(10, c // 3)
        f = self.fonts
        letter = f.render("W", max(11, c // 3), pal.BLACK, bold=True).get_size()
        count = f.render("2", max(11, c // 2 if c < 40 else c // 3), pal.BLACK, bold=True)
        out = []
        there = (edge.x + 1, edge.y) if edge.axis == "x" else (edge.x, edge.y + 1)
        for x, y in ((edge.x, edge.y), there):
            if not self.grid.inside(Pos(x, y)):
                continue
            sx, sy = camera.screen(Pos(x, y))
            out.append(pygame.Rect(sx + 3, sy + 2, *letter))
            out.append(count.get_rect(topright=(sx + c - 2, sy + 2)).inflate(4, 0))
            if self.height[y, x]:
                ink = f.render(f"h{metres(int(self.height[y, x]))}", small, pal.BLACK)
                inset = max(2, c // 16 + 2)
                out.append(ink.get_rect(bottomleft=(sx + inset, sy + c - 2)).inflate(2, 0))
            if self.water[y, x]:
                ink = f.render(f"~{metres(int(self.water[y, x]))}", small, pal.BLACK)
                out.append(ink.get_rect(bottomright=(sx + c - 2, sy + c - 2)).inflate(2, 0))
            if self.obstacle[y, x]:
                ink = f.render(f"ob{metres(int(self.obstacle[y, x]))}", small, pal.BLACK)
                out.append(ink.get_rect(center=(sx + c // 2, sy + c // 2)).inflate(2, 0))
        return out

    @staticmethod
    def _margin(c: int) -> int:
        return c // 2 + 8  # hachures, ladders and labels reach past a chunk's own cells

    def _find_edges(self) -> list[Edge]:
        """Every edge between two cells of ground (not wall, not pit) whose heights differ by a
        ledge's rise, or that rises to a climbable cell; labelled once per straight run."""
        h = self.height.astype(np.int32)
        ground = (self.kind != int(Kind.WALL)) & (self.kind != int(Kind.PIT))
        found: list[Edge] = []
        for axis, (dx, dy) in (("x", (1, 0)), ("y", (0, 1))):
            here = h[: h.shape[0] - dy, : h.shape[1] - dx]
            there = h[dy:, dx:]
            both = ground[: h.shape[0] - dy, : h.shape[1] - dx] & ground[dy:, dx:]
            diff = there - here
            climb_there = self.climbable[dy:, dx:] & (diff > 0)
            climb_here = self.climbable[: h.shape[0] - dy, : h.shape[1] - dx] & (diff < 0)
            mark = both & ((np.abs(diff) >= LEDGE_HALF) | climb_there | climb_here)
            for y, x in zip(*np.nonzero(mark), strict=True):
                d = int(diff[y, x])
                climb = bool(climb_there[y, x] or climb_here[y, x])
                found.append(Edge(int(x), int(y), axis, d, climb))
        # One label per run of equal edges along a straight line.
        key = {(e.axis, e.x, e.y): e for e in found}
        labelled: list[Edge] = []
        for e in found:
            step = (0, 1) if e.axis == "x" else (1, 0)
            prev = key.get((e.axis, e.x - step[0], e.y - step[1]))
            if prev is not None and prev.diff == e.diff and prev.climb == e.climb:
                continue  # not the first of its run
            run = [e]
            while True:
                last = run[-1]
                nxt = key.get((e.axis, last.x + step[0], last.y + step[1]))
                if nxt is None or nxt.diff != e.diff or nxt.climb != e.climb:
                    break
                run.append(nxt)
            middle = run[(len(run) - 1) // 2]
            labelled.append(middle)
            if abs(e.diff) >= LEDGE_HALF:
                # Where its label may go: the middle edge first, then outwards.
                order = sorted(run, key=lambda r: abs(run.index(r) - (len(run) - 1) / 2))
                self.runs.append((f"{metres(abs(e.diff))}m", tuple(order)))
        marks = {(e.axis, e.x, e.y) for e in labelled}
        return [Edge(e.x, e.y, e.axis, e.diff, e.climb, (e.axis, e.x, e.y) in marks) for e in found]

    def _edge_chunk(self, cx: int, cy: int, c: int) -> pygame.Surface | None:
        key = (cx, cy, c)
        if key in self._edge_chunks:
            return self._edge_chunks.get(key)
        x0, y0 = cx * CHUNK, cy * CHUNK
        mine = self._by_chunk.get((cx, cy), [])
        layer: pygame.Surface | None = None
        if mine:
            margin = self._margin(c)
            size = CHUNK * c + 2 * margin
            # A colour-keyed layer (no per-pixel alpha): it blits in a fraction of the time of
            # an alpha surface. Not run-length encoded: a layer blitted by turns onto the
            # screen's picture and onto the board (the camera moving) is encoded again at each
            # change of destination, which cost more than the encoding saves.
            layer = pygame.Surface((size, size))
            layer.fill(KEY)
            layer.set_colorkey(KEY)
            if c < 10:
                self._fill_ledges(layer, mine, x0 * c - margin, y0 * c - margin, c)
            else:
                for edge in mine:
                    self._draw_edge(
                        layer, edge, (edge.x - x0) * c + margin, (edge.y - y0) * c + margin, c
                    )
        self._edge_chunks.put(key, layer, KEPT_SCREENS * self._on_screen)
        return layer

    def _fill_ledges(self, s: pygame.Surface, edges: list[Edge], ox: int, oy: int, c: int) -> None:
        """`_draw_edge` of each of `edges` at a size below a ladder's (c < 10), where every
        mark is a line along an axis: the ledge and its hachures (c >= 8; a climbable face
        is drawn as a ledge) filled as rectangles, the same pixels in a fraction of the time
        (a zoom step draws every edge layer on screen afresh). (ox, oy): where cell (0, 0)'s
        corner would be on the layer."""
        width = max(2, c // 8)
        before = (width - 1) // 2
        tick, length, gap = max(1, c // 24), max(3, c // 6), max(4, c // 4)
        ticks = range(gap // 2, c, gap) if c >= 8 else range(0)
        fill, ledge, back = s.fill, pal.LEDGE, (tick - 1) // 2
        # `_segment` and `_line_rect` written out: an edge along x is a line down the cell's
        # right side, hachures pointing across it; one along y, across its bottom.
        for edge in edges:
            if abs(edge.diff) < LEDGE_HALF:
                continue
            px, py = edge.x * c - ox, edge.y * c - oy
            reach = -length if edge.diff > 0 else 0  # toward the lower side
            if edge.axis == "x":
                for t in ticks:
                    fill(ledge, (px + c + reach, py + t - back, length + 1, tick))
                fill(ledge, (px + c - before, py, width, c + 1))
            else:
                for t in ticks:
                    fill(ledge, (px + t - back, py + c + reach, tick, length + 1))
                fill(ledge, (px, py + c - before, c + 1, width))

    @staticmethod
    def _segment(
        edge: Edge, px: int, py: int, c: int
    ) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        """The edge's end points on a layer where cell (edge.x, edge.y) has its corner at
        (px, py), and the unit step toward the lower side."""
        if edge.axis == "x":
            a, b = (px + c, py), (px + c, py + c)
            low = (-1, 0) if edge.diff > 0 else (1, 0)
        else:
            a, b = (px, py + c), (px + c, py + c)
            low = (0, -1) if edge.diff > 0 else (0, 1)
        return a, b, low

    def _draw_edge(self, s: pygame.Surface, edge: Edge, px: int, py: int, c: int) -> None:
        a, b, (nx, ny) = self._segment(edge, px, py, c)
        ledge = abs(edge.diff) >= LEDGE_HALF
        along = (b[0] - a[0], b[1] - a[1])
        if edge.climb and c >= 10:
            # A ladder on the low side: two rails along the face and rungs across.
            w = max(1, c // 24)
            near, far = max(2, c // 14), max(6, c // 4)
            rails = [
                ((a[0] + nx * d, a[1] + ny * d), (b[0] + nx * d, b[1] + ny * d))
                for d in (near, far)
            ]
            rungs = []
            gap = max(4, c // 5)
            for t in range(gap // 2, c, gap):
                ox, oy = a[0] + along[0] * t // c, a[1] + along[1] * t // c
                rungs.append(((ox + nx * near, oy + ny * near), (ox + nx * far, oy + ny * far)))
            for colour, width in ((pal.BLACK, w + 2), (pal.LADDER, w)):
                for p, q in rails + rungs:
                    pygame.draw.line(s, colour, p, q, width)
        elif ledge and c >= 8:
            # Hachures: short ticks falling from the top of the ledge to its low side.
            w = max(1, c // 24)
            length = max(3, c // 6)
            gap = max(4, c // 4)
            for t in range(gap // 2, c, gap):
                ox, oy = a[0] + along[0] * t // c, a[1] + along[1] * t // c
                pygame.draw.line(s, pal.LEDGE, (ox, oy), (ox + nx * length, oy + ny * length), w)
        if ledge:
            s.fill(pal.LEDGE, _line_rect(a, b, max(2, c // 8)))


def _line_rect(a: tuple[int, int], b: tuple[int, int], width: int) -> pygame.Rect:
    """The pixels `pygame.draw.line(surface, colour, a, b, width)` covers for a line along an
    axis (an edge between cells), as a rectangle to fill: the line's own pixels, end points
    included, and `width` across, starting (width - 1) // 2 before it."""
    (ax, ay), (bx, by) = a, b
    before = (width - 1) // 2
    if ax == bx:
        return pygame.Rect(ax - before, min(ay, by), width, abs(by - ay) + 1)
    return pygame.Rect(min(ax, bx), ay - before, abs(bx - ax) + 1, width)
