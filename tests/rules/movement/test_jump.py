"""Jumping (sim/rules/movement/jump.py): how far and how high with and without a run-up, ledge
grabs, pits and what a jump passes over (R-M6, R-M5)."""

from __future__ import annotations

import pytest

from sim.core.actions import Run
from sim.core.geometry import Pos
from sim.rules.movement.footing import mover
from sim.rules.movement.jump import jump_reach
from sim.rules.reach.reachmap import reach_map
from tests.helpers import accepted, battle, refused, scenario_text, types
from tests.movers import RISE_LEGEND, RISES, at, creature, legend, legs, solo

# --- R-M6 jumping --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agi", "length", "cap", "height", "reached"),
    [
        ("d8+8", 4, 8, 1.6, 1),  # 8/4 = 2 m; 8/2 = 4 m; 8/10 = 0.8 m, reached 0.5 m
        ("d8+10", 5, 10, 2.0, 2),  # 2.5 m; 5 m; 1 m
        ("d8+5", 2, 5, 1.0, 1),  # 1.25 -> 1 m; 2.5 m; 0.5 m
        ("d8+4", 2, 4, 0.8, 0),  # 1 m; 2 m; 0.4 m, reached 0 m
    ],
)
def test_R_M6_standing_jump_length_and_height_come_from_the_agi_bonus(
    agi: str, length: int, cap: int, height: float, reached: int
) -> None:
    """R-M6 with R-U4: length AGI Bonus/4 and the running cap AGI Bonus/2, rounded down to the
    half-metre; the height AGI Bonus/10 is kept exact and rounded down once with what is added
    to it (values in half-metres)."""
    world = solo(RISES, RISE_LEGEND, agi=agi).world
    jr = jump_reach(world, "ana", mover(world, "ana"))
    assert (jr.standing_length, jr.length_cap) == (length, cap)
    assert jr.standing_height == pytest.approx(height)
    assert (jr.length(0), jr.height(0)) == (length, reached)


def test_R_M6_a_run_up_adds_length_to_the_cap_and_a_metre_of_height_per_3_m() -> None:
    """R-M6: +1 m of length per metre of run-up up to AGI Bonus/2 (4 m for ana); +1 m of height
    per 3 m of run-up, at most 1 m over the standing height (Decision)."""
    world = solo(RISES, RISE_LEGEND).world
    jr = jump_reach(world, "ana", mover(world, "ana"))
    assert [jr.length(r) for r in (0, 2, 4, 6)] == [4, 6, 8, 8]
    assert [jr.height(r) for r in (0, 5, 6, 12, 18)] == [1, 1, 3, 3, 3]


def test_R_U4_R_M6_a_height_with_a_grab_adds_the_exact_parts_and_rounds_once() -> None:
    """R-U4: a total made of several parts is rounded once, at the end. ana (AGI Bonus 8, 1.8 m)
    grabbing a ledge reaches 0.8 + 1.8 = 2.6, so 2.5 m, standing, and 0.8 + 1 + 1.8 = 3.6, so
    3.5 m, with 3 m of run-up (rounding the 0.8 m first gave 2.0 and 3.0)."""
    world = solo(RISES, RISE_LEGEND).world
    jr = jump_reach(world, "ana", mover(world, "ana"))
    assert [jr.height(r, grab=True) for r in (0, 5, 6, 18)] == [5, 5, 7, 7]


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
        "walk: 3 m allowed (Speed 9 / 3), the cheapest path to (5,1) costs 4 m; the metres run "
        "out at (5,1) (R-M1)"
    )
    events = accepted(b, unit="ana", action="run", to=[5, 1])
    assert legs(events)[-1] == ("jumped", [5, 1], 2)
    assert sum(cost for _, _, cost in legs(events)) == 8


TALL = """
.....
a...H
.....
"""


def test_R_M6_R_U4_a_3_5_m_ledge_is_grabbed_with_a_run_up_not_standing() -> None:
    """R-M6 with R-U4: ana reaches 3.5 m grabbing with 3 m of run-up (0.8 + 1 + 1.8 = 3.6). A
    Jump on its own has none, and the refusal says what she reaches standing, with a run-up
    and with a grab; folded into a Run after 3 m she is up, grabbing the ledge."""
    b = solo(TALL, legend(H={"height": 3.5}))
    accepted(b, unit="ana", action="walk", path=[[1, 1], [2, 1], [3, 1]])
    assert refused(b, unit="ana", action="jump", to=[4, 1]) == (
        "(4,1): this jump (1 m long, 3.5 m up) needs a run-up of 3 m; ana jumps 2 m standing, at "
        "most 4 m with a run-up of 2 m; ana reaches 0.5 m standing, 1.5 m with a run-up of 3 m; "
        "grabbing the ledge, 2.5 m standing, 3.5 m with a run-up of 3 m: fold the jump into a "
        "Walk, Run or Sprint for the run-up (R-M6)"
    )
    b = solo(TALL, legend(H={"height": 3.5}))
    events = accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1], [4, 1, "jump"]])
    assert legs(events)[-1] == ("jumped", [4, 1], 2)
    assert [e["grabbed_ledge"] for e in events if e["type"] == "jumped"] == [True]
    assert at(b).cell == Pos(4, 1)


