"""Issue 4, Shove (R-X15) and Trip (R-X19) as transcripts with loaded dice: the contest, the push
along the line (walls, creatures, ledges, water, fire), the save or Prone, no Attack of
Opportunity for forced movement (R-R4), a grapple pulled apart (R-G4), the trip weapon's double
FCS Bonus and Evade's double AGI Bonus (R-X9), and a creature hanging on a face shoved or tripped
off it (R-M4).

Every creature is tests/movers.BASE: STR d8+6, AGI d8+8, FCS d8+6, RES d10+5 (15 HP), a human
1.8 m tall, no armour, nothing held unless a test says so, reaction policy "never".
"""

from __future__ import annotations

from typing import Any

from sim.core.components import Budget, Conditions, Position
from sim.core.geometry import Pos
from sim.core.purpose import AttackKind, RollKind
from sim.play.engine import Battle
from tests.helpers import (
    accepted,
    battle,
    budget,
    conditions_of,
    end_turns,
    give,
    hp,
    refused,
    rolls,
    scenario_text,
    tagged,
    types,
    wd,
)
from tests.helpers import types as kinds
from tests.movers import at, begin, cell, creature, legend


def pushes(events: list[dict[str, Any]]) -> list[list[int]]:
    return [e["end"] for e in events if e["type"] == "pushed"]


OPEN = """
.........
.ab......
.........
"""


# --- R-X15 the contest and the push ------------------------------------------------------------


def test_R_X15_shove_is_a_bonus_action_str_contest_pushing_half_the_str_roll_then_a_save() -> None:
    """R-X15: ana (STR d8+6) rolls 6 = 12 against bob's 2 = 8 and wins; bob is pushed 6 // 2 =
    3 m straight away, cell by cell; his STR Save 1 + 6 = 7 is below 12, so he falls Prone."""
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(6, 2, 1))
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert events[0] == {
        "type": "spent",
        "unit": "ana",
        "action": "shove",
        "tier": "bonus",
        "half": 0,
        "bonus": 1,
        "free_kind": None,
        "counts_as_action": True,
    }
    assert rolls(events) == [
        ("ana", "shove bob: STR Contest", 6, 12),
        ("bob", "resist ana's shove: STR Contest", 2, 8),
        ("bob", "keep its feet: STR Save against 12", 1, 7),
    ]
    assert pushes(events) == [[3, 1], [4, 1], [5, 1]]
    assert events[-1] == {
        "type": "condition_gained",
        "unit": "bob",
        "condition": "prone",
        "value": 1,
    }
    assert cell(b, "bob") == Pos(5, 1)
    assert budget(b, "ana") == (2, 1)


def test_R_X15_a_saved_str_save_keeps_the_pushed_creature_on_its_feet() -> None:
    """R-X15, R-C4: bob's save 6 + 6 = 12 equals ana's 12; a tie goes to the saver."""
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(6, 2, 6))
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1], [4, 1], [5, 1]]
    assert "prone" not in conditions_of(b, "bob")


def test_R_X15_R_C4_a_tied_contest_goes_to_the_one_shoved_and_nothing_moves() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(4, 4))
    events = accepted(b, unit="ana", action="shove", target="bob")
    # bob declines the Interrupt (R-R7) his policy "never" is offered, then the contest.
    assert types(events) == ["spent", "reaction_answered", "rolled", "rolled"]
    assert cell(b, "bob") == Pos(2, 1)


