"""Issue 4, Disarm (R-X5), Feint (R-X10) and Hide with Unseen (R-X8) as transcripts with loaded
dice: the contests, their ties (R-C4), what they leave behind, how long it lasts, and their
refusals.

Every creature is tests/movers.BASE: STR d8+6, AGI d8+8, FCS d8+6, RES d10+5 (15 HP), a human,
no armour, nothing held unless a test says so, reaction policy "never".
"""

from __future__ import annotations

from sim.core.components import Hands, Position
from sim.core.geometry import Pos
from sim.core.purpose import AttackKind, RollKind
from sim.play.engine import Battle
from tests.helpers import (
    accepted,
    budget,
    conditions_of,
    end_turns,
    give,
    refused,
    rolls,
    tagged,
    types,
)
from tests.movers import begin, creature, legend


def held(b: Battle, uid: str) -> tuple[str, ...]:
    return b.world.need(uid, Hands).items()


def lying_at(b: Battle, item: str) -> Pos | None:
    where = b.world.get(item, Position)
    return where.cell if where else None


OPEN = """
.........
.ab......
.........
"""


# --- R-X5 Disarm --------------------------------------------------------------------------------


def test_R_X5_disarm_is_a_1_action_contest_of_hit_rolls_and_the_weapon_drops_in_its_cell() -> None:
    """R-X5: ana's Hit Roll 5 + 6 = 11 beats bob's 2 + 6 = 8: bob's longsword falls at his
    feet, where anyone next to it may pick it up (R-X7)."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", held=["longsword"]),
        dice=(5, 2),
    )
    events = accepted(b, unit="ana", action="disarm", target="bob")
    assert events[0]["tier"] == "one" and events[0]["half"] == 2
    assert rolls(events) == [
        ("ana", "hit roll: disarm on bob", 5, 11),
        ("bob", "hold on to bob.longsword: Hit Roll against ana", 2, 8),
    ]
    assert events[-2:] == [
        {
            "type": "attack_resolved",
            "attacker": "ana",
            "target": "bob",
            "purpose": "disarm",
            "hit_roll": 11,
            "defense_roll": 8,
            "hit": True,
        },
        {"type": "item_dropped", "unit": "bob", "item": "bob.longsword", "at": [2, 1]},
    ]
    assert held(b, "bob") == ()
    assert lying_at(b, "bob.longsword") == Pos(2, 1)
    end_turns(b, "ana")
    accepted(b, unit="bob", action="pick_up", item="longsword")
    assert held(b, "bob") == ("bob.longsword",)


def test_R_X5_R_C4_a_tie_goes_to_the_one_disarmed() -> None:
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", held=["longsword"]),
        dice=(4, 4),
    )
    events = accepted(b, unit="ana", action="disarm", target="bob")
    assert "item_dropped" not in types(events)
    assert held(b, "bob") == ("bob.longsword",)


def test_R_X5_the_item_field_names_which_weapon_and_a_two_handed_one_leaves_both_hands() -> None:
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", held=["dagger", "shortsword"]),
        dice=(8, 1),
    )
    accepted(b, unit="ana", action="disarm", target="bob", item="shortsword")
    assert held(b, "bob") == ("bob.dagger",)
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", held=["greataxe"]),
        dice=(8, 1),
    )
    accepted(b, unit="ana", action="disarm", target="bob")
    assert b.world.need("bob", Hands) == Hands()


def test_R_X5_R_A1_a_disarm_counts_in_the_attack_window() -> None:
    """R-X5 with R-A1 (Decision: a contested melee attack is an attack): ana, Quickened, disarms
    as a ½ Action, then attacks: that is her second attack, with half her FCS Bonus (3)."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", held=["longsword"]),
        dice=(1, 8, 4, 1),
    )
    give(b, "ana", "quickened", 1)
    events = accepted(b, unit="ana", action="disarm", target="bob", quicken=True)
    assert events[0]["tier"] == "half"
    assert {"type": "attack_counted", "unit": "ana", "count": 1} in events
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert {"type": "attack_counted", "unit": "ana", "count": 2} in events
    assert rolls(events)[0] == ("ana", "hit roll: melee attack on bob", 4, 7)


