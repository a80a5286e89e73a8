"""Issue 9, movement items: where play departed from the rules text, played with loaded dice
(R-M2, R-M3, R-M4, R-M6, R-M7, R-M8)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sim.cli.main import main
from sim.core.actions import Refusal, Run, Swim, Walk
from sim.core.components import Hands, Health, Position
from sim.core.geometry import Pos
from sim.play.decisions import DecisionError, parse, to_json
from sim.play.engine import Battle
from sim.rules.reach.reachmap import reach_map
from tests.helpers import (
    accepted,
    act,
    battle,
    conditions_of,
    end_turns,
    give,
    refused,
    scenario_text,
)
from tests.movers import creature, legend


def solo(rows: str, extra: str, **ana: Any) -> Battle:
    return battle(scenario_text(rows, creature("ana", "blue", "a", **ana), extra), [1])


def at(b: Battle, uid: str = "ana") -> Position:
    return b.world.need(uid, Position)


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


# --- R-M8 a bank is measured from the water's surface (item 1) ----------------------------------

# ana swims at (1,1) in 2 m of water. North, (1,0) is a quay level with the surface (ground 2 m);
# west, (0,1) a climbable bank 1 m above the surface; east, (2,1) a sheer wall 2 m above it.
HARBOUR = """
WQW
KaH
WWW
"""
HARBOUR_LEGEND = legend(
    W={"water": 2.0},
    a={"water": 2.0},
    Q={"height": 2.0},
    K={"height": 3.0, "climbable": True},
    H={"height": 4.0},
)


def swimming_in_the_harbour(**ana: Any) -> Battle:
    b = solo(HARBOUR, HARBOUR_LEGEND, **ana)
    give(b, "ana", "swimming")
    return b


def test_R_M8_a_swimmer_steps_out_onto_a_quay_level_with_the_water() -> None:
    """R-M8 Decision: the quay's ground is 2 m above the bottom but level with the surface, so
    it is a place to climb out: a Step, the swimming ends, she stands on the quay."""
    b = swimming_in_the_harbour()
    events = accepted(b, unit="ana", action="step", path=[[1, 0]])
    assert kinds(events) == ["spent", "condition_lost", "moved"]
    assert (events[2]["end"], events[2]["cost"]) == ([1, 0], 2)
    assert "swimming" not in conditions_of(b, "ana")
    assert at(b) == Position(Pos(1, 0))


def test_R_M8_a_climb_onto_the_quay_sends_the_swimmer_to_the_step() -> None:
    """R-M8: the quay needs no Climb; the refusal names the Step, which is then accepted (the
    refusals never send a player in a circle)."""
    b = swimming_in_the_harbour()
    assert refused(b, unit="ana", action="climb", to=[1, 0]) == (
        "(1,0): low enough above the water to step out onto; Step out there (one straight "
        "step) (R-M8)"
    )
    accepted(b, unit="ana", action="step", to=[1, 0])
    assert at(b).cell == Pos(1, 0)


def test_R_M8_R_M7_a_higher_climbable_bank_is_climbed_from_the_water() -> None:
    """R-M8: 1 m above the water is more than half ana's 1.8 m: a Step is refused and points to
    a Climb, which she begins from the water: 1 m up (from the surface, not the bottom)."""
    b = swimming_in_the_harbour()
    assert refused(b, unit="ana", action="step", path=[[0, 1]]) == (
        "(0,1): the bank 1 m above the water; a swimmer steps out at most 0.9 m up; "
        "climb it from the water (R-M8, R-M7)"
    )
    events = accepted(b, unit="ana", action="climb", to=[0, 1])
    assert kinds(events) == ["spent", "condition_lost", "climbed"]
    assert events[1]["condition"] == "swimming"
    assert (events[2]["end"], events[2]["metres"], events[2]["elevation"]) == ([0, 1], 1.0, 0.0)
    assert at(b) == Position(Pos(0, 1))


def test_R_M9_a_unit_placed_in_water_over_its_head_begins_the_battle_swimming() -> None:
    """R-M9: water deeper than a creature is tall can only be swum, so ana, placed in the
    harbour's 2 m water (she is 1.8 m), begins swimming at the surface: a Walk is refused
    with what a swimmer may do, a Step into deep water says to swim, the quay level with the
    surface is a Step out, and the higher bank is a Climb of 1 m from the surface. (She began
    standing on the bottom: "no path a Walk can take gets there", and a 3 m Climb.)"""
    b = solo(HARBOUR, HARBOUR_LEGEND)
    assert conditions_of(b, "ana") == {"swimming": 1}
    assert refused(b, unit="ana", action="walk", to=[1, 2]) == (
        "ana is swimming; it must keep swimming, Step out where its feet touch the bottom or "
        "onto a bank no higher than half its height above the water, or Climb a climbable "
        "bank beside it (R-M8)"
    )
    assert refused(b, unit="ana", action="step", to=[1, 2]) == (
        "(1,2): water 2 m deep is over ana's head; swim (R-M9)"
    )
    events = accepted(b, unit="ana", action="climb", to=[0, 1])
    assert kinds(events) == ["spent", "condition_lost", "climbed"]
    assert (events[2]["end"], events[2]["metres"]) == ([0, 1], 1.0)
    b = solo(HARBOUR, HARBOUR_LEGEND)
    accepted(b, unit="ana", action="step", to=[1, 0])
    assert at(b) == Position(Pos(1, 0)) and conditions_of(b, "ana") == {}


@pytest.mark.parametrize(
    ("depth", "prone", "conditions"),
    [
        (1.5, False, {}),  # waist-deep: difficult ground, she stands (R-M9)
        (1.5, True, {"swimming": 1}),  # lying down there she swims instead (R-M10)
        (0.5, True, {"prone": 1}),  # below her waist: ordinary ground
        (2.0, False, {"swimming": 1}),
    ],
)
def test_R_M9_R_M10_where_a_placed_unit_swims(
    depth: float, prone: bool, conditions: dict[str, int]
) -> None:
    b = solo(".a.", legend(a={"water": depth}), prone=prone)
    assert conditions_of(b, "ana") == conditions


def test_R_M9_a_walk_to_water_over_the_head_says_to_swim() -> None:
    """R-M9: a Walk given by "to" into water over ana's head says to swim, as the same Walk
    given by "path" does (it said "no path a Walk can take gets there this action")."""
    b = solo(".aW", legend(W={"water": 2.0}))
    reason = "(2,0): water 2 m deep is over ana's head; swim (R-M9)"
    assert refused(b, unit="ana", action="walk", to=[2, 0]) == reason
    assert refused(b, unit="ana", action="walk", path=[[2, 0]]) == reason


def test_R_M8_a_bank_that_cannot_be_climbed_sends_the_swimmer_elsewhere() -> None:
    """R-M8: a sheer bank 2 m above the water: the Step and the Climb both say to swim to a
    lower bank; the Jump says what a swimmer may do instead, and each of those is open."""
    b = swimming_in_the_harbour()
    assert refused(b, unit="ana", action="step", path=[[2, 1]]) == (
        "(2,1): the bank 2 m above the water; a swimmer steps out at most 0.9 m up, and it "
        "cannot be climbed; swim to a lower bank or shallower water (R-M8)"
    )
    assert refused(b, unit="ana", action="climb", to=[2, 1]) == (
        "(2,1): the bank 2 m above the water; a swimmer steps out at most 0.9 m up, and it "
        "cannot be climbed; swim to a lower bank or shallower water (R-M8)"
    )
    assert refused(b, unit="ana", action="jump", to=[1, 0]) == (
        "ana is swimming; it must keep swimming, Step out where its feet touch the bottom or "
        "onto a bank no higher than half its height above the water, or Climb a climbable "
        "bank beside it (R-M8)"
    )
    accepted(b, unit="ana", action="swim", path=[[1, 2]])


TOWER_POOL = """
WTW
WaW
"""


def test_R_M8_R_M7_a_swimmer_hangs_on_a_high_face_and_climbs_back_down_into_the_water() -> None:
    """R-M7 from the water: a 10 m tower stands 8 m above a 2 m pool; ana (d4: 4 m a Climb)
    hangs 4 m above the surface, 6 m above the bottom; climbing down ends at the surface, 4 m
    down, where she swims again."""
    b = solo(
        TOWER_POOL,
        legend(W={"water": 2.0}, a={"water": 2.0}, T={"height": 10.0, "climbable": True}),
        agi="d4+8",
    )
    give(b, "ana", "swimming")
    events = accepted(b, unit="ana", action="climb", to=[1, 0])
    assert (events[2]["end"], events[2]["elevation"], events[2]["metres"]) == ([1, 1], 6.0, 4.0)
    assert conditions_of(b, "ana") == {"hanging": "1,0"}
    end_turns(b, "ana")
    events = accepted(b, unit="ana", action="climb", to=[1, 1])
    assert (events[1]["elevation"], events[1]["metres"]) == (0.0, 4.0)
    assert conditions_of(b, "ana") == {"swimming": 1}


# --- R-M8 with R-M2: the metre after getting up is doubled on difficult ground (item 10) --------


def test_R_M8_R_M2_stepping_out_onto_difficult_ground_costs_double() -> None:
    """R-M8: "1 m to get up, then 1 m of movement (doubled, as ever, if that cell is
    difficult)": out onto the mud at (1,0) the metre costs 2 m; onto the plain bank 1 m."""
    b = solo("M..\naW.\n", legend(a={"water": 2.0}, W={"water": 2.0}, M={"kind": "difficult"}))
    give(b, "ana", "swimming")
    events = accepted(b, unit="ana", action="step", path=[[0, 0]])
    assert (events[2]["end"], events[2]["cost"]) == ([0, 0], 4)
    b = solo("M..\nWa.\n", legend(a={"water": 2.0}, W={"water": 2.0}, M={"kind": "difficult"}))
    give(b, "ana", "swimming")
    events = accepted(b, unit="ana", action="step", path=[[1, 0]])
    assert (events[2]["end"], events[2]["cost"]) == ([1, 0], 2)