def test_R_X15_the_push_is_at_least_1_m() -> None:
    """R-X15: a STR Roll of 1 halves to 0, but the push is at least 1 m."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a", str="d8+12"),
        creature("bob", "red", "b"),
        dice=(1, 1, 8),
    )
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1]]


def test_R_X15_R_U2_a_diagonal_push_counts_1_5_m_a_cell() -> None:
    """R-X15 with R-U2: bob stands diagonally from ana; a 3 m push (STR Roll 6) is two diagonal
    cells (3 m); a 2 m push (STR Roll 4) is one (the next would make 3 m)."""
    rows = """
    ......
    .a....
    ..b...
    ......
    ......
    ......
    """
    b = begin(rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(6, 1, 8))
    assert pushes(accepted(b, unit="ana", action="shove", target="bob")) == [[3, 3], [4, 4]]
    b = begin(rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(4, 1, 8))
    assert pushes(accepted(b, unit="ana", action="shove", target="bob")) == [[3, 3]]


def test_R_X15_a_reach_shove_pushes_along_the_nearest_of_the_8_directions() -> None:
    """R-X15 with R-A4: with a halberd ana reaches bob two cells away at (+2, +1); the line away
    from her is nearest to the down-right diagonal, so he goes that way."""
    rows = """
    .......
    .a.....
    ...b...
    .......
    .......
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", held=["halberd"]),
        creature("bob", "red", "b"),
        dice=(4, 1, 8),
    )
    assert pushes(accepted(b, unit="ana", action="shove", target="bob")) == [[4, 3]]


def test_R_X15_the_push_stops_at_a_wall() -> None:
    rows = """
    ......
    .ab.#.
    ......
    """
    b = begin(rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(8, 1, 8))
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1]]
    stop = next(e for e in events if e["type"] == "move_cut_short")
    assert stop == {
        "type": "move_cut_short",
        "unit": "bob",
        "at": [3, 1],
        "reason": "the push stopped at the wall at (4,1)",
    }
    assert cell(b, "bob") == Pos(3, 1)


def test_R_X15_the_push_stops_at_a_creature_even_an_ally_of_the_shover() -> None:
    rows = """
    ......
    .ab.c.
    ......
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        creature("cat", "blue", "c"),
        dice=(8, 1, 8),
    )
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1]]
    assert "the push stopped at cat at (4,1)" in [e.get("reason") for e in events]


def test_R_X15_against_a_wall_the_loser_still_makes_its_save() -> None:
    """R-X15: a loser pinned against a wall moves nowhere but still saves or falls."""
    rows = """
    .....
    .ab#.
    .....
    """
    b = begin(rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(8, 1, 1))
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == []
    assert cell(b, "bob") == Pos(2, 1)
    assert conditions_of(b, "bob") == {"prone": 1}


# --- R-X15 ledges, water, fire ------------------------------------------------------------------

CLIFF = """
HHHH..
HabH..
HHHH..
"""


def test_R_X15_R_M4_shoved_off_a_ledge_the_loser_falls_prone_and_takes_fall_damage() -> None:
    """R-X15, R-M4: the cliff top is 4 m high; bob is pushed over the edge (a 4 m drop, 2.2 m
    more than his 1.8 m: 2 full metres, 4 crushing damage), lands Prone and the push ends
    there; there is no save left to make."""
    b = begin(
        CLIFF,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        extra=legend(H={"height": 4.0}, a={"height": 4.0}, b={"height": 4.0}),
        dice=(8, 1),
    )
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1], [4, 1]]
    assert types(events)[-4:] == ["pushed", "fell", "damaged", "condition_gained"]
    assert hp(b, "bob") == 11
    assert conditions_of(b, "bob") == {"prone": 1}
    assert cell(b, "bob") == Pos(4, 1)


def test_R_X15_shoved_off_a_ledge_into_deep_water_the_loser_swims_unhurt() -> None:
    """R-X15, R-M4 Decision, R-M9: the same cliff above 2 m of water: bob falls in, takes no
    damage and swims (no save: he is in the water)."""
    b = begin(
        CLIFF.replace(".", "W"),
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        extra=legend(H={"height": 4.0}, a={"height": 4.0}, b={"height": 4.0}, W={"water": 2.0}),
        dice=(8, 1),
    )
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1], [4, 1]]
    assert types(events)[-3:] == ["pushed", "fell", "condition_gained"]
    assert hp(b, "bob") == 15
    assert conditions_of(b, "bob") == {"swimming": 1}


def test_R_X15_R_M9_pushed_into_water_over_its_head_the_loser_swims_and_stops() -> None:
    rows = """
    ......
    .abWW.
    ......
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        extra=legend(W={"water": 2.0}),
        dice=(8, 1),
    )
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1]]
    assert conditions_of(b, "bob") == {"swimming": 1}