def test_R_X5_R_A2_an_incapacitated_target_does_not_hold_on() -> None:
    """Decision, as R-A2: an Incapacitated target's roll is 0; it rolls nothing."""
    b = begin(
        OPEN + "..c......\n",
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", held=["longsword"]),
        creature("cy", "red", "c"),
        dice=(1,),
    )
    give(b, "bob", "incapacitated")
    events = accepted(b, unit="ana", action="disarm", target="bob")
    assert len(rolls(events)) == 1
    assert events[-1]["type"] == "item_dropped"


def test_R_X5_refusals_name_the_reason() -> None:
    rows = """
    .......
    .abc.d.
    .......
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", held=["buckler"]),
        creature("cy", "red", "c", held=["club"]),
        creature("dee", "red", "d", held=["club"]),
    )
    assert refused(b, unit="ana", action="disarm", target="bob") == (
        "bob holds no weapon to disarm (R-X5)"
    )
    assert refused(b, unit="ana", action="disarm", target="bob", item="buckler") == (
        "bob.buckler is not a weapon; Disarm takes a weapon (R-X5)"
    )
    assert refused(b, unit="ana", action="disarm", target="bob", item="club") == (
        "bob holds no 'club' (R-X5)"
    )
    assert refused(b, unit="ana", action="disarm", target="dee") == (
        "dee at (5,1) is out of ana's reach (R-A4)"
    )


# --- R-X10 Feint --------------------------------------------------------------------------------


def test_R_X10_a_feint_is_deception_against_an_fcs_save_and_adds_5_to_the_next_melee_hit() -> None:
    """R-X10: ana (Deception 2) rolls 5 + 6 + 2 = 13 against bob's FCS Save 3 + 6 = 9 and
    wins (condition "feinted": the bonus); her next melee Hit Roll adds 6 + 5, and the feint
    is used up."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a", skills={"deception": 2}),
        creature("bob", "red", "b"),
        dice=(5, 3, 1, 1),
    )
    events = accepted(b, unit="ana", action="feint", target="bob")
    assert events[0]["tier"] == "half" and events[0]["half"] == 1
    assert rolls(events) == [
        ("ana", "feint on bob: Deception check", 5, 13),
        ("bob", "see through ana's feint: FCS Save", 3, 9),
    ]
    assert conditions_of(b, "ana") == {"feinted": 5}
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert rolls(events)[0] == ("ana", "hit roll: melee attack on bob", 1, 12)
    assert {
        "type": "condition_lost",
        "unit": "ana",
        "condition": "feinted",
        "reason": "used on this melee Hit Roll",
    } in events
    end_turns(b, "ana")
    assert conditions_of(b, "ana") == {}


def test_R_X10_R_C4_a_tied_feint_fails() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(4, 4))
    events = accepted(b, unit="ana", action="feint", target="bob")
    # bob declines the Interrupt (R-R7) his policy "never" is offered, then the contest.
    assert types(events) == ["spent", "reaction_answered", "rolled", "rolled"]
    assert conditions_of(b, "ana") == {}


