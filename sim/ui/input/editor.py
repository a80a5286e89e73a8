"""The map editor window: paint terrain, place units, see `sim check`'s problems, play-test and
check balance without leaving. Edits go through sim.content.mapedit; `Editor.handle` takes one
pygame event and `Editor.frame` draws one frame, so tests drive it headless with posted events."""

from __future__ import annotations

import re
import threading
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pygame

from sim.content import mapedit as me
from sim.content import tilekinds as tk
from sim.content.scenario import Problem, Scenario, ScenarioError, loads
from sim.content.tilepalette import Key, TilePalette
from sim.core.files import write_atomically
from sim.core.geometry import Pos
from sim.core.grid import KIND_NAMES, Grid, Kind
from sim.rules.budget import refilled
from sim.rules.reach.reachmap import reach_map
from sim.tools import fairness
from sim.tools.batch import Plan, local_pool
from sim.ui.draw.camera import Camera
from sim.ui.draw.overlay import Overlays
from sim.ui.draw.terrain import TerrainLayer
from sim.ui.draw.text import Fonts
from sim.ui.draw.tilesheet import TileSheet
from sim.ui.draw.tokens import draw_shape, initials, wings
from sim.ui.input.camera import PAN_KEYS, wheel_factor
from sim.ui.input.loop import open_surface, run_window
from sim.ui.look import palette as pal
from sim.ui.look.metrics import Metrics, default_scale, default_window
from sim.ui.model.planner import threat_map
from sim.ui.words.status import count, say

PANEL = 360  # the right-hand panel's width
STATUS = 62  # a message line and the key help at the bottom
KIND_KEYS = {pygame.K_1 + i: kind for i, kind in enumerate(Kind)}
LAYER_KEYS = {pygame.K_e: "height", pygame.K_w: "water", pygame.K_o: "obstacle"}
SHAPE_KEYS = {pygame.K_b: "brush", pygame.K_x: "rectangle", pygame.K_f: "flood", pygame.K_u: "unit"}
BALANCE_GAMES = 40
HELP = (
    "1-6 kind  E/W/O raise height/water/obstacle (Shift lowers)  C climbable (Shift: not)  "
    "B brush  X rectangle  F fill  [ ] size  U units  Tab template  Shift+Tab team  Del delete  "
    "Enter set a field  R reach  T threat  P play-test  A play vs AI  G balance  "
    "Ctrl+Z/Y undo/redo  Ctrl+S save  Ctrl+Q quit  arrows/wheel pan and zoom, Home fits"
)


@dataclass
class Balance:
    """A batch of AI games running in the background on the map as it was when it started."""

    games: int
    done: int = 0
    summary: dict[str, Any] | None = None
    text: str = ""
    error: str = ""
    thread: threading.Thread | None = field(default=None, repr=False)


def _world_grid(state: me.MapState) -> Grid:
    grid = Grid(state.width, state.height)
    for name in ("kind", "height", "water", "obstacle", "climbable"):
        grid.layers[name][:] = np.array(
            [[getattr(t, name) for t in row] for row in state.terrain],
            dtype=grid.layers[name].dtype,
        )
    return grid


def _goal_words(goal: me.Goal) -> str:
    if goal.kind == "survive":
        return f"{goal.team} survives {goal.rounds} rounds"
    if goal.kind == "reach":
        where = f"[{goal.at.x}, {goal.at.y}]" if isinstance(goal.at, Pos) else f"marker {goal.at}"
        return f"{goal.team} reaches {where}"
    return f"{goal.kind} {goal.team or ''}".strip()