def test_R_X15_a_swimmer_is_pushed_through_deep_water_up_to_the_bank() -> None:
    """R-X15 Decision: bob swims in 2 m water; pushed 3 m he stops at the bank after 2 m and,
    being in the water, makes no save."""
    rows = """
    .......
    .abWW..
    .......
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        extra=legend(b={"water": 2.0}, W={"water": 2.0}),
        dice=(6, 1),
    )
    give(b, "bob", "swimming")
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1], [4, 1]]
    assert events[-1]["reason"] == "the push stopped at the bank at (5,1)"
    assert len(rolls(events)) == 2


def test_R_X15_R_M10_in_waist_deep_water_a_failed_save_starts_swimming_instead_of_prone() -> None:
    """R-X15, R-M10: 1 m of water is waist-deep for a 1.8 m human; bob is pushed through it
    (1 m, STR Roll 2) and fails his save: he swims instead of lying Prone."""
    rows = """
    ......
    .ab~~.
    ......
    """
    b = begin(rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(2, 1, 1))
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1]]
    assert conditions_of(b, "bob") == {"swimming": 1}


def test_R_X15_R_K4_pushed_through_fire_the_loser_catches_fire() -> None:
    """R-K4: fire terrain adds 2 Burning stacks to a creature that enters it, pushed or not."""
    rows = """
    ......
    .ab^..
    ......
    """
    b = begin(rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(4, 1, 8))
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1], [4, 1]]
    assert conditions_of(b, "bob") == {"burning": 2}


# --- R-R4 and R-G4 ----------------------------------------------------------------------------


def test_R_X15_R_R4_being_pushed_out_of_an_enemy_reach_never_provokes() -> None:
    """R-R4: cat (bob's enemy, policy "always", Bonus Actions to spare) stands next to bob; bob
    is pushed out of her reach: forced movement, no window opens."""
    rows = """
    ..c...
    .ab...
    ......
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        creature("cat", "blue", "c", policy="always"),
        dice=(8, 1, 8),
    )
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1], [4, 1], [5, 1]]
    # Only bob's Interrupt window of the Shove itself (R-R7), declined; no Attack of Opportunity.
    assert [(e["unit"], e["window"]) for e in events if e["type"] == "reaction_answered"] == [
        ("bob", "interrupt")
    ]
    assert b.world.need("cat", Budget).bonus == 2


def test_R_X15_R_G4_pushing_a_grappled_creature_apart_ends_the_grapple() -> None:
    """R-G4: bob holds cat grappled; ana shoves bob away from cat: the grapple ends for both."""
    rows = """
    ......
    .ab...
    .c....
    """
    b = begin(
        rows,
        creature("ana", "blue", "a"),
        creature("bob", "red", "b"),
        creature("cat", "blue", "c"),
        dice=(4, 1, 8),
    )
    give(b, "bob", "grappling", "cat")
    give(b, "cat", "grappled", "bob")
    events = accepted(b, unit="ana", action="shove", target="bob")
    assert pushes(events) == [[3, 1], [4, 1]]
    lost = [(e["unit"], e["condition"]) for e in events if e["type"] == "condition_lost"]
    assert lost == [("bob", "grappling"), ("cat", "grappled")]
    assert conditions_of(b, "bob") == {} and conditions_of(b, "cat") == {}


def test_R_X15_R_G4_a_grappler_shoving_its_own_victim_away_lets_go() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(2, 1, 8))
    give(b, "ana", "grappling", "bob")
    give(b, "bob", "grappled", "ana")
    accepted(b, unit="ana", action="shove", target="bob")
    assert "grappling" not in conditions_of(b, "ana")
    assert "grappled" not in conditions_of(b, "bob")


