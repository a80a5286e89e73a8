"""R-U: units and the grid — cells, neighbours, half-metre distances, rounding, rounds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sim.content.scenario import ScenarioError, loads
from sim.core.components import Position
from sim.core.events import TurnStarted
from sim.core.geometry import Pos, floor_half, half_metres, is_diagonal, metres
from sim.core.numbers import default_rules
from tests.helpers import accepted, battle, end_turns, refused, scenario_text, types, unit


def test_R_U1_cells_are_x_right_y_down_from_the_top_left() -> None:
    """R-U1: "Positions are cells (x, y), x to the right, y downwards, (0, 0) top-left."

    A unit drawn in the ASCII map at column 3 of row 1 stands in cell (3, 1).
    """
    text = scenario_text(
        """
        #####
        #..a#
        #b..#
        #####
        """,
        unit("ana", "blue", "human_fighter", "a") + "\n" + unit("bo", "red", "orc_brute", "b"),
    )
    world = loads(text).world
    assert world.need("ana", Position).cell == Pos(3, 1)
    assert world.need("bo", Position).cell == Pos(1, 2)
    assert (world.grid.width, world.grid.height) == (5, 4)
    assert world.grid.kind(Pos(0, 0)).name == "WALL"


def test_R_U1_a_cell_has_eight_neighbours() -> None:
    """R-U1: "Moves go to any of the 8 neighbours." — the four sides and the four corners."""
    centre = Pos(5, 5)
    assert set(centre.neighbours()) == {
        Pos(4, 4), Pos(5, 4), Pos(6, 4),
        Pos(4, 5),            Pos(6, 5),
        Pos(4, 6), Pos(5, 6), Pos(6, 6),
    }  # fmt: skip
    assert len(centre.neighbours()) == 8
    assert all(centre.is_adjacent(n) for n in centre.neighbours())
    assert not centre.is_adjacent(centre)
    assert not centre.is_adjacent(Pos(7, 5))  # two cells away is not a neighbour
    assert not centre.is_adjacent(Pos(3, 3))


def test_R_U1_cells_are_one_metre() -> None:
    """R-U1: "The map is a grid of 1 m cells." — one cell is two half-metres (R-U2)."""
    rules = default_rules()
    assert rules.grid.cell_metres == 1
    assert half_metres(rules.grid.cell_metres) == 2


@pytest.mark.parametrize(
    ("a", "b", "diagonal", "half"),
    [
        (Pos(2, 2), Pos(3, 2), False, 2),  # east: 1 m
        (Pos(2, 2), Pos(2, 1), False, 2),  # north: 1 m
        (Pos(2, 2), Pos(3, 3), True, 3),  # south-east: 1.5 m
        (Pos(2, 2), Pos(1, 1), True, 3),  # north-west: 1.5 m
    ],
)
def test_R_U2_orthogonal_moves_are_1_m_and_diagonal_moves_1_5_m(
    a: Pos, b: Pos, diagonal: bool, half: int
) -> None:
    """R-U2: "An orthogonal move is 1 m, a diagonal move 1.5 m." — in whole half-metres."""
    rules = default_rules()
    assert is_diagonal(a, b) is diagonal
    grid = rules.grid
    assert (grid.diagonal_half_metres if diagonal else grid.orthogonal_half_metres) == half
    assert metres(half) == (1.5 if diagonal else 1.0)


def test_R_U2_distances_are_integer_half_metres_so_sums_are_exact() -> None:
    """R-U2: "Keep distances in integer half-metres inside the engine, so all arithmetic is
    exact." — three diagonals and a side are exactly 5.5 m, with no float drift."""
    rules = default_rules()
    diagonal = rules.grid.diagonal_half_metres
    orthogonal = rules.grid.orthogonal_half_metres
    path = 3 * diagonal + orthogonal
    assert isinstance(path, int)
    assert path == 11
    assert metres(path) == 5.5
    assert half_metres(0.1 + 0.2) == half_metres(0.3) == 0


def test_R_U2_map_heights_and_depths_are_kept_in_half_metres() -> None:
    """R-U2: terrain heights and water depths are stored as whole half-metres; a depth that is
    not a whole number of half-metres is refused when the scenario loads."""
    units = unit("ana", "blue", "human_fighter", "a")
    text = scenario_text(
        """
        a~=
        """,
        units,
        extra='[legend]\n"=" = { kind = "open", height = 1.5 }\n',
    )
    grid = loads(text).world.grid
    assert grid.water_half(Pos(1, 0)) == 2  # "~" is 1 m of water
    assert grid.ground_half(Pos(2, 0)) == 3  # a 1.5 m rise

    bad = scenario_text("a=", units, extra='[legend]\n"=" = { kind = "open", water = 0.3 }\n')
    with pytest.raises(ScenarioError) as error:
        loads(bad, "bad.toml")
    assert "water must be 0 or more in half-metre steps, not 0.3" in str(error.value)


