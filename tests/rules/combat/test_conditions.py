"""Issue 4, conditions (R-K1..R-K5) as transcripts with loaded dice: Prone, Incapacitated,
Quickened and Slowed, Burning and fire terrain, Bleeding and `bleed` weapons.

Every creature is tests/movers.BASE: STR d8+6, AGI d8+8, FCS d8+6, RES d10+5 (15 HP), a human,
no armour, nothing held unless a test says so, reaction policy "never".
"""

from __future__ import annotations

from typing import Any

import pytest

from sim.core.components import Position
from sim.core.geometry import Pos
from sim.play.engine import AwaitingAction, AwaitingReaction, Battle
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
    types,
    wd,
)
from tests.movers import creature


def begin(rows: str, *units: str, dice: tuple[int, ...] = ()) -> Battle:
    """Initiative 8, 7, 6, ... in scenario order (equal AGI: the first unit acts first)."""
    rolls = [8 - i for i in range(len(units))]
    return battle(scenario_text(rows, "\n".join(units)), [*rolls, *dice])


def windows(events: list[dict[str, Any]]) -> list[tuple[str, str, list[str], str]]:
    """(unit, window, options, choice) of each reaction window."""
    return [
        (e["unit"], e["window"], e["options"], e["choice"])
        for e in events
        if e["type"] == "reaction_answered"
    ]


OPEN = """
.........
.ab......
.........
"""


# --- R-K1 Prone ----------------------------------------------------------------------------------


def test_R_K1_R_M10_a_prone_creature_cannot_dodge_but_may_still_block() -> None:
    """R-K1, R-M10, R-R1: bob lies Prone: ana's attack offers him no Dodge; with
    a shield he is offered Block alone. (bob, policy "ask", is first offered an Interrupt of the
    attack, R-R7, and lets it start.)"""
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", policy="ask", prone=True),
        dice=(5, 3),
    )
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert windows(events) == []
    assert b.pending == AwaitingReaction(
        "bob", "ana starts a melee attack next to bob", ("interrupt", "none")
    )
    events = accepted(b, unit="bob", reaction="none")
    assert windows(events) == [("bob", "interrupt", ["interrupt", "none"], "none")]
    assert isinstance(b.pending, AwaitingAction)
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", policy="ask", prone=True, held=["buckler"]),
        dice=(5, 3, 1),
    )
    accepted(b, unit="ana", action="attack", target="bob")
    accepted(b, unit="bob", reaction="none")
    events = accepted(b, unit="bob", reaction="block")
    assert windows(events) == [("bob", "defence", ["block", "none"], "block")]


def test_R_K1_a_prone_creature_acts_normally_but_moves_only_by_crawl() -> None:
    """R-K1, R-M10: Prone bob attacks as usual; a Walk is refused, a Crawl allowed."""
    b = begin(
        OPEN, creature("bob", "red", "b", prone=True), creature("ana", "blue", "a"), dice=(8, 1)
    )
    events = accepted(b, unit="bob", action="attack", target="ana")
    assert events[-2]["type"] == "attack_resolved" and events[-2]["hit"] is True
    assert refused(b, unit="bob", action="walk", path=[[3, 1]]) == (
        "bob is prone; it moves only by Crawl until it stands up (R-M8, R-M10)"
    )
    end_turns(b, "bob", "ana")
    accepted(b, unit="bob", action="crawl", path=[[3, 1]])
    assert b.world.need("bob", Position).cell == Pos(3, 1)


# --- R-K2 Incapacitated --------------------------------------------------------------------------


def test_R_K2_an_incapacitated_creature_takes_no_actions_and_its_turns_pass() -> None:
    rows = """
    .........
    .abc.....
    .........
    """
    b = begin(
        rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), creature("cy", "red", "c")
    )
    give(b, "ana", "incapacitated")
    assert refused(b, unit="ana", action="aim") == (
        "ana is incapacitated and can take no actions (R-K2)"
    )
    b = begin(
        rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), creature("cy", "red", "c")
    )
    give(b, "bob", "incapacitated")
    events = accepted(b, unit="ana", action="end_turn")
    assert {"type": "turn_skipped", "unit": "bob", "reason": "incapacitated"} in events
    assert b.pending == AwaitingAction("cy")


