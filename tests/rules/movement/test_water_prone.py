"""Issue 3, terrain and movement: water relative to height (R-M9), swimming, crawling and getting
out of the water onto a bank measured from its surface (R-M8), falling prone and standing up
(R-M10), with prone creatures sharing cells (R-M5)."""

from __future__ import annotations

from typing import Any

import pytest

from sim.core.actions import Refusal
from sim.core.components import Position
from sim.core.geometry import Pos
from sim.play.engine import Battle
from sim.rules.reach.reachmap import reach_map
from tests.helpers import (
    accepted,
    act,
    battle,
    budget,
    conditions_of,
    end_turns,
    give,
    refused,
    scenario_text,
    types,
)
from tests.helpers import types as kinds
from tests.movers import HARBOUR, HARBOUR_LEGEND, at, creature, legend

# Water 0.5 m (S), 1 m (~), 1.5 m (M) and 2 m (W) deep, from left to right.
DEPTHS = """
.........
aS~MW....
.........
"""
WATER = legend(S={"water": 0.5}, M={"water": 1.5}, W={"water": 2.0})


def solo(rows: str = DEPTHS, extra: str = WATER, **ana: Any) -> Battle:
    return battle(scenario_text(rows, creature("ana", "blue", "a", **ana), extra), [1])


def costs(events: list[dict[str, Any]]) -> list[tuple[list[int], int]]:
    return [(e["end"], e["cost"]) for e in events if e["type"] == "moved"]


def cell(b: Battle, uid: str = "ana") -> Pos:
    return b.world.need(uid, Position).cell


# --- R-M9 water depth relative to height ---------------------------------------------------------


def test_R_M9_for_a_human_half_a_metre_is_ground_and_1_to_1_5_m_difficult() -> None:
    """R-M9: a human is 1.8 m: below 0.9 m water is ordinary ground; 1 m and 1.5 m are
    waist-deep, difficult terrain (R-M2), so every move into or out of them costs double."""
    b = solo()
    events = accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1]])
    assert costs(events) == [([1, 1], 2), ([2, 1], 4), ([3, 1], 4)]


def test_R_M9_for_a_human_2_m_of_water_is_over_its_head() -> None:
    """R-M9: deeper than its height, water can only be swum."""
    b = solo()
    reason = refused(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1], [4, 1]])
    assert reason == "(4,1): water 2 m deep is over ana's head; swim (R-M9)"


def test_R_M9_for_a_halfling_half_a_metre_is_already_waist_deep() -> None:
    """R-M9: a halfling is 1 m: 0.5 m of water is waist-deep (difficult), 1 m is up to its
    height (still difficult, not yet swimming), 1.5 m is over its head."""
    b = solo(race="halfling")
    events = accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1]])
    assert costs(events) == [([1, 1], 4), ([2, 1], 4)]
    reason = refused(b, unit="ana", action="step", path=[[3, 1]])
    assert reason == "(3,1): water 1.5 m deep is over ana's head; swim (R-M9)"


@pytest.mark.parametrize(
    ("race", "expected"),
    [
        ("human", [([1, 1], 2), ([2, 1], 4)]),  # 1 m < 1.8 m but >= 0.9 m: difficult
        ("halfling", [([1, 1], 4), ([2, 1], 4)]),  # 0.5 m is already the halfling's waist
    ],
)
def test_R_M9_the_same_1_m_of_water_for_a_halfling_and_a_human(
    race: str, expected: list[tuple[list[int], int]]
) -> None:
    """R-M9: depth is relative to height: the 0.5 m ford is ground to a human and difficult
    to a halfling; 1 m of water is difficult to both (for the halfling it is exactly its
    height, the most it can wade)."""
    b = solo(race=race)
    assert costs(accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1]])) == expected


def test_R_M9_a_walk_to_water_over_the_head_says_to_swim() -> None:
    """R-M9: a Walk given by "to" into water over ana's head says to swim, as the same Walk
    given by "path" does (it said "no path a Walk can take gets there this action")."""
    b = solo(".aW", legend(W={"water": 2.0}))
    reason = "(2,0): water 2 m deep is over ana's head; swim (R-M9)"
    assert refused(b, unit="ana", action="walk", to=[2, 0]) == reason
    assert refused(b, unit="ana", action="walk", path=[[2, 0]]) == reason


