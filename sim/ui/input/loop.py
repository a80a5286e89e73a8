"""The window's event loop, shared by the client and the map editor."""

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
