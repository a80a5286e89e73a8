"""Creature tokens: a team-coloured shape with the creature's initials, a hit point bar, and a
badge per condition (prone, grappled, swimming, submerged, hanging, burning, bleeding,
unseen) and one for holding a prepared action; a submerged creature is drawn under water."""

from __future__ import annotations

import math

import pygame

from sim.core.components import Body, Health, Position
from sim.core.condition import Condition
from sim.core.creature import conditions, lying, side
from sim.core.world import World
from sim.rules.combat.prepare import Prepared
from sim.ui.draw.camera import Camera
from sim.ui.draw.text import Fonts
from sim.ui.look import palette as pal
from sim.ui.look.palette import RGB, TeamStyle


def initials(unit: str) -> str:
    """
    >>> initials("grok"), initials("orc2"), initials("a")
    ('Gr', 'O2', 'A')
    """
    if len(unit) > 1 and unit[-1].isdigit():
        return (unit[0] + unit[-1]).upper()
    return unit[:2].capitalize()


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    if shape == "square":
        r *= 0.9
        return [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    if shape == "diamond":
        r *= 1.15
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    if shape == "triangle":
        r *= 1.2
        return [(cx, cy - r), (cx + r * 0.95, cy + r * 0.7), (cx - r * 0.95, cy + r * 0.7)]
    if shape == "hexagon":
        return [
            (cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k))
            for k in range(6)
        ]
    return []


def draw_shape(
    target: pygame.Surface,
    style: TeamStyle,
    centre: tuple[float, float],
    r: float,
    outline: RGB,
    width: int,
) -> None:
    cx, cy = centre
    if style.shape == "circle":
        pygame.draw.circle(target, style.colour, (cx, cy), r)
        pygame.draw.circle(target, outline, (cx, cy), r, width)
    else:
        pts = shape_points(style.shape, cx, cy, r)
        pygame.draw.polygon(target, style.colour, pts)
        pygame.draw.polygon(target, outline, pts, width)


def hp_colour(fraction: float) -> RGB:
    if fraction > 0.6:
        return pal.GREEN
    if fraction > 0.3:
        return pal.YELLOW
    return pal.VERMILLION


