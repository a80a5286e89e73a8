"""Bugs found in a rule-by-rule review, each pinned by a transcript before it was fixed.

Creatures are tests/movers.BASE (human, STR d8+6, AGI d8+8, FCS d8+6, RES d10+5, nothing in
hand, policy "never") unless a test overrides them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from sim.core.components import Position
from sim.core.condition import Condition
from sim.core.geometry import Pos
from sim.play.engine import AwaitingAction, Battle
from sim.rules.reach.opportunity import provocations
from tests.helpers import (
    accepted,
    battle,
    budget,
    conditions_of,
    end_turns,
    give,
    scenario_text,
    types,
)
from tests.movers import creature, legend


def at(b: Battle, uid: str) -> Pos:
    return b.world.need(uid, Position).cell


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


# --- R-P3 with R-K2: a triggered preparer downed before it acts does not stall the battle ------


def test_R_P3_R_K2_a_triggered_plan_of_a_creature_downed_meanwhile_is_dropped() -> None:
    """R-P3: bo runs up to ana and sets off her plan; before bo's turn ends ana is downed
    (R-K2: it takes no actions). Her plan is dropped and the next creature, dan, starts its
    turn; the battle does not wait for an action ana can never take."""
    rows = "..........\n.a......b.\n.d........"
    units = "\n".join(
        [creature("ana", "blue", "a"), creature("bo", "red", "b"), creature("dan", "blue", "d")]
    )
    b = battle(scenario_text(rows, units), [8, 7, 6])
    accepted(
        b,
        unit="ana",
        action="prepare",
        trigger="enemy_within",
        metres=1.5,
        then={"action": "attack", "target": "bo"},
    )
    events = accepted(b, unit="bo", action="run", to=[2, 1])
    assert "plan_triggered" in types(events)
    give(b, "ana", "incapacitated")
    events = accepted(b, unit="bo", action="end_turn")
    assert "plan_dropped" in types(events)
    assert b.pending == AwaitingAction("dan")


# --- R-X9: Evade doubles the AGI Bonus of the first AGI Save, a spell's too --------------------


def test_R_X9_evade_doubles_the_agi_bonus_of_an_agi_save_against_a_spell() -> None:
    """R-X9: "the creature's AGI Bonus counts double on its first AGI Save or Dodge until its
    next turn". bo evades; ana's frost_grip (AGI Save against her FCS Check, 8 + 6 = 14) is
    saved by bo's 1 + 8 + 8 = 17, and Evade is used up."""
    rows = "......\n.a..b.\n......"
    units = "\n".join(
        [creature("ana", "blue", "a", abilities=["frost_grip"]), creature("bo", "red", "b")]
    )
    b = battle(scenario_text(rows, units), [3, 4, 8, 1])
    accepted(b, unit="bo", action="evade")
    end_turns(b, "bo")
    events = accepted(b, unit="ana", action="cast", spell="frost_grip", target="bo")
    save = [e for e in events if e["type"] == "rolled" and e["unit"] == "bo"]
    assert [(s["result"], s["total"]) for s in save] == [(1, 17)]
    resolved = [e for e in events if e["type"] == "check_resolved"]
    assert resolved[0]["success"] is True
    assert "evading" not in conditions_of(b, "bo")
    assert "slowed" not in conditions_of(b, "bo")


# --- R-R4: a Climb is a Movement Action and provokes when it leaves reach ----------------------


def test_R_R4_R_M7_climbing_out_of_reach_provokes_an_attack_of_opportunity() -> None:
    """R-R4: "when an enemy within reach tries to leave the reach with a Movement Action", and
    Climb is one (R-M7). ana climbs the 3 m face to (2,1); bo below at (1,2) cannot reach 3 m up
    (R-A4), so it attacks first, before she leaves."""
    rows = ".....\n.aDDD\n.b..."
    extra = legend(D={"height": 3, "climbable": True})
    units = "\n".join(
        [
            creature("ana", "blue", "a", agi="d4+8"),
            creature("bo", "red", "b", policy="always"),
        ]
    )
    b = battle(scenario_text(rows, units, extra), [4, 3, 8, 1])
    events = accepted(b, unit="ana", action="climb", to=[2, 1])
    kinds = types(events)
    assert "attack_resolved" in kinds
    assert kinds.index("attack_resolved") < kinds.index("climbed")
    resolved = next(e for e in events if e["type"] == "attack_resolved")
    assert resolved["purpose"] == "attack of opportunity"
    assert at(b, "ana") == Pos(2, 1)


# --- R-G4: moved apart ends a grapple, whatever the grappler holds -----------------------------


