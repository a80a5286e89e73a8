"""The hotseat client: one window, two sides taking turns; it reads the world and submits
decisions, nothing more. `App.handle` takes one pygame event and `App.frame` draws one frame
onto a Surface, so tests drive it headless (SDL_VIDEODRIVER=dummy) with posted events."""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

import pygame

from sim.ai.player import AI, players
from sim.core.actions import Disarm, Refusal
from sim.core.components import Policy, Position
from sim.core.creature import creatures, team_of
from sim.core.geometry import Pos
from sim.formats.replay import ReplayError, Unfinished, load_save, replay, save_dir
from sim.play.engine import (
    DEFENCES,
    REACTION_POLICIES,
    AwaitingAction,
    AwaitingReaction,
    BattleOver,
    Decision,
    Outcome,
    SetPolicy,
)
from sim.rules.combat.disarm import weapons
from sim.ui.draw.camera import Camera
from sim.ui.draw.render import MENU_TITLES, Renderer
from sim.ui.input.loop import run_window
from sim.ui.look.metrics import Metrics, default_scale, default_window
from sim.ui.model.actionbar import (
    ABILITY_ACTIONS,
    AREA_CHOICE,
    AREA_HELP,
    ASSIST,
    Choice,
    ability_choices,
    aim_of,
    answer_for,
    build,
    judge,
    needs,
    prepare_triggers,
    prompt_options,
    trigger_words,
    unmarkable,
)
from sim.ui.model.intent import (
    aim_needs,
    assist_step,
    cell_choice,
    held_ready,
    listed_items,
    target_choice,
    target_verdict,
    weapon_choice,
)
from sim.ui.model.markers import markers, summary
from sim.ui.model.menu import AI_PAUSES, WATCH, replay_lines, scaled
from sim.ui.model.menu import Line as MenuLine
from sim.ui.model.menu import lines as menu_lines
from sim.ui.model.mode import Choosing, Free, Marking, Picking, Targeting
from sim.ui.model.planner import DIVE, MOVES, Planner, hidden_from
from sim.ui.model.scene import Scene, plan_secret
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.logbook import lines

PAN_STEP = 60
FLAGS = {"reach": "show_reach", "threat": "show_threat", "own": "show_own",
         "disengage": "disengage", "help": "help"}  # fmt: skip  # toggles that only flip
TOGGLE_KEYS = {
    pygame.K_r: "reach", pygame.K_t: "threat", pygame.K_y: "own",
    pygame.K_g: "disengage", pygame.K_s: "slow", pygame.K_q: "quicken",
}  # fmt: skip
FILE_KEYS = {pygame.K_F5: "save", pygame.K_F9: "load"}  # the quick save
NO_QUICK_SAVE = "no quick save of this scenario yet: Save (F5) makes one"
# The Settings page's + and - (the main keyboard's = is + without Shift).
SCALE_KEYS = {
    pygame.K_PLUS: "ui_larger", pygame.K_EQUALS: "ui_larger", pygame.K_KP_PLUS: "ui_larger",
    pygame.K_MINUS: "ui_smaller", pygame.K_KP_MINUS: "ui_smaller",
}  # fmt: skip
AI_PAUSE = 0.7  # seconds between the AI's decisions, so a player can follow them
log = logging.getLogger(__name__)
DISARM = Disarm.name
ACTION_KEYS = {pygame.K_a: "attack", pygame.K_c: "cast", pygame.K_u: "use", pygame.K_w: "prepare"}
HINTS_FILE = ".hints"  # beside the saves: the hints a player has taken up, one a line
REACTION_HINT_KEY = "reactions"
REACTION_HINT = (
    "Reactions are automatic: each creature answers attacks and moves by its policy "
    "('always'). Select one of yours and press P to be asked instead."
)

PAN_KEYS = {
    pygame.K_LEFT: (PAN_STEP, 0), pygame.K_RIGHT: (-PAN_STEP, 0),
    pygame.K_UP: (0, PAN_STEP), pygame.K_DOWN: (0, -PAN_STEP),
}  # fmt: skip


Replayer = Callable[[Path, "App"], "App"]  # a save and the window's game -> the viewer on it