def test_R_X15_R_G4_a_grapple_holds_when_the_push_is_stopped_at_once() -> None:
    rows = """
    .....
    .ab#.
    .....
    """
    b = begin(rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(8, 1, 8))
    give(b, "ana", "grappling", "bob")
    give(b, "bob", "grappled", "ana")
    accepted(b, unit="ana", action="shove", target="bob")
    assert conditions_of(b, "bob") == {"grappled": "ana"}


# --- R-X15 refusals -----------------------------------------------------------------------------


def test_R_X15_refusals_name_the_reason() -> None:
    rows = """
    .......
    .ab..c.
    .......
    """
    b = begin(
        rows, creature("ana", "blue", "a"), creature("bob", "red", "b"), creature("cy", "red", "c")
    )
    assert refused(b, unit="ana", action="shove", target="cy") == (
        "cy at (5,1) is out of ana's reach (R-A4)"
    )
    assert refused(b, unit="ana", action="shove", target="ana") == "ana cannot shove itself (R-X15)"
    assert refused(b, unit="ana", action="shove", target="zed") == (
        "there is no creature 'zed' to shove (R-X15)"
    )
    give(b, "bob", "unseen", ("ana",))
    assert refused(b, unit="ana", action="shove", target="bob") == (
        "ana cannot see bob: it is Unseen by ana (R-X8)"
    )


def test_R_X15_R_B4_a_shove_needs_a_bonus_action() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(1, 8, 1, 8))
    accepted(b, unit="ana", action="shove", target="bob")
    accepted(b, unit="ana", action="shove", target="bob")
    assert refused(b, unit="ana", action="shove", target="bob") == (
        "ana has only 0 Bonus Actions left; Shove (Bonus Action) costs 1 Bonus Action (R-B4)"
    )


# --- R-X19 Trip -----------------------------------------------------------------------------------


def test_R_X19_trip_is_a_1_action_melee_attack_with_damage_and_an_agi_save_or_prone() -> None:
    """R-X19: ana trips bob with her fists (no trip weapon: FCS Bonus 6): Hit Roll 5 + 6 = 11
    against bob's Defense Roll 3 hits for 1 damage; bob's AGI Save 2 + 8 = 10 < 11: Prone."""
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(5, 3, 2))
    events = accepted(b, unit="ana", action="trip", target="bob")
    assert events[0]["tier"] == "one" and events[0]["half"] == 2
    assert rolls(events) == [
        ("ana", "hit roll: trip on bob", 5, 11),
        ("bob", "defense roll: ana's trip (RES Roll)", 3, 3),
        ("bob", "keep its feet: AGI Save against 11", 2, 10),
    ]
    assert hp(b, "bob") == 14
    assert conditions_of(b, "bob") == {"prone": 1}


