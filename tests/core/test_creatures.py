"""R-C: creatures — attributes, rolls, skills, races, hit points and equipment."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import pytest

from sim.content.scenario import ScenarioError, loads
from sim.core.catalog import Armour, Shield, Weapon, default_catalog, parse_equipment
from sim.core.components import Attribute, Body, Hands, Health, Position, Stats
from sim.core.creature import speed
from sim.core.dice import LoadedDice
from sim.core.events import Rolled, TurnSkipped
from sim.core.geometry import Pos
from sim.core.numbers import default_rules
from sim.core.purpose import RollKind
from sim.core.world import World
from sim.play.engine import BattleOver
from sim.rules.combat.checks import acting_wins, attribute_roll, roll_check, saved, skill_check
from tests.helpers import (
    accepted,
    battle,
    conditions_of,
    end_turns,
    give,
    hp,
    refused,
    scenario_text,
    shipped,
    types,
    unit,
)

MAP = """
#######
#a....#
#######
"""
TWO = """
#######
#a...b#
#######
"""
THREE_MAP = """
#######
#a.b.c#
#######
"""


# The fighter's skills as these transcripts were written (the attributes: tests/helpers.py).
FIGHTER_SKILLS = {"athletics": 3, "first_aid": 1}


def world_of(**ana: Any) -> World:
    """A world with one human fighter, "ana", whose template keys `ana` overrides."""
    keys = {"skills": FIGHTER_SKILLS, **ana}
    return loads(scenario_text(MAP, unit("ana", "blue", "human_fighter", "a", **keys))).world


def load_problems(**ana: Any) -> str:
    """The problems `sim check` would list for a scenario where "ana" has these keys."""
    with pytest.raises(ScenarioError) as error:
        world_of(**ana)
    return str(error.value)


# --- R-C1 attributes -------------------------------------------------------------------------


def test_R_C1_four_attributes_each_with_a_die_and_a_bonus() -> None:
    """R-C1: "Four attributes: STR, AGI, FCS (focus), RES (resilience). Each has a die (d4, d6,
    d8, d10 or d12) and a Bonus." — a human fighter has the shipped template's four, and a unit
    may override one of them."""
    text = scenario_text(MAP, '[[units]]\nid = "ana"\nteam = "blue"\ntemplate = "human_fighter"'
                         '\nat = "a"\nres = "d12+9"')  # fmt: skip
    stats = loads(text).world.need("ana", Stats)
    assert [name for name, _ in stats.attributes] == ["str", "agi", "fcs", "res"]
    for name in ("str", "agi", "fcs"):
        assert stats.attribute(name) == Attribute(*shipped("human_fighter", name))
    assert stats.attribute("res") == Attribute(12, 9)
    assert default_rules().attribute_dice == (4, 6, 8, 10, 12)


@pytest.mark.parametrize("die", [4, 6, 8, 10, 12])
def test_R_C1_every_attribute_die_of_the_ladder_is_accepted(die: int) -> None:
    """R-C1: a d4, d6, d8, d10 or d12."""
    assert world_of(agi=f"d{die}+5").need("ana", Stats).attribute("agi") == Attribute(die, 5)


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("d7+3", "STR die d7 is not one of d4, d6, d8, d10, d12 (R-C1)"),
        ("d20+3", "STR die d20 is not one of d4, d6, d8, d10, d12 (R-C1)"),
        ("8+6", 'STR must look like "d8+6" (die and Bonus), not "8+6"'),
        ("d8", 'STR must look like "d8+6" (die and Bonus), not "d8"'),
        ("d8-1", 'STR must look like "d8+6" (die and Bonus), not "d8-1"'),
    ],
)
def test_R_C1_an_attribute_that_is_not_a_die_and_a_bonus_is_refused(
    value: str, problem: str
) -> None:
    """R-C1: a scenario with an attribute outside the dice ladder does not load, and says why."""
    assert problem in load_problems(str=value)


# --- R-C2 rolls ------------------------------------------------------------------------------


def test_R_C2_an_x_roll_is_the_die_alone() -> None:
    """R-C2: "'X Roll' is one roll of X's die, nothing added." — ana's AGI Roll on a loaded 6
    is 6, though her AGI Bonus is 4."""
    world = world_of()
    roll = attribute_roll(world, LoadedDice([6]), "ana", "agi", "sprint", tag=RollKind.SPRINT)
    assert roll.total == 6
    assert roll.rolled == Rolled("ana", "sprint", 8, 6, 0, 6, tag=RollKind.SPRINT)


def test_R_C2_roll_plus_bonus_adds_the_bonus_the_skill_and_modifiers() -> None:
    """R-C2: "'X Roll + Bonus', an 'X Save', an 'X Check' and an 'X Contest' are X's die plus X's
    Bonus, plus the named skill's level and modifiers." — STR d8+6 with Athletics 3 and +2:
    a rolled 5 makes 5 + 6 + 3 + 2 = 16; without the skill, 5 + 6 = 11."""
    world = world_of()
    check = roll_check(
        world,
        LoadedDice([5]),
        "ana",
        "str",
        "str contest",
        tag=RollKind.SHOVE,
        skill="athletics",
        modifier=2,
    )
    assert check.total == 16
    assert check.rolled == Rolled("ana", "str contest", 8, 5, 11, 16, tag=RollKind.SHOVE)
    plain = roll_check(world, LoadedDice([5]), "ana", "str", "str save", tag=RollKind.KEEP_FEET)
    assert plain.rolled == Rolled("ana", "str save", 8, 5, 6, 11, tag=RollKind.KEEP_FEET)


def test_R_C2_initiative_is_an_agi_roll_plus_bonus_and_the_log_shows_both() -> None:
    """R-C2 with R-T1: the initiative roll logs the die's result (the AGI Roll) apart from the
    Bonus it adds: ana rolls 5 on her d8 and adds her AGI Bonus 4 for 9."""
    text = scenario_text(TWO, unit("ana", "blue", "human_fighter", "a") + "\n"
                         + unit("bo", "red", "orc_brute", "b"))  # fmt: skip
    b = battle(text, [5, 2])
    rolls = [e for e in b.log if isinstance(e, Rolled)]
    assert rolls == [
        Rolled("ana", "initiative", 8, 5, 4, 9, tag=RollKind.INITIATIVE),
        Rolled("bo", "initiative", 6, 2, 3, 5, tag=RollKind.INITIATIVE),
    ]


# --- R-C3 skills -----------------------------------------------------------------------------


def test_R_C3_skills_and_their_governing_attributes() -> None:
    """R-C3: "Athletics STR; Acrobatics AGI; Stealth AGI; Perception FCS; Deception FCS;
    First Aid FCS."."""
    assert default_rules().skills == {
        "athletics": "str",
        "acrobatics": "agi",
        "stealth": "agi",
        "perception": "fcs",
        "deception": "fcs",
        "first_aid": "fcs",
    }


