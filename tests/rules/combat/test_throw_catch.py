"""R-X17 Throw, R-X18 Toss and R-R6 Catch (with R-A5 sight, R-R1 Dodge, R-R7 Interrupt, R-R8),
as transcripts: a thrown dagger that hits, a thrown rock, one dodged, one caught, a potion passed.

The creatures are tests/movers.py's plain humans: STR d8+6 (throw range 6 m − weight; toss up
to 6 m and 3 kg), AGI d8+8, FCS d8+6 (a first Hit Roll is d8 + 6), RES d10+5 (15 HP), no
armour, no skills, reactions "never" unless a test says. Initiative: 4, 3, 2, ... in scenario
order, so the first unit acts first.
"""

from __future__ import annotations

from typing import Any

from sim.core.components import Hands, Position
from sim.core.events import Spent
from sim.core.geometry import Pos
from sim.core.purpose import AttackKind, RollKind
from sim.play.apply import apply
from sim.play.engine import AwaitingReaction, Battle
from tests.helpers import (
    accepted,
    battle,
    conditions_of,
    give,
    hp,
    refused,
    scenario_text,
    tagged,
    types,
    wd,
)
from tests.movers import creature

# ana at (1,1); bo 4 m away at (5,1); cy 7 m away at (8,1).
ROW = """
##########
#a...b..c#
##########
"""


def begin(*units: str, rows: str = ROW, dice: tuple[int, ...] = ()) -> Battle:
    rolls = [4, 3, 2, 1][: len(units)]
    return battle(scenario_text(rows, "\n".join(units)), [*rolls, *dice])


def duel(dice: tuple[int, ...] = (), ana: dict[str, Any] | None = None, **bo: Any) -> Battle:
    """ana (blue) holding a dagger against bo (red); cy (red) keeps red in the battle."""
    return begin(
        creature("ana", "blue", "a", **({"held": ["dagger"]} | (ana or {}))),
        creature("bo", "red", "b", **bo),
        creature("cy", "red", "c"),
        dice=dice,
    )


def lying(b: Battle, item: str) -> Pos | None:
    where = b.world.get(item, Position)
    return where.cell if where is not None else None


def held(b: Battle, uid: str) -> tuple[str, ...]:
    return b.world.need(uid, Hands).items()


def windows(events: list[dict[str, Any]]) -> list[tuple[str, str, tuple[str, ...], str]]:
    return [
        (e["unit"], e["window"], tuple(e["options"]), e["choice"])
        for e in events
        if e["type"] == "reaction_answered"
    ]


# --- R-X17 Throw -------------------------------------------------------------------------------


def test_R_X17_a_thrown_dagger_is_a_ranged_attack_that_lands_in_the_target_s_cell() -> None:
    """R-X17: a ½ Action; Hit Roll 5 + 6 = 11 against bo's Defense Roll 2 (bo's policy
    declines to dodge, then to catch, R-R6: the Catch window opens after the hit is resolved):
    the dagger hits for its WD and lies in bo's cell; ana's hands are empty."""
    b = duel(dice=(5, 2))
    events = accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert events == [
        {"type": "spent", "unit": "ana", "action": "throw", "tier": "half", "half": 1,
         "bonus": 0, "free_kind": None, "counts_as_action": True},
        {"type": "item_thrown", "unit": "ana", "item": "ana.dagger", "to": [5, 1]},
        {"type": "attack_counted", "unit": "ana", "count": 1},
        {"type": "rolled", "unit": "ana", "purpose": "hit roll: throw (dagger) on bo", "die": 8,
         "result": 5, "bonus": 6, "total": 11},
        {"type": "reaction_answered", "unit": "bo", "window": "defence",
         "trigger": "ana attacks bo (throw (dagger), Hit Roll 11)", "options": ["dodge", "none"],
         "choice": "none", "by": "policy"},
        {"type": "rolled", "unit": "bo", "purpose": "defense roll: ana's throw (dagger) (RES Roll)",
         "die": 10, "result": 2, "bonus": 0, "total": 2},
        {"type": "attack_resolved", "attacker": "ana", "target": "bo",
         "purpose": "throw (dagger)", "hit_roll": 11, "defense_roll": 2, "hit": True},
        {"type": "reaction_answered", "unit": "bo", "window": "catch",
         "trigger": "ana's thrown ana.dagger hits bo (Hit Roll 11)", "options": ["catch", "none"],
         "choice": "none", "by": "policy"},
        {"type": "damaged", "unit": "bo", "amount": wd("dagger"), "damage_type": "piercing",
         "source": "ana's dagger", "hp": 15 - wd("dagger")},
    ]  # fmt: skip
    assert lying(b, "ana.dagger") == Pos(5, 1)
    assert held(b, "ana") == ()