# --- R-M10 falling prone, in and out of water ----------------------------------------------------


def test_R_M10_fall_prone_is_a_half_action_and_stand_up_one_action() -> None:
    """R-M10: Fall Prone ½ Action, Stand Up 1 Action; each refused when it makes no sense."""
    b = solo()
    events = accepted(b, unit="ana", action="fall_prone")
    assert types(events) == ["spent", "condition_gained"]
    assert (events[0]["half"], events[1]["condition"]) == (1, "prone")
    assert refused(b, unit="ana", action="fall_prone") == "ana is already prone (R-M10)"
    end_turns(b, "ana")
    events = accepted(b, unit="ana", action="stand_up")
    assert types(events) == ["spent", "condition_lost"]
    assert events[0]["half"] == 2
    end_turns(b, "ana")
    assert refused(b, unit="ana", action="stand_up") == "ana is not prone (R-M10)"


def test_R_M10_falling_prone_in_waist_deep_water_starts_swimming_instead() -> None:
    """R-M10: at 1 m of water (waist-deep for a human) ana swims instead of lying down."""
    b = solo()
    accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1]])
    end_turns(b, "ana")
    events = accepted(b, unit="ana", action="fall_prone")
    assert events[1:] == [
        {"type": "condition_gained", "unit": "ana", "condition": "swimming", "value": 1}
    ]
    assert "prone" not in conditions_of(b, "ana")
    assert refused(b, unit="ana", action="fall_prone") == (
        "ana is swimming and cannot fall prone (R-M10)"
    )


def test_R_M10_in_shallow_water_a_human_falls_prone_but_a_halfling_swims() -> None:
    """R-M10 with R-M9: the 0.5 m ford is below a human's waist and at a halfling's."""
    b = solo()
    accepted(b, unit="ana", action="step", path=[[1, 1]])
    assert accepted(b, unit="ana", action="fall_prone")[1]["condition"] == "prone"
    b = solo(race="halfling")
    accepted(b, unit="ana", action="step", path=[[1, 1]])
    assert accepted(b, unit="ana", action="fall_prone")[1]["condition"] == "swimming"


SHARED = """
.......
.a.b...
.......
"""


def test_R_M10_standing_up_is_refused_while_a_standing_creature_shares_the_cell() -> None:
    """R-M10 with R-M5: bo lies prone at (3,1); ana (an enemy) walks onto bo's cell, which
    prone creatures allow; bo cannot stand up until it is alone there, so it crawls off first."""
    b = battle(
        scenario_text(
            SHARED,
            creature("ana", "blue", "a") + "\n" + creature("bo", "red", "b", prone=True),
        ),
        [4, 1],
    )
    accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1]])
    assert cell(b, "ana") == cell(b, "bo") == Pos(3, 1)
    end_turns(b, "ana")
    reason = refused(b, unit="bo", action="stand_up")
    assert reason == (
        "bo cannot stand up: ana is standing in (3,1) until it moves or falls prone (R-M10)"
    )
    accepted(b, unit="bo", action="crawl", path=[[4, 1]])
    end_turns(b, "bo", "ana")
    accepted(b, unit="bo", action="stand_up")
    assert "prone" not in conditions_of(b, "bo")


# --- R-M8 crawling ---------------------------------------------------------------------------

FLOOR = """
.........
.a..R....
.........
"""
RISE = legend(R={"height": 0.5})


def test_R_M8_a_prone_creature_is_refused_a_walk() -> None:
    """R-M8, R-M10: while prone a creature moves only by Crawl."""
    b = solo(FLOOR, RISE, prone=True)
    reason = refused(b, unit="ana", action="walk", path=[[2, 1]])
    assert reason == "ana is prone; it moves only by Crawl until it stands up (R-M8, R-M10)"
    for action in ("step", "run", "sprint", "swim"):
        assert refused(b, unit="ana", action=action, path=[[2, 1]]) == reason
    assert refused(b, unit="ana", action="jump", to=[2, 1]) == reason
    assert refused(b, unit="ana", action="climb", to=[2, 1]) == (
        "ana is prone; it moves only by Crawl until it stands up (R-M10)"
    )


