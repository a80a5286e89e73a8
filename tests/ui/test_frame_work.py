"""Issue #15, the first frame after a state change: what it works out is kept where what makes it
has not changed. The enemies' threats stay as they were when one of the seat's creatures moves
or the move is undone, and are made again when an enemy moves; whatever is kept is what a
fresh look gives. The action bar without the Slow toggle reads a list without Slow variants."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from sim.core import actions as a
from sim.core.actions import Refusal
from sim.core.geometry import Pos
from sim.play.engine import AwaitingAction
from sim.ui.input import handover
from sim.ui.input.app import App
from sim.ui.model.actionbar import BAR_NAMES, entry, legal_index
from sim.ui.model.planner import threat_map
from tests.helpers import first_fast, led_by
from tests.play.test_legal_listing import SCENARIOS
from tests.play.test_legal_listing import _states as random_turns
from tests.ui.test_client import make_app, seed_where, write_scenario

OPEN = """
name = "open"
seed = 3

[map]
rows = \"\"\"
############
#..........#
#.a........#
#..........#
#.......b..#
#..........#
############
\"\"\"

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
"""


def fresh(app: App) -> dict[Pos, int]:
    """The threat counts the seat is shown, worked out afresh."""
    world = app.session.battle.world
    enemies = tuple(t for t in ("blue", "red") if t != app.view.side)
    return {p: len(u) for p, u in threat_map(world, enemies, app.view.eyes).items()}


def move(app: App, unit: str, to: Pos) -> None:
    outcome = app.session.submit(a.Walk(unit, to=to))
    assert not isinstance(outcome, Refusal), outcome.reason
    app.sync()


def test_threats_are_kept_while_no_enemy_changes_and_made_again_when_one_moves(
    tmp_path: Path,
) -> None:
    path = write_scenario(tmp_path, "open", OPEN)
    app = make_app(path, seed_where(path, "ana", "grok"))
    handover.take_seat(app)
    scene, session, view = app.scene, app.session, app.view
    assert view.side == "blue"
    shown = scene.threats(session, view)
    assert shown == fresh(app) and len(shown) == 8  # grok's eight neighbours
    move(app, "ana", Pos(3, 2))
    assert scene.threats(session, view) is shown  # kept: grok has not changed
    keep = session.undo_step_point()
    assert keep is not None
    session.rewind(keep)  # a new battle, replayed: grok as he was
    app.sync()
    assert scene.threats(session, view) is shown
    session.submit(a.EndTurn("ana"))
    app.sync()
    handover.take_seat(app)
    assert isinstance(session.battle.pending, AwaitingAction)
    assert session.battle.pending.unit == "grok"
    view.side = "blue"  # blue's seat again, to look at grok's threats after his move
    move(app, "grok", Pos(7, 3))
    moved = scene.threats(session, view)
    assert moved is not shown and moved == fresh(app)
    assert Pos(6, 2) in moved and Pos(9, 5) not in moved


@pytest.mark.parametrize("path", first_fast(led_by(SCENARIOS, "harbour")), ids=lambda p: p.stem)
def test_the_bar_without_slow_reads_the_same_from_a_list_without_slow_variants(path: Path) -> None:
    """The action bar with the Slow toggle off lists no Slow variant (`legal_index(battle,
    slowed=False)`): every button, open or greyed, its cost and its words (a greyed one's
    reason too), Quicken on or off, is what it is from the list with them, at every turn's
    decision of random play on each shipped scenario."""
    fewer = 0
    for battle, _ in random_turns(path):
        unit = battle.pending.unit  # type: ignore[union-attr]
        short, whole = legal_index(battle, slowed=False), legal_index(battle)
        fewer += sum(map(len, short.values())) < sum(map(len, whole.values()))
        for quicken in (False, True):
            for name in BAR_NAMES:
                fast = entry(battle, unit, name, False, quicken, None, short)
                full = entry(battle, unit, name, False, quicken, None, whole)
                assert fast == full and fast.detail == full.detail, name
    assert fewer > 0