def test_R_X17_a_throw_that_misses_lands_in_the_target_s_cell_too() -> None:
    """R-X17 (Decision): 1 + 6 = 7 against 9 misses; the dagger lies at bo's feet."""
    b = duel(dice=(1, 9))
    events = accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert "damaged" not in types(events)
    assert lying(b, "ana.dagger") == Pos(5, 1)


def test_R_X17_an_item_that_is_not_a_weapon_deals_2_crushing_per_kg_less_armour() -> None:
    """R-X17 Decision: a 1 kg rock deals 2 crushing; bo's padded armour (1) takes 1 off."""
    b = duel(dice=(5, 2), ana={"held": ["rock"]}, armour="padded")
    events = accepted(b, unit="ana", action="throw", target="bo", item="rock")
    assert events[-1] == {
        "type": "damaged", "unit": "bo", "amount": 1, "damage_type": "crushing",
        "source": "ana's rock", "hp": 14,
    }  # fmt: skip


def test_R_X17_range_is_str_bonus_minus_weight_plus_x_for_thrown_x() -> None:
    """R-X17: a rock (1 kg) goes 6 − 1 = 5 m: not to cy 7 m away; a dagger (0.5 kg, thrown 4)
    goes 6 − 0.5 + 4 = 9.5 m: it reaches cy."""
    b = duel(ana={"held": ["rock", "dagger"]})
    assert refused(b, unit="ana", action="throw", target="cy", item="rock") == (
        "cy is 7 m away; ana throws ana.rock 5 m (R-X17: STR Bonus − weight, + X for thrown(X))"
    )
    b = duel(dice=(5, 2), ana={"held": ["rock", "dagger"]})
    accepted(b, unit="ana", action="throw", target="cy", item="dagger")
    assert lying(b, "ana.dagger") == Pos(8, 1)


def test_R_X17_R_A5_refusals_a_held_item_a_target_and_a_line_of_sight() -> None:
    b = duel(ana={"held": [], "carried": ["dagger"]})
    assert refused(b, unit="ana", action="throw", target="bo", item="dagger") == (
        "ana holds no 'dagger' to throw; draw it first (R-X17, R-X18)"
    )
    b = duel()
    assert refused(b, unit="ana", action="throw", target="ana", item="dagger") == (
        "ana cannot throw at itself (R-X17)"
    )
    assert refused(b, unit="ana", action="throw", target="zed", item="dagger") == (
        "there is no creature 'zed' to throw at (R-X17)"
    )
    b = begin(
        creature("ana", "blue", "a", held=["dagger"]),
        creature("bo", "red", "b"),
        rows="#######\n#a.#b.#\n#######",
    )
    assert refused(b, unit="ana", action="throw", target="bo", item="dagger") == (
        "no line of sight to bo: the wall at (3,1) blocks it (R-A5)"
    )