@pytest.mark.parametrize(("agi", "metres"), [("d8+8", 4), ("d6+8", 3), ("d12+8", 6)])
def test_R_M8_crawl_allowance_is_the_agi_die_over_2(agi: str, metres: int) -> None:
    """R-M8: Crawl, 1 Action, AGI die size / 2: exactly that far along the row is allowed, a
    diagonal more is refused."""
    b = solo(".........\n.a.......\n.........", "", prone=True, agi=agi)
    path = [[x, 1] for x in range(2, 2 + metres)]
    reason = refused(b, unit="ana", action="crawl", path=[*path, [1 + metres + 1, 2]])
    assert reason == (
        f"crawl: {metres:g} m allowed (AGI die {2 * metres} / 2), this path costs "
        f"{metres + 1.5:g} m; the metres run out at ({metres + 2},2) (R-M8)"
    )
    events = accepted(b, unit="ana", action="crawl", path=path)
    assert events[0]["half"] == 2
    assert cell(b) == Pos(1 + metres, 1)


def test_R_M8_crawling_needs_prone() -> None:
    """R-M8: a Crawl is "only while Prone"."""
    b = solo(FLOOR, RISE)
    reason = refused(b, unit="ana", action="crawl", path=[[2, 1]])
    assert reason == "ana must be prone to crawl (R-M8)"


def test_R_M8_a_crawler_does_not_go_up_a_rise_or_into_waist_deep_water() -> None:
    """R-M8 with R-M3 and R-M9: a Crawl leaps nothing, and waist-deep water is for swimming."""
    b = solo(FLOOR, RISE, prone=True)
    reason = refused(b, unit="ana", action="crawl", path=[[2, 1], [3, 1], [4, 1]])
    assert reason == "(4,1): ledge 0.5 m high; a Crawl cannot leap (R-M3); walk, jump or climb"
    b = solo(prone=True)
    reason = refused(b, unit="ana", action="crawl", path=[[1, 1], [2, 1]])
    assert reason == "(2,1): water 1 m deep is too deep to crawl through (R-M9)"


def test_R_M8_R_M5_a_crawler_may_end_under_a_standing_ally() -> None:
    """R-M8 with R-M5: prone creatures may share a cell, so a crawl may end where bo stands,
    also as a destination move."""
    """R-M5: prone creatures may share a cell, so a crawl may end where bo stands."""
    b = battle(
        scenario_text(
            SHARED, creature("ana", "blue", "a", prone=True) + "\n" + creature("bo", "blue", "b")
        ),
        [4, 1],
    )
    events = accepted(b, unit="ana", action="crawl", to=[3, 1])
    assert costs(events)[-1] == ([3, 1], 2)
    assert cell(b, "ana") == cell(b, "bo")


# --- R-M8 swimming ---------------------------------------------------------------------------

POOL = """
........
.aWWW~..
..WWW~..
"""
POOL_WATER = legend(W={"water": 2.0}, S={"water": 0.5})


def swimmer() -> Battle:
    """ana swims out from (1,1) into 2 m of water: 1 m, one Action; she is swimming."""
    b = solo(POOL, POOL_WATER)
    events = accepted(b, unit="ana", action="swim", path=[[2, 1]])
    assert types(events) == ["spent", "condition_gained", "moved"]
    assert events[0]["half"] == 2
    assert events[1]["condition"] == "swimming"
    end_turns(b, "ana")
    return b


def test_R_M8_swimming_is_speed_over_3_and_ignores_difficult_ground() -> None:
    """R-M8: Swim, 1 Action, Speed/3 (3 m for ana) in water at least waist-deep; water is not
    difficult to a swimmer."""
    b = swimmer()
    reason = refused(b, unit="ana", action="swim", path=[[3, 1], [4, 1], [5, 1], [6, 2]])
    assert reason == "(6,2): water 0 m deep is too shallow to swim (R-M8)"
    reason = refused(b, unit="ana", action="swim", path=[[3, 1], [4, 1], [5, 1], [5, 2]])
    assert reason == (
        "swim: 3 m allowed (Speed 9 / 3), this path costs 4 m; the metres run out at (5,2) (R-M8)"
    )
    events = accepted(b, unit="ana", action="swim", path=[[3, 1], [4, 1], [5, 1]])
    assert costs(events) == [([3, 1], 2), ([4, 1], 2), ([5, 1], 2)]


