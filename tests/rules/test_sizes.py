"""Issue #32, large creatures (R-Z1..R-Z4) as transcripts with loaded dice: a size-2 ogre stands
on its 2x2 cells from its top-left Position, moves its whole footprint, reaches and threatens
from every cell, and Shove, Trip and Grapple weigh sizes.

Every small creature is tests/movers.BASE (a human 1.8 m tall, STR d8+6, AGI d8+8, FCS d8+6,
RES d10+5, reaction policy "never"); the ogre is the same stat block with `size = 2` unless a
test says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from sim.ai.chooser import AI
from sim.content.scenario import ScenarioError, load, loads
from sim.content.tiled import to_scenario, write_tmx
from sim.core.actions import Attack, EndTurn, Grapple, Refusal, Run, Shove, Walk
from sim.core.components import Position, Size
from sim.core.creature import cells_of, lying, side
from sim.core.geometry import Pos, footprint
from sim.formats.state import unit_state
from sim.play.engine import AwaitingAction
from sim.play.legal import legal_decisions
from sim.play.odds import grapple_action_chance, shove_chance
from sim.rules.movement.footing import standing_at
from sim.rules.movement.movement import plan_move
from sim.rules.reach.opportunity import provocations
from sim.rules.reach.reachmap import reach_map
from sim.rules.reach.threat import reaches, threatened
from sim.ui.model.planner import who_can_hit
from tests.helpers import (
    _toml,
    accept,
    accepted,
    conditions_of,
    refused,
    rolls,
    scenario_text,
    seeded_battle,
)
from tests.movers import begin, creature, legs

# o: the ogre's top-left cell; a: ana.
FIELD = """
........
.o......
........
....a...
........
"""


# A template of the scenario's own content of size 2 (R-Z1).
BRUTE = """
[templates.brute]
race = "orc"
size = 2
str = "d10+8"
agi = "d6+4"
fcs = "d6+4"
res = "d10+8"
"""


def ogre(at: str | list[int] = "o", team: str = "red", **keys: object) -> str:
    """The ogre's [[units]] table: BASE at size 2, at a marker or a cell [x, y]."""
    text = creature("ogre", team, "o", **({"size": 2} | keys))
    return text.replace('at = "o"', f"at = {_toml(at)}")


def problems(rows: str, *units: str, extra: str = "") -> list[str]:
    """Each problem as "KEY LINE: message", KEY the text of the line the problem names."""
    text = scenario_text(rows, "\n".join(units), extra)
    with pytest.raises(ScenarioError) as error:
        loads(text, "big.toml")
    lines = text.splitlines()
    return [f"{lines[p.line - 1].strip()}: {p.message}" for p in error.value.problems]


# --- R-Z1 size and footprint ---------------------------------------------------------------------


def test_R_Z1_a_size_2_creature_stands_on_its_2x2_cells_and_holds_each_of_them() -> None:
    """R-Z1: the ogre's Position (1,1) is its footprint's top-left; it stands on (1,1), (2,1),
    (1,2) and (2,2), and R-M5 holds for each: ana finds it standing on every one."""
    b = begin(FIELD, ogre(), creature("ana", "blue", "a"))
    assert side(b.world, "ogre") == 2 and b.world.need("ogre", Size) == Size(2)
    assert cells_of(b.world, "ogre") == (Pos(1, 1), Pos(2, 1), Pos(1, 2), Pos(2, 2))
    held = standing_at(b.world, "ana")
    assert [held.get(c) for c in (Pos(1, 1), Pos(2, 1), Pos(1, 2), Pos(2, 2))] == ["ogre"] * 4
    assert held.get(Pos(3, 1)) is None and held.get(Pos(0, 0)) is None
    assert side(b.world, "ana") == 1 and cells_of(b.world, "ana") == (Pos(4, 3),)
    assert unit_state(b.world, "ogre")["size"] == 2 and "size" not in unit_state(b.world, "ana")