def test_R_C3_a_skill_check_is_the_governing_die_plus_bonus_plus_level() -> None:
    """R-C3: "A skill check is the attribute's die + its Bonus + the skill level." — ana has
    Athletics 3 (STR d8+6) and First Aid 1 (FCS d8+7); an untrained skill is level 0."""
    world = world_of()
    stats = world.need("ana", Stats)
    assert (stats.skill("athletics"), stats.skill("first_aid"), stats.skill("stealth")) == (3, 1, 0)
    dice = LoadedDice([4, 4, 4])
    assert skill_check(
        world, dice, "ana", "athletics", "climb", tag=RollKind.GRAPPLE
    ).rolled == Rolled("ana", "climb", 8, 4, 9, 13, tag=RollKind.GRAPPLE)
    assert (
        skill_check(world, dice, "ana", "first_aid", "aid", tag=RollKind.FIRST_AID).total
        == 4 + 7 + 1
    )
    assert (
        skill_check(world, dice, "ana", "stealth", "hide", tag=RollKind.HIDE).total == 4 + 4 + 0
    )  # AGI d8+4


def test_R_C3_a_focus_save_is_an_fcs_save() -> None:
    """R-C3: "The 'Focus Save' of the text is an FCS Save." — FCS d8+7, a rolled 3 saves at 10."""
    check = roll_check(
        world_of(), LoadedDice([3]), "ana", "fcs", "focus save", tag=RollKind.SEE_THROUGH_FEINT
    )
    assert check.rolled == Rolled("ana", "focus save", 8, 3, 7, 10, tag=RollKind.SEE_THROUGH_FEINT)


