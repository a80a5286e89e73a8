"""Issue 4, attacks and reactions as transcripts with loaded dice: the Hit Roll and its windows
(R-A1), the Defense Roll with Brace, Dodge, Parry, Block and Guard (R-A2, R-R1..R-R3, R-X3,
R-X9, R-X14), hits, damage and armour (R-A3), reach and heights (R-A4), line of sight and range
(R-A5), Attacks of Opportunity and Disengage (R-R4, R-R5), Interrupt (R-R7), and how a
creature's policy answers a window (R-R8).

Every creature is tests/movers.BASE: STR d8+6, AGI d8+8, FCS d8+6, RES d10+5 (15 HP), a human
1.8 m tall, no armour, nothing held unless a test says so, reaction policy "never". A Hit Roll
is d8 + 6 (less in later attacks of a window); an undefended Defense Roll is the d10 alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from sim.core.components import Gear, Hands, Health
from sim.core.geometry import Pos
from sim.core.numbers import default_rules
from sim.core.purpose import AttackKind, RollKind
from sim.play.engine import AwaitingAction, AwaitingReaction, Battle
from tests.helpers import (
    accepted,
    budget,
    conditions_of,
    end_turns,
    give,
    hp,
    rating,
    refused,
    tagged,
    types,
    wd,
)
from tests.movers import begin, cell, creature, legend


def rolls(events: list[dict[str, Any]]) -> list[tuple[str, str, int, int, int]]:
    """(unit, purpose, die result, bonus, total) of each roll."""
    return [
        (e["unit"], e["purpose"], e["result"], e["bonus"], e["total"])
        for e in events
        if e["type"] == "rolled"
    ]


def resolved(events: list[dict[str, Any]]) -> list[tuple[int, int, bool]]:
    """(Hit Roll, Defense Roll, hit) of each attack."""
    return [
        (e["hit_roll"], e["defense_roll"], e["hit"])
        for e in events
        if e["type"] == "attack_resolved"
    ]


def windows(events: list[dict[str, Any]]) -> list[tuple[str, str, list[str], str, str]]:
    """(unit, window, options, choice, by) of each reaction window."""
    return [
        (e["unit"], e["window"], e["options"], e["choice"], e["by"])
        for e in events
        if e["type"] == "reaction_answered"
    ]


OPEN = """
.........
.ab......
.........
"""


def answering(b: Battle, unit: str, *answers: str) -> list[dict[str, Any]]:
    """`unit` (policy "ask") answers the windows it is asked in turn; their events."""
    events: list[dict[str, Any]] = []
    for answer in answers:
        events += accepted(b, unit=unit, reaction=answer)
    return events


# A defender next to its attacker is first offered an Interrupt of the attack (R-R7); these
# transcripts of the defence reactions decline it and then choose the defence.
NO_INTERRUPT = "none"


def duel(
    *dice: int, ana: dict[str, Any] | None = None, bob: dict[str, Any] | None = None
) -> Battle:
    """ana at (1,1) acts first; bob at (2,1) next to her."""
    return begin(
        OPEN,
        creature("ana", "blue", "a", **(ana or {})),
        creature("bob", "red", "b", **(bob or {})),
        dice=dice,
    )


# --- R-A1 the Hit Roll and its window ----------------------------------------------------------


def test_R_A1_the_second_attack_adds_half_the_fcs_bonus_and_the_third_none() -> None:
    """R-A1: FCS Bonus 6: +6, then +3, then +0 (the third attack Quickened to a Bonus Action)."""
    b = duel(1, 10, 1, 10, 1, 10)
    give(b, "ana", "quickened", 1)
    hits = []
    for quicken in (False, False, True):
        events = accepted(b, unit="ana", action="attack", target="bob", quicken=quicken)
        hits += [r for r in rolls(events) if r[0] == "ana"]
    assert hits == [
        ("ana", "hit roll: melee attack on bob", 1, 6, 7),
        ("ana", "hit roll: melee attack on bob", 1, 3, 4),
        ("ana", "hit roll: melee attack on bob", 1, 0, 1),
    ]


def test_R_A1_windows_reset_at_the_start_and_end_of_the_turn_so_an_aoo_has_its_own() -> None:
    """R-A1: ana attacks twice (+6, +3); her window resets as her turn ends; on bob's turn her
    Attack of Opportunity is the first of a new window (+6); it resets again as her turn
    starts, so her next attack is a first one too."""
    b = duel(1, 10, 1, 10, 1, 10, 1, 10, ana={"policy": "always"})
    accepted(b, unit="ana", action="attack", target="bob")
    accepted(b, unit="ana", action="attack", target="bob")
    events = accepted(b, unit="ana", action="end_turn")
    assert {"type": "attack_window_reset", "unit": "ana"} in events
    events = accepted(b, unit="bob", action="walk", path=[[3, 1], [4, 1]])
    assert {"type": "attack_counted", "unit": "ana", "count": 1} in events
    assert rolls(events)[0] == ("ana", "hit roll: attack of opportunity on bob", 1, 6, 7)
    events = accepted(b, unit="bob", action="end_turn")
    assert {"type": "attack_window_reset", "unit": "ana"} in events
    accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1]])
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert rolls(events)[0] == ("ana", "hit roll: melee attack on bob", 1, 6, 7)


# --- R-A2 the Defense Roll; R-A3 hits -----------------------------------------------------------


def test_R_A3_the_attack_hits_when_the_hit_roll_is_greater_and_a_tie_misses() -> None:
    b = duel(4, 10, 5, 10)
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert resolved(events) == [(10, 10, False)]
    assert "damaged" not in types(events)
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert resolved(events) == [(8, 10, False)]  # the second attack: +3


def test_R_A2_R_A3_an_undefended_defense_roll_is_the_res_roll_alone() -> None:
    b = duel(5, 3)
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert rolls(events) == [
        ("ana", "hit roll: melee attack on bob", 5, 6, 11),
        ("bob", "defense roll: ana's melee attack (RES Roll)", 3, 0, 3),
    ]
    assert resolved(events) == [(11, 3, True)]


def test_R_A2_R_X3_brace_doubles_the_res_roll() -> None:
    """R-X3: bob braced on his turn: his RES Roll 7 counts 14, and ana's 14 ties and misses."""
    b = begin(OPEN, creature("bob", "red", "b"), creature("ana", "blue", "a"), dice=(8, 7))
    accepted(b, unit="bob", action="brace")
    end_turns(b, "bob")
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert rolls(events)[1] == (
        "bob",
        "defense roll: ana's melee attack (RES Roll, braced)",
        7,
        7,
        14,
    )
    assert resolved(events) == [(14, 14, False)]