class Editor:
    """The editor. `window=False` draws onto an off-screen Surface (tests)."""

    def __init__(
        self,
        source: me.Source,
        size: tuple[int, int] = (1280, 800),
        *,
        window: bool = False,
        save_to: str | None = None,
        scale: float | None = None,
        palette: TilePalette | None = None,
    ) -> None:
        """`scale`: the UI scale (`--ui-scale`); None follows the window's size. `palette`: a
        Tiled map's tiles, to give each a kind by looking (issue #31)."""
        self.window = window
        self.surface = open_surface(window, size, f"sim edit — {source.path}")
        self.source = source
        self.save_to = save_to or source.path
        self.palette = palette
        first = source.state
        if palette is not None:
            first = replace(first, tile_kinds=palette.initial())
        self.history = me.History(first)
        self.ui_scale = scale
        self.m = Metrics(scale or default_scale(size))  # the panel's sizes, as the client's
        self.fonts = Fonts()
        self.overlays = Overlays(self.fonts)
        self.camera = Camera()
        # The templates a unit is placed with, the scenario's own first (issue #32); `palette`
        # is the Tiled map's tiles.
        self.template_palette = source.palette()
        self.templates = [entry.name for entry in self.template_palette]
        self.template = (
            self.templates.index("human_fighter") if "human_fighter" in self.templates else 0
        )
        self.teams = ["blue", "red", "green", "purple"]
        self.team = 0
        self.paint: Callable[[me.Terrain], me.Terrain] = me.set_kind(Kind.WALL)
        self.paint_name = "wall"
        self.shape = "brush"
        self.size = 0
        self.selected: str | None = None
        self.dragging: str | None = None
        self.anchor: Pos | None = None  # a rectangle's first corner
        self.stroke: bool | None = None  # a brush stroke under way; True once it changed the map
        self.stroked: set[Pos] = set()  # the cells the stroke has painted
        self.show_reach = False
        self.show_threat = False
        self.prompt: str | None = None  # a field being typed (Enter)
        self.asking: str | None = None  # a yes/no question (saving with problems, quitting)
        self.on_yes: Callable[[], object] = lambda: None
        self.on_no = ""  # what the message line says when the answer is no
        self.message = ""
        self.running = True
        self.saved_state = first if Path(self.save_to).exists() else None
        self.sheet = TileSheet(palette.art, self.fonts) if palette is not None else None
        self.tile: Key | None = None  # the palette's tile selected
        self._tile_rects: list[tuple[pygame.Rect, Key]] = []
        self._kind_rects: list[tuple[pygame.Rect, Kind]] = []
        self._tile_cells: tuple[Key | None, list[Pos]] = (None, [])
        self.show_art = palette is not None  # the board shows the map's tiles as they look
        self._art_rect = pygame.Rect(0, 0, 0, 0)
        if palette is not None and palette.guessed():
            n = len(palette.guessed())
            self.message = say("editor_tiles_guessed", tiles=f"{n} tile{'s' * (n != 1)}")
        self.playtest: Any = None  # the client App while a play-test runs
        self.balance: Balance | None = None
        self._checked: tuple[me.MapState, list[Problem], set[Pos], Scenario | None] | None = None
        self._terrain: tuple[me.Rows, TerrainLayer] | None = None
        # The overlays of the last check's scenario, kept while it is the same.
        self._checks = 0  # checks made: the overlays' cache key
        self._overlay: tuple[object, dict[Pos, int]] = (None, {})
        self._reach_cache: tuple[object, dict[Pos, str]] = (None, {})
        self.fit()

    # --- state ---------------------------------------------------------------------------------
    @property
    def state(self) -> me.MapState:
        return self.history.state

    def edit(self, new: me.MapState) -> None:
        if self.history.push(new):
            self.message = ""

    def checked(self) -> tuple[list[Problem], set[Pos], Scenario | None]:
        """`sim check`'s problems for the map as it is now, their cells, and the scenario when
        there are none (for overlays, play-tests and balance)."""
        state = self.state
        # Mid-stroke the last check stands: a check is a whole load of the file (tens of ms on
        # a big map), and the stroke is checked when the button comes up.
        stale = self.stroke is not None and self._checked is not None
        if not stale and (self._checked is None or self._checked[0] is not state):
            text = me.render(self.source, state)
            try:
                scenario: Scenario | None = loads(text, self.save_to)
                problems: list[Problem] = []
            except ScenarioError as error:
                scenario, problems = None, list(error.problems)
            cells = me.problem_cells(self.source, state, problems)
            self._checked = (state, problems, cells, scenario)
            self._checks += 1
        assert self._checked is not None
        return self._checked[1], self._checked[2], self._checked[3]

    def board(self) -> pygame.Rect:
        w, h = self.surface.get_size()
        return pygame.Rect(0, 0, max(1, w - self.panel_width), max(1, h - self.status_height))

    @property
    def panel_width(self) -> int:
        return min(self.m.px(PANEL), self.surface.get_width() * 2 // 5)

    @property
    def status_height(self) -> int:
        """The message line and the key help, at their font's height."""
        f, m = self.fonts, self.m
        return f.font(m.font).get_height() + len(self.help_lines()) * self.help_step + m.px(12)

    @property
    def help_step(self) -> int:
        return self.fonts.font(self.m.font_small).get_height() + self.m.px(6)

    def fit(self) -> None:
        b = self.board()
        self.camera.fit(self.state.width, self.state.height, b.width, b.height)

    # --- saving --------------------------------------------------------------------------------
    def save(self, force: bool = False) -> bool:
        problems, _, _ = self.checked()
        if problems and not force:
            self.ask(
                say("editor_ask_save", problems=count(len(problems), "problem")),
                lambda: self.save(force=True),
                say("editor_not_saved"),
            )
            return False
        try:
            me.save(self.save_to, me.render(self.source, self.state))
        except OSError as error:
            self.message = say("editor_cannot_save", path=self.save_to, why=error.strerror)
            return False
        self.saved_state = self.state
        self.message = say("editor_saved", path=self.save_to)
        text = self.palette.kinds_text(self.state) if self.palette is not None else None
        if self.palette is not None and text is not None:
            kinds = self.palette.kinds_path
            try:
                write_atomically(kinds, text)
            except OSError as error:
                self.message = say(
                    "editor_cannot_save_kinds", path=self.save_to, kinds=kinds, why=error.strerror
                )
                return False
            self.message = say("editor_saved_kinds", path=self.save_to, kinds=kinds)
        return True

    def ask(self, question: str, on_yes: Callable[[], object], on_no: str) -> None:
        self.asking, self.on_yes, self.on_no = question, on_yes, on_no

    def quit(self) -> None:
        """Close the editor; with unsaved edits, only after asking."""
        if self.state == self.saved_state or self.asking is not None:
            self.running = False
            return
        self.ask(say("editor_ask_quit"), self._stop, say("editor_still"))

    def _stop(self) -> None:
        self.running = False

    # --- events --------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        if self.playtest is not None:
            self._playtest_event(event)
            return
        kind = event.type
        if kind == pygame.QUIT:
            self.quit()
        elif kind == pygame.KEYDOWN:
            self._key(event.key, event.mod, getattr(event, "unicode", ""))
        elif kind == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._press(event.pos)
        elif kind == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self._pick(event.pos)
        elif kind == pygame.MOUSEMOTION and event.buttons and event.buttons[0]:
            self._drag(event.pos)
        elif kind == pygame.MOUSEBUTTONUP and event.button == 1:
            self._release(event.pos)
        elif kind == pygame.MOUSEWHEEL:
            self.camera.zoom(wheel_factor(event.y), pygame.mouse.get_pos())

    def _cell(self, pos: tuple[int, int]) -> Pos | None:
        if not self.board().collidepoint(pos):
            return None
        cell = self.camera.cell_at(*pos)
        return cell if self.state.inside(cell) else None

    def _cells(self, cell: Pos) -> list[Pos]:
        if self.shape == "flood":
            return me.flood(self.state, cell)
        return me.brush(self.state, cell, self.size)

    def _press(self, pos: tuple[int, int]) -> None:
        cell = self._cell(pos)
        if cell is None:
            self._panel_click(pos)
            return
        unit = me.unit_covering(self.source, self.state, cell)  # any cell of a large one
        if self.shape == "unit" or unit is not None:
            if unit is not None:
                self.selected = self.dragging = unit.id
            elif self.shape == "unit":
                placed = me.place_unit(
                    self.state, self.templates[self.template], self.teams[self.team], cell
                )
                # R-Z1: a 2x2 or 3x3 creature only where its whole footprint fits.
                problem = me.footprint_problem(self.source, placed, placed.units[-1].id)
                if problem is not None:
                    self.message = say("editor_cannot_place", why=problem)
                    return
                self.edit(placed)
                self.selected = self.state.units[-1].id
            return
        self.selected = None
        if self.shape == "rectangle":
            self.anchor = cell
            return
        cells = self._cells(cell)
        self.stroked = set(cells)
        self.stroke = self.history.push(
            me.paint(self.state, cells, self.paint, self.source.locker(self.state))
        )

    def _drag(self, pos: tuple[int, int]) -> None:
        cell = self._cell(pos)
        if cell is None or self.dragging is not None or self.stroke is None:
            return
        if self.shape == "brush":
            # One stroke is one edit (one undo), and changes each cell once: dragging back
            # over a cell does not raise it again.
            cells = [p for p in self._cells(cell) if p not in self.stroked]
            self.stroked.update(cells)
            painted = me.paint(self.state, cells, self.paint, self.source.locker(self.state))
            if self.stroke:
                self.history.amend(painted)
            else:
                self.stroke = self.history.push(painted)

    def _release(self, pos: tuple[int, int]) -> None:
        cell = self._cell(pos)
        if self.dragging is not None:
            unit = self.state.unit(self.dragging)
            if cell is not None and unit is not None and cell != unit.cell:
                moved = me.move_unit(self.state, self.dragging, cell)
                problem = me.footprint_problem(self.source, moved, self.dragging)
                if problem is None:
                    self.edit(moved)
                else:
                    self.message = say("editor_cannot_place", why=problem)
            self.dragging = None
        elif self.anchor is not None and cell is not None:
            cells = me.rectangle(self.state, self.anchor, cell)
            self.edit(me.paint(self.state, cells, self.paint, self.source.locker(self.state)))
        self.anchor = None
        self.stroke = None

    def _pick(self, pos: tuple[int, int]) -> None:
        """Right click: take the clicked cell's kind as the paint (an eyedropper)."""
        cell = self._cell(pos)
        if cell is not None:
            kind = self.state.at(cell).kind
            self.paint, self.paint_name = me.set_kind(kind), KIND_NAMES[kind]
            if self.palette is not None:  # and the tile that decides it, in the palette
                self.tile = self.palette.top_tile(cell) or self.tile

    def _panel_click(self, pos: tuple[int, int]) -> None:
        if self._art_rect.collidepoint(pos):
            self.show_art = not self.show_art
            return
        for rect, key in self._tile_rects:
            if rect.collidepoint(pos):
                self.tile = key
                return
        for rect, kind in self._kind_rects:
            if rect.collidepoint(pos) and self.tile is not None:
                self.message = self.set_tile(self.tile, kind=kind)
                return
        for rect, index in getattr(self, "_template_rects", []):
            if rect.collidepoint(pos):
                self.template = index
                self.shape = "unit"

    def _key(self, key: int, mod: int, char: str) -> None:
        ctrl = bool(mod & pygame.KMOD_CTRL)
        shift = bool(mod & pygame.KMOD_SHIFT)
        if self.asking is not None:
            if key == pygame.K_y:
                self.asking = None
                self.on_yes()
            elif key in (pygame.K_n, pygame.K_ESCAPE):
                self.asking = None
                self.message = self.on_no
            return
        if self.prompt is not None:
            self._typing(key, char)
            return
        if ctrl and key == pygame.K_z:
            self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif ctrl and key == pygame.K_s:
            self.save()
        elif ctrl and key == pygame.K_q:
            self.quit()
        elif key in KIND_KEYS:
            kind = KIND_KEYS[key]
            self.paint, self.paint_name = me.set_kind(kind), KIND_NAMES[kind]
            self.shape = "brush" if self.shape == "unit" else self.shape
        elif key in LAYER_KEYS:
            layer = LAYER_KEYS[key]
            self.paint = me.shift(layer, -1 if shift else 1)
            self.paint_name = f"{layer} {'-' if shift else '+'}0.5 m"
            self.shape = "brush" if self.shape == "unit" else self.shape
        elif key == pygame.K_c:
            self.paint, self.paint_name = (
                me.set_climbable(not shift),
                ("not climbable" if shift else "climbable"),
            )
        elif key in SHAPE_KEYS:
            self.shape = SHAPE_KEYS[key]
        elif key == pygame.K_LEFTBRACKET:
            self.size = max(0, self.size - 1)
        elif key == pygame.K_RIGHTBRACKET:
            self.size = min(10, self.size + 1)
        elif key == pygame.K_TAB:
            if shift:
                self.team = (self.team + 1) % len(self.teams)
            else:
                self.template = (self.template + 1) % len(self.templates)
            self.shape = "unit"
        elif key in (pygame.K_DELETE, pygame.K_BACKSPACE) and self.selected:
            self.edit(me.delete_unit(self.state, self.selected))
            self.selected = None
        elif key == pygame.K_RETURN:
            self.prompt = ""
        elif key == pygame.K_r:
            self.show_reach = not self.show_reach
        elif key == pygame.K_t:
            self.show_threat = not self.show_threat
        elif key in (pygame.K_p, pygame.K_a):
            self.start_playtest(ai=key == pygame.K_a)
        elif key == pygame.K_g:
            self.start_balance()
        elif key in PAN_KEYS:
            self.camera.pan(*PAN_KEYS[key])
        elif key == pygame.K_HOME:
            self.fit()
        elif key == pygame.K_ESCAPE:
            self.selected = None

    def undo(self) -> None:
        """Ctrl+Z: the last edit taken back, and said (what it changed, how many are left)."""
        before = self.state
        if not self.history.undo():
            self.message = say("editor_nothing_to_undo")
            return
        what = me.change_words(self.state, before)
        self.message = say("editor_undone", what=what, left=count(self.history.undoable, "edit"))

    def redo(self) -> None:
        """Ctrl+Y: the last edit undone made again, and said."""
        before = self.state
        if not self.history.redo():
            self.message = say("editor_nothing_to_redo")
            return
        self.message = say("editor_redone", what=me.change_words(before, self.state))

    # --- typed fields --------------------------------------------------------------------------
    def _typing(self, key: int, char: str) -> None:
        assert self.prompt is not None
        if key == pygame.K_ESCAPE:
            self.prompt = None
        elif key == pygame.K_RETURN:
            line, self.prompt = self.prompt, None
            self.message = self.apply_field(line)
        elif key == pygame.K_BACKSPACE:
            self.prompt = self.prompt[:-1]
        elif char and char.isprintable():
            self.prompt += char

    def apply_field(self, line: str) -> str:
        """`key = value` in TOML: a field of the selected unit (id, team, template or any
        override; `key =` removes an override), or else the map's name, description, seed or
        a new objective (`objective = { kind = "survive", team = "blue", rounds = 5 }`;
        `objectives = []` removes them all). Returns what happened, in words."""
        key, _, value = line.partition("=")
        key = key.strip()
        if not key:
            return say("editor_field_hint")
        parsed: Any = None
        if value.strip():
            try:
                parsed = tomllib.loads(f"v = {value.strip()}")["v"]
            except tomllib.TOMLDecodeError:
                return say("editor_not_toml", value=value.strip())
        state = self.state
        unit = state.unit(self.selected) if self.selected else None
        if unit is None and self.tile is not None and key in tk.ENTRY_KEYS:
            return self.set_tile(self.tile, **{key: parsed})
        if unit is not None:
            if key in ("id", "team", "template"):
                if not isinstance(parsed, str):
                    return say("editor_needs_string", key=key)
                if key == "id":
                    self.edit(me.set_unit(state, unit.id, id=parsed))
                elif key == "team":
                    self.edit(me.set_unit(state, unit.id, team=parsed))
                else:
                    self.edit(me.set_unit(state, unit.id, template=parsed))
                if key == "id":
                    self.selected = parsed
                return say("editor_unit_field", unit=unit.id, key=key, value=repr(parsed))
            overrides = dict(unit.overrides)
            if parsed is None:
                overrides.pop(key, None)
            else:
                overrides[key] = parsed
            self.edit(me.set_unit(state, unit.id, overrides=overrides))
            removed = parsed is None
            return say(
                "editor_override_removed" if removed else "editor_override_set",
                unit=unit.id,
                key=key,
            )
        if key in ("name", "description"):
            if not isinstance(parsed, str):
                return say("editor_needs_string", key=key)
            self.edit(me.set_info(state, **{key: parsed}))
        elif key == "seed":
            if parsed is not None and (isinstance(parsed, bool) or not isinstance(parsed, int)):
                return say("editor_seed")
            self.edit(me.set_info(state, seed=parsed))
        elif key == "objective" and isinstance(parsed, dict):
            at = parsed.get("at")
            cell = Pos(at[0], at[1]) if isinstance(at, list) and len(at) == 2 else None
            self.edit(
                me.add_goal(
                    state,
                    str(parsed.get("kind")),
                    str(parsed.get("team")),
                    parsed.get("rounds"),
                    cell,
                )
            )
        elif key == "objectives" and parsed == []:
            new = state
            while new.goals:
                new = me.remove_goal(new, 0)
            self.edit(new)
        elif re.fullmatch(r"objective \d+", key) and parsed is None:
            number = int(key.split()[1])
            if not 1 <= number <= len(state.goals):
                return say("editor_no_objective", n=number)
            self.edit(me.remove_goal(state, number - 1))
            return say("editor_objective_removed", n=number)
        else:
            return say("editor_unknown_field", key=repr(key))
        return say("editor_field_set", key=key)

    def set_tile(self, key: Key, **values: Any) -> str:
        """Give a tile of the palette a kind or a number (`kind=Kind.WALL`, `depth=1.5` in
        metres, `climbable=True`; None takes a number away): every cell it decides changes.
        Returns what happened, in words."""
        assert self.palette is not None
        entry = self.palette.entry(self.state, key) or tk.Entry()
        fields: dict[str, Any] = {}
        for name, value in values.items():
            if name == "kind":
                if isinstance(value, str) and value in KIND_NAMES:
                    value = Kind.named(value)
                if value is not None and not isinstance(value, Kind):
                    return say("editor_tile_kind", names=", ".join(KIND_NAMES))
                fields["kind"] = value
            elif name == "climbable":
                if value is not None and not isinstance(value, bool):
                    return say("editor_tile_climbable")
                fields["climbable"] = value
            else:
                half = None if value is None else tk.half_metres(value)
                if value is not None and half is None:
                    return say("editor_tile_metres", key=name, most=tk.MAX_METRES)
                fields[name] = half
        entry = replace(entry, **fields)
        self.edit(self.palette.assign(self.state, key, entry))
        return say("editor_tile_set", tile=key[1], tileset=key[0], entry=entry.words())

    # --- play-test and balance -----------------------------------------------------------------
    def start_playtest(self, ai: bool = False) -> None:
        from sim.ui.input.app import App
        from sim.ui.model.session import Session

        problems, _, scenario = self.checked()
        if scenario is None:
            self.message = say("editor_cannot_playtest", problems=count(len(problems), "problem"))
            return
        session = Session(scenario, scenario.seed if scenario.seed is not None else 1)
        session.autosave = None  # a play-test is not a game to continue
        teams = list(dict.fromkeys(u.team for u in self.state.units))
        seats = {teams[-1]: "normal"} if ai and len(teams) > 1 else None
        self.playtest = App(session, self.surface.get_size(), ai=seats, scale=self.ui_scale)
        self.playtest.surface = self.surface
        self.message = say("editor_playtest")

    def _playtest_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT or (
            event.type == pygame.KEYDOWN and event.key == pygame.K_F10
        ):
            self.playtest = None
            self.message = say("editor_back")
            return
        self.playtest.handle(event)
        if not self.playtest.running:
            self.playtest = None

    def start_balance(self, games: int = BALANCE_GAMES, workers: int = 2) -> None:
        problems, _, scenario = self.checked()
        if scenario is None:
            self.message = say("editor_cannot_balance", problems=count(len(problems), "problem"))
            return
        if (
            self.balance is not None
            and self.balance.thread is not None
            and self.balance.thread.is_alive()
        ):
            self.message = say("editor_balance_running")
            return
        teams = sorted(dict.fromkeys(u.team for u in self.state.units))
        plan = Plan(scenario, tuple((t, "normal") for t in teams), seed=scenario.seed or 0)
        balance = Balance(games)

        def on_game(_: object) -> None:
            balance.done += 1

        def work() -> None:
            try:
                records = fairness.play(
                    plan, games, workers=workers, pool=local_pool, on_game=on_game
                )
                balance.summary = fairness.summarize(plan, records, games)
                balance.text = fairness.summary_text(balance.summary)
            except Exception as error:  # shown in the panel; the editor goes on
                balance.error = f"the balance check failed: {error}"

        balance.thread = threading.Thread(target=work, daemon=True)
        self.balance = balance
        balance.thread.start()

    # --- drawing -------------------------------------------------------------------------------
    def frame(self) -> pygame.Surface:
        if self.window:
            current = pygame.display.get_surface()
            if current is not None:
                self.surface = current
        if self.ui_scale is None and default_scale(self.surface.get_size()) != self.m.scale:
            self.m = Metrics(default_scale(self.surface.get_size()))
        if self.playtest is not None:
            self.playtest.surface = self.surface
            self.playtest.seats.step()
            shown: pygame.Surface = self.playtest.frame()
            # The client's own screens say nothing of the editor: one line says how back.
            note = self.fonts.render(
                "Play-test: F10 (or closing the window) returns to the editor",
                self.m.font_small,
                pal.BLACK,
            )
            box = note.get_rect(midtop=(shown.get_width() // 2, 2)).inflate(self.m.px(12), 4)
            pygame.draw.rect(shown, pal.HIGHLIGHT, box, border_radius=4)
            shown.blit(note, note.get_rect(center=box.center))
            return shown
        s = self.surface
        s.fill((30, 30, 34))
        problems, bad, scenario = self.checked()
        if (
            scenario is not None
            and self._checked is not None
            and self._checked[0] is not self.state
        ):
            scenario = None  # mid-stroke: the overlays wait for the stroke's check
        b = self.board()
        s.set_clip(b)
        layer = self._layer()
        layer.draw(s, self.camera, b)
        if self.palette is not None and self.sheet is not None and self.show_art:
            # The map as it looks, with what its tiles made of each cell marked on it.
            imported = self.palette.imported
            self.sheet.draw_art(s, self.camera, b, imported.tiled, imported.uses)
            self.sheet.draw_kinds(s, self.camera, b, self.state.terrain)
        if scenario is not None and self.show_threat:
            self.overlays.draw_threat(s, self.camera, self._threats(scenario))
        if scenario is not None and self.show_reach and self.selected:
            self.overlays.draw_reach(s, self.camera, self._reach(scenario, self.selected))
        layer.draw_edges(s, self.camera, b)
        for goal in self.state.goals:
            cells = (
                (goal.at,)
                if isinstance(goal.at, Pos)
                else self.source.goal_markers.get(goal.at or "", ())
            )
            for cell in cells:
                r = pygame.Rect(*self.camera.screen(cell), self.camera.cell, self.camera.cell)
                pygame.draw.rect(s, pal.HIGHLIGHT, r.inflate(-4, -4), 2)
        order = tuple(dict.fromkeys(u.team for u in self.state.units))
        for unit in self.state.units:
            style = pal.team_style(unit.team, order)
            # R-Z1: a large unit's token spans its footprint, centred on it.
            wide = me.unit_side(self.source, unit)
            x, y = self.camera.screen(unit.cell)
            c = self.camera.cell * wide
            cx, cy = x + c // 2, y + c // 2
            if unit.id == self.selected:
                pygame.draw.rect(s, pal.WHITE, (x, y, c, c), 2)
            if c >= 14 and me.unit_flies(self.source, unit):
                wings(s, cx, cy, c * 0.36, c)  # R-Z5: a flier, as the game draws it
            draw_shape(s, style, (cx, cy), c * 0.36, pal.BLACK, 2)
            if c >= 18:
                self.fonts.draw(s, initials(unit.id), (cx, cy), max(12, c // 3), pal.WHITE,
                                bold=True, anchor="center")  # fmt: skip
        for cell in bad:
            r = pygame.Rect(*self.camera.screen(cell), self.camera.cell, self.camera.cell)
            pygame.draw.rect(s, (230, 40, 40), r, 3)
        if self.palette is not None and self.tile is not None:
            if self._tile_cells[0] != self.tile:
                self._tile_cells = (self.tile, self.palette.cells(self.tile))
            for cell in self._tile_cells[1]:  # where the selected tile is drawn
                r = pygame.Rect(*self.camera.screen(cell), self.camera.cell, self.camera.cell)
                pygame.draw.rect(s, pal.HIGHLIGHT, r.inflate(-2, -2), 1)
        s.set_clip(None)
        self._panel(problems)
        self._status()
        return s

    def _layer(self) -> TerrainLayer:
        """The client's terrain drawing, kept for the whole session: an edit changes the
        grid's cells in place and redraws only their chunks."""
        terrain = self.state.terrain
        if self._terrain is None:
            self._terrain = (terrain, TerrainLayer(_world_grid(self.state), self.fonts))
        shown, layer = self._terrain
        if shown is not terrain:
            grid = layer.grid
            cells = []
            for y, (old, new) in enumerate(zip(shown, terrain, strict=True)):
                if old is new:
                    continue
                for x, t in enumerate(new):
                    if t != old[x]:
                        grid.set_cell(
                            Pos(x, y),
                            kind=t.kind,
                            height_half=t.height,
                            water_half=t.water,
                            obstacle_half=t.obstacle,
                            climbable=t.climbable,
                        )
                        cells.append(Pos(x, y))
            layer.changed(cells)
            self._terrain = (terrain, layer)
        return layer

    def _threats(self, scenario: Scenario) -> dict[Pos, int]:
        """How many of the shown team's creatures threaten each cell (cached per check)."""
        team = self._team_shown()
        key = ("threat", self._checks, team)
        if self._overlay[0] != key:
            found = threat_map(scenario.world, (team,), None)
            self._overlay = (key, {p: len(u) for p, u in found.items()})
        return dict(self._overlay[1])

    def _reach(self, scenario: Scenario, unit: str) -> dict[Pos, str]:
        """Where `unit` gets with one Movement Action of a fresh turn, by the cheapest action."""
        key = ("reach", self._checks, unit)
        if self._reach_cache[0] != key:
            world = scenario.world
            cells: dict[Pos, str] = {}
            if unit in world.entities():
                found = reach_map(world, unit, budget=refilled(world.rules))
                cells = {p: r.action for p, r in found.items()}
            self._reach_cache = (key, cells)
        return self._reach_cache[1]

    def _team_shown(self) -> str:
        unit = self.state.unit(self.selected) if self.selected else None
        return unit.team if unit is not None else self.teams[self.team]

    def _panel(self, problems: list[Problem]) -> None:
        s = self.surface
        w, h = s.get_size()
        m, panel = self.m, self.panel_width
        x0 = w - panel
        pygame.draw.rect(s, (40, 42, 48), (x0, 0, panel, h))
        x, y, width = x0 + m.px(12), m.px(10), panel - m.px(24)
        f = self.fonts
        small = m.font_small

        def line(
            text: str, colour: pal.RGB = pal.TEXT, size: int = small, bold: bool = False
        ) -> None:
            nonlocal y
            for part in f.wrap(text, size, width):
                f.draw(s, part, (x, y), size, colour, bold=bold)
                y += size + m.px(2)

        edited = "" if self.state == self.saved_state else " (not saved)"
        line(f"{self.state.name or 'Untitled'}{edited}", size=m.font, bold=True)
        seed = "no seed" if self.state.seed is None else f"seed {self.state.seed}"
        line(
            f"{self.state.width} x {self.state.height} cells, {seed}, "
            f"{len(self.state.goals)} objective(s)"
        )
        y += m.px(4)
        tool = "place units" if self.shape == "unit" else f"{self.shape} (size {self.size})"
        line(f"Tool: {tool}   Paint: {self.paint_name}")
        line(f"Team: {self.teams[self.team]}   Template: {self.templates[self.template]}")
        y += m.px(4)
        if self.palette is not None:
            y = self._tiles_box(x, y, width)
        line("Templates (click, or Tab)", bold=True)
        self._template_rects = []
        for index, entry in enumerate(self.template_palette):
            stats = entry.summary()
            colour = pal.HIGHLIGHT if index == self.template else pal.TEXT
            rect = f.draw(s, f.fit(stats, small, width), (x, y), small, colour)
            self._template_rects.append((rect, index))
            y += small + m.px(1)
        if self.state.goals:
            line("Objectives", bold=True)
            for number, goal in enumerate(self.state.goals, 1):
                line(f"  {number}. {_goal_words(goal)}")
        y += m.px(6)
        unit = self.state.unit(self.selected) if self.selected else None
        if unit is not None:
            line(f"Unit {unit.id} ({unit.team}, {unit.template or 'no template'}) at "
                 f"[{unit.cell.x}, {unit.cell.y}]", bold=True)  # fmt: skip
            for key, value in unit.overrides.items():
                line(f"  {key} = {value}")
            line('Enter: set a field (hp = 8, held = ["spear"], team = "red")')
            y += m.px(4)
        hovered = self._hover_terrain()
        if hovered is not None:
            pos, t = hovered
            line(f"Cell [{pos.x}, {pos.y}]: {KIND_NAMES[t.kind]}, ground {t.height / 2} m, "
                 f"water {t.water / 2} m, obstacle {t.obstacle / 2} m"
                 f"{', climbable' if t.climbable else ''}")  # fmt: skip
            y += m.px(4)
        line(f"Problems ({len(problems)})", (230, 90, 90) if problems else pal.TEXT, bold=True)
        for p in problems[:8]:
            where = f"{Path(p.file).name}:{p.line}" if p.file else f"line {p.line}"  # a pack's
            line(f"{where}: {p.message}", (240, 170, 170))
        if len(problems) > 8:
            line(f"... and {len(problems) - 8} more")
        if not problems:
            line("none: sim check accepts this map")
        y += m.px(6)
        if self.balance is not None:
            self._balance_box(x, y, width)

    def _tiles_box(self, x: int, y: int, width: int) -> int:
        """The palette of a Tiled map's tiles: each as it looks (or a swatch) with its kind
        under it; the selected tile's kind buttons. Returns the y under it."""
        palette, sheet = self.palette, self.sheet
        assert palette is not None and sheet is not None
        s, f, m = self.surface, self.fonts, self.m
        small = m.font_small
        f.draw(s, "Tiles of the map (click one, then its kind)", (x, y), small, bold=True)
        y += small + m.px(4)
        shows = "the map's tiles, kinds marked" if self.show_art else "the kinds"
        self._art_rect = f.draw(s, f"Board shows {shows} (click to switch)", (x, y), small,
                                pal.TEXT_DIM)  # fmt: skip
        y += small + m.px(4)
        size, gap = m.px(30), m.px(4)
        columns = max(1, (width + gap) // (size + gap))
        shown = palette.uses[: columns * 5]
        kinds = dict(self.state.tile_kinds)
        self._tile_rects = []
        for index, use in enumerate(shown):
            assert use.tileset is not None
            rect = pygame.Rect(
                x + (index % columns) * (size + gap), y + (index // columns) * (size + gap),
                size, size,
            )  # fmt: skip
            key = (use.need.tileset, use.tile)
            sheet.draw(s, use.tileset, use.tile, kinds.get(key), rect, key == self.tile)
            self._tile_rects.append((rect, key))
        y += ((len(shown) + columns - 1) // columns) * (size + gap) + m.px(2)
        if len(palette.uses) > len(shown):
            more = len(palette.uses) - len(shown)
            f.draw(s, f"… and {more} more: right-click a cell to pick its tile", (x, y), small,
                   pal.TEXT_DIM)  # fmt: skip
            y += small + m.px(2)
        self._kind_rects = []
        if self.tile is None:
            return y + m.px(4)
        use = next(u for u in palette.uses if (u.need.tileset, u.tile) == self.tile)
        entry = kinds.get(self.tile)
        how = "a guess" if entry == use.entry and use.guessed else ""
        cells = use.need.cells
        told = f"Tile {use.tile} of {use.need.tileset}, {cells} cell{'s' * (cells != 1)}: "
        told += entry.words() if entry is not None else "no kind"
        for part in f.wrap(told + (f" ({how})" if how else ""), small, width):
            f.draw(s, part, (x, y), small, pal.HIGHLIGHT)
            y += small + m.px(2)
        bw = (width - 5 * m.px(3)) // 6
        for index, kind in enumerate(Kind):
            rect = pygame.Rect(x + index * (bw + m.px(3)), y, bw, small + m.px(6))
            chosen = entry is not None and entry.kind is kind
            pygame.draw.rect(s, pal.HIGHLIGHT if chosen else pal.PANEL_LIGHT, rect,
                             border_radius=3)  # fmt: skip
            label = f.fit(KIND_NAMES[kind], small - 2, bw - 2)
            f.draw(s, label, rect.center, small - 2, pal.BLACK if chosen else pal.TEXT,
                   anchor="center")  # fmt: skip
            self._kind_rects.append((rect, kind))
        y += small + m.px(10)
        for part in f.wrap("Enter: height = 1, depth = 0.5, obstacle = 0.5, climbable = true",
                           small, width):  # fmt: skip
            f.draw(s, part, (x, y), small, pal.TEXT_DIM)
            y += small + m.px(2)
        return y + m.px(4)

    def _balance_box(self, x: int, y: int, width: int) -> None:
        s, f, m = self.surface, self.fonts, self.m
        small = m.font_small
        b = self.balance
        assert b is not None
        f.draw(s, f"Balance: {b.done}/{b.games} AI games", (x, y), small, bold=True)
        y += small + m.px(4)
        bar = pygame.Rect(x, y, width, m.px(10))
        pygame.draw.rect(s, (80, 80, 90), bar)
        pygame.draw.rect(s, pal.HIGHLIGHT, (x, y, width * b.done // max(1, b.games), m.px(10)))
        y += m.px(16)
        if b.error:
            f.draw(s, f.fit(b.error, small, width), (x, y), small, (240, 170, 170))
        elif b.summary is not None:
            for text in balance_lines(b.summary):
                for part in f.wrap(text, small, width):  # the fairness line is long
                    f.draw(s, part, (x, y), small)
                    y += small + m.px(2)

    def _hover_terrain(self) -> tuple[Pos, me.Terrain] | None:
        cell = self._cell(pygame.mouse.get_pos()) if pygame.mouse.get_focused() else None
        return (cell, self.state.at(cell)) if cell is not None else None

    def _status(self) -> None:
        s, f, m = self.surface, self.fonts, self.m
        w, h = s.get_size()
        top = h - self.status_height
        pygame.draw.rect(s, (24, 24, 28), (0, top, w, self.status_height))
        at, room = (m.px(10), top + m.px(3)), w - m.px(20)
        if self.asking:
            f.draw(s, self.asking, at, m.font, pal.HIGHLIGHT, bold=True)
        elif self.prompt is not None:
            shown = f"Set: {self.prompt}_   (Enter applies, Esc cancels)"
            f.draw(s, f.fit(shown, m.font, room), at, m.font, pal.HIGHLIGHT)
        elif self.message:
            f.draw(s, f.fit(self.message, m.font, room), at, m.font)
        y = top + m.px(6) + f.font(m.font).get_height()
        for part in self.help_lines():
            f.draw(s, part, (m.px(10), y), m.font_small, pal.TEXT_DIM)
            y += self.help_step

    def help_lines(self) -> list[str]:
        """The key help under the status line, wrapped for the window's width."""
        return self.fonts.wrap(HELP, self.m.font_small, self.surface.get_width() - self.m.px(20))

    # --- the loop ------------------------------------------------------------------------------
    def pump(self) -> pygame.Surface:
        for event in pygame.event.get():
            self.handle(event)
        return self.frame()

    def run(self) -> None:
        run_window(lambda: self.running, self.handle, self.frame)


def edit(
    source: me.Source,
    save_to: str | None = None,
    size: tuple[int, int] | None = None,
    scale: float | None = None,
    palette: TilePalette | None = None,
) -> int:
    """Open the editor window until it is closed: `size` None fits it to the display; `scale`
    None follows the window's size; `palette`: a Tiled map's tiles."""
    try:
        pygame.display.init()
        size = size or default_window(list(pygame.display.get_desktop_sizes()))
        editor = Editor(source, size, window=True, save_to=save_to, scale=scale, palette=palette)
    except pygame.error as error:
        print(f"sim edit: cannot open a window ({error})")
        return 1
    editor.run()
    return 0


def balance_lines(summary: dict[str, Any]) -> list[str]:
    """A finished balance check in the panel's words: each side's wins with the interval,
    then draws, games the round cap stopped (no one's win: without them the win rates read as
    if the rest were losses) and the mean length, then the fairness line of `sim batch
    --fairness` (sim/tools/fairness.py) when the check has one."""
    lines = []
    for team, side in summary["sides"].items():
        low, high = side["wilson_95"]
        rate = side["win_rate"] or 0.0
        lines.append(
            f"{team}: wins {rate * 100:.0f} % (95 % interval {low * 100:.0f} % to "
            f"{high * 100:.0f} %)"
        )
    mean = summary["rounds"]["mean"]
    lines.append(
        f"draws {summary['draws']}, stopped by the round cap {summary['capped']}, "
        f"mean length {mean or 0:.1f} rounds"
    )
    if "fairness" in summary:
        lines += fairness.lines(summary["fairness"])
    return lines
