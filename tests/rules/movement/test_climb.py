"""Climbing (sim/rules/movement/climb.py): up or down a climbable face, hanging part-way and as
high as it has climbed, every Climb stowing what is held (R-M7); jumping off the face (R-M4);
climbing from the water (R-M8); a Climb out of reach provokes (R-R4)."""

from __future__ import annotations

from sim.core.components import Hands, Health, Position
from sim.core.geometry import Pos
from sim.play.engine import Battle
from tests.helpers import (
    accepted,
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
from tests.movers import at, creature, legend, solo

# --- R-M7 climbing -------------------------------------------------------------------------------

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
        "(0,1): level ground; walk there instead (R-M7)"
    )
    assert refused(b, unit="ana", action="climb", to=[3, 1]) == (
        "(3,1): a climb goes to a neighbouring cell's face (R-M7)"
    )


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


# --- R-M7 every Climb stows what is held ---------------------------------------------------------


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


# --- R-M7, R-M4 a creature hanging on a face is as high as it has climbed ------------------------

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


# --- R-M8 a Climb from the water -----------------------------------------------------------------

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


# --- R-R4: a Climb is a Movement Action and provokes when it leaves reach ------------------------


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
