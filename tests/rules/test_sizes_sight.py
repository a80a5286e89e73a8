"""Issue #32, line of sight, ranges and cover to and from a large creature (R-A5, R-C7, R-X8
with R-Z3), as transcripts: a creature sees and aims at an ogre when a line from one of its
cells to one of the ogre's is clear, ranges count from the nearest cells, and an ogre has cover
only when every line to it does.

Every creature is tests/movers.BASE (a human, no reactions); the ogre is BASE at size 2; ana
holds a shortbow (24 m) where a test says so.
"""

from __future__ import annotations

from sim.core.actions import Attack, Hide
from sim.core.geometry import Pos
from sim.rules.combat.attack import AttackPlan, plan_attack
from sim.rules.combat.hide import check_hide, in_plain_sight
from sim.rules.reach.sight import creature_distance_half, sight_lines
from tests.helpers import refused
from tests.movers import begin, creature
from tests.rules.test_sizes import ogre

# A wall at (2,0): it blocks the line from ana (0,0) to the ogre's top-left (4,1), not the one
# to its lower-left cell (4,2).
WALLED = """
a.#.....
........
........
........
"""


def test_R_Z3_ana_shoots_the_ogre_through_the_one_clear_line_to_a_cell_of_it() -> None:
    """R-A5 with R-Z3: the line to (4,1) passes the wall at (2,0); the one to (4,2) is clear, so
    ana's shortbow aims at the ogre."""
    b = begin(WALLED, creature("ana", "blue", "a", held=["shortbow"]), ogre(at=[4, 1]))
    assert plan_attack(b.world, Attack("ana", "ogre")) == AttackPlan("ana.shortbow", False)
    lines = sight_lines(b.world, "ana", "ogre")
    assert lines[0] == (Pos(0, 0), Pos(4, 1))  # the nearest line first: 4.5 m


def test_R_Z3_when_every_line_to_the_ogre_is_walled_the_nearest_ones_wall_is_named() -> None:
    """R-A5 with R-Z3: a wall down column 2 blocks every line; the refusal names the wall on the
    nearest line, to the ogre's top-left (4,1)."""
    rows = WALLED.replace("\n..", "\n..").splitlines()
    walled = "\n".join(r[:2] + "#" + r[3:] if r else r for r in rows)
    b = begin(walled, creature("ana", "blue", "a", held=["shortbow"]), ogre(at=[4, 1]))
    assert refused(b, unit="ana", action="attack", target="ogre") == (
        "no line of sight to ogre: the wall at (2,0) blocks it (R-A5)"
    )


def test_R_Z3_a_range_counts_to_the_ogres_nearest_cell() -> None:
    """R-C7 with R-Z3: ana at (27,1) with a 24 m shortbow; the ogre's nearest cell, (3,1), is
    24 m away (its top-left (2,0) 25 m): in range. One cell further west it is 25 m: refused
    with that distance."""
    rows = "\n".join(["." * 29, "." * 27 + "a.", "." * 29])
    b = begin(rows, creature("ana", "blue", "a", held=["shortbow"]), ogre(at=[2, 0]))
    assert creature_distance_half(b.world, "ana", "ogre") == 48
    assert plan_attack(b.world, Attack("ana", "ogre")) == AttackPlan("ana.shortbow", False)
    b = begin(rows, creature("ana", "blue", "a", held=["shortbow"]), ogre(at=[1, 0]))
    assert refused(b, unit="ana", action="attack", target="ogre") == (
        "ogre is 25 m away; shortbow reaches 24 m (R-C7)"
    )


def test_R_Z3_the_ogre_shoots_from_the_one_cell_of_it_that_sees_ana() -> None:
    """R-A5 with R-Z3, the other way: the ogre (a shortbow) at (4,1) sees ana from its cell
    (4,2) past the wall at (2,0)."""
    b = begin(WALLED, ogre(at=[4, 1], held=["shortbow"]), creature("ana", "blue", "a"))
    assert plan_attack(b.world, Attack("ogre", "ana")) == AttackPlan("ogre.shortbow", False)


# Cover (%) on the ogre's upper cells (4,1) and (5,1); ana at (0,4).
COVER = """
........
....%%..
........
........
a.......
"""


def test_R_Z3_an_ogre_half_in_cover_is_in_plain_sight_and_may_not_hide() -> None:
    """R-X8 with R-Z3: two of its cells are in cover, but ana sees (4,2) and (5,2) in the open:
    it is in plain sight and Hide is refused. On four cover cells it may hide."""
    b = begin(COVER, ogre(at=[4, 1]), creature("ana", "blue", "a"))
    assert in_plain_sight(b.world, "ogre", "ana")
    reason = refused(b, unit="ogre", action="hide")
    assert reason.startswith("ogre is in plain sight of ana: hiding needs cover terrain")
    covered = COVER.replace("\n........\n........\na", "\n....%%..\n........\na")
    assert covered.count("%") == 4
    b = begin(covered, ogre(at=[4, 1]), creature("ana", "blue", "a"))
    assert not in_plain_sight(b.world, "ogre", "ana")
    assert check_hide(b.world, Hide("ogre")) is None
