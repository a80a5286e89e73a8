"""Movement modes (R-Z5): a `fly` speed carries a creature's Steps, Walks, Runs and Sprints over
pits, water, difficult ground, ledges and obstacles (walls, R-U3 corners and enemies still block,
and it does not jump); a flier brought down over a pit or deep water falls 3 m (R-M4) or swims;
a `swim` speed replaces Speed/3 in water and makes wading not difficult; a `climb` speed
replaces the AGI die of a Climb (R-M7) and keeps the hands free."""

from __future__ import annotations

from sim.core.components import Body, Hands
from sim.core.geometry import Pos
from sim.play import odds
from sim.ui.words.forecast import forecast as tripping
from tests.helpers import accepted, conditions_of, end_turns, hp, refused, rolls, types
from tests.movers import at, begin, cell, creature, legend, legs, solo

FLIER = {"fly": 9}  # Walk 3 m, Run 9 m in the air (R-Z5 as R-M1)

# A pit at (2,1) and difficult ground at (3,1) between ana and the far side.
GAP = """
......
.a_,..
......
"""


def test_R_Z5_a_flier_walks_over_a_pit_and_difficult_ground_at_its_plain_length() -> None:
    """R-Z5: flying ignores pits and difficult terrain: 3 m of Walk (fly 9 / 3) takes ana over
    the pit and the rough cell to (4,1), 1 m a cell. Without wings the pit refuses the walk."""
    b = solo(GAP, **FLIER)
    events = accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1], [4, 1]])
    assert legs(events) == [("moved", [2, 1], 2), ("moved", [3, 1], 2), ("moved", [4, 1], 2)]
    assert cell(b, "ana") == Pos(4, 1)
    walker = solo(GAP)
    reason = refused(walker, unit="ana", action="walk", path=[[2, 1], [3, 1], [4, 1]])
    assert reason == "(2,1): a pit; jump across it (R-M6)"


def test_R_Z5_the_search_of_a_flier_goes_over_the_pit_and_can_stop_above_it() -> None:
    """R-Z5: the compiled search (a move given by its destination, the reach map) flies too:
    `to` (4,1) costs 3 m straight over the pit; the flier may end its move above the pit."""
    b = solo(GAP, **FLIER)
    events = accepted(b, unit="ana", action="walk", to=[4, 1])
    assert sum(cost for _, _, cost in legs(events)) == 6
    b = solo(GAP, **FLIER)
    accepted(b, unit="ana", action="step", to=[2, 1])
    assert cell(b, "ana") == Pos(2, 1)
    assert conditions_of(b, "ana") == {}


def test_R_Z5_a_run_is_the_whole_fly_speed_and_the_refusal_says_so() -> None:
    """R-Z5: a Walk is a third of the fly speed, a Run all of it (as R-M1)."""
    b = solo(".a.........\n", fly=6)
    reason = refused(b, unit="ana", action="walk", path=[[2, 0], [3, 0], [4, 0]])
    assert reason.startswith("walk: 2 m allowed (fly speed 6 / 3, R-Z5), this path costs 3 m")
    events = accepted(b, unit="ana", action="run", to=[7, 0])
    assert sum(cost for _, _, cost in legs(events)) == 12


# Deep water (3 m) at (2,1), a 5 m ledge down from (3,1) to (4,1), and a 1.5 m obstacle at (5,1).
HEIGHTS = """
.......
.aWLDO.
.......
"""
HEIGHTS_LEGEND = legend(
    W={"water": 3},
    L={"height": 5},
    D={"height": 0},
    O={"obstacle": 1.5},
)


def test_R_Z5_a_flier_crosses_deep_water_ledges_and_obstacles_without_swimming_or_falling() -> None:
    """R-Z5: water over its head, a 5 m rise, a 5 m drop and a 1.5 m obstacle: none stops a
    flier, none makes it swim or fall."""
    b = solo(HEIGHTS, HEIGHTS_LEGEND, fly=15)
    events = accepted(b, unit="ana", action="run", path=[[2, 1], [3, 1], [4, 1], [5, 1], [6, 1]])
    assert types(events) == ["spent", "moved", "moved", "moved", "moved", "moved"]
    assert conditions_of(b, "ana") == {}
    assert hp(b, "ana") == 15


