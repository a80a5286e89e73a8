"""Issue 3, terrain and movement: leaping low obstacles and rises (R-M3), dropping and falling
(R-M4), jumping with and without a run-up (R-M6) and climbing, hanging part-way (R-M7)."""

from __future__ import annotations

from typing import Any

import pytest

from sim.core.components import Position
from sim.core.geometry import Pos
from sim.play.engine import Battle
from sim.rules.movement.footing import mover
from sim.rules.movement.jump import jump_reach
from tests.helpers import (
    accepted,
    battle,
    budget,
    conditions_of,
    end_turns,
    hp,
    refused,
    scenario_text,
    types,
)
from tests.movers import creature, legend


def solo(rows: str, extra: str = "", **ana: Any) -> Battle:
    return battle(scenario_text(rows, creature("ana", "blue", "a", **ana), extra), [1])


def at(b: Battle) -> Position:
    return b.world.need("ana", Position)


def legs(events: list[dict[str, Any]]) -> list[tuple[str, list[int], int]]:
    """(type, end, cost) of each Moved or Jumped event."""
    return [(e["type"], e["end"], e["cost"]) for e in events if e["type"] in ("moved", "jumped")]


# --- R-M3 leaping low obstacles and rises ------------------------------------------------------

FENCE = """
.......
.aF.G..
.......
"""
FENCES = legend(F={"obstacle": 0.5}, G={"obstacle": 1.0})


def test_R_M3_a_half_metre_fence_is_leapt_during_a_walk_paying_as_for_ground() -> None:
    """R-M3: an obstacle no higher than half the creature's height (0.9 m for ana) and 1 m
    across is crossed during a Walk for the ground's cost: 1 m a cell."""
    b = solo(FENCE, FENCES)
    events = accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1]])
    assert legs(events) == [("moved", [2, 1], 2), ("moved", [3, 1], 2)]


def test_R_M3_an_obstacle_higher_than_half_the_creature_is_refused_to_a_walk() -> None:
    """R-M3: the 1 m obstacle at (4,1) is over ana's 0.9 m: the refusal names the cell, the
    height, what she can leap and what to do instead."""
    b = solo(FENCE, FENCES)
    reason = refused(b, unit="ana", action="walk", path=[[2, 1], [3, 1], [4, 1]])
    assert reason == ("(4,1): an obstacle 1 m high; a Walk can leap 0.9 m; jump or climb (R-M3)")


def test_R_M3_a_halfling_leaps_half_a_metre_and_no_more() -> None:
    """R-M3: a halfling is 1 m tall, so it leaps the 0.5 m fence and not the 1 m obstacle."""
    b = solo(FENCE, FENCES, race="halfling")
    accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1]])
    reason = refused(b, unit="ana", action="step", path=[[4, 1]])
    assert reason.startswith("(4,1): an obstacle 1 m high")
    b = solo(FENCE, FENCES, race="halfling")
    reason = refused(b, unit="ana", action="walk", path=[[2, 1], [3, 1], [4, 1]])
    assert reason == ("(4,1): an obstacle 1 m high; a Walk can leap 0.5 m; jump or climb (R-M3)")


def test_R_M3_a_step_cannot_leap_even_a_low_fence() -> None:
    """R-M3 names Walk, Run and Sprint: a Step does not leap."""
    b = solo(FENCE, FENCES)
    reason = refused(b, unit="ana", action="step", path=[[2, 1]])
    assert reason == "(2,1): an obstacle 0.5 m high; a Step cannot leap (R-M3); walk, jump or climb"


def test_R_M3_a_run_can_jump_the_1_m_obstacle_with_a_3_m_run_up() -> None:
    """R-M3 sends higher obstacles to R-M6: after 3 m of run-up ana jumps 1.5 m high (0.5 m
    standing + 1 m), so she clears the 1 m obstacle at (4,1) from (3,1) to (5,1)."""
    b = solo(FENCE.replace(".aF", "a.F"), FENCES)
    events = accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1], [5, 1, "jump"]])
    assert legs(events) == [
        ("moved", [1, 1], 2),
        ("moved", [2, 1], 2),
        ("moved", [3, 1], 2),
        ("jumped", [5, 1], 4),
    ]


