"""Overlays on the board: the reach map by cheapest action, threatened cells with counts, the
selected creature's own reach, and the hovered path with its waypoints and provocations.
Every overlay carries a pattern, an outline or a number, never colour alone."""

from __future__ import annotations

import math

import numpy as np
import pygame

from sim.core.geometry import Pos
from sim.ui.draw.camera import Camera
from sim.ui.draw.text import Fonts
from sim.ui.look import palette as pal
from sim.ui.look.palette import RGB
from sim.ui.model.planner import PathPlan


def _pattern(s: pygame.Surface, pattern: str, colour: tuple[int, int, int, int], c: int) -> None:
    step = max(4, c // 4)
    w = max(1, c // 20)
    if pattern == "dots":
        r = max(1, c // 14)
        for y in range(step // 2, c, step):
            for x in range(step // 2, c, step):
                pygame.draw.circle(s, colour, (x, y), r)
    elif pattern == "plus":
        # Small crosses, not dots: difficult ground is dotted (sim/ui/draw/terrain.py).
        arm = max(2, c // 12)
        for y in range(step // 2, c, step):
            for x in range(step // 2, c, step):
                pygame.draw.line(s, colour, (x - arm, y), (x + arm, y), w + 1)
                pygame.draw.line(s, colour, (x, y - arm), (x, y + arm), w + 1)
    elif pattern == "hatch":
        for k in range(-c, c, step):
            pygame.draw.line(s, colour, (k, c), (k + c, 0), w)
    elif pattern == "cross":
        for k in range(-c, c, step):
            pygame.draw.line(s, colour, (k, c), (k + c, 0), w)
            pygame.draw.line(s, colour, (k, 0), (k + c, c), w)
    elif pattern == "rings":
        pygame.draw.circle(s, colour, (c // 2, c // 2), max(2, c // 4), max(1, w + 1))
    elif pattern == "grid":
        for k in range(step // 2, c, step):
            pygame.draw.line(s, colour, (k, 0), (k, c), w)
            pygame.draw.line(s, colour, (0, k), (c, k), w)
    elif pattern == "bars":
        for k in range(step // 2, c, step):
            pygame.draw.line(s, colour, (k, 0), (k, c), w + 1)
    elif pattern == "waves":
        amp = max(1, c // 12)
        for y in range(step // 2, c, step):
            pts = [
                (x, y + (amp if (x // max(2, step // 2)) % 2 else -amp))
                for x in range(0, c + step, max(2, step // 2))
            ]
            pygame.draw.lines(s, colour, False, pts, w)


class Overlays:
    """Overlay tiles cached by cell size."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self._tiles: dict[tuple[object, ...], pygame.Surface] = {}

    def _cached(self, key: tuple[object, ...], make) -> pygame.Surface:  # type: ignore[no-untyped-def]
        tile = self._tiles.get(key)
        if tile is None:
            if len(self._tiles) > 600:
                self._tiles.clear()
            tile = make()
            self._tiles[key] = tile
        return tile

    def reach_tile(self, action: str, c: int) -> pygame.Surface:
        def make() -> pygame.Surface:
            style = pal.MOVE_STYLES.get(action, pal.ActionStyle(pal.WHITE, "plain", "?"))
            s = pygame.Surface((c, c), pygame.SRCALPHA)
            s.fill((*style.colour, 70))
            dark = tuple(max(0, v - 90) for v in style.colour)
            _pattern(s, style.pattern, (*dark, 150), c)  # type: ignore[arg-type]
            pygame.draw.rect(s, (*style.colour, 235), (1, 1, c - 2, c - 2), max(1, c // 16))
            if c >= 30:
                ink = self.fonts.render(style.letter, max(11, c // 3), pal.BLACK, bold=True)
                s.blit(ink, (3, 2))
            return s

        return self._cached(("reach", action, c), make)

    def reach_strip(self, action: str, c: int, n: int) -> pygame.Surface:
        """`n` reach tiles side by side, each pixel as in the tile (copied, not blended)."""
        if n == 1:
            return self.reach_tile(action, c)

        def make() -> pygame.Surface:
            tile = self.reach_tile(action, c)
            s = pygame.Surface((c * n, c), pygame.SRCALPHA)  # every pixel (0, 0, 0, 0)
            for i in range(n):
                s.blit(tile, (i * c, 0), special_flags=pygame.BLEND_RGBA_MAX)
            return s

        return self._cached(("strip", action, c, n), make)

    def threat_tile(self, count: int, c: int) -> pygame.Surface:
        """A threatened cell: a frame of black and vermillion stripes along its top and sides
        (hazard tape; the sprint band is a cross-hatch over the whole cell) that leaves the
        middle, the bottom row and the top-left corner clear, so the reach letter, the
        pattern and the ground's labels still read; the count top right."""

        def make() -> pygame.Surface:
            s = pygame.Surface((c, c), pygame.SRCALPHA)
            band = max(3, c // 7)
            step = max(4, c // 5)
            w = max(2, step // 2)
            stripes = pygame.Surface((c, c), pygame.SRCALPHA)
            stripes.fill((*pal.THREAT, 235))
            for k in range(-c, 2 * c, step):
                pygame.draw.line(stripes, (*pal.BLACK, 235), (k, 0), (k - c, c), w)
            s.blit(stripes, (0, 0))
            # The frame's top and sides only: the bottom row stays clear for the ground's
            # height and depth labels, the top-left corner for the reach letter.
            small = max(10, c // 3) if c >= 26 else 0
            s.fill((0, 0, 0, 0), pygame.Rect(band, band, c - 2 * band, c - band))
            s.fill((0, 0, 0, 0), pygame.Rect(0, c - small - 2, c, small + 2))
            if c >= 26:
                letter = max(11, c // 3)
                s.fill((0, 0, 0, 0), pygame.Rect(0, 0, letter + 4, letter + 2))
            if c >= 16:
                size = max(11, c // 2 if c < 40 else c // 3)
                ink = self.fonts.render(str(count), size, pal.WHITE, bold=True)
                r = ink.get_rect(topright=(c - 2, 2))  # clear of water labels and HP bars
                pygame.draw.rect(s, (*pal.BLACK, 235), r.inflate(4, 0))
                s.blit(ink, r)
            return s

        return self._cached(("threat", count, c), make)

    def own_tile(self, c: int) -> pygame.Surface:
        def make() -> pygame.Surface:
            s = pygame.Surface((c, c), pygame.SRCALPHA)
            inset = max(2, c // 8)
            w = max(2, c // 14)
            dash = max(3, c // 6)
            for x in range(inset, c - inset, dash * 2):
                pygame.draw.line(s, pal.OWN_REACH, (x, inset), (min(x + dash, c - inset), inset), w)
                pygame.draw.line(
                    s, pal.OWN_REACH, (x, c - inset), (min(x + dash, c - inset), c - inset), w
                )
            for y in range(inset, c - inset, dash * 2):
                pygame.draw.line(s, pal.OWN_REACH, (inset, y), (inset, min(y + dash, c - inset)), w)
                pygame.draw.line(
                    s, pal.OWN_REACH, (c - inset, y), (c - inset, min(y + dash, c - inset)), w
                )
            return s

        return self._cached(("own", c), make)

    # --- drawing -------------------------------------------------------------------------------
    def draw_reach(self, target: pygame.Surface, camera: Camera, cells: dict[Pos, str]) -> None:
        # The blit list is kept while the cells and the camera stay the same (most frames).
        key = (id(cells), camera.cell, camera.x, camera.y)
        if key != getattr(self, "_reach_key", None):
            c = camera.cell
            x0, y0 = camera.x, camera.y
            tiles = {action: self.reach_tile(action, c) for action in set(cells.values())}
            self._reach_blits = [
                (tiles[action], (math.floor(x0 + p.x * c), math.floor(y0 + p.y * c)))
                for p, action in cells.items()
            ]
            self._reach_key = key
        target.blits(self._reach_blits, doreturn=False)

    def draw_reach_tiles(
        self, target: pygame.Surface, camera: Camera, cells: tuple[list[int], list[int], list[str]]
    ) -> None:
        """`draw_reach` of cells given as lists of x, y and action (`Scene.reach_tiles`): the
        places worked out at once rather than cell by cell."""
        # Kept while the cells (held, so that no other list takes their id) and the camera stay.
        key = (cells, camera.cell, camera.x, camera.y)
        kept = getattr(self, "_tiles_key", None)
        if kept is None or kept[0] is not cells or kept[1:] != key[1:]:
            c = camera.cell
            xs, ys, actions = cells
            kinds = list(dict.fromkeys(actions))
            code = np.asarray([kinds.index(action) for action in actions], dtype=np.int64)
            # floor(x0 + x * c) as draw_reach works it out, in the same floating point.
            left = np.floor(camera.x + np.asarray(xs, dtype=np.int64) * c).astype(np.int64)
            top = np.floor(camera.y + np.asarray(ys, dtype=np.int64) * c).astype(np.int64)
            # Each run of cells side by side in a row with the same action, one blit of a strip
            # of its tiles: the same pixels (the tiles do not overlap, and a strip holds each
            # tile's pixels as they are), a third of the blits or fewer.
            apart = (np.diff(left) != c) | (np.diff(top) != 0) | (np.diff(code) != 0)
            starts = np.flatnonzero(np.concatenate(([True], apart)))
            runs = np.diff(np.append(starts, len(code)))
            self._tiles_blits = [
                (self.reach_strip(kinds[k], c, n), (x, y))
                for k, n, x, y in zip(
                    code[starts].tolist(),
                    runs.tolist(),
                    left[starts].tolist(),
                    top[starts].tolist(),
                    strict=True,
                )
            ]
            self._tiles_key = key
        target.blits(self._tiles_blits, doreturn=False)

    def draw_threat(self, target: pygame.Surface, camera: Camera, counts: dict[Pos, int]) -> None:
        c = camera.cell
        x0, y0 = camera.x, camera.y
        target.blits(
            [
                (self.threat_tile(n, c), (math.floor(x0 + p.x * c), math.floor(y0 + p.y * c)))
                for p, n in counts.items()
            ],
            doreturn=False,
        )

    def draw_own(self, target: pygame.Surface, camera: Camera, cells: tuple[Pos, ...]) -> None:
        tile = self.own_tile(camera.cell)
        target.blits([(tile, camera.screen(p)) for p in cells], doreturn=False)

    def draw_path(
        self,
        target: pygame.Surface,
        camera: Camera,
        start: Pos,
        plan: PathPlan,
        waypoints: tuple[Pos, ...],
        disengage: bool,
    ) -> None:
        c = camera.cell
        points = [camera.centre(start)] + [camera.centre(p) for p in plan.cells]
        ok = plan.action is not None
        width = max(3, c // 7)
        under = pal.PATH_EDGE
        ink: RGB = pal.PATH if ok else pal.TEXT_BAD
        route(target, points, plan.jumps, under, ink, width)
        end = points[-1]
        r = max(4, c // 4)
        pygame.draw.circle(target, under, end, r + 2)
        pygame.draw.circle(target, ink, end, r, 0 if ok else max(2, r // 2))
        for number, wp in enumerate(waypoints, start=1):
            cx, cy = camera.centre(wp)
            d = max(6, c // 3)
            diamond = [(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)]
            pygame.draw.polygon(target, pal.YELLOW, diamond)
            pygame.draw.polygon(target, pal.BLACK, diamond, 2)
            self.fonts.draw(
                target,
                str(number),
                (cx, cy),
                max(12, c // 3),
                pal.BLACK,
                bold=True,
                anchor="center",
            )

    def draw_warnings(self, target: pygame.Surface, camera: Camera, plan: PathPlan) -> None:
        """A "!" triangle on each cell whose leaving provokes an attack a foe can take (one
        with a Bonus Action left, R-R8), drawn above the tokens."""
        seen: set[Pos] = set()
        for prov in plan.provocations:
            if prov.cell in seen or not prov.can_react:
                continue
            seen.add(prov.cell)
            self._warning(target, camera, prov.cell)

    def draw_area(self, target: pygame.Surface, camera: Camera, cells: tuple[Pos, ...]) -> None:
        """The cells an area spell would reach: cross-hatched, outlined in black and yellow."""

        def make() -> pygame.Surface:
            t = pygame.Surface((c, c), pygame.SRCALPHA)
            t.fill((*pal.YELLOW, 60))
            _pattern(t, "cross", (*pal.BLACK, 110), c)
            pygame.draw.rect(t, pal.BLACK, (0, 0, c, c), max(2, c // 14))
            pygame.draw.rect(t, pal.YELLOW, (2, 2, c - 4, c - 4), max(1, c // 24))
            return t

        c = camera.cell
        tile = self._cached(("area", c), make)
        target.blits([(tile, camera.screen(p)) for p in cells], doreturn=False)

    def draw_aim(self, target: pygame.Surface, camera: Camera, cell: Pos) -> None:
        """A creature the action being targeted can be aimed at: a crosshair around it."""
        c = camera.cell
        cx, cy = camera.centre(cell)
        r = max(6, int(c * 0.46))
        tick = max(3, c // 6)
        for colour, width in ((pal.BLACK, max(4, c // 12)), (pal.WHITE, max(2, c // 24))):
            pygame.draw.circle(target, colour, (cx, cy), r, width)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                pygame.draw.line(
                    target,
                    colour,
                    (cx + dx * (r - tick), cy + dy * (r - tick)),
                    (cx + dx * (r + tick // 2), cy + dy * (r + tick // 2)),
                    width,
                )

    def draw_goal(
        self, target: pygame.Surface, camera: Camera, cell: Pos, colour: RGB, team: str
    ) -> None:
        """A cell a side wins by reaching: a flag in the side's colour and a double outline."""
        c = camera.cell
        sx, sy = camera.screen(cell)
        box = pygame.Rect(sx, sy, c, c)
        pygame.draw.rect(target, pal.BLACK, box, max(2, c // 10))
        pygame.draw.rect(
            target, pal.YELLOW, box.inflate(-max(4, c // 6), -max(4, c // 6)), max(1, c // 20)
        )
        pole_x = sx + c * 2 // 5
        top, bottom = sy + c // 5, sy + c - c // 5
        pygame.draw.line(target, pal.BLACK, (pole_x, top), (pole_x, bottom), max(2, c // 16))
        flag = [(pole_x, top), (pole_x + c * 2 // 5, top + c // 7), (pole_x, top + 2 * c // 7)]
        pygame.draw.polygon(target, colour, flag)
        pygame.draw.polygon(target, pal.BLACK, flag, max(1, c // 30))
        if c >= 36:
            self.fonts.draw(
                target, "goal", (sx + c // 2, sy + c - max(4, c // 8)), max(11, c // 4),
                pal.BLACK, bold=True, anchor="midbottom",
            )  # fmt: skip

    def draw_items(
        self, target: pygame.Surface, camera: Camera, cell: Pos, kinds: list[str]
    ) -> None:
        """Items on the ground: a small crate in the cell's lower left, named when there is
        room, with a count when several lie there."""
        c = camera.cell
        sx, sy = camera.screen(cell)
        d = max(5, c // 4)
        box = pygame.Rect(sx + max(2, c // 12), sy + c - d - max(3, c // 6), d, d)
        pygame.draw.rect(target, pal.OBSTACLE, box)
        pygame.draw.rect(target, pal.BLACK, box, max(1, c // 30))
        pygame.draw.line(target, pal.BLACK, box.topleft, box.bottomright, 1)
        pygame.draw.line(target, pal.BLACK, box.topright, box.bottomleft, 1)
        if c >= 40:
            name = kinds[0].replace("_", " ") + (f" +{len(kinds) - 1}" if len(kinds) > 1 else "")
            size = max(11, c // 5)
            ink = self.fonts.render(self.fonts.fit(name, size, c - d - 6), size, pal.BLACK)
            r = ink.get_rect(midleft=(box.right + 2, box.centery))
            back = pygame.Surface(r.inflate(2, 0).size, pygame.SRCALPHA)
            back.fill((255, 255, 255, 190))
            target.blit(back, r.inflate(2, 0))
            target.blit(ink, r)

    def _warning(self, target: pygame.Surface, camera: Camera, cell: Pos) -> None:
        c = camera.cell
        sx, sy = camera.screen(cell)
        d = max(8, c // 3)
        tri = [
            (sx + c - d - 2, sy + d + 2),
            (sx + c - 2 - d // 2, sy + 2),
            (sx + c - 2, sy + d + 2),
        ]
        pygame.draw.polygon(target, pal.PROVOKE, tri)
        pygame.draw.polygon(target, pal.BLACK, tri, 2)
        self.fonts.draw(
            target,
            "!",
            (sx + c - 2 - d // 2, sy + d // 2 + 4),
            max(12, d),
            pal.WHITE,
            bold=True,
            anchor="center",
        )

    @staticmethod
    def _dashed(
        target: pygame.Surface, a: tuple[int, int], b: tuple[int, int], colour: RGB, width: int
    ) -> None:
        length = math.dist(a, b)
        if length == 0:
            return
        n = max(2, int(length // (width * 2)))
        for i in range(0, n, 2):
            t0, t1 = i / n, min(1.0, (i + 1) / n)
            p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
            p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            pygame.draw.line(target, colour, p0, p1, width)


def route(
    target: pygame.Surface,
    points: list[tuple[int, int]],
    jumps: tuple[int, ...],
    under: RGB,
    ink: RGB,
    width: int,
) -> None:
    """A path through cell centres: an `ink` line on a wider `under` edge, legs entered by a
    jump (indices into the legs) dashed, a dot at each cell passed."""
    for i in range(1, len(points)):
        a, b = points[i - 1], points[i]
        if (i - 1) in jumps:
            Overlays._dashed(target, a, b, under, width + 4)
            Overlays._dashed(target, a, b, ink, width)
        else:
            pygame.draw.line(target, under, a, b, width + 4)
            pygame.draw.line(target, ink, a, b, width)
    for p in points[1:-1]:
        pygame.draw.circle(target, ink, p, max(2, width // 2 + 1))


def _tape(target: pygame.Surface, rect: pygame.Rect, width: int, dash: int) -> None:
    """A cell's border as black and white dashes (warning tape): readable on any ground and
    without colour."""
    x0, y0, x1, y1 = rect.left, rect.top, rect.right - 1, rect.bottom - 1
    edges = (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0)))
    for a, b in edges:
        length = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
        n = max(2, length // dash)
        for i in range(n):
            t0, t1 = i / n, (i + 1) / n
            p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
            p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            pygame.draw.line(target, pal.BLACK if i % 2 == 0 else pal.WHITE, p0, p1, width)


class Marks:
    """What the board marks beyond reach and threats: an area marked for Prepare's
    "enters_area" trigger, while a reaction window is open the move or attack it is about, and
    where a hovered shove may push its target. Each has an outline or a dash pattern and a
    label, never colour alone."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self._tiles: dict[tuple[object, ...], pygame.Surface] = {}

    def area_tile(self, c: int) -> pygame.Surface:
        """A marked cell: back-slash hatching (an area spell's preview is cross-hatched) and a
        border of black and white dashes."""
        key = ("marked", c)
        tile = self._tiles.get(key)
        if tile is None:
            tile = pygame.Surface((c, c), pygame.SRCALPHA)
            tile.fill((*pal.WHITE, 70))
            step = max(5, c // 5)
            w = max(1, c // 22)
            for k in range(0, 2 * c, step):
                pygame.draw.line(tile, (*pal.BLACK, 150), (k - c, 0), (k, c), w)
            _tape(tile, tile.get_rect().inflate(-2, -2), max(2, c // 14), max(4, c // 5))
            self._tiles[key] = tile
        return tile

    def draw_area(self, target: pygame.Surface, camera: Camera, cells: tuple[Pos, ...]) -> None:
        tile = self.area_tile(camera.cell)
        target.blits([(tile, camera.screen(p)) for p in cells], doreturn=False)

    def tag(
        self,
        target: pygame.Surface,
        camera: Camera,
        cell: Pos,
        text: str,
        board: pygame.Rect,
        *,
        below: bool = False,
    ) -> pygame.Rect:
        """A label on a white card with a black border, just above a cell (below it when
        there is no room above, or when asked), kept on the board."""
        size = max(13, min(pal.FONT, camera.cell // 3))
        box = self.card(target, text, (0, 0), board, size, clamp=False)
        sx, sy = camera.screen(cell)
        box.midbottom = (sx + camera.cell // 2, sy - 2)
        if below or box.top < board.top:
            box.midtop = (sx + camera.cell // 2, sy + camera.cell + 2)
        return self.card(target, text, box.center, board, size)

    def card(
        self,
        target: pygame.Surface,
        text: str,
        centre: tuple[int, int],
        board: pygame.Rect,
        size: int,
        *,
        clamp: bool = True,
    ) -> pygame.Rect:
        """Black bold text on a white card with a black border, centred at `centre` and kept
        on the board; with `clamp` False only measured, not drawn."""
        ink = self.fonts.render(text, size, pal.BLACK, bold=True)
        box = ink.get_rect().inflate(8, 4)
        box.center = centre
        if not clamp:
            return box
        box = box.clamp(board)
        pygame.draw.rect(target, pal.WHITE, box)
        pygame.draw.rect(target, pal.BLACK, box, 2)
        target.blit(ink, ink.get_rect(center=box.center))
        return box

    def draw_move(
        self,
        target: pygame.Surface,
        camera: Camera,
        here: Pos,
        ahead: tuple[Pos, ...],
        jumps: tuple[int, ...],
    ) -> None:
        """A move under way: a white path outlined in black from where the mover stands, jumps
        dashed, an arrowhead into the last cell, and that cell boxed in black and white."""
        if not ahead:
            return
        c = camera.cell
        width = max(3, c // 9)
        points = [camera.centre(here), *(camera.centre(p) for p in ahead)]
        route(target, points, jumps, pal.BLACK, pal.WHITE, width)
        end = pygame.Rect(*camera.screen(ahead[-1]), c, c)
        pygame.draw.rect(target, pal.BLACK, end, max(3, c // 10))
        pygame.draw.rect(target, pal.WHITE, end.inflate(-max(6, c // 5), -max(6, c // 5)),
                         max(2, c // 16))  # fmt: skip
        self._arrowhead(target, points[-2], points[-1], max(8, c // 4))

    def draw_aimed(self, target: pygame.Surface, camera: Camera, start: Pos, end: Pos) -> None:
        """An action aimed at a creature or a cell, under the tokens: a dashed line in black and
        orange from the actor's centre to the target's (a move's path is solid white)."""
        a, b = camera.centre(start), camera.centre(end)
        if a == b:
            return
        width = max(3, camera.cell // 10)
        pygame.draw.line(target, pal.BLACK, a, b, width + 4)
        Overlays._dashed(target, a, b, pal.ORANGE, width)

    def draw_aimed_head(
        self,
        target: pygame.Surface,
        camera: Camera,
        start: Pos,
        end: Pos,
        text: str,
        board: pygame.Rect,
    ) -> None:
        """Above the tokens: the arrowhead at the edge of the target's token, and a label over
        the two cells (under them when there is no room above)."""
        c = camera.cell
        a, b = camera.centre(start), camera.centre(end)
        length = math.dist(a, b)
        if length > 0:
            cut = min(0.42 * c, length / 2) / length
            tip = (b[0] - (b[0] - a[0]) * cut, b[1] - (b[1] - a[1]) * cut)
            self._arrowhead(target, a, tip, max(10, c // 4))
        size = max(13, min(pal.FONT, c // 3))
        top = min(camera.screen(start)[1], camera.screen(end)[1])
        box = self.card(target, text, (0, 0), board, size, clamp=False)
        box.midbottom = ((a[0] + b[0]) // 2, top - 2)
        if box.top < board.top:
            box.midtop = (
                (a[0] + b[0]) // 2,
                max(camera.screen(start)[1], camera.screen(end)[1]) + c + 2,
            )
        self.card(target, text, box.center, board, size)

    def draw_push(
        self, target: pygame.Surface, camera: Camera, start: Pos, paths: tuple[tuple[Pos, ...], ...]
    ) -> None:
        """Where a shove may push a creature, under the tokens: each way a dashed white line on
        black from its cell through the cells it would enter (a move's path is solid)."""
        width = max(3, camera.cell // 12)
        for cells in paths:
            points = [camera.centre(start), *(camera.centre(p) for p in cells)]
            route(target, points, tuple(range(len(cells))), pal.BLACK, pal.WHITE, width)

    def draw_landing(self, target: pygame.Surface, camera: Camera, cell: Pos, number: int) -> None:
        """Above the tokens: a cell a shove may leave its target in, boxed in black and white
        dashes with its number (0: the only one, no number) in a white disc, as the tip lists
        it."""
        c = camera.cell
        box = pygame.Rect(*camera.screen(cell), c, c).inflate(-max(4, c // 8), -max(4, c // 8))
        _tape(target, box, max(2, c // 16), max(4, c // 6))
        if number:
            centre = camera.centre(cell)
            size = max(12, min(pal.FONT, c // 2))
            radius = max(7, size * 2 // 3)
            pygame.draw.circle(target, pal.WHITE, centre, radius)
            pygame.draw.circle(target, pal.BLACK, centre, radius, 2)
            self.fonts.draw(
                target, str(number), centre, size, pal.BLACK, bold=True, anchor="center"
            )

    @staticmethod
    def _arrowhead(
        target: pygame.Surface, a: tuple[float, float], b: tuple[float, float], size: int
    ) -> None:
        angle = math.atan2(b[1] - a[1], b[0] - a[0])
        left = (b[0] - size * math.cos(angle - 0.45), b[1] - size * math.sin(angle - 0.45))
        right = (b[0] - size * math.cos(angle + 0.45), b[1] - size * math.sin(angle + 0.45))
        pygame.draw.polygon(target, pal.WHITE, [b, left, right])
        pygame.draw.polygon(target, pal.BLACK, [b, left, right], 2)
