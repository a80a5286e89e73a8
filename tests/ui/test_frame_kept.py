"""Issue #30, what the frames keep: whatever a frame takes from a picture or an answer kept from
an earlier frame, it shows what a renderer with nothing kept shows of the same game, view and
camera, pixel for pixel: after a state change, a hover, toggles, a zoom and a pan, a window
resized, another action aimed, the turn and the seat handed over, an undo and a load. Each
state is drawn several frames in a row, so that the pictures kept from the first are used."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np
import pygame
import pytest

from sim.core import actions as a
from sim.core.actions import Refusal
from sim.core.components import Hands, Position
from sim.core.creature import team_of
from sim.core.geometry import Pos
from sim.play.engine import AwaitingAction
from sim.ui.draw.render import Renderer
from sim.ui.input import camera, handover, orders, saving
from sim.ui.input.app import App
from sim.ui.model.planner import MOVES
from sim.ui.model.scene import Scene
from tests.helpers import first_fast
from tests.ui.test_client import make_app

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def fresh(app: App) -> bytes:
    """The frame a renderer with nothing kept (pictures, answers, reach maps) draws."""
    surface = pygame.Surface(app.surface.get_size())
    renderer = Renderer(app.session, app.renderer.m, Scene())
    renderer.draw(surface, app.session, app.view, app.camera)
    return pygame.image.tobytes(surface, "RGB")


def same(app: App, frames: int = 3) -> None:
    """Several frames in a row of the app as it is, each the fresh renderer's. The fresh frame
    is drawn once, after the app's first: with the markers gone (the only thing the clock
    moves) a renderer with nothing kept draws the same state the same way every time, and
    drawing it again for each frame was most of this file's time."""
    app.view.markers = []  # results rise and fade with the clock
    first = pygame.image.tobytes(app.frame(), "RGB")
    expected = fresh(app)
    assert first == expected
    for _ in range(frames - 1):
        assert pygame.image.tobytes(app.frame(), "RGB") == expected


def hover(app: App, cell: Pos) -> None:
    app.view.hover = cell
    app.view.mouse = app.camera.centre(cell)


def reach(app: App) -> list[Pos]:
    unit = app.view.selected
    assert unit is not None
    found = app.planner.reach(app.session.battle, app.session.version, unit, None)
    return sorted(found, key=lambda p: (p.y, p.x))


def seat_acting(app: App) -> str:
    """Hand the screen to the side whose creature acts; that creature."""
    handover.take_seat(app)
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingAction)
    assert app.view.selected == pending.unit
    return pending.unit