def test_R_M3_a_jump_over_the_obstacle_without_run_up_is_refused() -> None:
    """R-M3, R-M6: a standing Jump is 0.5 m high, too low for the 1 m obstacle in its way."""
    b = solo(FENCE, FENCES)
    accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1]])
    reason = refused(b, unit="ana", action="jump", to=[5, 1])
    assert reason == (
        "(5,1): a standing jump reaches 2 m long and 0.5 m high; "
        "fold the jump into a Walk, Run or Sprint for a run-up"
    )


RISES = """
.........
.a.R.LLLL
.........
"""
RISE_LEGEND = legend(R={"height": 0.5}, L={"height": 1.5})


def test_R_M3_a_rise_of_ground_up_to_half_the_creature_is_walked_like_ground() -> None:
    """R-M3: "A rise of ground (a ledge) no higher than half the creature's height is crossed
    the same way": up the 0.5 m rise at (3,1) and down again, 1 m a cell."""
    b = solo(RISES, RISE_LEGEND)
    events = accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1], [4, 1]])
    assert legs(events) == [("moved", [2, 1], 2), ("moved", [3, 1], 2), ("moved", [4, 1], 2)]


def test_R_M3_a_1_5_m_ledge_is_refused_to_a_walk_naming_the_cell() -> None:
    """R-M3: the ledge at (5,1) is 1.5 m, over ana's 0.9 m: jump or climb."""
    b = solo(RISES, RISE_LEGEND)
    reason = refused(b, unit="ana", action="walk", path=[[2, 1], [3, 1], [4, 1], [5, 1]])
    assert reason == "(5,1): ledge 1.5 m high; a Walk can leap 0.9 m; jump or climb (R-M3)"


def test_R_M3_a_step_does_not_go_up_even_a_half_metre_rise() -> None:
    """R-M3 names Walk, Run and Sprint: a Step (or a Crawl) does not leap, so it does not go up
    the 0.5 m rise at (3,1) either."""
    b = solo(RISES, RISE_LEGEND)
    reason = refused(b, unit="ana", action="step", path=[[2, 1], [3, 1]])
    assert reason == "(3,1): ledge 0.5 m high; a Step cannot leap (R-M3); walk, jump or climb"


# --- R-M6 jumping --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agi", "length", "cap", "height"),
    [
        ("d8+8", 4, 8, 1),  # 8/4 = 2 m; 8/2 = 4 m; 8/10 = 0.8 -> 0.5 m
        ("d8+10", 5, 10, 2),  # 2.5 m; 5 m; 1 m
        ("d8+5", 2, 5, 1),  # 1.25 -> 1 m; 2.5 m; 0.5 -> 0.5 m
        ("d8+4", 2, 4, 0),  # 1 m; 2 m; 0.4 -> 0 m
    ],
)
def test_R_M6_standing_jump_length_and_height_come_from_the_agi_bonus(
    agi: str, length: int, cap: int, height: int
) -> None:
    """R-M6 with R-U4: length AGI Bonus/4, the running cap AGI Bonus/2, height AGI Bonus/10,
    each rounded down to the half-metre (values in half-metres)."""
    world = solo(RISES, RISE_LEGEND, agi=agi).world
    jr = jump_reach(world, "ana", mover(world, "ana"))
    assert (jr.standing_length, jr.length_cap, jr.standing_height) == (length, cap, height)
    assert jr.length(0) == length


def test_R_M6_a_run_up_adds_length_to_the_cap_and_a_metre_of_height_per_3_m() -> None:
    """R-M6: +1 m of length per metre of run-up up to AGI Bonus/2 (4 m for ana); +1 m of height
    per 3 m of run-up, at most 1 m over the standing height (Decision)."""
    world = solo(RISES, RISE_LEGEND).world
    jr = jump_reach(world, "ana", mover(world, "ana"))
    assert [jr.length(r) for r in (0, 2, 4, 6)] == [4, 6, 8, 8]
    assert [jr.height(r) for r in (0, 5, 6, 12, 18)] == [1, 1, 3, 3, 3]