# A wall at (1,0): into it, and diagonally past its corner, are refused (R-U3); past the
# corner of the pit at (2,1) a flier may go, a walker may not.
WALLED = """
.#...
.a_..
.....
"""


def test_R_Z5_walls_and_their_corners_still_block_a_flier_a_pits_corner_does_not() -> None:
    b = solo(WALLED, **FLIER)
    assert refused(b, unit="ana", action="step", path=[[1, 0]]) == "(1,0): a wall (R-U1)"
    reason = refused(b, unit="ana", action="step", path=[[0, 0]])
    assert reason == "(0,0): the diagonal would cut the corner at (1,0) (R-U3)"
    walker = solo(WALLED)
    reason = refused(walker, unit="ana", action="step", path=[[2, 2]])
    assert reason == "(2,2): the diagonal would cut the corner at (2,1) (R-U3)"
    accepted(b, unit="ana", action="step", path=[[2, 2]])
    assert cell(b, "ana") == Pos(2, 2)


def test_R_Z5_R_M5_a_standing_enemy_still_blocks_a_flier() -> None:
    b = begin(".ab..\n", creature("ana", "blue", "a", **FLIER), creature("bob", "red", "b"))
    reason = refused(b, unit="ana", action="walk", path=[[2, 0], [3, 0]])
    assert reason == "(2,0): bob stands there and is not an ally (R-M5)"


def test_R_Z5_a_flier_does_not_jump() -> None:
    """R-Z5: no jumps in flight: its moves already carry it over the pit."""
    b = solo(GAP, **FLIER)
    reason = refused(b, unit="ana", action="jump", to=[3, 1])
    assert reason == (
        "ana flies: a Step, Walk, Run or Sprint carries it over pits, water and ledges; "
        "it does not jump (R-Z5)"
    )


# bob, a flier, hovers over the pit P at (2,1); ana stands beside it; cat, bob's ally, far off.
OVER_PIT = """
.......
.aP...c
.......
"""
PIT = legend(P={"kind": "pit"})


def test_R_Z5_R_M4_a_flier_tripped_over_a_pit_falls_3_m_and_lands_prone() -> None:
    """R-Z5: made Prone over a pit, the flier falls from 3 m (R-M4): 2 crushing damage per
    full metre above its height (3 - 1.8 = 1.2: one metre, 2 damage), and lies Prone in the
    pit. ana's trip: Hit Roll 5 + 6 against 3, 1 damage; bob's AGI Save 2 + 8 = 10 < 11."""
    b = begin(
        OVER_PIT,
        creature("ana", "blue", "a"),
        creature("bob", "red", "P", **FLIER),
        creature("cat", "red", "c"),
        extra=PIT,
        dice=(5, 3, 2),
    )
    events = accepted(b, unit="ana", action="trip", target="bob")
    assert rolls(events)[-1] == ("bob", "keep its feet: AGI Save against 11", 2, 10)
    tail = [e for e in events if e["type"] in ("condition_gained", "fell", "damaged")]
    assert tail[-3:] == [
        {"type": "condition_gained", "unit": "bob", "condition": "prone", "value": 1},
        {"type": "fell", "unit": "bob", "at": [2, 1], "metres": 3.0},
        {
            "type": "damaged",
            "unit": "bob",
            "amount": 2,
            "damage_type": "crushing",
            "source": "fall",
            "hp": 12,
        },
    ]
    assert hp(b, "bob") == 15 - 1 - 2
    assert conditions_of(b, "bob") == {"prone": 1}


def test_R_Z5_a_flier_already_down_in_the_pit_falls_no_further_when_grappled() -> None:
    """R-Z5: a flier lying Prone at the bottom of the pit is not in the air: grappled there, it
    does not fall again."""
    b = begin(
        OVER_PIT,
        creature("ana", "blue", "a", skills={"athletics": 2}),
        creature("bob", "red", "P", prone=True, **FLIER),
        creature("cat", "red", "c"),
        extra=PIT,
        dice=(6, 2),
    )
    events = accepted(b, unit="ana", action="grapple", target="bob")
    assert "fell" not in types(events)
    assert conditions_of(b, "bob") == {"grappled": "ana", "prone": 1}
    assert hp(b, "bob") == 15


