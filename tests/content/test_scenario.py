"""Scenario files: `sim check` lists every problem as `file:line: message`; what a good file
builds, down to a unit placed in deep water beginning the battle swimming (R-M9, R-M10); shipped
maps play."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content.scenario import ScenarioError, load, loads
from sim.core.catalog import default_catalog
from sim.core.components import Gear, Hands, Item, Position
from sim.core.dice import SeededDice
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.play.engine import AwaitingAction, BattleOver
from sim.rules.objectives import Reach, Survive
from tests.helpers import accepted, conditions_of, refused
from tests.helpers import types as kinds
from tests.movers import HARBOUR, HARBOUR_LEGEND, at, legend, solo

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "scenarios").glob("*.toml"))

# A good scenario that each case below breaks in one place.
GOOD = """\
name = "Ford"
seed = 3

[map]
rows = \"\"\"
#########
#a..~..b#
#...,...#
#########
\"\"\"

[legend]
"~" = { kind = "open", water = 1.0 }

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
"""


def check(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> list[str]:
    """`sim check` on `text`: exit 1, and the problems as "line: message" without the file."""
    path = tmp_path / "case.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    prefix = f"{path}:"
    assert all(line.startswith(prefix) for line in out), out
    return [line[len(prefix) :] for line in out]


def line_of(text: str, needle: str) -> int:
    """The number of the first line of `text` that contains `needle`."""
    for number, line in enumerate(textwrap.dedent(text).split("\n"), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} is not in the text")


def test_the_good_scenario_is_good(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "good.toml"
    path.write_text(GOOD, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: ok\n"


# (what is broken, the text replaced in GOOD, its replacement, the line's needle, the message)
CASES = [
    ("bad TOML", "seed = 3", "seed = ", "seed =", "not valid TOML: Invalid value"),
    ("unclosed array", 'at = "b"', 'at = ["b"', 'at = ["b"', "not valid TOML: Unclosed array"),
    ("unknown top key", "seed = 3", "seed = 3\ncolour = 1", "colour", "unknown key 'colour'"),
    (
        "unknown template",
        '"orc_brute"',
        '"orc_boss"',
        "orc_boss",
        "unknown template 'orc_boss' (known: dwarf_guard,",
    ),
    ("unknown race", 'at = "b"', 'at = "b"\nrace = "gnome"', "gnome", "unknown race 'gnome'"),
    # Names that are not strings (found by tests/formats/test_fuzz_input.py): a list or a table
    # is no name of the scenario's own content either, and is said, not a traceback.
    ("template a list", '"orc_brute"', "[]", "template = []", "unknown template [] (known: "),
    ("race a table", 'at = "b"', 'at = "b"\nrace = {}', "race = {}", "unknown race {} (known: "),
    ("armour a list", 'at = "b"', 'at = "b"\narmour = ["x"]', "armour =", "['x'] is not a known"),
    (
        "bad attribute die",
        'at = "b"',
        'at = "b"\nstr = "d7+3"',
        "d7+3",
        "STR die d7 is not one of d4, d6, d8, d10, d12 (R-C1)",
    ),
    (
        "bad attribute form",
        'at = "b"',
        'at = "b"\nagi = "8+3"',
        "8+3",
        'AGI must look like "d8+6" (die and Bonus), not "8+3"',
    ),
    (
        "unknown legend character",
        "#...,...#",
        "#...,.x.#",
        ",.x.",
        "row 2, column 6: 'x' is not in the legend",
    ),
    ("ragged row", "#...,...#", "#...,..#", "#...,..#", "map row has 8 cells; the first row has 9"),
    ("unit on a wall", 'at = "b"', "at = [0, 3]", "at = [0, 3]", "unit 'grok' stands in wall"),
    ("unit in a pit", '"~" = { kind = "open", water = 1.0 }', '"b" = "pit"', 'at = "b"', "in pit"),
    (
        "unit outside the map",
        'at = "b"',
        "at = [9, 1]",
        "at = [9, 1]",
        "(9,1) is outside the 9x4 map",
    ),
    (
        "two units on one cell",
        'at = "b"',
        "at = [1, 1]",
        "at = [1, 1]",
        "'grok' and 'ana' both stand in (1,1) (R-M5)",
    ),
    ("duplicate id", 'id = "grok"', 'id = "ana"  # 2', "# 2", "unit id 'ana' is used twice"),
    ("bad id", 'id = "grok"', 'id = "Grok"', 'id = "Grok"', "each unit needs an `id`"),
    ("unknown unit key", 'at = "b"', 'at = "b"\nspeed = 9', "speed", "unknown unit key 'speed'"),
    (
        "unknown legend key",
        "water = 1.0 }",
        "water = 1.0, depth = 2 }",
        "depth",
        "legend '~': unknown key 'depth'",
    ),
    ("unknown terrain", '"open"', '"lava"', "lava", "legend '~': unknown terrain 'lava'"),
    (
        "not in half-metres",
        "water = 1.0",
        "water = 0.7",
        "0.7",
        "legend '~': water must be 0 or more in half-metre steps, not 0.7",
    ),
    ("infinite height", "water = 1.0", "height = inf", "inf", "half-metre steps, not inf"),
    ("nan height", "water = 1.0", "height = nan", "nan", "half-metre steps, not nan"),
    ("huge height", "water = 1.0", "height = 100000", "100000", "at most 1000 m, not 100000"),
    ("not a flag", "water = 1.0", 'climbable = "yes"', "climbable", "climbable must be true"),
    ("unknown [map] key", 'rows = """', 'size = 3\nrows = """', "size", "unknown key 'size'"),
    ("marker not in map", 'at = "b"', 'at = "q"', 'at = "q"', "marker 'q' does not appear"),
    (
        "marker used twice",
        "#...,...#",
        "#...,.b.#",
        'at = "b"',
        "marker 'b' appears 2 times in the map; it must mark one cell",
    ),
    (
        "unknown equipment",
        'at = "b"',
        'at = "b"\ncarried = ["laser"]',
        "laser",
        "unknown equipment 'laser' in carried",
    ),
    (
        "three items held",
        'template = "human_fighter"',
        'template = "human_fighter"\nheld = ["longsword", "heater", "dagger"]',
        '"dagger"]',
        "'ana' cannot hold dagger: only 0 hand(s) free (R-C7)",
    ),
    (
        "two-handed and another",
        'at = "b"',
        'at = "b"\nheld = ["greataxe", "dagger"]',
        '"dagger"]',
        "'grok' cannot hold dagger: only 0 hand(s) free (R-C7)",
    ),
    (
        "another and two-handed",
        'at = "b"',
        'at = "b"\nheld = ["dagger", "greataxe"]',
        '"greataxe"]',
        "'grok' cannot hold greataxe: only 1 hand(s) free (R-C7)",
    ),
    (
        "armour that is not",
        'at = "b"',
        'at = "b"\narmour = "club"',
        "club",
        "'club' is not a known",
    ),
    ("unknown skill", 'at = "b"', 'at = "b"\nskills = { flying = 2 }', "flying", "unknown skill"),
    (
        "skill level",
        'at = "b"',
        'at = "b"\nskills = { athletics = 21 }',
        "21",
        "skill athletics must be a level 0-20, not 21 (R-C3)",
    ),
    ("hp", 'at = "b"', 'at = "b"\nhp = 0', "hp = 0", "hp must be a whole number from 1 to 1000"),
    ("policy", 'at = "b"', 'at = "b"\npolicy = "maybe"', "maybe", "policy must be one of"),
    ("defence", 'at = "b"', 'at = "b"\ndefence = "pray"', "pray", "defence must be one of"),
    ("prone", 'at = "b"', 'at = "b"\nprone = 1', "prone", "prone must be true or false"),
    (
        "no template nor stats",  # reported on the unit's [[units]] line
        '[[units]]\nid = "grok"\nteam = "red"\ntemplate = "orc_brute"\n',
        '[[units]]  # grok\nid = "grok"\nteam = "red"\n',
        "# grok",
        "unit 'grok' needs a template or race, str, agi, fcs, res",
    ),
    (
        "no team",
        '[[units]]\nid = "grok"\nteam = "red"\n',
        '[[units]]  # grok\nid = "grok"\n',
        "# grok",
        "unit 'grok' needs a `team`",
    ),
    (
        "unknown objective kind",
        'at = "b"',
        'at = "b"\n[[objectives]]\nkind = "capture"\nteam = "red"',
        "capture",
        'objective kind must be defeat, reach or survive, not "capture"',
    ),
    (
        "objective team without units",
        'at = "b"',
        'at = "b"\n[[objectives]]\nkind = "survive"\nteam = "green"\nrounds = 3',
        "green",
        "objective team 'green' has no units",
    ),
    (
        "survive without rounds",
        'at = "b"',
        'at = "b"\n[[objectives]]\nkind = "survive"\nteam = "red"',
        "[[objectives]]",
        "survive needs `rounds`",
    ),
    (
        "reach a missing marker",
        'at = "b"',
        'at = "b"\n[[objectives]]\nkind = "reach"\nteam = "red"\nat = "z"',
        'at = "z"',
        "marker 'z' does not appear in the map",
    ),
    (
        "unknown objective key",
        'at = "b"',
        'at = "b"\n[[objectives]]\nkind = "survive"\nteam = "red"\nrounds = 2\nturns = 3',
        "turns",
        "unknown key 'turns' for a survive objective",
    ),
    (
        "unknown item kind",
        'at = "b"',
        'at = "b"\n[[items]]\nkind = "plasma"\nat = [2, 2]',
        "plasma",
        'item needs a known `kind` of equipment, not "plasma"',
    ),
    (
        "unknown item key",
        'at = "b"',
        'at = "b"\n[[items]]\nkind = "rock"\nat = [2, 2]\nweight = 3',
        "weight",
        "unknown item key 'weight'",
    ),
    (
        "item in a wall",
        'at = "b"',
        'at = "b"\n[[items]]\nkind = "rock"\nat = [0, 0]',
        "at = [0, 0]",
        "item 'rock' lies in a wall at (0,0)",
    ),
    (
        "item id taken",
        'at = "b"',
        'at = "b"\n[[items]]\nkind = "rock"\nat = [2, 2]\nid = "ana"  # item',
        "# item",
        "item id 'ana' is not a new name",
    ),
    ("no name", 'name = "Ford"', "# unnamed", "# unnamed", "the scenario needs a `name`"),
    ("bad seed", "seed = 3", 'seed = "x"', "seed", "`seed` must be a whole number"),
]


@pytest.mark.parametrize(
    ("old", "new", "needle", "message"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_check_reports_the_problem_on_its_line(
    old: str,
    new: str,
    needle: str,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert GOOD.count(old) == 1, f"{old!r} must pick one place in GOOD"
    text = GOOD.replace(old, new)
    problems = check(tmp_path, capsys, text)
    expected = line_of(text, needle)
    assert any(p.startswith(f"{expected}: ") and message in p for p in problems), problems


def test_a_file_with_many_problems_lists_every_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every problem at once, none held back for a second run (issue #33): the second "ana" is
    named twice and also stands in a wall, and both are said; the unknown template's unit is
    still checked."""
    text = """\
        name = "Many"
        colour = "red"

        [map]
        rows = \"\"\"
        #######
        #a.x.b#
        #.....
        #######
        \"\"\"

        [legend]
        "~" = { kind = "lava" }

        [[units]]
        id = "ana"
        team = "blue"
        template = "human_fighterz"
        at = "a"

        [[units]]
        id = "bob"
        team = "red"
        template = "orc_brute"
        race = "gnome"
        str = "d7+3"
        held = ["greataxe", "dagger"]
        carried = ["laser"]
        policy = "sometimes"
        at = "b"

        [[units]]
        id = "ana"
        team = "red"
        template = "orc_brute"
        at = [0, 0]

        [[objectives]]
        kind = "capture"
        team = "red"
        """
    problems = check(tmp_path, capsys, text)
    assert problems == [
        "2: unknown key 'colour' (expected one of abilities, armour, content, description, "
        "items, legend, map, name, objectives, races, seed, shields, templates, units, weapons)",
        "7: row 1, column 3: 'x' is not in the legend and no unit, item or objective uses it "
        "as a marker",
        "8: map row has 6 cells; the first row has 7",
        "13: legend '~': unknown terrain 'lava' (expected one of open, difficult, wall, pit, "
        "fire, cover)",
        "18: unknown template 'human_fighterz' (known: dwarf_guard, elf_skirmisher, "
        "goblin_sneak, halfling_medic, human_archer, human_fighter, human_mage, orc_brute, "
        "orc_raider, orc_shaman)",
        "25: unknown race 'gnome' (known: human, elf, orc, dwarf, halfling)",
        "26: STR die d7 is not one of d4, d6, d8, d10, d12 (R-C1)",
        "27: 'bob' cannot hold dagger: only 0 hand(s) free (R-C7)",
        "28: unknown equipment 'laser' in carried",
        '29: policy must be one of auto, ask, always, never, not "sometimes"',
        "33: unit id 'ana' is used twice",
        "36: unit 'ana' stands in wall at (0,0)",
        '39: objective kind must be defeat, reach or survive, not "capture"',
    ]