def test_R_A2_R_X3_brace_doubles_every_res_term_of_a_block() -> None:
    """R-X3 with R-R3: braced, bob's Block adds (RES Roll 2 + RES Bonus 5) x 2 + the heater's
    Block Rating on top of his doubled RES Roll 3."""
    b = begin(
        OPEN,
        creature("bob", "red", "b", held=["heater"], policy="ask"),
        creature("ana", "blue", "a"),
        dice=(8, 3, 2),
    )
    accepted(b, unit="bob", action="brace")
    end_turns(b, "bob")
    events = accepted(b, unit="ana", action="attack", target="bob")
    events += answering(b, "bob", NO_INTERRUPT, "block")
    assert rolls(events)[1:] == [
        ("bob", "defense roll: ana's melee attack (RES Roll, braced)", 3, 3, 6),
        ("bob", f"block (RES Roll + Bonus + Block Rating {rating('heater')})", 2,
         12 + rating("heater"), 14 + rating("heater")),
    ]  # fmt: skip
    assert resolved(events) == [(14, 20 + rating("heater"), False)]


def test_R_R1_dodge_adds_agi_roll_and_bonus_for_a_bonus_action() -> None:
    b = duel(8, 1, 3, bob={"policy": "ask"})
    events = accepted(b, unit="ana", action="attack", target="bob")
    events += answering(b, "bob", NO_INTERRUPT, "dodge")
    assert windows(events) == [
        ("bob", "interrupt", ["interrupt", "none"], "none", "player"),
        ("bob", "defence", ["dodge", "none"], "dodge", "player"),
    ]
    assert {
        "type": "spent",
        "unit": "bob",
        "action": "dodge",
        "tier": "bonus",
        "half": 0,
        "bonus": 1,
        "free_kind": None,
        "counts_as_action": False,
    } in events
    assert rolls(events)[2] == ("bob", "dodge (AGI Roll + Bonus)", 3, 8, 11)
    assert resolved(events) == [(14, 12, True)]
    assert budget(b, "bob") == (2, 1)


