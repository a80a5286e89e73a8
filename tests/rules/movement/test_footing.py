"""Ground underfoot (sim/rules/movement/footing.py): leaping low obstacles and rises, and
obstacles too wide to leap (R-M3), dropping and falling (R-M4)."""

from __future__ import annotations

from typing import Any

import pytest

from sim.core.actions import Walk
from sim.core.geometry import Pos
from sim.play.engine import Battle
from sim.rules.reach.reachmap import reach_map
from tests.helpers import accepted, conditions_of, hp, refused, types
from tests.movers import RISE_LEGEND, RISES, legend, legs, solo

# --- R-M3 leaping low obstacles and rises --------------------------------------------------------

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
        "(5,1): this jump (2 m long, 1 m up) needs a run-up of 3 m; ana jumps 2 m standing, at "
        "most 4 m with a run-up of 2 m; ana reaches 0.5 m standing, 1.5 m with a run-up of 3 m: "
        "fold the jump into a Walk, Run or Sprint for the run-up (R-M6)"
    )


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


# --- R-M3 leaping is for obstacles at most 1 m across --------------------------------------------

HEDGES = ".aooo..."
HEDGE_LEGEND = legend(o={"obstacle": 0.5})


def test_R_M3_a_run_leaps_one_obstacle_cell_but_not_three_in_a_row() -> None:
    """R-M3: 0.5 m obstacles are under half ana's height: she leaps into the first at ground
    cost; the next cell of the same obstacle makes it more than 1 m across: a Jump, not a leap.
    Over all three with 2 m of run-up, a 4 m running jump lands beyond them."""
    b = solo(HEDGES, HEDGE_LEGEND)
    assert refused(b, unit="ana", action="run", path=[[2, 0], [3, 0], [4, 0], [5, 0]]) == (
        "(3,0): the obstacles at (2,0) and (3,0) are more than 1 m across; a Run leaps only "
        "narrower ones; jump over them or climb (R-M3)"
    )
    events = accepted(b, unit="ana", action="walk", path=[[2, 0]])
    assert (events[-1]["type"], events[-1]["cost"]) == ("moved", 2)
    b = solo(".." + HEDGES, HEDGE_LEGEND)
    events = accepted(b, unit="ana", action="run", path=[[2, 0], [3, 0], [7, 0, "jump"]])
    assert (events[-1]["type"], events[-1]["end"]) == ("jumped", [7, 0])


@pytest.mark.parametrize("action", ["walk", "run", "sprint"])
def test_R_M3_a_refused_leap_names_the_action_taken(action: str) -> None:
    """R-M3: Walk, Run and Sprint leap alike; the refusal names the one the player chose (a
    Run was told "a Walk leaps only narrower ones"), for a wide obstacle and a high one."""
    word = action.title()
    b = solo(HEDGES, HEDGE_LEGEND)
    assert refused(b, unit="ana", action=action, path=[[2, 0], [3, 0]]) == (
        f"(3,0): the obstacles at (2,0) and (3,0) are more than 1 m across; a {word} leaps "
        "only narrower ones; jump over them or climb (R-M3)"
    )
    b = solo(".aH", legend(H={"obstacle": 1.0}))
    assert refused(b, unit="ana", action=action, path=[[2, 0]]) == (
        f"(2,0): an obstacle 1 m high; a {word} can leap 0.9 m; jump or climb (R-M3)"
    )


def test_R_M3_the_reach_map_leaps_only_the_first_obstacle_cell() -> None:
    """R-M3 in the compiled reach engine: a Walk (3 m) reaches into the first obstacle cell and
    no further along the row. (AGI Bonus 4: ana's standing jump is 0 m high, so a jump onto
    the next obstacle cell would need 3 m of run-up, R-M6.)"""
    b = solo(HEDGES, HEDGE_LEGEND, agi="d8+4")
    offered = reach_map(b.world, "ana", only=(Walk,))
    assert offered[Pos(2, 0)].cost == 2
    assert Pos(3, 0) not in offered and Pos(4, 0) not in offered


# --- R-M4 dropping and falling -------------------------------------------------------------------


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
        "walk: 3 m allowed (Speed 9 / 3); no path a Walk can take gets to (2,1) within 12 m (R-M1)"
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