def test_R_Z1_size_comes_from_a_race_or_a_template_and_a_unit_may_override_it() -> None:
    """R-Z1: a race of the scenario's own content says `size = 3`; a template based on it is
    size 3; a unit of that template saying `size = 1` is one cell."""
    extra = """
    [races.giant]
    speed = 12
    height = 4.5
    size = 3
    [templates.hill_giant]
    race = "giant"
    str = "d12+10"
    agi = "d6+4"
    fcs = "d6+4"
    res = "d12+10"
    """
    rows = """
    ......
    .g....
    ......
    ......
    ....s.
    """
    units = """
    [[units]]
    id = "grum"
    team = "red"
    template = "hill_giant"
    at = "g"
    [[units]]
    id = "runt"
    team = "red"
    template = "hill_giant"
    size = 1
    at = "s"
    """
    world = loads(scenario_text(rows, units, extra), "giants.toml").world
    assert side(world, "grum") == 3 and len(cells_of(world, "grum")) == 9
    assert side(world, "runt") == 1 and not world.has("runt", Size)


@pytest.mark.parametrize("size", [0, 4, "2", 1.5, True])
def test_R_Z1_a_size_that_is_not_1_2_or_3_is_refused_with_its_line(size: object) -> None:
    found = problems(FIELD, ogre(size=size), creature("ana", "blue", "a"))
    written = _toml(size)
    assert found == [
        f"size = {written}: size must be one of 1, 2, 3 (cells a side, R-Z1), not {written}"
    ]


def test_R_Z1_a_race_with_a_bad_size_is_refused_with_its_line() -> None:
    extra = """
    [races.blob]
    speed = 6
    height = 1.0
    size = 5
    """
    found = problems(FIELD, ogre(), creature("ana", "blue", "a"), extra=extra)
    assert found == [
        "size = 5: races.blob: size must be one of 1, 2, 3 (cells a side, R-Z1), not 5"
    ]


def test_R_Z1_a_footprint_off_the_map_on_a_wall_or_on_another_creature_is_refused() -> None:
    """R-Z1: placed at (6,3) of an 8-wide, 5-high map, the ogre's cells run to (7,4): it fits;
    at (7,3) they go off the map; over a wall or over ana they are refused, with the unit's
    line; two creatures on one cell name R-M5 with R-Z1."""
    rows = """
    ........
    ......#.
    ....a...
    ........
    ........
    """
    ana = creature("ana", "blue", "a")
    assert side(begin(rows, ogre(at=[6, 3]), ana).world, "ogre") == 2
    assert problems(rows, ogre(at=[7, 3]), ana) == [
        "at = [7, 3]: unit 'ogre' is size 2: its 2x2 cells from (7,3) go off the 8x5 map at "
        "(8,3) (R-Z1)"
    ]
    assert problems(rows, ogre(at=[5, 0]), ana) == [
        "at = [5, 0]: unit 'ogre' is size 2: its cell (6,1) is wall (R-Z1)"
    ]
    assert problems(rows, ogre(at=[3, 1]), ana) == [
        "at = \"a\": 'ana' and 'ogre' both stand in (4,2) (R-M5, R-Z1)"
    ]


def test_R_Z1_tiled_export_and_import_keep_sizes_and_the_scenarios_content(tmp_path: Path) -> None:
    """R-Z1: a unit's `size` and a template's (in the scenario's own content) survive the trip
    through a Tiled map: the world read back is the world written."""
    extra = BRUTE
    units = ogre() + "\n" + creature("ana", "blue", "a") + '\n[[units]]\nid = "brute"\n'
    units += 'team = "red"\ntemplate = "brute"\nat = [5, 0]\n'
    path = tmp_path / "big.toml"
    path.write_text(scenario_text(FIELD, units, extra))
    write_tmx(path, tmp_path / "big.tmx")
    text, warnings = to_scenario(tmp_path / "big.tmx")
    assert warnings == []
    before, after = load(path).world, loads(text).world
    assert after == before
    assert side(after, "ogre") == 2 and side(after, "brute") == 2 and side(after, "ana") == 1


# --- R-Z2 moving a footprint ---------------------------------------------------------------------

# The ogre's top-left at o (1,1); difficult ground at (3,2), a wall at (5,1), a pit at (2,4).
GROUND = """
.........
.o...#...
...,.....
.........
.._......
.......a.
"""


