"""Overlays on the board: the reach map by cheapest action, threatened cells with counts, the
selected creature's own reach, and the hovered path with its waypoints and provocations.
Every overlay carries a pattern, an outline or a number, never colour alone."""

from __future__ import annotations

import math

import pygame

from sim.geometry import Pos
from sim.ui import palette as pal
from sim.ui.camera import Camera
from sim.ui.palette import RGB
from sim.ui.planner import PathPlan
from sim.ui.text import Fonts


def _pattern(s: pygame.Surface, pattern: str, colour: tuple[int, int, int, int], c: int) -> None:
    step = max(4, c // 4)
    w = max(1, c // 20)
    if pattern == "dots":
        r = max(1, c // 14)
        for y in range(step // 2, c, step):
            for x in range(step // 2, c, step):
                pygame.draw.circle(s, colour, (x, y), r)
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

    def threat_tile(self, count: int, c: int) -> pygame.Surface:
        def make() -> pygame.Surface:
            s = pygame.Surface((c, c), pygame.SRCALPHA)
            step = max(5, c // 3)
            w = max(1, c // 18)
            for k in range(0, 2 * c, step):
                pygame.draw.line(s, (*pal.THREAT, 150), (k, 0), (k - c, c), w)
            pygame.draw.rect(s, (*pal.THREAT, 255), (0, 0, c, c), max(2, c // 12))
            if c >= 16:
                size = max(11, c // 2 if c < 40 else c // 3)
                ink = self.fonts.render(str(count), size, pal.WHITE, bold=True)
                r = ink.get_rect(topright=(c - 2, 2))  # clear of water labels and HP bars
                pygame.draw.rect(s, (*pal.BLACK, 220), r.inflate(4, 0))
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
            self._reach_blits = [
                (self.reach_tile(action, c), (math.floor(x0 + p.x * c), math.floor(y0 + p.y * c)))
                for p, action in cells.items()
            ]
            self._reach_key = key
        target.blits(self._reach_blits, doreturn=False)

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
        for i in range(1, len(points)):
            a, b = points[i - 1], points[i]
            jumped = (i - 1) in plan.jumps
            if jumped:
                self._dashed(target, a, b, under, width + 4)
                self._dashed(target, a, b, ink, width)
            else:
                pygame.draw.line(target, under, a, b, width + 4)
                pygame.draw.line(target, ink, a, b, width)
        for p in points[1:-1]:
            pygame.draw.circle(target, ink, p, max(2, width // 2 + 1))
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
        """A "!" triangle on each cell whose leaving provokes (drawn above the tokens)."""
        seen: set[Pos] = set()
        for prov in plan.provocations:
            if prov.cell in seen:
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