@pytest.mark.parametrize("skill", ["athletics", "acrobatics"])
def test_R_M6_every_5_levels_of_athletics_or_acrobatics_add_a_metre_of_length(skill: str) -> None:
    """R-M6: +1 m of length per 5 levels of the better of Athletics and Acrobatics (not
    Stealth): 2 + 1 m standing, 4 + 1 m at most."""
    world = solo(RISES, RISE_LEGEND, skills={skill: 5, "stealth": 9}).world
    jr = jump_reach(world, "ana", mover(world, "ana"))
    assert (jr.length(0), jr.max_length) == (6, 10)


def test_R_M6_a_standing_jump_reaches_the_1_5_m_ledge_by_grabbing_it() -> None:
    """R-M6: a standing jump is 0.5 m high, but grabbing a ledge adds ana's 1.8 m: she gets up
    the 1.5 m ledge with a Jump on its own, a ½ Action."""
    b = solo(RISES, RISE_LEGEND)
    accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1], [4, 1]])
    events = accepted(b, unit="ana", action="jump", to=[5, 1])
    assert types(events) == ["spent", "jumped"]
    assert (events[0]["half"], events[0]["bonus"]) == (1, 0)
    assert events[1] == {
        "type": "jumped",
        "unit": "ana",
        "start": [4, 1],
        "end": [5, 1],
        "cost": 2,
        "grabbed_ledge": True,
    }
    assert at(b).cell == Pos(5, 1)


def test_R_M6_a_jump_folded_into_a_run_with_3_m_of_run_up_lands_on_the_ledge() -> None:
    """R-M6: after 3 m of run-up ana jumps 1.5 m high and lands on top without grabbing."""
    b = solo(RISES.replace(".a.R", "a..."), RISE_LEGEND)
    path = [[1, 1], [2, 1], [3, 1], [4, 1], [5, 1, "jump"]]
    events = accepted(b, unit="ana", action="run", path=path)
    assert legs(events)[-1] == ("jumped", [5, 1], 2)
    assert [e["grabbed_ledge"] for e in events if e["type"] == "jumped"] == [False]
    assert at(b).cell == Pos(5, 1)


def test_R_M6_a_destination_on_the_ledge_top_folds_the_jump_in() -> None:
    """R-M6 with a destination: the Run finds three steps and a 1 m jump, 4 m in all; the Walk
    (3 m) cannot get there."""
    b = solo(RISES, RISE_LEGEND)
    assert refused(b, unit="ana", action="walk", to=[5, 1]) == (
        "(5,1): no path a Walk can take gets there this action"
    )
    events = accepted(b, unit="ana", action="run", to=[5, 1])
    assert legs(events)[-1] == ("jumped", [5, 1], 2)
    assert sum(cost for _, _, cost in legs(events)) == 8


TALL = """
.....
.aH..
.....
"""


def test_R_M6_a_ledge_beyond_even_a_grab_is_refused_to_a_jump() -> None:
    """R-M6: 3.5 m is over ana's best: 1.5 m with a run-up plus her 1.8 m when grabbing."""
    b = solo(TALL, legend(H={"height": 3.5}))
    reason = refused(b, unit="ana", action="jump", to=[2, 1])
    assert reason == "(2,1): 3.5 m up; ana can reach 3.3 m with a jump (R-M6)"
    reason = refused(b, unit="ana", action="walk", path=[[2, 1]])
    assert reason == "(2,1): ledge 3.5 m high; a Walk can leap 0.9 m; jump or climb (R-M3)"


PIT = """
...___....
a..___....
...___....
"""


def test_R_M6_a_running_jump_with_2_m_of_run_up_crosses_a_3_m_pit() -> None:
    """R-M6: from (2,1) to (6,1) is a 4 m jump: 2 m standing + 2 m of run-up. Run path: two
    steps, then the jump, paid out of the Run's 9 m (6 m in all)."""
    b = solo(PIT)
    events = accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1], [6, 1, "jump"]])
    assert legs(events) == [("moved", [1, 1], 2), ("moved", [2, 1], 2), ("jumped", [6, 1], 8)]
    assert at(b).cell == Pos(6, 1)