def test_R_K2_R_A2_an_incapacitated_defender_is_not_asked_and_its_defense_roll_is_0() -> None:
    """R-K2, R-A2: bob (policy "ask") is Incapacitated: no window, no RES roll, Defense 0."""
    rows = """
    .........
    .abc.....
    .........
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", policy="ask"),
        creature("cy", "red", "c"),
        dice=(1,),
    )
    give(b, "bob", "incapacitated")
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert types(events) == ["spent", "attack_counted", "rolled", "attack_resolved", "damaged"]
    assert events[3]["defense_roll"] == 0 and events[3]["hit"] is True


def test_R_K2_R_R4_a_creature_downed_on_its_own_turn_loses_the_rest_of_it() -> None:
    """R-K2 with R-R4: ana (1 HP) walks away from bob, whose Attack of Opportunity (greataxe,
    WD 7) downs her; her walk stops and, as she can no longer act or end her turn, her turn
    ends and bob's begins."""
    rows = """
    .........
    .ab......
    ......c..
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", hp=1),
        creature("bob", "red", "b", policy="always", held=["greataxe"]),
        creature("cat", "blue", "c"),
        dice=(8, 1),
    )
    events = accepted(b, unit="ana", action="walk", path=[[0, 1], [0, 2]])
    assert "incapacitated" in conditions_of(b, "ana")
    assert b.world.need("ana", Position).cell == Pos(1, 1)
    assert types(events)[-7:] == [
        "damaged",
        "condition_gained",
        "move_cut_short",
        "turn_ended",
        "turn_started",
        "budget_refilled",
        "attack_window_reset",  # bob's Attack of Opportunity was in its own window (R-A1)
    ]
    assert b.pending == AwaitingAction("bob")


# --- R-K3 Quickened and Slowed -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decision", "tier", "cost"),
    [
        ({"action": "aim"}, "half", (1, 0)),  # Bonus -> ½
        ({"action": "attack", "target": "bob"}, "one", (2, 0)),  # ½ -> 1
        ({"action": "brace"}, "one_and_half", (2, 2)),  # 1 -> 1½
        ({"action": "drop", "item": "club"}, "bonus", (0, 1)),  # Free -> Bonus (R-B7)
    ],
)
def test_R_K3_a_slowed_creature_takes_every_action_one_step_slower(
    decision: dict[str, Any], tier: str, cost: tuple[int, int]
) -> None:
    """R-K3, R-B6: Slowed is as if every action were Slowed."""
    b = begin(
        OPEN, creature("ana", "blue", "a", held=["club"]), creature("bob", "red", "b"), dice=(1, 1)
    )
    give(b, "ana", "slowed", 1)
    events = accepted(b, unit="ana", **decision)
    assert events[0]["tier"] == tier
    assert (events[0]["half"], events[0]["bonus"]) == cost


def test_R_K3_slowed_and_slowing_an_action_too_is_still_one_step() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"))
    give(b, "ana", "slowed", 1)
    events = accepted(b, unit="ana", action="aim", slow=True)
    assert events[0]["tier"] == "half"


def test_R_K3_a_slowed_creature_cannot_afford_what_it_could_before() -> None:
    """R-K3, R-B4: a Slowed Run is a 1½ Action: 2 H and 2 B, refused after a Bonus Action."""
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"))
    give(b, "ana", "slowed", 1)
    accepted(b, unit="ana", action="disengage")  # Bonus -> ½: 1 H
    assert budget(b, "ana") == (1, 2)
    assert refused(b, unit="ana", action="run", path=[[1, 0]]) == (
        "ana is Slowed, so Run is a 1½ Action: 2 half-actions and 2 Bonus Actions; ana has"
        " 1 half-action and 2 Bonus Actions left: 1 half-action short (R-K3)"
    )


def test_R_K3_quickened_and_slowed_at_once_quicken_then_slow() -> None:
    """R-K3 Decision: a Quickened creature that is also Slowed and quickens an Attack (½ ->
    Bonus) takes it one step slower again: a ½ Action."""
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(1, 1))
    give(b, "ana", "quickened", 1)
    give(b, "ana", "slowed", 1)
    events = accepted(b, unit="ana", action="attack", target="bob", quicken=True)
    assert events[0]["tier"] == "half"


def test_R_K3_a_quickened_creature_may_quicken_and_quickened_runs_out() -> None:
    """R-K3, R-B6: Quickened is the source Quicken needs; its turns count down at turn ends, as
    do Slowed's."""
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(1, 1))
    assert refused(b, unit="ana", action="attack", target="bob", quicken=True) == (
        "ana has nothing that Quickens actions (R-B6: Quicken needs a source)"
    )
    give(b, "ana", "quickened", 2)
    give(b, "ana", "slowed", 2)
    events = accepted(b, unit="ana", action="brace", quicken=True)
    assert events[0]["tier"] == "one"  # 1 -> ½ (quickened) -> 1 (slowed)
    end_turns(b, "ana")
    assert conditions_of(b, "ana") == {"braced": 1, "quickened": 1, "slowed": 1}
    end_turns(b, "bob", "ana")
    assert conditions_of(b, "ana") == {}