def test_R_X17_R_R7_an_adjacent_enemy_may_interrupt_a_throw() -> None:
    """R-R7: dee, next to ana, interrupts (2 B): 8 + 6 = 14 against ana's 1 hits; the throw is
    lost, its ½ Action spent, and the dagger never leaves ana's hand."""
    b = begin(
        creature("ana", "blue", "a", held=["dagger"]),
        creature("bo", "red", "b"),
        creature("dee", "red", "d", policy="always"),
        rows="##########\n#ad..b...#\n##########",
        dice=(8, 1),
    )
    events = accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert windows(events) == [
        ("dee", "interrupt", ("interrupt", "none"), "interrupt"),
        ("ana", "defence", ("dodge", "none"), "none"),
    ]
    assert events[-1] == {
        "type": "action_lost", "unit": "ana", "action": "a throw",
        "reason": "interrupted by dee (R-R7)",
    }  # fmt: skip
    assert "item_thrown" not in types(events)
    assert held(b, "ana") == ("ana.dagger",)


def test_R_X17_R_R1_the_target_may_dodge_and_then_cannot_also_catch() -> None:
    """R-X17 "the target may Dodge, or Catch": bo dodges (RES 1 + AGI 1 + 8 = 10), 14 still
    hits; having dodged, bo is offered no Catch and takes the dagger's WD."""
    b = duel(dice=(8, 1, 1), policy="always", defence="dodge")
    events = accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert [w[1] for w in windows(events)] == ["defence"]
    assert hp(b, "bo") == 15 - wd("dagger")


# --- R-R6 Catch of a thrown item ---------------------------------------------------------------


def test_R_R6_a_thrown_dagger_caught() -> None:
    """R-R6: bo does not dodge; after the hit (11 against 1) a Catch window: 1 B, a free hand,
    an AGI + FCS Save (1 + 8 and 1 + 6 = 16) against the Hit Roll 11: caught, no damage, and
    bo holds the dagger."""
    b = duel(dice=(5, 1, 1, 1), policy="always", defence="none")
    events = accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert windows(events) == [
        ("bo", "defence", ("dodge", "none"), "none"),
        ("bo", "catch", ("catch", "none"), "catch"),
    ]
    start = types(events).index("attack_resolved") + 2
    assert events[start:] == [
        {"type": "spent", "unit": "bo", "action": "catch", "tier": "bonus", "half": 0,
         "bonus": 1, "free_kind": None, "counts_as_action": False},
        {"type": "rolled", "unit": "bo", "purpose": "catch ana.dagger: AGI Roll + Bonus",
         "die": 8, "result": 1, "bonus": 8, "total": 9},
        {"type": "rolled", "unit": "bo", "purpose": "catch ana.dagger: FCS Roll + Bonus",
         "die": 8, "result": 1, "bonus": 6, "total": 7},
        {"type": "check_resolved", "unit": "bo",
         "purpose": "catch ana.dagger (AGI + FCS Save against the Hit Roll, R-R6)",
         "total": 16, "against": 11, "success": True},
        {"type": "item_caught", "unit": "bo", "item": "ana.dagger"},
    ]  # fmt: skip
    assert held(b, "bo") == ("ana.dagger",)
    assert lying(b, "ana.dagger") is None
    assert hp(b, "bo") == 15


def test_R_R6_a_failed_catch_takes_the_damage_and_the_item_lies_at_its_feet() -> None:
    """R-R6: a clumsy bo (AGI d4+1, FCS d4+1) saves 4 + 1 + 4 + 1 = 10 against 14: the dagger
    hits for its WD and lies in bo's cell."""
    b = duel(dice=(8, 1, 4, 4), policy="always", defence="none", agi="d4+1", fcs="d4+1")
    events = accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert [e["success"] for e in events if e["type"] == "check_resolved"] == [False]
    assert events[-1]["type"] == "damaged" and hp(b, "bo") == 15 - wd("dagger")
    assert lying(b, "ana.dagger") == Pos(5, 1)


def test_R_R6_R_C4_a_catch_that_ties_the_hit_roll_succeeds() -> None:
    """R-C4: a save that ties succeeds — 3 + 1 + 2 + 1 = 7 against the Hit Roll 1 + 6 = 7."""
    b = duel(dice=(1, 1, 3, 2), policy="always", defence="none", agi="d4+1", fcs="d4+1")
    accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert held(b, "bo") == ("ana.dagger",)


