"""The hover tips over the board: what a click on the hovered cell does (the path and its cost,
an attack and its odds, the action being targeted, marking Prepare's area), each in a box beside
the cell that covers neither it nor the creatures it is about. The words come from the scene's
answers (sim/ui/model/scene.py); this module places and draws them."""

from __future__ import annotations

import pygame

from sim.core.components import Position
from sim.core.geometry import Pos
from sim.core.world import World
from sim.ui.draw.camera import Camera
from sim.ui.draw.panel import Panel, cell_rect
from sim.ui.draw.text import Fonts
from sim.ui.look import palette as pal
from sim.ui.look.metrics import Metrics
from sim.ui.model import tiplines as tl
from sim.ui.model.actionbar import build
from sim.ui.model.planner import PathPlan
from sim.ui.model.scene import Scene, turn_unit, unit_at
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.wording import named_items, rule_ids

# The colour of each tone of a tip's lines.
TONES = {tl.TEXT: pal.TEXT, tl.BAD: pal.TEXT_BAD, tl.DIM: pal.TEXT_DIM, tl.WARN: pal.YELLOW}


class Tips(Panel):
    """The tip of the last frame (its lines and box) is kept for the tests and the app."""

    def __init__(self, fonts: Fonts, metrics: Metrics, scene: Scene) -> None:
        super().__init__(fonts, metrics, scene)
        self.tip: tuple[tuple[str, ...], pygame.Rect] | None = None
        self.token_rects: list[pygame.Rect] = []  # the creatures' cells this frame
        # Where results show on the board this frame (a hit, a miss, damage): a tip keeps off
        # them, as it keeps off what it describes.
        self.marker_rects: list[pygame.Rect] = []
        self.world: World | None = None  # the battle's world, for the tips' item names

    def rows(self, lines: list[tl.Line], width: int | None = None) -> list[tuple[str, pal.RGB]]:
        """A tip's lines (sim/ui/model/tiplines.py) in their tones' colours, wrapped to `width`
        (None: each line as it is)."""
        out: list[tuple[str, pal.RGB]] = []
        for words, tone in lines:
            parts = (
                [words] if width is None else self.fonts.wrap(words, self.m.font, self.m.px(width))
            )
            out += [(part, TONES[tone]) for part in parts]
        return out

    def odds_rows(self, session: Session, view: View) -> list[tuple[str, pal.RGB]]:
        """The forecast's lines for a tip, wrapped to its width."""
        return self.rows(tl.odds_lines(self.scene, session, view), 380)

    def _enemy_rows(self, session: Session, view: View, hover: Pos) -> list[tuple[str, pal.RGB]]:
        lines = tl.enemy_lines(self.scene, session, view, hover)
        # The refusal's reason and a caution are the long lines.
        rows = [
            r
            for words, tone in lines
            for r in self.rows([(words, tone)], 340 if tone in (tl.BAD, tl.WARN) else None)
        ]
        unit = unit_at(session.battle.world, hover, view.eyes)
        if rows and unit is not None:
            why = tl.attack_caution(session, view, unit)
            if why:
                actor = turn_unit(session) or ""
                attack = build(actor, "attack", view.slow, view.quicken, target=unit)
                rows.append(self.click_note(view, attack))
        return rows + self.odds_rows(session, view) if rows else []

    @staticmethod
    def click_note(view: View, decision: object) -> tuple[str, pal.RGB]:
        """Under a caution (a decision the window holds back for a second click): what the
        next click does."""
        if view.confirm is not None and view.confirm.decision == decision:
            return ("click again or press Enter to go ahead (Esc: not)", pal.YELLOW)
        return ("a click asks once more before it goes", pal.TEXT_DIM)

    def _target_rows(self, session: Session, view: View, hover: Pos) -> list[tuple[str, pal.RGB]]:
        head, *rest = tl.target_lines(self.scene, session, view, hover)
        return self.rows([head]) + self.rows(rest, 380) + self.odds_rows(session, view)

    def cell_tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        session: Session,
        view: View,
        hover: Pos,
    ) -> None:
        """The tip beside a hovered cell no path ends in: what a click does with the action
        being targeted or, with the acting creature selected, on an enemy (an attack)."""
        world = session.battle.world
        scene = self.scene
        avoid: tuple[pygame.Rect, ...] = ()
        if view.targeting:
            key = (*scene.aim_key(session, view), hover)
            rows = self.memo.get("target_tip", key, lambda: self._target_rows(session, view, hover))
            if view.selected and world.has(view.selected, Position):
                avoid = (cell_rect(camera, world.need(view.selected, Position).cell),)
        else:
            actor = turn_unit(session)
            if actor is None or view.selected != actor:
                return
            key = (session.version, hover, actor, view.side, view.omniscient,
                   view.preparing is not None, view.slow, view.quicken, view.confirm)  # fmt: skip
            rows = self.memo.get("enemy_tip", key, lambda: self._enemy_rows(session, view, hover))
        odds = scene.forecast(session, view)
        if odds is not None:  # keep the places a shove may land in sight
            avoid += tuple(cell_rect(camera, c) for landing in odds.landings for c in landing.cells)
        if rows:
            self.box(surface, board, cell_rect(camera, hover), rows, avoid)

    def path_tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        plan: PathPlan,
        session: Session,
        view: View,
    ) -> None:
        lines = tl.path_lines(self.scene, session, view, plan)
        why = tl.path_caution(session, view, plan)
        rows = [
            r
            for words, tone in lines
            for r in self.rows(
                [(words, tone)], 360 if plan.action is None or (why and words == why) else None
            )
        ]
        if why:
            rows.append(self.click_note(view, plan.decision(view.slow, view.quicken)))
        end = plan.cells[-1] if plan.cells else view.hover
        assert end is not None
        world = session.battle.world
        # The whole path stays in sight, not only its ends: the tip describes it.
        cells = tl.mover_cells(world, plan, tuple(view.waypoints))
        avoid = tuple(cell_rect(camera, cell) for cell in cells)
        self.box(surface, board, cell_rect(camera, end), rows, avoid)

    def mark_tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        session: Session,
        view: View,
        hover: Pos,
    ) -> None:
        """What a click does while Prepare's area is being marked."""
        rows = self.rows(tl.mark_lines(self.scene, session, view, hover))
        self.box(surface, board, cell_rect(camera, hover), rows)

    def box(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        cell: pygame.Rect,
        rows: list[tuple[str, pal.RGB]],
        avoid: tuple[pygame.Rect, ...] = (),
    ) -> None:
        """A box of text beside the hovered `cell`, on the board, in the first place around it
        that covers neither the cell nor the `avoid` rectangles (the mover, the cells where it
        would provoke)."""
        # Rule ids go to a details row of their own, under the words.
        ids: list[str] = []
        plain = []
        world = self.world
        for text, colour in rows:
            words, found = rule_ids(named_items(text, world) if world is not None else text)
            plain.append((words, colour))
            ids += [i for i in found if i not in ids]
        rows = plain + ([(f"rules: {', '.join(ids)}", pal.TEXT_DIM)] if ids else [])
        size = self.m.font
        step = self.fonts.font(size).get_height()
        gap, pad = self.m.px(6), self.m.px(5)
        width = max(self.fonts.width(t, size) for t, _ in rows) + 2 * gap
        height = len(rows) * step + 2 * pad
        r = cell
        tries = [
            (r.right + gap, r.top),
            (r.left - width - gap, r.top),
            (r.right + gap, r.bottom - height),
            (r.left - width - gap, r.bottom - height),
            (r.left, r.bottom + gap),
            (r.left, r.top - height - gap),
            (r.right - width, r.bottom + gap),
            (r.right - width, r.top - height - gap),
        ]
        boxes = [pygame.Rect(x, y, width, height) for x, y in tries]
        inside = [b for b in boxes if board.contains(b)] or boxes
        kept = [*avoid, *self.marker_rects]

        def covers(b: pygame.Rect) -> tuple[int, int, int]:
            # Never the hovered cell; then as little as can be of what the tip is about (the
            # path, the mover, the results shown), then of the creatures; else the first try.
            return (
                b.colliderect(cell),
                len(b.collidelistall(kept)),
                len(b.collidelistall(self.token_rects)),
            )

        box = min(inside, key=covers).clamp(board)
        self.tip = (tuple(text for text, _ in rows), box)
        pygame.draw.rect(surface, pal.PANEL, box)
        pygame.draw.rect(surface, pal.PANEL_EDGE, box, 1)
        for i, (text, colour) in enumerate(rows):
            self.fonts.draw(surface, text, (box.x + gap, box.y + pad + i * step), size, colour)