class App:
    """The client. `window=False` draws onto an off-screen Surface (tests, `sim render`)."""

    def __init__(
        self,
        session: Session,
        size: tuple[int, int] = (1280, 800),
        *,
        window: bool = False,
        offer: Unfinished | None = None,
        ai: Mapping[str, str] | None = None,
        scale: float | None = None,
        replayer: Replayer | None = None,
    ) -> None:
        """`offer`: an unfinished game of the scenario, offered on the handover screen until
        something is decided in this new one (C continues it). `ai`: the sides the AI plays,
        with their levels (team -> level). `scale`: the UI scale (`--ui-scale`); None follows
        the window's size. `replayer`: opens a save in the replay viewer over this window (the
        menu's Watch a replay; sim/ui/input/viewer.py's `nested`), None where there is none."""
        pygame.display.init()
        pygame.font.init()
        self.window = window
        if window:
            pygame.display.set_caption(f"sim — {session.scenario.name}")
            self.surface = pygame.display.set_mode(size, pygame.RESIZABLE)
        else:
            if pygame.display.get_surface() is None:
                pygame.display.set_mode((1, 1))  # an event queue for posted events
            self.surface = pygame.Surface(size)
        self.session = session
        self.view = View()
        self.camera = Camera()
        self.scene = Scene()  # the answers the screen shows and the clicks act on
        # Set by --ui-scale or the Settings; until then the scale follows the window's size.
        self.ui_scale = scale
        self.renderer = Renderer(session, Metrics(scale or default_scale(size)), self.scene)
        self.running = True
        self.closing: tuple[str, bool] | None = None  # Session.close's answer, once closed
        self.replayer = replayer
        self.watching: App | None = None  # the replay viewer open over the game, if any
        self._drag_moved = 0
        self._turn_key: tuple[int, int] | None = None
        self.quicksave = save_dir() / f"{Path(session.scenario.path).stem}.save.json"
        self.offer = offer
        # Until a player has once made reactions asked (P), the sidebar says that they are
        # automatic: with the default policy a new player never sees a reaction prompt.
        self.hints = save_dir() / HINTS_FILE
        self.hint_due = not self._hint_seen()
        if offer is not None:
            self.view.offer = (
                f"An unfinished game of this scenario was autosaved ({offer.describe()}). "
                "Press C to continue it; Enter starts this new one."
            )
        # The AI's sides: they get no handover screen; their decisions come one at a time
        # with AI_PAUSE between them (Space plays the rest of their turns at once).
        self.seated: dict[str, AI] = players(dict(ai or {}), session.seed)
        self.ai_pause = AI_PAUSE
        self.ai_fast = False
        self._ai_at = 0.0  # time.monotonic() before which the AI waits
        self._ai_refused: list[Decision] = []
        self._seat_ai()
        self.fit()
        self.sync()

    # --- the AI ------------------------------------------------------------------------------
    def _seat_ai(self) -> None:
        """The AI answers its creatures' reaction windows itself (policy "ask")."""
        self._seats_shown()
        world = self.world
        for unit in creatures(world):
            policy = world.get(unit, Policy) or Policy()
            if team_of(world, unit) in self.seated and policy.reactions != "ask":
                self.session.submit(SetPolicy(unit, "ask", policy.defence), setup=True)

    def _seats_shown(self) -> None:
        """The sides the AI plays, as the sidebar shows them and the saves record them."""
        self.view.ai = {team: player.level for team, player in sorted(self.seated.items())}
        self.session.ai = dict(self.view.ai)

    def ai_turn(self) -> AI | None:
        """The AI whose decision the battle waits for, if any."""
        pending = self.session.battle.pending
        if isinstance(pending, BattleOver):
            return None
        return self.seated.get(team_of(self.world, pending.unit))

    def ai_step(self, now: float | None = None) -> bool:
        """One AI decision, when the battle waits for an AI side and its pause is over; True if
        one was made. Its reason goes to the log before its events."""
        player = self.ai_turn()
        if player is None:
            self.ai_fast = False
            return False
        now = time.monotonic() if now is None else now
        if not self.ai_fast and now < self._ai_at:
            return False
        pending = self.session.battle.pending
        assert not isinstance(pending, BattleOver)
        choice = player.choose(self.session.battle, self._ai_refused)
        note = f"AI {pending.unit}: {choice.why}"
        result = self.session.submit(choice.decision, note)
        self.show_results(result)
        if isinstance(result, Refusal):
            # A fault of legal_decisions: logged, and not chosen again in this state.
            log.warning("the AI's decision %s was refused: %s", choice.decision, result.reason)
            self._ai_refused.append(choice.decision)
        else:
            self._ai_refused = []
            self.view.status = note
            self.view.log_offset = 0
        self._ai_at = now + self.ai_pause
        self.sync()
        return True

    def hand_to_ai(self) -> None:
        """I: the side at the screen is played by the AI from now on; during an AI turn, the
        side playing it is handed back to its player."""
        player = self.ai_turn()
        if player is not None:
            pending = self.session.battle.pending
            assert not isinstance(pending, BattleOver)
            team = team_of(self.world, pending.unit)
            del self.seated[team]
            self._seats_shown()
            self.ai_fast = False
            self.view.status = f"{team.upper()} is played by its player again"
            self.sync()
            return
        # On a handover screen, the side asked to sit down; else the one sitting.
        side = self.view.handover or self.view.side
        if side is None or isinstance(self.session.battle.pending, BattleOver):
            self.view.status = "no side at the screen to hand to the AI"
            return
        self.seated[side] = AI("normal", self.session.seed * 1_000_003 + len(self.seated))
        self._seat_ai()
        self.view.clear_plan()
        self.view.status = f"{side.upper()} is played by the AI (normal); I takes it back"
        self._ai_at = time.monotonic() + self.ai_pause
        self.sync()

    # --- helpers -----------------------------------------------------------------------------
    @property
    def planner(self) -> Planner:
        """The scene's reach maps and paths."""
        return self.scene.planner

    @property
    def world(self):  # type: ignore[no-untyped-def]
        return self.session.battle.world

    def fit(self) -> None:
        """Show the whole map; it stays fitted through window resizes until zoomed or panned."""
        size = self.surface.get_size()
        self.renderer.measure(size, self.session, self.view)
        board = self.renderer.layout(size).board
        grid = self.world.grid
        self.camera.fit(grid.width, grid.height, board.width, board.height)
        self._fitted = board.size

    _fitted: tuple[int, int] | None = None  # the board size the map was last fitted to

    def unit_at(self, cell: Pos) -> str | None:
        for unit in creatures(self.world):
            if self.world.need(unit, Position).cell == cell and not hidden_from(
                self.world, unit, self.view.side
            ):
                return unit
        return None

    def mine(self, unit: str | None) -> bool:
        return unit is not None and team_of(self.world, unit) == self.view.side

    def acting(self) -> str | None:
        pending = self.session.battle.pending
        return (
            pending.unit
            if isinstance(pending, AwaitingAction) and self.mine(pending.unit)
            else None
        )

    def sync(self) -> None:
        """After any change: hand the screen over when the engine waits for another side."""
        self._forget_results()
        self._hint()
        pending = self.session.battle.pending
        view = self.view
        if isinstance(pending, BattleOver):
            view.handover = None
            view.side = None
            view.omniscient = True
            view.clear_plan()
            return
        team = team_of(self.world, pending.unit)
        if team in self.seated:
            # The screen stays with a side a person plays (everyone's, when the AI plays all).
            if view.side is None or view.side in self.seated:
                people = sorted({team_of(self.world, u) for u in creatures(self.world)})
                people = [t for t in people if t not in self.seated]
                view.side = people[0] if people else None
                view.omniscient = not people
                view.clear_plan()
            view.handover = None
        elif view.side != team:
            view.handover = team
            view.omniscient = False
            view.clear_plan()
            view.selected = None
        turn = self.world.turn
        key = (turn.round, turn.index)
        if key != self._turn_key:
            self._turn_key = key
            view.clear_plan()
            view.move_only = None
            view.disengage = view.slow = view.quicken = False
            if isinstance(pending, AwaitingAction):
                view.selected = pending.unit
        if view.selected is not None and not self.world.exists(view.selected):
            view.selected = None

    def submit(self, decision: Decision) -> Outcome:
        self.view.offer = ""  # this game has begun: the offer to continue another one lapses
        self._ai_at = time.monotonic() + self.ai_pause  # let the player see it before the AI
        result = self.session.submit(decision)
        self.show_results(result)
        if isinstance(result, Refusal):
            self.view.refuse(f"refused: {result.reason}")
        else:
            said = lines(result.events, plan_secret(self.world, self.view))
            self.view.status = said[-1] if said else ""
            self.view.log_offset = 0
        self.sync()
        return result

    def show_results(self, result: Outcome) -> None:
        """Put an accepted decision's results on the board (markers over the creatures they
        happened to) and its summary beside the action bar."""
        if isinstance(result, Refusal):
            return
        now = time.monotonic()
        view = self.view
        made = markers(result.events, self.world, now)
        # A creature's new results replace its older ones still showing: never two piles.
        fresh = {m.unit for m in made}
        view.markers = [m for m in view.markers if m.age(now) < 1 and m.unit not in fresh] + made
        said = summary(result.events, self.world)
        if said:
            view.last = said
        self._results_at = (id(self.session), len(self.session.battle.decisions))

    def _forget_results(self) -> None:
        """Undo and loads take the results back with the decisions that made them."""
        at = (id(self.session), len(self.session.battle.decisions))
        if at != self._results_at and (at[0] != self._results_at[0] or at[1] < self._results_at[1]):
            self.view.markers = []
            self.view.last = ""
            self._results_at = at

    _results_at: tuple[int, int] = (0, 0)

    # --- the frame ---------------------------------------------------------------------------
    def frame(self) -> pygame.Surface:
        self._window_surface()
        if self._watched():
            assert self.watching is not None
            self.watching.surface = self.surface  # the viewer draws in this window
            return self.watching.frame()
        if self.ui_scale is None:
            auto = default_scale(self.surface.get_size())
            if auto != self.renderer.m.scale:
                self.renderer.rescale(Metrics(auto))
        if self._fitted is not None:
            size = self.surface.get_size()
            self.renderer.measure(size, self.session, self.view)
            if self.renderer.layout(size).board.size != self._fitted:
                self.fit()  # the window or the bar changed size while the whole map was shown
        self.renderer.draw(self.surface, self.session, self.view, self.camera)
        if self.view.menu is not None and self.view.handover is None:
            self.renderer.draw_menu(self.surface, self.menu_title(), self.menu_lines())
        return self.surface

    def _window_surface(self) -> None:
        """The window's surface changes when it is resized."""
        if self.window:
            current = pygame.display.get_surface()
            if current is not None:
                self.surface = current

    def pump(self) -> pygame.Surface:
        """Handle every queued event, then draw a frame."""
        for event in pygame.event.get():
            self.handle(event)
        return self.frame()

    def run(self) -> None:
        run_window(
            lambda: self.running,
            self.handle,
            self.frame,
            self.step,
            wait=lambda: 20 if self._watched() else 100,  # a replay steps on time
        )

    def step(self) -> bool:
        """Between frames: the replay's next decision while one is watched (the game waits),
        else the AI's."""
        if self._watched():
            assert self.watching is not None
            return self.watching.step()
        return self.ai_step()

    def _watched(self) -> bool:
        """Whether a replay is open over the game; one closed from its menu is let go, and
        the game is back."""
        if self.watching is not None and not self.watching.running:
            self.watching = None
            self._window_surface()
            self.view.status = "back from the replay"
        return self.watching is not None

    # --- events ------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        kind = event.type
        if self._watched() and kind != pygame.QUIT:
            assert self.watching is not None
            self.watching.handle(event)
            self._watched()
            return
        if kind == pygame.QUIT:
            self.closing = self.session.close()
            self.running = False
        elif kind in (pygame.VIDEORESIZE, pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
            self._window_surface()
        elif kind == pygame.MOUSEMOTION:
            self._motion(event.pos, event.rel, event.buttons)
        elif kind == pygame.MOUSEBUTTONDOWN:
            self._press(event.pos, event.button)
        elif kind == pygame.MOUSEBUTTONUP:
            self._release(event.pos, event.button)
        elif kind == pygame.MOUSEWHEEL:
            self._zoom(1.2 if event.y > 0 else 1 / 1.2, self.view.mouse)
        elif kind == pygame.KEYDOWN:
            self._key(event.key, event.mod, getattr(event, "unicode", ""))

    def _board(self) -> pygame.Rect:
        return self.renderer.layout(self.surface.get_size()).board

    def _motion(self, pos: tuple[int, int], rel: tuple[int, int], buttons: tuple[int, ...]) -> None:
        view = self.view
        view.mouse = pos
        if len(buttons) >= 3 and (buttons[1] or buttons[2]):
            self.camera.pan(*rel)
            self._fitted = None
            grid = self.world.grid
            board = self._board()
            self.camera.clamp(grid.width, grid.height, board.width, board.height)
            self._drag_moved += abs(rel[0]) + abs(rel[1])
        board = self._board()
        view.hover = (
            self.camera.cell_at(*pos) if board.collidepoint(pos) and view.handover is None else None
        )
        if view.hover is not None and not self.world.grid.inside(view.hover):
            view.hover = None

    def _zoom(self, factor: float, about: tuple[int, int]) -> None:
        board = self._board()
        if not board.collidepoint(about):
            about = board.center
        grid = self.world.grid
        # No smaller than half the size that shows the whole map: a small map never shrinks to
        # a few specks.
        whole = min(board.width // grid.width, board.height // grid.height)
        if factor < 1 and self.camera.cell * factor < whole // 2:
            factor = max(whole // 2, 1) / self.camera.cell
            if factor >= 1:
                return
        self.camera.zoom(factor, about)
        self._fitted = None
        self.camera.clamp(grid.width, grid.height, board.width, board.height)
        self._motion(self.view.mouse, (0, 0), (0, 0, 0))

    def _press(self, pos: tuple[int, int], button: int) -> None:
        view = self.view
        self._motion(pos, (0, 0), (0, 0, 0))
        if button in (2, 3):
            self._drag_moved = 0
            return
        if button != 1:
            return
        hit = self.renderer.hits.at(pos)
        if view.handover is not None:
            if hit is not None and hit[0] == "handover":
                self.take_seat()
            return
        if view.menu is not None:
            if hit is not None and hit[0] == "menu":
                self._hit(*hit)
            return  # the board waits while the menu is open
        if hit is not None:
            self._hit(*hit)
            return
        if view.help:
            view.help = False
            return
        if view.hover is not None:
            shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT) or self._shift
            self.click_cell(view.hover, shift)

    _shift = False  # tests may set it, since posted clicks carry no modifier state

    def _release(self, pos: tuple[int, int], button: int) -> None:
        if button == 3 and self._drag_moved < 4:
            self.cancel()

    def _hit(self, kind: str, value: str) -> None:
        view = self.view
        if kind == "toggle":
            self.toggle(value)
        elif kind == "action":
            self.choose_action(value)
        elif kind == "option":
            self.answer(value)
        elif kind == "item":
            self.pick_item(value)
        elif kind == "choice":
            self.choose(value)
        elif kind == "menu":
            self.menu_pick(value)
        elif kind == "over" and value == "again":
            self.play_again()
        elif kind == "unit" and not hidden_from(self.world, value, view.side):
            view.selected = value
            view.clear_plan()

    # --- what the player does ----------------------------------------------------------------
    def take_seat(self) -> None:
        view = self.view
        if view.handover is None:
            return
        view.side = view.handover
        view.handover = None
        view.offer = ""  # the new game goes ahead
        pending = self.session.battle.pending
        if isinstance(pending, AwaitingAction):
            view.selected = pending.unit
        self._hint()
        self.view.status = f"{view.side.upper()} has the screen"

    def click_cell(self, cell: Pos, shift: bool = False) -> None:
        view = self.view
        pending = self.session.battle.pending
        if isinstance(pending, AwaitingReaction):
            view.status = f"answer {pending.unit}'s reaction first"
            return
        if view.choosing or view.picking:
            view.status = "choose from the list first (Esc cancels)"
            return
        if view.marking is not None:
            self.mark(cell)
            return
        unit = self.unit_at(cell)
        if view.targeting == ASSIST and view.ally is None:
            self.choose_ally(unit)
            return
        if view.targeting is not None:
            aim = aim_needs(self.world, view)
            decision: Decision | str | None = None
            if (
                view.targeting == DISARM
                and unit is not None
                and len(weapons(self.world, unit)) > 1
                and target_verdict(self.session, view, unit).ok
            ):
                # R-X5: which of the target's weapons; with one, the disarm is after that one,
                # and a target it cannot disarm is refused at once with the reason.
                view.mode = Picking(DISARM, target=unit)
                view.status = f"disarm {unit}: which weapon? (Esc cancels)"
                return
            if "target" in aim and unit is not None:
                decision = target_choice(view, unit)
            elif "to" in aim:
                decision = cell_choice(view, cell)
            elif "target" in aim:
                view.status = f"{view.targeting}: click a creature (Esc cancels)"
                return
            if decision is None:
                return
            if isinstance(decision, str):
                view.refuse(f"refused: {decision}")
            elif not isinstance(self.commit(decision), Refusal):
                view.clear_plan()
            return
        acting = self.acting()
        if acting is not None and view.selected == acting and unit is None:
            if shift:
                if cell not in view.waypoints:
                    view.waypoints.append(cell)
                    view.status = f"waypoint {len(view.waypoints)} at {cell}"
                return
            self.commit_move(cell)
            return
        if unit is not None and acting is not None and view.selected == acting and unit != acting:
            offer = self.attack_offer(unit)
            if offer is not None:
                result = self.commit(offer)
                if not isinstance(result, Refusal):
                    view.clear_plan()
                return
        if (
            unit is not None
            and unit == acting
            and view.selected == acting
            and self.scene.climbs_down(self.session, view)
        ):
            # Hanging on a face, its own cell is where a Climb takes it back down (R-M7).
            self.commit_move(cell)
            return
        if unit is not None:
            view.selected = unit
            view.clear_plan()
            if acting is not None and unit != acting and not self.mine(unit):
                reason = self.attack_refusal(unit)
                view.status = f"{unit} selected" + (f"; cannot attack: {reason}" if reason else "")
            return
        view.status = ""

    def choose_ally(self, unit: str | None) -> None:
        """Assist's first click (R-X21): the ally, when some enemy in sight can follow."""
        view = self.view
        if unit is None or view.selected is None:
            view.status = f"assist: click {assist_step(view)} (Esc cancels)"
            return
        verdict = target_verdict(self.session, view, unit)
        if not verdict.ok:
            view.refuse(verdict.words)
            return
        if isinstance(view.mode, Targeting):
            view.mode = replace(view.mode, ally=unit)
        view.status = f"assist {unit}: click {assist_step(view)} (Esc cancels)"

    def attack_offer(self, target: str) -> Decision | None:
        """Clicking an enemy while the acting creature is selected attacks it, when it can."""
        acting = self.acting()
        if acting is None or self.mine(target) or self.view.preparing is not None:
            return None
        decision = build(acting, "attack", self.view.slow, self.view.quicken, target=target)
        if isinstance(decision, str) or isinstance(judge(self.session.battle, decision), Refusal):
            return None
        return decision

    def attack_refusal(self, target: str) -> str:
        acting = self.acting()
        if acting is None:
            return ""
        decision = build(acting, "attack", self.view.slow, self.view.quicken, target=target)
        result = judge(self.session.battle, decision)
        return result.reason if isinstance(result, Refusal) else ""

    def commit(self, decision: Decision) -> Outcome:
        """Submit a decision the player made; while a Prepare trigger is chosen, hold it ready
        instead (Prepare's "then")."""
        wrapped = held_ready(self.view, decision)
        if isinstance(wrapped, str):
            self.view.refuse(f"refused: {wrapped}")
            return Refusal(wrapped)
        result = self.submit(wrapped)
        if wrapped is not decision and not isinstance(result, Refusal):
            self.view.preparing = None
        return result

    def commit_move(self, cell: Pos) -> None:
        view = self.view
        unit = view.selected
        if unit is None:
            return
        plan = self.scene.plan(self.session, view) if view.hover == cell else None
        if plan is None:
            view.hover = cell
            plan = self.scene.plan(self.session, view)
        if plan is None:
            return
        decision = plan.decision(view.slow, view.quicken)
        if decision is None:
            view.status = f"cannot move there: {plan.refusal}"
            return
        if view.preparing is not None:
            if not isinstance(self.commit(decision), Refusal):
                view.waypoints.clear()
            return
        if view.disengage:
            first = build(unit, "disengage", False, False)
            if isinstance(first, str):
                view.refuse(f"refused: {first}")
                return
            check = self.session.battle.check(first)  # type: ignore[arg-type]
            if isinstance(check, Refusal):
                view.refuse(f"refused: Disengage: {check.reason}")
                return
            keep = len(self.session.battle.decisions)
            self.submit(first)
            result = self.submit(decision)
            if isinstance(result, Refusal):
                # The move cannot follow the Disengage: take the Disengage back too.
                self.session.rewind(keep)
                self.sync()
                view.refuse(f"refused after Disengage: {result.reason}")
                return
        else:
            result = self.submit(decision)
        if not isinstance(result, Refusal):
            view.waypoints.clear()
            view.disengage = False

    def mark(self, cell: Pos) -> None:
        """Prepare's area: a click marks a cell, or unmarks a marked one."""
        view = self.view
        mode = view.mode
        if not isinstance(mode, Marking) or self.acting() is None:
            return
        if not self.world.grid.inside(cell):
            return
        marked = mode.cells
        if cell in marked:
            view.mode = Marking(tuple(c for c in marked if c != cell))
            n = len(marked) - 1
            view.status = f"unmarked {cell}; {n} cell(s) marked. {AREA_HELP}"
        elif (problem := unmarkable(self.world, cell)) is not None:
            view.status = f"{problem}. {AREA_HELP}"
        else:
            view.mode = Marking((*marked, cell))
            view.status = f"marked {cell}; {len(marked) + 1} cell(s) marked. {AREA_HELP}"

    def confirm_area(self) -> None:
        """Enter: the marked cells become Prepare's "enters_area" trigger; the action to hold
        ready is chosen next, as for the other triggers."""
        view = self.view
        if view.marking is None:
            return
        if not view.marking:
            view.status = f"mark at least one cell first. {AREA_HELP}"
            return
        cells = sorted(view.marking, key=lambda c: (c.y, c.x))
        view.mode = Free()
        view.preparing = {"trigger": "enters_area", "cells": [[c.x, c.y] for c in cells]}
        view.status = (
            f"Prepare {trigger_words(view.preparing)}: now choose the action to hold ready"
            " (Esc cancels)"
        )

    def choose_action(self, name: str) -> None:
        view = self.view
        unit = self.acting()
        if unit is None:
            view.status = "it is not your creature's turn"
            return
        view.selected = unit
        if view.marking is not None:
            view.status = AREA_HELP
            return
        entry = next((e for e in self.scene.entries(self.session, view) if e.name == name), None)
        need = needs(name)
        if view.preparing is not None and name in ("prepare", "end_turn"):
            view.status = "Prepare: choose the action to hold ready (Esc cancels)"
            return
        if name in MOVES or name == DIVE:
            view.move_only = None if view.move_only == name else name
            view.waypoints.clear()
            view.status = f"{name}: click a cell" if view.move_only else "any Movement Action"
            return
        if entry is not None and not entry.ok:
            view.status = f"{name.replace('_', ' ')}: {entry.detail}"
            return
        preparing = view.preparing
        if "ability" in need or "trigger" in need:
            view.clear_plan()
            view.preparing = preparing
            view.mode = Choosing(name)
            return
        if "item" in need:
            view.mode = Picking(name)
            return
        if "target" in need or "to" in need or "ally" in need:
            view.mode = Free() if view.targeting == name else Targeting(name)
            return
        # Ending the turn is never slowed or quickened (R-B6): the toggles leave it alone.
        shifted = name != "end_turn"
        decision = build(unit, name, view.slow and shifted, view.quicken and shifted)
        if isinstance(decision, str):
            view.refuse(f"refused: {decision}")
            return
        self.commit(decision)

    def choices(self) -> list[Choice]:
        """The lines of the chooser that is open (spells, abilities or Prepare's triggers)."""
        view = self.view
        unit = self.acting()
        if view.choosing is None or unit is None:
            return []
        side = view.eyes
        if view.choosing == "prepare":
            return [choice for choice, _ in prepare_triggers(self.session.battle, unit, side)]
        return ability_choices(
            self.session.battle, unit, view.choosing, view.slow, view.quicken, side
        )

    def choose(self, value: str) -> None:
        """A line of the open chooser was picked."""
        view = self.view
        name = view.choosing
        unit = self.acting()
        if name is None or unit is None:
            return
        if name == "prepare":
            side = view.eyes
            for choice, fields in prepare_triggers(self.session.battle, unit, side):
                if choice.value == AREA_CHOICE:
                    if value == AREA_CHOICE:
                        view.mode = Marking()
                        view.status = AREA_HELP
                        return
                elif choice.value == value:
                    view.mode = Free()
                    view.preparing = fields
                    view.status = (
                        f"Prepare {trigger_words(fields)}: now choose the action to hold ready"
                        " (Esc cancels)"
                    )
                    return
            return
        chosen = next((c for c in self.choices() if c.value == value), None)
        if chosen is None:
            return
        if not chosen.ok and view.preparing is None:
            view.status = f"{value}: {chosen.detail}"
            return
        ability = self.world.catalog.abilities[value]
        view.mode = Free()
        if not aim_of(ability):
            decision = build(unit, name, view.slow, view.quicken, **{ABILITY_ACTIONS[name]: value})
            if isinstance(decision, str):
                view.refuse(f"refused: {decision}")
            else:
                self.commit(decision)
            return
        view.mode = Targeting(name, ability=value)
        what = "a creature" if aim_of(ability) == ("target",) else "a cell"
        view.status = f"{name} {value}: click {what} (Esc cancels)"

    def pick_item(self, item: str) -> None:
        view = self.view
        name = view.picking
        if name is None or view.selected is None:
            return
        chosen = weapon_choice(view, item)  # a Disarm's target was clicked first (R-X5)
        view.mode = Free()
        if chosen is not None:
            decision = chosen
        elif "target" in needs(name):
            view.mode = Targeting(name, item=item)
            return
        else:
            decision = build(view.selected, name, view.slow, view.quicken, item=item)
        if isinstance(decision, str):
            view.refuse(f"refused: {decision}")
        else:
            self.commit(decision)

    def answer(self, option: str) -> None:
        """A prompt's option: one of the window's, or one slowed ("dodge slowed", R-B7)."""
        pending = self.session.battle.pending
        if not isinstance(pending, AwaitingReaction):
            return
        self.submit(answer_for(pending, option))

    def toggle(self, name: str) -> None:
        view = self.view
        if name in FLAGS:
            setattr(view, FLAGS[name], not getattr(view, FLAGS[name]))
        elif name == "slow":
            view.slow = not view.slow
            view.quicken = view.quicken and not view.slow
        elif name == "quicken":
            view.quicken = not view.quicken
            view.slow = view.slow and not view.quicken
        elif name == "undo":
            self.undo()
        elif name == "undo_turn":
            self.undo_turn()
        elif name == "save":
            self.save()
        elif name == "load":
            # From the handover screen between turns (or at a fresh start) anyone may load;
            # not from the one before a reaction prompt, which follows the other side's move.
            between_turns = view.handover is not None and not isinstance(
                self.session.battle.pending, AwaitingReaction
            )
            if between_turns or self._may_rewind("load"):  # as the menu's Load line says
                if self.quicksave.is_file():
                    self.load(self.quicksave)
                else:
                    self.view.status = f"cannot load: {NO_QUICK_SAVE}"

    def cancel(self) -> None:
        """Esc: close what is open, else drop the plan, else the selection; with nothing
        left to cancel, open the menu."""
        view = self.view
        if view.menu is not None:
            view.menu = None if view.menu == "main" else "main"
        elif view.help:
            view.help = False
        elif isinstance(view.mode, Picking | Targeting | Choosing):
            view.mode = Free()
        elif view.preparing is not None or isinstance(view.mode, Marking):
            view.preparing = None
            view.mode = Free()
            view.status = "Prepare cancelled"
        elif view.waypoints:
            view.waypoints.clear()
        elif view.move_only:
            view.move_only = None
        elif view.selected is not None:
            view.selected = None
        else:
            view.menu = "main"

    # --- the Esc menu ----------------------------------------------------------------------------
    def menu_lines(self) -> list[MenuLine]:
        view = self.view
        if view.menu == "replays":
            return replay_lines(
                [
                    (p.name, time.strftime("%Y-%m-%d %H:%M", time.localtime(p.stat().st_mtime)))
                    for p in self.saves()
                ]
            )
        asked = self.side_asked()
        return menu_lines(
            settings=view.menu == "settings",
            may_load=self.rewind_refusal() or (None if self.quicksave.is_file() else NO_QUICK_SAVE),
            asked=asked,
            pause=self.ai_pause,
            seated=view.side is not None,
            scale=self.renderer.m.scale,
            may_watch=self.watch_refusal(),
        )

    def menu_title(self) -> str:
        """The open menu page's title, saying where Esc goes."""
        return MENU_TITLES.get(self.view.menu or "main", MENU_TITLES["main"])

    def side_asked(self) -> bool | None:
        """Whether every creature of the seated side asks its player about reactions (None:
        no side sits at the screen)."""
        side = self.view.side
        if side is None:
            return None
        mine = [u for u in creatures(self.world) if team_of(self.world, u) == side]
        return all((self.world.get(u, Policy) or Policy()).reactions == "ask" for u in mine)

    def watch_refusal(self) -> str | None:
        """Why no save can be watched from the menu now, or None."""
        if self.replayer is None:
            return "not from here: sim replay SAVE opens the replay viewer"
        if not self.saves():
            return f"no saves yet in {save_dir()}"
        return None

    def saves(self) -> list[Path]:
        """The saves in the save directory the menu offers to watch, newest first (as many as
        the number keys pick)."""
        found = save_dir().glob("*.json") if save_dir().is_dir() else iter(())
        files = [p for p in found if p.is_file()]
        return sorted(files, key=lambda p: (-p.stat().st_mtime, p.name))[:8]

    def watch(self, path: Path) -> None:
        """Open a save in the replay viewer over the game; the game waits until it is closed.
        A save that cannot be played back is refused in words, and the game stays."""
        if self.replayer is None:
            return
        try:
            self.watching = self.replayer(path, self)
        except ReplayError as error:
            self.view.status = f"cannot watch it: {error}"
            return
        self.view.menu = None

    def menu_pick(self, value: str) -> None:
        view = self.view
        line = next((line for line in self.menu_lines() if line.value == value), None)
        if line is None:
            return
        if not line.ok:
            view.status = f"{line.label}: {line.detail}"
            return
        if value in ("resume", "save", "load", "new"):
            view.menu = None
        if value == "save":
            self.save()
        elif value == "save_quit":
            if self.save():
                self.closing = self.session.close()
                self.running = False
        elif value == "load":
            self.toggle("load")
        elif value == "new":
            self.new_game()
        elif value == "settings":
            view.menu = "settings"
        elif value == "replays":
            view.menu = "replays"
        elif value.startswith(WATCH):
            self.watch(save_dir() / value.removeprefix(WATCH))
        elif value == "back":
            view.menu = "main"
        elif value == "reactions":
            self.ask_reactions(not self.side_asked())
        elif value == "ai_pause":
            at = AI_PAUSES.index(self.ai_pause) if self.ai_pause in AI_PAUSES else -1
            self.ai_pause = AI_PAUSES[(at + 1) % len(AI_PAUSES)]
        elif value in ("ui_larger", "ui_smaller"):
            self.set_scale(scaled(self.renderer.m.scale, 1 if value == "ui_larger" else -1))

    def set_scale(self, scale: float) -> None:
        """Lay the window out again at this UI scale, at once: the game, the view, the camera
        and the open menu stay as they are (a board showing the whole map is fitted again to
        its new size). From now on the scale no longer follows the window's size."""
        self.ui_scale = scale
        self.renderer.rescale(Metrics(scale))
        self.view.status = f"UI scale {scale:g}"

    def ask_reactions(self, ask: bool) -> None:
        """Every creature of the seated side asks its player about reactions ("ask"), or
        answers by itself ("always")."""
        side = self.view.side
        if side is None:
            return
        for unit in creatures(self.world):
            policy = self.world.get(unit, Policy) or Policy()
            if team_of(self.world, unit) == side and (policy.reactions == "ask") != ask:
                self.submit(SetPolicy(unit, "ask" if ask else "always", policy.defence))
        self.view.status = f"{side.upper()}: reactions " + ("asked" if ask else "automatic")
        if ask and self.hint_due:
            self.hint_due = False
            self._note_hint()
        self._hint()

    def rewind_refusal(self) -> str | None:
        """Why the side at the screen may not take the game back now (undo, undo turn, a quick
        load on the board), or None: only the side whose creature is to act may, so a player
        answering a reaction cannot erase the other side's move it has just been shown."""
        pending = self.session.battle.pending
        if isinstance(pending, BattleOver):
            return None  # the game is over: nothing is hidden from anyone any more
        if self.view.handover is not None:
            return "take the screen first"
        if self.acting() is None:
            return "only the side whose creature is acting may undo or load"
        return None

    def _may_rewind(self, what: str) -> bool:
        refused = self.rewind_refusal()
        if refused is not None:
            self.view.status = f"cannot {what}: {refused}"
        return refused is None

    def undo(self) -> None:
        if not self._may_rewind("undo"):
            return
        keep = self.session.undo_step_point()
        if keep is None:
            self.view.status = f"cannot undo: {self.session.undo_reason()}"
            return
        self.session.rewind(keep)
        # The AI's own answers undone with the player's decision: else it would only give them
        # again at once.
        while self.ai_turn() is not None:
            keep = self.session.undo_step_point()
            if keep is None:
                break
            self.session.rewind(keep)
        self.view.status = "undone"
        self.view.clear_plan()
        self.sync()

    def undo_turn(self) -> None:
        if not self._may_rewind("undo"):
            return
        keep = self.session.turn_start_point()
        if keep is None:
            reason = self.session.turn_undo_reason() or "nothing done this turn yet"
            self.view.status = f"cannot undo: {reason}"
            return
        self.session.rewind(keep)
        self.view.status = "back to the start of the turn"
        self.view.clear_plan()
        self.sync()

    def save(self, path: Path | None = None) -> bool:
        """Save the game (to the quick save by default); whether it was saved."""
        target = path or self.quicksave
        try:
            self.session.save_to(target)
        except ReplayError as error:
            self.view.status = str(error)
            return False
        self.view.status = f"saved to {target}"
        return True

    def load(self, path: Path | str) -> None:
        try:
            save, scenario, battle = load_save(path)
        except ReplayError as error:
            self.view.status = str(error)
            return
        refused = self.session.load_refusal(save)
        if refused:
            self.view.status = f"cannot load: {refused}"
            return
        self.view.offer = ""
        grid_changed = not scenario.world.grid.same_as(self.world.grid)
        self.session = Session(scenario, save.seed, battle)
        self.scene.reset()
        if grid_changed:
            self.renderer = Renderer(self.session, self.renderer.m, self.scene)
            self.fit()
        self._turn_key = None
        self.view.side = None
        self.view.omniscient = False
        self._seat_ai()
        self.sync()
        self.view.status = f"loaded {path}"

    def play_again(self) -> None:
        """After the battle: the same scenario afresh (`new_game`)."""
        if isinstance(self.session.battle.pending, BattleOver):
            self.new_game()

    def new_game(self) -> None:
        """The same scenario afresh, with the next seed (other dice), and the same sides
        played by the AI; the game left is autosaved as it closes."""
        old = self.session
        old.close()
        self.session = Session(old.scenario, old.seed + 1)
        self.scene.reset()
        self.view = View()
        self._turn_key = None
        self._seat_ai()
        self.sync()
        self.view.status = f"a new battle of {old.scenario.name} (seed {old.seed + 1})"

    def continue_offered(self) -> None:
        """Take up the unfinished game offered on the handover screen, in its own autosave."""
        offer = self.offer
        self.view.offer = ""
        self.offer = None
        if offer is None or self.session.decided():
            return
        try:
            scenario, battle = replay(offer.save, self.session.scenario, where=str(offer.path))
        except ReplayError as error:
            self.view.status = str(error)
            return
        self.session = Session(scenario, offer.save.seed, battle, autosave=offer.path)
        if offer.save.ai:  # the sides the AI played in that game, as `sim play --continue`
            self.seated = players(dict(offer.save.ai), offer.save.seed)
        self.scene.reset()
        self._turn_key = None
        self.view.side = None
        self._seat_ai()
        self.sync()
        self.view.status = f"continued {offer.path}"

    def set_policy(self, reactions: bool) -> None:
        unit = self.view.selected
        if unit is None or not (self.mine(unit) or self.view.omniscient):
            self.view.status = "select one of your creatures to set its reaction policy"
            return
        policy = self.world.get(unit, Policy) or Policy()
        if reactions:
            i = (
                REACTION_POLICIES.index(policy.reactions)
                if policy.reactions in REACTION_POLICIES
                else -1
            )
            decision = SetPolicy(
                unit, REACTION_POLICIES[(i + 1) % len(REACTION_POLICIES)], policy.defence
            )
        else:
            i = DEFENCES.index(policy.defence) if policy.defence in DEFENCES else -1
            decision = SetPolicy(unit, policy.reactions, DEFENCES[(i + 1) % len(DEFENCES)])
        if not isinstance(self.submit(decision), Refusal):
            self.view.status = f"{unit}: reactions {decision.reactions}, defence {decision.defence}"
            if reactions and self.hint_due:
                self.hint_due = False
                self._note_hint()
                self._hint()

    def _hint(self) -> None:
        """The reactions hint shows while it is due and a creature of the seated side answers
        reactions by itself (a side already asked needs no telling)."""
        view = self.view
        automatic = view.side is not None and any(
            (self.world.get(u, Policy) or Policy()).reactions != "ask"
            for u in creatures(self.world)
            if team_of(self.world, u) == view.side
        )
        view.hint = REACTION_HINT if self.hint_due and automatic else ""

    hint_due = False  # the reactions hint has not been taken up (P) yet

    def _hint_seen(self) -> bool:
        try:
            return REACTION_HINT_KEY in self.hints.read_text(encoding="utf-8").split()
        except OSError:
            return False

    def _note_hint(self) -> None:
        """Remember that the reactions hint was taken up (a failure only shows it again)."""
        try:
            self.hints.parent.mkdir(parents=True, exist_ok=True)
            self.hints.write_text(REACTION_HINT_KEY + "\n", encoding="utf-8")
        except OSError:
            pass

    def next_own(self) -> None:
        own = [u for u in creatures(self.world) if self.mine(u)]
        if not own:
            return
        i = own.index(self.view.selected) if self.view.selected in own else -1
        self.view.selected = own[(i + 1) % len(own)]
        self.view.clear_plan()

    def listed(self) -> list[str]:
        """The values of the list open over the board (the menu, items, spells, triggers), in
        order."""
        view = self.view
        if view.menu is not None:
            return [line.value for line in self.menu_lines()]
        if view.picking:
            return listed_items(self.session, view)
        if view.choosing:
            return [c.value for c in self.choices()]
        return []

    def _key(self, key: int, mod: int, char: str) -> None:
        view = self.view
        shift = bool(mod & pygame.KMOD_SHIFT)
        if key == pygame.K_SPACE and self.ai_turn() is not None:
            self.ai_fast = True
            view.status = "playing the AI's turn out"
            return
        if key == pygame.K_i:
            self.hand_to_ai()
            return
        if view.handover is not None:
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.take_seat()
            elif key == pygame.K_c and view.offer:
                self.continue_offered()
            elif key in FILE_KEYS:
                self.toggle(FILE_KEYS[key])
            return
        if view.menu is not None:  # the keys that act on the battle wait
            lines = self.menu_lines()
            if pygame.K_1 <= key <= pygame.K_9 and key - pygame.K_1 < len(lines):
                self.menu_pick(lines[key - pygame.K_1].value)
            elif view.menu == "settings" and key in SCALE_KEYS:
                self.menu_pick(SCALE_KEYS[key])
            elif key == pygame.K_ESCAPE:
                self.cancel()
            return
        pending = self.session.battle.pending
        if (
            isinstance(pending, AwaitingReaction)
            and self.mine(pending.unit)
            and pygame.K_1 <= key <= pygame.K_9
        ):
            options = prompt_options(self.session.battle)
            index = key - pygame.K_1
            if index < len(options):
                self.answer(options[index])
            return
        listed = self.listed()
        if listed and pygame.K_1 <= key <= pygame.K_9:
            index = key - pygame.K_1
            if index < len(listed):
                if view.picking:
                    self.pick_item(listed[index])
                else:
                    self.choose(listed[index])
            return
        if view.marking is not None and key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.confirm_area()
        elif view.marking is not None and key == pygame.K_BACKSPACE:
            if view.marking:
                cells = view.marking
                view.mode = Marking(tuple(cells[:-1]))
                view.status = f"unmarked {cells[-1]}; {AREA_HELP}"
        elif key == pygame.K_ESCAPE:
            self.cancel()
        elif key == pygame.K_F1 or char == "?":
            self.toggle("help")
        elif key == pygame.K_e:
            if self.acting() is not None:
                self.choose_action("end_turn")
        elif key in TOGGLE_KEYS:
            self.toggle(TOGGLE_KEYS[key])
        elif key in ACTION_KEYS:
            self.choose_action(ACTION_KEYS[key])
        elif key == pygame.K_z:
            self.undo_turn() if shift else self.undo()
        elif key in FILE_KEYS:
            self.toggle(FILE_KEYS[key])
        elif key == pygame.K_n and isinstance(self.session.battle.pending, BattleOver):
            self.play_again()
        elif key == pygame.K_p:
            self.set_policy(True)
        elif key == pygame.K_o:
            self.set_policy(False)
        elif key == pygame.K_TAB:
            self.next_own()
        elif key == pygame.K_BACKSPACE:
            if view.waypoints:
                view.waypoints.pop()
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self._zoom(1.25, self._board().center)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self._zoom(0.8, self._board().center)
        elif key == pygame.K_HOME:
            self.fit()
        elif key in PAN_KEYS:
            self.camera.pan(*PAN_KEYS[key])
            self._fitted = None
        elif key == pygame.K_PAGEUP:
            view.log_offset += 8
        elif key == pygame.K_PAGEDOWN:
            view.log_offset = max(0, view.log_offset - 8)


# SDL's stand-in drivers: they "open" a window nobody can see. SDL falls back to one when it
# finds no display, so one that was not asked for by name means there is no display.
STAND_INS = ("offscreen", "dummy")
NO_WINDOW = "use `sim play --text` to print the battle in the terminal instead"


def display_problem() -> str | None:
    """Why no window can open here (no display, or an SDL_VIDEODRIVER that cannot open), in
    words for the player; None when one can. It does not wait: it asks SDL once."""
    asked = [d.strip().lower() for d in os.environ.get("SDL_VIDEODRIVER", "").split(",")]
    try:
        pygame.display.init()
    except pygame.error as error:
        return f"cannot open a window ({error}); {NO_WINDOW}"
    driver = pygame.display.get_driver()
    if driver in STAND_INS and driver not in asked:
        pygame.display.quit()
        return (
            "no display found ($DISPLAY and $WAYLAND_DISPLAY are not set, or nothing answers "
            f"there), so no window can open; {NO_WINDOW}"
        )
    return None


def window_size() -> tuple[int, int]:
    """The window's first size: most of the display it opens on."""
    pygame.display.init()
    return default_window(list(pygame.display.get_desktop_sizes()))


def play(
    session: Session,
    size: tuple[int, int] | None = None,
    offer: Unfinished | None = None,
    ai: Mapping[str, str] | None = None,
    scale: float | None = None,
    replayer: Replayer | None = None,
) -> int:
    """Open the window and play until it is closed; the autosave keeps the game. Exit status 1
    when the game could not be autosaved as it closed (the message says so). `offer`: an
    unfinished game of the scenario to offer on the first handover screen. `size`: None fits
    the window to the display; `scale`: the UI scale, None to follow the window's size;
    `replayer`: opens a save from the menu in the replay viewer."""
    try:
        app = App(
            session,
            size or window_size(),
            window=True,
            offer=offer,
            ai=ai,
            scale=scale,
            replayer=replayer,
        )
    except pygame.error as error:
        print(f"sim play: cannot open a window ({error}); {NO_WINDOW}", file=sys.stderr)
        return 1
    app.run()
    message, kept = app.closing if app.closing is not None else app.session.close()
    if message:
        print(message if kept else f"sim play: {message}", file=sys.stdout if kept else sys.stderr)
    return 0 if kept else 1