def test_R_X19_a_trip_weapon_doubles_the_fcs_bonus_in_the_hit_roll() -> None:
    """R-X19: a club has `trip`: the Hit Roll adds 2 x 6 = 12; a longsword would add 6."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a", held=["club"]),
        creature("bob", "red", "b"),
        dice=(1, 10, 8),
    )
    events = accepted(b, unit="ana", action="trip", target="bob")
    assert rolls(events)[0] == ("ana", "hit roll: trip on bob", 1, 13)
    assert hp(b, "bob") == 15 - wd("club")  # no armour (R-A3)
    assert rolls(events)[2] == ("bob", "keep its feet: AGI Save against 13", 8, 16)
    assert conditions_of(b, "bob") == {}
    b = begin(
        OPEN,
        creature("ana", "blue", "a", held=["longsword"]),
        creature("bob", "red", "b"),
        dice=(1, 10),
    )
    events = accepted(b, unit="ana", action="trip", target="bob")
    assert rolls(events)[0] == ("ana", "hit roll: trip on bob", 1, 7)
    assert events[-1]["type"] == "attack_resolved" and events[-1]["hit"] is False


def test_R_X19_R_C4_an_agi_save_equal_to_the_hit_roll_keeps_the_feet() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(5, 3, 3))
    accepted(b, unit="ana", action="trip", target="bob")
    assert conditions_of(b, "bob") == {}


def test_R_X19_a_miss_deals_nothing_and_asks_no_save() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(1, 10))
    events = accepted(b, unit="ana", action="trip", target="bob")
    assert len(rolls(events)) == 2
    assert hp(b, "bob") == 15 and conditions_of(b, "bob") == {}


def test_R_X19_R_X9_evade_doubles_the_agi_bonus_of_the_first_agi_save_only() -> None:
    """R-X9: bob evaded on his turn: against ana's trip his AGI Save adds 2 x 8 and he keeps his
    feet; Evade is used up by it, so cat's trip in the same round meets his plain AGI Bonus."""
    rows = """
    ......
    .abc..
    ......
    """
    b = begin(
        rows,
        creature("bob", "red", "b"),
        creature("ana", "blue", "a"),
        creature("cat", "blue", "c"),
        dice=(8, 3, 1, 8, 3, 1),
    )
    accepted(b, unit="bob", action="evade")
    end_turns(b, "bob")
    events = accepted(b, unit="ana", action="trip", target="bob")
    assert rolls(events)[2] == (
        "bob",
        "keep its feet: AGI Save against 14, Evade: AGI Bonus doubled",
        1,
        17,
    )
    assert events[-1] == {
        "type": "condition_lost",
        "unit": "bob",
        "condition": "evading",
        "reason": "its first AGI Save (R-X9)",
    }
    assert conditions_of(b, "bob") == {}
    end_turns(b, "ana")
    events = accepted(b, unit="cat", action="trip", target="bob")
    assert rolls(events)[2] == ("bob", "keep its feet: AGI Save against 14", 1, 9)
    assert conditions_of(b, "bob") == {"prone": 1}


def test_R_X19_R_M10_tripped_in_waist_deep_water_the_target_swims() -> None:
    rows = """
    ......
    .a~...
    ......
    """
    b = battle(
        scenario_text(
            rows.replace("~", "b"),
            "\n".join([creature("ana", "blue", "a"), creature("bob", "red", "b")]),
            legend(b={"water": 1.0}),
        ),
        [8, 7, 5, 3, 2],
    )
    accepted(b, unit="ana", action="trip", target="bob")
    assert conditions_of(b, "bob") == {"swimming": 1}