def test_R_R1_R_X9_evade_doubles_the_agi_bonus_of_the_first_dodge() -> None:
    b = begin(
        OPEN,
        creature("bob", "red", "b", policy="ask"),
        creature("ana", "blue", "a"),
        dice=(8, 1, 3),
    )
    accepted(b, unit="bob", action="evade")
    end_turns(b, "bob")
    events = accepted(b, unit="ana", action="attack", target="bob")
    events += answering(b, "bob", NO_INTERRUPT, "dodge")
    assert rolls(events)[2] == ("bob", "dodge (AGI Roll + Bonus)", 3, 16, 19)
    assert {
        "type": "condition_lost",
        "unit": "bob",
        "condition": "evading",
        "reason": "its first Dodge (R-X9)",
    } in events


def test_R_R2_parry_adds_the_better_of_str_and_agi_and_the_parry_rating() -> None:
    """R-R2: AGI d8+8 is better than STR d8+6: AGI Roll 2 + 8 + a longsword's Parry Rating."""
    b = duel(8, 1, 2, bob={"policy": "ask", "held": ["longsword"]})
    events = accepted(b, unit="ana", action="attack", target="bob")
    events += answering(b, "bob", NO_INTERRUPT, "parry")
    assert windows(events)[1][2] == ["dodge", "parry", "none"]
    longsword = rating("longsword")
    assert rolls(events)[2] == (
        "bob", f"parry (AGI Roll + Bonus + Parry Rating {longsword})", 2, 8 + longsword,
        10 + longsword,
    )  # fmt: skip
    assert resolved(events) == [(14, 11 + longsword, 11 + longsword < 14)]


