"""Issue 3, terrain and movement: Step, Walk, Run and Sprint on small maps with loaded dice
(R-U2, R-U3, R-U4, R-M1, R-M2, R-M5), destination moves, and refusals that name the first cell
that fails and why."""

from __future__ import annotations

from collections import Counter

import pytest

from sim.core.actions import Refusal, Run, Walk
from sim.core.components import Position
from sim.core.condition import Condition
from sim.core.geometry import Pos
from sim.core.purpose import RollKind
from sim.play.engine import Battle
from sim.rules.movement.movement import allowance, plan_move
from tests.helpers import (
    accepted,
    battle,
    budget,
    conditions_of,
    refused,
    scenario_text,
    tagged,
    types,
)
from tests.movers import creature, legend

# ana stands at (1,1) on open ground, 16 cells of it to her right.
FIELD = """
..................
.a................
..................
"""


def begin(rows: str, *units: str, extra: str = "", dice: tuple[int, ...] = ()) -> Battle:
    """A battle on `rows`; the units roll 4, 3, 2, 1 for initiative (so with equal AGI the first
    acts first), then the loaded `dice` follow."""
    rolls = [4, 3, 2, 1][: len(units)]
    return battle(scenario_text(rows, "\n".join(units), extra), [*rolls, *dice])


def solo(rows: str = FIELD, extra: str = "", dice: tuple[int, ...] = (), **ana: object) -> Battle:
    return begin(rows, creature("ana", "blue", "a", **ana), extra=extra, dice=dice)


def moves(events: list[dict[str, object]]) -> list[tuple[list[int], int]]:
    """(end cell, cost in half-metres) of each Moved or Jumped event."""
    return [(e["end"], e["cost"]) for e in events if e["type"] in ("moved", "jumped")]  # type: ignore[misc]


def row(y: int, *xs: int) -> list[list[int]]:
    return [[x, y] for x in xs]


def at(b: Battle, uid: str = "ana") -> Pos:
    return b.world.need(uid, Position).cell


# --- R-U2 distances in half-metres -------------------------------------------------------------


def test_R_U2_an_orthogonal_move_is_1_m_and_a_diagonal_1_5_m() -> None:
    """R-U2: orthogonal 1 m, diagonal 1.5 m, kept as whole half-metres (2 and 3)."""
    b = solo()
    events = accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 2]])
    assert moves(events) == [([2, 1], 2), ([3, 2], 3)]
    assert at(b) == Pos(3, 2)


def test_R_U2_two_diagonals_are_3_m_which_a_walk_allows_but_three_are_4_5_m() -> None:
    """R-U2 with R-M1: two diagonals (3 m) fit ana's 3 m Walk; a third (4.5 m) does not."""
    b = solo()
    reason = refused(b, unit="ana", action="walk", path=[[2, 2], [3, 1], [4, 2]])
    assert reason == (
        "walk: 3 m allowed (Speed 9 / 3), this path costs 4.5 m; the metres run out at (4,2) (R-M1)"
    )
    events = accepted(b, unit="ana", action="walk", path=[[2, 2], [3, 1]])
    assert moves(events) == [([2, 2], 3), ([3, 1], 3)]


# --- R-U3 corners ----------------------------------------------------------------------------

CORNER = """
.#..
a.._
....
"""


def test_R_U3_a_diagonal_may_not_cut_the_corner_of_a_wall() -> None:
    """R-U3: the diagonal (1,1)->(2,0) passes between the wall (1,0) and (2,1): it cuts the
    wall's corner and is refused, naming the corner; round it is allowed."""
    b = solo(CORNER)
    reason = refused(b, unit="ana", action="walk", path=[[1, 1], [2, 0]])
    assert reason == "(2,0): the diagonal would cut the corner at (1,0) (R-U3)"
    # Around the corner instead: two orthogonal steps, 2 m.
    events = accepted(b, unit="ana", action="walk", path=[[1, 1], [2, 1], [2, 0]])
    assert moves(events) == [([1, 1], 2), ([2, 1], 2), ([2, 0], 2)]


def test_R_U3_a_diagonal_between_two_open_cells_is_allowed() -> None:
    """R-U3: with both orthogonal neighbours open the diagonal is allowed, 1.5 m each (R-U2)."""
    b = solo(CORNER)
    events = accepted(b, unit="ana", action="walk", path=[[1, 2], [2, 1]])
    assert moves(events) == [([1, 2], 3), ([2, 1], 3)]