def test_R_M8_getting_up_in_waist_deep_water_pays_for_that_water() -> None:
    """R-M8 Decision: "if that cell is difficult" is the cell stepped to; ana swimming in 1 m
    of water (waist-deep to her, difficult) steps out onto plain ground for 1 m."""
    b = solo(".a.\n", legend(a={"water": 1.0}))
    give(b, "ana", "swimming")
    events = accepted(b, unit="ana", action="step", path=[[2, 0]])
    assert (events[2]["end"], events[2]["cost"]) == ([2, 0], 2)


# --- R-M7 every Climb stows what is held (item 9) -----------------------------------------------

CLIFF = """
.....
.aCCC
.....
"""


def test_R_M7_a_weapon_drawn_while_hanging_is_stowed_when_the_climb_goes_on() -> None:
    """R-M7: hanging 4 m up a 6 m face, ana draws her dagger (she may, hanging); the Climb that
    goes on begins by stowing it, so she reaches the top with empty hands."""
    b = solo(CLIFF, legend(C={"height": 6, "climbable": True}), agi="d4+8", held=["dagger"])
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    assert kinds(events) == ["spent", "item_stowed", "climbed", "condition_gained"]
    end_turns(b, "ana")
    accepted(b, unit="ana", action="draw", item="dagger")
    assert len(b.world.need("ana", Hands).items()) == 1
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    assert kinds(events) == ["spent", "item_stowed", "climbed", "condition_lost"]
    assert b.world.need("ana", Hands).items() == ()
    assert at(b) == Position(Pos(2, 1))


