"""Where fights are decided (issue #35): each side's per-cell counts of creatures downed, damage
dealt and taken and turns ended, read from a battle's event log, following every creature from
its first cell through each event that moves it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.ai.seats import play, players, take_seats
from sim.content.scenario import load
from sim.core import events as ev
from sim.core.condition import Condition
from sim.core.geometry import Pos
from sim.formats.replay import begin
from sim.tools import batch
from sim.tools.hotspots import CellCount, read_cells, totals
from tests.helpers import accepted, end_turns
from tests.tools.test_batch import plan, scripted_duel

ROOT = Path(__file__).resolve().parents[2]


def test_damage_counts_where_the_dealer_and_the_target_stood_and_a_turn_where_it_ended() -> None:
    """ana (1,1) hits bob (2,1) for 1, Steps to (0,1) (bob lets her go) and ends her turn
    there; bob Walks to (1,1) and hits her for 6 with his longsword. ana's damage was dealt from
    (1,1), where she stood, and bob's from (1,1), where he had walked; each took it on his cell."""
    scenario, b = scripted_duel()
    accepted(b, unit="ana", action="attack", target="bob")
    accepted(b, unit="bob", reaction="none")  # no Interrupt (R-R7)
    accepted(b, unit="bob", reaction="parry")  # 14 against 14: a miss
    accepted(b, unit="ana", action="attack", target="bob")
    accepted(b, unit="bob", reaction="none")  # undefended: a hit, 1 damage
    accepted(b, unit="ana", action="step", path=[[0, 1]])
    accepted(b, unit="bob", reaction="none")  # no Attack of Opportunity (R-R4)
    end_turns(b, "ana")
    accepted(b, unit="bob", action="walk", path=[[1, 1]])
    accepted(b, unit="bob", action="attack", target="ana")  # 5+6 against her RES 3: 6 damage
    assert read_cells(b.log, scenario.world) == (
        CellCount("blue", "dealt", 1, 1, 1),
        CellCount("red", "dealt", 1, 1, 6),
        CellCount("blue", "taken", 0, 1, 6),
        CellCount("red", "taken", 2, 1, 1),
        CellCount("blue", "held", 0, 1, 1),
    )


def test_every_move_is_followed_and_a_creature_goes_down_once_until_it_gets_up() -> None:
    """A jump, a push, a climb and a fall each say where the creature ends up; a fall's damage
    and a bleeding are nobody's to deal; a second Incapacitated value is no second going down,
    but one after the creature got up again is."""
    scenario, _ = scripted_duel()  # ana at (1,1), bob at (2,1)
    log = [
        ev.Jumped("ana", Pos(1, 1), Pos(3, 1), 4),
        ev.Pushed("bob", Pos(2, 1), Pos(4, 1), "ana"),
        ev.Damaged("bob", 2, "slashing", "ana's sword", 9, dealer="ana"),
        ev.Climbed("bob", Pos(4, 1), Pos(5, 1), 1.0, 1.0),
        ev.Fell("bob", Pos(5, 2), 3.0),
        ev.Damaged("bob", 2, "crushing", "fall", 7, dealer=None),
        ev.ConditionGained("bob", Condition.INCAPACITATED),
        ev.ConditionGained("bob", Condition.INCAPACITATED, 2),
        ev.ConditionLost("bob", Condition.INCAPACITATED),
        ev.Moved("bob", Pos(5, 2), Pos(6, 2), 2),
        ev.Damaged("bob", 1, "bleeding", "bleeding", 0, dealer=None),
        ev.ConditionGained("bob", Condition.INCAPACITATED),
        ev.TurnEnded("ana"),
    ]
    assert read_cells(log, scenario.world) == (
        CellCount("red", "downed", 5, 2, 1),
        CellCount("red", "downed", 6, 2, 1),
        CellCount("blue", "dealt", 3, 1, 2),
        CellCount("red", "taken", 4, 1, 2),
        CellCount("red", "taken", 5, 2, 2),
        CellCount("red", "taken", 6, 2, 1),
        CellCount("blue", "held", 3, 1, 1),
    )


@pytest.mark.slow
def test_the_cells_of_ai_games_add_up_to_what_their_records_say() -> None:
    """Three AI games of the brawl on the docks (walks, shoves, throws; 81 steps, 6 pushes
    and 12 creatures down when written): each side's damage over its cells is what its units
    dealt and took, its turns ended are the log's, and each creature down at the end went down
    on some cell."""
    scenario = load(str(ROOT / "scenarios" / "brawl.toml"))
    the_plan = plan(scenario)
    seen = {"moves": 0, "pushes": 0, "downs": 0}
    for index in range(3):
        seed = batch.game_seed(0, index)
        battle = begin(scenario, seed)
        seated = players(dict(the_plan.levels), seed)
        take_seats(battle, seated)
        finish = play(battle, seated, round_cap=30)
        game = batch.read_game(
            index, seed, battle.log, battle.world, the_plan, capped=finish == "capped"
        )
        cells = totals(["blue", "red"], [game.cells])
        for team in ("blue", "red"):
            mine = [u for u in game.units if u.team == team]
            assert sum(n for *_, n in cells[team]["dealt"]) == sum(u.dealt for u in mine)
            assert sum(n for *_, n in cells[team]["taken"]) == sum(u.taken for u in mine)
            ended = [e for e in battle.log if isinstance(e, ev.TurnEnded)]
            names = {u.unit for u in mine}
            assert sum(n for *_, n in cells[team]["held"]) == sum(e.unit in names for e in ended)
            down = sum(n for *_, n in cells[team]["downed"])
            assert down >= sum(not u.survived for u in mine)
            seen["downs"] += down
        seen["moves"] += sum(isinstance(e, ev.Moved | ev.Jumped) for e in battle.log)
        seen["pushes"] += sum(isinstance(e, ev.Pushed) for e in battle.log)
        assert game.cells == batch.play_game(the_plan, index).cells  # as a batch reads it
    # What the three games exercised (the same games every run: the seeds are fixed).
    assert seen["moves"] > 20 and seen["pushes"] > 0 and seen["downs"] >= 3, seen