def test_R_M6_a_standing_jump_is_too_short_for_the_pit() -> None:
    """R-M6: a Jump on its own has no run-up: 2 m, not the 4 m across the pit."""
    b = solo(PIT)
    accepted(b, unit="ana", action="step", path=[[1, 1], [2, 1]])
    reason = refused(b, unit="ana", action="jump", to=[6, 1])
    assert reason == (
        "(6,1): a standing jump reaches 2 m long and 0.5 m high; "
        "fold the jump into a Walk, Run or Sprint for a run-up"
    )


def test_R_M6_a_run_up_of_only_1_m_is_too_short_for_the_pit() -> None:
    """R-M6: the run-up is what the same action has moved before the jump."""
    b = solo(PIT)
    accepted(b, unit="ana", action="step", path=[[1, 1]])
    reason = refused(b, unit="ana", action="run", path=[[2, 1], [6, 1, "jump"]])
    assert reason == "(6,1): this jump needs 2 m of run-up; ana has run 1 m (R-M6)"


def test_R_M6_a_pit_cannot_be_walked() -> None:
    """R-M6: "A jump can cross pits and gaps that cannot be walked" (refused at the pit)."""
    b = solo(PIT)
    reason = refused(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1]])
    assert reason == "(3,1): a pit; jump across it (R-M6)"


def test_R_M6_a_destination_across_the_pit_is_reached_by_a_running_jump() -> None:
    """R-M6 with a destination: the Run finds a path with enough run-up before the jump."""
    b = solo(PIT)
    events = accepted(b, unit="ana", action="run", to=[7, 1])
    assert [kind for kind, _, _ in legs(events)].count("jumped") == 1
    assert at(b).cell == Pos(7, 1)
    assert sum(cost for _, _, cost in legs(events)) <= 18


WIDE = """
....____..
a...____..
....____..
"""


def test_R_M6_a_jump_longer_than_the_running_cap_is_refused() -> None:
    """R-M6: across four pit cells is 5 m; ana's running jump is at most 4 m."""
    b = solo(WIDE)
    path = [[1, 1], [2, 1], [3, 1], [8, 1, "jump"]]
    assert refused(b, unit="ana", action="run", path=path) == (
        "(8,1): a jump of 5 m; ana can jump at most 4 m"
    )


def test_R_M6_athletics_5_makes_the_5_m_jump() -> None:
    """R-M6: Athletics 5 adds 1 m, so the 5 m jump that was refused is made."""
    b = solo(WIDE, skills={"athletics": 5})
    path = [[1, 1], [2, 1], [3, 1], [8, 1, "jump"]]
    events = accepted(b, unit="ana", action="run", path=path)
    assert legs(events)[-1] == ("jumped", [8, 1], 10)


def test_R_M6_a_step_cannot_jump() -> None:
    """R-M6: a jump folds into a Walk, Run or Sprint, not a Step."""
    b = solo(PIT)
    accepted(b, unit="ana", action="walk", path=[[1, 1], [2, 1]])
    assert refused(b, unit="ana", action="step", path=[[6, 1, "jump"]]) == (
        "(6,1): not next to (2,1); a Step cannot jump (R-M6)"
    )


# --- R-M7 climbing -------------------------------------------------------------------------

CLIFF = """
.....
.aCCC
.....
"""
CLIFF_LEGEND = legend(C={"height": 6, "climbable": True}, D={"height": 3, "climbable": True})
CLIMBER = {"agi": "d4+8", "held": ["dagger"]}  # climbs 4 m an action


