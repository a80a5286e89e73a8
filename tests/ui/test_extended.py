"""R-B5 in the client: during an Extended Action (ana doffing her mail), the reach map and the
move tip are those of the turn a move gives back, as the engine prices it; the tip says the
move breaks the Extended Action off, and clicking a cell does so."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from sim.content.scenario import load
from sim.core import actions as a
from sim.core.actions import Refusal
from sim.core.components import Budget, ExtendedAction, Position
from sim.core.dice import LoadedDice
from sim.core.geometry import Pos
from sim.ui.input.app import App
from sim.ui.model.session import Session
from tests.ui import test_client as client
from tests.ui.test_client import Player, acting, fighters, write_scenario

shots = client.shots

ROOM = """
#########
#.......#
#.a...b.#
#.......#
#########
"""


def test_a_creature_doffing_its_armour_can_still_move_and_is_told_it_breaks_off(
    tmp_path: Path, shots: Path
) -> None:
    scenario = load(write_scenario(tmp_path, "doff", fighters("doff", ROOM)))
    # Initiative: ana 8 on her d8, grok 1 on his d6.
    app = App(Session(scenario, 3, battle=scenario.begin(LoadedDice([8, 1]))), (1280, 800))
    p = Player(app, shots)
    p.sit_down()
    assert acting(app) == "ana"
    assert not isinstance(app.session.submit(a.Doff("ana")), Refusal)
    assert app.world.get("ana", ExtendedAction) is not None
    assert app.world.need("ana", Budget).half == 0  # the Extended Action took the turn
    app.sync()
    there = Pos(4, 2)
    p.hover(there)
    reach = app.scene.reach_cells(app.session, app.view)
    assert reach.get(there) == "step", reach
    app.frame()
    assert app.renderer.tip is not None
    rows = app.renderer.tip[0]
    assert "breaks off its doff (an Extended Action)" in rows
    assert "left after: 2 half, 1 bonus" in rows  # a Step from the turn given back
    p.shot("doff_move_tip")
    p.click_cell(there)
    assert app.world.need("ana", Position).cell == there
    assert app.world.get("ana", ExtendedAction) is None