def test_several_files_are_checked_and_each_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.toml"
    good.write_text(GOOD, encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace('"orc_brute"', '"orc"'), encoding="utf-8")
    missing = tmp_path / "missing.toml"
    assert main(["check", str(good), str(bad), str(missing)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{good}: ok"
    assert out[1].startswith(f"{bad}:{line_of(GOOD, 'orc_brute')}: unknown template 'orc'")
    assert out[2] == f"no scenario file at {missing}"


def test_a_file_that_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(b'name = "Caf\xe9"\n')
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out.startswith(f"{path}:1: not UTF-8 text")


def test_a_missing_map_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problems = check(tmp_path, capsys, 'name = "No map"\n')
    assert problems == [
        '1: the scenario needs [map] with rows = """...""" (one line per row)',
        "1: the scenario needs at least one [[units]] table",
    ]


# --- map rows and their lines ------------------------------------------------------------------


@pytest.mark.parametrize(
    "rows",
    [
        'rows = ["#####", "#a.x#",\n        "##y##"]',
        'rows = [\n  "#####",\n  "#a.x#",\n  "##y##",\n]',
        "rows = '''\n#####\n#a.x#\n##y##\n'''",
        'rows = """#####\n#a.x#\n##y##\n"""',
        "rows = '''#####\n#a.x#\n##y##'''",
    ],
    ids=["list on two lines", "list a row a line", "literal string", "first row on key", "other"],
)
def test_unknown_characters_are_reported_on_their_own_row_line(
    rows: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        f'name = "rows"\n[map]\n{rows}\n[[units]]\nid = "ana"\nteam = "blue"\n'
        'template = "human_fighter"\nat = "a"\n'
    )
    problems = check(tmp_path, capsys, text)
    assert [p.split(" is not")[0] for p in problems] == [
        f"{line_of(text, 'a.x')}: row 1, column 3: 'x'",
        f"{line_of(text, 'y#')}: row 2, column 2: 'y'",
    ]


def test_identical_rows_in_a_list_are_told_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        'name = "rows"\n[map]\nrows = [\n  "#x#",\n  "#x#",\n  "#a#",\n]\n[[units]]\n'
        'id = "ana"\nteam = "blue"\ntemplate = "human_fighter"\nat = "a"\n'
    )
    problems = check(tmp_path, capsys, text)
    assert [p.split(":")[0] for p in problems] == ["4", "5"]


# --- what a good file builds -------------------------------------------------------------------


def test_units_get_their_template_and_their_equipment_as_items() -> None:
    """Item ids are the owner's id and the equipment's name; a second one gets a number."""
    text = GOOD.replace(
        'template = "orc_brute"',
        'template = "halfling_medic"\nskills = { first_aid = 2 }\nhp = 5\nprone = true\n'
        'carried = ["healing_potion", "healing_potion", "bandage_remedy"]',
    )
    world = loads(text, "good.toml").world
    assert world.need("grok", Hands).items() == ("grok.dagger",)
    assert world.need("grok", Gear) == Gear(
        "grok.padded", ("grok.healing_potion", "grok.healing_potion2", "grok.bandage_remedy")
    )
    assert world.need("grok.healing_potion2", Item) == Item("healing_potion")
    assert world.need("ana", Hands).held == ("ana.longsword", "ana.heater")


def test_terrain_from_the_legend_markers_and_ground_items() -> None:
    raised_cell = '"=" = { kind = "cover", height = 1.5, obstacle = 0.5, climbable = true }'
    text = GOOD.replace("[legend]\n", f"[legend]\n{raised_cell}\n").replace(
        "#...,...#", "#..=,.r.#"
    ) + textwrap.dedent(
        """
        [[items]]
        kind = "rock"
        at = "r"
        [[items]]
        kind = "rock"
        at = [1, 2]
        [[items]]
        kind = "rope"
        at = [2, 2]
        id = "the_rope"
        [[objectives]]
        kind = "reach"
        team = "blue"
        at = "r"
        [[objectives]]
        kind = "survive"
        team = "red"
        rounds = 4
        [[objectives]]
        kind = "defeat"
        """
    )
    scenario = loads(text, "good.toml")
    grid = scenario.world.grid
    raised = grid.cell(Pos(3, 2))
    assert (raised.kind, raised.height, raised.obstacle, raised.climbable) == (
        Kind.COVER,
        1.5,
        0.5,
        True,
    )
    assert grid.cell(Pos(4, 1)).water == 1.0
    assert grid.kind(Pos(4, 2)) is Kind.DIFFICULT
    assert grid.kind(Pos(6, 2)) is Kind.OPEN  # a marker cell is open ground
    ground = {
        item: (scenario.world.need(item, Item).kind, pos.cell)
        for item, pos in scenario.world.each(Position)
        if scenario.world.has(item, Item)
    }
    assert ground == {
        "rock1": ("rock", Pos(6, 2)),
        "rock2": ("rock", Pos(1, 2)),
        "the_rope": ("rope", Pos(2, 2)),
    }
    assert scenario.objectives == (Reach("blue", (Pos(6, 2),)), Survive("red", 4))
    assert scenario.seed == 3
    assert scenario.markers["a"] == (Pos(1, 1),)


def test_load_raises_with_every_problem() -> None:
    text = GOOD.replace('"orc_brute"', '"orc"').replace('"human_fighter"', '"human"')
    with pytest.raises(ScenarioError) as error:
        loads(text, "two.toml")
    assert [p.line for p in error.value.problems] == [
        line_of(text, '"human"'),
        line_of(text, '"orc"'),
    ]
    first = line_of(text, '"human"')
    assert str(error.value).startswith(f"two.toml:{first}: unknown template 'human'")


def test_R_M9_a_unit_placed_in_water_over_its_head_begins_the_battle_swimming() -> None:
    """R-M9: water deeper than a creature is tall can only be swum, so ana, placed in the
    harbour's 2 m water (she is 1.8 m), begins swimming at the surface: a Walk is refused
    with what a swimmer may do, a Step into deep water says to swim, the quay level with the
    surface is a Step out, and the higher bank is a Climb of 1 m from the surface. (She began
    standing on the bottom: "no path a Walk can take gets there", and a 3 m Climb.)"""
    b = solo(HARBOUR, HARBOUR_LEGEND)
    assert conditions_of(b, "ana") == {"swimming": 1}
    assert refused(b, unit="ana", action="walk", to=[1, 2]) == (
        "ana is swimming; it must keep swimming, Step out where its feet touch the bottom or "
        "onto a bank no higher than half its height above the water, or Climb a climbable "
        "bank beside it (R-M8)"
    )
    assert refused(b, unit="ana", action="step", to=[1, 2]) == (
        "(1,2): water 2 m deep is over ana's head; swim (R-M9)"
    )
    events = accepted(b, unit="ana", action="climb", to=[0, 1])
    assert kinds(events) == ["spent", "condition_lost", "climbed"]
    assert (events[2]["end"], events[2]["metres"]) == ([0, 1], 1.0)
    b = solo(HARBOUR, HARBOUR_LEGEND)
    accepted(b, unit="ana", action="step", to=[1, 0])
    assert at(b) == Position(Pos(1, 0)) and conditions_of(b, "ana") == {}


@pytest.mark.parametrize(
    ("depth", "prone", "conditions"),
    [
        (1.5, False, {}),  # waist-deep: difficult ground, she stands (R-M9)
        (1.5, True, {"swimming": 1}),  # lying down there she swims instead (R-M10)
        (0.5, True, {"prone": 1}),  # below her waist: ordinary ground
        (2.0, False, {"swimming": 1}),
    ],
)
def test_R_M9_R_M10_where_a_placed_unit_swims(
    depth: float, prone: bool, conditions: dict[str, int]
) -> None:
    b = solo(".a.", legend(a={"water": depth}), prone=prone)
    assert conditions_of(b, "ana") == conditions


# --- every shipped scenario --------------------------------------------------------------------


def test_there_are_shipped_scenarios() -> None:
    assert SHIPPED, "scenarios/ holds no .toml files"


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_scenario_checks_and_plays_some_turns(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(path)]) == 0
    # A scenario with content packs (ogre_ford) has its own content listed under the verdict.
    verdict, *content = capsys.readouterr().out.splitlines()
    assert verdict == f"{path}: ok"
    assert all(line.startswith("  ") for line in content), content
    assert bool(content) == ("content = [" in path.read_text(encoding="utf-8")), content
    scenario = load(path)
    for seed in (1, 2, 3):
        battle = scenario.begin(SeededDice(seed), seed)
        turns = 0
        while battle.world.turn.round <= 3 and not isinstance(battle.pending, BattleOver):
            pending = battle.pending
            assert isinstance(pending, AwaitingAction)
            accepted(battle, unit=pending.unit, action="end_turn")
            turns += 1
        assert turns >= 3 or isinstance(battle.pending, BattleOver)


