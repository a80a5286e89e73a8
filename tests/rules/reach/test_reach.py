"""Issue 3, terrain and movement: the reach map (every cell a creature can move to now, by the
cheapest Movement Action, R-M1..R-M9), who threatens which cells (R-A4) and where a path would
provoke (R-R4), and the `sim reach` command that prints it all as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sim.cli.main import main
from sim.core.actions import Climb, Refusal, Run, Sprint, Walk
from sim.core.components import Budget
from sim.core.geometry import Pos
from sim.play.engine import Battle
from sim.rules.movement.movement import plan_move
from sim.rules.reach.opportunity import Provocation, provocations
from sim.rules.reach.reachmap import Hang, reach_map
from sim.rules.reach.threat import reach_cells, reaches, threatened
from tests.helpers import accepted, battle, give, scenario_text
from tests.movers import creature, legend

# ana at (1,1) with 22 cells of open ground to her right.
LANE = """
........................
.a......................
........................
"""


def begin(rows: str, *units: str, extra: str = "") -> Battle:
    return battle(scenario_text(rows, "\n".join(units), extra), [4, 3, 2, 1][: len(units)])


def lane(**ana: Any) -> Battle:
    return begin(LANE, creature("ana", "blue", "a", **ana))


# --- reach_map: the cheapest action for each cell --------------------------------------------


def test_R_M1_reach_map_offers_each_cell_by_the_cheapest_action_that_gets_there() -> None:
    """R-M1 on the budget ladder (R-B1): up to 2 m a Step (a Bonus Action), up to 3 m a Walk
    (½ Action), up to 9 m a Run (1 Action), beyond that a Sprint as far as its least roll
    (9 + 1 + 8 = 18 m); each with the budget left after it."""
    world = lane().world
    cells = reach_map(world, "ana")
    along = {x: cells[Pos(x, 1)] for x in range(2, 24) if Pos(x, 1) in cells}
    assert {x: (c.action, c.cost) for x, c in along.items()} == {
        2: ("step", 2),
        3: ("step", 4),
        4: ("walk", 6),
        **{x: ("run", 2 * (x - 1)) for x in range(5, 11)},
        **{x: ("sprint", 2 * (x - 1)) for x in range(11, 20)},
    }
    assert (along[2].half_left, along[2].bonus_left) == (2, 1)
    assert (along[4].half_left, along[4].bonus_left) == (1, 2)
    assert (along[10].half_left, along[10].bonus_left) == (0, 2)
    assert (along[19].half_left, along[19].bonus_left) == (0, 1)
    assert along[19].metres == 18.0
    assert Pos(1, 1) not in cells


def test_reach_map_shrinks_with_the_budget() -> None:
    """R-B4: after a Run only a Step is left to pay for."""
    b = lane()
    accepted(b, unit="ana", action="run", path=[[2, 1]])
    cells = reach_map(b.world, "ana")
    assert {c.action for c in cells.values()} == {"step"}
    assert max(c.cost for c in cells.values()) == 4


def test_reach_map_paths_are_the_paths_the_move_would_take() -> None:
    """The path offered for a cell is a legal path of that action at the cost shown."""
    world = lane().world
    cells = reach_map(world, "ana")
    kinds = {"walk": Walk, "run": Run, "sprint": Sprint}
    for pos in (Pos(4, 1), Pos(6, 2), Pos(15, 0)):
        offer = cells[pos]
        path = tuple(p for p, _ in offer.path)
        assert path[-1] == pos
        plan = plan_move(world, kinds[offer.action]("ana", path))
        assert not isinstance(plan, Refusal)
        assert plan.cost == offer.cost


BLOCKS = """
..#....
.a#.b..
..#.c..
..._...
"""


def test_R_M5_reach_map_leaves_out_walls_pits_and_standing_creatures() -> None:
    """R-M5: bo (an ally) can be passed but not ended on; cy (an enemy) cannot even be passed.
    Walls and the pit (which a Walk could jump but a Step not) are never offered as ends."""
    b = begin(
        BLOCKS,
        creature("ana", "blue", "a"),
        creature("bo", "blue", "b"),
        creature("cy", "red", "c"),
    )
    cells = reach_map(b.world, "ana")
    for pos in (Pos(2, 0), Pos(2, 1), Pos(2, 2), Pos(3, 3), Pos(4, 1), Pos(4, 2)):
        assert pos not in cells
    # The only way east is round the wall's foot to (2,3) and a 2 m jump over the pit at (3,3)
    # (R-M6), folded into a Run: 3 m of steps and the jump.
    offer = cells[Pos(4, 3)]
    assert (offer.action, offer.cost) == ("run", 10)
    assert offer.path[-1] == (Pos(4, 3), True)
    assert cells[Pos(5, 1)].action == "run"


def test_R_M5_a_prone_enemy_cell_is_offered() -> None:
    """R-M5: a prone enemy neither bars the way nor the end of a move."""
    b = begin(
        BLOCKS,
        creature("ana", "blue", "a"),
        creature("bo", "blue", "b"),
        creature("cy", "red", "c", prone=True),
    )
    assert reach_map(b.world, "ana")[Pos(4, 2)].action == "run"


PIT = """
.........
a.__.....
.........
"""


def test_R_M6_reach_map_offers_cells_across_a_pit_with_the_jump_in_the_path() -> None:
    """R-M6: (4,1) beyond the 2-cell pit: a 3 m jump needs 1 m of run-up, so one step and the
    jump: a Run of 4 m (a Walk's 3 m is too short)."""
    world = battle(
        scenario_text(PIT.replace(".........\n", "#########\n"), creature("ana", "blue", "a")),
        [1],
    ).world
    cells = reach_map(world, "ana")
    offer = cells[Pos(4, 1)]
    assert (offer.action, offer.cost) == ("run", 8)
    assert offer.path == ((Pos(1, 1), False), (Pos(4, 1), True))


def test_R_M7_reach_map_offers_a_climb_up_a_face_that_cannot_be_walked() -> None:
    """R-M7: the 5 m climbable block at (2,1) is beyond any jump of ana's (3.3 m with a run-up
    and a grab), so only a Climb (1 Action, up to 8 m for her d8) reaches it."""
    world = battle(
        scenario_text(
            ".....\n.aD..\n.....",
            creature("ana", "blue", "a"),
            legend(D={"height": 5, "climbable": True}),
        ),
        [1],
    ).world
    offer = reach_map(world, "ana")[Pos(2, 1)]
    assert (offer.action, offer.cost, offer.half_left) == ("climb", 10, 0)
    assert offer.path == ((Pos(2, 1), False),)


TOWER = ".....\n.aT..\n.o...\n....."
TOWER_LEGEND = legend(T={"height": 10, "climbable": True})


def test_R_M7_reach_map_offers_a_climb_that_stops_part_way() -> None:
    """R-M7: the 10 m tower face at (2,1) is more than ana's d8 climbs in one action (8 m). The
    engine takes that climb (she hangs 8 m up, in her own cell); the map offers it at the
    face's cell with where she would hang, and the check accepts it as offered. Hanging, she is
    offered the last 2 m up to the top, and the 8 m back down in her own cell."""
    rows = TOWER.replace("o", ".")
    b = battle(scenario_text(rows, creature("ana", "blue", "a"), TOWER_LEGEND), [1])
    offer = reach_map(b.world, "ana")[Pos(2, 1)]
    assert (offer.action, offer.cost, offer.half_left, offer.bonus_left) == ("climb", 16, 0, 2)
    assert offer.hang == Hang(Pos(1, 1), 8.0, Pos(2, 1))
    assert offer.path == ((Pos(2, 1), False),)
    assert all(o.hang is None for c, o in reach_map(b.world, "ana").items() if c != Pos(2, 1))
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    climbed = next(e for e in events if e["type"] == "climbed")
    assert (climbed["end"], climbed["elevation"], climbed["metres"]) == ([1, 1], 8.0, 8.0)
    accepted(b, unit="ana", action="end_turn")
    on = reach_map(b.world, "ana")
    # Hanging, only a Climb (on up, or back down to the ground of her own cell) or a Jump
    # (off the face) moves her.
    assert {o.action for c, o in on.items() if c not in (Pos(1, 1), Pos(2, 1))} == {"jump"}
    climb = reach_map(b.world, "ana", only=(Climb,))
    assert list(climb) == [Pos(1, 1), Pos(2, 1)]
    assert (climb[Pos(2, 1)].cost, climb[Pos(2, 1)].hang) == (4, None)
    assert (climb[Pos(1, 1)].cost, climb[Pos(1, 1)].hang) == (16, None)
    events = accepted(b, unit="ana", action="climb", path=[[1, 1]])  # as the map shows it
    climbed = next(e for e in events if e["type"] == "climbed")
    assert (climbed["end"], climbed["elevation"], climbed["metres"]) == ([1, 1], 0.0, 8.0)


def test_R_M7_reach_map_offers_a_climb_down_that_stops_part_way() -> None:
    """R-M7: "up or down": from the top of a 10 m climbable tower, the 10 m down to (2,1) is
    more than 8 m: she hangs 2 m above the ground of (2,1), on the tower's face."""
    rows = ".....\n.T...\n....."
    b = battle(scenario_text(rows, creature("ana", "blue", "T"), TOWER_LEGEND), [1])
    offer = reach_map(b.world, "ana", only=(Climb,))[Pos(2, 1)]
    assert offer.hang == Hang(Pos(2, 1), 2.0, Pos(1, 1))
    assert offer.cost == 16
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    climbed = next(e for e in events if e["type"] == "climbed")
    assert (climbed["end"], climbed["elevation"]) == ([2, 1], 2.0)


def test_sim_reach_prints_a_climb_that_stops_part_way_with_where_it_hangs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`sim reach --action climb`: the tower's cell with `hangs` (the cell, the height, the
    face); 8 m up she is out of the orc's reach below her (R-A4, 1.9 m tall), so he may
    attack as she climbs (R-R4)."""
    units = creature("ana", "blue", "a") + "\n" + creature("orc", "red", "o")
    path = write(tmp_path, TOWER, units, TOWER_LEGEND)
    report = run_reach(capsys, path, "--unit", "ana", "--action", "climb")
    assert report["cells"] == [
        {
            "cell": [2, 1],
            "action": "climb",
            "metres": 8.0,
            "path": [[2, 1]],
            "budget_after": {"half": 0, "bonus": 2},
            "hangs": {"cell": [1, 1], "height": 8.0, "face": [2, 1]},
            "provokes": [{"cell": [1, 1], "enemy": "orc", "can_react": True}],
        }
    ]


def test_sim_reach_offers_the_watchtower_climb_in_the_cliff_fort(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The shipped cliff fort: ana stands beside the 10 m watchtower; a climb starts up it."""
    report = run_reach(capsys, "scenarios/cliff_fort.toml", "--unit", "ana", "--action", "climb")
    assert [(c["cell"], c["hangs"]) for c in report["cells"]] == [
        ([3, 1], {"cell": [2, 1], "height": 8.0, "face": [3, 1]})
    ]