def test_R_U3_a_pit_corner_cannot_be_cut_either() -> None:
    """R-U3: a pit cannot be entered, so a diagonal past its corner is refused too."""
    b = solo(CORNER)
    accepted(b, unit="ana", action="walk", path=[[1, 1], [2, 1]])
    reason = refused(b, unit="ana", action="walk", path=[[3, 2]])
    assert reason == "(3,2): the diagonal would cut the corner at (3,1) (R-U3)"


def test_R_U3_a_destination_move_goes_round_the_corner() -> None:
    """R-U3: asked to go to (2,0), the engine takes the legal way round (3 m), not the diagonal
    from (1,1) (2.5 m), nor a diagonal jump past the corner."""
    b = solo(CORNER)
    events = accepted(b, unit="ana", action="walk", to=[2, 0])
    assert types(events) == ["spent", "moved", "moved", "moved"]
    assert moves(events) == [([1, 1], 2), ([2, 1], 2), ([2, 0], 2)]


def test_R_U3_a_diagonal_jump_may_not_cut_the_corner_either() -> None:
    """R-U3 with R-M6: jumping diagonally from (1,1) to (2,0) passes the same wall corner."""
    b = solo(CORNER)
    accepted(b, unit="ana", action="step", path=[[1, 1]])
    reason = refused(b, unit="ana", action="jump", to=[2, 0])
    assert reason == "(2,0): the jump would cut the corner at (1,0) (R-U3)"


# --- R-U4 rounding down ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("race", "armour", "walk"),
    [
        ("human", None, 6),  # 9 / 3 = 3 m
        ("human", "mail", 5),  # (9 - 1) / 3 = 2.67 -> 2.5 m
        ("human", "plate", 4),  # (9 - 2) / 3 = 2.33 -> 2 m
        ("halfling", None, 4),  # 7 / 3 = 2.33 -> 2 m
        ("elf", None, 6),  # 10 / 3 = 3.33 -> 3 m
    ],
)
def test_R_U4_allowances_are_rounded_down_to_the_half_metre(
    race: str, armour: str | None, walk: int
) -> None:
    """R-U4: Speed/3 rounded down to the half-metre (walk in half-metres)."""
    b = solo(race=race, armour=armour) if armour else solo(race=race)
    assert allowance(b.world, "ana", Walk) == walk


def test_R_U4_a_walk_of_2_5_m_is_allowed_and_3_m_refused_at_speed_8() -> None:
    """R-U4 with R-C5: mail (Speed penalty 1) leaves ana Speed 8: Walk 8/3 = 2.67, so 2.5 m."""
    b = solo(armour="mail")
    reason = refused(b, unit="ana", action="walk", path=row(1, 2, 3, 4))
    assert reason == (
        "walk: 2.5 m allowed (Speed 8 / 3, mail taking 1 off its Speed 9), this path costs "
        "3 m; the metres run out at (4,1) (R-M1)"
    )
    events = accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 2]])
    assert sum(c for _, c in moves(events)) == 5


# --- R-M1 Step, Walk, Run, Sprint --------------------------------------------------------------


def test_R_M1_a_walk_of_exactly_speed_over_3_is_allowed() -> None:
    """R-M1: Walk, ½ Action, Speed/3: 3 m for a human without armour."""
    b = solo()
    events = accepted(b, unit="ana", action="walk", path=row(1, 2, 3, 4))
    assert types(events) == ["spent", "moved", "moved", "moved"]
    assert events[0]["half"] == 1 and events[0]["bonus"] == 0
    assert at(b) == Pos(4, 1)
    assert budget(b, "ana") == (1, 2)


def test_R_M1_a_walk_half_a_metre_longer_is_refused_naming_the_cell_it_runs_out() -> None:
    """R-M1: 3.5 m (two orthogonal steps and a diagonal) is half a metre over the Walk."""
    b = solo()
    reason = refused(b, unit="ana", action="walk", path=[[2, 1], [3, 1], [4, 2]])
    assert reason == (
        "walk: 3 m allowed (Speed 9 / 3), this path costs 3.5 m; the metres run out at (4,2) (R-M1)"
    )


