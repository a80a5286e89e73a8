"""Issue #32, content in files a map maker owns: a scenario's own templates, races, weapons,
shields, armour, items and abilities, in its tables or in content packs it names
(sim/content/packs.py). Transcripts with loaded dice play a pack's ogre, its maul and its howl;
every refusal is tested with its words, file and line."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content import mapedit as me
from sim.content.packs import Entry
from sim.content.scenario import ScenarioError, load, loads
from sim.content.tiled import write_tmx
from sim.core.catalog import Weapon, default_catalog
from sim.core.components import Body
from sim.core.creature import speed
from sim.core.dice import LoadedDice
from sim.core.geometry import Pos
from sim.formats import replay
from sim.tools import batch
from sim.tools.batch import Plan
from tests.helpers import accepted, hp

MONSTERS = """\
# An ogre of the hills, its maul and its howl.
[races.ogrekin]
speed = 8
height = 2.6

[weapons.maul]
wd = 9
damage = "crushing"
weight = 8
two_handed = true

[abilities.howl]
kind = "ability"
tier = "half"
target = "enemy"
range = 3
save = "res"
effects = [{ damage = "1d4", type = "cold" }, { condition = "slowed", turns = 1 }]

[templates.ogre]
based_on = "orc_brute"
race = "ogrekin"
str = "d12+4"
held = ["maul"]
abilities = ["howl"]
"""

SCENARIO = '''\
name = "The ogre"
content = ["monsters.toml"]

[map]
rows = """
#######
#ao...#
#######
"""

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"
policy = "never"

[[units]]
id = "og"
team = "red"
template = "ogre"
at = "o"
policy = "never"
'''


def write(folder: Path, scenario: str = SCENARIO, **packs: str) -> Path:
    """The scenario at folder/s.toml and each pack at folder/NAME.toml (`monsters` by
    default)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in ({"monsters": MONSTERS} | packs).items():
        (folder / f"{name}.toml").write_text(textwrap.dedent(text), encoding="utf-8")
    path = folder / "s.toml"
    path.write_text(scenario, encoding="utf-8")
    return path


# --- play -------------------------------------------------------------------------------------


def test_a_packs_ogre_swings_its_maul_and_howls(tmp_path: Path) -> None:
    """The ogre is orc_brute with a pack's race (Speed 8, 2.6 m), STR and maul (WD 9, two
    hands) and a pack's ability. Dice: initiative ana 1 (AGI d8), og 6 (AGI d6); og's Hit Roll
    5 + 7 = 12 against ana's bare RES Roll 3 (policy "never"): 9 crushing less mail's 2 is 7;
    howl: og's FCS Check 6 + 7 = 13 against ana's RES Save 2 + 2: 1d4 cold (3) and Slowed."""
    scenario = load(write(tmp_path))
    b = scenario.begin(LoadedDice([1, 6, 5, 3, 6, 2, 3]))
    assert b.world.need("og", Body) == Body("ogrekin", 8, 2.6)
    assert speed(b.world, "og") == 7  # hide's penalty 1 (R-C7)
    assert b.world.catalog.get("maul") == Weapon("maul", 9, "crushing", 0, 8.0, two_handed=True)
    events = accepted(b, unit="og", action="attack", target="ana")
    assert [e for e in events if e["type"] in ("rolled", "attack_resolved", "damaged")] == [
        {"type": "rolled", "unit": "og", "purpose": "hit roll: melee attack on ana", "die": 8,
         "result": 5, "bonus": 7, "total": 12},
        {"type": "rolled", "unit": "ana", "purpose": "defense roll: og's melee attack (RES Roll)",
         "die": 10, "result": 3, "bonus": 0, "total": 3},
        {"type": "attack_resolved", "attacker": "og", "target": "ana", "purpose": "melee attack",
         "hit_roll": 12, "defense_roll": 3, "hit": True},
        {"type": "damaged", "unit": "ana", "amount": 7, "damage_type": "crushing",
         "source": "og's maul", "hp": 5},
    ]  # fmt: skip
    events = accepted(b, unit="og", action="use", ability="howl", target="ana")
    assert events[-6:] == [
        {"type": "rolled", "unit": "og", "purpose": "howl: FCS Check", "die": 8, "result": 6,
         "bonus": 7, "total": 13},
        {"type": "rolled", "unit": "ana", "purpose": "RES Save against howl", "die": 10,
         "result": 2, "bonus": 2, "total": 4},
        {"type": "check_resolved", "unit": "ana", "purpose": "RES Save against howl",
         "total": 4, "against": 13, "success": False},
        {"type": "rolled", "unit": "og", "purpose": "howl on ana (1d4)", "die": 4, "result": 3,
         "bonus": 0, "total": 3},
        {"type": "damaged", "unit": "ana", "amount": 3, "damage_type": "cold",
         "source": "og's howl", "hp": 2},
        {"type": "condition_gained", "unit": "ana", "condition": "slowed", "value": 1},
    ]  # fmt: skip