def test_R_Z2_each_move_shifts_the_whole_footprint_and_costs_as_its_costliest_cell() -> None:
    """R-Z2: one step east moves all four cells; the cell (3,2) it enters is difficult, so the
    1 m step costs 2 m (R-M2); a step north-east then moves its top-left to (3,0)."""
    b = begin(GROUND, ogre(), creature("ana", "blue", "a"))
    events = accepted(b, unit="ogre", action="walk", path=[[2, 1]])
    assert legs(events) == [("moved", [2, 1], 4)]
    assert cells_of(b.world, "ogre") == (Pos(2, 1), Pos(3, 1), Pos(2, 2), Pos(3, 2))
    assert standing_at(b.world, "ana").get(Pos(3, 2)) == "ogre"
    assert standing_at(b.world, "ana").get(Pos(1, 1)) is None
    events = accepted(b, unit="ogre", action="walk", path=[[3, 0]])
    assert legs(events) == [("moved", [3, 0], 6)]  # 1.5 m, doubled: it leaves (3,2)


def test_R_Z2_every_cell_entered_must_be_enterable_and_the_refusal_says_which() -> None:
    """R-Z2: from (1,1), moving the top-left to (4,1) would put a cell on the wall at (5,1);
    to (1,3) a cell on the pit at (2,4). One cell to the map's edge is off the map."""
    b = begin(GROUND, ogre(), creature("ana", "blue", "a"))
    assert refused(b, unit="ogre", action="walk", path=[[2, 1], [3, 1], [4, 1]]) == (
        "(4,1) (its 2x2 cells): a wall (R-U1) (R-Z2)"
    )
    assert refused(b, unit="ogre", action="walk", path=[[1, 2], [1, 3]]) == (
        "(1,3) (its 2x2 cells): a pit; jump across it (R-M6) (R-Z2)"
    )


def test_R_Z2_a_diagonal_obeys_the_corner_rule_for_each_footprint_cell() -> None:
    """R-U3 per footprint cell: from (3,3) the ogre's step south-east to (4,4) enters (4,4),
    (5,4), (4,5) and (5,5), all open; but its cell (4,3) would pass between (5,3), a wall, and
    (4,4): refused. South, then east, goes round."""
    rows = """
    .........
    .........
    .........
    .....#...
    .........
    .........
    a........
    """
    b = begin(rows, ogre(at=[3, 3]), creature("ana", "blue", "a"))
    assert refused(b, unit="ogre", action="walk", path=[[4, 4]]) == (
        "(4,4) (its 2x2 cells): the diagonal would cut the corner at (4,3) (its 2x2 cells) "
        "(R-U3) (R-Z2)"
    )
    events = accepted(b, unit="ogre", action="walk", path=[[3, 4], [4, 4]])
    assert legs(events) == [("moved", [3, 4], 2), ("moved", [4, 4], 2)]


def test_R_Z2_the_compiled_search_moves_the_footprint_round_walls_and_creatures() -> None:
    """R-Z2 in the reach map (the compiled search): every top-left it offers the ogre puts its
    four cells on open ground clear of ana and the wall, and the move check accepts each at the
    cost the map shows; a Run "to" (4,3) goes round the wall at (5,1) and is priced as walked."""
    b = begin(GROUND, ogre(), creature("ana", "blue", "a"))
    world = b.world
    found = reach_map(world, "ogre", (Walk, Run))
    offered = list(found)
    assert Pos(6, 4) not in offered and Pos(7, 5) not in offered  # over ana at (7,5)
    assert Pos(4, 1) not in offered and Pos(5, 0) not in offered  # over the wall at (5,1)
    assert Pos(1, 3) not in offered and Pos(2, 3) not in offered  # over the pit at (2,4)
    assert Pos(8, 0) not in offered  # its right-hand cells off the map
    assert Pos(6, 2) in offered and Pos(0, 0) in offered
    for cell in offered:
        kind = Walk if found[cell].action == "walk" else Run
        plan = plan_move(world, kind("ogre", to=cell))
        assert not isinstance(plan, Refusal), (cell, plan)
        assert plan.cost == found[cell].cost
    plan = plan_move(world, Run("ogre", to=Pos(6, 2)))
    assert not isinstance(plan, Refusal)
    assert all(Pos(5, 1) not in footprint(leg.end, 2) for leg in plan.legs)