def test_R_M6_a_ledge_beyond_even_a_running_grab_is_refused_with_what_she_reaches() -> None:
    """R-M6: 4 m is over ana's best, 3.5 m with a run-up and a grab; the refusal names the
    height needed and every height she reaches, and a Walk may not leap it (R-M3)."""
    b = solo(TALL, legend(H={"height": 4.0}))
    reason = refused(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1], [4, 1, "jump"]])
    assert reason == (
        "(4,1): 4 m up; ana reaches 0.5 m standing, 1.5 m with a run-up of 3 m; grabbing the "
        "ledge, 2.5 m standing, 3.5 m with a run-up of 3 m (R-M6)"
    )
    reason = refused(b, unit="ana", action="walk", path=[[1, 1], [2, 1], [3, 1], [4, 1]])
    assert reason == "(4,1): ledge 4 m high; a Walk can leap 0.9 m; jump or climb (R-M3)"


# A 2 m ledge at (2,1) beside the shipped fighter, and a 2.5 m one at (1,0).
FIGHTER = """
.G...
.fL..
.....
"""
FIGHTER_LEGEND = legend(L={"height": 2.0}, G={"height": 2.5})


def test_R_U4_R_M6_the_shipped_fighter_grabs_a_2_m_ledge_from_a_standing_jump() -> None:
    """R-U4: the shipped human fighter (AGI Bonus 3, 1.8 m) reaches 0.3 + 1.8 = 2.1, so 2 m,
    grabbing a ledge with a Jump on its own (rounding the 0.3 m first gave 1.8, so 1.5 m); the
    2.5 m ledge needs a run-up."""
    fighter = '[[units]]\nid = "fin"\nteam = "blue"\ntemplate = "human_fighter"\nat = "f"'
    b = battle(scenario_text(FIGHTER, fighter, FIGHTER_LEGEND), [1])
    assert jump_reach(b.world, "fin", mover(b.world, "fin")).height(0, grab=True) == 4
    assert refused(b, unit="fin", action="jump", to=[1, 0]) == (
        "(1,0): this jump (1 m long, 2.5 m up) needs a run-up of 3 m; fin jumps 1.5 m standing, "
        "at most 2.5 m with a run-up of 1 m; fin reaches 0 m standing, 1 m with a run-up of 3 m; "
        "grabbing the ledge, 2 m standing, 3 m with a run-up of 3 m: fold the jump into a Walk, "
        "Run or Sprint for the run-up (R-M6)"
    )
    events = accepted(b, unit="fin", action="jump", to=[2, 1])
    assert [e["grabbed_ledge"] for e in events if e["type"] == "jumped"] == [True]


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
        "(6,1): this jump (4 m long) needs a run-up of 2 m; ana jumps 2 m standing, at most 4 m "
        "with a run-up of 2 m: fold the jump into a Walk, Run or Sprint for the run-up (R-M6)"
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
        "(8,1): a jump of 5 m; ana jumps 2 m standing, at most 4 m with a run-up of 2 m (R-M6)"
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


def test_R_M6_a_wall_in_the_line_stops_a_jump() -> None:
    """R-M6: a jump crosses pits and gaps, not walls."""
    b = solo("......\na..#..\n......")
    reason = refused(b, unit="ana", action="run", path=[[1, 1], [2, 1], [4, 1, "jump"]])
    assert reason == "(3,1): a wall is in the way of the jump (R-M6)"


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


# --- R-M6 run-up is metres covered, not metres spent ---------------------------------------------

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


def test_R_M6_a_jump_out_of_or_into_mud_is_paid_one_for_one() -> None:
    """R-M6 Decision: the jump's own metres are paid one for one wherever it takes off or lands
    (it is in the air); the steps before and after it pay as ground (R-M2), and a refusal
    that comes from those steps says so. A Walk (3 m) hops from the mud at (1,0) back onto the
    mud at (0,0) for 1 m; stepping on from there costs double, which the refusal names."""
    b = solo(MUD_PIT, MUD_LEGEND)
    assert refused(b, unit="ana", action="walk", path=[[0, 0, "jump"], [1, 0], [2, 0]]) == (
        "walk: 3 m allowed (Speed 9 / 3), this path costs 5 m: (0,0) and (1,0) are difficult; "
        "the metres run out at (2,0) (R-M1, R-M2)"
    )
    events = accepted(b, unit="ana", action="walk", path=[[0, 0, "jump"]])
    assert legs(events) == [("jumped", [0, 0], 2)]


def test_R_M6_the_reach_map_hops_out_of_the_mud_and_counts_metres_covered() -> None:
    """R-M6 in the compiled reach engine: the Run's cheapest way over the pit hops out of the
    mud rather than wading (a metre of mud costs 2 m, R-M2, a metre jumped 1 m): back onto
    (0,0), over (1,0) to (2,0), which makes the 2 m of run-up (metres covered) the 4 m jump
    over the pit needs: 7 m of the Run's 9 m. The move check accepts the path it shows."""
    b = solo(MUD_PIT, MUD_LEGEND)
    offer = reach_map(b.world, "ana", only=(Run,))[Pos(6, 0)]
    assert (offer.cost, offer.path) == (
        14,
        ((Pos(0, 0), True), (Pos(2, 0), True), (Pos(6, 0), True)),
    )
    path = [[c.x, c.y, "jump"] if jumped else [c.x, c.y] for c, jumped in offer.path]
    events = accepted(b, unit="ana", action="run", path=path)
    assert legs(events) == [("jumped", [0, 0], 2), ("jumped", [2, 0], 4), ("jumped", [6, 0], 8)]
    assert at(b).cell == Pos(6, 0)
