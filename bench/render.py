"""Frame time of the client under the dummy video driver: 64x64, 128x128 and 256x256 maps (fitted
to the screen) at 1920x1080 with the reach overlay, the threat overlay, a hovered path and 20
creatures, against a baseline of blitting one prepared full-screen surface in the same run.
Prints medians and the ratio to the baseline for three frames:

- "still": the same hover, frame after frame (what the window costs while nothing moves);
- "hover": the mouse on a new cell every frame (the path, its tip and the cell's lines);
- "pan": the camera dragged a few pixels each frame;
- "zoom": a zoom step in or out each frame (four in, four out: the first frame at a new size
  draws the chunks on screen at that size);
- "change": the first frame after a state change (the acting creature steps to a neighbouring
  cell, then the step is undone, in turn: the action bar's legal decisions, the reach map, the
  threats, the panels; the step and the undo themselves are not timed).

Times are the process's CPU time, so other work on a shared machine counts less.

    python bench/render.py [--frames 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame

from sim.content.scenario import loads
from sim.core.actions import Refusal
from sim.core.components import Position
from sim.core.geometry import Pos
from sim.ui.input import camera, handover
from sim.ui.input.app import App
from sim.ui.model.planner import MOVES
from sim.ui.model.session import Session

SIZE = (1920, 1080)


def scenario_text(n: int, creatures: int = 20) -> str:
    """An n x n map with walls, difficult ground, water, a raised block and 20 creatures."""
    rows = []
    for y in range(n):
        row = []
        for x in range(n):
            if x in (0, n - 1) or y in (0, n - 1) or (x * 7 + y * 3) % 23 == 0:
                row.append("#")
            elif (x // 4 + y // 5) % 6 == 0:
                row.append(",")
            elif n // 3 < x < n // 3 + 4:
                row.append("~")
            elif (x // 8 + y // 8) % 5 == 1:
                row.append("h")
            else:
                row.append(".")
        rows.append(row)
    units = []
    centre = n // 2
    for i in range(creatures):
        x = centre - 5 + (i % 5) * 2 + (0 if i < 10 else 1)
        y = centre - 4 + (i // 5) * 2
        rows[y][x] = "."
        team = "blue" if i < 10 else "red"
        template = "human_fighter" if i < 10 else "orc_brute"
        units.append(
            f'[[units]]\nid = "u{i}"\nteam = "{team}"\ntemplate = "{template}"\nat = [{x}, {y}]\n'
        )
    text = "\n".join("".join(r) for r in rows)
    return (
        f'name = "bench {n}"\nseed = 1\n[map]\nrows = """\n{text}\n"""\n'
        '[legend]\n"h" = { kind = "open", height = 1.5 }\n\n' + "\n".join(units)
    )


def median_ms(fn, frames: int, before=None) -> float:  # type: ignore[no-untyped-def]
    """The median CPU time of `fn` (the process's, so other work on a shared machine counts
    less), `before` run untimed ahead of each call."""
    times = []
    for _ in range(frames):
        if before is not None:
            before()
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000)
    return statistics.median(times)


def bench(n: int, frames: int, tmp: Path) -> tuple[float, float, float, float, float, float, int]:
    path = tmp / f"bench{n}.toml"
    path.write_text(scenario_text(n), encoding="utf-8")
    os.environ["SIM_SAVE_DIR"] = str(tmp)
    from sim.content.scenario import load

    loads(path.read_text(encoding="utf-8"), str(path))  # check it loads
    session = Session(load(path), 1)
    session.autosave = None
    app = App(session, SIZE)
    handover.take_seat(app)
    view = app.view
    unit = view.selected
    assert unit is not None
    view.show_reach = True
    view.show_threat = True
    reach = app.planner.reach(session.battle, session.version, unit, None)
    far = max(reach, key=lambda p: reach[p].cost)
    view.hover = far
    view.mouse = app.camera.centre(far)
    app.frame()  # warm the caches (terrain chunks, tiles, reach map, path, text)
    frame = median_ms(app.frame, frames)
    screen = pygame.Surface(SIZE)
    prepared = app.frame().copy()
    baseline = median_ms(lambda: screen.blit(prepared, (0, 0)), frames)
    # The mouse over a new cell each frame: every reachable cell in turn, then again.
    cells = sorted(reach, key=lambda p: (p.y, p.x))
    order = iter(cells * (frames // len(cells) + 2))

    def hover() -> None:
        cell = next(order)
        view.hover = cell
        view.mouse = app.camera.centre(cell)
        app.frame()

    hover()
    moving = median_ms(hover, frames)
    # A state change: a move to a neighbouring cell (the engine plans its path), then undone
    # (Z), in turn.
    home = session.battle.world.need(unit, Position).cell
    there = next(p for p in cells if abs(p.x - home.x) + abs(p.y - home.y) == 1)
    move = MOVES[reach[there].action]
    view.hover = there
    view.mouse = app.camera.centre(there)

    def change() -> None:
        if session.battle.world.need(unit, Position).cell == home:
            outcome = session.submit(move(unit, to=there))
            assert not isinstance(outcome, Refusal), outcome.reason
        else:
            keep = session.undo_step_point()
            assert keep is not None, session.undo_reason()
            session.rewind(keep)
        app.sync()

    changed = median_ms(app.frame, min(frames, 40), before=change)
    # The camera panned a few pixels each frame (a drag), then zoomed a step in or out.
    view.hover = None
    steps = iter(range(10**6))

    def pan() -> None:
        app.camera.pan(3 if next(steps) % 2 else -3, 0)
        app.fitted = None

    panned = median_ms(app.frame, frames, before=pan)

    def zoom() -> None:
        camera.zoom(app, 1.2 if next(steps) % 8 < 4 else 1 / 1.2, app.camera.centre(far))

    zoomed = median_ms(app.frame, 16, before=zoom)
    return frame, moving, changed, panned, zoomed, baseline, len(reach)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=200)
    args = parser.parse_args()
    from sim.rules.reach import pathfinder

    pathfinder.warm_up()  # the compiled engine, as the client has it (sim play warms it up)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for n in (64, 128, 256):
            found = bench(n, args.frames, Path(tmp))
            frame, moving, changed, panned, zoomed, baseline, cells = found
            print(
                f"{n}x{n} at {SIZE[0]}x{SIZE[1]}, 20 creatures, reach ({cells} cells) + threat "
                f"+ path; one full-screen blit {baseline:.2f} ms median"
            )
            # Issue #15's goals: a 256x256 map fitted to the screen, 16 ms a frame; on 64x64,
            # 4 ms a frame while the mouse moves over new cells and 8 ms after a state change;
            # issue #30: a zoom step on 256x256 within 16 ms.
            goals = {
                "still": 16.0 if n == 256 else None,
                "hover": 4.0 if n == 64 else None,
                "change": 8.0 if n == 64 else None,
                "pan": 16.0 if n == 256 else None,
                "zoom": 16.0 if n == 256 else None,  # issue #30
            }
            shown = (
                ("still", frame), ("hover", moving), ("change", changed), ("pan", panned),
                ("zoom", zoomed),
            )  # fmt: skip
            for name, ms in shown:
                goal = goals[name]
                met = "met" if goal and ms < goal else "NOT met"
                verdict = f"; goal < {goal:g} ms: {met}" if goal else ""
                print(f"  {name:<7}{ms:6.2f} ms median, {ms / baseline:5.1f}x the blit{verdict}")


if __name__ == "__main__":
    _ = Pos
    main()