def test_R_M1_a_step_goes_2_m_and_costs_a_bonus_action() -> None:
    """R-M1: Step, a Bonus Action, up to 2 m; 2.5 m is refused at the cell where it runs out."""
    b = solo()
    events = accepted(b, unit="ana", action="step", path=row(1, 2, 3))
    assert events[0]["half"] == 0 and events[0]["bonus"] == 1
    reason = refused(b, unit="ana", action="step", path=[[4, 1], [5, 2]])
    assert reason == (
        "step: 2 m allowed, this path costs 2.5 m; the metres run out at (5,2) (R-M1)"
    )


def test_R_M1_a_run_is_speed_metres_for_one_action() -> None:
    """R-M1: Run, 1 Action, Speed (9 m): 9 cells allowed, a 10th refused."""
    b = solo()
    reason = refused(b, unit="ana", action="run", path=row(1, *range(2, 12)))
    assert reason == (
        "run: 9 m allowed (Speed 9), this path costs 10 m; the metres run out at (11,1) (R-M1)"
    )
    events = accepted(b, unit="ana", action="run", path=row(1, *range(2, 11)))
    assert events[0]["half"] == 2
    assert at(b) == Pos(10, 1)


def test_R_M1_athletics_adds_its_level_in_metres_to_run() -> None:
    """R-M1: "Athletics level adds that many metres to Run and Sprint": level 2 -> Run 11 m,
    while the Walk stays 3 m."""
    b = solo(skills={"athletics": 2})
    assert allowance(b.world, "ana", Walk) == 6
    events = accepted(b, unit="ana", action="run", path=row(1, *range(2, 13)))
    assert sum(c for _, c in moves(events)) == 22
    b = solo()
    assert "run: 9 m allowed (Speed 9)," in refused(
        b, unit="ana", action="run", path=row(1, *range(2, 13))
    )


def test_R_M1_armour_lowers_walk_run_and_sprint() -> None:
    """R-C5 with R-M1: plate's Speed penalty of 2 takes ana's Walk to 2 m and her Run to 7 m."""
    b = solo(armour="plate")
    assert refused(b, unit="ana", action="walk", path=row(1, 2, 3, 4)) == (
        "walk: 2 m allowed (Speed 7 / 3, plate taking 2 off its Speed 9), this path costs 3 m; "
        "the metres run out at (4,1) (R-M1)"
    )
    assert "run: 7 m allowed (Speed 7, plate taking 2 off its Speed 9)," in refused(
        b, unit="ana", action="run", path=row(1, *range(2, 10))
    )


SPRINTER = {"agi": "d4+1"}  # Sprint: 9 + d4 + 1 = 11..14 m


def test_R_M1_sprint_rolls_agi_when_declared_and_goes_the_whole_way_on_a_good_roll() -> None:
    """R-M1: Sprint, 1 Action + 1 Bonus Action, Speed + AGI Roll + AGI Bonus, rolled when
    declared: a 4 on the d4 gives 9 + 4 + 1 = 14 m, the whole path."""
    b = solo(dice=(4,), **SPRINTER)
    rows = row(1, *range(2, 13)) + row(2, 12, 13)  # 11 m along row 1, then 1.5 + 1 m
    events = accepted(b, unit="ana", action="sprint", path=rows)
    assert types(events)[:2] == ["spent", "rolled"]
    spent, rolled = events[0], events[1]
    assert (spent["half"], spent["bonus"]) == (2, 1)
    assert "sprint" in str(rolled["purpose"])
    assert (rolled["die"], rolled["result"], rolled["bonus"], rolled["total"]) == (4, 4, 1, 5)
    assert tagged(b)[-1] == ("rolled", RollKind.SPRINT)  # what the board reads (issue #28)
    assert at(b) == Pos(13, 2)
    assert budget(b, "ana") == (0, 1)


def test_R_M1_a_sprint_is_cut_short_when_the_roll_is_low() -> None:
    """R-M1: the same path with a 1 on the d4 allows 11 m: ana stops at (12,1) and the log says
    why; the action is spent all the same."""
    b = solo(dice=(1,), **SPRINTER)
    rows = row(1, *range(2, 13)) + row(2, 12, 13)
    events = accepted(b, unit="ana", action="sprint", path=rows)
    cut = [e for e in events if e["type"] == "move_cut_short"]
    reason = "the sprint allowed 11 m"
    assert cut == [{"type": "move_cut_short", "unit": "ana", "at": [12, 1], "reason": reason}]
    assert at(b) == Pos(12, 1)
    assert budget(b, "ana") == (0, 1)


