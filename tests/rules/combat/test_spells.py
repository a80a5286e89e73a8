"""R-X20: spells and abilities as rules data — cast and use at the tier the data names, Quicken
from an ability (R-B6, R-K3), Burning from a spell (R-K4), an Interrupt that cancels a spell
(R-R7), and the refusals."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.content.scenario import ScenarioError, load, loads
from sim.core import events as ev
from sim.core.abilities import AbilityError, Condition, Damage, default_abilities, parse_abilities
from sim.core.actions import Cast, Refusal, Use
from sim.core.catalog import default_catalog
from sim.core.components import Budget, Health, Team
from sim.core.condition import Condition as Held
from sim.core.creature import creatures
from sim.core.dice import LoadedDice, SeededDice
from sim.core.numbers import Tier
from sim.core.purpose import AttackKind, RollKind
from sim.play.apply import apply
from sim.play.decisions import DecisionError, parse, to_json
from sim.play.engine import Accepted, AwaitingAction, AwaitingReaction, Battle
from sim.rules.combat.casting import known
from tests.helpers import (
    accepted,
    battle,
    budget,
    conditions_of,
    end_turns,
    give,
    hp,
    refused,
    scenario_text,
    tagged,
    types,
    unit,
)

ROOT = Path(__file__).resolve().parents[3]

# Mara, a human mage (AGI d8+5, FCS d8+7, RES d8+4, 12 HP, padded), knows firebolt, frost_grip
# and inferno; thrak, an orc shaman (AGI d8+4, RES d10+4, 14 HP), knows battle_focus, mend and
# firebolt; grok, an orc brute (AGI d6+3, RES d10+6, 16 HP, hide: Armour Rating 2, greataxe).


def duel(
    caster: str = "mara",
    template: str = "human_mage",
    mine: dict[str, Any] | None = None,
    **grok: Any,
) -> Battle:
    """The caster (with `mine` overriding its template) 5 m from grok, who never reacts unless
    told; the caster acts first."""
    grok.setdefault("policy", "never")
    units = unit(caster, "blue", template, "m", **(mine or {})) + "\n"
    units += unit("grok", "red", "orc_brute", "g", **grok)
    return battle(scenario_text("########\n#m....g#\n########", units), [8, 1])


def spent(events: list[dict[str, Any]], who: str, action: str) -> tuple[str, int, int]:
    paid = [e for e in events if e["type"] == "spent" and e["unit"] == who]
    paid = [e for e in paid if e["action"] == action]
    assert len(paid) == 1, events
    return paid[0]["tier"], paid[0]["half"], paid[0]["bonus"]


# --- the rules data ----------------------------------------------------------------------------


def test_R_X20_the_shipped_spells_take_the_tiers_the_text_names() -> None:
    """R-X20: "Quick Spell ½, Complex Spell 1½, Very Complex Spell Full" — a Quick, a Complex and
    a Very Complex spell ship, and an ability that Quickens (R-B6's source)."""
    shipped = default_abilities()
    assert (shipped["firebolt"].kind, shipped["firebolt"].tier) == ("spell", Tier.HALF)
    assert (shipped["frost_grip"].kind, shipped["frost_grip"].tier) == ("spell", Tier.ONE_AND_HALF)
    assert (shipped["inferno"].kind, shipped["inferno"].tier) == ("spell", Tier.FULL)
    assert shipped["inferno"].target == "area"
    focus = shipped["battle_focus"]
    assert (focus.kind, focus.target, focus.effects) == (
        "ability",
        "self",
        (Condition("quickened", 2),),
    )
    assert shipped["firebolt"].effects[1] == Condition("burning", 2)  # R-K4
    assert isinstance(shipped["firebolt"].effects[0], Damage)


def test_R_X20_bad_rules_data_lists_every_problem() -> None:
    """R-X20: the loader reads every entry and names each problem with the entry's name."""
    raw = tomllib.loads(
        """
        [zap]
        kind = "spell"
        tier = "one"
        target = "enemy"
        range = 0.3
        attack = true
        save = "agi"
        colour = "blue"
        effects = [{ damage = "d4", type = "fire" }, { condition = "stunned", turns = 1 }]

        [buff]
        kind = "ability"
        tier = "extended"
        target = "self"
        effects = []
        """
    )
    with pytest.raises(AbilityError) as error:
        parse_abilities(raw, "bad.toml")
    assert error.value.problems == [
        "[zap]: unknown key 'colour' (expected attack, description, effects, kind, radius, "
        "range, save, target, tier)",
        "[zap]: tier must be one of half, one_and_half, full (R-X20: Quick ½, Complex 1½, "
        'Very Complex Full), not "one"',
        "[zap]: range must be 0 to 1000 in half-metre steps, not 0.3",
        "[zap]: a Hit Roll or a save decides who is affected, not both",
        '[zap]: effect 1: damage must be a number or dice like "1d6+1" (at most 100 dice of '
        '1000 sides, 1000 more or less), not "d4"',
        "[zap]: effect 2: unknown key 'turns' (expected condition)",
        "[zap]: effect 2: condition must be one of burning, bleeding, quickened, slowed, prone, "
        'not "stunned"',
        '[buff]: tier must be one of bonus, half, one, one_and_half, full, not "extended"',
        "[buff]: needs effects, a list of tables",
    ]
    assert str(error.value).startswith("bad.toml: [zap]: unknown key 'colour'")


def test_R_X20_every_template_knows_only_shipped_abilities_and_the_docs_list_them() -> None:
    catalog = default_catalog()
    for name, template in catalog.templates.items():
        for ability in template.get("abilities", []):
            assert ability in catalog.abilities, (name, ability)
    assert catalog.templates["human_mage"]["abilities"] == ["firebolt", "frost_grip", "inferno"]
    assert "battle_focus" in catalog.templates["orc_shaman"]["abilities"]
    doc = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    for name in catalog.abilities:
        assert f"| `{name}` |" in doc, name


def test_R_X20_a_units_abilities_are_checked_with_their_lines() -> None:
    """A scenario unit's `abilities` override its template's; unknown names and wrong types are
    problems on the key's line."""
    text = scenario_text(
        "#a.b.c#",
        "\n".join(
            [
                unit("ana", "blue", "human_fighter", "a", abilities=["firebolt", "fireball"]),
                unit("bo", "blue", "human_fighter", "b", abilities="firebolt"),
                unit("cy", "red", "human_mage", "c", abilities=["mend", "mend"]),
            ]
        ),
    )
    with pytest.raises(ScenarioError) as error:
        loads(text, "spells.toml")
    lines = text.split("\n")
    at = [i + 1 for i, line in enumerate(lines) if line.startswith("abilities")]
    assert [(p.line, p.message) for p in error.value.problems] == [
        (at[0], "unknown ability 'fireball' in abilities (known: firebolt, frost_grip, "
         "inferno, mend, battle_focus)"),
        (at[1], 'abilities must be a list of names like ["firebolt", "mend"]'),
        (at[2], "ability 'mend' is listed twice"),
    ]  # fmt: skip


# --- a Quick Spell: firebolt; Burning at the start of the target's turn (R-K4) -----------------


def test_R_X20_firebolt_a_quick_spell_hits_and_sets_the_target_burning() -> None:
    """R-X20: firebolt is a ½ Action; a ranged Hit Roll (R-A1: FCS Roll + Bonus) against grok's
    Defense Roll (R-A2); on the hit 1d4 fire damage, which armour does not reduce, and 2 Burning
    stacks (R-K4). Dice: hit roll 5 (+7 = 12), grok's RES Roll 3, damage 3."""
    b = duel()
    b.dice = LoadedDice([5, 3, 3])
    events = accepted(b, unit="mara", action="cast", spell="firebolt", target="grok")
    assert events == [
        {"type": "spent", "unit": "mara", "action": "cast", "tier": "half", "half": 1,
         "bonus": 0, "free_kind": None, "counts_as_action": True},
        {"type": "ability_used", "unit": "mara", "ability": "firebolt", "target": "grok",
         "at": None, "affected": ["grok"]},
        {"type": "attack_counted", "unit": "mara", "count": 1},
        {"type": "rolled", "unit": "mara", "purpose": "hit roll: firebolt on grok", "die": 8,
         "result": 5, "bonus": 7, "total": 12},
        {"type": "reaction_answered", "unit": "grok", "window": "defence",
         "trigger": "mara attacks grok (firebolt, Hit Roll 12)",
         "options": ["dodge", "parry", "none"], "choice": "none", "by": "policy"},
        {"type": "rolled", "unit": "grok", "purpose": "defense roll: mara's firebolt (RES Roll)",
         "die": 10, "result": 3, "bonus": 0, "total": 3},
        {"type": "attack_resolved", "attacker": "mara", "target": "grok", "purpose": "firebolt",
         "hit_roll": 12, "defense_roll": 3, "hit": True},
        {"type": "rolled", "unit": "mara", "purpose": "firebolt on grok (1d4)", "die": 4,
         "result": 3, "bonus": 0, "total": 3},
        {"type": "damaged", "unit": "grok", "amount": 3, "damage_type": "fire",
         "source": "mara's firebolt", "hp": 13},
        {"type": "condition_gained", "unit": "grok", "condition": "burning", "value": 2},
    ]  # fmt: skip
    assert budget(b, "mara") == (1, 2)


def test_R_R2_R_X20_a_spell_that_makes_an_attack_roll_can_be_parried() -> None:
    """R-R2: a Parry answers any attack, a spell's Hit Roll too. grok (policy "ask") parries
    mara's firebolt with his greataxe (Parry Rating 0) and STR d10+8, better than his AGI:
    Hit Roll 5 + 7 = 12 against RES Roll 3 + STR Roll 8 + 8 = 19, so no fire and no
    Burning."""
    b = duel(policy="ask")
    b.dice = LoadedDice([5, 3, 8])
    accepted(b, unit="mara", action="cast", spell="firebolt", target="grok")
    assert b.pending == AwaitingReaction(
        "grok", "mara attacks grok (firebolt, Hit Roll 12)", ("dodge", "parry", "none")
    )
    events = accepted(b, unit="grok", reaction="parry")
    assert [(e["purpose"], e["total"]) for e in events if e["type"] == "rolled"] == [
        ("defense roll: mara's firebolt (RES Roll)", 3),
        ("parry (STR Roll + Bonus + Parry Rating 0)", 16),
    ]
    assert [
        (e["hit_roll"], e["defense_roll"], e["hit"])
        for e in events
        if e["type"] == "attack_resolved"
    ] == [(12, 19, False)]
    assert hp(b, "grok") == 16 and "burning" not in conditions_of(b, "grok")


def test_R_K4_burning_from_a_spell_ticks_at_the_start_of_the_targets_turn() -> None:
    """R-K4 with R-T2: at the start of its turn grok takes 1 fire damage per stack, then loses a
    stack; the next turn the last stack burns and goes out."""
    b = duel()
    b.dice = LoadedDice([5, 3, 3])
    accepted(b, unit="mara", action="cast", spell="firebolt", target="grok")
    started = accepted(b, unit="mara", action="end_turn")
    assert started[-2:] == [
        {"type": "damaged", "unit": "grok", "amount": 2, "damage_type": "fire",
         "source": "burning", "hp": 11},
        {"type": "condition_gained", "unit": "grok", "condition": "burning", "value": 1},
    ]  # fmt: skip
    end_turns(b, "grok", "mara")
    assert [e.kind for e in b.log[-3:]] == ["budget_refilled", "damaged", "condition_lost"]
    assert hp(b, "grok") == 10
    assert "burning" not in conditions_of(b, "grok")


def test_R_X20_a_spell_attack_can_be_dodged_and_then_does_nothing() -> None:
    """R-R1: the target of a spell attack may Dodge; on a miss no effect applies."""
    b = duel(policy="always", defence="dodge")
    b.dice = LoadedDice([1, 5, 2])  # hit roll 8; grok's RES Roll 5 + Dodge (2 + 3) = 10
    events = accepted(b, unit="mara", action="cast", spell="firebolt", target="grok")
    assert events[-1]["type"] == "attack_resolved" and events[-1]["hit"] is False
    assert hp(b, "grok") == 16 and conditions_of(b, "grok") == {}


# --- a Complex Spell: frost_grip, a save against the caster's FCS Check ------------------------


def test_R_X20_frost_grip_a_complex_spell_grips_a_target_that_fails_its_save() -> None:
    """R-X20: frost_grip is a 1½ Action (2 H + 2 B, R-B3): mara's FCS Check (4 + 7 = 11)
    against grok's AGI Save (2 + 3 = 5, R-C2); failing, grok takes 1d6+1 cold damage (5 + 1)
    and is Slowed for one turn end (R-K3): on his next turn his Aim is a ½ Action, and when that
    turn ends the frost lets go."""
    b = duel()
    b.dice = LoadedDice([4, 2, 5])
    events = accepted(b, unit="mara", action="cast", spell="frost_grip", target="grok")
    assert spent(events, "mara", "cast") == ("one_and_half", 2, 2)
    assert events[2:] == [
        {"type": "rolled", "unit": "mara", "purpose": "frost_grip: FCS Check", "die": 8,
         "result": 4, "bonus": 7, "total": 11},
        {"type": "rolled", "unit": "grok", "purpose": "AGI Save against frost_grip", "die": 6,
         "result": 2, "bonus": 3, "total": 5},
        {"type": "check_resolved", "unit": "grok", "purpose": "AGI Save against frost_grip",
         "total": 5, "against": 11, "success": False},
        {"type": "rolled", "unit": "mara", "purpose": "frost_grip on grok (1d6+1)", "die": 6,
         "result": 5, "bonus": 1, "total": 6},
        {"type": "damaged", "unit": "grok", "amount": 6, "damage_type": "cold",
         "source": "mara's frost_grip", "hp": 10},
        {"type": "condition_gained", "unit": "grok", "condition": "slowed", "value": 1},
    ]  # fmt: skip
    assert budget(b, "mara") == (0, 0)
    end_turns(b, "mara")
    assert spent(accepted(b, unit="grok", action="aim"), "grok", "aim") == ("half", 1, 0)
    ended = accepted(b, unit="grok", action="end_turn")
    assert {"type": "condition_lost", "unit": "grok", "condition": "slowed",
            "reason": "its duration ran out"} in ended  # fmt: skip


def test_R_C4_a_save_that_ties_the_casters_check_resists_the_spell() -> None:
    """R-C4: ties go to the saver — grok's AGI Save 9 against mara's FCS Check 9."""
    b = duel()
    b.dice = LoadedDice([2, 6])
    events = accepted(b, unit="mara", action="cast", spell="frost_grip", target="grok")
    assert events[-1]["type"] == "check_resolved" and events[-1]["success"] is True
    assert hp(b, "grok") == 16 and "slowed" not in conditions_of(b, "grok")


def test_R_M10_a_spell_that_knocks_prone_makes_a_creature_in_deep_water_swim() -> None:
    """R-X20 with R-M10: a rules-data "quake" knocks every creature in its cell Prone; in
    waist-deep water (R-M9) grok starts swimming instead; vex on dry ground falls Prone. No roll
    decides it."""
    quake = parse_abilities(
        {
            "quake": {
                "kind": "ability",
                "tier": "half",
                "target": "cell",
                "range": 10,
                "effects": [{"condition": "prone"}],
            }
        }
    )
    catalog = dataclasses.replace(default_catalog(), abilities=quake)
    units = unit("mara", "blue", "human_mage", "m", abilities=["quake"]) + "\n"
    units += unit("grok", "red", "orc_brute", "g") + "\n" + unit("vex", "red", "orc_raider", "v")
    text = scenario_text("#######\n#m.g.v#\n#######", units, '[legend]\n"g" = { water = 1.0 }\n')
    b = loads(text, catalog=catalog).begin(LoadedDice([8, 1, 1]))
    assert accepted(b, unit="mara", action="use", ability="quake", to=[3, 1])[-1] == {
        "type": "condition_gained", "unit": "grok", "condition": "swimming", "value": 1,
    }  # fmt: skip
    assert accepted(b, unit="mara", action="use", ability="quake", to=[5, 1])[-1] == {
        "type": "condition_gained", "unit": "vex", "condition": "prone", "value": 1,
    }  # fmt: skip


# --- a Very Complex Spell: inferno, an area --------------------------------------------------


AREA_MAP = """
#########
#m......#
#....g..#
#...tv..#
#.......#
#########
"""


def area_battle() -> Battle:
    """Mara at (1,1); inferno at (5,2) reaches 1.5 m: thrak (her ally, (4,3)), grok (5,2) and
    vex (5,3). Initiative: mara 13, vex 6, thrak 5, grok 4."""
    units = "\n".join(
        [
            unit("mara", "blue", "human_mage", "m"),
            unit("thrak", "blue", "orc_shaman", "t"),
            unit("grok", "red", "orc_brute", "g"),
            unit("vex", "red", "orc_raider", "v"),
        ]
    )
    return battle(scenario_text(AREA_MAP, units), [8, 1, 1, 2])


def test_R_X20_inferno_a_very_complex_spell_burns_every_creature_in_its_area() -> None:
    """R-X20: inferno is a Full Action (all H and B, R-B3) aimed at a cell; every creature within
    1.5 m of it makes an AGI Save against one FCS Check (2 + 7 = 9), allies too: thrak fails
    (5) and burns, grok ties (9) and is spared (R-C4), vex fails (6) and burns."""
    b = area_battle()
    b.dice = LoadedDice([2, 1, 1, 1, 6, 2, 4, 4])
    events = accepted(b, unit="mara", action="cast", spell="inferno", to=[5, 2])
    assert spent(events, "mara", "cast") == ("full", 2, 2)
    assert events[1] == {
        "type": "ability_used", "unit": "mara", "ability": "inferno", "target": None,
        "at": [5, 2], "affected": ["thrak", "grok", "vex"],
    }  # fmt: skip
    saves = [(e["unit"], e["total"], e["success"]) for e in events if e["type"] == "check_resolved"]
    assert saves == [("thrak", 5, False), ("grok", 9, True), ("vex", 6, False)]
    burned = [(e["unit"], e["amount"]) for e in events if e["type"] == "damaged"]
    assert burned == [("thrak", 2), ("vex", 8)]
    assert conditions_of(b, "thrak") == {"burning": 2}
    assert conditions_of(b, "vex") == {"burning": 2}
    assert conditions_of(b, "grok") == {} and hp(b, "grok") == 16
    assert budget(b, "mara") == (0, 0)


def test_R_B3_a_very_complex_spell_must_be_the_first_action_of_the_turn() -> None:
    """R-B3: a Full Action only as the first non-free action of the turn."""
    b = area_battle()
    accepted(b, unit="mara", action="aim")
    assert refused(b, unit="mara", action="cast", spell="inferno", to=[5, 2]) == (
        "a Full Action must be the first action of the turn; mara has already acted this turn "
        "(R-B3)"
    )


def test_R_B6_a_quickened_very_complex_spell_is_a_half_action() -> None:
    """R-B6, the table's last row: quickened, a Full Action becomes a ½ Action, so it may follow
    another action. Aimed at an empty cell, it reaches no one and rolls nothing."""
    b = area_battle()
    give(b, "mara", "quickened", 1)
    accepted(b, unit="mara", action="aim")
    events = accepted(b, unit="mara", action="cast", spell="inferno", to=[2, 4], quicken=True)
    assert spent(events, "mara", "cast") == ("half", 1, 0)
    assert types(events) == ["spent", "ability_used"]


def test_R_X20_a_wall_shelters_a_creature_from_an_area() -> None:
    """R-X20 with R-A5: an area reaches the creatures in its radius that a line from its centre
    reaches; here a rules-data "blast" of 3 m, cast by a custom unit. Grok stands behind a wall
    2 m from the centre and is not affected; vex in the open is."""
    blast = parse_abilities(
        {
            "blast": {
                "kind": "spell",
                "tier": "half",
                "target": "area",
                "range": 10,
                "radius": 3,
                "effects": [{"damage": 1, "type": "crushing"}],
            }
        }
    )
    catalog = dataclasses.replace(default_catalog(), abilities=blast)
    units = "\n".join(
        [
            unit("mara", "blue", "human_mage", "m", abilities=["blast"]),
            unit("grok", "red", "orc_brute", "g"),
            unit("vex", "red", "orc_raider", "v"),
        ]
    )
    scenario = loads(scenario_text("#########\n#m...v#g#\n#########", units), catalog=catalog)
    b = scenario.begin(LoadedDice([8, 1, 1]))
    events = accepted(b, unit="mara", action="cast", spell="blast", to=[5, 1])
    assert events[1]["affected"] == ["vex"]
    assert [(e["unit"], e["amount"]) for e in events if e["type"] == "damaged"] == [("vex", 1)]


# --- an ability that Quickens: battle_focus (R-B6, R-K3) ---------------------------------------


def test_R_B6_battle_focus_is_a_source_of_quicken_until_it_wears_off() -> None:
    """R-B6: "Quicken needs a source" — thrak uses battle_focus (an ability, 1 Action: 2 H) and
    is Quickened for 2 turn ends (R-K3). With no half-action left, his firebolt is refused, but
    quickened it is a Bonus Action. At his turn's end Quickened ticks down to 1; on his next turn
    a quickened mend (1½ → 1 Action) heals him (never above the maximum); when that turn ends
    Quickened runs out and Quicken is refused again."""
    b = duel("thrak", "orc_shaman", {"hp": 6})
    events = accepted(b, unit="thrak", action="use", ability="battle_focus")
    assert events == [
        {"type": "spent", "unit": "thrak", "action": "use", "tier": "one", "half": 2,
         "bonus": 0, "free_kind": None, "counts_as_action": True},
        {"type": "ability_used", "unit": "thrak", "ability": "battle_focus", "target": None,
         "at": None, "affected": ["thrak"]},
        {"type": "condition_gained", "unit": "thrak", "condition": "quickened", "value": 2},
    ]  # fmt: skip
    assert refused(b, unit="thrak", action="cast", spell="firebolt", target="grok") == (
        "thrak has only 0 half-actions left; Cast firebolt (½ Action) costs 1 half-action (R-B4)"
    )
    b.dice = LoadedDice([5, 1, 2])
    events = accepted(b, unit="thrak", action="cast", spell="firebolt", target="grok", quicken=True)
    assert spent(events, "thrak", "cast") == ("bonus", 0, 1)
    ended = accepted(b, unit="thrak", action="end_turn")
    assert ended[1] == {
        "type": "condition_gained", "unit": "thrak", "condition": "quickened", "value": 1,
    }  # fmt: skip
    b.dice = LoadedDice([6])
    end_turns(b, "grok")
    events = accepted(b, unit="thrak", action="cast", spell="mend", target="thrak", quicken=True)
    assert spent(events, "thrak", "cast") == ("one", 2, 0)
    assert events[-1] == {
        "type": "healed", "unit": "thrak", "amount": 8, "source": "thrak's mend", "hp": 14,
    }  # fmt: skip
    ended = accepted(b, unit="thrak", action="end_turn")
    assert ended[1] == {
        "type": "condition_lost", "unit": "thrak", "condition": "quickened",
        "reason": "its duration ran out",
    }  # fmt: skip
    end_turns(b, "grok")
    assert refused(b, unit="thrak", action="use", ability="battle_focus", quicken=True) == (
        "thrak has nothing that Quickens actions (R-B6: Quicken needs a source)"
    )


def test_R_X20_mend_heals_an_ally_within_reach_and_only_an_ally() -> None:
    """R-X20: mend targets an ally within 1.5 m; an enemy or a far ally is refused."""
    units = "\n".join(
        [
            unit("thrak", "blue", "orc_shaman", "t"),
            unit("ana", "blue", "human_fighter", "a", hp=5),
            unit("bram", "blue", "human_archer", "b"),
            unit("grok", "red", "orc_brute", "g"),
        ]
    )
    b = battle(scenario_text("#ta.b.g#", units), [8, 1, 1, 1])
    assert refused(b, unit="thrak", action="cast", spell="mend", target="grok") == (
        "mend targets an ally; grok is not on thrak's side (R-X20)"
    )
    assert refused(b, unit="thrak", action="cast", spell="mend", target="bram") == (
        "bram is 3 m away; mend reaches 1.5 m (R-X20)"
    )
    b.dice = LoadedDice([3])
    events = accepted(b, unit="thrak", action="cast", spell="mend", target="ana")
    assert events[-1] == {
        "type": "healed", "unit": "ana", "amount": 6, "source": "thrak's mend", "hp": 11,
    }  # fmt: skip


# --- Interrupt (R-R7) ----------------------------------------------------------------------------


def interrupt_battle() -> Battle:
    """Mara casts next to grok, who interrupts whenever he can (policy "always"); mara never
    defends."""
    units = unit("mara", "blue", "human_mage", "m", policy="never") + "\n"
    units += unit("grok", "red", "orc_brute", "g", policy="always")
    return battle(scenario_text("#######\n#mg...#\n#######", units), [8, 1])


def test_R_R7_an_interrupt_that_hits_cancels_the_spell_and_its_cost_stays_spent() -> None:
    """R-R7: an adjacent enemy with 2 Bonus Actions interrupts a spell with a melee Hit Roll
    (6 + 7 = 13) against mara's Defense Roll (2; she may only Dodge, and does not); on the hit
    the spell is lost, she takes the greataxe's damage (7 less padded 1), and the ½ Action she
    paid stays spent."""
    b = interrupt_battle()
    b.dice = LoadedDice([6, 2])
    events = accepted(b, unit="mara", action="cast", spell="firebolt", target="grok")
    assert events[:3] == [
        {"type": "spent", "unit": "mara", "action": "cast", "tier": "half", "half": 1,
         "bonus": 0, "free_kind": None, "counts_as_action": True},
        {"type": "reaction_answered", "unit": "grok", "window": "interrupt",
         "trigger": "mara starts casting firebolt next to grok",
         "options": ["interrupt", "none"], "choice": "interrupt", "by": "policy"},
        {"type": "spent", "unit": "grok", "action": "interrupt", "tier": "bonus_x2", "half": 0,
         "bonus": 2, "free_kind": None, "counts_as_action": False},
    ]  # fmt: skip
    assert events[-2:] == [
        {"type": "damaged", "unit": "mara", "amount": 6, "damage_type": "slashing",
         "source": "grok's greataxe", "hp": 6},
        {"type": "action_lost", "unit": "mara", "action": "casting firebolt",
         "reason": "interrupted by grok (R-R7)"},
    ]  # fmt: skip
    assert "ability_used" not in types(events)
    assert budget(b, "mara") == (1, 2)
    assert budget(b, "grok") == (2, 0)
    assert conditions_of(b, "grok") == {}


def test_R_R7_an_interrupt_that_misses_lets_the_spell_go_off() -> None:
    """R-R7: on a miss (8 against 8, R-A3) the spell resolves; grok, his Bonus Actions spent on
    the Interrupt, cannot Dodge it (R-R8). An ability is interrupted the same way."""
    b = interrupt_battle()
    b.dice = LoadedDice([1, 8, 5, 2, 4])
    events = accepted(b, unit="mara", action="cast", spell="firebolt", target="grok")
    assert "action_lost" not in types(events)
    assert events[-2:] == [
        {"type": "damaged", "unit": "grok", "amount": 4, "damage_type": "fire",
         "source": "mara's firebolt", "hp": 12},
        {"type": "condition_gained", "unit": "grok", "condition": "burning", "value": 2},
    ]  # fmt: skip
    windows = [(e["unit"], e["window"]) for e in events if e["type"] == "reaction_answered"]
    assert windows == [("grok", "interrupt"), ("mara", "defence")]  # none for grok's defence


def test_R_R7_an_ability_can_be_interrupted_too() -> None:
    """R-R7: "a spell, a ranged attack, an ability" — battle_focus lost, 2 H spent."""
    units = unit("thrak", "blue", "orc_shaman", "t", policy="never") + "\n"
    units += unit("grok", "red", "orc_brute", "g", policy="always")
    b = battle(scenario_text("#tg#", units), [8, 1])
    b.dice = LoadedDice([6, 1])
    events = accepted(b, unit="thrak", action="use", ability="battle_focus")
    assert events[-1]["type"] == "action_lost"
    assert events[-1]["action"] == "using battle_focus"
    assert "quickened" not in conditions_of(b, "thrak")
    assert budget(b, "thrak") == (0, 2)


# --- refusals ------------------------------------------------------------------------------------

REFUSAL_MAP = """
###############
#m..#..v......#
#.............#
#t...........z#
###############
"""


def refusal_battle() -> Battle:
    units = "\n".join(
        [
            unit("mara", "blue", "human_mage", "m"),
            unit("thrak", "blue", "orc_shaman", "t"),
            unit("vex", "red", "orc_raider", "v"),
            unit("zed", "red", "orc_brute", "z"),
        ]
    )
    return battle(scenario_text(REFUSAL_MAP, units), [8, 1, 2, 1])


@pytest.mark.parametrize(
    ("decision", "reason"),
    [
        (
            dict(action="cast", spell="fireball", target="zed"),
            "there is no spell 'fireball' (known: firebolt, frost_grip, inferno, mend) (R-X20)",
        ),
        (
            dict(action="use", ability="rage"),
            "there is no ability 'rage' (known: battle_focus) (R-X20)",
        ),
        (
            dict(action="cast", spell="mend", target="thrak"),
            "mara does not know mend (it knows: firebolt, frost_grip, inferno) (R-X20)",
        ),
        (
            dict(action="cast", spell="battle_focus"),
            'battle_focus is an ability, not a spell: use it with "action": "use" (R-X20)',
        ),
        (
            dict(action="use", ability="firebolt", target="zed"),
            'firebolt is a spell, not an ability: cast it with "action": "cast" (R-X20)',
        ),
        (
            dict(action="cast", spell="firebolt", target="zed"),
            "zed is 13 m away; firebolt reaches 12 m (R-X20)",
        ),
        (
            dict(action="cast", spell="firebolt", target="vex"),
            "no line of sight to vex: the wall at (4,1) blocks it (R-A5)",
        ),
        (
            dict(action="cast", spell="firebolt", target="thrak"),
            "firebolt targets an enemy; thrak is on mara's side (R-X20)",
        ),
        (
            dict(action="cast", spell="firebolt"),
            'firebolt needs "target": the id of an enemy, and no "to" (R-X20)',
        ),
        (
            dict(action="cast", spell="firebolt", target="nobody"),
            "there is no creature 'nobody' to target with firebolt (R-X20)",
        ),
        (
            dict(action="cast", spell="inferno", target="zed"),
            'inferno is aimed at a cell: it needs "to": [x, y], and no "target" (R-X20)',
        ),
        (
            dict(action="cast", spell="inferno", to=[4, 1]),
            "(4,1) is a wall; inferno needs an open cell (R-A5)",
        ),
        (dict(action="cast", spell="inferno", to=[20, 1]), "(20,1) is outside the 15x5 map (R-U1)"),
        (
            dict(action="cast", spell="frost_grip", target="zed"),
            "zed is 13 m away; frost_grip reaches 8 m (R-X20)",
        ),
    ],
)
def test_R_X20_refusals(decision: dict[str, Any], reason: str) -> None:
    """R-X20, R-A5: a refused cast names why and changes nothing (`refused` checks)."""
    b = refusal_battle()
    assert refused(b, unit="mara", **decision) == reason


def test_R_X8_a_spell_cannot_single_out_a_creature_its_caster_does_not_see() -> None:
    b = refusal_battle()
    give(b, "zed", "unseen", ("mara",))
    assert refused(b, unit="mara", action="cast", spell="frost_grip", target="zed") == (
        "mara cannot see zed: it is Unseen by mara (R-X8)"
    )


def test_R_B4_a_spell_the_budget_cannot_pay_is_refused() -> None:
    """R-B4: after Aim (1 B), a Complex Spell's 2 B cannot be paid."""
    b = refusal_battle()
    accepted(b, unit="mara", action="aim")
    assert refused(b, unit="mara", action="cast", spell="frost_grip", target="zed") == (
        "mara has only 1 Bonus Action left; Cast frost_grip (1½ Action) costs 2 Bonus Actions "
        "(R-B4)"
    )


def test_R_X20_a_self_ability_takes_no_target() -> None:
    units = unit("thrak", "blue", "orc_shaman", "t") + "\n" + unit("grok", "red", "orc_brute", "g")
    b = battle(scenario_text("#t..g#", units), [8, 1])
    assert refused(b, unit="thrak", action="use", ability="battle_focus", target="grok") == (
        "battle_focus affects only thrak itself; it takes no target (R-X20)"
    )


# --- script lines ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        {"unit": "mara", "action": "cast", "spell": "firebolt", "target": "grok"},
        {"unit": "mara", "action": "cast", "spell": "inferno", "to": [5, 2], "quicken": True},
        {"unit": "thrak", "action": "use", "ability": "battle_focus", "slow": True},
    ],
)
def test_cast_and_use_lines_read_back_as_written(line: dict[str, Any]) -> None:
    decision = parse(line)
    assert isinstance(decision, Cast | Use)
    assert to_json(decision) == line


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ({"unit": "mara", "action": "cast"}, 'needs "spell": the name of a spell, e.g. "firebolt"'),
        ({"unit": "mara", "action": "use", "spell": "x"}, "unknown field(s) for use: spell"),
        (
            {"unit": "mara", "action": "cast", "spell": "inferno", "to": [1, 2, 3]},
            '"to" is a cell [x, y], not [1, 2, 3]',
        ),
    ],
)
def test_malformed_cast_lines_are_refused_with_the_field(line: dict[str, Any], reason: str) -> None:
    with pytest.raises(DecisionError) as error:
        parse(line)
    assert str(error.value) == reason