def test_R_M8_a_swimmer_cannot_walk() -> None:
    """R-M8: while swimming no other Movement Action until it gets out."""
    b = swimmer()
    reason = refused(b, unit="ana", action="walk", path=[[1, 1]])
    assert reason == (
        "ana is swimming; it must keep swimming, Step out where its feet touch the bottom or "
        "onto a bank no higher than half its height above the water, or Climb a climbable "
        "bank beside it (R-M8)"
    )
    for action in ("run", "sprint", "crawl"):
        assert refused(b, unit="ana", action=action, path=[[1, 1]]) == reason
    assert refused(b, unit="ana", action="jump", to=[1, 1]) == reason


def test_R_M8_a_swimmer_steps_out_next_to_the_bank() -> None:
    """R-M8: a swimmer next to a place to climb out gets out with a Step, 1 m."""
    b = swimmer()
    events = accepted(b, unit="ana", action="step", path=[[1, 1]])
    assert types(events) == ["spent", "condition_lost", "moved"]
    assert (events[0]["half"], events[0]["bonus"]) == (0, 1)
    assert events[1]["condition"] == "swimming"
    assert "swimming" not in conditions_of(b, "ana")
    assert cell(b) == Pos(1, 1)
    assert budget(b, "ana") == (2, 1)


def test_R_M8_stepping_out_is_one_straight_metre() -> None:
    """R-M8: "1 m to get up, then 1 m of movement": one orthogonal cell, no diagonal (1.5 m)."""
    b = swimmer()
    reason = refused(b, unit="ana", action="step", path=[[1, 0]])
    assert reason == "(1,0): out of the water a swimmer moves only 1 m (one straight step) (R-M8)"
    reason = refused(b, unit="ana", action="step", path=[[1, 1], [0, 1]])
    assert reason == "(0,1): out of the water a swimmer moves only 1 m (one straight step) (R-M8)"


def test_R_M8_out_of_its_depth_a_swimmer_cannot_just_stand_up() -> None:
    """R-M8: in 2 m of water ana's feet do not touch: no getting up, and no Step deeper in."""
    b = swimmer()
    reason = refused(b, unit="ana", action="step", path=[])
    assert reason == (
        "(2,1): ana's feet do not touch the bottom here; swim to shallower water or step out "
        "onto a bank beside it (R-M8)"
    )
    reason = refused(b, unit="ana", action="step", path=[[3, 1]])
    assert reason == "(3,1): water 2 m deep is over ana's head; swim (R-M9)"


def test_R_M8_where_its_feet_touch_a_swimmer_gets_up_with_a_step() -> None:
    """R-M8: in 1 m of water (under ana's 1.8 m) she gets up where she is with a Step."""
    b = swimmer()
    accepted(b, unit="ana", action="swim", path=[[3, 1], [4, 1], [5, 1]])
    end_turns(b, "ana")
    events = accepted(b, unit="ana", action="step", path=[])
    assert types(events) == ["spent", "condition_lost"]
    assert cell(b) == Pos(5, 1)
    accepted(b, unit="ana", action="walk", path=[[6, 1]])


def test_R_M8_a_swimmer_steps_out_by_destination_too() -> None:
    """R-M8: the Step out may name its cell as a destination."""
    b = swimmer()
    accepted(b, unit="ana", action="step", to=[1, 1])
    assert cell(b) == Pos(1, 1)
    assert "swimming" not in conditions_of(b, "ana")


# --- R-M8 a bank is measured from the water's surface --------------------------------------------


# ana swims at (1,1) in the harbour (tests/movers.HARBOUR): north, (1,0) is a quay level with the
# surface; west, (0,1) a climbable bank 1 m above it; east, (2,1) a sheer wall 2 m above it.
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


def test_R_M8_the_reach_map_offers_the_quay_by_step_and_the_bank_by_climb() -> None:
    """R-M8: what the client draws for the swimmer: out onto the quay with a Step, up the
    climbable bank with a Climb, nothing onto the sheer bank."""
    b = swimming_in_the_harbour()
    offered = {cell: reach.action for cell, reach in reach_map(b.world, "ana").items()}
    assert offered[Pos(1, 0)] == "step"
    assert offered[Pos(0, 1)] == "climb"
    assert Pos(2, 1) not in offered


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


# --- R-M8 with R-M2: the metre after getting up is doubled on difficult ground -------------------


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
