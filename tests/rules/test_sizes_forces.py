"""Issue #32, large creatures under forces (R-Z1, R-Z2 with R-X15, R-M4, R-M9 and R-Z5), as
transcripts with loaded dice: a shoved ogre moves its whole footprint, straight away from the
shover's centre, stopped by whatever one of the cells it enters meets; its footprint's highest
ground and deepest water decide falls and swimming; a 2x2 flier flies over a pit, is stopped
by walls only, and falls when downed with any of its cells over the pit.

Every small creature is tests/movers.BASE (a human 1.8 m tall, STR d8+6); the ogre and the
brute are the same stat block with `size = 2`. Shoving the ogre, ana's roll takes 5 (R-Z4);
the brute, its equal, shoves it with no modifier.
"""

from __future__ import annotations

from typing import Any

from sim.core.creature import cells_of
from sim.core.geometry import Pos
from sim.play.odds import shove_landings
from tests.helpers import accepted, conditions_of, hp, refused, rolls
from tests.movers import begin, creature, legend, legs
from tests.rules.test_sizes import ogre


def brute(at: list[int], team: str = "blue", **keys: object) -> str:
    """A second size-2 creature, the ogre's equal, at the cell [x, y]."""
    text = creature("brute", team, "o", **({"size": 2} | keys))
    return text.replace('at = "o"', f"at = [{at[0]}, {at[1]}]")


def pushes(events: list[dict[str, Any]]) -> list[list[int]]:
    """Where each Pushed event left its creature's top-left."""
    return [e["end"] for e in events if e["type"] == "pushed"]


def stops(events: list[dict[str, Any]]) -> list[str]:
    return [e["reason"] for e in events if e["type"] == "move_cut_short"]


# A wall at (1,2), a pit at (7,2); the ogre's top-left at (4,1): its cells (4,1), (5,1), (4,2),
# (5,2).
OPEN = """
..........
..........
.#.....b..
..........
"""


def test_R_Z2_a_shoved_ogre_moves_its_whole_footprint_until_a_wall_meets_one_entered_cell() -> None:
    """R-X15 with R-Z2: ana (6,2) beats the ogre (her 8 + 6 - 5 = 9 against its 1 + 6 = 7) and
    pushes it 4 m west, all four cells a cell at a time: (3,1), (2,1); the next step would
    put its lower-left cell on the wall at (1,2), though its top-left (1,1) is open. It keeps
    its feet (8 + 6 = 14 against 9)."""
    b = begin(
        OPEN.replace("b", "."),
        creature("ana", "blue", "a").replace('"a"', "[6, 2]"),
        ogre(at=[4, 1]),
        dice=(8, 1, 8),
    )
    events = accepted(b, unit="ana", action="shove", target="ogre")
    assert pushes(events) == [[3, 1], [2, 1]]
    assert stops(events) == ["the push stopped at the wall at (1,2)"]
    assert cells_of(b.world, "ogre") == (Pos(2, 1), Pos(3, 1), Pos(2, 2), Pos(3, 2))
    assert rolls(events)[-1] == ("ogre", "keep its feet: STR Save against 9", 8, 14)


def test_R_Z2_a_creature_on_any_entered_cell_stops_the_push_and_a_pit_stops_a_walker() -> None:
    """R-X15 with R-Z2: bob stands at (2,2), under the ogre's lower-left cell's path: the push
    stops after one cell, at him. Pushed east instead (ana at (3,1)), the ogre's cells would
    enter the pit at (7,2) with its lower-right cell on the second step: it stops there."""
    b = begin(
        OPEN.replace("b", "."),
        creature("ana", "blue", "a").replace('"a"', "[6, 2]"),
        ogre(at=[4, 1]),
        creature("bob", "red", "a").replace('"a"', "[2, 2]"),
        dice=(8, 1, 8),
    )
    events = accepted(b, unit="ana", action="shove", target="ogre")
    assert pushes(events) == [[3, 1]]
    assert stops(events) == ["the push stopped at bob at (2,2)"]
    b = begin(
        OPEN.replace("b", "_"),
        creature("ana", "blue", "a").replace('"a"', "[3, 1]"),
        ogre(at=[4, 1]),
        dice=(8, 1, 8),
    )
    events = accepted(b, unit="ana", action="shove", target="ogre")
    assert pushes(events) == [[5, 1]]
    assert stops(events) == ["the push stopped at the pit at (7,2)"]


def test_R_X15_a_large_creature_is_pushed_away_from_the_shovers_centre_to_its_own() -> None:
    """R-X15 with R-Z1: ana at (2,0), above the ogre's right-hand column ((1,1) to (2,2)),
    pushes it straight south (from her cell to its middle), not south-west as its top-left
    (1,1) would have it."""
    rows = """
    ......
    ......
    ......
    ......
    ......
    ......
    """
    b = begin(
        rows, creature("ana", "blue", "a").replace('"a"', "[2, 0]"), ogre(at=[1, 1]), dice=(8, 1, 8)
    )
    events = accepted(b, unit="ana", action="shove", target="ogre")
    assert pushes(events) == [[1, 2], [1, 3], [1, 4]]
    assert stops(events) == ["the push stopped at the edge of the map at (1,6)"]


# A 3 m plateau (H) from x = 4 on; the ogre's top-left at (4,1), all its cells on it.
PLATEAU = """
....HHHH
....HHHH
....HHHH
....HHHH
"""


