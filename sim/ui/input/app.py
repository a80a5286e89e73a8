"""The hotseat client's window: one window, two sides taking turns; it owns the game (the
session, the view, the camera, the AI's seats) and hands each event to the handler of the mode
the screen is in (sim/ui/input/handler.py), then draws the frame. `App.handle` takes one pygame
event and `App.frame` draws one frame onto a Surface, so tests drive it headless
(SDL_VIDEODRIVER=dummy) with posted events."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pygame

from sim.core.actions import Refusal
from sim.core.creature import cells_of, creatures, team_of
from sim.core.geometry import Pos
from sim.core.world import World
from sim.formats.replay import Unfinished, save_dir
from sim.play.engine import AwaitingAction, Decision, Outcome
from sim.ui.draw.camera import Camera
from sim.ui.draw.render import Renderer
from sim.ui.input import camera
from sim.ui.input.free import FreeHandler
from sim.ui.input.handler import EventHandler
from sim.ui.input.handover import AftermathHandler, HandoverHandler
from sim.ui.input.hints import HINTS_FILE, Hints
from sim.ui.input.lists import ListHandler
from sim.ui.input.loop import open_surface, run_window
from sim.ui.input.marking import MarkHandler
from sim.ui.input.menu import Menu, MenuHandler
from sim.ui.input.seats import Seats
from sim.ui.input.targeting import TargetHandler
from sim.ui.look.metrics import Metrics, default_scale, default_window
from sim.ui.model.hotseat import follow
from sim.ui.model.markers import markers, summary
from sim.ui.model.mode import Choosing, Free, Marking, Picking, Targeting
from sim.ui.model.planner import Planner, hidden_from
from sim.ui.model.rewind import quick_save
from sim.ui.model.scene import Scene, plan_secret
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.logbook import lines
from sim.ui.words.status import say

Replayer = Callable[[Path, "App"], "App"]  # a save and the window's game -> the viewer on it

# The handler of each mode of the board (sim/ui/model/mode.py).
MODE_HANDLERS: dict[type, type[EventHandler]] = {
    Free: FreeHandler,
    Picking: ListHandler,
    Choosing: ListHandler,
    Targeting: TargetHandler,
    Marking: MarkHandler,
}


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
        self.window = window
        self.surface = open_surface(window, size, f"sim — {session.scenario.name}")
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
        self.menu = Menu(self)
        self.drag_moved = 0  # how far the mouse moved with the middle or right button held
        self.fitted: tuple[int, int] | None = None  # the board size the map was last fitted to
        self.shift = False  # tests may set it, since posted clicks carry no modifier state
        self.turn_key: tuple[int, int] | None = None  # the turn `sync` last saw begin
        self.results_at = (0, 0)  # the session and decision the results on the board are of
        self.quicksave = quick_save(session)
        self.offer = offer
        self.hints = Hints(save_dir() / HINTS_FILE)
        if offer is not None:
            self.view.offer = (
                f"An unfinished game of this scenario was autosaved ({offer.describe()}). "
                "Press C to continue it; Enter starts this new one."
            )
        # While `prepare`'s work runs behind the frames: its thread, and the words (if any) each
        # frame shows across its foot.
        self.preparing: threading.Thread | None = None
        self.preparing_notice: str | None = None
        self.seats = Seats(self, ai, session.seed)
        self.seats.seat()
        camera.fit(self)
        self.sync()

    # --- the game at the screen ----------------------------------------------------------------
    @property
    def planner(self) -> Planner:
        """The scene's reach maps and paths."""
        return self.scene.planner

    @property
    def world(self) -> World:
        return self.session.battle.world

    def unit_at(self, cell: Pos) -> str | None:
        """The creature in `cell` that the side at the screen sees, if any."""
        for unit in creatures(self.world):
            if cell in cells_of(self.world, unit) and not hidden_from(
                self.world, unit, self.view.side
            ):
                return unit
        return None

    def mine(self, unit: str | None) -> bool:
        return unit is not None and team_of(self.world, unit) == self.view.side

    def acting(self) -> str | None:
        """The creature of the side at the screen whose action the battle waits for."""
        pending = self.session.battle.pending
        return (
            pending.unit
            if isinstance(pending, AwaitingAction) and self.mine(pending.unit)
            else None
        )

    def sync(self) -> None:
        """After any change: hand the screen over when the engine waits for another side."""
        self.forget_results()
        self.hints.show(self.world, self.view)
        self.turn_key = follow(self.session, self.view, self.seats.seated, self.turn_key)

    def submit(self, decision: Decision) -> Outcome:
        """Submit a decision of the side at the screen; the status line says what it did."""
        self.view.offer = ""  # this game has begun: the offer to continue another one lapses
        self.view.confirm = None  # a click held back is for the battle as it was
        self.seats.wait()
        result = self.session.submit(decision)
        self.show_results(result)
        if isinstance(result, Refusal):
            self.view.refuse(say("refused", why=result.reason))
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
        self.results_at = (id(self.session), len(self.session.battle.decisions))

    def forget_results(self) -> None:
        """Undo and loads take the results back with the decisions that made them."""
        at = (id(self.session), len(self.session.battle.decisions))
        if at != self.results_at and (at[0] != self.results_at[0] or at[1] < self.results_at[1]):
            self.view.markers = []
            self.view.last = ""
            self.results_at = at

    def set_scale(self, scale: float) -> None:
        """Lay the window out again at this UI scale, at once: the game, the view, the camera
        and the open menu stay as they are (a board showing the whole map is fitted again to
        its new size). From now on the scale no longer follows the window's size."""
        self.ui_scale = scale
        self.renderer.rescale(Metrics(scale))
        self.view.status = say("ui_scale", scale=f"{scale:g}")

    # --- the frame ---------------------------------------------------------------------------
    def frame(self) -> pygame.Surface:
        self.window_surface()
        if self.watched():
            assert self.watching is not None
            self.watching.surface = self.surface  # the viewer draws in this window
            return self.watching.frame()
        if self.ui_scale is None:
            auto = default_scale(self.surface.get_size())
            if auto != self.renderer.m.scale:
                self.renderer.rescale(Metrics(auto))
        if self.fitted is not None:
            size = self.surface.get_size()
            self.renderer.measure(size, self.session, self.view)
            if self.renderer.layout(size).board.size != self.fitted:
                camera.fit(self)  # the window or the bar changed size while the whole map was shown
        self.renderer.draw(self.surface, self.session, self.view, self.camera)
        if self.view.menu is not None and self.view.handover is None:
            self.renderer.draw_menu(self.surface, self.menu.title(), self.menu.lines())
        self._notice(self.surface)
        return self.surface

    def window_surface(self) -> None:
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

    def prepare(self, notice: Callable[[], str | None], work: Callable[[], object]) -> None:
        """Show the first frame at once, then start `notice` and `work` in a thread of their
        own: what later frames are faster with (the reach engine: loaded from its cache, or
        compiled on a first start for seconds), the window answering meanwhile. Until the work
        has finished, every frame shows the words `notice()` gave, if any, across its foot."""
        self.frame()
        if self.window:
            pygame.display.flip()

        def behind() -> None:
            try:
                self.preparing_notice = notice()
            finally:  # the work is done whatever the notice did: it ends the preparing
                try:
                    work()
                finally:
                    self.preparing_notice = None

        self.preparing = threading.Thread(target=behind, name="prepare", daemon=True)
        self.preparing.start()

    def _notice(self, surface: pygame.Surface) -> None:
        """`prepare`'s words across the foot of the frame while its work runs."""
        said = self.preparing_notice
        if said is None:
            return
        rect = surface.get_rect()
        m = self.renderer.m
        self.renderer.fonts.draw(
            surface, said, (rect.centerx, rect.bottom - m.px(24)), m.font, anchor="midbottom"
        )

    def run(self) -> None:
        run_window(
            lambda: self.running,
            self.handle,
            self.frame,
            self.step,
            wait=lambda: 20 if self.watched() else 100,  # a replay steps on time
        )

    def step(self) -> bool:
        """Between frames: the replay's next decision while one is watched (the game waits),
        else the AI's."""
        if self.watched():
            assert self.watching is not None
            return self.watching.step()
        return self.seats.step()

    def watched(self) -> bool:
        """Whether a replay is open over the game; one closed from its menu is let go, and
        the game is back."""
        if self.watching is not None and not self.watching.running:
            self.watching = None
            self.window_surface()
            self.view.status = say("back_from_replay")
        return self.watching is not None

    # --- events ------------------------------------------------------------------------------
    def handler(self) -> EventHandler:
        """The handler of what the screen shows now: a handover screen, the menu, or the
        board in its mode. Made afresh from the view for each event, since the AI, an undo or
        a load change the mode between events as well."""
        view = self.view
        if view.aftermath:
            return AftermathHandler(self)
        if view.handover is not None:
            return HandoverHandler(self)
        if view.menu is not None:
            return MenuHandler(self)
        return MODE_HANDLERS[type(view.mode)](self)

    def handle(self, event: pygame.event.Event) -> None:
        kind = event.type
        if self.watched() and kind != pygame.QUIT:
            assert self.watching is not None
            self.watching.handle(event)
            self.watched()
            return
        if kind == pygame.QUIT:
            self.closing = self.session.close()
            self.running = False
        elif kind in (pygame.VIDEORESIZE, pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
            self.window_surface()
        else:
            self.handler().handle(event)


# SDL's stand-in drivers: they "open" a window nobody can see. SDL falls back to one when it
# finds no display, so one that was not asked for by name means there is no display.
STAND_INS = ("offscreen", "dummy")
NO_WINDOW = "use `sim play --text` to print the battle in the terminal instead"


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Standard error of the process itself (file descriptor 2) goes nowhere meanwhile: SDL's
    video drivers write their own lines there as they probe for a display ("error:
    XDG_RUNTIME_DIR is invalid or not set in the environment."), and a player should read
    one clear line of ours instead. Python's own writes are flushed first."""
    sys.stderr.flush()
    try:
        kept = os.dup(2)
    except OSError:  # no file descriptor 2 at all: nothing to quieten
        yield
        return
    try:
        with open(os.devnull, "wb") as nowhere:
            os.dup2(nowhere.fileno(), 2)
            yield
    finally:
        os.dup2(kept, 2)
        os.close(kept)


def display_problem() -> str | None:
    """Why no window can open here (no display, or an SDL_VIDEODRIVER that cannot open), in
    words for the player; None when one can. It does not wait: it asks SDL once, with SDL's
    own messages kept off the terminal (`quiet_stderr`)."""
    asked = [d.strip().lower() for d in os.environ.get("SDL_VIDEODRIVER", "").split(",")]
    try:
        with quiet_stderr():
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
    prepare: tuple[Callable[[], str | None], Callable[[], object]] | None = None,
) -> int:
    """Open the window and play until it is closed; the autosave keeps the game. Exit status 1
    when the game could not be autosaved as it closed (the message says so). `offer`: an
    unfinished game of the scenario to offer on the first handover screen. `size`: None fits
    the window to the display; `scale`: the UI scale, None to follow the window's size;
    `replayer`: opens a save from the menu in the replay viewer; `prepare`: a notice and the
    work done once the first frame shows (`App.prepare`)."""
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
    if prepare is not None:
        app.prepare(*prepare)
    app.run()
    message, kept = app.closing if app.closing is not None else app.session.close()
    if message:
        print(message if kept else f"sim play: {message}", file=sys.stdout if kept else sys.stderr)
    return 0 if kept else 1