# --- the shipped scenario ----------------------------------------------------------------------

SPELLS = ROOT / "scenarios" / "spells.toml"


def test_the_spells_scenario_has_a_mage_and_a_shaman_on_each_side() -> None:
    world = load(SPELLS).world
    teams: dict[str, list[str]] = {}
    for uid in creatures(world):
        teams.setdefault(world.need(uid, Team).name, []).append(uid)
    assert sorted(teams) == ["blue", "red"]
    for members in teams.values():
        knows = {name for uid in members for name in known(world, uid)}
        assert {"firebolt", "frost_grip", "inferno", "battle_focus", "mend"} <= knows


# (action, a spell or ability: an index into what the actor knows, else any name, target or
# cell, quicken)
CASTS = st.tuples(
    st.sampled_from(("cast", "cast", "use", "end_turn")),
    st.one_of(st.integers(0, 2), st.sampled_from((*default_abilities(), "nothing"))),
    st.one_of(
        st.sampled_from(("ana", "mara", "thrak", "grok", "zul", "vela", "")),
        st.tuples(st.integers(-1, 16), st.integers(-1, 7)),
    ),
    st.sampled_from((False, False, True)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), choices=st.lists(CASTS, min_size=1, max_size=40))
def test_random_casting_in_the_spells_scenario_keeps_the_invariants(
    seed: int, choices: list[tuple[str, int | str, Any, bool]]
) -> None:
    """R-B4: a refused cast changes nothing; budgets stay within a turn's worth (R-B2); hit
    points never above the maximum; the same seed and lines give the same log."""
    scenario = load(SPELLS)

    def play() -> tuple[Battle, list[dict[str, Any]]]:
        b = scenario.begin(SeededDice(seed), seed)
        lines = []
        for action, name, aim, quicken in choices:
            pending = b.pending
            if not isinstance(pending, AwaitingAction):
                break
            line: dict[str, Any] = {"unit": pending.unit, "action": action}
            if action != "end_turn":
                knows = known(b.world, pending.unit) or ("nothing",)
                spell = knows[name % len(knows)] if isinstance(name, int) else name
                line["spell" if action == "cast" else "ability"] = spell
                if isinstance(aim, tuple):
                    line["to"] = list(aim)
                elif aim:
                    line["target"] = aim
                if quicken:
                    line["quicken"] = True
            lines.append(line)
            decision = parse(line)
            before = b.world.copy()
            outcome = b.submit(decision)
            if isinstance(outcome, Refusal):
                assert b.world == before, (line, outcome)
            else:
                assert isinstance(outcome, Accepted)
            for uid in creatures(b.world):
                left = b.world.need(uid, Budget)
                assert 0 <= left.half <= 2 and 0 <= left.bonus <= 2
                health = b.world.need(uid, Health)
                assert health.hp <= health.max_hp
        return b, lines

    first, lines = play()
    second, again = play()
    assert again == lines
    assert first.log == second.log
    assert first.world == second.world