def test_R_M8_reach_map_of_a_prone_creature_offers_only_a_crawl() -> None:
    """R-M8, R-M10: a prone creature moves only by Crawl, 4 m for ana's d8."""
    world = lane(prone=True).world
    cells = reach_map(world, "ana")
    assert {c.action for c in cells.values()} == {"crawl"}
    assert max(c.cost for c in cells.values()) == 8


def test_R_M8_reach_map_of_a_swimmer_offers_swimming_and_stepping_out() -> None:
    """R-M8: a swimmer in 2 m of water at (1,1) may Step out onto the bank, one straight metre,
    or Swim on through water at least waist-deep; nothing else."""
    b = battle(
        scenario_text(
            "......\n.aWWW.\n......",
            creature("ana", "blue", "a"),
            legend(W={"water": 2.0}, a={"water": 2.0}),
        ),
        [1],
    )
    give(b, "ana", "swimming")
    cells = reach_map(b.world, "ana")
    assert {pos: (c.action, c.cost) for pos, c in cells.items()} == {
        Pos(1, 0): ("step", 2),
        Pos(0, 1): ("step", 2),
        Pos(2, 1): ("swim", 2),
        Pos(3, 1): ("swim", 4),
        Pos(4, 1): ("swim", 6),
        Pos(1, 2): ("step", 2),
    }