# --- R-Z3 reach and distance ---------------------------------------------------------------------

NEAR = """
.......
.o.....
.......
...a...
.......
"""


def test_R_Z3_distances_count_from_the_nearest_footprint_cell_and_it_threatens_from_each() -> None:
    """R-Z3: ana at (3,3) is next to the ogre's cell (2,2): each reaches the other; one cell
    further, at (4,3), she is 2 m from its nearest cell and out of her reach. The ogre
    threatens the ring of cells round all four of its cells and no other."""
    b = begin(NEAR, ogre(), creature("ana", "blue", "a"), dice=(5, 3))
    world = b.world
    assert reaches(world, "ana", Pos(3, 3), Pos(1, 1))  # its top-left: the creature there
    assert reaches(world, "ogre", Pos(1, 1), Pos(3, 3))
    assert not reaches(world, "ana", Pos(4, 3), Pos(1, 1))
    assert not reaches(world, "ogre", Pos(1, 1), Pos(4, 3))
    ring = {Pos(x, y) for x in range(4) for y in range(4)} - set(cells_of(world, "ogre"))
    assert set(threatened(world, "ogre")) == ring
    events = accepted(b, unit="ogre", action="attack", target="ana")
    assert [(e["unit"], e["result"]) for e in events if e["type"] == "rolled"] == [
        ("ogre", 5),
        ("ana", 3),
    ]


def test_R_Z3_the_hover_tip_weighs_a_large_mover_at_its_end_and_a_small_one_in_an_empty_cell() -> (
    None
):
    """R-Z3 on screen: "ends in reach of" for the ogre ending a move with its top-left at (1,1)
    counts ana at (3,3), who reaches its cell (2,2); the same cell for one of ours a cell wide
    does not (she is 2 m from it) — even where that cell is the top-left of an ogre standing
    there now, which is no creature of ours. Nobody counts as hitting a cell it stands on."""
    b = begin(NEAR, ogre(), creature("ana", "blue", "a"))
    world = b.world
    assert who_can_hit(world, Pos(1, 1), None, wide=2, mover="ogre") == ("ana",)
    assert who_can_hit(world, Pos(1, 1), None) == ()
    assert who_can_hit(world, Pos(2, 3), None) == ("ogre", "ana")
    assert who_can_hit(world, Pos(2, 2), None) == ("ana",)  # the ogre's own cell: not the ogre


def test_R_Z3_it_leaves_reach_only_when_no_footprint_cell_is_left_in_it() -> None:
    """R-R4 with R-Z3: ana at (3,3) reaches the ogre's cell (2,2). A step south to (1,2) keeps
    its cell (2,3) next to her: no Attack of Opportunity; west to (0,1) takes every cell out
    of her reach: one, before it leaves (1,1). Ana stepping to (3,2) stays next to its cells;
    to (4,4) she leaves its reach."""
    b = begin(NEAR, ogre(), creature("ana", "blue", "a"))
    world = b.world
    assert provocations(world, "ogre", (Pos(1, 2),)) == ()
    assert [(p.cell, p.enemy) for p in provocations(world, "ogre", (Pos(0, 1),))] == [
        (Pos(1, 1), "ana")
    ]
    assert provocations(world, "ana", (Pos(3, 2),)) == ()  # still next to (2,2) and (2,1)
    assert [(p.cell, p.enemy) for p in provocations(world, "ana", (Pos(4, 4),))] == [
        (Pos(3, 3), "ogre")
    ]


# --- R-Z4 contests across sizes ------------------------------------------------------------------


def exact(win: Callable[[int, int], bool], mine: int, theirs: int) -> Fraction:
    """The chance, over two d8s, that `win(d8 + mine, d8 + theirs)`."""
    wins = sum(win(a + mine, b + theirs) for a in range(1, 9) for b in range(1, 9))
    return Fraction(wins, 64)