def test_R_R6_with_both_hands_full_one_held_item_is_dropped_as_part_of_the_catch() -> None:
    """R-R6: bo holds a club and a buckler; its player declines a defence, then catches,
    dropping the buckler for free."""
    b = duel(dice=(5, 1, 1, 1), policy="ask", held=["club", "buckler"])
    accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert b.pending == AwaitingReaction(
        "bo", "ana attacks bo (throw (dagger), Hit Roll 11)", ("dodge", "parry", "block", "none")
    )
    accepted(b, unit="bo", reaction="none")
    assert b.pending == AwaitingReaction(
        "bo",
        "ana's thrown ana.dagger hits bo (Hit Roll 11)",
        ("catch, dropping bo.club", "catch, dropping bo.buckler", "none"),
    )
    events = accepted(b, unit="bo", reaction="catch, dropping bo.buckler")
    assert types(events)[:4] == ["reaction_answered", "spent", "item_dropped", "rolled"]
    assert lying(b, "bo.buckler") == Pos(5, 1)
    assert held(b, "bo") == ("bo.club", "ana.dagger")


def test_R_R2_R_X17_a_thrown_dagger_can_be_parried_and_a_parried_hit_is_not_caught() -> None:
    """R-R2: a Parry answers a throw too. bo (a club in one hand, policy "ask") parries ana's
    dagger: Hit Roll 5 + 6 = 11 against RES Roll 1 + AGI Roll 1 + 8 + the club's Parry Rating
    0 = 10. It hits all the same, and a target that defended is offered no Catch (R-R6)."""
    b = duel(dice=(5, 1, 1), policy="ask", held=["club"])
    accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert b.pending == AwaitingReaction(
        "bo", "ana attacks bo (throw (dagger), Hit Roll 11)", ("dodge", "parry", "none")
    )
    events = accepted(b, unit="bo", reaction="parry")
    assert [(e["purpose"], e["total"]) for e in events if e["type"] == "rolled"] == [
        ("defense roll: ana's throw (dagger) (RES Roll)", 1),
        ("parry (AGI Roll + Bonus + Parry Rating 0)", 9),
    ]
    assert [e["hit"] for e in events if e["type"] == "attack_resolved"] == [True]
    assert windows(events) == [
        ("bo", "defence", ("dodge", "parry", "none"), "parry"),
    ]
    assert hp(b, "bo") == 15 - wd("dagger") and lying(b, "ana.dagger") == Pos(5, 1)


def test_R_R8_without_a_bonus_action_there_is_no_catch() -> None:
    """R-R8: bo has spent both Bonus Actions: no window opens and the dagger hits."""
    b = duel(dice=(5, 1), policy="always", defence="none")
    apply(b.world, Spent("bo", "test", "bonus", 0, 2))
    events = accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert windows(events) == []
    assert hp(b, "bo") == 15 - wd("dagger")


def test_R_X8_R_R6_a_target_that_does_not_see_the_thrower_cannot_catch() -> None:
    """R-X8: bo does not see ana: no defence and no Catch; the throw ends Unseen."""
    b = duel(dice=(5, 1), policy="always", defence="none")
    give(b, "ana", "unseen", ("bo",))
    events = accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert windows(events) == []
    assert hp(b, "bo") == 15 - wd("dagger")
    assert "unseen" not in conditions_of(b, "ana")


# --- R-X18 Toss and its Catch ------------------------------------------------------------------

PASS = """
##########
#a..c...b#
##########
"""


def passing(dice: tuple[int, ...] = (), ana: dict[str, Any] | None = None, **cy: Any) -> Battle:
    """ana (blue) holds a healing potion; cy (blue) is 3 m away, bo (red) 7 m."""
    return begin(
        creature("ana", "blue", "a", **({"held": ["healing_potion"]} | (ana or {}))),
        creature("cy", "blue", "c", **cy),
        creature("bo", "red", "b"),
        rows=PASS,
        dice=dice,
    )