def test_R_X10_the_bonus_goes_to_the_next_melee_hit_roll_whatever_its_target() -> None:
    """R-X10, as the text says ("+5 to hit with your next Melee Attack Roll"): ana feints bob
    and then strikes cy, beside her: 1 + 6 + 5 = 12, and the feint is used up."""
    rows = """
    .......
    .ab....
    .c.....
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        dice=(8, 1, 1, 1),
    )
    accepted(b, unit="ana", action="feint", target="bob")
    events = accepted(b, unit="ana", action="attack", target="cy")
    assert rolls(events)[0] == ("ana", "hit roll: melee attack on cy", 1, 12)
    assert conditions_of(b, "ana") == {}


def test_R_X10_an_unused_feint_is_kept_until_its_melee_hit_roll_a_ranged_one_leaves_it() -> None:
    """R-X10 Decision: the bonus is not lost at the end of a turn. ana (a shortbow in her
    hands) feints bob on turn 1 and keeps the bonus through the next round; her shot at dee
    (a ranged Hit Roll) leaves it; the Attack of Opportunity she makes with her fists when cy
    leaves her reach is her next melee Hit Roll: 2 + 6 + 5 = 13."""
    rows = """
    ..........
    .ab......d
    .c........
    ..........
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", policy="always", held=["shortbow"]),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        creature("dee", "red", "d"),
        dice=(8, 1, 1, 1, 2, 1),
    )
    accepted(b, unit="ana", action="feint", target="bob")
    end_turns(b, "ana", "bob", "cy", "dee")
    assert conditions_of(b, "ana") == {"feinted": 5}
    events = accepted(b, unit="ana", action="attack", target="dee")
    assert rolls(events)[0] == ("ana", "hit roll: ranged attack on dee", 1, 7)
    assert conditions_of(b, "ana") == {"feinted": 5}
    end_turns(b, "ana", "bob")
    events = accepted(b, unit="cy", action="step", path=[[1, 3]])
    assert rolls(events)[0] == ("ana", "hit roll: attack of opportunity on cy", 2, 13)
    assert conditions_of(b, "ana") == {}


def test_R_X10_a_second_feint_does_not_stack_with_an_unused_one() -> None:
    """R-X10 Decision: while its +5 is unused a second Feint is refused (as a second Aim is,
    R-X1), and nothing is spent."""
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(8, 1))
    accepted(b, unit="ana", action="feint", target="bob")
    assert refused(b, unit="ana", action="feint", target="bob") == (
        "ana already has a feint's +5 for its next melee Hit Roll; a second Feint does not "
        "stack with an unused one (R-X10)"
    )
    assert budget(b, "ana") == (1, 2)


def test_R_X10_R_X5_a_feint_helps_a_disarm_hit_roll_too() -> None:
    """R-X10: the next melee Hit Roll against the target, a Disarm's included."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", held=["club"]),
        dice=(8, 1, 1, 8),
    )
    give(b, "ana", "quickened", 1)
    accepted(b, unit="ana", action="feint", target="bob")
    events = accepted(b, unit="ana", action="disarm", target="bob", quicken=True)
    assert rolls(events) == [
        ("ana", "hit roll: disarm on bob", 1, 12),
        ("bob", "hold on to bob.club: Hit Roll against ana", 8, 14),
    ]


def test_R_X10_refusals_name_the_reason() -> None:
    rows = """
    .......
    .ab..c.
    .......
    """
    b = begin(
        rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), creature("cy", "red", "c")
    )
    assert refused(b, unit="ana", action="feint", target="cy") == (
        "cy at (5,1) is out of ana's reach (R-A4)"
    )
    assert refused(b, unit="ana", action="feint", target="ana") == "ana cannot feint itself (R-X10)"


# --- R-X8 Hide and Unseen -----------------------------------------------------------------------

# ana stands in cover (C); bob and cy watch her across open ground.
BUSH = """
.........
.a....b..
.......c.
"""
IN_COVER = legend(a={"kind": "cover"})


def test_R_X8_hide_in_cover_stealth_against_perception_beaten_opponents_lose_sight() -> None:
    """R-X8: ana (Stealth 3) stands in cover and rolls 5 + 8 + 3 = 16; bob's Perception
    4 + 6 = 10 and cy's 8 + 6 = 14 are both beaten: neither sees her any more."""
    b = begin(
        BUSH,
        creature("ana", "blue", "a", skills={"stealth": 3}),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        extra=IN_COVER,
        dice=(5, 4, 8),
    )
    events = accepted(b, unit="ana", action="hide")
    assert events[0]["tier"] == "one"
    assert rolls(events) == [
        ("ana", "hide: Stealth check", 5, 16),
        ("bob", "spot ana: Perception check", 4, 10),
        ("cy", "spot ana: Perception check", 8, 14),
    ]
    assert events[-1] == {
        "type": "condition_gained",
        "unit": "ana",
        "condition": "unseen",
        "value": "bob,cy",
    }