def test_R_Z4_shove_trip_and_grapple_against_two_sizes_larger_are_refused_with_the_sizes() -> None:
    b = begin(NEAR.replace("a.", ".a"), creature("ana", "blue", "a"), ogre(size=3))
    for action, word in (("shove", "shove"), ("trip", "trip"), ("grapple", "grapple")):
        assert refused(b, unit="ana", action=action, target="ogre") == (
            f"ogre is size 3, 2 sizes larger than ana (size 1); it cannot {word} a creature "
            "that large (R-Z4)"
        )


def test_R_Z4_one_size_larger_takes_5_from_the_smaller_sides_shove_and_the_odds_agree() -> None:
    """R-Z4: ana (STR d8+6) shoves the ogre, one size larger: her 6 + 6 - 5 = 7 loses to its
    2 + 6 = 8 (R-C4). The odds say the same: she wins only by beating 5 more than its roll."""
    b = begin(NEAR, creature("ana", "blue", "a"), ogre(), dice=(6, 2))
    assert shove_chance(b.world, Shove("ana", "ogre")) == pytest.approx(
        float(exact(lambda m, t: m > t, 6 - 5, 6))
    )
    events = accepted(b, unit="ana", action="shove", target="ogre")
    assert rolls(events) == [
        ("ana", "shove ogre: STR Contest", 6, 7),
        ("ogre", "resist ana's shove: STR Contest", 2, 8),
    ]
    assert cells_of(b.world, "ogre")[0] == Pos(1, 1)


def test_R_Z4_one_size_smaller_adds_5_to_the_larger_sides_grapple_and_trip() -> None:
    """R-Z4: the ogre grapples ana: its STR 3 + 6 + 5 = 14 beats her 7 + 6 = 13, and she is
    Grappled; its odds count the +5. Ana's trip on the ogre takes 5 from her Hit Roll."""
    b = begin(NEAR, ogre(), creature("ana", "blue", "a"), dice=(3, 7))
    assert grapple_action_chance(b.world, Grapple("ogre", "ana")) == pytest.approx(
        float(exact(lambda m, t: m > t, 6 + 5, 6))
    )
    events = accepted(b, unit="ogre", action="grapple", target="ana")
    assert rolls(events) == [
        ("ogre", "grapple: STR + Athletics", 3, 14),
        ("ana", "grapple: STR + Athletics", 7, 13),
    ]
    assert conditions_of(b, "ana") == {"grappled": "ogre"}


def test_R_Z4_a_prone_or_grappled_large_creature_keeps_its_footprint() -> None:
    """R-Z4: the ogre falls Prone and stays on its four cells; its Size is unchanged."""
    b = begin(NEAR, ogre(), creature("ana", "blue", "a"))
    accepted(b, unit="ogre", action="fall_prone")
    assert cells_of(b.world, "ogre") == (Pos(1, 1), Pos(2, 1), Pos(1, 2), Pos(2, 2))
    assert side(b.world, "ogre") == 2


# --- the AI and legal decisions play a large creature -------------------------------------------

FAR = """
..........
.o........
..........
..........
.......a..
..........
"""


def test_an_ai_ogre_walks_its_footprint_to_ana_and_attacks_her() -> None:
    """The AI (`normal`) plays the size-2 ogre through pending/submit: every move it makes
    is one of `legal_decisions`, none puts a cell of its footprint on ana while she stands
    (R-M5: prone, after its shoves, she may be shared), and it gets next to her and attacks."""
    b = seeded_battle(scenario_text(FAR, ogre() + "\n" + creature("ana", "blue", "a")), 5)
    ai = AI("normal")
    attacked = False
    for _ in range(12):
        pending = b.pending
        assert isinstance(pending, AwaitingAction)
        if pending.unit == "ana":  # she waits for it
            accept(b, EndTurn("ana"))
            continue
        decision = ai.decide(b)
        if isinstance(decision, Walk | Run):
            offered = [d.decision for d in legal_decisions(b)]
            assert any(type(d) is type(decision) and d.to == decision.to for d in offered)
        accept(b, decision)
        here = b.world.need("ana", Position).cell
        assert lying(b.world, "ana") or here not in cells_of(b.world, "ogre")  # R-M5
        if isinstance(decision, Attack) and decision.target == "ana":
            attacked = True
            break
    assert attacked, b.log[-5:]
