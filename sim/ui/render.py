"""Drawing one frame of the client onto a Surface: the board (cached terrain, overlays, tokens),
the sidebar (turn, pips, initiative, selected creature, hovered cell, log), the action bar, and
the screens over the board (handover, reaction prompt, item list, help). The same code draws the
window and `sim render`'s PNG."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pygame

from sim.actions import Refusal
from sim.casting import known
from sim.components import (
    Budget,
    Conditions,
    Gear,
    Hands,
    Health,
    Item,
    Policy,
    Position,
    Stats,
    Team,
)
from sim.creature import conditions, creatures, incapacitated, item_kind, team_of
from sim.decisions import to_json
from sim.engine import AwaitingAction, AwaitingReaction, BattleOver
from sim.geometry import Pos
from sim.grid import Kind
from sim.items import item_name, item_names
from sim.objectives import Reach
from sim.prepare import Prepared
from sim.reachmap import Hang
from sim.sight import distance_half, line_of_sight
from sim.threat import threatened
from sim.ui import palette as pal
from sim.ui.actionbar import (
    ABILITY_ACTIONS,
    ActionBar,
    ability_choices,
    build,
    cost_label,
    item_choice_labels,
    item_choices,
    judge,
    option_label,
    prepare_triggers,
    prompt_help,
    prompt_options,
    trigger_words,
    unmarkable,
)
from sim.ui.barpanel import BarPanel
from sim.ui.camera import Camera
from sim.ui.forecast import ODDS_ACTIONS, Forecast, forecast
from sim.ui.intent import (
    acting_unit,
    aim_needs,
    aim_words,
    assist_step,
    cell_choice,
    item_verdict_of,
    target_choice,
    target_verdict,
    verdict_words,
)
from sim.ui.logbook import lines
from sim.ui.menu import Line as MenuLine
from sim.ui.metrics import Metrics
from sim.ui.outcome import summary as outcome_summary
from sim.ui.overlay import Marks, Overlays
from sim.ui.planner import PathPlan, Planner, hidden_from, teams, threat_map, visible, who_can_hit
from sim.ui.session import Session
from sim.ui.terrain import TerrainLayer
from sim.ui.text import Fonts
from sim.ui.tokens import Tokens, draw_shape
from sim.ui.underway import Underway, underway
from sim.ui.view import View
from sim.ui.wording import (
    condition_words,
    free_used_words,
    item_words,
    named_items,
    rule_ids,
)
from sim.world import World

T = TypeVar("T")

HELP = (
    ("click a creature", "select it (yours: plan its move)"),
    ("hover a cell", "cheapest path, metres, budget left, provocations (!)"),
    ("click a cell", "commit the move shown"),
    ("shift+click", "add a waypoint (Backspace removes the last)"),
    ("click an enemy", "attack it with the acting creature (the tip says if it can)"),
    ("hover a target", "odds: % to hit per defence it can afford, damage; a contest's %"),
    ("bar buttons", "take an action; struck-through ones say why not when hovered"),
    ("A", "attack: then click a target (crosshairs mark who can be hit)"),
    ("C / U", "cast a spell / use an ability: pick it, then its target or cell"),
    ("W", "Skip / Prepare: pick a trigger, then the action to hold ready"),
    ("W, then an area", "click cells to mark them (again: unmark), Enter when done"),
    ("1 … 9", "pick from an open list, or answer a reaction"),
    ("right click / Esc", "cancel a list, a target choice, waypoints, selection"),
    ("Esc (nothing to cancel)", "the menu: save, save and quit, load, new game, settings"),
    ("right or middle drag, arrows", "pan"),
    ("wheel, + / -", "zoom; Home fits the map"),
    ("E", "end the turn"),
    ("Tab", "select the next creature of your side"),
    ("R / T / Y", "reach map / enemy threats / selected creature's reach"),
    ("G / S / Q", "Disengage / Slow / Quicken toggles"),
    ("P / O", "reaction policy / preferred defence of the selected creature"),
    ("Z / Shift+Z", "undo one decision / undo the turn: never past a dice roll"),
    ("F5 / F9", "save / load the quick save: F9 too never goes back past a dice roll"),
    ("", "(a roll stays rolled until the battle is over; then F9 loads any save)"),
    ("PageUp / PageDown", "scroll the log"),
    ("Enter", "take over after a handover; confirm a marked area"),
    ("I", "hand the side at the screen to the AI; during an AI turn, take that side back"),
    ("Space", "during AI turns: play them out without the pause"),
    ("N", "after the battle: play the scenario again (the next seed)"),
    ("F1 or ?", "this help"),
)
MAP_KEY = (
    "Map: dots = difficult ground, bricks = wall, crossed box = pit, zigzag = fire,",
    "hatching = cover, ripples = water (~depth m), hN = ground height in m, a thick",
    "line with ticks = ledge (ticks on the low side), a ladder = climbable face,",
    "a brown block = low obstacle (obN), a small crate = an item on the ground,",
    "a flag = a goal cell. Reach letters: S step, W walk, R run, X sprint, J jump,",
    "L climb, C crawl, ~ swim; threatened cells: a red-and-black striped frame and the",
    "enemy count (the sidebar's legend names those shown). Over a creature for a moment:",
    "hit / miss / -damage / +healing / down; 'Last:' above the status sums up the last action.",
    "Black-and-white dashed boxes = an area marked for Prepare (only its side sees it);",
    "badge R = holds a prepared action. During a reaction prompt: a white path to a",
    "boxed, labelled cell = the move under way; a dashed arrow = the attack or aim.",
    "A token under a blue wash with waves and badge v = submerged (the dive button",
    "swims under the surface, out of sight of everyone not in that water). A hovered shove:",
    "a dashed line to the cells it may push to, taped black and white, numbered as in the tip.",
)


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


def turn_unit(session: Session) -> str | None:
    """The creature whose turn waits for an action (not for a reaction), if any."""
    pending = session.battle.pending
    return pending.unit if isinstance(pending, AwaitingAction) else None


def _cell_rect(camera: Camera, cell: Pos) -> pygame.Rect:
    return pygame.Rect(*camera.screen(cell), camera.cell, camera.cell)


def plan_secret(world: World, view: View) -> Callable[[str], bool]:
    """Whose prepared plans the screen must not tell (in the log, the sidebar, the board): the
    creatures of every side but the seated one."""
    return lambda unit: not view.sees_plan_of(team_of(world, unit))


def unit_at(world: World, cell: Pos, side: str | None) -> str | None:
    """The creature `side` sees standing in `cell`, if any (the first in scenario order)."""

    def where() -> dict[Pos, str]:
        found: dict[Pos, str] = {}
        for unit in visible(world, side):
            found.setdefault(world.need(unit, Position).cell, unit)
        return found

    return world.memo(("ui.unit_at", side), where, reads=(Team, Stats, Conditions, Position)).get(
        cell
    )


class Renderer:
    def __init__(self, session: Session, metrics: Metrics | None = None) -> None:
        self.m = metrics or Metrics()  # every size on the panels, from the one UI scale
        self.fonts = Fonts()
        self.terrain = TerrainLayer(session.battle.world.grid, self.fonts)
        self.overlays = Overlays(self.fonts)
        self.marks = Marks(self.fonts)
        self.tokens = Tokens(self.fonts)
        self.bar_panel = BarPanel(self.fonts, self.m)
        self.hits = Hits()
        self._memos: dict[str, tuple[tuple[object, ...], Any]] = {}
        self._reach_src: object = None
        self._panels: dict[str, tuple[tuple[object, ...], pygame.Surface]] = {}
        self._panel_hits: dict[str, list[tuple[pygame.Rect, str, str]]] = {}
        self._reach_cells: dict[Pos, str] = {}
        self._token_rects: list[pygame.Rect] = []
        self._forecasts: dict[tuple[object, ...], Forecast | None] = {}
        self.tip: tuple[tuple[str, ...], pygame.Rect] | None = None  # the last frame's tip
        self.legend: list[str] = []  # the sidebar legend's keys, as last drawn
        self.session_world: World | None = None
        self._sidebar_end = 0  # where the kept top of the sidebar ends

    # --- layout ------------------------------------------------------------------------------
    def rescale(self, metrics: Metrics) -> None:
        """Lay the panels out again at another UI scale: the kept pictures and measurements
        were made at the old one. The game and the view are untouched."""
        self.m = metrics
        self.bar_panel = BarPanel(self.fonts, metrics)
        self._memos.clear()
        self._panels.clear()
        self._panel_hits.clear()

    def layout(self, size: tuple[int, int]) -> Layout:
        w, h = size
        side = self.m.sidebar_width(w)
        bar_h = min(self.bar_panel.height, max(self.m.px(60), h - self.m.px(160)))
        return Layout(
            board=pygame.Rect(0, 0, w - side, h - bar_h),
            bar=pygame.Rect(0, h - bar_h, w - side, bar_h),
            sidebar=pygame.Rect(w - side, 0, side, h),
        )

    def _floored(self, floor: int, draw: Callable[[], T]) -> T:
        """Draw a panel whose lines may outrun its height (a short window, a large scale):
        the lines that do not fit are left out whole."""
        self.fonts.floor = floor
        try:
            return draw()
        finally:
            self.fonts.floor = None

    # --- cached questions --------------------------------------------------------------------
    def _memo(self, name: str, key: tuple[object, ...], make: Callable[[], T]) -> T:
        """The answer kept under `name` while its key stays the same. The questions a frame
        asks (checks, threats, lists) change with the state and the view, not with the frame."""
        kept = self._memos.get(name)
        if kept is not None and kept[0] == key:
            return kept[1]  # type: ignore[no-any-return]
        value = make()
        self._memos[name] = (key, value)
        return value

    def threats(self, session: Session, view: View) -> dict[Pos, int]:
        """How many enemies (of the chosen teams, that the seat can see) threaten each cell."""
        world = session.battle.world
        chosen = view.threat_teams
        if chosen is None:
            chosen = tuple(t for t in teams(world) if t != view.side) if view.side else teams(world)
        side = view.eyes
        return self._memo(
            "threats",
            (session.version, chosen, side),
            lambda: {p: len(u) for p, u in threat_map(world, chosen, side).items()},
        )

    def hover_info(self, session: Session, view: View) -> tuple[str, ...]:
        """Who could hit a creature of ours in the hovered cell: the enemies (of the selected
        creature's side, else of the seat's) whose melee reach covers it, not our allies."""
        world = session.battle.world
        hover = view.hover
        if hover is None or not world.grid.inside(hover):
            return ()
        side = view.eyes
        ours = (
            team_of(world, view.selected)
            if view.selected and world.exists(view.selected)
            else view.side
        )

        def foes() -> tuple[str, ...]:
            return tuple(u for u in who_can_hit(world, hover, side) if team_of(world, u) != ours)

        return self._memo("hover", (session.version, hover, side, ours), foes)

    def odds_aim(self, session: Session, view: View) -> tuple[str, str, str] | None:
        """The (actor, action, target) whose odds the hovered cell shows: the action being
        targeted (one of ODDS_ACTIONS), or with the acting creature selected and nothing
        chosen, an attack on the hovered enemy; only when the engine would take it now."""

        world = session.battle.world
        hover = view.hover
        if hover is None or not world.grid.inside(hover) or view.preparing is not None:
            return None
        unit = unit_at(world, hover, view.eyes)
        if unit is None:
            return None
        if view.targeting:
            actor, action = view.selected, view.targeting
            if actor is None or action not in ODDS_ACTIONS:
                return None
            decision = target_choice(view, unit)
        else:
            actor, action = turn_unit(session), "attack"
            if view.choosing or view.picking or view.marking is not None:
                return None
            if actor is None or view.selected != actor or unit == actor:
                return None
            if team_of(world, unit) == team_of(world, actor):
                return None
            decision = build(actor, action, view.slow, view.quicken, target=unit)
        if decision is None or not view.sits_for(team_of(world, actor)):
            return None
        if isinstance(judge(session.battle, decision), Refusal):
            return None
        return actor, action, unit

    def forecast(self, session: Session, view: View) -> Forecast | None:
        """The odds the hover shows (sim.odds, in words), kept per battle version and
        (actor, action, target): moving the mouse back and forth asks the dice once."""
        key = (*self._aim_key(session, view), view.hover, view.choosing, view.picking,
               view.marking is not None)  # fmt: skip
        aim = self._memo("odds_aim", key, lambda: self.odds_aim(session, view))
        if aim is None:
            return None
        found = (session.version, *aim)
        if found not in self._forecasts:
            if any(k[0] != session.version for k in self._forecasts):
                self._forecasts.clear()
            self._forecasts[found] = forecast(session.battle.world, *aim)
        return self._forecasts[found]

    def odds_rows(self, session: Session, view: View) -> list[tuple[str, pal.RGB]]:
        """The forecast's lines for a tip, wrapped to its width."""
        found = self.forecast(session, view)
        if found is None:
            return []
        rows: list[tuple[str, pal.RGB]] = []
        for i, line in enumerate(found.lines):
            colour = pal.TEXT_DIM if i == 0 and found.lines[0].endswith("armour") else pal.TEXT
            rows += [(part, colour) for part in self.fonts.wrap(line, self.m.font, self.m.px(380))]
        return rows

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
        self.tip = None
        self.session_world = session.battle.world  # for the tips' item names
        self.measure(surface.get_size(), session, view)
        lay = self.layout(surface.get_size())
        if view.handover is not None:
            self._handover(surface, session, view)
            return self.hits
        # The ground's picture covers the whole board (VOID beyond the map); the sidebar and
        # the bar cover the rest.
        self._board(surface, lay.board, session, view, planner, camera)
        # The sidebar in three pictures, so a hover redraws only its own few lines: the top
        # (scenario, initiative, selection, legend) kept while the state and the view stay the
        # same, the hovered cell's lines drawn every frame, and the log kept while it and its
        # place stay the same.
        side = lay.sidebar
        top_key = (
            session.version, side.size, view.selected, view.side, view.omniscient,
            view.show_reach, view.move_only, view.show_threat, view.show_own, view.hint,
        )  # fmt: skip
        self._panel_cached(
            "sidebar",
            top_key,
            surface,
            side,
            lambda: self._floored(
                side.bottom,
                lambda: self._sidebar(surface, side, session, view, planner),
            ),
        )
        y = self._floored(side.bottom, lambda: self._cell_section(surface, side, session, view))
        y = max(y, side.y + self.m.px(200))
        if y < side.bottom:
            log_key = (
                session.version, side.size, y, view.side, view.omniscient, view.log_offset,
                session.notice,
            )  # fmt: skip
            log_rect = pygame.Rect(side.x, y, side.width, side.bottom - y)
            self._panel_cached(
                "log",
                log_key,
                surface,
                log_rect,
                lambda: self._floored(
                    side.bottom, lambda: self._log(surface, side, y, session, view)
                ),
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
            session.version, lay.bar.size, over, view.status, view.last, view.side, view.omniscient,
            view.show_reach, view.show_threat, view.show_own, view.disengage, view.slow,
            view.quicken, view.help, view.move_only, view.targeting, view.picking, view.choosing,
            view.ability, view.ally, repr(view.preparing), repr(view.marking),
        )  # fmt: skip
        bar, hits = self.bar_panel, self.hits
        self._panel_cached("bar", bar_key, surface, lay.bar,
                           lambda: bar.draw(surface, lay.bar, session, view, hits))  # fmt: skip
        pending = session.battle.pending
        if isinstance(pending, AwaitingReaction) and (
            view.sits_for(team_of(session.battle.world, pending.unit))
        ):
            self._reaction(surface, lay.board, session, view, pending, camera)
        if view.picking is not None:
            self._item_list(surface, lay.board, session, view)
        if view.choosing is not None:
            self._choice_list(surface, lay.board, session, view)
        if isinstance(pending, BattleOver):
            self._battle_over(surface, lay.board, session)
        if view.help:
            self._help(surface, lay.board)
        return self.hits

    def draw_menu(self, surface: pygame.Surface, page: str, rows: list[MenuLine]) -> None:
        """The Esc menu (or its settings or replay page) over the board: numbered lines, each
        saying what it does or why it cannot be chosen now."""
        board = self.layout(surface.get_size()).board
        title = MENU_TITLES.get(page, MENU_TITLES["main"])
        listed = [(line.value, line.label, line.ok, line.detail) for line in rows]
        self._list_panel(surface, board, title, listed, "menu", "")

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
            or view.marking is not None
            or not world.grid.inside(view.hover)
        ):
            return None
        if turn_unit(session) != unit or not view.sits_for(team_of(world, unit)):
            return None
        if unit_at(world, view.hover, view.eyes) is not None:
            # A click on a creature attacks or selects it, never moves there
            # (`App.click_cell`): no path is offered into its cell, even one the engine
            # would take (a downed creature's), so the tip says what the click does.
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
        if not view.omniscient and (
            turn_unit(session) != unit or team_of(world, unit) != view.side
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
        marking = view.marking is not None
        aiming = bool(view.targeting or view.choosing or view.picking or marking)
        reach = {} if aiming else self.reach_cells(session, view, planner)
        if reach:
            self.overlays.draw_reach(surface, camera, reach)
        if view.show_threat:
            self.overlays.draw_threat(surface, camera, self.threats(session, view))
        own = view.selected
        if view.show_own and own and world.has(own, Position):
            cells = self._memo("own", (session.version, own), lambda: threatened(world, own))
            self.overlays.draw_own(surface, camera, cells)
        self.terrain.draw_edges(surface, camera, rect)
        self._goals(surface, camera, session)
        self._ground_items(surface, camera, world)
        area = self._area(session, view)
        if area:
            self.overlays.draw_area(surface, camera, area)
        marked = self.marked_areas(session, view)
        for cells, _ in marked:
            self.marks.draw_area(surface, camera, cells)
        happening = self.underway_shown(session, view)
        if happening is not None:
            if happening.move is not None:
                m = happening.move
                self.marks.draw_move(surface, camera, m.here, m.ahead, m.jumps)
            for start, end, _ in self._aim_ends(world, happening):
                self.marks.draw_aimed(surface, camera, start, end)
        odds = self.forecast(session, view)
        # A click on an enemy it can attack attacks (`App.click_cell`), even when a path could
        # end in its cell (a Prone one): the tip says what the click does.
        plan = None if aiming or odds is not None else self.plan(session, view, planner)
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
        self._token_rects = []
        for unit, style in self._shown(session, view):
            self._token_rects.append(_cell_rect(camera, world.need(unit, Position).cell))
            self.tokens.draw(
                surface, camera, world, unit, style,
                current=unit == current, selected=unit == view.selected,
            )  # fmt: skip
        self.terrain.draw_labels(surface, camera, rect, self._token_rects)
        if plan is not None and not view.disengage:
            self.overlays.draw_warnings(surface, camera, plan)
        self._markers(surface, camera, session, view)
        for cells, label in marked:
            first = min(cells, key=lambda p: (p.y, p.x))
            self.marks.tag(surface, camera, first, label, rect)
        if happening is not None:
            self._draw_underway(surface, rect, camera, session, happening)
        if view.targeting:
            for cell in self._aims(session, view):
                self.overlays.draw_aim(surface, camera, cell)
        for number, landing in enumerate(pushed, 1):
            if landing.cells:
                self.marks.draw_landing(
                    surface, camera, landing.cells[-1], number if len(pushed) > 1 else 0
                )
        if plan is not None and view.selected:
            self._path_tip(surface, rect, camera, plan, session, view)
        elif view.hover is not None and world.grid.inside(view.hover):
            box = _cell_rect(camera, view.hover)
            pygame.draw.rect(surface, pal.BLACK, box, 4)
            pygame.draw.rect(surface, pal.WHITE, box.inflate(-2, -2), 2)
            if marking:
                self._mark_tip(surface, rect, camera, session, view, view.hover)
            elif view.targeting or not aiming:
                self._cell_tip(surface, rect, camera, session, view, view.hover)
        surface.set_clip(None)

    def _shown(self, session: Session, view: View) -> list[tuple[str, pal.TeamStyle]]:
        """The creatures the seat sees, with their side's look."""

        def make() -> list[tuple[str, pal.TeamStyle]]:
            world = session.battle.world
            order = teams(world)
            return [
                (u, pal.team_style(team_of(world, u), order)) for u in visible(world, view.eyes)
            ]

        return self._memo("shown", (session.version, view.eyes), make)

    def marked_areas(self, session: Session, view: View) -> list[tuple[tuple[Pos, ...], str]]:
        """Areas marked for Prepare's "enters_area" trigger, with their labels: the one being
        marked or just chosen, and the plans waiting for it that the seat may know of (its own
        side's: the other side sees that a creature holds an action, not where it watches)."""
        world = session.battle.world
        out: list[tuple[tuple[Pos, ...], str]] = []
        for unit, plan in world.each(Prepared):
            if (
                plan.trigger == "enters_area"
                and plan.cells
                and not plan.by
                and view.sees_plan_of(team_of(world, unit))
            ):
                out.append((tuple(plan.cells), f"{unit} watches this area"))
        if view.marking:
            n = len(view.marking)
            out.append((tuple(view.marking), f"marking: {n} cell{'s' if n != 1 else ''}"))
        elif view.preparing is not None and view.preparing.get("cells"):
            cells = tuple(Pos(x, y) for x, y in view.preparing["cells"])
            out.append((cells, "the area to watch"))
        return out

    def underway_shown(self, session: Session, view: View) -> Underway | None:
        """While the seat answers a reaction prompt: the move or attack it is about."""
        pending = session.battle.pending
        world = session.battle.world
        if not isinstance(pending, AwaitingReaction) or not view.sits_for(
            team_of(world, pending.unit)
        ):
            return None
        found = self._memo("underway", (session.version,), lambda: underway(session.battle))
        if found is None:
            return None
        side = view.eyes
        move = found.move
        if move is not None and hidden_from(world, move.unit, side):
            move = None
        aims = tuple(
            a
            for a in found.aims
            if not hidden_from(world, a.actor, side)
            and (a.target is None or not hidden_from(world, a.target, side))
        )
        return Underway(move, aims) if move is not None or aims else None

    @staticmethod
    def _aim_ends(world: World, happening: Underway) -> list[tuple[Pos, Pos, str]]:
        """Each action aimed under way: from the actor's cell to its target's (or the cell
        aimed at), with its label."""
        out = []
        for aim in happening.aims:
            end = world.need(aim.target, Position).cell if aim.target else aim.cell
            if end is not None:
                start = world.need(aim.actor, Position).cell
                out.append((start, end, f"{aim.actor}: {aim.what}"))
        return out

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
        for start, end, label in self._aim_ends(session.battle.world, happening):
            self.overlays.draw_aim(surface, camera, end)
            self.marks.draw_aimed_head(surface, camera, start, end, label, board)
        move = happening.move
        if move is not None and move.ahead:
            words = f"{move.unit}'s {move.action.replace('_', ' ')} ends here"
            self.marks.tag(surface, camera, move.end, words, board)

    def _mark_tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        session: Session,
        view: View,
        hover: Pos,
    ) -> None:
        """What a click does while Prepare's area is being marked."""
        marked = view.marking or []
        if hover in marked:
            head = f"click: unmark {hover}"
        elif (problem := unmarkable(session.battle.world, hover)) is not None:
            head = problem
        else:
            head = f"click: mark {hover}"
        rows: list[tuple[str, pal.RGB]] = [
            (head, pal.TEXT),
            (f"{len(marked)} marked; Enter when done, Esc cancels", pal.TEXT_DIM),
        ]
        self._tip(surface, board, _cell_rect(camera, hover), rows)

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

    def _area(self, session: Session, view: View) -> tuple[Pos, ...]:
        """The cells an area spell aimed at the hovered cell would reach."""
        if view.targeting not in ABILITY_ACTIONS or view.hover is None:
            return ()
        world = session.battle.world
        ability = world.catalog.abilities.get(view.ability or "")
        if ability is None or ability.target not in ("area", "cell"):
            return ()
        centre = view.hover
        if not world.grid.inside(centre):
            return ()
        key = (session.version, centre, ability.radius_half)
        return self._memo("area", key, lambda: _area_cells(world, centre, ability.radius_half))

    def _aim_key(self, session: Session, view: View) -> tuple[object, ...]:
        """What the answers about the action being targeted depend on."""
        return (
            session.version, view.targeting, view.item, view.ability, view.slow, view.quicken,
            view.side, view.omniscient, view.selected, repr(view.preparing), view.ally,
        )  # fmt: skip

    def _aims(self, session: Session, view: View) -> tuple[Pos, ...]:
        """Cells of the creatures the action being targeted could be aimed at now."""
        return self._memo("aims", self._aim_key(session, view), lambda: _aim_cells(session, view))

    def _cell_tip(
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
        avoid: tuple[pygame.Rect, ...] = ()
        if view.targeting:
            key = (*self._aim_key(session, view), hover)
            rows = self._memo("target_tip", key, lambda: self._target_rows(session, view, hover))
            if view.selected and world.has(view.selected, Position):
                avoid = (_cell_rect(camera, world.need(view.selected, Position).cell),)
        else:
            actor = turn_unit(session)
            if actor is None or view.selected != actor:
                return
            key = (session.version, hover, actor, view.side, view.omniscient,
                   view.preparing is not None, view.slow, view.quicken)  # fmt: skip
            rows = self._memo("enemy_tip", key, lambda: self._enemy_rows(session, view, hover))
        odds = self.forecast(session, view)
        if odds is not None:  # keep the places a shove may land in sight
            avoid += tuple(
                _cell_rect(camera, c) for landing in odds.landings for c in landing.cells
            )
        if rows:
            self._tip(surface, board, _cell_rect(camera, hover), rows, avoid)

    def _enemy_rows(self, session: Session, view: View, hover: Pos) -> list[tuple[str, pal.RGB]]:
        world = session.battle.world
        actor = turn_unit(session)
        assert actor is not None
        if not view.sits_for(team_of(world, actor)):
            return []
        unit = unit_at(world, hover, view.eyes)
        if unit is None or team_of(world, unit) == team_of(world, actor):
            return []
        hp = world.need(unit, Health)
        down = incapacitated(world, unit)
        rows: list[tuple[str, pal.RGB]] = [
            (f"{unit}  HP {hp.hp}/{hp.max_hp}{', down' if down else ''}", pal.TEXT)
        ]
        if down:
            # R-C6: at 0 HP or less it is Incapacitated whatever the number; R-K2: Aid brings
            # it back at 1 HP however far below 0 it went, so a further hit changes nothing.
            rows.append(("it is out of the fight: a hit only lowers its HP", pal.TEXT_DIM))
        if view.preparing is not None:
            rows.append(("choose the action to hold ready in the bar", pal.TEXT_DIM))
            rows.append(("click to select it", pal.TEXT_DIM))
            return rows
        decision = build(actor, "attack", view.slow, view.quicken, target=unit)
        result = judge(session.battle, decision)
        if isinstance(result, Refusal):
            rows.append(("cannot attack:", pal.TEXT_BAD))
            rows += [
                (line, pal.TEXT_BAD)
                for line in self.fonts.wrap(result.reason, self.m.font, self.m.px(340))
            ]
            rows.append(("click to select it", pal.TEXT_DIM))
        else:
            rows.append((f"click: attack {unit} ({cost_label(result)})", pal.TEXT))
            rows += self.odds_rows(session, view)
        return rows

    def _tip(
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
        world = self.session_world
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
        avoid = (cell, *avoid)
        clear = [b for b in inside if not any(b.colliderect(a) for a in avoid)] or inside
        # Among those, cover as few creatures as can be.
        box = min(clear, key=lambda b: len(b.collidelistall(self._token_rects))).clamp(board)
        self.tip = (tuple(text for text, _ in rows), box)
        pygame.draw.rect(surface, pal.PANEL, box)
        pygame.draw.rect(surface, pal.PANEL_EDGE, box, 1)
        for i, (text, colour) in enumerate(rows):
            self.fonts.draw(surface, text, (box.x + gap, box.y + pad + i * step), size, colour)

    def _path_tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        plan: PathPlan,
        session: Session,
        view: View,
    ) -> None:
        rows: list[tuple[str, pal.RGB]] = []
        if plan.action is None:
            rows.append(("cannot move there", pal.TEXT_BAD))
            for line in self.fonts.wrap(plan.refusal, self.m.font, self.m.px(360)):
                rows.append((line, pal.TEXT_BAD))
        else:
            head = (
                f"{plan.action.title()}{' submerged' if plan.submerged else ''} {plan.metres:g} m"
            )
            if plan.jumps:
                head += f", {len(plan.jumps)} jump{'s' if len(plan.jumps) > 1 else ''} (dashed)"
            rows.append((head, pal.TEXT))
            if plan.hang is not None:
                rows.append((hang_words(session.battle.world, plan.hang), pal.YELLOW))
            bonus_left = plan.bonus_left - (1 if view.disengage else 0)
            rows.append((f"left after: {plan.half_left} half, {bonus_left} bonus", pal.TEXT))
            if view.disengage:
                rows.append(("Disengage first (1 bonus): provokes nobody", pal.TEXT))
            for prov in plan.provocations if not view.disengage else ():
                can = "has a Bonus Action" if prov.can_react else "no Bonus Action left"
                rows.append(
                    (
                        f"! leaving {prov.cell}: {prov.enemy} may attack ({can})",
                        pal.TEXT_BAD if prov.can_react else pal.TEXT_DIM,
                    )
                )
            world = session.battle.world
            end = plan.cells[-1] if plan.cells else None
            if end is not None and end == view.hover and plan.unit in creatures(world):
                own = team_of(world, plan.unit)
                enemies = [u for u in self.hover_info(session, view) if team_of(world, u) != own]
                if enemies:
                    rows.append((f"ends in reach of: {', '.join(enemies)}", pal.TEXT_DIM))
            if view.waypoints:
                rows.append((f"{len(view.waypoints)} waypoint(s); Backspace removes", pal.TEXT_DIM))
            if view.preparing is not None:
                rows.append(("held ready, not taken now", pal.YELLOW))
        end = plan.cells[-1] if plan.cells else view.hover
        assert end is not None
        world = session.battle.world
        keep = [world.need(plan.unit, Position).cell, *(p.cell for p in plan.provocations)]
        avoid = tuple(_cell_rect(camera, cell) for cell in keep)
        self._tip(surface, board, _cell_rect(camera, end), rows, avoid)

    def _target_rows(self, session: Session, view: View, hover: Pos) -> list[tuple[str, pal.RGB]]:
        """What clicking `hover` would do with the action being targeted, as the click does."""

        world = session.battle.world
        unit = unit_at(world, hover, view.eyes)
        what = view.targeting or ""
        if view.ability:
            what += f" {view.ability}"
        aim = aim_needs(world, view)
        words = assist_step(view) if view.targeting == "assist" else aim_words(aim)
        rows: list[tuple[str, pal.RGB]] = [(f"{what}: choose {words} (Esc cancels)", pal.TEXT)]
        result = ""
        if "target" in aim and unit is not None and view.selected:
            result = f"{unit}: {target_verdict(session, view, unit).words}"
        elif "to" in aim:
            decision = cell_choice(view, hover)
            if decision is not None:
                result = f"{hover}: " + (
                    f"refused: {decision}"
                    if isinstance(decision, str)
                    else verdict_words(judge(session.battle, decision))
                )
        for line in self.fonts.wrap(result, self.m.font, self.m.px(380)) if result else ():
            rows.append((line, pal.TEXT_BAD if "refused" in result else pal.TEXT))
        return rows + self.odds_rows(session, view)

    # --- sidebar -----------------------------------------------------------------------------
    def _sidebar(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        session: Session,
        view: View,
        planner: Planner,
    ) -> None:
        px = self.m.px
        pygame.draw.rect(surface, pal.PANEL, rect)
        pygame.draw.line(surface, pal.PANEL_EDGE, rect.topleft, rect.bottomleft, 2)
        world = session.battle.world
        x = rect.x + px(10)
        w = rect.width - px(20)
        y = rect.y + px(8)
        f = self.fonts
        y = f.draw(
            surface,
            f.fit(session.scenario.name, px(pal.FONT + 4), w, bold=True),
            (x, y),
            px(pal.FONT + 4),
            bold=True,
        ).bottom + px(2)
        about = [session.scenario.description] if session.scenario.description else []
        for text in about + self._goal_lines(session)[:3]:
            for line in f.wrap(text, px(pal.FONT_SMALL + 1), w)[:3]:
                y = f.draw(surface, line, (x, y), px(pal.FONT_SMALL + 1), pal.TEXT_DIM).bottom
        y += px(2)
        turn = world.turn
        pending = session.battle.pending
        seat = "everyone" if view.omniscient or view.side is None else view.side.upper()
        playing = "".join(f" · {team.upper()}: AI {level}" for team, level in view.ai.items())
        y = f.draw(
            surface,
            f"Round {turn.round} · seat: {seat}{playing}",
            (x, y),
            self.m.font,
            pal.TEXT_DIM,
        ).bottom + px(2)
        actor = acting_unit(session)
        if isinstance(pending, AwaitingReaction):
            text = f"Waiting: {pending.unit} may react"
        elif actor:
            text = f"Turn: {actor} ({team_of(world, actor)})"
        else:
            text = "Battle over"
        y = f.draw(
            surface, f.fit(text, self.m.font, w, True), (x, y), self.m.font, bold=True
        ).bottom + px(4)
        if view.hint and not isinstance(pending, BattleOver):
            for line in f.wrap(view.hint, self.m.font_small, w):
                y = f.draw(surface, line, (x, y), self.m.font_small, pal.YELLOW).bottom
            y += px(4)
        if actor and world.has(actor, Budget):
            y = self._pips(
                surface,
                x,
                y,
                w,
                world.need(actor, Budget),
                world.rules.half_actions,
                world.rules.bonus_actions,
            )
        y = self._section(surface, rect, y, "Initiative")
        side = view.eyes
        order = teams(world)
        for unit in turn.order:
            hidden = hidden_from(world, unit, side)
            style = pal.team_style(team_of(world, unit), order)
            mark = ">" if unit == turn.current else ("!" if unit == actor else " ")
            draw_shape(surface, style, (x + px(22), y + px(8)), px(6), pal.BLACK, 1)
            f.draw(surface, mark, (x, y), self.m.font, pal.HIGHLIGHT)
            if hidden:
                label = "??? (unseen)"
            else:
                hp = world.need(unit, Health)
                down = " down" if incapacitated(world, unit) else ""
                ready = " (prepared)" if world.has(unit, Prepared) else ""
                label = f"{unit}  HP {hp.hp}/{hp.max_hp}{down}{ready}"
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
        if (
            view.selected
            and world.exists(view.selected)
            and not hidden_from(world, view.selected, side)
        ):
            y = self._section(surface, rect, y, f"Selected: {view.selected}")
            y = self._unit_info(surface, x, y, w, session, view, view.selected)
        reach = self.reach_cells(session, view, planner)
        shown = sorted(set(reach.values()), key=list(pal.MOVE_STYLES).index) if reach else []
        if shown or view.show_threat or view.show_own:
            y = self._legend(surface, x, y, w, shown, view.show_threat, view.show_own)
        self._sidebar_end = y

    def _cell_section(
        self, surface: pygame.Surface, rect: pygame.Rect, session: Session, view: View
    ) -> int:
        """The hovered cell's lines under the sidebar's top: what it is and who can hit a
        creature of ours there; where the log begins."""
        y = self._sidebar_end
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
        who = self.hover_info(session, view)
        text = "can be hit by: " + (", ".join(who) if who else "nobody")
        for line in f.wrap(text, self.m.font, w):
            y = f.draw(surface, line, (x, y), self.m.font, pal.TEXT).bottom
        return y + px(4)

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

    def _goal_lines(self, session: Session) -> list[str]:
        """How the battle is won, in words."""
        out = []
        for objective in session.battle.objectives:
            if isinstance(objective, Reach):
                cells = ", ".join(str(c) for c in objective.cells[:3])
                out.append(f"Goal: {objective.team} wins by reaching {cells} (flag)")
            else:
                out.append(f"Goal: {objective.team} wins by holding out {objective.rounds} rounds")
        out.append(
            "or by leaving no other side standing" if out else "Goal: be the last side standing"
        )
        return out

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
        for row in self.unit_lines(session, view, unit):
            for line in f.wrap(row, self.m.px(pal.FONT_SMALL + 1), w):
                y = f.draw(surface, line, (x, y), self.m.px(pal.FONT_SMALL + 1), pal.TEXT).bottom
        return y + 2

    def unit_lines(self, session: Session, view: View, unit: str) -> list[str]:
        """The sidebar's lines about the selected creature; a prepared plan in full only for
        its own side's seat (the other side sees that it holds an action)."""
        world = session.battle.world
        hp = world.need(unit, Health)
        pos = world.need(unit, Position)
        budget = world.get(unit, Budget)
        rows = [
            f"{team_of(world, unit)} · HP {hp.hp}/{hp.max_hp} · at {pos.cell}"
            + (f" up {pos.elevation:g} m" if pos.elevation else "")
        ]
        if budget is not None:
            rows.append(f"budget: {budget.half} half, {budget.bonus} bonus")
        held = [
            words for k, v in conditions(world, unit).entries if (words := condition_words(k, v))
        ]
        rows.append("conditions: " + (", ".join(held) or "none"))
        hands = world.get(unit, Hands)
        gear = world.get(unit, Gear)
        if hands is not None:
            # Items by name (a Catch's "dropping the first dagger" names them alike).
            holds = item_names(world, hands.items())
            rows.append("holds: " + (", ".join(holds.values()) or "nothing"))
        if gear is not None and gear.carried:
            carried = Counter(item_name(world, item) for item in gear.carried)
            rows.append(
                "carries: "
                + ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in carried.items())
            )
        spells = known(world, unit)
        if spells:
            rows.append("knows: " + ", ".join(spells) + " [C cast / U use]")
        plan = world.get(unit, Prepared)
        if plan is not None and not view.sees_plan_of(team_of(world, unit)):
            rows.append("prepared: holds an action ready (what for is hidden from you)")
        elif plan is not None:
            words = trigger_words(
                {"trigger": plan.trigger, "metres": plan.metres, "watch": plan.watch,
                 "cells": plan.cells}
            )  # fmt: skip
            then = to_json(plan.then)
            target = then.get("target") or then.get("spell") or then.get("ability") or ""
            rows.append(f"prepared: {then.get('action')} {target} {words}".replace("  ", " "))
        policy = world.get(unit, Policy) or Policy()
        rows.append(f"reactions: {policy.reactions} [P] · defence: {policy.defence} [O]")
        return rows

    def _legend(
        self,
        surface: pygame.Surface,
        x: int,
        y: int,
        w: int,
        actions: list[str],
        threat: bool,
        own: bool,
    ) -> int:
        """What the board's overlays mean, for those shown now: each reach tile with its letter
        and the cheapest Movement Action it stands for, the threat's striped frame (the number
        is how many enemies reach the cell) and the dashed own reach."""
        px = self.m.px
        y += px(4)
        size = px(22)
        cx = x
        keys: list[tuple[pygame.Surface, str]] = []
        for action in actions:
            letter = pal.MOVE_STYLES[action].letter if action in pal.MOVE_STYLES else "?"
            keys.append((self.overlays.reach_tile(action, size), f"{letter} {action}"))
        if threat:
            keys.append((self.overlays.threat_tile(1, size), "enemies reach (count)"))
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

    def log_lines(self, session: Session, view: View) -> list[str]:
        """The last 200 lines of the log as the seat may read them (plans of the other side
        hidden)."""
        secret = plan_secret(session.battle.world, view)
        names = item_words(session.battle.world)

        def said() -> list[str]:
            log, out, start = session.battle.log, [], 0
            # An AI's reason goes before the events of its decision.
            for at in sorted(a for a in session.notes if a <= len(log)):
                out += lines(log[start:at], secret, names)
                out.append(session.notes[at])
                start = at
            return (out + lines(log[start:], secret, names))[-200:]

        return self._memo("log", (session.version, view.side, view.omniscient), said)

    def _log(
        self, surface: pygame.Surface, rect: pygame.Rect, y: int, session: Session, view: View
    ) -> None:
        px = self.m.px
        y = self._section(surface, rect, y, "Log  [PgUp/PgDn]")
        f = self.fonts
        size = px(pal.FONT_SMALL + 1)
        width = rect.width - px(20)
        text = self.log_lines(session, view)
        wrapped = self._memo(
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

    # --- action bar (sim/ui/barpanel.py) -----------------------------------------------------
    @property
    def bar(self) -> ActionBar:
        return self.bar_panel.bar

    @property
    def bar_status(self) -> str:
        """The last frame's status line under the bar."""
        return self.bar_panel.status

    @property
    def bar_details(self) -> tuple[str, ...]:
        """The status line's rule ids, shown dim."""
        return self.bar_panel.details

    def measure(self, size: tuple[int, int], session: Session, view: View) -> None:
        """Flow the bar's buttons into rows for this width, so the board knows its height."""
        self.bar_panel.measure(size, session, view)

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
            if world.exists(marker.unit) and hidden_from(world, marker.unit, view.eyes):
                continue
            box = _cell_rect(camera, marker.cell)
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

    # --- screens over the board --------------------------------------------------------------
    def _panel(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        width: int,
        height: int,
    ) -> pygame.Rect:
        """A dialog box over the shaded board; over the whole shaded window when the board is
        too short for it (a large UI scale leaves a small window little board)."""
        px = self.m.px
        area = board if height <= board.height - px(20) else surface.get_rect()
        box = pygame.Rect(0, 0, min(width, area.width - px(20)), min(height, area.height - px(20)))
        box.center = area.center
        shade = pygame.Surface(area.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surface.blit(shade, area.topleft)
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=6)
        pygame.draw.rect(surface, pal.PANEL_EDGE, box, 2, border_radius=6)
        return box

    def _handover(self, surface: pygame.Surface, session: Session, view: View) -> None:
        px = self.m.px
        world = session.battle.world
        rect = surface.get_rect()
        surface.fill(pal.PANEL)
        side = view.handover or ""
        style = pal.team_style(side, teams(world))
        draw_shape(surface, style, (rect.centerx, rect.centery - px(110)), px(40), pal.WHITE, 3)
        f = self.fonts
        f.draw(
            surface,
            f"Pass the screen to {side.upper()}",
            (rect.centerx, rect.centery - px(40)),
            px(pal.FONT_BIG + 8),
            bold=True,
            anchor="center",
        )
        pending = session.battle.pending
        if isinstance(pending, AwaitingReaction):
            line = f"{pending.unit} may react: {pending.trigger}"
            current = world.turn.current
            if current and team_of(world, current) != side:
                line += f". Then the screen goes back to {team_of(world, current).upper()}."
        elif isinstance(pending, AwaitingAction):
            line = f"{pending.unit}'s turn (round {world.turn.round})"
        else:
            line = ""
        for i, text in enumerate(f.wrap(line, px(pal.FONT + 4), rect.width - px(80))):
            f.draw(
                surface,
                text,
                (rect.centerx, rect.centery + px(10) + i * px(24)),
                px(pal.FONT + 4),
                anchor="center",
            )
        button = pygame.Rect(0, 0, px(320), px(48))
        button.center = (rect.centerx, rect.centery + px(100))
        # In the colour of the side taking the screen, with the ink that reads best on it.
        pygame.draw.rect(surface, style.colour, button, border_radius=6)
        pygame.draw.rect(surface, pal.WHITE, button, 2, border_radius=6)
        f.draw(
            surface,
            f"{side.upper()} is ready  [Enter]",
            button.center,
            px(pal.FONT + 4),
            pal.ink_on(style.colour),
            bold=True,
            anchor="center",
        )
        self.hits.add(button, "handover", side)
        f.draw(
            surface,
            "The board stays hidden until the other side has the screen.",
            (rect.centerx, button.bottom + px(30)),
            self.m.font,
            pal.TEXT_DIM,
            anchor="center",
        )
        for i, text in enumerate(f.wrap(view.offer, px(pal.FONT + 2), rect.width - px(80))):
            f.draw(
                surface,
                text,
                (rect.centerx, button.bottom + px(70) + i * px(22)),
                px(pal.FONT + 2),
                pal.YELLOW,
                anchor="center",
            )

    def _reaction(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        session: Session,
        view: View,
        pending: AwaitingReaction,
        camera: Camera,
    ) -> None:
        """The reaction prompt, placed where it covers least of what it asks about (the board
        stays unshaded, so the situation stays in view): who may react to what, what the board
        shows of it, each option with what it does and costs, and the Bonus Actions left."""
        px = self.m.px
        world = session.battle.world
        f = self.fonts
        options = prompt_options(session.battle)
        happening = self.underway_shown(session, view)
        shown = happening.words() if happening is not None else []
        left = world.get(pending.unit, Budget)
        bonus = f"{pending.unit} has {left.bonus if left else 0} Bonus Action(s) left"
        if left is not None and world.turn.current == pending.unit:
            # On its own turn a reaction may be slowed and paid with half-actions (R-B7).
            bonus = (
                f"{pending.unit} has {left.half} half-action(s), {left.bonus} Bonus Action(s) left"
            )
        helps = self._memo(
            "reaction",
            (session.version,),
            lambda: [prompt_help(world, pending, o) for o in options],
        )

        line_h = px(15)

        def high(size: int) -> int:
            return f.font(size).get_height()

        def measure(width: int) -> tuple[list[str], list[str], list[list[str]], int]:
            """The prompt's lines at `width`, wrapped in full when the board has the room,
            else one line each, else the options' names alone; and its height."""
            inner = width - px(32)
            laid: tuple[list[str], list[str], list[list[str]], int] | None = None
            for level in range(3):
                if level == 0:
                    trigger = f.wrap(pending.trigger, px(pal.FONT + 2), inner)
                    said = [part for text in shown for part in f.wrap(text, self.m.font, inner)]
                    wrapped = [f.wrap(h, px(pal.FONT_SMALL + 1), inner - px(46))[:3] for h in helps]
                elif level == 1:
                    trigger = f.wrap(pending.trigger, px(pal.FONT + 2), inner)[:2]
                    said = [f.fit(text, self.m.font, inner) for text in shown]
                    wrapped = [[f.fit(h, px(pal.FONT_SMALL + 1), inner - px(46))] for h in helps]
                else:
                    trigger = [f.fit(pending.trigger, px(pal.FONT + 2), inner)]
                    said, wrapped = [], [[] for _ in helps]
                height = (
                    px(12) + high(px(pal.FONT + 6)) + px(4) + high(px(pal.FONT + 2)) * len(trigger)
                )
                height += high(self.m.font) * len(said) + px(2) + high(self.m.font) + px(8)
                height += sum(px(32) + line_h * len(w) for w in wrapped) + px(4)
                laid = (trigger, said, wrapped, height)
                if height <= board.height - px(20):
                    break
            assert laid is not None
            return laid

        avoid = self._underway_rect(session, camera, pending, happening)

        def lay_out() -> tuple[pygame.Rect, tuple[list[str], list[str], list[list[str]], int]]:
            box = self._prompt_place(board, lambda width: measure(width)[-1], avoid, self.m)
            return box, measure(box.width)

        # Wrapping and placing take several text measurements: once per state and view, not
        # once per frame.
        key = (session.version, view.eyes, tuple(board), tuple(avoid))
        box, (trigger, said, wrapped, _) = self._memo("prompt", key, lay_out)
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=6)
        pygame.draw.rect(surface, pal.PANEL_EDGE, box, 2, border_radius=6)
        y = box.y + px(12)
        y = f.draw(
            surface,
            f"Reaction: {pending.unit}",
            (box.x + px(16), y),
            px(pal.FONT + 6),
            pal.YELLOW,
            bold=True,
        ).bottom + px(4)
        for line in trigger:
            y = f.draw(surface, line, (box.x + px(16), y), px(pal.FONT + 2)).bottom
        for line in said:
            y = f.draw(surface, line, (box.x + px(16), y), self.m.font, pal.TEXT_DIM).bottom
        y = f.draw(
            surface, bonus, (box.x + px(16), y + px(2)), self.m.font, pal.TEXT_DIM
        ).bottom + px(8)
        for number, (option, lines_) in enumerate(zip(options, wrapped, strict=True), start=1):
            button = pygame.Rect(
                box.x + px(16), y, box.width - px(32), px(26) + line_h * len(lines_)
            )
            pygame.draw.rect(surface, pal.PANEL_LIGHT, button, border_radius=4)
            pygame.draw.rect(surface, pal.TEXT, button, 1, border_radius=4)
            name = f"[{number}]  {option_label(world, pending, option)}"
            f.draw(
                surface,
                name,
                (button.x + px(10), button.y + px(4)),
                px(pal.FONT + 2),
                bold=True,
            )
            ly = button.y + px(24)
            for line in lines_:
                f.draw(
                    surface,
                    line,
                    (button.x + px(36), ly),
                    px(pal.FONT_SMALL + 1),
                    pal.TEXT_DIM,
                )
                ly += line_h
            self.hits.add(button, "option", option)
            y = button.bottom + px(6)

    @staticmethod
    def _prompt_place(
        board: pygame.Rect, height: Callable[[int], int], avoid: pygame.Rect, m: Metrics
    ) -> pygame.Rect:
        """Where the reaction prompt goes: low in the middle, else high, else in a narrower
        column beside what it is about; the first place that covers none of `avoid`, or the
        one that covers least. `height(width)`: how tall the prompt is at that width."""
        edge = m.px(10)
        wide = min(m.px(620), board.width - 2 * edge)
        places = []
        for high in (False, True):
            box = pygame.Rect(0, 0, wide, min(height(wide), board.height - 2 * edge))
            box.centerx = board.centerx
            if high:
                box.top = board.top + edge
            else:
                box.bottom = board.bottom - edge
            places.append(box)
        room = {"right": board.right - edge - avoid.right, "left": avoid.left - board.left - edge}
        for side, free in room.items():
            width = min(wide, free)
            if width < m.px(340):
                continue
            box = pygame.Rect(0, 0, width, min(height(width), board.height - 2 * edge))
            box.bottom = board.bottom - edge
            if side == "right":
                box.right = board.right - edge
            else:
                box.left = board.left + edge
            places.append(box)

        def covered(box: pygame.Rect) -> int:
            part = box.clip(avoid)
            return part.width * part.height

        return min(places, key=covered)  # the first of those that cover least

    def _underway_rect(
        self,
        session: Session,
        camera: Camera,
        pending: AwaitingReaction,
        happening: Underway | None,
    ) -> pygame.Rect:
        """The screen area of what a reaction prompt is about: the asked creature, and the
        cells of the move or the aim under way (with room for their labels)."""
        world = session.battle.world
        cells = [world.need(pending.unit, Position).cell]
        if happening is not None:
            if happening.move is not None:
                cells += [happening.move.here, *happening.move.ahead]
            for aim in happening.aims:
                cells.append(world.need(aim.actor, Position).cell)
                if aim.target:
                    cells.append(world.need(aim.target, Position).cell)
                elif aim.cell is not None:
                    cells.append(aim.cell)
        rects = [_cell_rect(camera, cell) for cell in cells]
        return rects[0].unionall(rects[1:]).inflate(camera.cell // 2, camera.cell)

    def _list_panel(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        title: str,
        rows: list[tuple[str, str, bool, str]],
        kind: str,
        empty: str,
    ) -> None:
        """A numbered list over the board: each row (value, label, ok, detail) is a button that
        its number key also picks; a row that cannot be taken now is struck through and says
        why, so nothing is told by colour alone."""
        px = self.m.px
        f = self.fonts
        width = min(px(640), board.width - px(20))
        inner = width - px(72)
        wrapped = [
            f.wrap(detail, px(pal.FONT_SMALL + 1), inner)[:3] if detail else []
            for *_, detail in rows
        ]
        line_h = px(15)
        height = (
            px(70) + sum(px(34) + line_h * len(w) for w in wrapped) + (px(30) if not rows else 0)
        )
        box = self._panel(surface, board, width, height)
        y = f.draw(
            surface,
            f.fit(title, px(pal.FONT + 4), box.width - px(32), bold=True),
            (box.x + px(16), box.y + px(14)),
            px(pal.FONT + 4),
            pal.YELLOW,
            bold=True,
        ).bottom + px(8)
        if not rows:
            f.draw(surface, empty, (box.x + px(16), y), self.m.font, pal.TEXT_DIM)
        for number, ((value, label, ok, _), lines_) in enumerate(
            zip(rows, wrapped, strict=True), 1
        ):
            h = px(28) + line_h * len(lines_)
            if y + h > box.bottom - px(6):
                f.draw(
                    surface,
                    "… (more: make the window taller)",
                    (box.x + px(16), y),
                    self.m.font_small,
                    pal.TEXT_DIM,
                )
                break
            button = pygame.Rect(box.x + px(16), y, box.width - px(32), h)
            pygame.draw.rect(surface, pal.PANEL_LIGHT if ok else pal.PANEL, button, border_radius=4)
            pygame.draw.rect(
                surface, pal.TEXT if ok else pal.PANEL_EDGE, button, 1, border_radius=4
            )
            key = f"[{number}]  " if number <= 9 else "     "
            r = f.draw(
                surface,
                f.fit(key + label, px(pal.FONT + 1), button.width - px(16), bold=ok),
                (button.x + px(8), button.y + px(5)),
                px(pal.FONT + 1),
                pal.TEXT if ok else pal.TEXT_DIM,
                bold=ok,
            )
            if not ok:
                pygame.draw.line(
                    surface, pal.TEXT_DIM, (r.left + px(34), r.centery), (r.right, r.centery), 1
                )
            ly = button.y + px(24)
            for line in lines_:
                f.draw(
                    surface,
                    line,
                    (button.x + px(28), ly),
                    px(pal.FONT_SMALL + 1),
                    pal.TEXT_DIM if ok else pal.TEXT_BAD,
                )
                ly += line_h
            self.hits.add(button, kind, value)
            y += h + px(6)

    def _item_list(
        self, surface: pygame.Surface, board: pygame.Rect, session: Session, view: View
    ) -> None:

        def make() -> list[tuple[str, str, bool, str]]:
            unit = view.selected
            rows = []
            items = item_choices(session.battle, unit) if unit else []
            labels = item_choice_labels(session.battle, unit, items) if unit else {}
            for item in items:
                result = item_verdict_of(session, view, item)
                rows.append((item, labels[item], result.ok, result.words))
            return rows

        key = (session.version, view.picking, view.selected, view.slow, view.quicken, view.eyes)
        rows = self._memo("items", key, make)
        self._list_panel(
            surface,
            board,
            f"{view.picking}: which item? (number key or click; Esc cancels)",
            rows,
            "item",
            "no items held, carried or within reach",
        )

    def _choice_list(
        self, surface: pygame.Surface, board: pygame.Rect, session: Session, view: View
    ) -> None:
        """The spells or abilities the acting creature knows, or Prepare's triggers."""
        unit = view.selected or ""

        def make() -> list[tuple[str, str, bool, str]]:
            side = view.eyes
            if view.choosing == "prepare":
                choices = [c for c, _ in prepare_triggers(session.battle, unit, side)]
            else:
                choices = ability_choices(
                    session.battle, unit, view.choosing or "cast", view.slow, view.quicken, side
                )
            held = view.preparing is not None
            return [(c.value, c.label, c.ok or held, c.detail) for c in choices]

        key = (session.version, view.choosing, unit, view.slow, view.quicken, view.eyes,
               view.preparing is not None)  # fmt: skip
        rows = self._memo("choices", key, make)
        if view.choosing == "prepare":
            title = f"Prepare ({unit} skips now): act when…"
            empty = "no trigger to offer"
        elif view.choosing == "cast":
            title = f"Cast: which spell does {unit} cast?"
            empty = f"{unit} knows no spells"
        else:
            title = f"Use: which ability does {unit} use?"
            empty = f"{unit} knows no abilities"
        self._list_panel(surface, board, title + "  (Esc cancels)", rows, "choice", empty)

    def _battle_over(self, surface: pygame.Surface, board: pygame.Rect, session: Session) -> None:
        """The battle-over panel at the top of the board (the board stays in view below it):
        who won, the rounds, each creature's damage dealt and taken, and Play again."""
        px = self.m.px
        f = self.fonts
        lines = self._memo("over", (session.version,), lambda: outcome_summary(session.battle))
        if not lines:
            return
        head, rest = lines[0], lines[1:]
        height = px(60) + px(22) * len(rest) + px(50)
        box = pygame.Rect(
            0, 0, min(px(660), board.width - px(20)), min(height, board.height - px(20))
        )
        box.midtop = (board.centerx, board.y + px(10))
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=6)
        pygame.draw.rect(surface, pal.YELLOW, box, 3, border_radius=6)
        f.draw(
            surface,
            f"Battle over — {head}",
            (box.centerx, box.y + px(26)),
            px(pal.FONT_BIG - 6),
            bold=True,
            anchor="center",
        )
        y = box.y + px(52)
        for line in rest:
            if y + px(22) > box.bottom - px(46):
                break
            f.draw(
                surface,
                f.fit(line, self.m.font, box.width - px(30)),
                (box.x + px(16), y),
                self.m.font,
            )
            y += px(22)
        button = pygame.Rect(0, 0, px(240), px(34))
        button.midbottom = (box.centerx, box.bottom - px(8))
        pygame.draw.rect(surface, pal.YELLOW, button, border_radius=5)
        pygame.draw.rect(surface, pal.WHITE, button, 2, border_radius=5)
        f.draw(
            surface,
            "Play again  [N]",
            button.center,
            px(pal.FONT + 2),
            pal.BLACK,
            bold=True,
            anchor="center",
        )
        self.hits.add(button, "over", "again")

    def _help(self, surface: pygame.Surface, board: pygame.Rect) -> None:
        px = self.m.px
        rows = len(HELP) + len(MAP_KEY) + 1
        box = self._panel(surface, board, px(760), px(70) + px(22) * rows)
        with_key = (box.height - px(60)) // rows >= px(13)  # a short window: the keys come first
        if not with_key:
            rows = len(HELP) + 2
        # Rows shrink to fit a short window (to 10 px, the least that reads); lines that still
        # do not fit are left out whole.
        step = max(10, min(px(22), (box.height - px(60)) // rows))
        size = max(10, min(px(pal.FONT + 2), step + 1))
        self._floored(
            box.bottom - px(6), lambda: self._help_lines(surface, box, step, size, with_key)
        )

    def _help_lines(
        self, surface: pygame.Surface, box: pygame.Rect, step: int, size: int, with_key: bool
    ) -> None:
        px = self.m.px
        f = self.fonts
        f.draw(
            surface,
            "Keys and mouse",
            (box.x + px(18), box.y + px(14)),
            px(pal.FONT + 8),
            pal.YELLOW,
            bold=True,
        )
        y = box.y + px(50)
        split = min(px(270), box.width // 3)
        for keys, what in HELP:
            f.draw(
                surface,
                f.fit(keys, size, split - px(24), bold=True),
                (box.x + px(18), y),
                size,
                pal.TEXT,
                bold=True,
            )
            f.draw(
                surface,
                f.fit(what, size, box.width - split - px(24)),
                (box.x + split, y),
                size,
                pal.TEXT_DIM,
            )
            y += step
        y += step // 2
        if not with_key:
            note = "(a taller window also shows the map key)"
            f.draw(
                surface,
                f.fit(note, size, box.width - px(36)),
                (box.x + px(18), y),
                size,
                pal.TEXT_DIM,
            )
            return
        for line in MAP_KEY:
            f.draw(
                surface, f.fit(line, size, box.width - px(36)), (box.x + px(18), y), size, pal.TEXT
            )
            y += step


def hang_words(world: World, hang: Hang) -> str:
    """Where a Climb that stops part-way leaves its climber (R-M7), in words."""
    grid = world.grid
    face = abs(grid.ground_half(hang.face) - grid.ground_half(hang.cell)) / 2
    up = grid.ground_half(hang.face) > grid.ground_half(hang.cell)
    way = "the top" if up else "the ground"
    return (
        f"stops part-way: hangs {hang.height:g} m up the {face:g} m face, "
        f"{abs(face - hang.height) if up else hang.height:g} m short of {way}; "
        "climb on with another Climb"
    )


def _area_cells(world: World, centre: Pos, radius_half: int) -> tuple[Pos, ...]:
    """The open cells within `radius_half` of `centre` that a line from it reaches."""
    r = radius_half // 2 + 1
    out = []
    for y in range(centre.y - r, centre.y + r + 1):
        for x in range(centre.x - r, centre.x + r + 1):
            cell = Pos(x, y)
            if (
                world.grid.inside(cell)
                and distance_half(world.rules, centre, cell) <= radius_half
                and world.grid.kind(cell) is not Kind.WALL
                and line_of_sight(world.grid, centre, cell) is None
            ):
                out.append(cell)
    return tuple(out)


def _aim_cells(session: Session, view: View) -> tuple[Pos, ...]:
    """Cells of the creatures the action being targeted could be aimed at now."""

    world = session.battle.world
    if "target" not in aim_needs(world, view):
        return ()
    ability = world.catalog.abilities.get(view.ability or "")
    on_self = ability is not None and ability.target in ("ally", "creature")
    return tuple(
        world.need(unit, Position).cell
        for unit in visible(world, view.eyes)
        if (unit != view.selected or on_self) and target_verdict(session, view, unit).ok
    )
