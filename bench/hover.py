"""Time per hover of an attack or shove target in the client (issue #12: the hover tip shows the
exact odds): a fighter on a 64x64 map ringed by eight enemies, at 1920x1080 under the dummy
video driver. "first" is the frame after the mouse lands on a target whose odds this battle
version has not asked yet (the check, sim.play.odds and the tip's text); "again" is the same hover
once cached; an empty cell's hover is the baseline. Prints medians and the worst.

    python bench/hover.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.content.scenario import load
from sim.core.actions import EndTurn
from sim.core.geometry import Pos
from sim.ui.input import handover, orders
from sim.ui.input.app import App
from sim.ui.model.session import Session

SIZE = (1920, 1080)
RING = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]


def scenario_text(n: int = 64) -> str:
    """An open n x n map walled round, with ana in the middle and eight orcs around her."""
    rows = ["#" * n] + ["#" + "." * (n - 2) + "#" for _ in range(n - 2)] + ["#" * n]
    c = n // 2
    units = [f'[[units]]\nid = "ana"\nteam = "blue"\ntemplate = "human_fighter"\nat = [{c}, {c}]\n']
    for i, (dx, dy) in enumerate(RING):
        units.append(
            f'[[units]]\nid = "orc{i}"\nteam = "red"\ntemplate = "orc_brute"\n'
            f"at = [{c + dx}, {c + dy}]\n"
        )
    text = "\n".join(rows)
    return f'name = "hover bench"\nseed = 1\n[map]\nrows = """\n{text}\n"""\n' + "\n".join(units)


def hover_ms(app: App, cell: Pos) -> float:
    """Move the mouse onto `cell` and draw the frame that shows its tip."""
    t = time.perf_counter()
    app.view.hover = cell
    app.view.mouse = app.camera.centre(cell)
    app.frame()
    return (time.perf_counter() - t) * 1000


def bench(rounds: int, action: str | None, tmp: Path) -> tuple[list[float], ...]:
    """Per hover: a target whose odds are not cached yet, the same again, and an empty cell
    beside them (what any hover costs: the sidebar's cell section, the tip, the path)."""
    path = tmp / "hover.toml"
    path.write_text(scenario_text(), encoding="utf-8")
    os.environ["SIM_SAVE_DIR"] = str(tmp)
    session = Session(load(path), 1)
    session.autosave = None
    app = App(session, SIZE)
    while (unit := getattr(session.battle.pending, "unit", "ana")) != "ana":
        session.submit(EndTurn(unit))  # the orcs before her in the initiative wait
    app.sync()
    handover.take_seat(app)
    assert app.view.selected == "ana", app.view.selected
    app.frame()  # the bar's entries for this turn
    if action is not None:
        orders.choose_action(app, action)
        assert app.view.targeting == action, app.view.status
    centre = Pos(32, 32)
    targets = [Pos(centre.x + dx, centre.y + dy) for dx, dy in RING]
    empty = [Pos(centre.x + 2 * dx, centre.y + 2 * dy) for dx, dy in RING]
    hover_ms(app, empty[0])  # warm what does not depend on the hover (terrain, tiles, bar)
    first: list[float] = []
    again: list[float] = []
    plain: list[float] = []
    for _ in range(rounds):
        for cell in targets:
            app.scene._forecasts.clear()  # as after a new battle version
            first.append(hover_ms(app, cell))
            if app.scene.forecast(session, app.view) is None:
                raise SystemExit(f"no odds are shown for {action or 'an attack'} at {cell}")
        for cell in targets:
            again.append(hover_ms(app, cell))
        for cell in empty:
            plain.append(hover_ms(app, cell))
    return first, again, plain


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    from sim.rules.reach import pathfinder

    pathfinder.warm_up()  # the compiled engine, as the client has it (sim play warms it up)
    with tempfile.TemporaryDirectory() as tmp:
        for action in (None, "shove"):
            first, again, plain = bench(args.rounds, action, Path(tmp))
            print(
                f"hover a {action or 'attack'} target: first {statistics.median(first):.2f} ms "
                f"median ({max(first):.2f} worst), again {statistics.median(again):.2f} ms "
                f"({max(again):.2f}); an empty cell {statistics.median(plain):.2f} ms "
                f"({max(plain):.2f})"
            )


if __name__ == "__main__":
    main()