def test_R_R2_parry_works_against_a_ranged_attack_too() -> None:
    """R-R2: a Parry answers any attack, as the text says ("when defending against an attack"):
    ana shoots bob (longsword, policy "ask") from afar and he may Parry as well as Dodge (no
    Block without a shield, R-R3). Hit Roll 5 + 6 = 11; bob's RES Roll 3, then AGI Roll 2 + 8
    and the longsword's Parry Rating: the arrow misses."""
    rows = """
    .........
    .a.....b.
    .........
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", held=["shortbow"]),
        creature("bob", "red", "b", policy="ask", held=["longsword"]),
        dice=(5, 3, 2),
    )
    accepted(b, unit="ana", action="attack", target="bob")
    assert b.pending == AwaitingReaction(
        "bob", "ana attacks bob (ranged attack, Hit Roll 11)", ("dodge", "parry", "none")
    )
    events = accepted(b, unit="bob", reaction="parry")
    longsword = rating("longsword")
    assert rolls(events) == [
        ("bob", "defense roll: ana's ranged attack (RES Roll)", 3, 0, 3),
        ("bob", f"parry (AGI Roll + Bonus + Parry Rating {longsword})", 2, 8 + longsword,
         10 + longsword),
    ]  # fmt: skip
    assert resolved(events) == [(11, 13 + longsword, False)]
    assert budget(b, "bob") == (2, 1)


def test_R_R2_R_R3_parry_needs_a_held_weapon_a_bow_too_and_block_a_shield() -> None:
    """R-R2 Decision: unarmed bob is offered no Parry (and, without a shield, no Block, R-R3);
    cy holds only a shortbow, whose Parry Rating 0 still parries. ana's second shot of the
    window adds half her FCS Bonus (R-A1): 4 + 3 = 7 against cy's RES Roll 1 + AGI Roll 1 + 8."""
    rows = """
    .........
    .a.....b.
    .......c.
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", held=["shortbow"]),
        creature("bob", "red", "b", policy="ask"),
        creature("cy", "red", "c", policy="ask", held=["shortbow"]),
        dice=(5, 3, 4, 1, 1),
    )
    accepted(b, unit="ana", action="attack", target="bob")
    assert b.pending == AwaitingReaction(
        "bob", "ana attacks bob (ranged attack, Hit Roll 11)", ("dodge", "none")
    )
    accepted(b, unit="bob", reaction="none")
    accepted(b, unit="ana", action="attack", target="cy")
    assert b.pending == AwaitingReaction(
        "cy", "ana attacks cy (ranged attack, Hit Roll 7)", ("dodge", "parry", "none")
    )
    events = accepted(b, unit="cy", reaction="parry")
    assert rolls(events)[1] == ("cy", "parry (AGI Roll + Bonus + Parry Rating 0)", 1, 8, 9)
    assert resolved(events) == [(7, 10, False)]


def test_R_R3_block_adds_res_roll_res_bonus_and_the_block_rating() -> None:
    b = duel(8, 1, 2, bob={"policy": "ask", "held": ["buckler"]})
    events = accepted(b, unit="ana", action="attack", target="bob")
    events += answering(b, "bob", NO_INTERRUPT, "block")
    assert windows(events)[1][2] == ["dodge", "block", "none"]
    buckler = rating("buckler")
    assert rolls(events)[2] == (
        "bob", f"block (RES Roll + Bonus + Block Rating {buckler})", 2, 5 + buckler, 7 + buckler
    )  # fmt: skip
    assert resolved(events) == [(14, 8 + buckler, 8 + buckler < 14)]


def test_R_X14_guard_pays_one_parry_and_is_used_up() -> None:
    """R-X14: bob guarded: his Parry costs no Bonus Action, once; the next one is paid."""
    b = begin(
        OPEN,
        creature("bob", "red", "b", policy="ask", held=["longsword"]),
        creature("ana", "blue", "a"),
        dice=(1, 10, 1, 1, 10, 1),
    )
    accepted(b, unit="bob", action="guard")
    end_turns(b, "bob")
    events = accepted(b, unit="ana", action="attack", target="bob")
    events += answering(b, "bob", NO_INTERRUPT, "parry")
    assert "spent" not in types(events)[1:]
    assert {
        "type": "condition_lost",
        "unit": "bob",
        "condition": "guarding",
        "reason": "its free parry (R-X14)",
    } in events
    assert budget(b, "bob") == (1, 2)
    events = accepted(b, unit="ana", action="attack", target="bob")
    events += answering(b, "bob", NO_INTERRUPT, "parry")
    assert [e["action"] for e in events if e["type"] == "spent"] == ["attack", "parry"]
    assert budget(b, "bob") == (1, 1)


def test_R_X14_guard_once_a_round_even_when_its_parry_was_already_used() -> None:
    """R-X14: bob guards, steps away from ana, parries her Attack of Opportunity for free, and
    may not Guard again before his next turn."""
    b = begin(
        OPEN,
        creature("bob", "red", "b", policy="always", defence="parry", held=["longsword"]),
        creature("ana", "blue", "a", policy="ask"),
        dice=(1, 1, 1),
    )
    accepted(b, unit="bob", action="guard")
    answering(b, "ana", NO_INTERRUPT)  # R-R7: ana lets the Guard be
    assert refused(b, unit="bob", action="guard") == (
        "bob has already used Guard this round (R-X14: once a round)"
    )
    events = accepted(b, unit="bob", action="step", path=[[3, 1]])
    events += answering(b, "ana", "attack")
    assert "its free parry (R-X14)" in [e.get("reason") for e in events]
    assert refused(b, unit="bob", action="guard") == (
        "bob has already used Guard this round (R-X14: once a round)"
    )
    end_turns(b, "bob", "ana")
    accepted(b, unit="bob", action="guard")


# --- R-A3 damage --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "armour"),
    [("dagger", None), ("dagger", "padded"), ("dagger", "hide"), ("dagger", "mail"),
     ("dagger", "plate"), (None, "hide"), (None, "plate")],
)  # fmt: skip
def test_R_A3_damage_is_the_wd_less_the_armour_rating_at_least_0(
    weapon: str | None, armour: str | None
) -> None:
    """R-A3: a dagger against no armour and each shipped armour, and a fist (WD 1) against
    armour that stops it all (the WD and ratings are the catalog's and the rules')."""
    base = wd(weapon) if weapon else default_rules().attack.unarmed_wd
    damage = max(0, base - (rating(armour) if armour else 0))
    bob: dict[str, Any] = {"armour": armour} if armour else {}
    b = duel(8, 1, ana={"held": [weapon] if weapon else []}, bob=bob)
    events = accepted(b, unit="ana", action="attack", target="bob")
    hurt = [e for e in events if e["type"] == "damaged"]
    source = ("piercing", "ana's dagger") if weapon else ("crushing", "ana's fist")
    assert [(e["amount"], e["damage_type"], e["source"]) for e in hurt] == [(damage, *source)]
    assert hp(b, "bob") == 15 - damage


def test_R_A3_unarmed_is_wd_1_crushing() -> None:
    b = duel(8, 1)
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert [e for e in events if e["type"] == "damaged"] == [
        {
            "type": "damaged",
            "unit": "bob",
            "amount": 1,
            "damage_type": "crushing",
            "source": "ana's fist",
            "hp": 14,
        }
    ]


def test_R_A3_R_C6_damage_to_0_hp_incapacitates_and_a_side_falls() -> None:
    b = duel(8, 1, ana={"held": ["greataxe"]}, bob={"hp": 7})
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert types(events)[-3:] == ["damaged", "condition_gained", "battle_ended"]
    assert events[-1]["winners"] == ["blue"]


# --- R-A4 reach and heights ----------------------------------------------------------------------


def test_R_A4_a_reach_weapon_reaches_two_cells_every_way_and_no_further() -> None:
    rows = """
    .......
    .a.b.c.
    ...d...
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", held=["spear"]),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        creature("dee", "red", "d"),
        dice=(1, 10, 1, 10),
    )
    assert refused(b, unit="ana", action="attack", target="cy") == (
        "cy at (5,1) is out of ana's reach (R-A4)"
    )
    accepted(b, unit="ana", action="attack", target="bob")  # 2 cells straight: 2 m
    accepted(b, unit="ana", action="attack", target="dee")  # 2 across, 1 down: within 3 m
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        creature("dee", "red", "d"),
    )
    assert refused(b, unit="ana", action="attack", target="bob") == (
        "bob at (3,1) is out of ana's reach (R-A4)"
    )