def test_R_M8_the_reach_map_offers_the_quay_by_step_and_the_bank_by_climb() -> None:
    """R-M8: what the client draws for the swimmer: out onto the quay with a Step, up the
    climbable bank with a Climb, nothing onto the sheer bank."""
    b = swimming_in_the_harbour()
    offered = {cell: reach.action for cell, reach in reach_map(b.world, "ana").items()}
    assert offered[Pos(1, 0)] == "step"
    assert offered[Pos(0, 1)] == "climb"
    assert Pos(2, 1) not in offered


# --- R-M6 run-up is metres covered, not metres spent (item 6) ----------------------------------

# ana stands in mud at (1,0), with more mud behind her at (0,0); a pit 3 m across (3..5,0)
# takes a 4 m jump from (2,0) to (6,0), and a 4 m jump needs 2 m of run-up (her standing jump
# is 2 m long).
MUD_PIT = "Ma.PPP..."
MUD_LEGEND = legend(a={"kind": "difficult"}, M={"kind": "difficult"}, P={"kind": "pit"})


def test_R_M6_one_metre_off_difficult_ground_is_one_metre_of_run_up() -> None:
    """R-M6: the metre out of the mud costs 2 m (R-M2) but covers 1 m: 1 m of run-up is too
    little for the 4 m jump, and the refusal says why the 2 m spent do not count."""
    b = solo(MUD_PIT, MUD_LEGEND)
    assert refused(b, unit="ana", action="run", path=[[2, 0], [6, 0, "jump"]]) == (
        "(6,0): this jump needs 2 m of run-up; ana has run 1 m (difficult ground gives only the "
        "1 m covered, not the 2 m it cost) (R-M6)"
    )