@pytest.mark.parametrize(
    ("formula", "value", "rounded"),
    [
        ("Speed/3 for Speed 9", Fraction(9, 3), Fraction(3)),
        ("Speed/3 for Speed 10 (3.33 m)", Fraction(10, 3), Fraction(3)),
        ("Speed/3 for Speed 8 (2.67 m)", Fraction(8, 3), Fraction(5, 2)),
        ("Speed/3 for Speed 7 (2.33 m)", Fraction(7, 3), Fraction(2)),
        ("AGI Bonus/4 for Bonus 7 (1.75 m)", Fraction(7, 4), Fraction(3, 2)),
        ("AGI Bonus/4 for Bonus 6 (1.5 m)", Fraction(6, 4), Fraction(3, 2)),
        ("AGI Bonus/10 for Bonus 9 (0.9 m)", Fraction(9, 10), Fraction(1, 2)),
        ("AGI Bonus/10 for Bonus 4 (0.4 m)", Fraction(4, 10), Fraction(0)),
    ],
)
def test_R_U4_allowances_round_down_to_the_half_metre(
    formula: str, value: Fraction, rounded: Fraction
) -> None:
    """R-U4: "Every allowance computed from a formula (Speed/3, AGI Bonus/4, ...) is rounded
    down to the half-metre." — never up, even at 2.67 m or 0.9 m."""
    assert floor_half(value) == rounded, formula
    assert half_metres(value) == rounded * 2, formula


def test_R_U5_a_round_is_six_seconds_and_every_creature_takes_one_turn_in_it() -> None:
    """R-U5: "A round is about 6 seconds. Every creature takes one turn a round."

    Three creatures (initiative 5+4, 3+3 and 1+5) each take one turn in round 1, in initiative
    order, and only then does round 2 begin, with the first of them again.
    """
    assert default_rules().round.seconds == 6
    text = scenario_text(
        "a.b.c",
        "\n".join(
            [
                unit("ana", "blue", "human_fighter", "a"),  # AGI d8+4
                unit("bo", "red", "orc_brute", "b"),  # AGI d6+3
                unit("cy", "red", "elf_skirmisher", "c"),  # AGI d10+6
            ]
        ),
    )
    b = battle(text, [5, 3, 1])  # ana 9, bo 6, cy 7
    assert b.world.turn.order == ("ana", "cy", "bo")
    end_turns(b, "ana", "cy", "bo")
    started = [(e.unit, e.round) for e in b.log if isinstance(e, TurnStarted)]
    assert started == [("ana", 1), ("cy", 1), ("bo", 1), ("ana", 2)]
    assert types(b.log).count("round_started") == 2
    assert b.world.turn.round == 2


CORNER = """
#####
#a#.#
#...#
#####
"""


def test_R_U2_a_walk_pays_2_half_metres_a_side_and_3_a_diagonal() -> None:
    """R-U2 in play: ana walks (1,1) -> (1,2), an orthogonal move of 1 m, then (1,2) -> (2,1)
    diagonally past open corners, 1.5 m."""
    text = scenario_text(
        """
        #####
        #a..#
        #...#
        #####
        """,
        unit("ana", "blue", "human_fighter", "a"),
    )
    b = battle(text, [5])
    events = accepted(b, unit="ana", action="walk", path=[[1, 2], [2, 1]])
    moves = [(e["start"], e["end"], e["cost"]) for e in events if e["type"] == "moved"]
    assert moves == [([1, 1], [1, 2], 2), ([1, 2], [2, 1], 3)]


def test_R_U3_a_diagonal_may_not_cut_the_corner_of_a_wall() -> None:
    """R-U3: "A diagonal move may not cut the corner of a wall: both orthogonal neighbours it
    passes between must be enterable." — from (1,1) to (2,2) passes the wall at (2,1): refused,
    with the corner named; going round by (1,2) is fine."""
    b = battle(scenario_text(CORNER, unit("ana", "blue", "human_fighter", "a")), [5])
    reason = refused(b, unit="ana", action="walk", path=[[2, 2]])
    assert "cut the corner at (2,1)" in reason
    assert "R-U3" in reason
    accepted(b, unit="ana", action="walk", path=[[1, 2], [2, 2]])
    assert b.world.need("ana", Position).cell == Pos(2, 2)