@pytest.mark.parametrize(
    ("race", "ledge", "allowed"),
    [
        ("human", 1.5, True),
        ("human", 2.0, False),
        ("halfling", 1.0, True),
        ("halfling", 1.5, False),
    ],
)
def test_R_A4_a_height_difference_over_the_attackers_height_is_out_of_reach(
    race: str, ledge: float, allowed: bool
) -> None:
    """R-A4 Decision: ana (a 1.8 m human or a 1 m halfling) and bob stand side by side, bob on
    a ledge."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a", race=race),
        creature("bob", "red", "b"),
        extra=legend(b={"height": ledge}),
        dice=(1, 10),
    )
    if allowed:
        accepted(b, unit="ana", action="attack", target="bob")
    else:
        assert refused(b, unit="ana", action="attack", target="bob") == (
            "bob at (2,1) is out of ana's reach (R-A4)"
        )


# --- R-A5 ranged attacks -------------------------------------------------------------------------


def test_R_A5_a_ranged_attack_needs_a_line_of_sight_and_range() -> None:
    rows = """
    ...........................
    .a.#.b....................c
    ...........................
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", held=["shortbow"]),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
    )
    assert refused(b, unit="ana", action="attack", target="bob") == (
        "no line of sight to bob: the wall at (3,1) blocks it (R-A5)"
    )
    assert refused(b, unit="ana", action="attack", target="cy") == (
        "cy is 25 m away; shortbow reaches 24 m (R-C7)"
    )