# --- threat: reach and provocations --------------------------------------------------------------

DUEL = """
.......
.......
..ao...
.......
.......
"""


def duel(**orc: Any) -> Battle:
    return begin(DUEL, creature("ana", "blue", "a"), creature("orc", "red", "o", **orc))


def test_R_A4_a_melee_creature_threatens_its_8_neighbours_and_a_reach_weapon_two_cells() -> None:
    """R-A4: melee reach 1.5 m, the 8 neighbours; a `reach` weapon 3 m, two cells around."""
    world = duel().world
    assert reach_cells(world, "orc") == 1
    assert threatened(world, "orc") == tuple(
        Pos(x, y) for y in (1, 2, 3) for x in (2, 3, 4) if (x, y) != (3, 2)
    )
    world = duel(held=["spear"]).world
    assert reach_cells(world, "orc") == 2
    assert len(threatened(world, "orc")) == 24


def test_R_A4_a_height_difference_over_the_attacker_height_is_out_of_reach() -> None:
    """R-A4 Decision: not across a height difference greater than the attacker's height."""
    world = begin(
        DUEL.replace("..ao...", "..aoH.."),
        creature("ana", "blue", "a"),
        creature("orc", "red", "o"),
        extra=legend(H={"height": 2.0}),
    ).world
    assert not reaches(world, "orc", Pos(3, 2), Pos(4, 2))  # 2 m up, the orc is 1.9 m
    assert reaches(world, "orc", Pos(3, 2), Pos(2, 2))