def test_a_scenario_replaces_a_shipped_weapon_for_its_own_battles_only(tmp_path: Path) -> None:
    """`replaces = true` with `based_on` itself: the scenario's longsword is the shipped one
    with WD 2. Dice: initiative ana 8, og 1; ana's Hit Roll 8 + 7 = 15 against og's RES Roll 1:
    2 slashing less hide's 2 is 0. The shipped catalog, and a battle of another scenario, keep
    the shipped longsword: content belongs to its battle."""
    text = SCENARIO.replace('content = ["monsters.toml"]\n', "") + (
        '\n[weapons.longsword]\nreplaces = true\nbased_on = "longsword"\nwd = 2\n'
    )
    text = text.replace('template = "ogre"', 'template = "orc_brute"')
    b = loads(text, "own.toml").begin(LoadedDice([8, 1, 8, 1]))
    events = accepted(b, unit="ana", action="attack", target="og")
    assert [(e["amount"], e["source"]) for e in events if e["type"] == "damaged"] == [
        (0, "ana's longsword")
    ]
    assert b.world.catalog.get("longsword") == Weapon("longsword", 2, "slashing", 1, 1.5)
    shipped = default_catalog().get("longsword")
    assert isinstance(shipped, Weapon) and shipped.wd == 6
    plain = loads(text.split("\n[weapons.longsword]")[0], "plain.toml")
    assert plain.world.catalog.get("longsword") == shipped
    assert hp(b, "og") == 14


def test_item_kinds_and_races_in_the_scenarios_own_tables(tmp_path: Path) -> None:
    """A scenario without [[items]] may define kinds of item in its own [items.NAME] tables,
    and races and templates too; a unit carries the item and is of the race."""
    text = SCENARIO.replace('content = ["monsters.toml"]\n', "").replace(
        'template = "ogre"', 'template = "gnoll"'
    ) + textwrap.dedent(
        """
        [items.salve]
        weight = 0.2
        drink = true
        heal = 4

        [races.gnoll]
        based_on = "orc"
        speed = 10

        [templates.gnoll]
        based_on = "orc_raider"
        race = "gnoll"
        carried = ["salve"]
        """
    )
    scenario = loads(text, "own.toml")
    assert scenario.world.need("og", Body) == Body("gnoll", 10, 1.9)
    assert [e.name for e in scenario.content] == ["gnoll", "salve", "gnoll"]
    assert scenario.world.exists("og.salve")


# --- sim check, saves, batches, the editor, Tiled ---------------------------------------------


def test_sim_check_lists_the_scenarios_own_content(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path)
    assert main(["check", str(path)]) == 0
    pack = tmp_path / "monsters.toml"
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: ok",
        f"  templates: ogre ({pack}:20, based on orc_brute)",
        f"  races: ogrekin ({pack}:2)",
        f"  weapons: maul ({pack}:6)",
        f"  abilities: howl ({pack}:12)",
    ]
    assert load(path).content[0] == Entry("races", "ogrekin", str(pack), 2)