def test_R_M1_a_sprint_longer_than_the_best_roll_is_refused_before_rolling() -> None:
    """R-M1: 14.5 m is more than even a 4 allows; refused, and no die is rolled."""
    b = solo(dice=(4,), **SPRINTER)
    rows = row(1, *range(2, 15)) + row(2, 15)  # 13 m and a diagonal
    reason = refused(b, unit="ana", action="sprint", path=rows)
    assert reason == (
        "sprint: 14 m allowed at most (Speed 9 + AGI Roll up to 4 + AGI Bonus 1), this path "
        "costs 14.5 m; the metres run out at (15,2) (R-M1)"
    )
    assert b.dice.remaining == 1  # type: ignore[attr-defined]


def test_R_M1_athletics_adds_to_sprint_too() -> None:
    """R-M1: Athletics 1 makes the d4+1 sprint 12..15 m."""
    b = solo(dice=(1,), skills={"athletics": 1}, **SPRINTER)
    events = accepted(b, unit="ana", action="sprint", path=row(1, *range(2, 14)))
    assert not [e for e in events if e["type"] == "move_cut_short"]
    assert at(b) == Pos(13, 1)


def test_R_M1_a_movement_action_that_cannot_be_paid_is_refused() -> None:
    """R-M1 with R-B4: after a Run nothing is left for a Walk."""
    b = solo()
    accepted(b, unit="ana", action="run", path=row(1, 2))
    assert refused(b, unit="ana", action="walk", path=row(1, 3)) == (
        "ana has only 0 half-actions left; Walk (½ Action) costs 1 half-action (R-B4)"
    )


# --- R-M2 difficult terrain ------------------------------------------------------------------

ROUGH = """
..........
a.,,......
..........
"""


def test_R_M2_entering_and_leaving_difficult_ground_costs_double() -> None:
    """R-M2: a move between two cells costs double if either is difficult: onto (2,1) and
    (3,1) 2 m each, off (3,1) onto (4,1) 2 m too ("no extra Movement for leaving"), then 1 m."""
    b = solo(ROUGH)
    events = accepted(b, unit="ana", action="run", path=row(1, 1, 2, 3, 4, 5))
    assert moves(events) == [([1, 1], 2), ([2, 1], 4), ([3, 1], 4), ([4, 1], 4), ([5, 1], 2)]


def test_R_M2_a_diagonal_into_difficult_ground_costs_3_m() -> None:
    """R-M2 with R-U2: a diagonal is 1.5 m, doubled to 3 m when either end is difficult."""
    b = solo(ROUGH)
    events = accepted(b, unit="ana", action="walk", path=[[1, 1], [2, 2]])
    assert moves(events) == [([1, 1], 2), ([2, 2], 3)]
    b = solo(ROUGH)
    events = accepted(b, unit="ana", action="run", path=[[1, 0], [2, 1]])
    assert moves(events) == [([1, 0], 3), ([2, 1], 6)]


def test_R_M2_a_walk_into_difficult_ground_runs_out_sooner() -> None:
    """R-M2: 1 m of open ground and 2 m of difficult ground is the whole 3 m Walk; one more
    difficult metre is refused at the cell where it runs out."""
    b = solo(ROUGH)
    assert refused(b, unit="ana", action="walk", path=row(1, 1, 2, 3)) == (
        "walk: 3 m allowed (Speed 9 / 3), this path costs 5 m: (2,1) and (3,1) are difficult; "
        "the metres run out at (3,1) (R-M1, R-M2)"
    )
    accepted(b, unit="ana", action="walk", path=row(1, 1, 2))
    assert at(b) == Pos(2, 1)


def test_R_M2_difficult_ground_halves_a_step() -> None:
    """R-M2: "This also halves Step": one metre onto difficult ground is the whole Step."""
    b = solo(ROUGH)
    accepted(b, unit="ana", action="step", path=row(1, 1))
    assert refused(b, unit="ana", action="step", path=row(1, 2, 3)) == (
        "step: 2 m allowed, this path costs 4 m: (2,1) and (3,1) are difficult; the metres run "
        "out at (3,1) (R-M1, R-M2)"
    )
    events = accepted(b, unit="ana", action="step", path=row(1, 2))
    assert moves(events) == [([2, 1], 4)]


# --- R-M5 occupancy --------------------------------------------------------------------------

CROWD = """
.......
a.b.c..
.......
"""


def crowd(bo_team: str = "blue", cy_team: str = "red", **cy: object) -> Battle:
    return begin(
        CROWD,
        creature("ana", "blue", "a"),
        creature("bo", bo_team, "b"),
        creature("cy", cy_team, "c", **cy),
    )