def test_R_A5_R_X1_a_ranged_attack_in_range_with_aim() -> None:
    """R-A5, R-X1: 5 m away in the open; Aim adds 2 to the Hit Roll and is used up."""
    rows = """
    ........
    .a....b.
    ........
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", held=["shortbow"]),
        creature("bob", "red", "b"),
        dice=(1, 10),
    )
    accepted(b, unit="ana", action="aim")
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert rolls(events)[0] == ("ana", "hit roll: ranged attack on bob", 1, 8, 9)
    assert conditions_of(b, "ana") == {}


# --- R-R4 Attacks of Opportunity, R-R5 Disengage, R-R8 windows -----------------------------------

LANE = """
..b....
a......
.......
"""


def test_R_R4_an_aoo_stops_a_run_half_way_and_an_ask_window_is_answered_inline() -> None:
    """R-R4, R-R8: ana runs past bob (policy "ask"). As she is about to leave his reach at
    (3,1) the run pauses there and waits for bob; wrong answers are refused and change
    nothing; he attacks, misses, and the run goes on to (5,1)."""
    b = begin(
        LANE,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", policy="ask"),
        dice=(1, 10),
    )
    events = accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1], [4, 1], [5, 1]])
    assert [e["end"] for e in events if e["type"] == "moved"] == [[1, 1], [2, 1], [3, 1]]
    assert cell(b, "ana") == Pos(3, 1)
    assert b.pending == AwaitingReaction(
        "bob", "ana is leaving bob's reach at (3,1)", ("attack", "none")
    )
    assert refused(b, unit="ana", reaction="attack") == (
        "the open window is bob's to answer, not ana's (R-R8)"
    )
    assert refused(b, unit="bob", reaction="dodge") == (
        "'dodge' is not an option; bob may choose attack, none (R-R8)"
    )
    assert refused(b, unit="ana", action="end_turn") == (
        "waiting for bob to answer: ana is leaving bob's reach at (3,1) (R-R8)"
    )
    events = accepted(b, unit="bob", reaction="attack")
    assert windows(events)[0] == (
        "bob",
        "attack_of_opportunity",
        ["attack", "none"],
        "attack",
        "player",
    )
    assert resolved(events) == [(7, 10, False)]
    assert [e["end"] for e in events if e["type"] == "moved"] == [[4, 1], [5, 1]]
    assert cell(b, "ana") == Pos(5, 1)
    assert b.pending == AwaitingAction("ana")


def test_R_R4_an_aoo_that_downs_the_mover_stops_it_where_it_was() -> None:
    b = begin(
        LANE + "......c\n",
        creature("ana", "blue", "a", hp=1),
        creature("bob", "red", "b", policy="always"),
        creature("cat", "blue", "c"),
        dice=(8, 1),
    )
    events = accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1], [4, 1], [5, 1]])
    assert cell(b, "ana") == Pos(3, 1)
    assert {
        "type": "move_cut_short",
        "unit": "ana",
        "at": [3, 1],
        "reason": "ana was downed leaving (3,1)",
    } in events


def test_R_R4_R_R5_a_disengage_before_the_move_prevents_the_aoo() -> None:
    b = begin(LANE, creature("ana", "blue", "a"), creature("bob", "red", "b", policy="always"))
    accepted(b, unit="ana", action="disengage")
    events = accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1], [4, 1], [5, 1]])
    assert windows(events) == []
    assert {
        "type": "condition_lost",
        "unit": "ana",
        "condition": "disengaged",
        "reason": "used by this move",
    } in events
    assert budget(b, "bob") == (2, 2)


def test_R_R5_disengage_covers_only_the_movement_action_directly_after_it() -> None:
    b = duel()
    accepted(b, unit="ana", action="disengage")
    events = accepted(b, unit="ana", action="aim")
    assert events[0] == {
        "type": "condition_lost",
        "unit": "ana",
        "condition": "disengaged",
        "reason": "no Movement Action directly after it",
    }
    assert refused(b, unit="bob", action="disengage") == "it is ana's turn, not bob's (R-T3)"


def test_R_R4_a_never_policy_lets_the_mover_go() -> None:
    b = begin(LANE, creature("ana", "blue", "a"), creature("bob", "red", "b", policy="never"))
    events = accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1], [4, 1], [5, 1]])
    assert windows(events) == [
        ("bob", "attack_of_opportunity", ["attack", "none"], "none", "policy")
    ]
    assert cell(b, "ana") == Pos(5, 1)


def test_R_R8_a_creature_without_bonus_actions_is_not_asked() -> None:
    """R-R8: bob spends both Bonus Actions on his turn; until his next turn he can neither make
    an Attack of Opportunity nor defend, so his "ask" policy never stops the play."""
    b = begin(
        LANE,
        creature("bob", "red", "b", policy="ask"),
        creature("ana", "blue", "a"),
        dice=(5, 3),
    )
    accepted(b, unit="bob", action="aim")
    accepted(b, unit="bob", action="disengage")
    end_turns(b, "bob")
    assert budget(b, "bob") == (2, 0)
    accepted(b, unit="ana", action="walk", path=[[1, 1]])
    accepted(b, unit="ana", action="attack", target="bob")
    assert b.pending == AwaitingAction("ana")
    events = accepted(b, unit="ana", action="step", path=[[2, 1], [3, 1]])
    assert windows(events) == []


# --- R-R7 Interrupt ------------------------------------------------------------------------------


def test_R_R7_an_adjacent_enemy_interrupts_a_ranged_attack_which_is_lost() -> None:
    """R-R7: ana shoots bob point-blank; bob (2 Bonus Actions) interrupts with a melee Hit Roll
    8 + 6 = 14 against her Defense Roll 1: a hit, her attack is lost, its ½ Action spent."""
    b = duel(8, 1, ana={"held": ["shortbow"]}, bob={"policy": "always"})
    events = accepted(b, unit="ana", action="attack", target="bob", weapon="shortbow")
    assert windows(events)[0] == (
        "bob",
        "interrupt",
        ["interrupt", "none"],
        "interrupt",
        "policy",
    )
    assert events[-1] == {
        "type": "action_lost",
        "unit": "ana",
        "action": "a ranged attack",
        "reason": "interrupted by bob (R-R7)",
    }
    assert budget(b, "ana") == (1, 2) and budget(b, "bob") == (2, 0)
    assert hp(b, "ana") == 14 and hp(b, "bob") == 15


def test_R_R7_any_action_that_is_not_movement_can_be_interrupted_a_melee_attack() -> None:
    """R-R7: the text's list is examples: ana's melee attack on bob is interrupted too, by bob
    himself (8 + 6 = 14 against her Defense Roll 1): her attack is lost and she is hit."""
    b = duel(8, 1, bob={"policy": "always"})
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert events[1]["trigger"] == "ana starts a melee attack next to bob"
    assert events[2] == {
        "type": "spent", "unit": "bob", "action": "interrupt", "tier": "bonus_x2", "half": 0,
        "bonus": 2, "free_kind": None, "counts_as_action": False,
    }  # fmt: skip
    assert events[-1] == {
        "type": "action_lost",
        "unit": "ana",
        "action": "a melee attack",
        "reason": "interrupted by bob (R-R7)",
    }
    assert [e["attacker"] for e in events if e["type"] == "attack_resolved"] == ["bob"]
    assert hp(b, "ana") == 14 and hp(b, "bob") == 15


@pytest.mark.parametrize(
    ("decision", "what"),
    [
        ({"action": "administer", "target": "cy", "item": "healing_potion"}, "an Administer"),
        ({"action": "toss", "item": "rock", "target": "cy"}, "a Toss"),
        ({"action": "draw", "item": "healing_potion"}, "a Draw"),
        ({"action": "aim"}, "an Aim"),
    ],
)
def test_R_R7_administer_a_toss_even_a_free_action_can_be_interrupted(
    decision: dict[str, Any], what: str
) -> None:
    """R-R7: ana (a potion carried, a rock in hand) next to bob and her ally cy: bob interrupts
    whatever she starts (8 + 6 = 14 against 1): it is lost, nothing of it happens."""
    rows = """
    .........
    .ab......
    .c.......
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", held=["rock"], carried=["healing_potion"]),
        creature("bob", "red", "b", policy="always"),
        creature("cy", "blue", "c"),
        dice=(8, 1),
    )
    before = b.world.copy()
    events = accepted(b, unit="ana", **decision)
    assert events[1]["trigger"] == f"ana starts {what} next to bob"
    assert events[-1] == {
        "type": "action_lost",
        "unit": "ana",
        "action": what,
        "reason": "interrupted by bob (R-R7)",
    }
    assert types(events)[-2] == "damaged"
    # Nothing of the action happened: hands, packs and cy's health are as they were.
    for unit, kinds in (("ana", (Hands, Gear)), ("cy", (Hands, Gear, Health))):
        for kind in kinds:
            assert b.world.get(unit, kind) == before.get(unit, kind)