def test_R_M7_a_climb_stops_part_way_and_hangs_then_goes_on_next_turn() -> None:
    """R-M7: Climb, 1 Action, up to the AGI die size (4 m for a d4). The 6 m face is more:
    ana hangs at 4 m, her dagger stowed for free; she cannot Walk or Step while she hangs;
    next turn she climbs the last 2 m and stands on top."""
    b = solo(CLIFF, CLIFF_LEGEND, **CLIMBER)
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    assert types(events) == ["spent", "item_stowed", "climbed", "condition_gained"]
    assert (events[0]["half"], events[0]["bonus"]) == (2, 0)
    assert events[2] == {
        "type": "climbed",
        "unit": "ana",
        "start": [1, 1],
        "end": [1, 1],
        "elevation": 4.0,
        "metres": 4.0,
    }
    assert conditions_of(b, "ana")["hanging"] == "2,1"
    assert at(b) == Position(Pos(1, 1), 4.0)
    reason = refused(b, unit="ana", action="step", path=[[0, 1]])
    assert reason == "ana is hanging mid-climb; only Climb or Jump can move it (R-M7)"
    end_turns(b, "ana")
    assert refused(b, unit="ana", action="walk", path=[[0, 1]]) == reason
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    assert types(events) == ["spent", "climbed", "condition_lost"]
    assert (events[1]["end"], events[1]["elevation"], events[1]["metres"]) == ([2, 1], 0.0, 2.0)
    assert "hanging" not in conditions_of(b, "ana")
    assert at(b) == Position(Pos(2, 1), 0.0)


def test_R_M7_a_creature_hanging_may_climb_back_down() -> None:
    """R-M7: "up or down": from 4 m up the face ana climbs back down to the ground below."""
    b = solo(CLIFF, CLIFF_LEGEND, **CLIMBER)
    accepted(b, unit="ana", action="climb", to=[2, 1])
    end_turns(b, "ana")
    events = accepted(b, unit="ana", action="climb", to=[1, 1])
    assert (events[1]["end"], events[1]["elevation"], events[1]["metres"]) == ([1, 1], 0.0, 4.0)
    assert "hanging" not in conditions_of(b, "ana")


def test_R_M7_a_creature_hanging_may_jump_off_the_face() -> None:
    """R-M7: hanging, it "may move only by Climb or Jump"; a Jump ends the hanging. R-M4: it
    leaves the face from the 4 m it hangs at, more than ana's 1.8 m: a fall, 2 crushing damage
    per full metre above her height (2), and she lands Prone."""
    b = solo(CLIFF, CLIFF_LEGEND, **CLIMBER)
    accepted(b, unit="ana", action="climb", to=[2, 1])
    end_turns(b, "ana")
    events = accepted(b, unit="ana", action="jump", to=[0, 1])
    assert types(events) == [
        "spent",
        "condition_lost",
        "jumped",
        "fell",
        "damaged",
        "condition_gained",
    ]
    assert (events[3]["metres"], events[4]["amount"], events[5]["condition"]) == (4.0, 4, "prone")
    assert "hanging" not in conditions_of(b, "ana")
    assert at(b) == Position(Pos(0, 1), 0.0)


def test_R_M7_a_face_within_the_die_is_climbed_in_one_action() -> None:
    """R-M7: a 3 m face is within the d4's 4 m: up in one Climb (1 Action), no hanging."""
    b = solo(CLIFF.replace("CCC", "DDD"), CLIFF_LEGEND, **CLIMBER)
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    assert types(events) == ["spent", "item_stowed", "climbed"]
    assert at(b) == Position(Pos(2, 1), 0.0)
    assert budget(b, "ana") == (0, 2)


def test_R_M7_climbing_down_a_climbable_face() -> None:
    """R-M7: "up or down": ana's 3 m high cell has a climbable face; down it to (2,2)."""
    b = solo(".....\n.DaD.\n.....", legend(D={"height": 3}, a={"height": 3, "climbable": True}))
    events = accepted(b, unit="ana", action="climb", to=[2, 2])
    assert events[1]["end"] == [2, 2] and events[1]["metres"] == 3.0
    assert at(b) == Position(Pos(2, 2), 0.0)


def test_R_M7_a_face_that_is_not_climbable_is_refused() -> None:
    """R-M7: only a climbable face can be climbed; the refusal names the cell and height."""
    b = solo(".....\n.aL..\n.....", legend(L={"height": 1.5}))
    reason = refused(b, unit="ana", action="climb", to=[2, 1])
    assert reason == "(2,1): the 1.5 m face up to it cannot be climbed (R-M7)"