def test_a_save_replays_while_its_pack_is_unchanged_and_says_when_it_changed(
    tmp_path: Path,
) -> None:
    """A save names the scenario's packs and their sha256; the scenario moved with its pack
    still replays; a changed pack is named."""
    scenario = load(write(tmp_path / "a"))
    battle = replay.begin(scenario, 7)
    accepted(battle, unit=battle.pending.unit, action="end_turn")  # type: ignore[union-attr]
    save = replay.record(battle, scenario, 7)
    assert save.content == (("monsters.toml", scenario.packs[0].sha256),)
    text = replay.dumps(save)
    again = replay.loads(text)
    assert again == save
    _, replayed = replay.replay(again)
    assert replay.log_digest(replayed) == save.log_digest
    moved = write(tmp_path / "b")  # the same files elsewhere: the save finds it beside itself
    (tmp_path / "b" / "game.json").write_text(text.replace(str(tmp_path / "a"), "/gone"))
    replay.load_save(tmp_path / "b" / "game.json")
    (tmp_path / "b" / "monsters.toml").write_text(MONSTERS.replace("wd = 9", "wd = 10"))
    with pytest.raises(replay.ReplayError) as error:
        replay.load_save(tmp_path / "b" / "game.json")
    assert str(error.value) == (
        f"{tmp_path / 'b' / 'game.json'}: cannot replay: {moved} has changed since the save: "
        "its content pack monsters.toml is not the same (its sha256 differs)"
    )
    with pytest.raises(replay.ReplayError, match="no longer names the content pack monst"):
        replay.replay(save, load(write(tmp_path / "c", PLAIN)))


def test_a_damaged_saves_content_is_refused() -> None:
    scenario = loads(PLAIN)
    text = replay.dumps(replay.record(replay.begin(scenario, 1), scenario, 1))
    text = text.replace('"name": "The ogre"', '"name": "The ogre", "content": ["monsters.toml"]')
    with pytest.raises(replay.ReplayError) as error:
        replay.loads(text, "x.json")
    assert str(error.value) == (
        "x.json: damaged save: the scenario's \"content\" must map each content pack's path to "
        'its sha256, e.g. {"monsters.toml": "9f2c..."}'
    )


@pytest.mark.slow  # a batch in worker processes (README: the slow lane)
def test_sim_batch_plays_a_packs_creatures_in_worker_processes(tmp_path: Path) -> None:
    """Each worker receives the scenario with its catalog: the AI plays the ogre, whose maul
    and howl only the pack defines."""
    scenario = load(write(tmp_path))
    plan = Plan(scenario, (("blue", "normal"), ("red", "normal")), seed=1, round_cap=8)
    games = batch.run(plan, 2, workers=2)
    assert [(g.index, g.error) for g in games] == [(0, ""), (1, "")]
    assert {g.result for g in games} <= {"won", "capped"}
    dealt = [u for g in games for u in g.units if u.unit == "og"]
    assert sum(u.dealt for u in dealt) > 0


def test_the_editor_palette_offers_the_scenarios_and_its_packs_templates(tmp_path: Path) -> None:
    path = write(tmp_path, SCENARIO + '\n[templates.imp]\nbased_on = "goblin_sneak"\n')
    source = me.open_file(path)
    palette = source.palette()
    assert [(p.name, p.origin) for p in palette[:3]] == [
        ("imp", str(path)),
        ("ogre", str(tmp_path / "monsters.toml")),
        ("dwarf_guard", ""),
    ]
    assert palette[1].summary() == (
        "ogre (monsters.toml): ogrekin STR d12+4 AGI d6+4 RES d10+4 maul"
    )
    assert len(palette) == 12
    state = me.place_unit(source.state, "ogre", "red", Pos(4, 1))
    assert me.check(source, state) == []