def test_R_X8_R_C4_an_opponent_who_ties_still_sees() -> None:
    b = begin(
        BUSH,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        extra=IN_COVER,
        dice=(6, 1, 8),
    )
    accepted(b, unit="ana", action="hide")  # 6 + 8 = 14 against 7 and 14
    assert conditions_of(b, "ana") == {"unseen": "bob"}


def test_R_X8_a_cover_cell_between_them_is_cover_too() -> None:
    """R-X8 Decision: the bush at (3,1) lies on the line from bob to ana, not on cy's."""
    rows = """
    .........
    .a.%..b..
    .........
    .c.......
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        dice=(8, 1),
    )
    events = accepted(b, unit="ana", action="hide")
    assert [r[0] for r in rolls(events)] == ["ana", "bob"]
    assert conditions_of(b, "ana") == {"unseen": "bob"}


def test_R_X8_no_line_of_sight_is_enough_to_hide_without_cover() -> None:
    """R-X8 Decision: the wall at (3,1) blocks cy's line of sight; bob sees ana in the open, so
    only cy rolls Perception."""
    rows = """
    .......
    .a.#.c.
    .......
    ..b....
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        dice=(8, 1),
    )
    events = accepted(b, unit="ana", action="hide")
    assert [r[0] for r in rolls(events)] == ["ana", "cy"]
    assert conditions_of(b, "ana") == {"unseen": "cy"}


def test_R_X8_hide_refusals_name_the_reason() -> None:
    bush = BUSH.replace("c", ".")
    b = begin(bush, creature("ana", "blue", "a"), creature("bob", "red", "b"))
    assert refused(b, unit="ana", action="hide") == (
        "ana is in plain sight of bob: hiding needs cover terrain or no line of sight (R-X8)"
    )
    b = begin(bush, creature("ana", "blue", "a"), creature("bob", "red", "b"), extra=IN_COVER)
    give(b, "ana", "unseen", ("bob",))
    assert refused(b, unit="ana", action="hide") == (
        "ana is already Unseen by every opponent (R-X8)"
    )
    b = begin(bush.replace("b", "."), creature("ana", "blue", "a"), extra=IN_COVER)
    assert refused(b, unit="ana", action="hide") == "ana has no opponent to hide from (R-X8)"


def test_R_X8_an_unseen_creature_cannot_be_singled_out_by_one_that_does_not_see_it() -> None:
    """R-X8 Decision: bob does not see ana: he can neither attack, shove, trip, disarm nor
    feint her."""
    b = begin(OPEN, creature("bob", "red", "b"), creature("ana", "blue", "a", held=["club"]))
    give(b, "ana", "unseen", ("bob",))
    reason = "bob cannot see ana: it is Unseen by bob (R-X8)"
    for action in ("attack", "shove", "trip", "disarm", "feint"):
        assert refused(b, unit="bob", action=action, target="ana") == reason


def test_R_X8_an_unseen_attacker_cannot_be_reacted_to_and_attacking_ends_unseen() -> None:
    """R-X8: bob (policy "always", a Bonus Action to Dodge with) does not see ana: her attack
    opens no defence window; then she is seen again."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", policy="always"),
        dice=(5, 3, 5, 3, 3),
    )
    give(b, "ana", "unseen", ("bob",))
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert "reaction_answered" not in types(events)
    assert {
        "type": "condition_lost",
        "unit": "ana",
        "condition": "unseen",
        "reason": "attacked (R-X8)",
    } in events
    assert budget(b, "bob") == (2, 2)
    events = accepted(b, unit="ana", action="attack", target="bob")
    assert "reaction_answered" in types(events)


def test_R_X8_attacking_anyone_ends_unseen_for_every_opponent() -> None:
    """R-X8: ana is unseen by bob and cy and attacks cy: bob sees her again too."""
    rows = """
    ........
    .ac...b.
    ........
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        dice=(5, 3),
    )
    give(b, "ana", "unseen", ("bob", "cy"))
    accepted(b, unit="ana", action="attack", target="cy")
    assert conditions_of(b, "ana") == {}