def test_R_M7_level_ground_is_walked_not_climbed() -> None:
    """R-M7: a Climb goes up or down a face to a neighbouring cell, nothing else."""
    b = solo(CLIFF, CLIFF_LEGEND)
    assert refused(b, unit="ana", action="climb", to=[0, 1]) == (
        "(0,1): level ground; walk there instead"
    )
    assert refused(b, unit="ana", action="climb", to=[3, 1]) == (
        "(3,1): a climb goes to a neighbouring cell's face (R-M7)"
    )


# --- R-M4 dropping and falling -------------------------------------------------------------


def tower(height: float, **ana: Any) -> Battle:
    """ana stands on a one-cell tower `height` metres high at (1,1)."""
    return solo(".....\n.a...\n.....", legend(a={"height": height}), **ana)


def test_R_M4_dropping_no_more_than_the_creature_height_costs_as_ground() -> None:
    """R-M4: a 1.5 m drop is less than ana's 1.8 m: 1 m of Walk, no fall."""
    b = tower(1.5)
    events = accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1]])
    assert types(events) == ["spent", "moved", "moved"]
    assert legs(events) == [("moved", [2, 1], 2), ("moved", [3, 1], 2)]


def test_R_M4_stepping_off_a_4_m_ledge_is_a_fall_prone_and_2_damage_per_full_metre() -> None:
    """R-M4: 4 m is 2.2 m above ana's height: 2 full metres, 4 crushing damage; she lands
    Prone."""
    b = tower(4)
    events = accepted(b, unit="ana", action="walk", path=[[2, 1]])
    assert types(events) == ["spent", "moved", "fell", "damaged", "condition_gained"]
    assert events[2] == {"type": "fell", "unit": "ana", "at": [2, 1], "metres": 4.0}
    damaged = events[3]
    assert (damaged["amount"], damaged["damage_type"], damaged["hp"]) == (4, "crushing", 11)
    assert events[4]["condition"] == "prone"
    assert hp(b, "ana") == 11
    assert "prone" in conditions_of(b, "ana")


def test_R_M4_a_halfling_falls_further_above_its_height() -> None:
    """R-M4: the same 4 m is 3 full metres above a 1 m halfling: 6 damage."""
    b = tower(4, race="halfling")
    events = accepted(b, unit="ana", action="walk", path=[[2, 1]])
    assert [e["amount"] for e in events if e["type"] == "damaged"] == [6]


def test_R_M4_a_drop_just_over_the_creature_is_a_fall_without_damage() -> None:
    """R-M4: 2 m is 0.2 m above ana: no full metre, no damage, but she lands Prone."""
    b = tower(2)
    events = accepted(b, unit="ana", action="walk", path=[[2, 1]])
    assert types(events) == ["spent", "moved", "fell", "condition_gained"]
    assert hp(b, "ana") == 15


def test_R_M4_a_fall_can_only_end_a_move() -> None:
    """R-M4: a path that would go on after the drop is refused at the edge; a destination move
    never plans a fall."""
    b = tower(4)
    reason = refused(b, unit="ana", action="walk", path=[[2, 1], [3, 1]])
    assert reason == "(2,1): a drop of 4 m is higher than ana; climb down or fall (R-M4)"
    assert refused(b, unit="ana", action="walk", to=[2, 1]) == (
        "(2,1): no path a Walk can take gets there this action"
    )


def test_R_M4_a_jump_cannot_land_lower_than_the_creature_is_tall() -> None:
    """R-M4: a higher drop needs a Climb or is a fall; a Jump does not land 4 m down."""
    b = tower(4)
    assert refused(b, unit="ana", action="jump", to=[3, 1]) == (
        "(3,1): a drop of 4 m is higher than ana; climb down (R-M4)"
    )


def test_R_M4_a_climbable_drop_is_climbed_down_instead() -> None:
    """R-M4, R-M7: "A higher drop needs a Climb": down 4 m without damage or falling prone."""
    b = solo(".....\n.a...\n.....", legend(a={"height": 4, "climbable": True}))
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    assert types(events) == ["spent", "climbed"]
    assert hp(b, "ana") == 15
    assert "prone" not in conditions_of(b, "ana")


