"""Drawing one frame of the client onto a Surface: the board (cached terrain, overlays, tokens),
the sidebar (turn, pips, initiative, selected creature, hovered cell, log), the action bar, and
the screens over the board (handover, reaction prompt, item list, help). The same code draws the
window and `sim render`'s PNG."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from sim.components import Budget, Gear, Hands, Health, Policy, Position
from sim.creature import conditions, creatures, incapacitated, team_of
from sim.engine import AwaitingAction, AwaitingReaction, BattleOver
from sim.geometry import Pos
from sim.threat import threatened
from sim.ui import palette as pal
from sim.ui.actionbar import ActionBar, Entry, item_choices
from sim.ui.camera import Camera
from sim.ui.logbook import lines
from sim.ui.overlay import Overlays
from sim.ui.planner import PathPlan, Planner, hidden_from, teams, threat_map, visible, who_can_hit
from sim.ui.session import Session
from sim.ui.terrain import TerrainLayer
from sim.ui.text import Fonts
from sim.ui.tokens import Tokens, draw_shape
from sim.ui.view import View

TOGGLES = (
    ("reach", "Reach [R]"),
    ("threat", "Threats [T]"),
    ("own", "My reach [Y]"),
    ("disengage", "Disengage [G]"),
    ("slow", "Slow [S]"),
    ("quicken", "Quicken [Q]"),
    ("undo", "Undo [Z]"),
    ("undo_turn", "Undo turn [Sh+Z]"),
    ("save", "Save [F5]"),
    ("load", "Load [F9]"),
    ("help", "Help [F1]"),
)

HELP = (
    ("click a creature", "select it (yours: plan its move)"),
    ("hover a cell", "cheapest path, metres, budget left, provocations"),
    ("click a cell", "commit the move shown"),
    ("shift+click", "add a waypoint (Backspace removes the last)"),
    ("right click / Esc", "cancel waypoints, target choice, selection"),
    ("right or middle drag, arrows", "pan"),
    ("wheel, + / -", "zoom; Home fits the map"),
    ("E", "end the turn"),
    ("Tab", "select the next creature of your side"),
    ("R / T / Y", "reach map / enemy threats / selected creature's reach"),
    ("G / S / Q", "Disengage / Slow / Quicken toggles"),
    ("P / O", "reaction policy / preferred defence of the selected creature"),
    ("Z / Shift+Z", "undo one decision (not past a dice roll) / undo the turn"),
    ("F5 / F9", "save / load (the quick save beside the autosave)"),
    ("PageUp / PageDown", "scroll the log"),
    ("Enter", "take over after a handover"),
    ("F1 or ?", "this help"),
)


@dataclass
class Layout:
    board: pygame.Rect
    bar: pygame.Rect
    sidebar: pygame.Rect


@dataclass
class Hits:
    """Clickable rectangles of the last frame: (rect, kind, value)."""

    items: list[tuple[pygame.Rect, str, str]] = field(default_factory=list)

    def add(self, rect: pygame.Rect, kind: str, value: str) -> None:
        self.items.append((rect, kind, value))

    def at(self, pos: tuple[int, int]) -> tuple[str, str] | None:
        for rect, kind, value in reversed(self.items):
            if rect.collidepoint(pos):
                return kind, value
        return None


def acting_unit(session: Session) -> str | None:
    pending = session.battle.pending
    if isinstance(pending, AwaitingAction | AwaitingReaction):
        return pending.unit
    return None


class Renderer:
    def __init__(self, session: Session) -> None:
        self.fonts = Fonts()
        self.terrain = TerrainLayer(session.battle.world.grid, self.fonts)
        self.overlays = Overlays(self.fonts)
        self.tokens = Tokens(self.fonts)
        self.bar = ActionBar()
        self.hits = Hits()
        self._threat_key: tuple[object, ...] | None = None
        self._threat: dict[Pos, list[str]] = {}
        self._hover_key: tuple[object, ...] | None = None
        self._hover_info: tuple[str, ...] = ()
        self._bar_height = 3 * pal.BAR_ROW_HEIGHT + 30
        self._reach_src: object = None
        self._panels: dict[str, tuple[tuple[object, ...], pygame.Surface]] = {}
        self._panel_hits: dict[str, list[tuple[pygame.Rect, str, str]]] = {}
        self._reach_cells: dict[Pos, str] = {}

    # --- layout ------------------------------------------------------------------------------
    def layout(self, size: tuple[int, int]) -> Layout:
        w, h = size
        side = min(pal.SIDEBAR_WIDTH, max(220, w // 4))
        bar_h = min(self._bar_height, max(60, h // 2))
        return Layout(
            board=pygame.Rect(0, 0, w - side, h - bar_h),
            bar=pygame.Rect(0, h - bar_h, w - side, bar_h),
            sidebar=pygame.Rect(w - side, 0, side, h),
        )

    # --- cached questions --------------------------------------------------------------------
    def threats(self, session: Session, view: View) -> dict[Pos, list[str]]:
        world = session.battle.world
        chosen = view.threat_teams
        if chosen is None:
            chosen = tuple(t for t in teams(world) if t != view.side) if view.side else teams(world)
        key = (session.version, chosen, view.side)
        if key != self._threat_key:
            self._threat_key = key
            self._threat = threat_map(world, chosen, None if view.omniscient else view.side)
        return self._threat

    def hover_info(self, session: Session, view: View) -> tuple[str, ...]:
        key = (session.version, view.hover, view.side)
        if key != self._hover_key:
            self._hover_key = key
            world = session.battle.world
            if view.hover is None or not world.grid.inside(view.hover):
                self._hover_info = ()
            else:
                self._hover_info = who_can_hit(
                    world, view.hover, None if view.omniscient else view.side
                )
        return self._hover_info

    # --- the frame ---------------------------------------------------------------------------
    def draw(
        self,
        surface: pygame.Surface,
        session: Session,
        view: View,
        planner: Planner,
        camera: Camera,
    ) -> Hits:
        self.hits = Hits()
        self._measure_bar(surface.get_size(), session, view)
        lay = self.layout(surface.get_size())
        surface.fill(pal.VOID)
        if view.handover is not None:
            self._handover(surface, session, view)
            return self.hits
        self._board(surface, lay.board, session, view, planner, camera)
        side_key = (
            session.version, lay.sidebar.size, view.selected, view.hover, view.side,
            view.omniscient, view.log_offset, session.notice, view.show_reach, view.move_only,
        )  # fmt: skip
        self._panel_cached(
            "sidebar",
            side_key,
            surface,
            lay.sidebar,
            lambda: self._sidebar(surface, lay.sidebar, session, view, planner),
        )
        over = next(
            (
                v
                for r, k, v in self._panel_hits.get("bar", ())
                if k == "action" and r.collidepoint(view.mouse)
            ),
            None,
        )
        bar_key = (
            session.version, lay.bar.size, over, view.status, view.side, view.omniscient,
            view.show_reach, view.show_threat, view.show_own, view.disengage, view.slow,
            view.quicken, view.help, view.move_only, view.targeting, view.picking,
        )  # fmt: skip
        self._panel_cached("bar", bar_key, surface, lay.bar,
                           lambda: self._actionbar(surface, lay.bar, session, view))  # fmt: skip
        pending = session.battle.pending
        if isinstance(pending, AwaitingReaction) and (
            view.omniscient or team_of(session.battle.world, pending.unit) == view.side
        ):
            self._reaction(surface, lay.board, session, pending)
        if view.picking is not None:
            self._item_list(surface, lay.board, session, view)
        if isinstance(pending, BattleOver):
            self._banner(
                surface,
                lay.board,
                f"Battle over — {', '.join(pending.winners) or 'nobody'} wins",
                pending.reason,
            )
        if view.help:
            self._help(surface, lay.board)
        return self.hits

    def _panel_cached(
        self,
        name: str,
        key: tuple[object, ...],
        surface: pygame.Surface,
        rect: pygame.Rect,
        draw: Callable[[], None],
    ) -> None:
        """Panels change only with the state: redraw one when its key changes, else blit the
        picture (and its clickable rectangles) kept from the frame that drew it."""
        kept = self._panels.get(name)
        if kept is not None and kept[0] == key:
            surface.blit(kept[1], rect)
            self.hits.items.extend(self._panel_hits[name])
            return
        start = len(self.hits.items)
        draw()
        self._panels[name] = (key, surface.subsurface(rect).copy())
        self._panel_hits[name] = list(self.hits.items[start:])

    def plan(self, session: Session, view: View, planner: Planner) -> PathPlan | None:
        unit = view.selected
        world = session.battle.world
        if (
            unit is None
            or view.hover is None
            or view.targeting
            or not world.grid.inside(view.hover)
        ):
            return None
        if acting_unit(session) != unit or not isinstance(session.battle.pending, AwaitingAction):
            return None
        if not view.omniscient and team_of(world, unit) != view.side:
            return None
        return planner.plan(
            session.battle,
            session.version,
            unit,
            view.hover,
            tuple(view.waypoints),
            view.move_only,
            view.slow,
            view.quicken,
        )

    def reach_cells(self, session: Session, view: View, planner: Planner) -> dict[Pos, str]:
        unit = view.selected
        if unit is None or not view.show_reach:
            return {}
        world = session.battle.world
        if not world.has(unit, Position):
            return {}
        if not view.omniscient and team_of(world, unit) != view.side:
            return {}
        if not view.omniscient and (
            acting_unit(session) != unit or not isinstance(session.battle.pending, AwaitingAction)
        ):
            return {}
        found = planner.reach(session.battle, session.version, unit, view.move_only)
        if found is not self._reach_src:
            self._reach_src = found
            self._reach_cells = {p: r.action for p, r in found.items()}
        return self._reach_cells

    def _board(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        session: Session,
        view: View,
        planner: Planner,
        camera: Camera,
    ) -> None:
        world = session.battle.world
        surface.set_clip(rect)
        self.terrain.draw(surface, camera, rect)
        reach = self.reach_cells(session, view, planner)
        if reach:
            self.overlays.draw_reach(surface, camera, reach)
        if view.show_threat:
            self.overlays.draw_threat(
                surface, camera, {p: len(u) for p, u in self.threats(session, view).items()}
            )
        if view.show_own and view.selected and world.has(view.selected, Position):
            self.overlays.draw_own(surface, camera, threatened(world, view.selected))
        plan = self.plan(session, view, planner)
        if plan is not None and view.selected:
            start = world.need(view.selected, Position).cell
            self.overlays.draw_path(
                surface, camera, start, plan, tuple(view.waypoints), view.disengage
            )
        side = None if view.omniscient else view.side
        order = teams(world)
        current = acting_unit(session)
        for unit in creatures(world):
            if hidden_from(world, unit, side):
                continue
            self.tokens.draw(
                surface, camera, world, unit, pal.team_style(team_of(world, unit), order),
                current=unit == current, selected=unit == view.selected,
            )  # fmt: skip
        if plan is not None and view.selected:
            self._path_tip(surface, rect, camera, plan, view)
        elif view.hover is not None and world.grid.inside(view.hover):
            sx, sy = camera.screen(view.hover)
            pygame.draw.rect(surface, pal.WHITE, (sx, sy, camera.cell, camera.cell), 2)
            if view.targeting:
                self._target_tip(surface, rect, camera, session, view)
        surface.set_clip(None)

    def _tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        anchor: tuple[int, int],
        rows: list[tuple[str, pal.RGB]],
    ) -> None:
        size = pal.FONT
        width = max(self.fonts.width(t, size) for t, _ in rows) + 12
        height = len(rows) * (size - 2) + 10
        x, y = anchor[0] + 18, anchor[1] + 18
        if x + width > board.right:
            x = anchor[0] - width - 10
        if y + height > board.bottom:
            y = anchor[1] - height - 10
        box = pygame.Rect(x, y, width, height)
        pygame.draw.rect(surface, pal.PANEL, box)
        pygame.draw.rect(surface, pal.PANEL_EDGE, box, 1)
        for i, (text, colour) in enumerate(rows):
            self.fonts.draw(surface, text, (x + 6, y + 5 + i * (size - 2)), size, colour)

    def _path_tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        plan: PathPlan,
        view: View,
    ) -> None:
        rows: list[tuple[str, pal.RGB]] = []
        if plan.action is None:
            rows.append(("cannot move there", pal.TEXT_BAD))
            for line in self.fonts.wrap(plan.refusal, pal.FONT, 360):
                rows.append((line, pal.TEXT_BAD))
        else:
            rows.append((f"{plan.action.title()} {plan.metres:g} m", pal.TEXT))
            rows.append((f"left after: {plan.half_left} half, {plan.bonus_left} bonus", pal.TEXT))
            if view.disengage:
                rows.append(("Disengage: provokes nobody", pal.TEXT))
            for prov in plan.provocations if not view.disengage else ():
                can = "has a Bonus Action" if prov.can_react else "no Bonus Action left"
                rows.append(
                    (
                        f"! leaving {prov.cell}: {prov.enemy} ({can})",
                        pal.TEXT_BAD if prov.can_react else pal.TEXT_DIM,
                    )
                )
            if view.waypoints:
                rows.append((f"{len(view.waypoints)} waypoint(s); Backspace removes", pal.TEXT_DIM))
        end = plan.cells[-1] if plan.cells else view.hover
        assert end is not None
        self._tip(surface, board, camera.centre(end), rows)

    def _target_tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        session: Session,
        view: View,
    ) -> None:
        from sim.ui.app import target_decision  # the same builder the click uses

        world = session.battle.world
        unit = next(
            (u for u in creatures(world) if world.need(u, Position).cell == view.hover), None
        )
        rows: list[tuple[str, pal.RGB]] = [
            (f"{view.targeting}: choose a target (Esc cancels)", pal.TEXT)
        ]
        if unit is not None and view.selected:
            result = target_decision(session, view, unit)
            rows.append(
                (
                    f"{unit}: {result}",
                    pal.TEXT if not result.startswith("refused") else pal.TEXT_BAD,
                )
            )
        assert view.hover is not None
        self._tip(surface, board, camera.centre(view.hover), rows)

    # --- sidebar -----------------------------------------------------------------------------
    def _sidebar(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        session: Session,
        view: View,
        planner: Planner,
    ) -> None:
        pygame.draw.rect(surface, pal.PANEL, rect)
        pygame.draw.line(surface, pal.PANEL_EDGE, rect.topleft, rect.bottomleft, 2)
        world = session.battle.world
        x = rect.x + 10
        w = rect.width - 20
        y = rect.y + 8
        f = self.fonts
        y = (
            f.draw(
                surface,
                f.fit(session.scenario.name, pal.FONT + 4, w),
                (x, y),
                pal.FONT + 4,
                bold=True,
            ).bottom
            + 2
        )
        turn = world.turn
        pending = session.battle.pending
        seat = "everyone" if view.omniscient or view.side is None else view.side.upper()
        y = (
            f.draw(
                surface, f"Round {turn.round} · seat: {seat}", (x, y), pal.FONT, pal.TEXT_DIM
            ).bottom
            + 2
        )
        actor = acting_unit(session)
        if isinstance(pending, AwaitingReaction):
            text = f"Waiting: {pending.unit} may react"
        elif actor:
            text = f"Turn: {actor} ({team_of(world, actor)})"
        else:
            text = "Battle over"
        y = f.draw(surface, f.fit(text, pal.FONT, w), (x, y), pal.FONT, bold=True).bottom + 4
        if actor and world.has(actor, Budget):
            y = self._pips(
                surface,
                x,
                y,
                world.need(actor, Budget),
                world.rules.half_actions,
                world.rules.bonus_actions,
            )
        y = self._section(surface, rect, y, "Initiative")
        side = None if view.omniscient else view.side
        order = teams(world)
        for unit in turn.order:
            hidden = hidden_from(world, unit, side)
            style = pal.team_style(team_of(world, unit), order)
            mark = ">" if unit == turn.current else ("!" if unit == actor else " ")
            draw_shape(surface, style, (x + 22, y + 8), 6, pal.BLACK, 1)
            f.draw(surface, mark, (x, y), pal.FONT, pal.HIGHLIGHT)
            if hidden:
                label = "??? (unseen)"
            else:
                hp = world.need(unit, Health)
                down = " down" if incapacitated(world, unit) else ""
                label = f"{unit}  HP {hp.hp}/{hp.max_hp}{down}"
            colour = pal.TEXT if unit == actor else pal.TEXT_DIM
            f.draw(
                surface,
                f.fit(label, pal.FONT, w - 34),
                (x + 34, y),
                pal.FONT,
                colour,
                bold=unit == view.selected,
            )
            self.hits.add(pygame.Rect(x, y, w, 17), "unit", unit)
            y += 18
        if (
            view.selected
            and world.exists(view.selected)
            and not hidden_from(world, view.selected, side)
        ):
            y = self._section(surface, rect, y, f"Selected: {view.selected}")
            y = self._unit_info(surface, x, y, w, session, view.selected)
        reach = self.reach_cells(session, view, planner)
        if reach:
            y = self._legend(
                surface, x, y, w, sorted(set(reach.values()), key=list(pal.MOVE_STYLES).index)
            )
        if view.hover is not None and world.grid.inside(view.hover):
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
            for line in f.wrap(", ".join(bits), pal.FONT, w):
                y = f.draw(surface, line, (x, y), pal.FONT, pal.TEXT_DIM).bottom
            who = self.hover_info(session, view)
            text = "can be hit by: " + (", ".join(who) if who else "nobody")
            for line in f.wrap(text, pal.FONT, w):
                y = f.draw(surface, line, (x, y), pal.FONT, pal.TEXT).bottom
            y += 4
        self._log(surface, rect, max(y, rect.y + 200), session, view)

    def _pips(
        self, surface: pygame.Surface, x: int, y: int, budget: Budget, halves: int, bonuses: int
    ) -> int:
        f = self.fonts
        f.draw(surface, "Actions", (x, y + 2), pal.FONT, pal.TEXT_DIM)
        px = x + 62
        for i in range(max(halves, budget.half)):
            full = i < budget.half
            pygame.draw.circle(surface, pal.SKY if full else pal.PANEL_LIGHT, (px + 8, y + 9), 7, 0)
            pygame.draw.circle(surface, pal.TEXT, (px + 8, y + 9), 7, 1 if full else 2)
            if not full:
                pygame.draw.line(surface, pal.TEXT_DIM, (px + 3, y + 14), (px + 13, y + 4), 2)
            px += 18
        f.draw(surface, f"{budget.half}", (px + 2, y + 2), pal.FONT)
        px += 26
        f.draw(surface, "Bonus", (px, y + 2), pal.FONT, pal.TEXT_DIM)
        px += 46
        for i in range(max(bonuses, budget.bonus)):
            full = i < budget.bonus
            d = [(px + 8, y + 1), (px + 15, y + 9), (px + 8, y + 17), (px + 1, y + 9)]
            pygame.draw.polygon(surface, pal.ORANGE if full else pal.PANEL_LIGHT, d)
            pygame.draw.polygon(surface, pal.TEXT, d, 1 if full else 2)
            px += 18
        f.draw(surface, f"{budget.bonus}", (px + 2, y + 2), pal.FONT)
        y += 20
        if budget.free_used:
            y = f.draw(
                surface,
                "free used: " + ", ".join(budget.free_used),
                (x, y),
                pal.FONT_SMALL,
                pal.TEXT_DIM,
            ).bottom
        return y + 2

    def _section(self, surface: pygame.Surface, rect: pygame.Rect, y: int, title: str) -> int:
        y += 4
        pygame.draw.line(surface, pal.PANEL_EDGE, (rect.x + 8, y), (rect.right - 8, y))
        return (
            self.fonts.draw(
                surface, title, (rect.x + 10, y + 3), pal.FONT, pal.YELLOW, bold=True
            ).bottom
            + 2
        )

    def _unit_info(
        self, surface: pygame.Surface, x: int, y: int, w: int, session: Session, unit: str
    ) -> int:
        world = session.battle.world
        f = self.fonts
        hp = world.need(unit, Health)
        pos = world.need(unit, Position)
        budget = world.get(unit, Budget)
        rows = [
            f"{team_of(world, unit)} · HP {hp.hp}/{hp.max_hp} · at {pos.cell}"
            + (f" up {pos.elevation:g} m" if pos.elevation else "")
        ]
        if budget is not None:
            rows.append(f"budget: {budget.half} half, {budget.bonus} bonus")
        held = conditions(world, unit).entries
        rows.append(
            "conditions: "
            + (", ".join(f"{k}" + (f" {v}" if v not in (1, "") else "") for k, v in held) or "none")
        )
        hands = world.get(unit, Hands)
        gear = world.get(unit, Gear)
        if hands is not None:
            rows.append("holds: " + (", ".join(hands.items()) or "nothing"))
        if gear is not None and gear.carried:
            rows.append("carries: " + ", ".join(gear.carried))
        policy = world.get(unit, Policy) or Policy()
        rows.append(f"reactions: {policy.reactions} [P] · defence: {policy.defence} [O]")
        for row in rows:
            for line in f.wrap(row, pal.FONT_SMALL + 1, w):
                y = f.draw(surface, line, (x, y), pal.FONT_SMALL + 1, pal.TEXT).bottom
        return y + 2

    def _legend(self, surface: pygame.Surface, x: int, y: int, w: int, actions: list[str]) -> int:
        y += 4
        size = 18
        px = x
        for action in actions:
            label = action
            width = size + 4 + self.fonts.width(label, pal.FONT_SMALL) + 10
            if px + width > x + w:
                px = x
                y += size + 3
            surface.blit(self.overlays.reach_tile(action, size), (px, y))
            self.fonts.draw(surface, label, (px + size + 4, y + 3), pal.FONT_SMALL, pal.TEXT)
            px += width
        return y + size + 4

    def _log(
        self, surface: pygame.Surface, rect: pygame.Rect, y: int, session: Session, view: View
    ) -> None:
        y = self._section(surface, rect, y, "Log  [PgUp/PgDn]")
        f = self.fonts
        size = pal.FONT_SMALL + 1
        width = rect.width - 20
        text = lines(session.battle.log)
        wrapped: list[str] = []
        for line in text[-200:]:
            wrapped.extend(f.wrap(line, size, width))
        room = max(1, (rect.bottom - y - 8) // (size - 3))
        end = max(room, len(wrapped) - view.log_offset)
        shown = wrapped[max(0, end - room) : end]
        for line in shown:
            colour = pal.YELLOW if "rolls d" in line else pal.TEXT
            f.draw(surface, line, (rect.x + 10, y), size, colour)
            y += size - 3
        if session.notice:
            f.draw(
                surface,
                f.fit(session.notice, size, width),
                (rect.x + 10, rect.bottom - size),
                size,
                pal.TEXT_BAD,
            )

    # --- action bar --------------------------------------------------------------------------
    def _bar_entries(self, session: Session, view: View) -> list[Entry]:
        actor = acting_unit(session)
        world = session.battle.world
        pending = session.battle.pending
        foreign = actor is not None and not view.omniscient and team_of(world, actor) != view.side
        if not isinstance(pending, AwaitingAction) or foreign:
            actor = None
        side = None if view.omniscient else view.side
        return self.bar.update(
            session.battle, session.version, actor, view.slow, view.quicken, side
        )

    def _measure_bar(self, size: tuple[int, int], session: Session, view: View) -> None:
        """Flow the bar's buttons into rows for this width, so the board knows its height."""
        w = size[0] - min(pal.SIDEBAR_WIDTH, max(220, size[0] // 4))
        f = self.fonts
        fs = pal.FONT_SMALL + 1
        widths = [f.width(label, fs) + 14 for _, label in TOGGLES]
        rows = self._rows(widths, w)
        widths = [
            f.width(e.name.replace("_", " "), fs) + f.width(e.label, fs) + 20
            for e in self._bar_entries(session, view)
        ]
        rows += self._rows(widths, w)
        self._bar_height = rows * pal.BAR_ROW_HEIGHT + 34

    @staticmethod
    def _rows(widths: list[int], width: int) -> int:
        rows, x = 1, 6
        for item in widths:
            if x + item > width - 6 and x > 6:
                rows, x = rows + 1, 6
            x += item + 4
        return rows

    def _actionbar(
        self, surface: pygame.Surface, rect: pygame.Rect, session: Session, view: View
    ) -> None:
        pygame.draw.rect(surface, pal.PANEL, rect)
        pygame.draw.line(surface, pal.PANEL_EDGE, rect.topleft, rect.topright, 2)
        f = self.fonts
        size = pal.FONT_SMALL + 1
        row_h = pal.BAR_ROW_HEIGHT
        x, y = rect.x + 6, rect.y + 5
        on = {
            "reach": view.show_reach, "threat": view.show_threat, "own": view.show_own,
            "disengage": view.disengage, "slow": view.slow, "quicken": view.quicken,
            "help": view.help,
        }  # fmt: skip
        for key, label in TOGGLES:
            width = f.width(label, size) + 14
            if x + width > rect.right - 6 and x > rect.x + 6:
                x, y = rect.x + 6, y + row_h
            box = pygame.Rect(x, y, width, row_h - 4)
            active = on.get(key, False)
            pygame.draw.rect(surface, pal.SKY if active else pal.PANEL_LIGHT, box, border_radius=3)
            pygame.draw.rect(
                surface,
                pal.TEXT if active else pal.PANEL_EDGE,
                box,
                2 if active else 1,
                border_radius=3,
            )
            f.draw(surface, label, (x + 7, y + 3), size, pal.BLACK if active else pal.TEXT)
            self.hits.add(box, "toggle", key)
            x += width + 4
        x, y = rect.x + 6, y + row_h
        entries = self._bar_entries(session, view)
        hovered: Entry | None = None
        for item in entries:
            label = item.name.replace("_", " ")
            cost = item.label
            width = f.width(label, size) + f.width(cost, size) + 20
            if x + width > rect.right - 6 and x > rect.x + 6:
                x, y = rect.x + 6, y + row_h
            box = pygame.Rect(x, y, width, row_h - 4)
            chosen = item.name in (view.move_only, view.targeting, view.picking)
            if item.ok:
                pygame.draw.rect(
                    surface, pal.YELLOW if chosen else pal.PANEL_LIGHT, box, border_radius=3
                )
                pygame.draw.rect(surface, pal.TEXT, box, 1, border_radius=3)
                ink = pal.BLACK if chosen else pal.TEXT
                f.draw(surface, label, (x + 6, y + 3), size, ink)
                f.draw(
                    surface,
                    cost,
                    (box.right - 6, y + 3),
                    size,
                    pal.BLACK if chosen else pal.ORANGE,
                    bold=True,
                    anchor="topright",
                )
            else:
                pygame.draw.rect(surface, pal.PANEL, box, border_radius=3)
                pygame.draw.rect(surface, pal.PANEL_EDGE, box, 1, border_radius=3)
                r = f.draw(surface, label, (x + 6, y + 3), size, pal.TEXT_DIM)
                pygame.draw.line(
                    surface, pal.TEXT_DIM, (r.left, r.centery), (r.right, r.centery), 1
                )
                f.draw(surface, cost, (box.right - 6, y + 3), size, pal.TEXT_DIM, anchor="topright")
            self.hits.add(box, "action", item.name)
            if box.collidepoint(view.mouse):
                hovered = item
            x += width + 4
        status = view.status
        if hovered is not None:
            status = f"{hovered.name.replace('_', ' ')}: {hovered.detail}"
        elif view.targeting:
            status = f"{view.targeting}: click a target (Esc cancels)"
        if status:
            f.draw(
                surface,
                f.fit(status, pal.FONT, rect.width - 12),
                (rect.x + 6, rect.bottom - 22),
                pal.FONT,
                pal.TEXT if hovered is None or hovered.ok else pal.TEXT_BAD,
            )

    # --- screens over the board --------------------------------------------------------------
    def _panel(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        width: int,
        height: int,
        *,
        low: bool = False,
    ) -> pygame.Rect:
        """A dialog box over the board; `low` puts it at the bottom and leaves the board
        unshaded, so the situation it asks about stays in view."""
        box = pygame.Rect(0, 0, min(width, board.width - 20), min(height, board.height - 20))
        box.center = board.center
        if low:
            box.bottom = board.bottom - 10
        else:
            shade = pygame.Surface(board.size, pygame.SRCALPHA)
            shade.fill((0, 0, 0, 120))
            surface.blit(shade, board.topleft)
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=6)
        pygame.draw.rect(surface, pal.PANEL_EDGE, box, 2, border_radius=6)
        return box

    def _handover(self, surface: pygame.Surface, session: Session, view: View) -> None:
        world = session.battle.world
        rect = surface.get_rect()
        surface.fill(pal.PANEL)
        side = view.handover or ""
        style = pal.team_style(side, teams(world))
        draw_shape(surface, style, (rect.centerx, rect.centery - 110), 40, pal.WHITE, 3)
        f = self.fonts
        f.draw(
            surface,
            f"Pass the screen to {side.upper()}",
            (rect.centerx, rect.centery - 40),
            pal.FONT_BIG + 8,
            bold=True,
            anchor="center",
        )
        pending = session.battle.pending
        if isinstance(pending, AwaitingReaction):
            line = f"{pending.unit} may react: {pending.trigger}"
        elif isinstance(pending, AwaitingAction):
            line = f"{pending.unit}'s turn (round {world.turn.round})"
        else:
            line = ""
        for i, text in enumerate(f.wrap(line, pal.FONT + 4, rect.width - 80)):
            f.draw(
                surface,
                text,
                (rect.centerx, rect.centery + 10 + i * 24),
                pal.FONT + 4,
                anchor="center",
            )
        button = pygame.Rect(0, 0, 320, 48)
        button.center = (rect.centerx, rect.centery + 100)
        pygame.draw.rect(surface, pal.SKY, button, border_radius=6)
        pygame.draw.rect(surface, pal.WHITE, button, 2, border_radius=6)
        f.draw(
            surface,
            f"{side.upper()} is ready  [Enter]",
            button.center,
            pal.FONT + 4,
            pal.BLACK,
            bold=True,
            anchor="center",
        )
        self.hits.add(button, "handover", side)
        f.draw(
            surface,
            "The board stays hidden until the other side has the screen.",
            (rect.centerx, button.bottom + 30),
            pal.FONT,
            pal.TEXT_DIM,
            anchor="center",
        )

    def _reaction(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        session: Session,
        pending: AwaitingReaction,
    ) -> None:
        f = self.fonts
        options = list(pending.options)
        if "none" not in options:
            options.append("none")
        trigger = f.wrap(pending.trigger, pal.FONT + 2, 488)
        box = self._panel(surface, board, 520, 64 + 18 * len(trigger) + 38 * len(options), low=True)
        y = box.y + 14
        y = (
            f.draw(
                surface,
                f"Reaction: {pending.unit}",
                (box.x + 16, y),
                pal.FONT + 6,
                pal.YELLOW,
                bold=True,
            ).bottom
            + 6
        )
        for line in f.wrap(pending.trigger, pal.FONT + 2, box.width - 32):
            y = f.draw(surface, line, (box.x + 16, y), pal.FONT + 2).bottom
        y += 10
        for number, option in enumerate(options, start=1):
            button = pygame.Rect(box.x + 16, y, box.width - 32, 32)
            pygame.draw.rect(surface, pal.PANEL_LIGHT, button, border_radius=4)
            pygame.draw.rect(surface, pal.TEXT, button, 1, border_radius=4)
            f.draw(
                surface,
                f"[{number}]  {option.replace('_', ' ')}",
                (button.x + 10, button.y + 8),
                pal.FONT + 2,
            )
            self.hits.add(button, "option", option)
            y += 38

    def _item_list(
        self, surface: pygame.Surface, board: pygame.Rect, session: Session, view: View
    ) -> None:
        from sim.ui.app import item_decision

        f = self.fonts
        unit = view.selected or ""
        items = item_choices(session.battle, unit) if unit else []
        box = self._panel(surface, board, 560, 90 + 36 * max(1, len(items)))
        y = (
            f.draw(
                surface,
                f"{view.picking}: which item? (Esc cancels)",
                (box.x + 16, box.y + 14),
                pal.FONT + 4,
                pal.YELLOW,
                bold=True,
            ).bottom
            + 8
        )
        if not items:
            f.draw(
                surface,
                "no items held, carried or within reach",
                (box.x + 16, y),
                pal.FONT,
                pal.TEXT_DIM,
            )
        for item in items:
            result = item_decision(session, view, item)
            button = pygame.Rect(box.x + 16, y, box.width - 32, 30)
            ok = not result.startswith("refused")
            pygame.draw.rect(surface, pal.PANEL_LIGHT if ok else pal.PANEL, button, border_radius=4)
            pygame.draw.rect(
                surface, pal.TEXT if ok else pal.PANEL_EDGE, button, 1, border_radius=4
            )
            f.draw(
                surface,
                f.fit(f"{item}: {result}", pal.FONT, button.width - 16),
                (button.x + 8, button.y + 7),
                pal.FONT,
                pal.TEXT if ok else pal.TEXT_DIM,
            )
            self.hits.add(button, "item", item)
            y += 36

    def _banner(self, surface: pygame.Surface, board: pygame.Rect, title: str, reason: str) -> None:
        box = pygame.Rect(0, 0, min(640, board.width - 20), 90)
        box.midtop = (board.centerx, board.y + 20)
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=6)
        pygame.draw.rect(surface, pal.YELLOW, box, 3, border_radius=6)
        self.fonts.draw(
            surface, title, (box.centerx, box.y + 28), pal.FONT_BIG, bold=True, anchor="center"
        )
        self.fonts.draw(
            surface,
            self.fonts.fit(reason, pal.FONT, box.width - 20),
            (box.centerx, box.y + 64),
            pal.FONT,
            pal.TEXT_DIM,
            anchor="center",
        )

    def _help(self, surface: pygame.Surface, board: pygame.Rect) -> None:
        box = self._panel(surface, board, 720, 70 + 24 * len(HELP))
        f = self.fonts
        f.draw(
            surface, "Keys and mouse", (box.x + 18, box.y + 14), pal.FONT + 8, pal.YELLOW, bold=True
        )
        y = box.y + 50
        for keys, what in HELP:
            f.draw(surface, keys, (box.x + 18, y), pal.FONT + 2, pal.TEXT, bold=True)
            f.draw(
                surface,
                f.fit(what, pal.FONT + 2, box.width - 290),
                (box.x + 270, y),
                pal.FONT + 2,
                pal.TEXT_DIM,
            )
            y += 24


def hidden_units(session: Session, side: str | None) -> tuple[str, ...]:
    world = session.battle.world
    return tuple(u for u in creatures(world) if u not in visible(world, side))