@pytest.mark.parametrize("level", [0, 20])
def test_R_C3_skill_levels_run_from_0_to_20(level: int) -> None:
    """R-C3: "Skills have a level 0-20"."""
    assert world_of(skills={"stealth": level}).need("ana", Stats).skill("stealth") == level


@pytest.mark.parametrize(
    ("skills", "problem"),
    [
        ({"stealth": 21}, "skill stealth must be a level 0-20, not 21 (R-C3)"),
        ({"stealth": -1}, "skill stealth must be a level 0-20, not -1 (R-C3)"),
        ({"swimming": 2}, "unknown skill 'swimming'"),
    ],
)
def test_R_C3_a_skill_outside_the_list_or_the_levels_is_refused(
    skills: dict[str, int], problem: str
) -> None:
    """R-C3: only the six skills, at levels 0-20."""
    assert problem in load_problems(skills=skills)


# --- R-C4 contests and saves -----------------------------------------------------------------


def test_R_C4_a_contest_goes_to_the_higher_total_and_a_tie_to_the_defender() -> None:
    """R-C4: "Contests and saves: the higher total wins; ties go to the one who is not acting
    (the defender, the saver)." — ana (STR d8+6, Athletics 3) contests bo (STR d10+8,
    Athletics 4): 5 + 9 = 14 against 2 + 12 = 14 is a tie, and bo, who is not acting, wins;
    a rolled 6 (15) beats him."""
    text = scenario_text(TWO, unit("ana", "blue", "human_fighter", "a", skills=FIGHTER_SKILLS)
                         + "\n" + unit("bo", "red", "orc_brute", "b"))  # fmt: skip
    world = loads(text).world
    dice = LoadedDice([5, 2, 6, 2])
    ana = skill_check(world, dice, "ana", "athletics", "shove", tag=RollKind.SHOVE)
    bo = skill_check(world, dice, "bo", "athletics", "resist shove", tag=RollKind.RESIST_SHOVE)
    assert (ana.total, bo.total) == (14, 14)
    assert not acting_wins(ana.total, bo.total)
    ana = skill_check(world, dice, "ana", "athletics", "shove", tag=RollKind.SHOVE)
    bo = skill_check(world, dice, "bo", "athletics", "resist shove", tag=RollKind.RESIST_SHOVE)
    assert (ana.total, bo.total) == (15, 14)
    assert acting_wins(ana.total, bo.total)


@pytest.mark.parametrize(("save", "against", "succeeds"), [(13, 12, True), (12, 12, True),
                                                           (11, 12, False)])  # fmt: skip
def test_R_C4_a_save_that_ties_succeeds(save: int, against: int, succeeds: bool) -> None:
    """R-C4: the saver is not acting, so a tie goes to the saver."""
    assert saved(save, against) is succeeds


# --- R-C5 races ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("race", "metres", "height"),
    [("human", 9, 1.8), ("elf", 10, 1.8), ("orc", 9, 1.9), ("dwarf", 7, 1.3), ("halfling", 7, 1.0)],
)
def test_R_C5_races_give_speed_and_height(race: str, metres: int, height: float) -> None:
    """R-C5: "Races give Speed (m) and height (m): human 9 / 1.8, elf 10 / 1.8, orc 9 / 1.9,
    dwarf 7 / 1.3, halfling 7 / 1.0." — padded armour has no Speed penalty."""
    world = world_of(race=race, armour="padded")
    assert world.need("ana", Body) == Body(race, metres, height)
    assert speed(world, "ana") == metres