def test_R_X18_a_toss_to_a_cell_lands_there() -> None:
    """R-X18: a Bonus Action; the potion lies in (3,1)."""
    b = passing()
    events = accepted(b, unit="ana", action="toss", item="healing_potion", to=[3, 1])
    assert events == [
        {"type": "spent", "unit": "ana", "action": "toss", "tier": "bonus", "half": 0,
         "bonus": 1, "free_kind": None, "counts_as_action": True},
        {"type": "item_thrown", "unit": "ana", "item": "ana.healing_potion", "to": [3, 1]},
    ]  # fmt: skip
    assert lying(b, "ana.healing_potion") == Pos(3, 1)


def test_R_X18_R_R6_a_potion_tossed_to_an_ally_is_caught_and_drunk() -> None:
    """R-R6: cy catches with an FCS Check against 15 + 0.5 kg: 6 + 10 = 16. On its turn it
    drinks the potion (R-X4)."""
    b = passing(dice=(6,), policy="always", fcs="d8+10", hp=5)
    events = accepted(b, unit="ana", action="toss", item="healing_potion", target="cy")
    assert windows(events) == [("cy", "catch", ("catch", "none"), "catch")]
    assert events[-4:] == [
        {"type": "spent", "unit": "cy", "action": "catch", "tier": "bonus", "half": 0,
         "bonus": 1, "free_kind": None, "counts_as_action": False},
        {"type": "rolled", "unit": "cy", "purpose": "catch ana.healing_potion: FCS Check",
         "die": 8, "result": 6, "bonus": 10, "total": 16},
        {"type": "check_resolved", "unit": "cy",
         "purpose": "catch ana.healing_potion (FCS Check against 15 + 0.5 kg, R-R6)",
         "total": 16, "against": 15.5, "success": True},
        {"type": "item_caught", "unit": "cy", "item": "ana.healing_potion"},
    ]  # fmt: skip
    accepted(b, unit="ana", action="end_turn")
    accepted(b, unit="cy", action="consume", item="healing_potion")
    assert hp(b, "cy") == 11


def test_R_R6_a_missed_toss_hurts_2_per_kg_and_falls_at_the_catcher_s_feet() -> None:
    """R-R6: 8 + 6 = 14 < 15.5: 2 × 0.5 kg = 1 crushing, and the potion lies in cy's cell."""
    b = passing(dice=(8,), policy="always")
    events = accepted(b, unit="ana", action="toss", item="healing_potion", target="cy")
    assert events[-1] == {
        "type": "damaged", "unit": "cy", "amount": 1, "damage_type": "crushing",
        "source": "ana's healing_potion", "hp": 14,
    }  # fmt: skip
    assert lying(b, "ana.healing_potion") == Pos(4, 1)


def test_R_R6_a_missed_tossed_weapon_adds_its_wd_and_its_damage_type() -> None:
    """R-R6: a dagger: 2 × 0.5 + its WD, piercing."""
    b = passing(dice=(1,), ana={"held": ["dagger"]}, policy="always")
    events = accepted(b, unit="ana", action="toss", item="dagger", target="cy")
    assert (events[-1]["amount"], events[-1]["damage_type"]) == (1 + wd("dagger"), "piercing")


def test_R_X18_a_creature_that_does_not_try_to_catch_lets_it_fall_unhurt() -> None:
    """R-X18 (Decision): cy declines (policy never): the potion falls at its feet, no damage."""
    b = passing()
    events = accepted(b, unit="ana", action="toss", item="healing_potion", target="cy")
    assert windows(events) == [("cy", "catch", ("catch", "none"), "none")]
    assert types(events)[-1] == "reaction_answered"
    assert lying(b, "ana.healing_potion") == Pos(4, 1)
    assert hp(b, "cy") == 15


def test_R_R8_a_catcher_asked_by_its_player() -> None:
    """R-R8: with policy "ask" the engine waits for cy's answer before the toss resolves."""
    b = passing(dice=(8,), policy="ask", fcs="d8+10")
    accepted(b, unit="ana", action="toss", item="healing_potion", target="cy")
    assert b.pending == AwaitingReaction(
        "cy", "ana tosses ana.healing_potion to cy", ("catch", "none")
    )
    assert conditions_of(b, "cy") == {}
    events = accepted(b, unit="cy", reaction="catch")
    assert events[-1] == {"type": "item_caught", "unit": "cy", "item": "ana.healing_potion"}