def test_R_M7_a_1_5_m_ledge_refused_to_a_walk_is_climbed_when_climbable() -> None:
    """R-M3 sends a 1.5 m ledge to a Jump or a Climb (R-M7): a climbable one is climbed."""
    b = solo(".....\n.aK..\n.....", legend(K={"height": 1.5, "climbable": True}))
    reason = refused(b, unit="ana", action="walk", path=[[2, 1]])
    assert reason == "(2,1): ledge 1.5 m high; a Walk can leap 0.9 m; jump or climb (R-M3)"
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    assert events[1]["metres"] == 1.5
    assert at(b) == Position(Pos(2, 1), 0.0)


def test_R_M7_R_M5_a_climb_cannot_end_or_hang_over_a_standing_creature() -> None:
    """R-M7 with R-M5: ana, on a 6 m climbable tower, climbs down 4 m (her d4) and hangs 2 m
    above the cell below: not above bo, who stands at (2,1), but above the empty (0,1)."""
    b = battle(
        scenario_text(
            ".....\n.ab..\n.....",
            creature("ana", "blue", "a", **CLIMBER) + "\n" + creature("bo", "blue", "b"),
            legend(a={"height": 6, "climbable": True}),
        ),
        [4, 1],
    )
    assert refused(b, unit="ana", action="climb", to=[2, 1]) == "(2,1): bo is standing there (R-M5)"
    events = accepted(b, unit="ana", action="climb", to=[0, 1])
    assert (events[2]["end"], events[2]["elevation"]) == ([0, 1], 2.0)
    assert conditions_of(b, "ana")["hanging"] == "1,1"


def test_R_M6_a_wall_in_the_line_stops_a_jump() -> None:
    """R-M6: a jump crosses pits and gaps, not walls."""
    b = solo("......\na..#..\n......")
    reason = refused(b, unit="ana", action="run", path=[[1, 1], [2, 1], [4, 1, "jump"]])
    assert reason == "(3,1): a wall is in the way of the jump"


@pytest.mark.parametrize(("team", "reason"), [("blue", None), ("red", "(2,1): bo is in the way")])
def test_R_M6_R_M5_a_jump_passes_over_an_ally_but_not_a_standing_enemy(
    team: str, reason: str | None
) -> None:
    """R-M6 with R-M5: what a creature may move through, it may jump over."""
    b = battle(
        scenario_text(
            "......\n.ab...\n......",
            creature("ana", "blue", "a") + "\n" + creature("bo", team, "b"),
        ),
        [4, 1],
    )
    if reason is None:
        accepted(b, unit="ana", action="jump", to=[3, 1])
        assert at(b).cell == Pos(3, 1)
    else:
        assert refused(b, unit="ana", action="jump", to=[3, 1]) == (f"{reason} of the jump (R-M5)")


# --- R-R4: a Climb is a Movement Action and provokes when it leaves reach ----------------------


def test_R_R4_R_M7_climbing_out_of_reach_provokes_an_attack_of_opportunity() -> None:
    """R-R4: "when an enemy within reach tries to leave the reach with a Movement Action", and
    Climb is one (R-M7). ana climbs the 3 m face to (2,1); bo below at (1,2) cannot reach 3 m up
    (R-A4), so it attacks first, before she leaves."""
    rows = ".....\n.aDDD\n.b..."
    extra = legend(D={"height": 3, "climbable": True})
    units = "\n".join(
        [
            creature("ana", "blue", "a", agi="d4+8"),
            creature("bo", "red", "b", policy="always"),
        ]
    )
    b = battle(scenario_text(rows, units, extra), [4, 3, 8, 1])
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    kinds = types(events)
    assert "attack_resolved" in kinds
    assert kinds.index("attack_resolved") < kinds.index("climbed")
    resolved = next(e for e in events if e["type"] == "attack_resolved")
    assert resolved["purpose"] == "attack of opportunity"
    assert b.world.need("ana", Position).cell == Pos(2, 1)
