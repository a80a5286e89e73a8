"""The camera's keys, wheel and drag over the board: pan, zoom and fit the whole map (the camera
itself is sim/ui/draw/camera.py); the map editor pans with the same arrow keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from sim.ui.input.app import App

PAN_STEP = 60
PAN_KEYS = {
    pygame.K_LEFT: (PAN_STEP, 0), pygame.K_RIGHT: (-PAN_STEP, 0),
    pygame.K_UP: (0, PAN_STEP), pygame.K_DOWN: (0, -PAN_STEP),
}  # fmt: skip
ZOOM_IN_KEYS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
ZOOM_OUT_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)
WHEEL_ZOOM = 1.2  # one notch of the wheel


def wheel_factor(notches: int) -> float:
    """The zoom of a wheel event: in when turned away from the player, else out."""
    return WHEEL_ZOOM if notches > 0 else 1 / WHEEL_ZOOM


def board(app: App) -> pygame.Rect:
    """Where the board is drawn in the window now."""
    return app.renderer.layout(app.surface.get_size()).board


def fit(app: App) -> None:
    """Show the whole map; it stays fitted through window resizes until zoomed or panned."""
    size = app.surface.get_size()
    app.renderer.measure(size, app.session, app.view)
    shown = app.renderer.layout(size).board
    grid = app.world.grid
    app.camera.fit(grid.width, grid.height, shown.width, shown.height)
    app.fitted = shown.size


def motion(app: App, pos: tuple[int, int], rel: tuple[int, int], buttons: tuple[int, ...]) -> None:
    """The mouse moved: a drag with the middle or right button pans; the cell under it is the
    hover (none on a handover screen)."""
    view = app.view
    view.mouse = pos
    if len(buttons) >= 3 and (buttons[1] or buttons[2]):
        app.camera.pan(*rel)
        app.fitted = None
        grid = app.world.grid
        shown = board(app)
        app.camera.clamp(grid.width, grid.height, shown.width, shown.height)
        app.drag_moved += abs(rel[0]) + abs(rel[1])
    shown = board(app)
    view.hover = (
        app.camera.cell_at(*pos) if shown.collidepoint(pos) and view.handover is None else None
    )
    if view.hover is not None and not app.world.grid.inside(view.hover):
        view.hover = None


def zoom(app: App, factor: float, about: tuple[int, int]) -> None:
    shown = board(app)
    if not shown.collidepoint(about):
        about = shown.center
    grid = app.world.grid
    # No smaller than half the size that shows the whole map: a small map never shrinks to
    # a few specks.
    whole = min(shown.width // grid.width, shown.height // grid.height)
    if factor < 1 and app.camera.cell * factor < whole // 2:
        factor = max(whole // 2, 1) / app.camera.cell
        if factor >= 1:
            return
    app.camera.zoom(factor, about)
    app.fitted = None
    app.camera.clamp(grid.width, grid.height, shown.width, shown.height)
    motion(app, app.view.mouse, (0, 0), (0, 0, 0))


def key(app: App, pressed: int) -> bool:
    """+ and - zoom about the board's centre, Home fits the map, the arrows pan; whether the key
    was one of them."""
    if pressed in ZOOM_IN_KEYS:
        zoom(app, 1.25, board(app).center)
    elif pressed in ZOOM_OUT_KEYS:
        zoom(app, 0.8, board(app).center)
    elif pressed == pygame.K_HOME:
        fit(app)
    elif pressed in PAN_KEYS:
        app.camera.pan(*PAN_KEYS[pressed])
        app.fitted = None
    else:
        return False
    return True