def states(app: App, tmp_path: Path) -> Iterator[str]:
    """Step the app through the changes a kept picture could miss, naming each."""
    view, session = app.view, app.session
    unit = seat_acting(app)
    yield "seated"
    view.show_reach = view.show_threat = True
    cells = reach(app)
    assert cells, "the acting creature can move"
    for cell in cells[:: max(1, len(cells) // 4)]:
        hover(app, cell)
        yield f"hover {cell}"
    found = app.planner.reach(session.battle, session.version, unit, None)
    # A move no die decides, so that it can be undone.
    there = next(cell for cell in reversed(cells) if found[cell].action in ("step", "walk"))
    kind = MOVES[found[there].action]
    outcome = session.submit(kind(unit, to=there))
    assert not isinstance(outcome, Refusal), outcome.reason
    app.sync()
    yield "moved"
    hover(app, reach(app)[0])
    yield "moved, another hover"
    keep = session.undo_step_point()
    assert keep is not None, session.undo_reason()
    session.rewind(keep)
    app.sync()
    yield "undone"
    view.show_own = True
    yield "own reach"
    view.show_threat = False
    yield "no threats"
    view.show_reach = False
    yield "no reach"
    hands = session.battle.world.get(unit, Hands)
    held = hands.items() if hands is not None else ()
    if held:  # no overlay changes with it: only the item on the ground shows the drop
        outcome = session.submit(a.Drop(unit, item=held[0]))
        assert not isinstance(outcome, Refusal), outcome.reason
        app.sync()
        yield "an item dropped"
    view.show_reach = view.show_threat = True
    yield "both again"
    view.move_only = "walk"
    yield "walks only"
    view.move_only = None
    camera.zoom(app, 1.25, app.camera.centre(there))
    yield "zoomed in"
    app.camera.pan(17, -9)
    app.fitted = None
    yield "panned"
    app.surface = pygame.Surface((1000, 700))
    yield "resized"
    app.surface = pygame.Surface((1280, 800))
    camera.fit(app)
    yield "resized back, fitted"
    world = session.battle.world
    other = next(u for u in world.turn.order if team_of(world, u) != team_of(world, unit))
    hover(app, world.need(other, Position).cell)
    yield "an enemy hovered"
    orders.choose_action(app, "shove")
    yield "aiming a shove"
    view.clear_plan()
    view.selected = other
    yield "the other side's creature selected"
    view.selected = unit
    saved = tmp_path / "kept.json"
    assert saving.save(app, saved)
    while getattr(session.battle.pending, "unit", None) in [
        u for u in world.turn.order if team_of(world, u) == team_of(world, unit)
    ]:
        session.submit(a.EndTurn(session.battle.pending.unit))  # type: ignore[union-attr]
        app.sync()
    yield "the turn passed"
    seat_acting(app)
    yield "the other side seated"
    hover(app, reach(app)[-1])
    yield "the other side hovers"
    saving.load(app, saved)
    seat_acting(app)
    yield "loaded"
    app.set_scale(1.25)
    yield "scaled"


@pytest.mark.parametrize("name", first_fast(["chasm", "brawl"]))
def test_every_frame_shows_what_a_renderer_with_nothing_kept_shows(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIM_SAVE_DIR", str(tmp_path))
    app = make_app(SCENARIOS / f"{name}.toml")
    app.session.autosave = None
    for state in states(app, tmp_path):
        try:
            same(app)
        except AssertionError as error:
            raise AssertionError(f"{name}, {state}: the frame is not the fresh one") from error


def test_a_hover_over_a_still_board_blits_the_kept_ground(tmp_path: Path) -> None:
    """The mouse moving over a board that stays the same draws the ground, the overlays and the
    edges once more only for the second frame (to keep their picture), then blits it."""
    app = make_app(SCENARIOS / "chasm.toml")
    app.session.autosave = None
    seat_acting(app)
    app.view.show_reach = app.view.show_threat = True
    board = app.renderer.board
    drawn: list[object] = []
    real = board.terrain.draw
    board.terrain.draw = lambda *args: drawn.append(args) or real(*args)  # type: ignore[method-assign]
    cells = reach(app)
    for cell in cells[:6]:
        hover(app, cell)
        app.frame()
    assert len(drawn) == 2  # the first frame, and the second that keeps the picture
    app.view.show_threat = False
    app.frame()
    assert len(drawn) == 3  # a toggle: the ground drawn again


@pytest.mark.parametrize("cell", [7, 12, 31])
def test_reach_strips_draw_the_pixels_of_the_tiles_one_by_one(cell: int) -> None:
    """A row's run of reach cells with one action is one blit of a strip of its tiles: on a
    mottled ground, at fractional camera offsets, the pixels of a blit per tile."""
    from sim.ui.draw.camera import Camera
    from sim.ui.draw.overlay import Overlays
    from sim.ui.draw.text import Fonts

    actions = ("step", "walk", "run", "sprint", "jump")
    cells = {
        Pos(x, y): actions[(x // 3 + y // 2) % len(actions)]
        for y in range(12)
        for x in range(14)
        if (x * 5 + y * 3) % 11  # gaps in the rows
    }
    ground = pygame.Surface((500, 420))
    noise = np.random.default_rng(5).integers(0, 256, (500, 420, 3), dtype=np.uint8)
    pygame.surfarray.blit_array(ground, noise)
    overlays = Overlays(Fonts())
    for view in (Camera(cell, 3.25, -1.5), Camera(cell, -0.75, 2.999)):
        one, runs = ground.copy(), ground.copy()
        overlays.draw_reach(one, view, cells)
        tiles = ([p.x for p in cells], [p.y for p in cells], list(cells.values()))
        overlays.draw_reach_tiles(runs, view, tiles)
        assert pygame.image.tobytes(runs, "RGB") == pygame.image.tobytes(one, "RGB")
    assert len(overlays._tiles_blits) < len(cells) / 2  # runs, not a blit per cell