def test_tiled_export_and_import_keep_the_content_and_carry_the_packs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The map's properties hold `content` and the scenario's own tables; the packs are copied
    beside the map, and beside the scenario it is imported to; a different file in the way is
    never overwritten."""
    text = SCENARIO + '\n[weapons.cudgel]\nbased_on = "club"\nwd = 4\n'
    path = write(tmp_path / "s", text)
    tmx = tmp_path / "map" / "ogre.tmx"
    write_tmx(path, tmx)
    assert (tmp_path / "map" / "monsters.toml").read_text() == MONSTERS
    assert 'name="content" type="string" value=\'["monsters.toml"]\'' in tmx.read_text()
    out = tmp_path / "back" / "ogre.toml"
    assert main(["import-tiled", str(tmx), "--out", str(out)]) == 0
    back = load(out)
    assert [(e.section, e.name) for e in back.content] == [
        ("weapons", "cudgel"), ("races", "ogrekin"), ("weapons", "maul"), ("abilities", "howl"),
        ("templates", "ogre"),
    ]  # fmt: skip
    assert back.packs == load(path).packs
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "monsters.toml").write_text("# mine\n")
    capsys.readouterr()
    assert main(["import-tiled", str(tmx), "--out", str(tmp_path / "other" / "o.toml")]) == 1
    assert capsys.readouterr().err == (
        f"{tmp_path / 'other' / 'monsters.toml'} is already there and differs from "
        f"{tmp_path / 'map' / 'monsters.toml'}; it was not overwritten (move it, or write the "
        "map elsewhere)\n"
        f"nothing was written to {tmp_path / 'other' / 'o.toml'}\n"
    )
    assert not (tmp_path / "other" / "o.toml").exists()
    assert (tmp_path / "other" / "monsters.toml").read_text() == "# mine\n"


# --- refusals ---------------------------------------------------------------------------------


def problems(folder: Path, pack: str, scenario: str = SCENARIO, **more: str) -> list[str]:
    """The problems of the scenario with `pack` as monsters.toml, the folder left out."""
    with pytest.raises(ScenarioError) as error:
        load(write(folder, scenario, monsters=pack, **more))
    return [line.replace(f"{folder}{os.sep}", "") for line in str(error.value).splitlines()]


# The scenario without packs, its ogre an orc_brute.
PLAIN = SCENARIO.replace('content = ["monsters.toml"]\n', "").replace(
    'template = "ogre"', 'template = "orc_brute"'
)


@pytest.mark.parametrize(
    ("pack", "expected"),
    [
        ('[weapons.maul]\nwd = "big"\ndamage = "crushing"\nweight = 8\n',
         "monsters.toml:2: weapons.maul: wd must be a whole number from 0 to 50, not \"big\""),
        ("[weapons.maul]\nwd = 51\ndamage = \"crushing\"\nweight = 8\n",
         "monsters.toml:2: weapons.maul: wd must be a whole number from 0 to 50, not 51"),
        ('[weapons.maul]\nwd = 9\ndamage = "sonic"\nweight = 8\n',
         "monsters.toml:3: weapons.maul: damage must be one of crushing, slashing, piercing, "
         "fire, not \"sonic\""),
        ('[weapons.maul]\nwd = 9\ndamage = "crushing"\nweight = 8\nparry = -1\n',
         "monsters.toml:5: weapons.maul: parry must be a whole number from 0 to 50, not -1"),
        ('[weapons.maul]\nwd = 9\ndamage = "crushing"\nweight = "heavy"\n',
         "monsters.toml:4: weapons.maul: weight must be a number of kg from 0 to 1000, not "
         '"heavy"'),
        ('[weapons.maul]\nwd = 9\ndamage = "crushing"\nweight = inf\n',
         "monsters.toml:4: weapons.maul: weight must be a number of kg from 0 to 1000, not inf"),
        ('[weapons.maul]\nwd = 9\ndamage = "crushing"\nweight = 8\nreach = "yes"\n',
         "monsters.toml:5: weapons.maul: reach must be true or false, not \"yes\""),
        ('[weapons.maul]\nwd = 9\ndamage = "crushing"\nweight = 8\nthrown = 0\n',
         "monsters.toml:5: weapons.maul: thrown must be a whole number from 1 to 1000, not 0"),
        ('[weapons.maul]\nwd = 9\ndamage = "crushing"\nweight = 8\nranged = 5000\n',
         "monsters.toml:5: weapons.maul: ranged must be a whole number from 1 to 1000, not 5000"),
        ('[weapons.maul]\nwd = 9\ndamage = "crushing"\nweight = 8\nbleed = 99\n',
         "monsters.toml:5: weapons.maul: bleed must be a whole number from 0 to 50, not 99"),
        ('[weapons.maul]\nwd = 9\ndamage = "crushing"\nweight = 8\ncolour = "red"\n',
         "monsters.toml:5: weapons.maul: unknown key 'colour' (expected one of bleed, damage, "
         "parry, ranged, reach, thrown, trip, two_handed, wd, weight)"),
        ('[weapons.maul]\ndamage = "crushing"\nweight = 8\n',
         "monsters.toml:1: weapons.maul: needs wd, a whole number from 0 to 50"),
        ("[shields.wall]\nblock = 51\nweight = 9\n",
         "monsters.toml:2: shields.wall: block must be a whole number from 0 to 50, not 51"),
        ('[armour.shell]\nrating = 2\nclass = "thick"\nweight = 9\n',
         "monsters.toml:3: armour.shell: class must be one of light, medium, heavy, not \"thick\""),
        ('[armour.shell]\nrating = 2\nspeed_penalty = 1.5\nclass = "light"\nweight = 9\n',
         "monsters.toml:3: armour.shell: speed_penalty must be a whole number from 0 to 50, "
         "not 1.5"),
        ("[items.salve]\nweight = 0.1\nheal = 4\n",
         "monsters.toml:3: items.salve: heal is what drinking it does: it needs drink = true"),
        ("[items.salve]\nweight = 0.1\ndrink = true\nquickened = 500\n",
         "monsters.toml:4: items.salve: quickened must be a whole number from 0 to 100, not 500"),
        ("[races.giant]\nspeed = 500\nheight = 4\n",
         "monsters.toml:2: races.giant: speed must be a whole number from 0 to 100, not 500"),
        ("[races.giant]\nspeed = 5\nheight = 0\n",
         "monsters.toml:3: races.giant: height must be a number of metres from 0.1 to 100, "
         "not 0"),
        ("[races.giant]\nspeed = 5\nheight = 4\nwings = 2\n",
         "monsters.toml:4: races.giant: unknown key 'wings' (expected one of climb, fly, "
         "height, size, speed, swim)"),
        ('[abilities.zap]\nkind = "spell"\ntier = "one"\ntarget = "self"\n'
         'effects = [{ heal = 1 }]\n',
         "monsters.toml:3: abilities.zap: tier must be one of half, one_and_half, full (R-X20: "
         "Quick ½, Complex 1½, Very Complex Full), not \"one\""),
        ('[abilities.zap]\nkind = "spell"\ntier = "half"\ntarget = "enemy"\nrange = inf\n'
         'effects = [{ heal = 1 }]\n',
         "monsters.toml:5: abilities.zap: range must be 0 to 1000 in half-metre steps, not inf"),
        ('[abilities.zap]\nkind = "spell"\ntier = "half"\ntarget = "self"\n'
         'effects = [{ damage = "1000000d6", type = "fire" }]\n',
         "monsters.toml:5: abilities.zap: effect 1: damage must be a number or dice like "
         '"1d6+1" (at most 100 dice of 1000 sides, 1000 more or less), not "1000000d6"'),
        ('[abilities.zap]\nkind = "spell"\ntier = "half"\ntarget = "self"\n'
         'effects = [{ condition = "slowed", turns = 1000 }]\n',
         "monsters.toml:5: abilities.zap: effect 1: slowed needs turns, a whole number from 1 "
         "to 100"),
        ('[templates.ogre]\nbased_on = "orc_brute"\nstr = "d7+4"\n',
         "monsters.toml:3: templates.ogre: STR die d7 is not one of d4, d6, d8, d10, d12 (R-C1)"),
        ('[templates.ogre]\nbased_on = "orc_brute"\nrace = "giant"\n',
         "monsters.toml:3: templates.ogre: unknown race 'giant' (known: human, elf, orc, dwarf, "
         "halfling)"),
        ('[templates.ogre]\nbased_on = "orc_brute"\nskills = { juggling = 3 }\n',
         "monsters.toml:3: templates.ogre: unknown skill 'juggling' (known: athletics, "
         "acrobatics, stealth, perception, deception, first_aid)"),
        ('[templates.ogre]\nbased_on = "orc_brute"\nheld = ["spoon"]\n',
         "monsters.toml:3: templates.ogre: unknown equipment 'spoon' in held"),
        ('[templates.ogre]\nbased_on = "orc_brute"\nheld = ["greataxe", "dagger"]\n',
         "monsters.toml:3: templates.ogre: 'ogre' cannot hold dagger: only 0 hand(s) free "
         "(R-C7)"),
        ('[templates.ogre]\nbased_on = "orc_brute"\nhp = 0\n',
         "monsters.toml:3: templates.ogre: hp must be a whole number from 1 to 1000, not 0"),
        ('[templates.ogre]\nbased_on = "orc_brute"\nabilities = ["fireball"]\n',
         "monsters.toml:3: templates.ogre: unknown ability 'fireball' in abilities (known: "
         "firebolt, frost_grip, inferno, mend, battle_focus)"),
        ('[templates.ogre]\nbased_on = "orc_brute"\narmour = "club"\n',
         "monsters.toml:3: templates.ogre: 'club' is not a known armour"),
        ('[templates.ogre]\nbased_on = "orc_brute"\nwings = true\n',
         "monsters.toml:3: templates.ogre: unknown template key 'wings' (expected one of "
         "abilities, agi, armour, carried, climb, fcs, fly, held, hp, race, res, size, skills, "
         "str, swim)"),
        ('[templates.ogre]\nrace = "orc"\n',
         "monsters.toml:1: templates.ogre: template 'ogre' needs str, agi, fcs, res"),
        ('[templates.Ogre]\nrace = "orc"\n',
         "monsters.toml:1: templates.Ogre: a name is lower-case letters, digits and _, from a "
         "letter"),
        ("[weapons]\nstick = 3\n", "monsters.toml:2: weapons.stick must be a table"),
        ("weapons = 3\n",
         "monsters.toml:1: weapons must be tables like [weapons.NAME]"),
        ("[monsters.x]\ny = 1\n",
         "monsters.toml:1: unknown key 'monsters' (expected one of abilities, armour, items, "
         "races, shields, templates, weapons)"),
        ('[[items]]\nkind = "rock"\n',
         "monsters.toml:1: a content pack's items are kinds of item, [items.NAME] tables; items "
         "on the ground are the scenario's [[items]]"),
        ("[weapons.maul\n", "monsters.toml:1: not valid TOML: Expected ']' at the end of a "
         "table declaration"),
        ('[weapons.longsword]\nbased_on = "longsword"\n',
         "monsters.toml:1: weapons.longsword: a shipped weapon is called 'longsword': choose "
         "another name, or say replaces = true to replace it"),
        ('[weapons.maul]\nreplaces = true\nbased_on = "club"\n',
         "monsters.toml:2: weapons.maul: replaces = true, but no shipped weapon is called "
         "'maul'"),
        ('[weapons.club]\nreplaces = "yes"\nbased_on = "club"\n',
         "monsters.toml:2: weapons.club: replaces must be true or false"),
        ('[weapons.maul]\nbased_on = "heater"\n',
         "monsters.toml:2: weapons.maul: based_on 'heater' is not a known weapon (known: club, "
         "dagger, greataxe, halberd, javelin, longsword, mace, maul, serrated_knife, shortbow, "
         "shortsword, spear)"),
        ('[weapons.maul]\nbased_on = 3\n',
         "monsters.toml:2: weapons.maul: based_on must be the name of a weapon"),
        ('[shields.wall]\nblock = 1\nweight = 9\n[weapons.maul]\nbased_on = "wall"\n'
        ,
         "monsters.toml:5: weapons.maul: based_on 'wall' is a shield, not a weapon"),
        ('[weapons.a]\nbased_on = "b"\n[weapons.b]\nbased_on = "a"\n',
         "monsters.toml:4: weapons.b: based_on goes round in a circle: a -> b -> a"),
        ('[shields.maul]\nblock = 1\nweight = 9\n[items.maul]\nweight = 1\n',
         "monsters.toml:4: items.maul: 'maul' is already defined, as shields.maul at "
         "monsters.toml:1"),
    ],
)  # fmt: skip
def test_each_problem_of_a_pack_is_named_with_its_file_and_line(
    tmp_path: Path, pack: str, expected: str
) -> None:
    text = PLAIN.replace('name = "The ogre"\n', 'name = "The ogre"\ncontent = ["monsters.toml"]\n')
    assert problems(tmp_path, pack, text) == [expected]


def test_every_problem_of_a_pack_is_listed_at_once_and_named_entries_say_nothing_more(
    tmp_path: Path,
) -> None:
    """A template that holds a broken maul, and units of a broken template, add no problems of
    their own: the maul's and the template's are listed. An entry based on a broken one is
    checked only for the keys it sets itself."""
    pack = textwrap.dedent(
        """\
        [weapons.maul]
        wd = "big"
        damage = "crushing"
        weight = 8

        [weapons.maul2]
        based_on = "maul"
        weight = -1

        [templates.ogre]
        based_on = "orc_brute"
        held = ["maul"]
        res = "d9+1"
        """
    )
    assert problems(tmp_path, pack) == [
        'monsters.toml:2: weapons.maul: wd must be a whole number from 0 to 50, not "big"',
        "monsters.toml:8: weapons.maul2: weight must be a number of kg from 0 to 1000, not -1",
        "monsters.toml:13: templates.ogre: RES die d9 is not one of d4, d6, d8, d10, d12 (R-C1)",
    ]


def test_a_scenarios_own_tables_are_named_by_its_own_lines_and_come_first(
    tmp_path: Path,
) -> None:
    text = SCENARIO + '\n[weapons.maul]\nwd = 4\ndamage = "crushing"\nweight = "x"\n'
    assert problems(tmp_path, MONSTERS, text) == [
        's.toml:28: weapons.maul: weight must be a number of kg from 0 to 1000, not "x"',
        "monsters.toml:6: weapons.maul: 'maul' is already defined, as weapons.maul at s.toml:25",
    ]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('"monsters.toml"', 'content must be a list of file names like ["monsters.toml"]'),
        ('["../x.toml"]', "content pack '../x.toml' is outside the scenario's folder; a pack "
         "must be in it or below it, named by a path relative to it"),
        ('["/etc/passwd"]', "content pack '/etc/passwd' is outside the scenario's folder; a "
         "pack must be in it or below it, named by a path relative to it"),
        ('["out.toml"]', "content pack 'out.toml' is outside the scenario's folder; a pack must "
         "be in it or below it, named by a path relative to it"),
        ('["nope.toml"]', "content pack 'nope.toml': cannot read the file: No such file or "
         "directory"),
        ('["monsters.toml", "./monsters.toml"]', "content pack './monsters.toml' is named twice"),
        ('["sub"]', "content pack 'sub': a folder, not a file"),
        ('["pipe.toml"]', "content pack 'pipe.toml': not a regular file but a device or a pipe; "
         "name a file"),
        ('["big.toml"]', "content pack 'big.toml': 4,194,305 bytes; a content pack may have at "
         "most 4,194,304"),
        ('["latin1.toml"]', "content pack 'latin1.toml': not UTF-8 text (invalid continuation "
         "byte)"),
        (str([f"p{i}.toml" for i in range(33)]).replace("'", '"'),
         "content names 33 packs; at most 32"),
    ],
)  # fmt: skip
def test_a_pack_the_scenario_cannot_read_is_named_on_its_content_line(
    tmp_path: Path, content: str, expected: str
) -> None:
    """Packs are regular files in the scenario's folder or below it (a link that leads out is
    outside), read within their limit (sim/data/limits.toml)."""
    folder = tmp_path / "in"
    folder.mkdir()
    (tmp_path / "out.toml").write_text(MONSTERS)
    (folder / "out.toml").symlink_to(tmp_path / "out.toml")
    (folder / "sub").mkdir()
    os.mkfifo(folder / "pipe.toml")
    (folder / "big.toml").write_bytes(b"#" * (4 * 1024 * 1024 + 1))
    (folder / "latin1.toml").write_bytes("# caf\xe9\n".encode("latin-1"))
    text = SCENARIO.replace('["monsters.toml"]', content).replace('"ogre"', '"orc_brute"')
    assert problems(folder, MONSTERS, text) == [f"s.toml:2: {expected}"]


def test_a_scenario_with_ground_items_keeps_its_item_kinds_in_a_pack(tmp_path: Path) -> None:
    """TOML gives `items` one meaning a file: [[items]] on the ground, or [items.NAME] kinds.
    Written after [[items]], [items.NAME] is a table inside the last item."""
    ground = '\n[[items]]\nkind = "rock"\nat = [3, 1]\n'
    kinds = "\n[items.pebble]\nweight = 0.1\n"
    assert problems(tmp_path, MONSTERS, SCENARIO + kinds + ground) == [
        "s.toml:28: not valid TOML: Cannot overwrite a value ([[items]] are items on the ground "
        "and [items.NAME] kinds of item, and TOML lets a file have only one of them: put the "
        "kinds in a content pack)"
    ]
    assert problems(tmp_path, MONSTERS, SCENARIO + ground + kinds) == [
        "s.toml:29: unknown item key 'pebble' (expected one of at, id, kind); [items.pebble] "
        "after [[items]] is a table of that item: put kinds of item in a content pack"
    ]


def test_the_packs_of_a_scenario_share_one_limit_of_bytes(tmp_path: Path) -> None:
    """Each pack may have 4 MiB, and all of a scenario's together 16 MiB (limits.toml)."""
    full = "#" * (4 * 1024 * 1024 - 1) + "\n"
    packs = {f"p{i}": full for i in range(4)}
    names = ", ".join(f'"{name}.toml"' for name in [*packs, "monsters"])
    text = PLAIN.replace("[map]", f"content = [{names}]\n[map]")
    assert problems(tmp_path, MONSTERS, text, **packs) == [
        f"s.toml:3: content pack 'monsters.toml': {len(MONSTERS.encode()):,} bytes; this pack "
        "(all of a scenario's share 16,777,216) may have at most 0"
    ]


def test_a_scenario_and_its_packs_define_at_most_ten_thousand_entries(tmp_path: Path) -> None:
    pack = "".join(f"[items.i{n}]\nweight = 1\n" for n in range(10_001))
    assert problems(
        tmp_path, pack, PLAIN.replace("[map]", 'content = ["monsters.toml"]\n[map]')
    ) == [
        "monsters.toml:20001: more than 10,000 entries in the scenario and its packs; the rest "
        "were not read"
    ]


def test_based_on_goes_at_most_32_entries_deep(tmp_path: Path) -> None:
    """Entries are checked by recursion down their `based_on`; a chain of 40 stops at 32."""
    pack = "".join(f'[weapons.w{n}]\nbased_on = "w{n + 1}"\n' for n in range(40))
    pack += '[weapons.w40]\nbased_on = "club"\n'
    assert problems(
        tmp_path, pack, PLAIN.replace("[map]", 'content = ["monsters.toml"]\n[map]')
    ) == ["monsters.toml:66: weapons.w32: based_on goes more than 32 entries deep"]