# Deep water (3 m) at (2,1).
OVER_WATER = """
.....
.aW..
.....
"""


def test_R_Z5_R_M10_a_flier_grappled_over_deep_water_falls_in_and_swims() -> None:
    """R-Z5: grappled over water deeper than waist-deep, the flier drops into it: no damage
    (R-M4's landing in water), and it swims (R-M8)."""
    water = legend(W={"water": 3})
    b = begin(
        OVER_WATER,
        creature("ana", "blue", "a", skills={"athletics": 2}),
        creature("bob", "red", "W", **FLIER),
        extra=water,
        dice=(6, 2),
    )
    assert conditions_of(b, "bob") == {}  # in the air above the water, not swimming
    events = accepted(b, unit="ana", action="grapple", target="bob")
    assert events[-2:] == [
        {"type": "fell", "unit": "bob", "at": [2, 1], "metres": 3.0},
        {"type": "condition_gained", "unit": "bob", "condition": "swimming", "value": 1},
    ]
    assert conditions_of(b, "bob") == {"grappled": "ana", "swimming": 1}
    assert hp(b, "bob") == 15


def test_R_Z5_a_flier_downed_over_a_pit_falls() -> None:
    """R-Z5: Incapacitated in the air over a pit, the flier falls too (3 m, 2 damage)."""
    b = begin(
        OVER_PIT,
        creature("ana", "blue", "a", held=["longsword"]),
        creature("bob", "red", "P", hp=1, **FLIER),
        creature("cat", "red", "c"),
        extra=PIT,
        dice=(8, 1),
    )
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert types(events)[-5:] == [
        "damaged",
        "condition_gained",
        "fell",
        "damaged",
        "condition_gained",
    ]
    assert conditions_of(b, "bob") == {"incapacitated": 1, "prone": 1}


def test_R_Z5_R_X15_a_flier_shoved_over_a_pit_is_not_stopped_and_falls_if_it_goes_prone() -> None:
    """R-Z5: a push carries a flier over the pit (a walker stops at its edge); its failed STR
    Save then brings it down there: it falls 3 m. ana's STR 8 + 6 beats bob's 1 + 6; the push
    is 8 // 2 = 4 m, stopped by the wall; bob's save 1 + 6 < 14: Prone, over the pit."""
    rows = """
    .......
    .ab_#..
    .......
    """
    b = begin(
        rows, creature("ana", "blue", "a"), creature("bob", "red", "b", **FLIER), dice=(8, 1, 1)
    )
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert cell(b, "bob") == Pos(3, 1)
    assert [e["type"] for e in events if e["type"] in ("pushed", "fell")] == ["pushed", "fell"]
    assert conditions_of(b, "bob") == {"prone": 1}
    assert hp(b, "bob") == 15 - 2


def test_R_Z5_a_swimming_flier_takes_off_with_a_step() -> None:
    """R-Z5 Decision: a flier in the water flies out of it with a Step (R-M8's way out)."""
    rows = """
    ....
    .SW.
    ....
    """
    water = legend(W={"water": 3}, S={"water": 3})
    b = begin(rows, creature("ana", "blue", "S", prone=True, **FLIER), extra=water)
    assert conditions_of(b, "ana") == {"swimming": 1}
    events = accepted(b, unit="ana", action="step", path=[[2, 1], [3, 1]])
    assert "condition_lost" in types(events)
    assert cell(b, "ana") == Pos(3, 1) and conditions_of(b, "ana") == {}


# --- swim ---------------------------------------------------------------------------------------

POOL = """
.SWWWWWWWW.
"""
POOL_LEGEND = legend(W={"water": 3}, S={"water": 3})