def test_R_C5_an_unknown_race_is_refused() -> None:
    """R-C5: only the five races."""
    assert "unknown race 'gnome' (known: human, elf, orc, dwarf, halfling)" in load_problems(
        race="gnome"
    )


@pytest.mark.parametrize(
    ("template", "armour", "expected"),
    [
        ("human_fighter", "mail", 9 - 1),
        ("dwarf_guard", "plate", 7 - 2),
        ("orc_brute", "hide", 9 - 1),
        ("elf_skirmisher", "padded", 10 - 0),
    ],
)
def test_R_C5_armour_lowers_speed_by_its_penalty(template: str, armour: str, expected: int) -> None:
    """R-C5: "Armour lowers Speed by its penalty." (R-C7: armour has a Speed penalty)."""
    world = loads(scenario_text(MAP, unit("ana", "blue", template, "a", armour=armour))).world
    assert speed(world, "ana") == expected


def test_R_C5_speed_comes_back_when_the_armour_is_off() -> None:
    """R-C5: ana (human, Speed 9) in mail moves at 8; once she has doffed it (5 turns, R-B5)
    she moves at 9 again."""
    b = battle(scenario_text(MAP, unit("ana", "blue", "human_fighter", "a")), [1])
    assert speed(b.world, "ana") == 8
    accepted(b, unit="ana", action="doff")
    end_turns(b, "ana", "ana", "ana", "ana")
    assert speed(b.world, "ana") == 8  # still on during the fifth turn
    assert "armour_doffed" in types(accepted(b, unit="ana", action="end_turn"))
    assert speed(b.world, "ana") == 9


# --- R-C6 hit points, Incapacitated, a side defeated -----------------------------------------


@pytest.mark.parametrize("template", ["human_fighter", "orc_brute", "dwarf_guard", "goblin_sneak"])
def test_R_C6_hit_points_are_res_die_size_plus_res_bonus(template: str) -> None:
    """R-C6: "Hit points: RES die size + RES Bonus." — of the shipped template's RES."""
    text = f'[[units]]\nid = "ana"\nteam = "blue"\ntemplate = "{template}"\nat = "a"'
    world = loads(scenario_text(MAP, text)).world
    die, bonus = shipped(template, "res")
    assert world.need("ana", Health) == Health(die + bonus, die + bonus)


def test_R_C6_a_scenario_may_start_a_unit_wounded_but_not_at_0_hp() -> None:
    """R-C6: a unit's `hp` starts it wounded (never above RES die + Bonus); 0 is refused."""
    assert world_of(hp=4).need("ana", Health) == Health(4, 15)
    assert world_of(hp=40).need("ana", Health) == Health(15, 15)
    assert "hp must be a whole number from 1 to 1000, not 0" in load_problems(hp=0)


THREE = "\n".join(
    [
        unit("ana", "blue", "human_fighter", "a", hp=2),
        unit("bram", "blue", "human_archer", "b"),
        unit("grok", "red", "orc_brute", "c"),
    ]
)


def test_R_C6_at_0_hp_a_creature_is_incapacitated_and_its_turns_pass_it_over() -> None:
    """R-C6: "At 0 HP or less a creature is Incapacitated." — ana (2 HP) bleeds 2 at the start
    of her turn: 0 HP, Incapacitated, her turn ends at once and her later turns are skipped."""
    b = battle(scenario_text(THREE_MAP, THREE), [8, 1, 1])  # ana 12, bram 6, grok 4
    give(b, "ana", "bleeding", 2)
    end_turns(b, "ana", "bram", "grok")  # ana's second turn starts: she bleeds
    start = [e for e in b.log if e.kind == "round_started"][-1]
    tail = types(b.log[b.log.index(start) :])
    assert tail == [
        "round_started", "turn_started", "budget_refilled", "damaged", "condition_gained",
        "turn_ended", "turn_started", "budget_refilled",
    ]  # fmt: skip
    assert hp(b, "ana") == 0
    assert "incapacitated" in conditions_of(b, "ana")
    assert b.world.turn.current == "bram"
    mark = len(b.log)
    end_turns(b, "bram", "grok")
    assert types(b.log[mark:]) == [
        "turn_ended", "turn_started", "budget_refilled",  # bram ends, grok starts
        "turn_ended", "round_started", "turn_skipped",  # grok ends; round 3: ana is passed over
        "turn_started", "budget_refilled",  # bram
    ]  # fmt: skip
    assert b.log[-3] == TurnSkipped("ana", "incapacitated")
    assert b.world.turn.current == "bram"