def test_R_G4_a_grapple_ends_when_pushed_apart_even_if_the_grappler_holds_a_reach_weapon() -> None:
    """R-G4: "The grapple ends if either creature is moved apart". ana grapples bo, then draws
    a spear (a `reach` weapon, R-A4); cy shoves bo 2 m away. Two cells apart they are no
    longer together: the spear's reach is not a grip."""
    rows = "......\n.ac...\n..b...\n......"
    units = "\n".join(
        [
            creature("ana", "blue", "a", carried=["spear"]),
            creature("bo", "red", "b"),
            creature("cy", "blue", "c"),
        ]
    )
    b = battle(scenario_text(rows, units), [4, 3, 2, 6, 2, 4, 1, 8])
    accepted(b, unit="ana", action="grapple", target="bo")
    assert conditions_of(b, "bo").get("grappled") == "ana"
    accepted(b, unit="ana", action="draw", item="spear")
    end_turns(b, "ana", "bo")
    accepted(b, unit="cy", action="shove", target="bo")
    assert at(b, "bo") == Pos(2, 3)
    assert "grappling" not in conditions_of(b, "ana")
    assert "grappled" not in conditions_of(b, "bo")


# --- R-B3: Sprint's extra Bonus Action is a number of the rules data ---------------------------


def test_R_B3_sprint_extra_bonus_comes_from_the_rules_data() -> None:
    """R-B3 "Sprint costs exactly what the text says: 1 Action + 1 Bonus Action", and every
    number lives in rules.toml ([sprint] extra_bonus): a table that changes it changes Sprint."""
    rows = "..........\n.a........\n.........."
    b = battle(scenario_text(rows, creature("ana", "blue", "a")), [4, 8])
    b.world.rules = replace(b.world.rules, sprint_extra_bonus=0)
    events = accepted(b, unit="ana", action="sprint", to=[5, 1])
    assert (events[0]["half"], events[0]["bonus"]) == (2, 0)
    assert budget(b, "ana") == (0, 2)


# --- R-R8: a defence reaction needs the Bonus Actions the rules data says it costs -------------


def _with_reaction_costs(b: Battle, **costs: int) -> None:
    rules = b.world.rules
    raw: dict[str, Any] = {**rules.raw, "reactions": {**rules.raw["reactions"], **costs}}
    b.world.rules = replace(rules, raw=raw)


def test_R_R8_a_defence_is_not_offered_without_the_bonus_actions_it_costs() -> None:
    """R-R8: "A creature without the Bonus Actions it needs cannot react". With a table's
    Dodge at 2 Bonus Actions ([reactions] defence_bonus), bo with 1 left is not offered one,
    and its budget never goes below 0."""
    rows = "......\n.ab...\n......"
    units = "\n".join([creature("ana", "blue", "a"), creature("bo", "red", "b", policy="always")])
    b = battle(scenario_text(rows, units), [3, 4, 8, 1, 8])
    _with_reaction_costs(b, defence_bonus=2)
    accepted(b, unit="bo", action="aim")
    end_turns(b, "bo")
    events = accepted(b, unit="ana", action="attack", target="bo")
    assert "reaction_answered" not in types(events)
    assert budget(b, "bo") == (2, 1)
    assert b.dice.remaining == 1  # type: ignore[attr-defined]


def test_R_R8_R_R4_provocations_count_the_opportunity_cost_from_the_rules_data() -> None:
    """R-R8 with R-R4: the AoO preview says whether the enemy can pay for the attack; with a
    table's Attack of Opportunity at 2 Bonus Actions, an enemy with 1 left cannot."""
    rows = "......\n.ab...\n......"
    units = "\n".join([creature("ana", "blue", "a"), creature("bo", "red", "b")])
    b = battle(scenario_text(rows, units), [3, 4])
    _with_reaction_costs(b, opportunity_bonus=2)
    accepted(b, unit="bo", action="aim")
    end_turns(b, "bo")
    found = provocations(b.world, "ana", (Pos(0, 1),))
    assert [(p.enemy, p.can_react) for p in found] == [("bo", False)]


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


def test_R_R7_an_enemy_on_a_ledge_above_its_reach_cannot_interrupt() -> None:
    """R-R7 with R-A4: the Interrupt is a melee Hit Roll, so the adjacent enemy must reach:
    a foe 3 m up a ledge (higher than it is tall) cannot interrupt the shot."""
    text = scenario_text(
        "....\n.ab.\n..c.",
        "\n".join([
            creature("ana", "blue", "a", held=["shortbow"]),
            creature("bob", "red", "b", policy="always"),
            creature("cy", "red", "c"),
        ]),
        extra='[legend]\n"b" = { kind = "open", height = 3 }\n',
    )  # fmt: skip
    b = battle(text, [8, 7, 6, 8, 1])
    events = accepted(b, unit="ana", action="attack", target="cy")
    # cy, the adjacent target on the ground, is offered an Interrupt (R-R7); bob is not.
    assert [
        e["unit"] for e in events if e["type"] == "reaction_answered" and e["window"] == "interrupt"
    ] == ["cy"]