def test_R_M5_a_creature_may_move_through_an_ally() -> None:
    """R-M5 Decision: ana walks through bo (an ally) at (2,1)."""
    b = crowd()
    accepted(b, unit="ana", action="walk", path=row(1, 1, 2, 3))
    assert at(b) == Pos(3, 1)


def test_R_M5_but_not_through_a_standing_enemy() -> None:
    """R-M5 Decision: cy (red) bars (4,1); ana must go round."""
    b = crowd()
    accepted(b, unit="ana", action="walk", path=row(1, 1, 2, 3))
    reason = refused(b, unit="ana", action="walk", path=row(1, 4, 5))
    assert reason == "(4,1): cy stands there and is not an ally (R-M5)"
    accepted(b, unit="ana", action="walk", path=[[4, 0], [5, 1]])
    assert at(b) == Pos(5, 1)


def test_R_M5_a_move_cannot_end_on_a_standing_creature_ally_or_not() -> None:
    """R-M5: a cell holds at most one standing creature, so a move may not end on bo."""
    b = crowd()
    reason = refused(b, unit="ana", action="walk", path=row(1, 1, 2))
    assert reason == "(2,1): bo is standing there; a move cannot end on it (R-M5)"
    reason = refused(b, unit="ana", action="walk", to=[2, 1])
    assert reason == "(2,1): bo is standing there; a move cannot end on it (R-M5)"


def test_R_M5_a_prone_enemy_may_be_passed_and_shared() -> None:
    """R-M5: prone creatures may share a cell, so a prone cy neither bars the way nor the end."""
    b = crowd(prone=True)
    accepted(b, unit="ana", action="run", path=row(1, 1, 2, 3, 4, 5))
    accepted(b, unit="ana", action="step", path=row(1, 4))
    assert at(b) == at(b, "cy") == Pos(4, 1)


def test_R_M5_a_destination_move_goes_round_a_standing_enemy() -> None:
    """R-M5 with the cheapest path: from (3,1) the way to (5,1) round cy is two diagonals, 3 m."""
    b = crowd(bo_team="blue")
    accepted(b, unit="ana", action="walk", path=row(1, 1, 2, 3))
    events = accepted(b, unit="ana", action="walk", to=[5, 1])
    assert sum(c for _, c in moves(events)) == 6
    assert [4, 1] not in [e for e, _ in moves(events)]


# --- destination moves and the cheapest path -------------------------------------------------

DETOUR = """
.......
a,,,,..
.......
"""


def test_a_destination_move_finds_the_cheapest_path_round_difficult_ground() -> None:
    """R-M2 with "to": for a creature that cannot jump a metre (AGI Bonus 1: a running jump
    of at most 0.5 m, R-M6), straight through the mud from (0,1) to (5,1) costs 5 x 2 = 10 m;
    round it along row 0 or row 2 it is 1.5 + 3 + 1.5 = 6 m, and that is the path the engine
    takes."""
    b = solo(DETOUR, agi="d8+1")
    world = b.world
    plan = plan_move(world, Run("ana", to=Pos(5, 1)))
    assert not isinstance(plan, Refusal)
    assert plan.cost == 12
    assert all(world.grid.kind(leg.end).name == "OPEN" for leg in plan.legs)
    events = accepted(b, unit="ana", action="run", to=[5, 1])
    assert sum(c for _, c in moves(events)) == 12
    assert at(b) == Pos(5, 1)


def test_R_M6_R_M2_a_jumper_hops_through_the_mud_paying_its_jumps_one_for_one() -> None:
    """R-M6 Decision: a jump's own metres are paid one for one, also from and into difficult
    ground. ana (a standing jump of 2 m) goes straight along the mud from (0,1) to (5,1) in
    1 m jumps, 5 m in all: less than the 6 m round it or the 10 m of wading through it."""
    b = solo(DETOUR)
    events = accepted(b, unit="ana", action="run", to=[5, 1])
    assert [e["type"] for e in events if e["type"] in ("moved", "jumped")] == ["jumped"] * 5
    assert sum(e["cost"] for e in events if e["type"] == "jumped") == 10
    assert at(b) == Pos(5, 1)