def test_R_M6_the_reach_map_counts_metres_covered_too() -> None:
    """R-M6 in the compiled reach engine: a Run (9 m) no longer reaches the far side, since
    every way to 2 m of run-up goes back through the mud (10 m in all); with Athletics 1
    (Run 10 m) it does, and the move check accepts the path the reach map shows."""
    b = solo(MUD_PIT, MUD_LEGEND)
    assert Pos(6, 0) not in reach_map(b.world, "ana", only=(Run,))
    assert refused(b, unit="ana", action="run", to=[6, 0]) == (
        "(6,0): no path a Run can take gets there this action"
    )
    b = solo(MUD_PIT, MUD_LEGEND, skills={"athletics": 1})
    offer = reach_map(b.world, "ana", only=(Run,))[Pos(6, 0)]
    assert offer.cost == 20
    assert offer.path[-1] == (Pos(6, 0), True)
    path = [[c.x, c.y, "jump"] if jumped else [c.x, c.y] for c, jumped in offer.path]
    events = accepted(b, unit="ana", action="run", path=path)
    assert [e["type"] for e in events][-1] == "jumped"
    assert at(b).cell == Pos(6, 0)


# --- R-M3 leaping is for obstacles at most 1 m across (item 8) --------------------------------

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


# --- R-M7, R-M4 a creature hanging on a face is as high as it has climbed (item 2) -------------

# A 10 m climbable tower east of ana; bo, an enemy, stands on the ground below her at (1,2).
TOWER = """
.....
.aCCC
.b...
"""
TOWER_LEGEND = legend(C={"height": 10, "climbable": True})


def tower(*dice: int) -> Battle:
    units = "\n".join([creature("ana", "blue", "a"), creature("bo", "red", "b", policy="always")])
    return battle(scenario_text(TOWER, units, TOWER_LEGEND), [4, 3, *dice])


def test_R_M7_R_R4_climbing_8_m_up_leaves_reach_and_provokes_but_going_on_does_not() -> None:
    """R-M7 Decision: ana (d8: 8 m a Climb) hangs 8 m up, out of bo's reach (R-A4: more than
    bo's 1.8 m above him), so climbing away from him provokes (R-R4); bo cannot attack her up
    there, nor she him; her next Climb, already out of his reach, provokes nothing."""
    b = tower(8, 1)
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    kinds_ = kinds(events)
    assert kinds_.index("attack_resolved") < kinds_.index("climbed")
    assert at(b) == Position(Pos(1, 1), 8.0)
    end_turns(b, "ana")
    assert refused(b, unit="bo", action="attack", target="ana") == (
        "ana hangs 8 m up a face at (1,1), out of bo's reach (R-A4, R-M7)"
    )
    end_turns(b, "bo")
    assert refused(b, unit="ana", action="attack", target="bo") == (
        "ana hangs 8 m up a face at (1,1); bo at (1,2) is out of its reach (R-A4, R-M7)"
    )
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    assert kinds(events) == ["spent", "climbed", "condition_lost"]
    assert at(b) == Position(Pos(2, 1))