# --- the documentation says what the code does --------------------------------------------------

SCENARIOS_DOC = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")


def test_the_first_example_of_the_scenarios_doc_loads(tmp_path: Path) -> None:
    example = SCENARIOS_DOC.split("```toml\n", 1)[1].split("```", 1)[0]
    scenario = loads(example, "example.toml")
    assert scenario.objectives == (Survive("blue", 5),)


def test_the_scenarios_doc_lists_every_template_and_piece_of_equipment() -> None:
    catalog = default_catalog()
    for name in [*catalog.templates, *catalog.equipment]:
        assert f"| `{name}` |" in SCENARIOS_DOC, name


def test_a_unit_without_its_id_team_or_template_and_a_file_without_a_map_are_checked_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #33: `sim check` lists every problem of a file at once. No map: the units, items
    and objectives are still checked, all but where they stand. A unit with a bad id, no team
    and an unknown template still has its hp, policy and equipment checked (and is not asked
    for the attributes its template would have given)."""
    text = """\
        name = "Staged"

        [[units]]
        id = "Ana"
        template = "human_fightr"
        at = "a"
        hp = "x"
        policy = "sometimes"

        [[units]]
        id = "grok"
        team = "red"
        template = "orc_brute"
        at = [3, 1]
        held = ["spoon"]

        [[items]]
        kind = "ladle"
        at = "z"

        [[objectives]]
        kind = "reach"
        team = "red"
        at = "f"
        """
    assert check(tmp_path, capsys, text) == [
        '1: the scenario needs [map] with rows = """...""" (one line per row)',
        "3: unit 'Ana' needs a `team` (a name)",
        "4: each unit needs an `id` of lower-case letters, digits and _ starting with a letter, "
        "not 'Ana'",
        "5: unknown template 'human_fightr' (known: dwarf_guard, elf_skirmisher, goblin_sneak, "
        "halfling_medic, human_archer, human_fighter, human_mage, orc_brute, orc_raider, "
        "orc_shaman)",
        '7: hp must be a whole number from 1 to 1000, not "x"',
        '8: policy must be one of auto, ask, always, never, not "sometimes"',
        "15: unknown equipment 'spoon' in held",
        '18: item needs a known `kind` of equipment, not "ladle"',
    ]