# --- issue #28: the tags that say what each roll and attack was for ----------------------------


def test_tags_a_spell_attack_is_tagged_a_spell_and_its_damage_is_the_caster_s() -> None:
    b = duel()
    b.dice = LoadedDice([5, 3, 3])
    since = len(b.log)
    accepted(b, unit="mara", action="cast", spell="firebolt", target="grok")
    assert tagged(b, since) == [
        ("rolled", RollKind.HIT),
        ("rolled", RollKind.DEFENSE),
        ("attack_resolved", AttackKind.SPELL),
        ("rolled", RollKind.EFFECT),
        ("damaged", "mara"),
    ]


def test_tags_a_saved_against_spell_tags_the_check_the_save_and_the_damage_dice() -> None:
    b = duel()
    b.dice = LoadedDice([4, 2, 5])
    since = len(b.log)
    accepted(b, unit="mara", action="cast", spell="frost_grip", target="grok")
    assert tagged(b, since) == [
        ("rolled", RollKind.CAST),
        ("rolled", RollKind.SAVE),
        ("check_resolved", RollKind.SAVE),
        ("rolled", RollKind.EFFECT),
        ("damaged", "mara"),
    ]


def test_R_X9_an_evading_target_s_save_says_so_in_its_roll_and_its_outcome() -> None:
    """R-X9: the first AGI Save of an evading creature doubles its AGI Bonus (3 + 3): the roll
    and the save's outcome both say so, and Evade is used up."""
    b = duel()
    apply(b.world, ev.ConditionGained("grok", Held.EVADING))
    b.dice = LoadedDice([4, 2, 5])
    events = accepted(b, unit="mara", action="cast", spell="frost_grip", target="grok")
    words = "AGI Save against frost_grip, Evade: AGI Bonus doubled"
    assert [(e["type"], e["total"]) for e in events if e.get("purpose") == words] == [
        ("rolled", 2 + 3 + 3),
        ("check_resolved", 2 + 3 + 3),
    ]
    assert "evading" not in conditions_of(b, "grok")