def test_R_M4_R_M7_jumping_off_the_face_at_8_m_is_a_fall_from_8_m() -> None:
    """R-M4: leaving the face by a Jump falls from where ana hangs: 8 m, 6 full metres above
    her 1.8 m, 12 crushing damage, and she lands Prone."""
    b = tower(8, 1)
    accepted(b, unit="ana", action="climb", to=[2, 1])
    end_turns(b, "ana", "bo")
    hp_before = b.world.need("ana", Health).hp
    events = accepted(b, unit="ana", action="jump", to=[0, 1])
    assert kinds(events) == [
        "spent",
        "condition_lost",
        "jumped",
        "fell",
        "damaged",
        "condition_gained",
    ]
    assert (events[3]["metres"], events[4]["amount"]) == (8.0, 12)
    assert b.world.need("ana", Health).hp == hp_before - 12
    assert conditions_of(b, "ana") == {"prone": 1}
    assert at(b) == Position(Pos(0, 1))


def test_R_M4_hanging_lower_than_its_height_a_jump_off_lands_on_its_feet() -> None:
    """R-M4: ana climbs 4 m (her d4) down her 5.5 m tower and hangs 1.5 m above (0,0); from
    there (less than her 1.8 m) the jump down lands on her feet: no fall."""
    b = solo(".a.\n...\n", legend(a={"height": 5.5, "climbable": True}), agi="d4+8")
    events = accepted(b, unit="ana", action="climb", to=[0, 0])
    assert (events[1]["end"], events[1]["elevation"]) == ([0, 0], 1.5)
    end_turns(b, "ana")
    events = accepted(b, unit="ana", action="jump", to=[0, 1])
    assert kinds(events) == ["spent", "condition_lost", "jumped"]
    assert conditions_of(b, "ana") == {}
    assert at(b) == Position(Pos(0, 1))


# --- R-M8 diving: Swim submerged (item 12) -------------------------------------------------------

# ana swims at (1,1) in a 2 m deep pool (W); the ford at (4,1) is 1 m deep. bo, an enemy with a
# dagger, stands on the bank at (1,0); cy, an enemy, swims in the same pool at (3,2).
POOL = """
.b....
.aWWF.
..WcW.
"""
POOL_LEGEND = legend(a={"water": 2.0}, W={"water": 2.0}, c={"water": 2.0}, F={"water": 1.0})


def pool() -> Battle:
    units = [
        creature("ana", "blue", "a"),
        creature("bo", "red", "b", policy="always", held=["dagger"]),
        creature("cy", "red", "c", policy="always"),
    ]
    b = battle(scenario_text(POOL, "\n".join(units), POOL_LEGEND), [8, 7, 6, *[5] * 12])
    give(b, "ana", "swimming")
    give(b, "cy", "swimming")
    return b


def test_R_M8_a_diver_swims_away_under_the_surface_without_provoking_from_the_bank() -> None:
    """R-M8 Decision: ana dives (Swim with "submerged"): she leaves bo's reach under water, so
    bo, who is not in that water, makes no Attack of Opportunity."""
    b = pool()
    events = accepted(b, unit="ana", action="swim", path=[[2, 1], [3, 1]], submerged=True)
    assert kinds(events) == ["spent", "condition_gained", "moved", "moved"]
    assert events[1]["condition"] == "submerged"
    assert conditions_of(b, "ana") == {"swimming": 1, "submerged": 1}


