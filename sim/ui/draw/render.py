"""The window's frame, put together from its panels: the board (sim/ui/draw/board.py, with the hover
tips of sim/ui/draw/tips.py), the sidebar (sidebar.py), the action bar (barpanel.py) and what is
drawn over the board (prompts.py). It lays them out for the window and the UI scale and keeps
the sidebar's and the bar's pictures while what they show stays the same. The answers they draw
come from the scene (sim/ui/model/scene.py); nothing here decides a game question. Used by the
window and `sim render`'s PNG."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from sim.core.creature import team_of
from sim.play.engine import AwaitingReaction, BattleOver
from sim.ui.draw.barpanel import BarPanel
from sim.ui.draw.board import Board
from sim.ui.draw.camera import Camera
from sim.ui.draw.overlay import Overlays
from sim.ui.draw.panel import Hits
from sim.ui.draw.prompts import HELP, REPLAY_HELP, Prompts
from sim.ui.draw.sidebar import Sidebar
from sim.ui.draw.terrain import TerrainLayer
from sim.ui.draw.text import Fonts
from sim.ui.draw.tips import Tips
from sim.ui.look.metrics import Metrics
from sim.ui.model.actionbar import ActionBar
from sim.ui.model.menu import Line as MenuLine
from sim.ui.model.scene import Scene
from sim.ui.model.session import Session
from sim.ui.model.view import View

MENU_TITLES = {
    "main": "Menu (Esc: back to the battle)",
    "settings": "Settings (Esc: back)",
    "replays": "Watch a replay (Esc: back)",
}


@dataclass
class Layout:
    board: pygame.Rect
    bar: pygame.Rect
    sidebar: pygame.Rect


class Renderer:
    """The panels of one battle's window at one UI scale; `scene` answers what they show."""

    def __init__(self, session: Session, metrics: Metrics, scene: Scene) -> None:
        self.m = metrics  # every size on the panels, from the one UI scale
        self.fonts = Fonts()
        self.scene = scene
        self.terrain = TerrainLayer(session.battle.world.grid, self.fonts)
        self.overlays = Overlays(self.fonts)
        self.hits = Hits()
        self._panels: dict[str, tuple[tuple[object, ...], pygame.Surface]] = {}
        self._panel_hits: dict[str, list[tuple[pygame.Rect, str, str]]] = {}
        self._build()

    def _build(self) -> None:
        """The panels at the current scale (what they measured belongs to it)."""
        f, m, scene = self.fonts, self.m, self.scene
        self.tips = Tips(f, m, scene)
        self.board = Board(f, m, scene, self.terrain, self.overlays, self.tips)
        self.sidebar = Sidebar(f, m, scene, self.overlays)
        self.prompts = Prompts(f, m, scene)
        self.bar_panel = BarPanel(f, m, scene)
        self._panels.clear()
        self._panel_hits.clear()

    # --- what the tests, the app and the editor read of the last frame ------------------------
    @property
    def tip(self) -> tuple[tuple[str, ...], pygame.Rect] | None:
        """The last frame's hover tip: its lines and its box."""
        return self.tips.tip

    @property
    def token_rects(self) -> list[pygame.Rect]:
        """The last frame's creatures' cells on screen."""
        return self.tips.token_rects

    @property
    def legend(self) -> list[str]:
        """The sidebar legend's keys, as last drawn."""
        return self.sidebar.legend

    @property
    def bar(self) -> ActionBar:
        return self.scene.bar

    @property
    def bar_status(self) -> str:
        """The last frame's status line under the bar."""
        return self.bar_panel.status

    @property
    def bar_details(self) -> tuple[str, ...]:
        """The status line's rule ids, shown dim."""
        return self.bar_panel.details

    # --- layout ------------------------------------------------------------------------------
    def rescale(self, metrics: Metrics) -> None:
        """Lay the panels out again at another UI scale: the kept pictures and measurements
        were made at the old one. The game and the view are untouched."""
        self.m = metrics
        self._build()

    def layout(self, size: tuple[int, int]) -> Layout:
        w, h = size
        side = self.m.sidebar_width(w)
        bar_h = min(self.bar_panel.height, max(self.m.px(60), h - self.m.px(160)))
        return Layout(
            board=pygame.Rect(0, 0, w - side, h - bar_h),
            bar=pygame.Rect(0, h - bar_h, w - side, bar_h),
            sidebar=pygame.Rect(w - side, 0, side, h),
        )

    def measure(self, size: tuple[int, int], session: Session, view: View) -> None:
        """Flow the bar's buttons into rows for this width, so the board knows its height."""
        self.bar_panel.measure(size, session, view)

    # --- the frame ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, session: Session, view: View, camera: Camera) -> Hits:
        self.hits = Hits()
        for panel in (self.tips, self.board, self.sidebar, self.prompts):
            panel.hits = self.hits
        self.tips.tip = None
        self.tips.world = session.battle.world  # for the tips' item names
        self.measure(surface.get_size(), session, view)
        lay = self.layout(surface.get_size())
        if view.handover is not None and not view.aftermath:
            self.prompts.handover(surface, session, view)
            return self.hits
        # The ground's picture covers the whole board (VOID beyond the map); the sidebar and
        # the bar cover the rest.
        self.board.draw(surface, lay.board, session, view, camera)
        self._sidebar(surface, lay.sidebar, session, view)
        over = next(
            (
                v
                for r, k, v in self._panel_hits.get("bar", ())
                if k == "action" and r.collidepoint(view.mouse)
            ),
            None,
        )
        bar_key = (
            session.version, lay.bar.size, over, view.status, view.last, view.side, view.omniscient,
            view.show_reach, view.show_threat, view.show_own, view.disengage, view.slow,
            view.quicken, view.help, view.move_only, view.mode, repr(view.preparing),
            view.replaying,
        )  # fmt: skip
        bar, hits = self.bar_panel, self.hits
        self._panel_cached("bar", bar_key, surface, lay.bar,
                           lambda: bar.draw(surface, lay.bar, session, view, hits))  # fmt: skip
        pending = session.battle.pending
        prompts = self.prompts
        if isinstance(pending, AwaitingReaction) and (
            view.sits_for(team_of(session.battle.world, pending.unit))
        ):
            prompts.reaction(surface, lay.board, session, view, pending, camera)
        if view.picking is not None:
            prompts.item_list(surface, lay.board, session, view)
        if view.choosing is not None:
            prompts.choice_list(surface, lay.board, session, view)
        if isinstance(pending, BattleOver):
            prompts.battle_over(surface, lay.board, session, again=not view.replaying)
        if view.help:
            prompts.help(surface, lay.board, REPLAY_HELP if view.replaying else HELP)
        if view.aftermath and view.handover is not None:
            prompts.aftermath(surface, lay.board, session, view.aftermath, view.handover)
        return self.hits

    def _sidebar(
        self, surface: pygame.Surface, side: pygame.Rect, session: Session, view: View
    ) -> None:
        """The sidebar in three pictures, so a hover redraws only its own few lines: the top
        (scenario, initiative, selection, legend) kept while the state and the view stay the
        same, the hovered cell's lines drawn every frame, and the log kept while it and its
        place stay the same."""
        panel = self.sidebar
        top_key = (
            session.version, side.size, view.selected, view.side, view.omniscient,
            view.show_reach, view.move_only, view.show_threat, view.show_own, view.hint,
        )  # fmt: skip
        if not self._blit_kept("sidebar", top_key, surface, side):
            self._sidebar_top(surface, side, top_key, session, view)
        y = panel.floored(side.bottom, lambda: panel.cell_section(surface, side, session, view))
        y = max(y, side.y + self.m.px(200))
        if y < side.bottom:
            log_key = (
                session.version, side.size, y, view.side, view.omniscient, view.log_offset,
                session.notice,
            )  # fmt: skip
            self._panel_cached(
                "log",
                log_key,
                surface,
                pygame.Rect(side.x, y, side.width, side.bottom - y),
                lambda: panel.floored(
                    side.bottom, lambda: panel.log(surface, side, y, session, view)
                ),
            )

    def _sidebar_top(
        self,
        surface: pygame.Surface,
        side: pygame.Rect,
        key: tuple[object, ...],
        session: Session,
        view: View,
    ) -> None:
        """Draw the sidebar's top into its own picture, in the picture's coordinates, then onto
        the window: filling a picture of its own is a fifth of filling its narrow strip of the
        window, and the picture is then kept as it is instead of copied back (`_panel_cached`)."""
        panel = self.sidebar
        kept = self._panels.get("sidebar")
        picture = kept[1] if kept is not None and kept[1].get_size() == side.size else None
        if picture is None:
            picture = pygame.Surface(side.size)
        here = picture.get_rect()
        start = len(self.hits.items)
        panel.floored(here.bottom, lambda: panel.draw_top(picture, here, session, view))
        panel.end += side.y
        # New rectangles: the ones drawn may be kept by the sidebar's own blocks (`_kept`).
        items = self.hits.items
        items[start:] = [
            (rect.move(side.topleft), kind, value) for rect, kind, value in items[start:]
        ]
        surface.blit(picture, side)
        self._keep("sidebar", key, side, picture, start)

    def draw_menu(self, surface: pygame.Surface, title: str, rows: list[MenuLine]) -> None:
        """The Esc menu (or one of its pages) over the board."""
        self.prompts.hits = self.hits
        board = self.layout(surface.get_size()).board
        self.prompts.menu(surface, board, title, rows)

    def _panel_cached(
        self,
        name: str,
        key: tuple[object, ...],
        surface: pygame.Surface,
        rect: pygame.Rect,
        draw: Callable[[], object],
    ) -> None:
        """Panels change only with the state: redraw one when its key changes, else blit the
        picture (and its clickable rectangles) kept from the frame that drew it."""
        if self._blit_kept(name, key, surface, rect):
            return
        kept = self._panels.get(name)
        start = len(self.hits.items)
        draw()
        opaque = not surface.get_flags() & pygame.SRCALPHA  # a blit then copies, never blends
        if kept is not None and kept[1].get_size() == rect.size and opaque:
            # Into the picture kept: a fresh copy of a panel costs twice the pixels' copy.
            picture = kept[1]
            picture.blit(surface, (0, 0), rect)
        else:
            picture = surface.subsurface(rect).copy()
        self._keep(name, key, rect, picture, start)

    def _blit_kept(
        self, name: str, key: tuple[object, ...], surface: pygame.Surface, rect: pygame.Rect
    ) -> bool:
        """Blit the panel's kept picture and add its clickable rectangles, if it was kept with
        this key at this place (a window resized one way only may move a panel without
        changing its size, and the rectangles kept are where it was drawn); False if not."""
        kept = self._panels.get(name)
        if kept is None or kept[0] != (*key, rect.topleft):
            return False
        surface.blit(kept[1], rect)
        self.hits.items.extend(self._panel_hits[name])
        return True

    def _keep(
        self,
        name: str,
        key: tuple[object, ...],
        rect: pygame.Rect,
        picture: pygame.Surface,
        start: int,
    ) -> None:
        """Keep the panel's picture drawn at `rect`, and the clickable rectangles added since
        `start`, for `_blit_kept`."""
        self._panels[name] = ((*key, rect.topleft), picture)
        self._panel_hits[name] = list(self.hits.items[start:])