def under_water(target: pygame.Surface, cx: float, cy: float, r: float, c: int) -> None:
    """A submerged creature (R-M8 diving) is seen through the water: a blue wash over its token
    and two wave lines across it, so it reads as under the surface at any zoom."""
    size = int(r * 2) + 6
    wash = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.circle(wash, (*pal.SKY, 150), (size // 2, size // 2), int(r) + 3)
    target.blit(wash, (round(cx - size / 2), round(cy - size / 2)))
    amplitude = max(1.0, r * 0.14)
    width = max(1, c // 24)
    for row in (-0.4, 0.4):
        y = cy + r * row
        points = [
            (cx - r + i * r / 6, y + amplitude * math.sin(i * math.pi / 2)) for i in range(13)
        ]
        pygame.draw.lines(target, pal.WHITE, False, points, width)


def wings(target: pygame.Surface, cx: float, cy: float, r: float, c: int) -> None:
    """Two wings behind a flier's token (R-Z5), white edged in black, one on each side."""
    span, lift = r * 0.95, r * 0.7
    for hand in (-1, 1):
        root = (cx + hand * r * 0.4, cy)
        tip = (cx + hand * (r + span), cy - lift)
        low = (cx + hand * (r + span * 0.55), cy + lift * 0.45)
        points = [root, tip, low]
        pygame.draw.polygon(target, pal.WHITE, points)
        pygame.draw.polygon(target, pal.BLACK, points, max(1, c // 24))


class Tokens:
    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts

    def draw(
        self,
        target: pygame.Surface,
        camera: Camera,
        world: World,
        unit: str,
        style: TeamStyle,
        *,
        current: bool,
        selected: bool,
    ) -> None:
        # A large creature is one token spanning its footprint (R-Z1): drawn as on a cell that
        # many times as wide, from its top-left.
        c = camera.cell * side(world, unit)
        pos = world.need(unit, Position)
        sx, sy = camera.screen(pos.cell)
        held = conditions(world, unit)
        down = held.has(Condition.INCAPACITATED)
        if c < 14:
            # Zoomed far out: the shape fills the cell; bars and badges would be noise.
            cx, cy = sx + c / 2, sy + c / 2
            if current or selected:
                pygame.draw.rect(
                    target,
                    pal.HIGHLIGHT if current else pal.WHITE,
                    (sx - 1, sy - 1, c + 2, c + 2),
                    2,
                )
            draw_shape(target, style, (cx, cy), c * 0.5, pal.BLACK, 1)
            if held.has(Condition.SUBMERGED):
                under_water(target, cx, cy, c * 0.5, c)
            if down:
                pygame.draw.line(target, pal.BLACK, (sx, sy), (sx + c, sy + c), 2)
            return
        cx, cy = sx + c / 2, sy + c / 2 - c * 0.05
        r = c * 0.36
        if current:
            pygame.draw.circle(target, pal.BLACK, (cx, cy), r + max(4, c // 7))
            pygame.draw.circle(target, pal.HIGHLIGHT, (cx, cy), r + max(3, c // 8))
        if selected:
            rect = pygame.Rect(sx + 1, sy + 1, c - 2, c - 2)
            pygame.draw.rect(target, pal.WHITE, rect, max(2, c // 16))
            pygame.draw.rect(target, pal.BLACK, rect.inflate(-max(4, c // 8), -max(4, c // 8)), 1)
        body = world.get(unit, Body)
        aloft = body is not None and body.fly > 0 and not lying(world, unit)
        if aloft and not held.has(Condition.SWIMMING):
            wings(target, cx, cy, r, c)  # R-Z5: a flier shows it flies
        draw_shape(target, style, (cx, cy), r, pal.BLACK, max(1, c // 18))
        if held.has(Condition.PRONE):
            # Prone: the token is struck through horizontally, as lying down.
            pygame.draw.line(target, pal.BLACK, (cx - r, cy), (cx + r, cy), max(2, c // 12))
        if down:
            pygame.draw.line(target, pal.BLACK, (cx - r, cy - r), (cx + r, cy + r), max(2, c // 10))
            pygame.draw.line(target, pal.BLACK, (cx + r, cy - r), (cx - r, cy + r), max(2, c // 10))
        if held.has(Condition.SUBMERGED):
            under_water(target, cx, cy, r, c)
        if c >= 16:
            size = max(11, int(c * 0.42))
            self.fonts.draw(
                target,
                initials(unit),
                (round(cx), round(cy)),
                size,
                pal.WHITE,
                bold=True,
                anchor="center",
            )
        # Hit points.
        health = world.get(unit, Health)
        if health is not None and health.max_hp > 0:
            frac = max(0.0, min(1.0, health.hp / health.max_hp))
            bw, bh = c * 0.8, max(3, c // 9)
            bx, by = sx + c * 0.1, sy + c - bh - max(1, c // 20)
            pygame.draw.rect(target, pal.BLACK, (bx - 1, by - 1, bw + 2, bh + 2))
            pygame.draw.rect(target, hp_colour(frac), (bx, by, round(bw * frac), bh))
        # Height above the ground (climbing, hanging).
        if pos.elevation and c >= 20:
            self.fonts.draw(
                target,
                f"^{pos.elevation:g}",
                (sx + 2, sy + 2),
                max(11, c // 3),
                pal.BLACK,
                bold=True,
            )
        names: tuple[str, ...] = held.names()
        if body is not None:  # R-Z5: its movement modes, before its conditions
            modes = (("flies",) if body.fly else ()) + (("swims",) if body.swim else ())
            names = (*modes, *names)
        if world.has(unit, Prepared):
            names = (*names, "prepared")  # seen by every side; what for is not (R-P2)
        self._badges(target, sx, sy, c, names)

    def _badges(
        self, target: pygame.Surface, sx: int, sy: int, c: int, names: tuple[str, ...]
    ) -> None:
        icons = pal.MODE_ICONS | pal.CONDITION_ICONS
        shown = [n for n in names if n in icons]
        if not shown:
            return
        d = max(7, c // 4)
        x = sx + c - d // 2 - 1
        y = sy + d // 2 + 1
        for name in shown[: max(1, c // d)]:
            letter, colour = icons[name]
            pygame.draw.circle(target, pal.BLACK, (x, y), d // 2 + 1)
            pygame.draw.circle(target, colour, (x, y), d // 2)
            if d >= 10:
                ink = (
                    pal.WHITE
                    if colour in (pal.BLACK, pal.VERMILLION, pal.PURPLE, pal.BLUE)
                    else pal.BLACK
                )
                self.fonts.draw(
                    target, letter, (x, y + 1), max(10, d), ink, bold=True, anchor="center"
                )
            y += d + 1