def test_R_M8_a_diver_is_out_of_sight_of_those_outside_the_water_but_not_of_those_in_it() -> None:
    """R-M8 Decision: bo on the bank can neither strike nor throw at the submerged ana, nor she
    at him; cy, swimming in the same water, can attack her."""
    b = pool()
    accepted(b, unit="ana", action="swim", path=[[2, 1]], submerged=True)
    end_turns(b, "ana")
    assert refused(b, unit="bo", action="attack", target="ana") == (
        "bo cannot see ana: it is under the water (R-M8)"
    )
    assert refused(b, unit="bo", action="throw", target="ana", item="dagger") == (
        "bo cannot see ana: it is under the water (R-M8)"
    )
    end_turns(b, "bo")
    events = accepted(b, unit="cy", action="attack", target="ana")
    assert "attack_resolved" in kinds(events)
    end_turns(b, "cy")
    assert refused(b, unit="ana", action="attack", target="bo") == (
        "ana is under the water and cannot see bo out of it; swim up to the surface first (R-M8)"
    )


def test_R_M8_a_dive_needs_water_as_deep_as_the_swimmer_is_tall() -> None:
    """R-M8 Decision: the 1 m ford is shallower than ana's 1.8 m: no diving through it, by a
    path or by a destination, and both say why (the destination said only "no path a Swim can
    take gets there")."""
    b = pool()
    shallow = (
        "(4,1): water 1 m deep is shallower than ana is tall (1.8 m); a swimmer dives only in "
        "water at least that deep (R-M8)"
    )
    assert refused(b, unit="ana", action="swim", path=[[2, 1], [3, 1], [4, 1]], submerged=True) == (
        shallow
    )
    assert refused(b, unit="ana", action="swim", to=[4, 1], submerged=True) == shallow
    offered = reach_map(b.world, "ana", only=(Swim,), submerged=True)
    assert Pos(3, 1) in offered and Pos(4, 1) not in offered
    accepted(b, unit="ana", action="swim", to=[4, 1])


def test_R_M8_deep_water_beyond_a_ford_is_out_of_a_dives_reach_and_the_refusal_says_why() -> None:
    """R-M8 Decision: (3,0) is as deep as the pool ana dives in, but the only way there is the
    1 m ford at (2,0), which a dive cannot pass; the refusal of the destination says so."""
    b = solo(".aFW", legend(a={"water": 2.0}, F={"water": 1.0}, W={"water": 2.0}))
    assert refused(b, unit="ana", action="swim", to=[3, 0], submerged=True) == (
        "(3,0): no path a dive can take gets there this action (it stays in water at least as "
        "deep as ana is tall)"
    )
    accepted(b, unit="ana", action="swim", to=[3, 0])


def test_R_M8_a_swim_without_the_choice_surfaces_and_then_provokes() -> None:
    """R-M8 Decision: the next Swim without "submerged" surfaces the diver first, so leaving
    bo's reach at the surface provokes him as ever (R-R4)."""
    b = pool()
    accepted(b, unit="ana", action="swim", path=[[2, 1]], submerged=True)
    end_turns(b, "ana", "bo", "cy")
    events = accepted(b, unit="ana", action="swim", path=[[3, 1]])
    assert kinds(events)[:2] == ["spent", "condition_lost"]
    assert events[1]["condition"] == "submerged"
    assert "attack_resolved" in kinds(events)
    assert conditions_of(b, "ana") == {"swimming": 1}


def test_R_M8_stepping_out_surfaces_the_diver() -> None:
    """R-M8 Decision: a Step out of the water surfaces her too."""
    b = battle(scenario_text(".W\n.a", creature("ana", "blue", "a"), POOL_LEGEND), [1])
    give(b, "ana", "swimming")
    accepted(b, unit="ana", action="swim", path=[[1, 0]], submerged=True)
    end_turns(b, "ana")
    events = accepted(b, unit="ana", action="step", path=[[0, 0]])
    assert [e.get("condition") for e in events if e["type"] == "condition_lost"] == [
        "submerged",
        "swimming",
    ]
    assert conditions_of(b, "ana") == {}


def test_R_M8_the_dive_is_saved_and_an_older_swim_loads_as_a_surface_swim() -> None:
    """Saves are replays: the dive is written as "submerged": true; a swim line without the
    field (every save made before diving existed) is a swim at the surface."""
    dive = parse({"unit": "ana", "action": "swim", "path": [[2, 1]], "submerged": True})
    assert isinstance(dive, Swim) and dive.submerged
    assert to_json(dive) == {
        "unit": "ana",
        "action": "swim",
        "path": [[2, 1]],
        "submerged": True,
    }
    old = parse({"unit": "ana", "action": "swim", "path": [[2, 1]]})
    assert isinstance(old, Swim) and not old.submerged
    assert "submerged" not in to_json(old)
    with pytest.raises(DecisionError, match='"submerged" must be true'):
        parse({"unit": "ana", "action": "swim", "path": [[2, 1]], "submerged": "yes"})