def test_R_R7_movement_ending_the_turn_and_preparing_are_not_interrupted() -> None:
    """R-R7 "not movement" (and the Decisions of sim/rules/combat/interrupt.py): a Step away from
    bob, ending
    the turn and Skip / Prepare open no Interrupt window, though bob always reacts (his
    Interrupt of her Disengage, a Bonus Action that is no movement, spends his Bonus Actions,
    so her Step provokes nothing either)."""
    b = duel(bob={"policy": "always"})
    events = accepted(b, unit="ana", action="prepare", trigger="ends_turn", watch="bob",
                      then={"action": "aim"})  # fmt: skip
    assert "interrupt" not in [w[1] for w in windows(events)]
    b = duel(8, 1, bob={"policy": "always"})
    events = accepted(b, unit="ana", action="disengage")
    assert windows(events)[0][1] == "interrupt"  # a Bonus Action that is not movement
    events = accepted(b, unit="ana", action="step", path=[[0, 1]])
    events += accepted(b, unit="ana", action="end_turn")
    assert "interrupt" not in [w[1] for w in windows(events)]


# --- issue #28: the tags that say what each roll and attack was for ----------------------------


def test_tags_a_defended_melee_attack_tags_its_hit_defense_and_parry_rolls() -> None:
    b = duel(8, 1, 2, bob={"policy": "ask", "held": ["longsword"]})
    since = len(b.log)
    accepted(b, unit="ana", action="attack", target="bob")
    answering(b, "bob", NO_INTERRUPT, "parry")
    assert tagged(b, since)[:4] == [
        ("rolled", RollKind.HIT),
        ("rolled", RollKind.DEFENSE),
        ("rolled", RollKind.PARRY),
        ("attack_resolved", AttackKind.MELEE),
    ]