def test_R_R4_provocations_reports_leaving_an_enemy_reach() -> None:
    """R-R4: moving from (2,2) to (1,2) leaves the orc's reach: leg 0, the cell left, the orc,
    who has a Bonus Action to react with. Moving round the orc inside its reach does not."""
    world = duel().world
    assert provocations(world, "ana", (Pos(1, 2), Pos(0, 2))) == (
        Provocation(0, Pos(2, 2), "orc", True),
    )
    assert provocations(world, "ana", (Pos(2, 1), Pos(3, 1), Pos(4, 1))) == ()
    assert provocations(world, "ana", (Pos(2, 1), Pos(2, 0))) == (
        Provocation(1, Pos(2, 1), "orc", True),
    )


def test_R_R4_a_reach_weapon_is_left_later_and_a_foe_without_bonus_actions_cannot_react() -> None:
    """R-R4 with R-A4 and R-R8: with a spear the orc reaches two cells, so ana leaves its
    reach only on her second step; without a Bonus Action it cannot react."""
    b = duel(held=["spear"])
    world = b.world
    assert provocations(world, "ana", (Pos(1, 2), Pos(0, 2))) == (
        Provocation(1, Pos(1, 2), "orc", True),
    )
    world.set("orc", Budget(half=2, bonus=0))
    assert provocations(world, "ana", (Pos(1, 2), Pos(0, 2))) == (
        Provocation(1, Pos(1, 2), "orc", False),
    )


def test_R_R4_an_incapacitated_enemy_provokes_nothing() -> None:
    """R-R4 with R-K2: an Incapacitated enemy takes no reactions."""
    b = duel()
    give(b, "orc", "incapacitated")
    assert provocations(b.world, "ana", (Pos(1, 2), Pos(0, 2))) == ()


# --- the `sim reach` command -----------------------------------------------------------------


def write(tmp_path: Path, rows: str, units: str, extra: str = "") -> str:
    path = tmp_path / "reach.toml"
    path.write_text(scenario_text(rows, units, extra), encoding="utf-8")
    return str(path)