def test_R_Z5_a_swim_speed_replaces_speed_over_3_in_the_water() -> None:
    """R-Z5: a Swim covers the swim speed (6 m), not Speed/3 (3 m)."""
    b = begin(POOL, creature("ana", "blue", "S", prone=True, swim=6), extra=POOL_LEGEND)
    start = cell(b, "ana")
    events = accepted(b, unit="ana", action="swim", to=[start.x + 6, 0])
    assert sum(cost for _, _, cost in legs(events)) == 12
    b = begin(POOL, creature("ana", "blue", "S", prone=True), extra=POOL_LEGEND)
    reason = refused(b, unit="ana", action="swim", path=[[1 + i, 0] for i in range(1, 5)])
    assert reason.startswith("swim: 3 m allowed (Speed 9 / 3)")


def test_R_Z5_R_M9_wading_is_not_difficult_for_a_swimmer() -> None:
    """R-Z5: waist-deep water (1 m for 1.8 m) costs a swimmer 1 m a cell; others pay double."""
    rows = ".aWW.\n"
    wade = legend(W={"water": 1})
    b = solo(rows, wade, swim=6)
    events = accepted(b, unit="ana", action="walk", path=[[2, 0], [3, 0], [4, 0]])
    assert sum(cost for _, _, cost in legs(events)) == 6
    b = solo(rows, wade)
    reason = refused(b, unit="ana", action="walk", path=[[2, 0], [3, 0], [4, 0]])
    assert "waist-deep water for ana" in reason


# --- climb --------------------------------------------------------------------------------------

CLIFF = """
.....
.aCCC
.....
"""
CLIFF_LEGEND = legend(C={"height": 6, "climbable": True})


def test_R_Z5_R_M7_a_climb_speed_replaces_the_agi_die_and_keeps_the_hands_free() -> None:
    """R-Z5: climb 6 gets ana up the whole 6 m face in one Climb, where her d4 AGI die would
    stop her at 4 m; her dagger stays in her hand."""
    b = solo(CLIFF, CLIFF_LEGEND, agi="d4+8", held=["dagger"], climb=6)
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    assert types(events) == ["spent", "climbed"]
    assert (events[1]["end"], events[1]["elevation"], events[1]["metres"]) == ([2, 1], 0.0, 6.0)
    assert b.world.need("ana", Hands).items() == ("ana.dagger",)
    b = solo(CLIFF, CLIFF_LEGEND, agi="d4+8", held=["dagger"])
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    assert types(events)[:2] == ["spent", "item_stowed"]
    assert at(b).elevation == 4.0


def test_R_Z5_the_modes_are_on_the_body() -> None:
    b = solo(GAP, fly=9, swim=4, climb=3)
    body = b.world.need("ana", Body)
    assert body.modes == (("fly", 9), ("swim", 4), ("climb", 3))
    end_turns(b, "ana")


# --- odds ---------------------------------------------------------------------------------------


def test_R_Z5_the_odds_know_a_flier_over_a_pit_falls_when_tripped_or_shoved_down() -> None:
    """R-Z5: the trip's forecast and the shove's landings say that bob, in the air over the
    pit, falls 3 m if he goes down; over open ground they say nothing of it."""

    b = begin(
        OVER_PIT,
        creature("ana", "blue", "a"),
        creature("bob", "red", "P", **FLIER),
        creature("cat", "red", "c"),
        extra=PIT,
    )
    assert odds.air_fall(b.world, "bob") == "falls 3 m into the pit"
    forecast = tripping(b.world, "ana", "trip", "bob")
    assert forecast is not None
    assert forecast.lines[0].endswith("; Prone, bob falls 3 m into the pit (R-Z5)")
    rows = """
    .......
    .ab_#..
    .......
    """
    b = begin(rows, creature("ana", "blue", "a"), creature("bob", "red", "b", **FLIER))
    assert odds.air_fall(b.world, "bob") == ""
    landings = odds.shove_landings(b.world, "ana", "bob")
    over = [land for land in landings if land.cells and land.cells[-1] == Pos(3, 1)]
    assert over and all("if the save fails, falls 3 m into the pit" in x.happens for x in over)