@pytest.mark.parametrize(
    ("defence", "kind"), [("dodge", RollKind.DODGE), ("block", RollKind.BLOCK)]
)
def test_tags_dodge_and_block_are_tagged(defence: str, kind: RollKind) -> None:
    b = duel(1, 1, 1, bob={"policy": "ask", "held": ["buckler"]})
    since = len(b.log)
    accepted(b, unit="ana", action="attack", target="bob")
    answering(b, "bob", NO_INTERRUPT, defence)
    assert tagged(b, since)[2] == ("rolled", kind)


def test_tags_an_unarmed_hit_is_a_melee_attack_whose_damage_ana_dealt() -> None:
    b = duel(8, 1)
    since = len(b.log)
    accepted(b, unit="ana", action="attack", target="bob")
    assert tagged(b, since) == [
        ("rolled", RollKind.HIT),
        ("rolled", RollKind.DEFENSE),
        ("attack_resolved", AttackKind.MELEE),
        ("damaged", "ana"),
    ]


def test_tags_a_shot_is_a_ranged_attack() -> None:
    b = begin(
        "........\n.a....b.\n........\n",
        creature("ana", "blue", "a", held=["shortbow"]),
        creature("bob", "red", "b"),
        dice=(1, 10),
    )
    since = len(b.log)
    accepted(b, unit="ana", action="attack", target="bob")
    assert ("attack_resolved", AttackKind.RANGED) in tagged(b, since)


def test_tags_an_attack_of_opportunity_is_tagged_so() -> None:
    b = begin(
        LANE,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", policy="always"),
        dice=(1, 10),
    )
    since = len(b.log)
    accepted(b, unit="ana", action="run", path=[[1, 1], [2, 1], [3, 1], [4, 1], [5, 1]])
    assert tagged(b, since) == [
        ("rolled", RollKind.HIT),
        ("rolled", RollKind.DEFENSE),
        ("attack_resolved", AttackKind.OPPORTUNITY),
    ]


def test_tags_an_interrupt_is_tagged_so_and_its_damage_is_the_interrupter_s() -> None:
    b = duel(8, 1, ana={"held": ["shortbow"]}, bob={"policy": "always"})
    since = len(b.log)
    accepted(b, unit="ana", action="attack", target="bob", weapon="shortbow")
    assert tagged(b, since) == [
        ("rolled", RollKind.HIT),
        ("rolled", RollKind.DEFENSE),
        ("attack_resolved", AttackKind.INTERRUPT),
        ("damaged", "bob"),
    ]