# --- R-K4 Burning ---------------------------------------------------------------------------------


def test_R_K4_burning_deals_1_fire_damage_a_stack_then_loses_a_stack() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"))
    give(b, "bob", "burning", 3)
    end_turns(b, "ana")
    assert hp(b, "bob") == 12 and conditions_of(b, "bob") == {"burning": 2}
    end_turns(b, "bob", "ana")
    assert hp(b, "bob") == 10 and conditions_of(b, "bob") == {"burning": 1}
    end_turns(b, "bob", "ana")
    assert hp(b, "bob") == 9 and conditions_of(b, "bob") == {}


def test_R_K4_fire_terrain_adds_2_stacks_for_each_fire_cell_entered() -> None:
    """R-K4: ana walks through two fire cells: 2 + 2 stacks; at her next turn start she takes
    4 and keeps 3."""
    rows = """
    .........
    .a^^.....
    .......b.
    """
    b = begin(rows, creature("ana", "blue", "a"), creature("bob", "red", "b"))
    events = accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1], [4, 1]])
    gained = [e["value"] for e in events if e["type"] == "condition_gained"]
    assert gained == [2, 4]
    end_turns(b, "ana", "bob")
    assert hp(b, "ana") == 11 and conditions_of(b, "ana") == {"burning": 3}


# --- R-K5 Bleeding --------------------------------------------------------------------------------


def test_R_K5_a_bleed_weapon_adds_stacks_on_each_hit_and_they_do_not_fade() -> None:
    """R-K5: a serrated knife (bleed 1) hits twice: 2 stacks; bob takes 2 at the start of
    each of his turns, and the stacks stay."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a", held=["serrated_knife"]),
        creature("bob", "red", "b"),
        dice=(8, 1, 8, 1),
    )
    accepted(b, unit="ana", action="attack", target="bob")
    assert conditions_of(b, "bob") == {"bleeding": 1}
    accepted(b, unit="ana", action="attack", target="bob")
    assert conditions_of(b, "bob") == {"bleeding": 2}
    left = 15 - 2 * wd("serrated_knife")  # no armour (R-A3)
    assert hp(b, "bob") == left
    end_turns(b, "ana")
    assert hp(b, "bob") == left - 2
    end_turns(b, "bob", "ana")
    assert hp(b, "bob") == left - 4 and conditions_of(b, "bob") == {"bleeding": 2}


def test_R_K5_a_miss_with_a_bleed_weapon_adds_nothing() -> None:
    b = begin(
        OPEN,
        creature("ana", "blue", "a", held=["serrated_knife"]),
        creature("bob", "red", "b"),
        dice=(1, 10),
    )
    accepted(b, unit="ana", action="attack", target="bob")
    assert conditions_of(b, "bob") == {}


def test_R_K_ask_policy_waits_only_when_a_reaction_is_possible() -> None:
    """R-K1 with R-R8: a Prone bob with policy "ask" and no shield has no defence to choose, so
    after the Interrupt he lets pass (R-R7) the attack does not wait for him; standing, it
    does."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", policy="ask", prone=True),
        dice=(5, 3),
    )
    accepted(b, unit="ana", action="attack", target="bob")
    accepted(b, unit="bob", reaction="none")
    assert isinstance(b.pending, AwaitingAction)
    b = begin(
        OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b", policy="ask"), dice=(5, 3)
    )
    accepted(b, unit="ana", action="attack", target="bob")
    accepted(b, unit="bob", reaction="none")
    assert b.pending == AwaitingReaction(
        "bob", "ana attacks bob (melee attack, Hit Roll 11)", ("dodge", "none")
    )