def test_R_X8_ending_a_move_in_plain_sight_ends_unseen_for_that_opponent() -> None:
    """R-X8: ana hides in cover from bob and cy; she walks out to (2,1), where the wall at (3,1)
    still blocks bob's line of sight but cy sees her in the open: cy sees her again, bob does
    not. Then she walks to (2,2), in bob's line of sight too: Unseen ends."""
    rows = """
    .......
    .a.#..b
    .......
    c......
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        extra=IN_COVER,
    )
    give(b, "ana", "unseen", ("bob", "cy"))
    events = accepted(b, unit="ana", action="walk", path=[[2, 1]])
    assert events[-1] == {
        "type": "condition_gained",
        "unit": "ana",
        "condition": "unseen",
        "value": "bob",
    }
    events = accepted(b, unit="ana", action="walk", path=[[2, 2]])
    assert events[-1] == {
        "type": "condition_lost",
        "unit": "ana",
        "condition": "unseen",
        "reason": "ended its move in plain sight (R-X8)",
    }


def test_R_X8_a_move_that_ends_in_cover_keeps_unseen() -> None:
    rows = """
    .........
    .a%...b..
    .........
    """
    b = begin(rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), extra=IN_COVER)
    give(b, "ana", "unseen", ("bob",))
    accepted(b, unit="ana", action="step", path=[[2, 1]])
    assert conditions_of(b, "ana") == {"unseen": "bob"}


def test_R_X8_R_R4_an_enemy_that_does_not_see_the_mover_makes_no_attack_of_opportunity() -> None:
    """R-R4 with R-X8: ana slips away from bob (policy "always"), who does not see her; the
    move ends in his plain sight, so he sees her again only when she is gone."""
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b", policy="always"))
    give(b, "ana", "unseen", ("bob",))
    events = accepted(b, unit="ana", action="walk", path=[[0, 1], [0, 0]])
    assert "reaction_answered" not in types(events)
    assert types(events)[-1] == "condition_lost"
    assert budget(b, "bob") == (2, 2)


def test_R_X8_shoving_or_feinting_shows_the_creature() -> None:
    """R-X8 Decision: a shove or a feint is made in the open; Unseen ends."""
    for action, dice in (("shove", (1, 8)), ("feint", (1, 8))):
        b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=dice)
        give(b, "ana", "unseen", ("bob",))
        events = accepted(b, unit="ana", action=action, target="bob")
        assert events[1]["type"] == "condition_lost" and events[1]["condition"] == "unseen"


# --- issue #28: the tags that say what each roll and attack was for ----------------------------


def test_tags_a_disarm_tags_the_hit_roll_the_hold_and_the_attack() -> None:
    b = begin(
        OPEN,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", held=["longsword"]),
        dice=(5, 2),
    )
    since = len(b.log)
    accepted(b, unit="ana", action="disarm", target="bob")
    assert tagged(b, since) == [
        ("rolled", RollKind.HIT),
        ("rolled", RollKind.HOLD_ON),
        ("attack_resolved", AttackKind.DISARM),
    ]


def test_tags_a_feint_tags_the_deception_and_the_save_against_it() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(5, 3))
    since = len(b.log)
    accepted(b, unit="ana", action="feint", target="bob")
    assert tagged(b, since) == [("rolled", RollKind.FEINT), ("rolled", RollKind.SEE_THROUGH_FEINT)]


def test_tags_hiding_tags_the_stealth_check_and_each_watcher_s_perception() -> None:
    b = begin(
        BUSH,
        creature("ana", "blue", "a", skills={"stealth": 3}),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
        extra=IN_COVER,
        dice=(5, 4, 8),
    )
    since = len(b.log)
    accepted(b, unit="ana", action="hide")
    assert tagged(b, since) == [
        ("rolled", RollKind.HIDE),
        ("rolled", RollKind.SPOT),
        ("rolled", RollKind.SPOT),
    ]