def test_R_C6_one_hp_left_is_not_incapacitated() -> None:
    """R-C6: at 1 HP a creature still acts."""
    b = battle(scenario_text(THREE_MAP, THREE), [8, 1, 1])
    give(b, "ana", "bleeding", 1)
    end_turns(b, "ana", "bram", "grok")
    assert hp(b, "ana") == 1
    assert "incapacitated" not in conditions_of(b, "ana")
    assert b.world.turn.current == "ana"


def test_R_C6_an_incapacitated_creature_takes_no_actions() -> None:
    """R-C6 with R-K2: an Incapacitated creature's action is refused, with the reason."""
    b = battle(scenario_text(THREE_MAP, THREE), [8, 1, 1])
    give(b, "ana", "incapacitated")
    assert refused(b, unit="ana", action="aim") == (
        "ana is incapacitated and can take no actions (R-K2)"
    )


def test_R_C6_a_side_is_defeated_when_all_its_creatures_are_incapacitated() -> None:
    """R-C6: "A side is defeated when all its creatures are Incapacitated." — grok, the only
    red creature, bleeds to 0 at the start of his turn: blue wins and nothing more is taken."""
    text = scenario_text(
        TWO,
        unit("ana", "blue", "human_fighter", "a")
        + "\n"
        + unit("grok", "red", "orc_brute", "b", hp=1),
    )
    b = battle(text, [8, 1])
    give(b, "grok", "bleeding", 1)
    events = accepted(b, unit="ana", action="end_turn")
    assert events[-1] == {
        "type": "battle_ended",
        "winners": ["blue"],
        "reason": "every other side is incapacitated (R-C6)",
    }
    assert b.pending == BattleOver(("blue",), "every other side is incapacitated (R-C6)")
    assert refused(b, unit="ana", action="aim") == "the battle is over: a side has won (R-C6)"


def test_R_C6_one_creature_down_is_not_a_defeated_side() -> None:
    """R-C6: blue still has bram standing when ana falls, so the battle goes on."""
    b = battle(scenario_text(THREE_MAP, THREE), [8, 1, 1])
    give(b, "ana", "bleeding", 5)
    end_turns(b, "ana", "bram", "grok")
    assert "battle_ended" not in types(b.log)
    assert not b.world.turn.over


# --- R-C7 equipment --------------------------------------------------------------------------


def test_R_C7_weapons_shields_and_armour_carry_their_numbers() -> None:
    """R-C7: "Weapons have WD, a damage type, a Parry Rating, optional properties reach, trip,
    thrown(X), two_handed, ranged(R) and bleed(N). Shields have a Block Rating. Armour has an
    Armour Rating and a Speed penalty." — and every item a weight in kg. The numbers are the
    shipped data file's, whatever balancing made them (issue 16)."""
    catalog = default_catalog()
    raw = tomllib.loads(resources.files("sim").joinpath("data/equipment.toml").read_text("utf-8"))
    weapons, shields, armour = raw["weapons"], raw["shields"], raw["armour"]

    def wd(name: str) -> int:
        return int(weapons[name]["wd"])

    def parry(name: str) -> int:
        return int(weapons[name]["parry"])

    assert catalog.get("halberd") == Weapon(
        "halberd",
        wd("halberd"),
        "slashing",
        parry("halberd"),
        3.0,
        reach=True,
        trip=True,
        two_handed=True,
    )
    assert catalog.get("javelin") == Weapon(
        "javelin",
        wd("javelin"),
        "piercing",
        parry("javelin"),
        1.0,
        thrown=weapons["javelin"]["thrown"],
    )
    assert catalog.get("shortbow") == Weapon(
        "shortbow", wd("shortbow"), "piercing", parry("shortbow"), 1.0, two_handed=True, ranged=24
    )
    assert catalog.get("serrated_knife") == Weapon(
        "serrated_knife", wd("serrated_knife"), "slashing", parry("serrated_knife"), 0.5, bleed=1
    )
    assert catalog.get("heater") == Shield("heater", shields["heater"]["block"], 3.0)
    assert catalog.get("plate") == Armour("plate", armour["plate"]["rating"], 2, "heavy", 22.0)
    assert catalog.weight("healing_potion") == 0.5