def test_R_X18_refusals_weight_distance_destination_and_sight() -> None:
    """R-X18: at most half the STR Bonus in kg (a STR d8+3 ana: 1.5 kg), up to STR Bonus
    metres (3 m), to a cell or a creature, along a line no wall blocks."""
    b = passing(ana={"str": "d8+3", "held": ["rope", "healing_potion"]})
    assert refused(b, unit="ana", action="toss", item="rope", to=[2, 1]) == (
        "ana.rope weighs 2 kg; ana tosses at most 1.5 kg (R-X18: half the STR Bonus)"
    )
    assert refused(b, unit="ana", action="toss", item="healing_potion", target="bo") == (
        "bo is 7 m away; ana tosses 3 m (R-X18: STR Bonus metres)"
    )
    assert refused(b, unit="ana", action="toss", item="healing_potion", to=[5, 1]) == (
        "(5,1) is 4 m away; ana tosses 3 m (R-X18: STR Bonus metres)"
    )
    both = refused(b, unit="ana", action="toss", item="healing_potion", to=[2, 1], target="cy")
    assert both == 'a toss needs either "to": a cell [x, y], or "target": a creature (R-X18)'
    assert refused(b, unit="ana", action="toss", item="healing_potion") == both
    assert refused(b, unit="ana", action="toss", item="healing_potion", to=[0, 1]) == (
        "(0,1): a wall; nothing can land there (R-X18)"
    )
    assert refused(b, unit="ana", action="toss", item="healing_potion", to=[1, 5]) == (
        "(1,5): off the map (R-U1)"
    )
    assert refused(b, unit="ana", action="toss", item="healing_potion", to=[1, 1]) == (
        "(1,1) is where ana stands; drop the item instead (R-X7)"
    )
    assert refused(b, unit="ana", action="toss", item="healing_potion", target="ana") == (
        "ana cannot toss to itself (R-X18)"
    )
    assert refused(b, unit="ana", action="toss", item="torch", to=[2, 1]) == (
        "ana holds no 'torch' to toss; draw it first (R-X17, R-X18)"
    )
    b = begin(
        creature("ana", "blue", "a", held=["healing_potion"]),
        creature("bo", "red", "b"),
        rows="#######\n#a.#b.#\n#######",
    )
    assert refused(b, unit="ana", action="toss", item="healing_potion", target="bo") == (
        "no line of sight to bo: the wall at (3,1) blocks it (R-A5)"
    )


# --- issue #28: the tags that say what each roll and attack was for ----------------------------


def test_tags_a_throw_is_its_own_attack_and_a_catch_tags_its_rolls_and_its_save() -> None:
    b = duel(dice=(5, 1, 1, 1), policy="always", defence="none")
    since = len(b.log)
    accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert tagged(b, since) == [
        ("rolled", RollKind.HIT),
        ("rolled", RollKind.DEFENSE),
        ("attack_resolved", AttackKind.THROW),
        ("rolled", RollKind.CATCH),
        ("rolled", RollKind.CATCH),
        ("check_resolved", RollKind.CATCH),
    ]


def test_tags_a_missed_throw_s_damage_is_the_thrower_s() -> None:
    b = duel(dice=(8, 1, 4, 4), policy="always", defence="none", agi="d4+1", fcs="d4+1")
    since = len(b.log)
    accepted(b, unit="ana", action="throw", target="bo", item="dagger")
    assert tagged(b, since)[-2:] == [("check_resolved", RollKind.CATCH), ("damaged", "ana")]


def test_tags_a_tossed_item_s_catch_is_tagged_a_catch() -> None:
    b = passing(dice=(6,), policy="always", fcs="d8+10", hp=5)
    since = len(b.log)
    accepted(b, unit="ana", action="toss", item="healing_potion", target="cy")
    assert tagged(b, since) == [("rolled", RollKind.CATCH), ("check_resolved", RollKind.CATCH)]