def test_R_X19_refusals_name_the_reason() -> None:
    rows = """
    .......
    .ab..c.
    .......
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", held=["shortbow"]),
        creature("bob", "red", "b"),
        creature("cy", "red", "c"),
    )
    assert refused(b, unit="ana", action="trip", target="cy") == (
        "cy at (5,1) is out of ana's reach (R-A4)"
    )
    assert refused(b, unit="ana", action="trip", target="bob", weapon="shortbow") == (
        "ana.shortbow is a ranged weapon; a trip is a melee attack (R-X19)"
    )
    assert refused(b, unit="ana", action="trip", target="bob", weapon="club") == (
        "ana holds no 'club' to attack with (R-X2)"
    )
    give(b, "bob", "prone")
    assert refused(b, unit="ana", action="trip", target="bob") == (
        "bob is already prone; there is nothing to trip (R-X19)"
    )
    give(b, "bob", "swimming")
    b.world.set("bob", b.world.need("bob", Conditions).clear("prone"))
    assert refused(b, unit="ana", action="trip", target="bob") == (
        "bob is swimming; there is nothing to trip (R-X19)"
    )


def test_R_X19_unarmed_when_only_a_ranged_weapon_is_held() -> None:
    """R-X19 with R-A3: a bow cannot trip; without a weapon named ana trips with her fists."""
    b = begin(
        OPEN,
        creature("ana", "blue", "a", held=["shortbow"]),
        creature("bob", "red", "b"),
        dice=(5, 3, 8),
    )
    events = accepted(b, unit="ana", action="trip", target="bob")
    assert [e["source"] for e in events if e["type"] == "damaged"] == ["ana's fist"]


# --- R-M4 shoved or tripped off the face it hangs on ---------------------------------------------

# ana (d4: 4 m a Climb) hangs 4 m up the 5 m face of (2,1), where bo stands on top: 1 m above
# her, so within his reach (R-A4, R-M7).
LEDGE_TOP = """
.....
.ab..
.....
"""


def hanging_below_bo(*dice: int) -> Battle:
    units = [creature("ana", "blue", "a", agi="d4+8"), creature("bo", "red", "b")]
    extra = legend(b={"height": 5, "climbable": True})
    b = battle(scenario_text(LEDGE_TOP, "\n".join(units), extra), [4, 3, *dice])
    accepted(b, unit="ana", action="climb", to=[2, 1])
    assert at(b) == Position(Pos(1, 1), 4.0)
    end_turns(b, "ana")
    return b


def test_R_M4_shoved_off_the_face_a_hanging_creature_falls_from_where_it_hangs() -> None:
    """R-M4: "being shoved ... off it, falls from there": bo wins the STR Contest (8 + 6 against
    1 + 6); ana falls the 4 m to the ground below her, 2 full metres above her height: 4
    crushing damage, Prone, no push and no save."""
    b = hanging_below_bo(8, 1)
    events = accepted(b, unit="bo", action="shove", target="ana")
    assert kinds(events) == [
        "spent",
        "reaction_answered",  # ana, next to bo, lets the Shove start (R-R7; policy "never")
        "rolled",
        "rolled",
        "condition_lost",
        "fell",
        "damaged",
        "condition_gained",
    ]
    assert events[4]["reason"] == "shoved off the face by bo (R-M4)"
    assert (events[5]["at"], events[5]["metres"], events[6]["amount"]) == ([1, 1], 4.0, 4)
    assert conditions_of(b, "ana") == {"prone": 1}
    assert at(b) == Position(Pos(1, 1))


def test_R_M4_tripped_off_the_face_a_hanging_creature_falls_instead_of_lying_on_it() -> None:
    """R-M4 with R-X19: bo's Trip hits (8 + 6 against ana's Defense Roll 1) and ana fails her
    AGI Save (1 + 8 against 14): knocked off the face, she falls 4 m and lands Prone."""
    b = hanging_below_bo(8, 1, 1)
    events = accepted(b, unit="bo", action="trip", target="ana")
    assert {"type": "condition_lost", "unit": "ana", "condition": "hanging",
            "reason": "knocked off the face (R-M4)"} in events  # fmt: skip
    assert [e["metres"] for e in events if e["type"] == "fell"] == [4.0]
    assert conditions_of(b, "ana") == {"prone": 1}
    assert at(b) == Position(Pos(1, 1))


# --- issue #28: the tags that say what each roll and attack was for ----------------------------


def test_tags_a_shove_tags_both_sides_of_its_contest_and_the_save() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(6, 2, 1))
    since = len(b.log)
    accepted(b, unit="ana", action="shove", target="bob")
    assert tagged(b, since) == [
        ("rolled", RollKind.SHOVE),
        ("rolled", RollKind.RESIST_SHOVE),
        ("rolled", RollKind.KEEP_FEET),
    ]


def test_tags_a_trip_is_its_own_attack_and_the_save_keeps_the_feet() -> None:
    b = begin(OPEN, creature("ana", "blue", "a"), creature("bob", "red", "b"), dice=(5, 3, 2))
    since = len(b.log)
    accepted(b, unit="ana", action="trip", target="bob")
    assert tagged(b, since) == [
        ("rolled", RollKind.HIT),
        ("rolled", RollKind.DEFENSE),
        ("attack_resolved", AttackKind.TRIP),
        ("damaged", "ana"),
        ("rolled", RollKind.KEEP_FEET),
    ]