def test_R_C7_a_damage_type_outside_the_four_is_refused() -> None:
    """R-C7: damage types are crushing, slashing, piercing and fire."""
    with pytest.raises(ValueError, match="damage must be one of crushing, slashing, piercing, "
                       "fire, not \"sonic\""):  # fmt: skip
        parse_equipment({"weapons": {"buzzer": {"wd": 2, "damage": "sonic", "weight": 1}}})


def test_R_C7_two_hands_one_item_each_and_a_two_handed_weapon_fills_both() -> None:
    """R-C7: "Equipment: two hands." — ana holds a longsword and a shield; grok's greataxe is
    two-handed and fills both hands; stowing it frees both."""
    text = scenario_text(
        TWO,
        unit("ana", "blue", "human_fighter", "a") + "\n" + unit("grok", "red", "orc_brute", "b"),
    )
    b = battle(text, [1, 6])  # grok 9, ana 5
    assert b.world.need("ana", Hands).held == ("ana.longsword", "ana.heater")
    assert b.world.need("grok", Hands).held == ("grok.greataxe", "grok.greataxe")
    assert accepted(b, unit="grok", action="stow", item="greataxe")[-1] == {
        "type": "item_stowed", "unit": "grok", "item": "grok.greataxe",
    }  # fmt: skip
    assert b.world.need("grok", Hands).held == (None, None)
    assert accepted(b, unit="grok", action="draw", item="greataxe")[-1]["hands"] == 2


def test_R_C7_no_hand_free_refuses_a_draw() -> None:
    """R-C7: with both hands full, drawing is refused and says what the hands hold."""
    b = battle(scenario_text(MAP, unit("ana", "blue", "human_fighter", "a")), [1])
    assert refused(b, unit="ana", action="draw", item="healing_potion") == (
        "ana needs a free hand for ana.healing_potion but holds ana.longsword and ana.heater (R-C7)"
    )


def test_R_C7_a_two_handed_weapon_needs_both_hands_free() -> None:
    """R-C7 `two_handed`: with a dagger in one hand the greataxe cannot be drawn; after dropping
    the dagger (it lies on ana's cell) it can."""
    b = battle(
        scenario_text(
            MAP, unit("ana", "blue", "human_fighter", "a", held=["dagger"], carried=["greataxe"])
        ),
        [1],
    )
    assert refused(b, unit="ana", action="draw", item="greataxe") == (
        "ana needs both hands for ana.greataxe but holds ana.dagger (R-C7)"
    )
    accepted(b, unit="ana", action="drop", item="dagger")
    assert b.world.need("ana.dagger", Position).cell == Pos(1, 1)
    assert accepted(b, unit="ana", action="draw", item="greataxe")[-1] == {
        "type": "item_drawn", "unit": "ana", "item": "ana.greataxe", "hands": 2,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("held", "problem"),
    [
        (["longsword", "heater", "dagger"], "'ana' cannot hold dagger: only 0 hand(s) free (R-C7)"),
        (["dagger", "greataxe"], "'ana' cannot hold greataxe: only 1 hand(s) free (R-C7)"),
        (["lightsaber"], "unknown equipment 'lightsaber' in held"),
    ],
)
def test_R_C7_a_scenario_cannot_put_more_in_the_hands_than_two(
    held: list[str], problem: str
) -> None:
    """R-C7: a unit that starts holding more than two hands' worth does not load."""
    assert problem in load_problems(held=held)