def test_a_destination_the_move_cannot_reach_is_refused_with_the_cell() -> None:
    """R-M1, R-M2: a destination beyond the Walk's 3 m (7 m round the mud), off the map, or
    where the creature already is: each refused with the cell."""
    b = solo(DETOUR)
    assert refused(b, unit="ana", action="walk", to=[6, 1]) == (
        "walk: 3 m allowed (Speed 9 / 3), the cheapest path to (6,1) costs 6 m; the metres run "
        "out at (4,1) (R-M1)"
    )
    assert refused(b, unit="ana", action="walk", to=[20, 1]) == "(20,1): off the map (R-U1)"
    assert refused(b, unit="ana", action="walk", to=[0, 1]) == "ana is already at (0,1) (R-M1)"


def test_a_path_and_a_destination_together_are_refused() -> None:
    """A decision gives a path of cells or a destination, not both (R-B4: nothing changes)."""
    b = solo()
    reason = refused(b, unit="ana", action="walk", path=[[2, 1]], to=[2, 1])
    assert reason == 'give either "path" or "to", not both (R-M1)'


def test_a_path_of_cells_must_be_neighbours_for_a_step() -> None:
    """R-M6: only a Walk, Run or Sprint folds in a jump; a Step's cells must be neighbours."""
    b = solo()
    reason = refused(b, unit="ana", action="step", path=[[3, 1]])
    assert reason == "(3,1): not next to (1,1); a Step cannot jump (R-M6)"


# --- the refusal names the first failing cell --------------------------------------------------

LEDGE = """
............
............
............
....a..L....
............
"""


def test_the_refusal_names_the_first_failing_cell_and_the_rule() -> None:
    """R-M3: ana walks (5,3), (6,3), then meets a 1.5 m ledge at (7,3): the refusal names
    (7,3), its height, what a Walk can leap, and what to do instead."""
    b = solo(LEDGE, extra=legend(L={"height": 1.5}))
    reason = refused(b, unit="ana", action="walk", path=row(3, 5, 6, 7))
    assert reason == "(7,3): ledge 1.5 m high; a Walk can leap 0.9 m; jump or climb (R-M3)"
    assert reason.startswith("(7,3)")
    for word in ("ledge", "1.5 m", "0.9 m", "jump or climb"):
        assert word in reason


def standing_cells(b: Battle) -> Counter[Pos]:
    """How many creatures that are not prone stand in each cell (R-M5: at most one)."""
    return Counter(
        at(b, uid)
        for uid, _ in b.world.each(Position)
        if uid in ("ana", "al", "bo", "cy") and "prone" not in conditions_of(b, uid)
    )


# --- R-M1 with R-M5: a sprint cut short never ends on another standing creature ----------------


def test_R_M1_R_M5_a_sprint_cut_short_does_not_stop_on_an_allys_cell() -> None:
    """R-M1: Sprint is rolled when declared; R-M5: a cell holds at most one standing creature
    and a move may pass through allies but not end on them. ana (AGI d4+1: 11..14 m) sprints
    13 m along row 1 through her ally al at (12,1); a 1 allows 11 m, which would leave her on
    al's cell. She stops at (11,1), the last cell she may end in, and the log says why."""
    rows = "...............\n.a..........l..\n..............."
    units = "\n".join(
        [creature("ana", "blue", "a", agi="d4+1"), creature("al", "blue", "l", agi="d4+1")]
    )
    b = battle(scenario_text(rows, units), [4, 3, 1])
    events = accepted(b, unit="ana", action="sprint", path=[[x, 1] for x in range(2, 15)])
    cut = [e for e in events if e["type"] == "move_cut_short"]
    assert len(cut) == 1 and cut[0]["at"] == [11, 1]
    assert at(b, "ana") == Pos(11, 1)
    assert max(standing_cells(b).values()) == 1


def test_R_M5_R_K2_an_incapacitated_creature_holds_no_cell_for_itself() -> None:
    """R-M5, R-K2: an Incapacitated creature is down: others may pass and stop in its cell,
    and a prone creature there may stand up."""
    from sim.core.events import ConditionGained
    from sim.play.apply import apply

    text = scenario_text(
        "....\n.ab.\n...c",
        "\n".join(
            [creature("ana", "blue", "a"), creature("bob", "red", "b"), creature("cy", "red", "c")]
        ),
    )
    b = battle(text, [8, 7, 6])
    apply(b.world, ConditionGained("bob", Condition.INCAPACITATED, 1))
    events = accepted(b, unit="ana", action="walk", path=[[2, 1]])
    assert events[-1]["type"] == "moved" and events[-1]["end"] == [2, 1]
