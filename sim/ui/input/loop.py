"""The window's surface and event loop, shared by the client and the map editor."""

from __future__ import annotations

from collections.abc import Callable

import pygame


def run_window(
    running: Callable[[], bool],
    handle: Callable[[pygame.event.Event], None],
    frame: Callable[[], object],
    step: Callable[[], object] | None = None,
    wait: Callable[[], int] = lambda: 100,
) -> None:
    """Until `running()` is false: wait up to `wait()` ms for an event (an idle window costs no
    CPU), handle it and every other queued one, take `step` (the AI's turn, a replay's next
    decision), draw a frame and show it, at most 60 a second. Then close pygame."""
    clock = pygame.time.Clock()
    while running():
        event = pygame.event.wait(wait())
        if event.type != pygame.NOEVENT:
            handle(event)
        for event in pygame.event.get():
            handle(event)
        if step is not None:
            step()
        frame()
        pygame.display.flip()
        clock.tick(60)
    pygame.quit()


def open_surface(window: bool, size: tuple[int, int], caption: str) -> pygame.Surface:
    """The surface a frame is drawn on: a resizable window titled `caption`, or (headless,
    `window` false) a plain surface of `size` with a 1x1 display behind it for the event queue
    that tests post events to."""
    pygame.display.init()
    pygame.font.init()
    if window:
        pygame.display.set_caption(caption)
        return pygame.display.set_mode(size, pygame.RESIZABLE)
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1))  # an event queue for posted events
    return pygame.Surface(size)
