"""The sidebar: the scenario and how it is won, the round and whose turn, the acting creature's
budget, the initiative order, the selected creature, the legend of the overlays shown, the
hovered cell and the log. Its top is drawn when the state or the view changes; the hovered
cell's lines every frame (sim/ui/draw/render.py keeps the pictures)."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from sim.core.components import Budget
from sim.core.creature import team_of
from sim.play.engine import AwaitingReaction, BattleOver
from sim.ui.draw.overlay import Overlays
from sim.ui.draw.panel import Panel
from sim.ui.draw.text import Fonts
from sim.ui.draw.tokens import draw_shape
from sim.ui.look import palette as pal
from sim.ui.look.metrics import Metrics
from sim.ui.model.intent import acting_unit
from sim.ui.model.planner import teams
from sim.ui.model.scene import Scene
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.wording import free_used_words


class Sidebar(Panel):
    """`legend`: the legend's keys as last drawn; `end`: where the top, as kept, ends."""

    def __init__(self, fonts: Fonts, metrics: Metrics, scene: Scene, overlays: Overlays) -> None:
        super().__init__(fonts, metrics, scene)
        self.overlays = overlays  # the board's, for the legend's tiles
        self.legend: list[str] = []
        self.seat_lines: list[str] = []  # the round and seat line, wrapped, as last drawn
        self.end = 0
        # Pictures of lines kept by `_kept`: key, picture, where the lines end, their hits.
        Block = tuple[tuple[object, ...], pygame.Surface, int, list[tuple[pygame.Rect, str, str]]]
        self._blocks: dict[str, Block] = {}

    def draw_top(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        session: Session,
        view: View,
    ) -> None:
        """The sidebar down to the hovered cell's lines: the scenario and its goals, the round
        and the turn, the budget, the initiative, the selected creature and the legend."""
        px = self.m.px
        pygame.draw.rect(surface, pal.PANEL, rect)
        pygame.draw.line(surface, pal.PANEL_EDGE, rect.topleft, rect.bottomleft, 2)
        world = session.battle.world
        x = rect.x + px(10)
        w = rect.width - px(20)
        f = self.fonts
        about = [session.scenario.description] if session.scenario.description else []
        goals = self.scene.goal_lines(session)[:3]
        turn = world.turn
        pending = session.battle.pending
        seat = "everyone" if view.omniscient or view.side is None else view.side.upper()
        playing = "".join(f" · {team.upper()}: AI {level}" for team, level in view.ai.items())
        # Wrapped, not cut: with the AI on both sides the line outgrows the sidebar.
        self.seat_lines = f.wrap(f"Round {turn.round} · seat: {seat}{playing}", self.m.font, w)
        actor = acting_unit(session)
        if isinstance(pending, AwaitingReaction):
            text = f"Waiting: {pending.unit} may react"
        elif actor:
            text = f"Turn: {actor} ({team_of(world, actor)})"
        else:
            text = "Battle over"
        hint = view.hint if view.hint and not isinstance(pending, BattleOver) else ""
        top = rect.y + px(8)
        # The heading lines read as they did after most changes (a move, an attack): their
        # picture is kept by the words.
        said = (session.scenario.name, *about, *goals, *self.seat_lines, text, hint)
        y = self._kept(
            "heading",
            (rect, top, self.m, f.floor, said, len(about) + len(goals)),
            surface,
            rect,
            top,
            lambda: self._heading(
                surface, x, top, w, session.scenario.name, about + goals, text, hint
            ),
        )
        if actor and world.has(actor, Budget):
            y = self._pips(
                surface,
                x,
                y,
                w,
                world.need(actor, Budget),
                world.rules.budget.half_actions,
                world.rules.budget.bonus_actions,
            )
        order = teams(world)
        lines = self.scene.initiative(session, view)
        styles = tuple(pal.team_style(team_of(world, unit), order) for unit, _ in lines)
        seen = (tuple(lines), styles, turn.current, actor, view.selected)
        y = self._kept(
            "initiative",
            (rect, y, self.m, f.floor, seen),
            surface,
            rect,
            y,
            lambda: self._initiative(surface, rect, y, lines, styles, turn.current, actor, view),
        )
        if (
            view.selected
            and world.exists(view.selected)
            and not self.scene.hidden(session, view, view.selected)
        ):
            y = self._section(surface, rect, y, f"Selected: {view.selected}")
            y = self._unit_info(surface, x, y, w, session, view, view.selected)
        reach = self.scene.reach_tiles(session, view)[2]
        shown = sorted(set(reach), key=list(pal.MOVE_STYLES).index)
        if shown or view.show_threat or view.show_own:
            threat = self.scene.threat_legend(session, view) if view.show_threat else ""
            keys = (tuple(shown), threat, view.show_own)
            at = y
            y = self._kept(
                "legend",
                (rect, at, self.m, f.floor, keys),
                surface,
                rect,
                at,
                lambda: self._legend(surface, x, at, w, shown, threat, view.show_own),
            )
        self.end = y

    def _heading(
        self,
        surface: pygame.Surface,
        x: int,
        y: int,
        w: int,
        name: str,
        about: list[str],
        turn: str,
        hint: str,
    ) -> int:
        """The scenario's name, its description and goals, the round and seat lines, whose
        turn it is and the hint, from `y` down; where they end."""
        px, f = self.m.px, self.fonts
        y = f.draw(
            surface, f.fit(name, px(pal.FONT + 4), w, bold=True), (x, y), px(pal.FONT + 4),
            bold=True,
        ).bottom + px(2)  # fmt: skip
        for text in about:
            for line in f.wrap(text, px(pal.FONT_SMALL + 1), w)[:3]:
                y = f.draw(surface, line, (x, y), px(pal.FONT_SMALL + 1), pal.TEXT_DIM).bottom
        y += px(2)
        for line in self.seat_lines:
            y = f.draw(surface, line, (x, y), self.m.font, pal.TEXT_DIM).bottom
        y += px(2)
        y = f.draw(
            surface, f.fit(turn, self.m.font, w, True), (x, y), self.m.font, bold=True
        ).bottom + px(4)
        if hint:
            for line in f.wrap(hint, self.m.font_small, w):
                y = f.draw(surface, line, (x, y), self.m.font_small, pal.YELLOW).bottom
            y += px(4)
        return y

    def cell_section(
        self, surface: pygame.Surface, rect: pygame.Rect, session: Session, view: View
    ) -> int:
        """The hovered cell's lines under the sidebar's top: what it is and who can hit a
        creature of ours there; where the log begins."""
        y = self.end
        world = session.battle.world
        if view.hover is None or not world.grid.inside(view.hover):
            return y
        px = self.m.px
        f = self.fonts
        x = rect.x + px(10)
        w = rect.width - px(20)
        y = self._section(surface, rect, y, f"Cell {view.hover}")
        cell = world.grid.cell(view.hover)
        bits = [cell.kind.name.lower()]
        if cell.height:
            bits.append(f"height {cell.height:g} m")
        if cell.water:
            bits.append(f"water {cell.water:g} m")
        if cell.obstacle:
            bits.append(f"obstacle {cell.obstacle:g} m")
        if cell.climbable:
            bits.append("climbable")
        for line in f.wrap(", ".join(bits), self.m.font, w):
            y = f.draw(surface, line, (x, y), self.m.font, pal.TEXT_DIM).bottom
        text = self.scene.cell_hitters(session, view)
        for line in f.wrap(text, self.m.font, w):
            y = f.draw(surface, line, (x, y), self.m.font, pal.TEXT).bottom
        return y + px(4)

    def _initiative(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        y: int,
        lines: list[tuple[str, str]],
        styles: tuple[pal.TeamStyle, ...],
        current: str | None,
        actor: str | None,
        view: View,
    ) -> int:
        """The initiative order under its title, one creature a line; where it ends."""
        px, f = self.m.px, self.fonts
        x = rect.x + px(10)
        w = rect.width - px(20)
        y = self._section(surface, rect, y, "Initiative")
        for (unit, label), style in zip(lines, styles, strict=True):
            mark = ">" if unit == current else ("!" if unit == actor else " ")
            draw_shape(surface, style, (x + px(22), y + px(8)), px(6), pal.BLACK, 1)
            f.draw(surface, mark, (x, y), self.m.font, pal.HIGHLIGHT)
            colour = pal.TEXT if unit == actor else pal.TEXT_DIM
            f.draw(
                surface,
                f.fit(label, self.m.font, w - px(34), unit == view.selected),
                (x + px(34), y),
                self.m.font,
                colour,
                bold=unit == view.selected,
            )
            self.hits.add(pygame.Rect(x, y, w, px(17)), "unit", unit)
            y += px(18)
        return y

    def _kept(
        self,
        name: str,
        key: tuple[object, ...],
        surface: pygame.Surface,
        rect: pygame.Rect,
        y: int,
        draw: Callable[[], int],
    ) -> int:
        """Lines from `y` down, drawn by `draw` (which says where they end), or, while `key`
        stays the same, their picture from the frame that drew them, with their clickable
        rectangles: a change redraws the top, and most of its lines (the initiative order)
        read as they did. The picture reaches a line's height further, for any glyph that
        hangs below the last line; what is drawn there is drawn after it."""
        kept = self._blocks.get(name)
        if kept is not None and kept[0] == key:
            _, picture, end, hits = kept
            surface.blit(picture, (rect.x, y))
            self.hits.items.extend(hits)
            return end
        start = len(self.hits.items)
        end = draw()
        below = self.fonts.font(self.m.font).get_height()
        band = pygame.Rect(rect.x, y, rect.width, end + below - y).clip(rect)
        self._blocks[name] = (key, surface.subsurface(band).copy(), end, self.hits.items[start:])
        return end

    def _pips(
        self,
        surface: pygame.Surface,
        x: int,
        y: int,
        w: int,
        budget: Budget,
        halves: int,
        bonuses: int,
    ) -> int:
        """Half-actions as circles and Bonus Actions as diamonds, spent ones struck through,
        with their counts; the Bonus row moves under the first when the sidebar is narrow."""
        px = self.m.px
        f = self.fonts
        n_half = max(halves, budget.half)
        n_bonus = max(bonuses, budget.bonus)
        half_w = px(62) + px(18) * n_half + px(26)
        bonus_w = px(46) + px(18) * n_bonus + px(20)
        f.draw(surface, "Actions", (x, y + px(2)), self.m.font, pal.TEXT_DIM)
        cx = x + px(62)
        for i in range(n_half):
            full = i < budget.half
            pygame.draw.circle(
                surface, pal.SKY if full else pal.PANEL_LIGHT, (cx + px(8), y + px(9)), px(7), 0
            )
            pygame.draw.circle(surface, pal.TEXT, (cx + px(8), y + px(9)), px(7), 1 if full else 2)
            if not full:
                pygame.draw.line(
                    surface, pal.TEXT_DIM, (cx + px(3), y + px(14)), (cx + px(13), y + px(4)), 2
                )
            cx += px(18)
        f.draw(surface, f"{budget.half}", (cx + px(2), y + px(2)), self.m.font)
        cx += px(26)
        if half_w + bonus_w > w:
            cx, y = x, y + px(20)
        f.draw(surface, "Bonus", (cx, y + px(2)), self.m.font, pal.TEXT_DIM)
        cx += px(46)
        for i in range(n_bonus):
            full = i < budget.bonus
            d = [
                (cx + px(8), y + px(1)),
                (cx + px(15), y + px(9)),
                (cx + px(8), y + px(17)),
                (cx + px(1), y + px(9)),
            ]
            pygame.draw.polygon(surface, pal.ORANGE if full else pal.PANEL_LIGHT, d)
            pygame.draw.polygon(surface, pal.TEXT, d, 1 if full else 2)
            if not full:
                pygame.draw.line(
                    surface, pal.TEXT_DIM, (cx + px(3), y + px(14)), (cx + px(13), y + px(4)), 2
                )
            cx += px(18)
        f.draw(surface, f"{budget.bonus}", (cx + px(2), y + px(2)), self.m.font)
        y += px(20)
        if budget.free_used:
            for line in f.wrap(free_used_words(tuple(budget.free_used)), self.m.font_small, w):
                y = f.draw(surface, line, (x, y), self.m.font_small, pal.TEXT_DIM).bottom
        return y + px(2)

    def _section(self, surface: pygame.Surface, rect: pygame.Rect, y: int, title: str) -> int:
        px = self.m.px
        y += px(4)
        pygame.draw.line(surface, pal.PANEL_EDGE, (rect.x + px(8), y), (rect.right - px(8), y))
        return self.fonts.draw(
            surface, title, (rect.x + px(10), y + px(3)), self.m.font, pal.YELLOW, bold=True
        ).bottom + px(2)

    def _unit_info(
        self,
        surface: pygame.Surface,
        x: int,
        y: int,
        w: int,
        session: Session,
        view: View,
        unit: str,
    ) -> int:
        f = self.fonts
        for row in self.scene.unit_lines(session, view, unit):
            for line in f.wrap(row, self.m.px(pal.FONT_SMALL + 1), w):
                y = f.draw(surface, line, (x, y), self.m.px(pal.FONT_SMALL + 1), pal.TEXT).bottom
        return y + 2

    def _legend(
        self,
        surface: pygame.Surface,
        x: int,
        y: int,
        w: int,
        actions: list[str],
        threat: str,
        own: bool,
    ) -> int:
        """What the board's overlays mean, for those shown now: each reach tile with its letter
        and the cheapest Movement Action it stands for, the threat's striped frame (`threat`:
        its words, "" when not shown; the number is how many creatures reach the cell) and the
        dashed own reach."""
        px = self.m.px
        y += px(4)
        size = px(22)
        cx = x
        keys: list[tuple[pygame.Surface, str]] = []
        for action in actions:
            letter = pal.MOVE_STYLES[action].letter if action in pal.MOVE_STYLES else "?"
            keys.append((self.overlays.reach_tile(action, size), f"{letter} {action}"))
        if threat:
            keys.append((self.overlays.threat_tile(1, size), threat))
        if own:
            keys.append((self.overlays.own_tile(size), "your reach"))
        self.legend = [label for _, label in keys]
        for tile, label in keys:
            width = size + px(4) + self.fonts.width(label, self.m.font_small) + px(10)
            if cx + width > x + w:
                cx = x
                y += size + px(3)
            pygame.draw.rect(surface, pal.OPEN, (cx, y, size, size))
            surface.blit(tile, (cx, y))
            self.fonts.draw(
                surface, label, (cx + size + px(4), y + px(4)), self.m.font_small, pal.TEXT
            )
            cx += width
        return y + size + px(4)

    def log(
        self, surface: pygame.Surface, rect: pygame.Rect, y: int, session: Session, view: View
    ) -> None:
        px = self.m.px
        y = self._section(surface, rect, y, "Log  [PgUp/PgDn]")
        f = self.fonts
        size = px(pal.FONT_SMALL + 1)
        width = rect.width - px(20)
        text = self.scene.log_lines(session, view)
        wrapped = self.memo.get(
            "log_wrapped",
            (session.version, view.side, view.omniscient, width),
            lambda: [part for line in text for part in f.wrap(line, size, width)],
        )
        room = max(1, (rect.bottom - y - px(8)) // (size - px(3)))
        end = max(room, len(wrapped) - view.log_offset)
        shown = wrapped[max(0, end - room) : end]
        for line in shown:
            colour = pal.YELLOW if "rolls d" in line else pal.TEXT
            f.draw(surface, line, (rect.x + px(10), y), size, colour)
            y += size - px(3)
        if session.notice:
            f.draw(
                surface,
                f.fit(session.notice, size, width),
                (rect.x + px(10), rect.bottom - size),
                size,
                pal.TEXT_BAD,
            )