def run_reach(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["reach", *argv, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    report: dict[str, Any] = json.loads(out)
    return report


def test_sim_reach_prints_every_cell_with_its_action_metres_path_and_provocations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`sim reach FILE --unit ana`: one JSON object with every cell ana can reach, the cheapest
    action (R-M1), metres, path, the budget after it, and where it provokes (R-R4)."""
    path = write(tmp_path, DUEL, creature("ana", "blue", "a") + "\n" + creature("orc", "red", "o"))
    report = run_reach(capsys, path, "--unit", "ana")
    assert report["unit"] == "ana"
    assert report["from"] == [2, 2]
    assert report["budget"] == {"half": 2, "bonus": 2}
    by_cell = {tuple(c["cell"]): c for c in report["cells"]}
    assert (3, 2) not in by_cell  # the orc stands there
    assert by_cell[(1, 2)] == {
        "cell": [1, 2],
        "action": "step",
        "metres": 1.0,
        "path": [[1, 2]],
        "budget_after": {"half": 2, "bonus": 1},
        "hangs": None,
        "provokes": [{"cell": [2, 2], "enemy": "orc", "can_react": True}],
    }
    assert by_cell[(2, 1)]["provokes"] == []
    assert (by_cell[(0, 0)]["action"], by_cell[(0, 0)]["metres"]) == ("walk", 3.0)
    assert by_cell[(0, 0)]["path"] == [[1, 1], [0, 0]]
    # Round the orc to (5,2): 1.5 + 1 + 1.5 m, leaving its reach on the last step.
    behind = by_cell[(5, 2)]
    assert (behind["action"], behind["metres"]) == ("run", 4.0)
    assert [p["enemy"] for p in behind["provokes"]] == ["orc"]
    assert behind["provokes"][0]["cell"] == behind["path"][-2]


def test_sim_reach_can_show_one_action_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--action walk`: only the cells a Walk reaches (R-M1: 3 m)."""
    path = write(tmp_path, LANE, creature("ana", "blue", "a"))
    report = run_reach(capsys, path, "--unit", "ana", "--action", "walk")
    assert {c["action"] for c in report["cells"]} == {"walk"}
    assert max(c["metres"] for c in report["cells"]) == 3.0
    assert [4, 1] in [c["cell"] for c in report["cells"]]


def test_sim_reach_names_an_unknown_unit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A unit that is not in the scenario is a usage error (exit 2) with its name."""
    path = write(tmp_path, LANE, creature("ana", "blue", "a"))
    assert main(["reach", path, "--unit", "zed", "--seed", "1"]) == 2
    assert f"there is no unit 'zed' in {path}" in capsys.readouterr().err


@pytest.mark.parametrize("condition", [None, "slowed", "quickened", "prone", "swimming"])
def test_the_kinds_a_reach_map_offers_are_those_priced_each_on_its_own(
    condition: str | None,
) -> None:
    """Issue #31: `_usable` prices kinds alike in tier, kind of Free Action and extra Bonus
    once; each budget and condition gives what pricing every kind on its own gives."""
    from sim.rules.budget import price
    from sim.rules.movement.movement import condition_problem
    from sim.rules.reach.reachmap import ORDER, _usable

    b = lane()
    if condition is not None:
        give(b, "ana", condition)
    world = b.world
    budgets = [Budget(half=h, bonus=k, acted=a) for h in (0, 1, 2) for k in (0, 1, 2)
               for a in (False, True)]  # fmt: skip
    for budget in budgets:
        for quicken in (False, True):
            alone = []
            for kind in ORDER:
                cost = price(world, kind("ana", quicken=quicken), budget)
                if isinstance(cost, Refusal) or condition_problem(world, "ana", kind):
                    continue
                alone.append((kind, (budget.half - cost.half, budget.bonus - cost.bonus)))
            assert _usable(world, "ana", ORDER, quicken, budget) == tuple(alone), (budget, quicken)


def test_R_Z5_a_fliers_map_does_not_take_the_jumps_from_a_walker_in_the_same_state() -> None:
    """R-M6, R-Z5: a flier does not Jump, a walker does; the moves each can pay for are kept by
    the world for every creature alike in conditions and budget, so which of the two asks first
    must not decide what the other is offered (the walker's Jump over the pit was missing from
    its map, and from the listing, once the flier's map was made)."""
    b = begin(
        """
        .......
        .a.bP..
        .......
        """,
        creature("ana", "blue", "a", fly=9),
        creature("bob", "blue", "b"),
        extra='[legend]\nP = { kind = "pit" }\n',
    )
    alone = reach_map(b.world.copy(), "bob")
    assert "jump" in {o.name for o in alone.offers}
    assert "jump" not in {o.name for o in reach_map(b.world, "ana").offers}
    after = reach_map(b.world, "bob")
    assert [o.name for o in after.offers] == [o.name for o in alone.offers]
    assert dict(after) == dict(alone)
