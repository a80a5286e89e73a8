"""The board: the ground and its edges, the overlays (reach, threats, own reach, an area), goals
and items on the ground, marked areas, the move or aim under way during a reaction, the hovered
path and its warnings, the creatures, the results over them and the hover's tip
(sim/ui/draw/tips.py). What is shown comes from the scene's answers (sim/ui/model/scene.py)."""

from __future__ import annotations

import time

import pygame

from sim.core.components import Item, Position
from sim.core.creature import item_kind
from sim.core.geometry import Pos
from sim.core.world import World
from sim.rules.objectives import Reach
from sim.ui.draw.camera import Camera
from sim.ui.draw.overlay import Marks, Overlays
from sim.ui.draw.panel import Panel, cell_rect
from sim.ui.draw.terrain import TerrainLayer
from sim.ui.draw.text import Fonts
from sim.ui.draw.tips import Tips
from sim.ui.draw.tokens import Tokens
from sim.ui.look import palette as pal
from sim.ui.look.metrics import Metrics
from sim.ui.model.intent import acting_unit
from sim.ui.model.planner import teams
from sim.ui.model.scene import Scene
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.underway import Underway


class Board(Panel):
    """The board's layers; `tips` draws the hover's tip and keeps the creatures' cells."""

    def __init__(
        self,
        fonts: Fonts,
        metrics: Metrics,
        scene: Scene,
        terrain: TerrainLayer,
        overlays: Overlays,
        tips: Tips,
    ) -> None:
        super().__init__(fonts, metrics, scene)
        self.terrain = terrain
        self.overlays = overlays
        self.marks = Marks(fonts)
        self.tokens = Tokens(fonts)
        self.tips = tips
        # The ground and what lies on it under the hover's drawing (`_ground`): the key of the
        # last frame that drew it, and its picture once two frames in a row drew the same.
        self._seen_ground: tuple[object, ...] | None = None
        self._kept_ground: tuple[tuple[object, ...], pygame.Surface] | None = None

    def draw(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        session: Session,
        view: View,
        camera: Camera,
    ) -> None:
        """The ground, the overlays, the goals and items, marked areas, the move or aim under
        way, the hovered path, the creatures, the results over them and the hover's tip."""
        world = session.battle.world
        surface.set_clip(rect)
        marking = view.marking is not None
        aiming = bool(view.targeting or view.choosing or view.picking or marking)
        self._ground(surface, rect, session, view, camera, aiming)
        area = self.scene.area(session, view)
        if area:
            self.overlays.draw_area(surface, camera, area)
        marked = self.scene.marked_areas(session, view)
        for cells, _ in marked:
            self.marks.draw_area(surface, camera, cells)
        happening = self.scene.underway_shown(session, view)
        if happening is not None:
            if happening.move is not None:
                m = happening.move
                self.marks.draw_move(surface, camera, m.here, m.ahead, m.jumps)
            for start, end, _ in self.scene.aim_ends(world, happening):
                self.marks.draw_aimed(surface, camera, start, end)
        odds = self.scene.forecast(session, view)
        # A click on an enemy it can attack attacks (`FreeHandler.on_cell`), even when a path could
        # end in its cell (a Prone one): the tip says what the click does.
        plan = None if aiming or odds is not None else self.scene.plan(session, view)
        if plan is not None and view.selected:
            start = world.need(view.selected, Position).cell
            self.overlays.draw_path(
                surface, camera, start, plan, tuple(view.waypoints), view.disengage
            )
        pushed = odds.landings if odds is not None else ()
        if pushed and view.hover is not None:
            paths = tuple(landing.cells for landing in pushed if landing.cells)
            self.marks.draw_push(surface, camera, view.hover, paths)
        current = acting_unit(session)
        self.tips.token_rects = []
        # A result is drawn over its creature's cell and rises above it.
        self.tips.marker_rects = [
            cell_rect(camera, m.cell).union(cell_rect(camera, m.cell).move(0, -camera.cell))
            for m in view.markers
        ]
        for unit, style in self.scene.shown(session, view):
            self.tips.token_rects.append(cell_rect(camera, world.need(unit, Position).cell))
            self.tokens.draw(
                surface, camera, world, unit, style,
                current=unit == current, selected=unit == view.selected,
            )  # fmt: skip
        self.terrain.draw_labels(surface, camera, rect, self.tips.token_rects)
        if plan is not None:
            self.overlays.draw_warnings(surface, camera, plan)
        self._markers(surface, camera, session, view)
        for cells, label in marked:
            first = min(cells, key=lambda p: (p.y, p.x))
            self.marks.tag(surface, camera, first, label, rect)
        if happening is not None:
            self._draw_underway(surface, rect, camera, session, happening)
        if view.targeting:
            for cell in self.scene.aims(session, view):
                self.overlays.draw_aim(surface, camera, cell)
        for number, landing in enumerate(pushed, 1):
            if landing.cells:
                self.marks.draw_landing(
                    surface, camera, landing.cells[-1], number if len(pushed) > 1 else 0
                )
        if plan is not None and view.selected:
            self.tips.path_tip(surface, rect, camera, plan, session, view)
        elif view.hover is not None and world.grid.inside(view.hover):
            box = cell_rect(camera, view.hover)
            pygame.draw.rect(surface, pal.BLACK, box, 4)
            pygame.draw.rect(surface, pal.WHITE, box.inflate(-2, -2), 2)
            if marking:
                self.tips.mark_tip(surface, rect, camera, session, view, view.hover)
            elif view.targeting or not aiming:
                self.tips.cell_tip(surface, rect, camera, session, view, view.hover)
        surface.set_clip(None)

    def _ground(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        session: Session,
        view: View,
        camera: Camera,
        aiming: bool,
    ) -> None:
        """What lies under everything a hover changes: the ground, the reach, threat and own
        reach overlays, the edges, the goals and the items on the ground. One picture of it is
        kept once a second frame draws the same (the mouse moves over a still board: one blit
        instead of the ground's, some hundreds of overlay tiles' and the edges'); the first
        frame after a change, a pan or a zoom draws it straight onto the board, as before.
        The key holds what is drawn: the state, the camera, the board's place and the
        overlays' answers themselves (the scene keeps each while what makes it stays the
        same, so a toggle, a selection or a seat that changes them changes the key)."""
        world = session.battle.world
        reach = None if aiming else self.scene.reach_tiles(session, view)
        if reach is not None and not reach[0]:
            reach = None
        threats = self.scene.threats(session, view) if view.show_threat else None
        own = view.selected
        cells = (
            self.scene.own_reach(session, own)
            if view.show_own and own and world.has(own, Position)
            else None
        )
        key = (
            session.version, camera.cell, camera.x, camera.y, tuple(rect), reach, threats, cells,
        )  # fmt: skip
        kept = self._kept_ground
        if kept is not None and kept[0] == key:
            surface.blit(kept[1], rect)
            return
        self.terrain.draw(surface, camera, rect)
        if reach is not None:
            self.overlays.draw_reach_tiles(surface, camera, reach)
        if threats is not None:
            self.overlays.draw_threat(surface, camera, threats)
        if cells is not None:
            self.overlays.draw_own(surface, camera, cells)
        self.terrain.draw_edges(surface, camera, rect)
        self._goals(surface, camera, session)
        self._ground_items(surface, camera, world)
        if self._seen_ground != key:
            self._seen_ground = key  # a first frame of this ground: no picture yet
            return
        # A second frame of the same ground: keep its picture (into the one kept, when it is
        # the board's size). A window with per-pixel alpha (none on screen) keeps none.
        if surface.get_flags() & pygame.SRCALPHA:
            return
        picture = kept[1] if kept is not None and kept[1].get_size() == rect.size else None
        if picture is None:
            picture = pygame.Surface(rect.size)
        picture.blit(surface, (0, 0), rect)
        self._kept_ground = (key, picture)

    def _draw_underway(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        session: Session,
        happening: Underway,
    ) -> None:
        """Above the tokens: what is aimed (a crosshair on it, the arrowhead and a label), and
        the label of the cell a move under way ends in."""
        for start, end, label in self.scene.aim_ends(session.battle.world, happening):
            self.overlays.draw_aim(surface, camera, end)
            self.marks.draw_aimed_head(surface, camera, start, end, label, board)
        move = happening.move
        if move is not None and move.ahead:
            words = f"{move.unit}'s {move.action.replace('_', ' ')} ends here"
            self.marks.tag(surface, camera, move.end, words, board)

    def _goals(self, surface: pygame.Surface, camera: Camera, session: Session) -> None:
        """Cells a side wins by reaching: a flag and a double outline, and the side's name."""
        world = session.battle.world
        order = teams(world)
        for objective in session.battle.objectives:
            if not isinstance(objective, Reach):
                continue
            style = pal.team_style(objective.team, order)
            for cell in objective.cells:
                self.overlays.draw_goal(surface, camera, cell, style.colour, objective.team)

    def _ground_items(self, surface: pygame.Surface, camera: Camera, world: World) -> None:
        """Items lying on the ground: a small crate with the item's name when there is room."""
        piles: dict[Pos, list[str]] = {}
        for item, pos in world.each(Position):
            if world.has(item, Item):
                piles.setdefault(pos.cell, []).append(item_kind(world, item))
        for cell, kinds in piles.items():
            self.overlays.draw_items(surface, camera, cell, kinds)

    def _markers(
        self, surface: pygame.Surface, camera: Camera, session: Session, view: View
    ) -> None:
        """The last results over the creatures they happened to, rising and fading out; a
        creature hidden from the seat shows none. Several on one cell stack upwards."""
        px = self.m.px
        now = time.monotonic()
        view.markers = [m for m in view.markers if m.age(now) < 1]
        world = session.battle.world
        stacked: dict[Pos, int] = {}
        size = max(self.m.font_small, min(self.m.font_big, camera.cell // 3))
        for marker in view.markers:
            if world.exists(marker.unit) and self.scene.hidden(session, view, marker.unit):
                continue
            box = cell_rect(camera, marker.cell)
            row = stacked.get(marker.cell, 0)
            stacked[marker.cell] = row + 1
            rise = int(marker.age(now) * box.height * 0.4)
            ink = pal.MARKER_INK.get(marker.kind, pal.TEXT)
            label = self.fonts.render(marker.text, size, ink, bold=True)
            at = label.get_rect(
                midbottom=(box.centerx, box.top + px(4) - rise - row * (size + px(4)))
            )
            back = at.inflate(8, 2)
            pygame.draw.rect(surface, pal.BLACK, back, border_radius=4)
            pygame.draw.rect(surface, ink, back, 1, border_radius=4)
            surface.blit(label, at)