# ana (d4: 4 m a Climb) hangs 4 m up the 5 m face of (2,1), where bo stands on top: 1 m above
# her, so within his reach (R-A4, R-M7).
LEDGE_TOP = """
.....
.ab..
.....
"""


def hanging_below_bo(*dice: int) -> Battle:
    units = [creature("ana", "blue", "a", agi="d4+8"), creature("bo", "red", "b")]
    extra = legend(b={"height": 5, "climbable": True})
    b = battle(scenario_text(LEDGE_TOP, "\n".join(units), extra), [4, 3, *dice])
    accepted(b, unit="ana", action="climb", to=[2, 1])
    assert at(b) == Position(Pos(1, 1), 4.0)
    end_turns(b, "ana")
    return b


def test_R_M4_shoved_off_the_face_a_hanging_creature_falls_from_where_it_hangs() -> None:
    """R-M4: "being shoved ... off it, falls from there": bo wins the STR Contest (8 + 6 against
    1 + 6); ana falls the 4 m to the ground below her, 2 full metres above her height: 4
    crushing damage, Prone, no push and no save."""
    b = hanging_below_bo(8, 1)
    events = accepted(b, unit="bo", action="shove", target="ana")
    assert kinds(events) == [
        "spent",
        "reaction_answered",  # ana, next to bo, lets the Shove start (R-R7; policy "never")
        "rolled",
        "rolled",
        "condition_lost",
        "fell",
        "damaged",
        "condition_gained",
    ]
    assert events[4]["reason"] == "shoved off the face by bo (R-M4)"
    assert (events[5]["at"], events[5]["metres"], events[6]["amount"]) == ([1, 1], 4.0, 4)
    assert conditions_of(b, "ana") == {"prone": 1}
    assert at(b) == Position(Pos(1, 1))


def test_R_M4_tripped_off_the_face_a_hanging_creature_falls_instead_of_lying_on_it() -> None:
    """R-M4 with R-X19: bo's Trip hits (8 + 6 against ana's Defense Roll 1) and ana fails her
    AGI Save (1 + 8 against 14): knocked off the face, she falls 4 m and lands Prone."""
    b = hanging_below_bo(8, 1, 1)
    events = accepted(b, unit="bo", action="trip", target="ana")
    assert {"type": "condition_lost", "unit": "ana", "condition": "hanging",
            "reason": "knocked off the face (R-M4)"} in events  # fmt: skip
    assert [e["metres"] for e in events if e["type"] == "fell"] == [4.0]
    assert conditions_of(b, "ana") == {"prone": 1}
    assert at(b) == Position(Pos(1, 1))


# ana at (1,1) below a 10 m climbable tower (1,0); bo, an archer with a 24 m shortbow, 21 m
# east of her along the row.
RANGE = "\n".join([".C" + "." * 22, ".a" + "." * 20 + "b.", "." * 24])


def test_R_M7_range_to_a_creature_hanging_on_a_face_counts_its_height() -> None:
    """R-M7 Decision: sight and range to a hanging creature are measured in three dimensions:
    8 m up, ana is 21 m + half of 8 m = 25 m from bo, beyond his 24 m shortbow; one step closer
    (20 m along the ground, 24 m in all) he shoots."""
    units = [creature("ana", "blue", "a"), creature("bo", "red", "b", held=["shortbow"])]
    extra = legend(C={"height": 10, "climbable": True})
    b = battle(scenario_text(RANGE, "\n".join(units), extra), [8, 7, 8, 1])
    accepted(b, unit="ana", action="climb", to=[1, 0])
    assert at(b) == Position(Pos(1, 1), 8.0)
    end_turns(b, "ana")
    assert refused(b, unit="bo", action="attack", target="ana") == (
        "ana is 25 m away; shortbow reaches 24 m (R-C7)"
    )
    accepted(b, unit="bo", action="step", path=[[21, 1]])
    events = accepted(b, unit="bo", action="attack", target="ana")
    assert "attack_resolved" in kinds(events)