def test_R_Z2_the_footprints_highest_ground_decides_when_a_pushed_ogre_falls() -> None:
    """R-X15, R-M4 with R-Z2: the brute (6,1) pushes the ogre west off the plateau. At (3,1) its
    right-hand cells are still on the 3 m ground, the highest of its footprint: no drop. At
    (2,1) every cell is 3 m down, more than its 1.8 m: it falls, lands Prone and takes 2
    crushing damage (one full metre above its height); the push ends there, no save."""
    b = begin(PLATEAU, brute([6, 1]), ogre(at=[4, 1]), dice=(8, 1), extra=legend(H={"height": 3}))
    before = hp(b, "ogre")
    events = accepted(b, unit="brute", action="shove", target="ogre")
    assert pushes(events) == [[3, 1], [2, 1]]
    assert [e["metres"] for e in events if e["type"] == "fell"] == [3]
    assert hp(b, "ogre") == before - 2
    assert conditions_of(b, "ogre") == {"prone": 1}
    assert [r[1] for r in rolls(events)] == [
        "shove ogre: STR Contest",
        "resist brute's shove: STR Contest",
    ]


def test_R_Z2_the_footprints_deepest_water_decides_when_a_pushed_ogre_swims() -> None:
    """R-X15, R-M9 with R-Z2: water 2 m deep (W, over the ogre's 1.8 m) from x = 2 on row 2
    only. Pushed west by the brute from (4,1), the ogre's lower-left cell enters it at (3,2):
    the deepest water of its footprint is over its head, it swims, and the push ends."""
    rows = """
    ........
    ........
    ..WW....
    ........
    """
    b = begin(rows, brute([6, 1]), ogre(at=[4, 1]), dice=(8, 1), extra=legend(W={"water": 2}))
    events = accepted(b, unit="brute", action="shove", target="ogre")
    assert pushes(events) == [[3, 1]]
    assert conditions_of(b, "ogre") == {"swimming": 1}


# --- a large flier (R-Z5 with R-Z2) --------------------------------------------------------------

# A 2x2 pit from (3,2) to (4,3), a wall at (7,1).
CHASM = """
..........
.......#..
...__.....
...__.....
..........
.........a
"""


def test_R_Z5_a_2x2_flier_flies_over_a_pit_and_only_walls_stop_its_footprint() -> None:
    """R-Z5 with R-Z2: the ogre flying (fly 9: Walk 3 m, Run 9 m) from (1,1) moves its
    footprint over the pit, to (2,2) (its cells (3,2) and (3,3) over the pit) and on to (3,2),
    every cell over it; a walker of its size is refused the first step. Its flight to (6,1)
    would put its cell (7,1) on the wall: refused."""
    b = begin(CHASM, ogre(at=[1, 1], fly=9), creature("ana", "blue", "a"))
    path = [[2, 1], [3, 1], [4, 1], [5, 1], [6, 1]]
    assert refused(b, unit="ogre", action="run", path=path) == (
        "(6,1) (its 2x2 cells): a wall (R-U1) (R-Z2)"
    )
    events = accepted(b, unit="ogre", action="walk", path=[[2, 2], [3, 2]])
    assert legs(events) == [("moved", [2, 2], 3), ("moved", [3, 2], 2)]
    assert cells_of(b.world, "ogre") == (Pos(3, 2), Pos(4, 2), Pos(3, 3), Pos(4, 3))
    walker = begin(CHASM, ogre(at=[1, 1]), creature("ana", "blue", "a"))
    assert refused(walker, unit="ogre", action="walk", path=[[2, 2]]) == (
        "(2,2) (its 2x2 cells): a pit; jump across it (R-M6) (R-Z2)"
    )


def test_R_Z5_a_2x2_flier_with_one_cell_over_the_pit_falls_when_shoved_prone() -> None:
    """R-Z5 with R-Z2: the flying ogre's top-left (2,1) is on open ground, its cell (3,2) over
    the pit. The brute (0,1) pushes it 2 m east, through the air, to (4,1), where its top-left
    is over open ground again but its cell (4,2) over the pit; it fails its save (1 + 6 = 7
    against 10) and falls 3 m from the air: Prone, 2 crushing damage (one full metre above its
    1.8 m). The odds of the shove foresee the fall wherever a cell ends over the pit, and the
    wall at (7,1) stopping a longer push."""
    b = begin(CHASM.replace("a", "."), brute([0, 1]), ogre(at=[2, 1], fly=9), dice=(4, 1, 1))
    forecast = shove_landings(b.world, "brute", "ogre")
    before = hp(b, "ogre")
    events = accepted(b, unit="brute", action="shove", target="ogre")
    assert pushes(events) == [[3, 1], [4, 1]]
    assert rolls(events)[-1] == ("ogre", "keep its feet: STR Save against 10", 1, 7)
    assert [e["type"] for e in events if e["type"] in ("fell", "condition_gained")][:2] == [
        "condition_gained",
        "fell",
    ]
    assert hp(b, "ogre") == before - 2
    assert conditions_of(b, "ogre") == {"prone": 1}
    assert [(x.cells[-1], x.happens) for x in forecast] == [
        (Pos(3, 1), "if the save fails, falls 3 m into the pit"),
        (Pos(4, 1), "if the save fails, falls 3 m into the pit"),
        (Pos(5, 1), "stopped at the wall at (7,1)"),
    ]
