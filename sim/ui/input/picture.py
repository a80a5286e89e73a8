"""`sim render`: the client's view of a scenario, after an optional script, saved as a PNG
without opening a window."""

from __future__ import annotations

import json
import os
from pathlib import Path

from sim.content.scenario import Scenario
from sim.core.components import Budget
from sim.core.geometry import Pos
from sim.play.decisions import DecisionError, parse


class PictureError(Exception):
    """A wrong overlay, unit or script line; the message says which."""


def render_png(
    scenario: Scenario,
    out: str | Path,
    *,
    seed: int,
    overlays: list[str] = (),  # type: ignore[assignment]
    script: list[str] = (),  # type: ignore[assignment]
    hover: Pos | None = None,
    size: tuple[int, int] = (1280, 800),
) -> list[str]:
    """Draw the view to `out`; returns the script's refusals as messages."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"  # no window, whatever the desktop
    import pygame

    from sim.ui.input.app import App
    from sim.ui.model.session import Session

    session = Session(scenario, seed)
    session.autosave = None
    problems = []
    for number, line in enumerate(script, start=1):
        if not line.strip():
            continue
        try:
            decision = parse(json.loads(line))
        except DecisionError as error:
            raise PictureError(f"script line {number}: {error}") from None
        except json.JSONDecodeError as error:
            raise PictureError(f"script line {number}: not JSON: {error.msg}") from None
        except RecursionError:
            raise PictureError(
                f"script line {number}: not JSON this simulator reads: "
                "lists or objects nested too deep"
            ) from None
        except ValueError:  # a number of more digits than Python converts
            raise PictureError(
                f"script line {number}: not JSON this simulator reads: a number has too many digits"
            ) from None
        result = session.submit(decision)
        if hasattr(result, "reason"):
            problems.append(f"script line {number}: refused: {result.reason}")
    app = App(session, size)
    view = app.view
    view.handover = None
    view.omniscient = True
    view.side = None
    view.show_reach = False
    world = session.battle.world
    teams: list[str] = []
    for overlay in overlays:
        kind, _, value = overlay.partition(":")
        if kind == "reach":
            # An item's id exists too, but only a creature with a budget has a reach map.
            if not world.exists(value) or not world.has(value, Budget):
                raise PictureError(f"--overlay reach:{value}: there is no unit {value!r}")
            view.selected = value
            view.show_reach = True
        elif kind == "threat":
            from sim.ui.model.planner import teams as all_teams

            if value not in all_teams(world):
                raise PictureError(f"--overlay threat:{value}: there is no team {value!r}")
            teams.append(value)
            view.show_threat = True
        else:
            raise PictureError(f"--overlay {overlay}: expected reach:UNIT or threat:TEAM")
    view.threat_teams = tuple(teams) if teams else None
    if hover is not None:
        view.hover = hover
        view.mouse = app.camera.centre(hover)
    surface = app.frame()
    try:
        pygame.image.save(surface, str(out))
    except (OSError, pygame.error) as error:
        raise PictureError(f"cannot write the picture to {out}: {error}") from None
    return problems