@pytest.mark.parametrize("above", [0.0, 0.5, 1.0, 2.0])
@pytest.mark.parametrize("climbable", [True, False])
@pytest.mark.parametrize("obstacle", [0.0, 1.0])
def test_R_M8_the_ways_out_of_the_water_never_send_a_swimmer_in_a_circle(
    above: float, climbable: bool, obstacle: float
) -> None:
    """R-M8: for every bank beside 2 m of water (its ground 0 to 2 m above the surface, climbable
    or not, with or without a 1 m obstacle on it), each refusal of the Step or the Climb points
    to the other only when the other is accepted, and when neither can get the swimmer out both
    say to swim elsewhere."""
    bank = {"height": 2.0 + above, "climbable": climbable, "obstacle": obstacle}
    rows = "B\na\n"

    def fresh() -> Battle:
        b = solo(rows, legend(a={"water": 2.0}, B=bank))
        give(b, "ana", "swimming")
        return b

    step = act(fresh(), unit="ana", action="step", path=[[0, 0]])
    climb = act(fresh(), unit="ana", action="climb", to=[0, 0])
    step_ok, climb_ok = not isinstance(step, Refusal), not isinstance(climb, Refusal)
    assert (
        step_ok
        or climb_ok
        or (
            isinstance(step, Refusal)
            and isinstance(climb, Refusal)
            and "swim to a lower bank" in step.reason
            and "swim to a lower bank" in climb.reason
        )
    )
    if isinstance(step, Refusal) and "climb it" in step.reason:
        assert climb_ok, (step.reason, climb)
    if isinstance(climb, Refusal) and "Step out" in climb.reason:
        assert step_ok, (climb.reason, step)


def test_R_M8_sim_reach_submerged_prints_the_dive_and_who_it_provokes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`sim reach FILE --unit ana --action swim [--submerged]`: at the surface ana's Swim
    reaches the 1 m ford and leaving bo's reach at (2,1) provokes him; the dive stays in the
    2 m water and provokes nobody, since bo on the bank is not in the water (R-M8, R-R4)."""
    units = [
        creature("ana", "blue", "a"),
        creature("bo", "red", "b"),
        creature("cy", "red", "c"),
    ]
    path = tmp_path / "pool.toml"
    path.write_text(scenario_text(POOL, "\n".join(units), POOL_LEGEND), encoding="utf-8")

    def cells(*extra: str) -> dict[tuple[int, int], Any]:
        argv = ["reach", str(path), "--unit", "ana", "--action", "swim", "--seed", "1", *extra]
        assert main(argv) == 0
        report = json.loads(capsys.readouterr().out)
        return {tuple(c["cell"]): c for c in report["cells"]}

    surface = cells()
    assert (4, 1) in surface
    assert [p["enemy"] for p in surface[(3, 1)]["provokes"]] == ["bo"]
    dive = cells("--submerged")
    assert (4, 1) not in dive
    assert dive[(3, 1)]["path"] == [[2, 1], [3, 1]]
    assert dive[(3, 1)]["provokes"] == []


@pytest.mark.parametrize("action", ["walk", "step", "climb"])
def test_R_M8_sim_reach_refuses_submerged_with_an_action_that_does_not_dive(
    capsys: pytest.CaptureFixture[str], action: str
) -> None:
    """R-M8: only a Swim dives. `--submerged --action walk` was silently a plain Walk map."""
    skirmish = str(Path(__file__).resolve().parents[3] / "scenarios" / "skirmish.toml")
    argv = ["reach", skirmish, "--unit", "ana", "--action", action, "--submerged"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"sim reach: --submerged is a dive, and only a Swim dives (R-M8): not with --action "
        f"{action}; give --action swim, or no --action\n"
    )
