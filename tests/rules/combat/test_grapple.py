"""R-G1..R-G4, R-X13: a grapple begun, held, sustained, broken and let go, as transcripts.

The creatures are tests/movers.py's plain humans: STR d8+6, AGI d8+8, no skills unless a test
gives them, nothing in hand, reactions "never". ana acts first (initiative 4 + 8 against 3 + 8).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest

from sim.core.actions import Action
from sim.core.components import ExtendedAction, Position
from sim.core.events import Moved, to_json
from sim.core.geometry import Pos
from sim.core.numbers import Tier
from sim.core.purpose import RollKind
from sim.play.engine import Battle
from sim.play.rulebook import RULEBOOK, Mechanic
from tests.helpers import (
    accept,
    accepted,
    battle,
    budget,
    conditions_of,
    end_turns,
    give,
    refused,
    rolls,
    scenario_text,
    tagged,
    types,
)
from tests.movers import creature

ROW = """
#######
#ab...#
#######
"""

OPEN = """
......
.ab...
......
"""

THREE = """
......
.ab...
.....c
"""


def begin(*units: str, rows: str = ROW, dice: tuple[int, ...] = ()) -> Battle:
    """Initiative 4, 3, 2, ... in scenario order (so the first acts first), then `dice`."""
    rolls = [4, 3, 2, 1][: len(units)]
    return battle(scenario_text(rows, "\n".join(units)), [*rolls, *dice])


def pair(
    dice: tuple[int, ...] = (), ana: dict[str, Any] | None = None, rows: str = ROW, **bo: Any
) -> Battle:
    """ana (blue) at a with Athletics 2 and bo (red) at b with Athletics 1, Acrobatics 3."""
    return begin(
        creature("ana", "blue", "a", **({"skills": {"athletics": 2}} | (ana or {}))),
        creature("bo", "red", "b", **({"skills": {"athletics": 1, "acrobatics": 3}} | bo)),
        rows=rows,
        dice=dice,
    )


def contests(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "contest_resolved"]


def held(b: Battle) -> tuple[Any, Any]:
    """(whom ana holds, who holds bo), None for nothing."""
    return conditions_of(b, "ana").get("grappling"), conditions_of(b, "bo").get("grappled")


def grappled(b: Battle) -> Battle:
    """ana has grappled bo (6 + 6 + 2 = 14 against 2 + 6 + 3 = 11); ana's turn goes on."""
    accepted(b, unit="ana", action="grapple", target="bo")
    assert held(b) == ("bo", "ana")
    return b


# --- R-G1 beginning a grapple ------------------------------------------------------------------


def test_R_G1_R_X13_a_grapple_is_a_1_5_action_str_contest_the_winner_holds_the_loser() -> None:
    """R-G1, R-X13: ana (STR d8+6, Athletics 2) grapples bo in reach; bo resists with STR plus
    the better of Athletics (1) and Acrobatics (3). 14 beats 11: bo is Grappled by ana."""
    b = pair(dice=(6, 2))
    events = accepted(b, unit="ana", action="grapple", target="bo")
    assert events[0] == {
        "type": "spent", "unit": "ana", "action": "grapple", "tier": "one_and_half",
        "half": 2, "bonus": 2, "free_kind": None, "counts_as_action": True,
    }  # fmt: skip
    assert rolls(events) == [
        ("ana", "grapple: STR + Athletics", 6, 14),
        ("bo", "grapple: STR + Acrobatics", 2, 11),
    ]
    assert contests(events) == [
        {"type": "contest_resolved", "purpose": "grapple (STR Contest, R-G1)", "acting": "ana",
         "acting_total": 14, "other": "bo", "other_total": 11, "winner": "ana"},
    ]  # fmt: skip
    assert events[-2:] == [
        {"type": "condition_gained", "unit": "ana", "condition": "grappling", "value": "bo"},
        {"type": "condition_gained", "unit": "bo", "condition": "grappled", "value": "ana"},
    ]
    assert budget(b, "ana") == (0, 0)


def test_R_G1_the_defender_adds_athletics_when_it_is_the_better_skill() -> None:
    """R-G1: "both may add Athletics and the defender may add Acrobatics instead"."""
    b = pair(dice=(6, 2), skills={"athletics": 4, "acrobatics": 1})
    events = accepted(b, unit="ana", action="grapple", target="bo")
    assert rolls(events)[1] == ("bo", "grapple: STR + Athletics", 2, 12)


def test_R_G1_R_C4_a_failed_grapple_does_nothing_beyond_its_cost() -> None:
    """R-G1: "if it loses, nothing happens beyond the spent cost" (Decision: the defender, who
    did not try to grapple, is never made the grappler). R-C4: 14 against 14 goes to bo; ana has
    paid her 1½ Action and nobody is grappled."""
    b = pair(dice=(6, 5), rows=OPEN)
    events = accepted(b, unit="ana", action="grapple", target="bo")
    assert contests(events)[0]["winner"] == "bo"
    # bo declines the Interrupt (R-R7) his policy "never" is offered; then the contest alone.
    assert types(events) == ["spent", "reaction_answered", "rolled", "rolled", "contest_resolved"]
    assert held(b) == (None, None)
    assert conditions_of(b, "ana") == {} and conditions_of(b, "bo") == {}
    assert budget(b, "ana") == (0, 0)


def test_R_G1_a_defender_with_full_hands_who_wins_is_not_grappled_either() -> None:
    """R-G1: bo holds a club and a buckler, wins 17 against 9, and nobody is grappled."""
    b = pair(dice=(1, 8), held=["club", "buckler"])
    events = accepted(b, unit="ana", action="grapple", target="bo")
    assert contests(events)[0]["winner"] == "bo"
    assert "condition_gained" not in types(events)
    assert held(b) == (None, None)


def test_R_G1_an_incapacitated_creature_does_not_resist() -> None:
    """R-G1 with R-K2 (Decision): a downed bo rolls nothing; its total is 0 (cy keeps the red
    side in the battle)."""
    b = begin(
        creature("ana", "blue", "a", skills={"athletics": 2}),
        creature("bo", "red", "b"),
        creature("cy", "red", "c"),
        rows=THREE,
        dice=(1,),
    )
    give(b, "bo", "incapacitated")
    events = accepted(b, unit="ana", action="grapple", target="bo")
    assert rolls(events) == [("ana", "grapple: STR + Athletics", 1, 9)]
    assert contests(events)[0]["other_total"] == 0
    assert held(b) == ("bo", "ana")


def test_R_G1_refusals_a_free_hand_reach_one_grapple_and_the_budget() -> None:
    """R-G1: a creature in reach, with a free hand; one grapple at a time; a 1½ Action."""
    b = begin(
        creature("ana", "blue", "a", held=["longsword", "heater"]),
        creature("bo", "red", "b"),
        creature("cy", "red", "c"),
        rows="#######\n#abc..#\n#######",
    )
    assert refused(b, unit="ana", action="grapple", target="bo") == (
        "ana needs a free hand to grapple but holds ana.longsword and ana.heater (R-G1)"
    )
    accepted(b, unit="ana", action="drop", item="heater")
    assert refused(b, unit="ana", action="grapple", target="cy") == (
        "cy at (3,1) is out of ana's reach (R-A4)"
    )
    assert (
        refused(b, unit="ana", action="grapple", target="ana") == "ana cannot grapple itself (R-G1)"
    )
    assert refused(b, unit="ana", action="grapple", target="zed") == (
        "there is no creature 'zed' to grapple (R-G1)"
    )
    give(b, "bo", "grappling", "cy")
    give(b, "cy", "grappled", "bo")
    assert refused(b, unit="ana", action="grapple", target="bo") == (
        "bo is already grappling cy; a creature is in one grapple at a time (R-G1)"
    )
    accepted(b, unit="ana", action="aim")
    assert refused(b, unit="ana", action="grapple", target="bo") == (
        "ana has only 1 Bonus Action left; Grapple (1½ Action) costs 2 Bonus Actions (R-B4)"
    )


def test_R_G1_a_creature_already_held_cannot_begin_another_grapple() -> None:
    b = grappled(pair(dice=(6, 2)))
    end_turns(b, "ana")
    assert refused(b, unit="bo", action="grapple", target="ana") == (
        "bo is grappled by ana; a creature is in one grapple at a time (R-G1)"
    )


# --- R-G2 what a grappled creature may do, and breaking free ---------------------------------


def test_R_G2_R_G4_neither_the_grappled_nor_the_grappler_takes_a_movement_action() -> None:
    """R-G2: the Grappled creature takes no Movement Action; R-G4: nor does the grappler."""
    b = grappled(pair(dice=(6, 2, 8, 1), rows=OPEN))
    end_turns(b, "ana")
    assert refused(b, unit="bo", action="walk", to=[4, 1]) == (
        "bo is grappled and can take no Movement Action (R-G2)"
    )
    end_turns(b, "bo")  # ana sustains: 8 + 8 = 16 against 1 + 9 = 10
    assert refused(b, unit="ana", action="walk", to=[1, 2]) == (
        "ana is grappling and can take no Movement Action; let go first (R-G4)"
    )


def test_R_G2_breaking_free_is_a_full_action_contest_and_winning_ends_the_grapple() -> None:
    """R-G2: bo breaks free with a Full Action: the same contest, bo acting (STR + Acrobatics
    3) against ana (STR + Athletics 2); 8 + 9 = 17 beats 1 + 8 = 9."""
    b = grappled(pair(dice=(6, 2, 8, 1)))
    end_turns(b, "ana")
    events = accepted(b, unit="bo", action="break_free")
    assert events[0]["tier"] == "full" and (events[0]["half"], events[0]["bonus"]) == (2, 2)
    assert rolls(events) == [
        ("bo", "break free: STR + Acrobatics", 8, 17),
        ("ana", "break free: STR + Athletics", 1, 9),
    ]
    assert contests(events)[0]["winner"] == "bo"
    lost = [
        (e["unit"], e["condition"], e["reason"]) for e in events if e["type"] == "condition_lost"
    ]
    assert lost == [
        ("ana", "grappling", "bo broke free (R-G2)"),
        ("bo", "grappled", "bo broke free (R-G2)"),
    ]
    assert held(b) == (None, None)


def test_R_G2_losing_the_break_free_contest_keeps_the_grapple_and_a_tie_goes_to_the_grappler() -> (
    None
):
    """R-G2 with R-C4: bo acts, so a tie (14 against 14) goes to ana; bo stays Grappled."""
    b = grappled(pair(dice=(6, 2, 5, 6)))
    end_turns(b, "ana")
    events = accepted(b, unit="bo", action="break_free")
    assert contests(events)[0]["acting_total"] == contests(events)[0]["other_total"] == 14
    assert contests(events)[0]["winner"] == "ana"
    assert held(b) == ("bo", "ana")


def test_R_G2_only_once_per_turn_even_when_quickened() -> None:
    """R-G2 "Once per turn": a Full Action is the turn's first action anyway; a Quickened
    break-free (a ½ Action, R-B6) could be taken twice, but the second is refused (10 against
    16 the first time). The next turn it may try again, and wins (17 against 9)."""
    b = grappled(pair(dice=(6, 2, 1, 8, 8, 1, 8, 1)))
    end_turns(b, "ana")
    give(b, "bo", "quickened", 1)
    events = accepted(b, unit="bo", action="break_free", quicken=True)
    assert events[0]["tier"] == "half"
    assert held(b) == ("bo", "ana")
    assert budget(b, "bo") == (1, 2)
    assert refused(b, unit="bo", action="break_free", quicken=True) == (
        "bo has already tried to break free this turn (R-G2: once per turn)"
    )
    end_turns(b, "bo", "ana")  # ana sustains: 8 + 8 = 16 against 1 + 9 = 10
    assert "break_free_tried" not in conditions_of(b, "bo")
    accepted(b, unit="bo", action="break_free")
    assert held(b) == (None, None)


def test_R_G2_a_second_full_action_break_free_is_refused_by_the_budget() -> None:
    b = grappled(pair(dice=(6, 2, 1, 8, 7, 7)))
    end_turns(b, "ana")
    accepted(b, unit="bo", action="break_free")
    assert refused(b, unit="bo", action="break_free") == (
        "a Full Action must be the first action of the turn; bo has already acted this turn (R-B3)"
    )
    end_turns(b, "bo")  # ana sustains (7 + 8 = 15 against 7 + 9 = 16: she loses it)
    assert held(b) == (None, None)


def test_R_G2_only_a_grappled_creature_breaks_free() -> None:
    b = pair()
    assert refused(b, unit="ana", action="break_free") == (
        "ana is not grappled; there is nothing to break free from (R-G2)"
    )


# --- R-G3 sustaining at the start of the grappler's turn ---------------------------------------


def test_R_G3_the_grappler_sustains_with_a_new_contest_for_2_bonus_actions() -> None:
    """R-G3: at the start of ana's turn, after the refill, a new contest paid with 2 B; she
    wins (5 + 8 = 13 against 1 + 9 = 10) and keeps bo, with no Bonus Action left."""
    b = grappled(pair(dice=(6, 2, 5, 1)))
    end_turns(b, "ana", "bo")
    start = max(i for i, e in enumerate(b.log) if e.kind == "turn_started")
    assert types(b.log[start:]) == [
        "turn_started", "budget_refilled", "spent", "rolled", "rolled", "contest_resolved",
    ]  # fmt: skip
    # The price as paid: two Bonus Actions, so "bonus_x2" (the Bonus tier alone is 1 B).
    assert to_json(b.log[start + 2]) == {
        "type": "spent", "unit": "ana", "action": "sustain_grapple", "tier": "bonus_x2",
        "half": 0, "bonus": 2, "free_kind": None, "counts_as_action": False,
    }  # fmt: skip
    assert rolls([to_json(e) for e in b.log[start:]]) == [
        ("ana", "sustain grapple: STR + Athletics", 5, 13),
        ("bo", "sustain grapple: STR + Acrobatics", 1, 10),
    ]
    assert budget(b, "ana") == (2, 0)
    assert held(b) == ("bo", "ana")


def test_R_G3_losing_the_sustaining_contest_ends_the_grapple() -> None:
    """R-G3: "Losing ... ends the grapple" — 1 + 8 = 9 against 8 + 9 = 17."""
    b = grappled(pair(dice=(6, 2, 1, 8)))
    end_turns(b, "ana", "bo")
    lost = [e for e in b.log[-2:]]
    assert [(e.unit, e.reason) for e in lost] == [  # type: ignore[attr-defined]
        ("ana", "bo won the contest to sustain it (R-G3)"),
        ("bo", "bo won the contest to sustain it (R-G3)"),
    ]
    assert held(b) == (None, None)
    assert budget(b, "ana") == (2, 0)  # the 2 B are spent all the same


def test_R_G3_lacking_2_bonus_actions_ends_the_grapple() -> None:
    """R-G3: "Losing, or lacking 2 B, ends the grapple" — under a house rule of 1 Bonus Action
    a turn (R-B2 lives in the rules data) ana cannot pay to sustain, and lets go."""
    b = pair()
    give(b, "ana", "grappling", "bo")
    give(b, "bo", "grappled", "ana")
    rules = b.world.rules
    b.world.rules = replace(rules, budget=replace(rules.budget, bonus_actions=1))
    end_turns(b, "ana", "bo")
    assert b.log[-1].reason == "ana lacks 2 Bonus Actions to sustain it (R-G3)"  # type: ignore[attr-defined]
    assert held(b) == (None, None)
    assert budget(b, "ana") == (2, 1)


def test_R_T2_R_G3_the_grapple_is_sustained_after_burning_and_bleeding_before_extended() -> None:
    """R-T2: refill; Burning and Bleeding; the grappler sustains; an Extended Action continues.
    ana grapples bo, next turn sustains and starts donning padded armour (an Extended Action
    may follow the sustain, which is no action of the turn's), and the turn after burns,
    bleeds, sustains and dons on."""
    b = grappled(pair(dice=(6, 2, 5, 1, 5, 1), ana={"carried": ["padded"]}))
    end_turns(b, "ana", "bo")
    accepted(b, unit="ana", action="don", item="padded")
    give(b, "ana", "burning", 1)
    give(b, "ana", "bleeding", 1)
    end_turns(b, "ana", "bo")
    start = max(i for i, e in enumerate(b.log) if e.kind == "turn_started")
    assert types(b.log[start:]) == [
        "turn_started", "budget_refilled", "damaged", "condition_lost", "damaged",
        "spent", "rolled", "rolled", "contest_resolved", "spent", "extended_continued",
    ]  # fmt: skip
    assert b.world.has("ana", ExtendedAction)


# --- R-G4 letting go, moving apart, the grappler downed ----------------------------------------


def test_R_G4_the_grappler_lets_go_for_free_at_any_time() -> None:
    """R-G4: release is a Free Action, on ana's turn or outside it."""
    b = grappled(pair(dice=(6, 2)))
    events = accepted(b, unit="ana", action="release")
    assert events[0] == {
        "type": "spent", "unit": "ana", "action": "release", "tier": "free", "half": 0,
        "bonus": 0, "free_kind": None, "counts_as_action": False,
    }  # fmt: skip
    assert [(e["unit"], e["reason"]) for e in events[1:]] == [
        ("ana", "ana let go (R-G4)"),
        ("bo", "ana let go (R-G4)"),
    ]
    assert held(b) == (None, None)


def test_R_G4_letting_go_during_the_other_creature_s_turn() -> None:
    b = grappled(pair(dice=(6, 2)))
    end_turns(b, "ana")
    accepted(b, unit="ana", action="release")
    assert held(b) == (None, None)
    accepted(b, unit="bo", action="walk", to=[4, 1])  # free to move at once


def test_R_G4_release_needs_a_grapple() -> None:
    b = pair()
    assert refused(b, unit="ana", action="release") == (
        "ana is grappling no one; there is nothing to let go (R-G4)"
    )


@dataclass(frozen=True, slots=True)
class Shunt(Action):
    """A test-only forced move: the actor's target is carried to `to` (as a shove would)."""

    target: str = ""
    to: Pos | None = None
    name: ClassVar[str] = "shunt"
    tier: ClassVar[Tier] = Tier.FREE


@pytest.fixture
def shunt(monkeypatch: pytest.MonkeyPatch) -> None:
    def resolve(world: Any, action: Shunt, dice: Any) -> list[Moved]:
        start = world.need(action.target, Position).cell
        assert action.to is not None
        return [Moved(action.target, start, action.to, 2)]

    monkeypatch.setitem(RULEBOOK, Shunt, Mechanic(lambda world, action: None, resolve, ()))


@pytest.mark.usefixtures("shunt")
def test_R_G4_the_grapple_ends_when_the_two_are_moved_apart() -> None:
    """R-G4: "The grapple ends if either creature is moved apart" — bo is carried one cell
    along (still in ana's reach: the grapple holds), then out of it: it ends for both."""
    b = grappled(pair(dice=(6, 2), rows=OPEN))
    accept(b, Shunt("ana", target="bo", to=Pos(2, 2)))
    assert held(b) == ("bo", "ana")
    events = accept(b, Shunt("ana", target="bo", to=Pos(3, 2)))
    assert [(e["unit"], e["condition"], e["reason"]) for e in events[-2:]] == [
        ("ana", "grappling", "ana and bo were moved apart (R-G4)"),
        ("bo", "grappled", "ana and bo were moved apart (R-G4)"),
    ]


def test_R_G4_the_grapple_ends_when_the_grappler_is_incapacitated() -> None:
    """R-G4: bo, held, clubs ana (1 HP) down: the grapple ends; bo may walk away."""
    b = grappled(
        begin(
            creature("ana", "blue", "a", skills={"athletics": 2}, hp=1),
            creature("bo", "red", "b", held=["club"]),
            creature("cy", "blue", "c"),
            rows=THREE,
            dice=(6, 2, 8, 1),
        )
    )
    end_turns(b, "ana")
    events = accepted(b, unit="bo", action="attack", target="ana")
    assert [(e["unit"], e["condition"]) for e in events if e["type"].startswith("condition")] == [
        ("ana", "incapacitated"),
        ("ana", "grappling"),
        ("bo", "grappled"),
    ]
    assert events[-1]["reason"] == "ana is incapacitated (R-G4)"
    accepted(b, unit="bo", action="walk", to=[4, 1])


def test_R_B5_R_G1_being_grappled_breaks_an_extended_action() -> None:
    """R-B5: bo, donning padded armour, is grappled by ana: the donning is lost."""
    b = begin(
        creature("bo", "red", "b", carried=["padded"]),
        creature("ana", "blue", "a", skills={"athletics": 2}),
        dice=(6, 2),
    )
    accepted(b, unit="bo", action="don", item="padded")
    end_turns(b, "bo")
    events = accepted(b, unit="ana", action="grapple", target="bo")
    assert events[-1] == {
        "type": "extended_broken", "unit": "bo", "action": "don", "reason": "bo is grappled",
    }  # fmt: skip


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
    assert b.world.need("bo", Position).cell == Pos(2, 3)
    assert "grappling" not in conditions_of(b, "ana")
    assert "grappled" not in conditions_of(b, "bo")


# --- issue #28: the tags that say what each contest was for ------------------------------------


def test_tags_each_grapple_contest_and_its_rolls_are_tagged_with_what_it_is_for() -> None:
    b = pair(dice=(6, 2, 8, 1))
    since = len(b.log)
    grappled(b)
    end_turns(b, "ana")
    accepted(b, unit="bo", action="break_free")
    assert tagged(b, since) == [
        ("rolled", RollKind.GRAPPLE),
        ("rolled", RollKind.GRAPPLE),
        ("contest_resolved", RollKind.GRAPPLE),
        ("rolled", RollKind.BREAK_FREE),
        ("rolled", RollKind.BREAK_FREE),
        ("contest_resolved", RollKind.BREAK_FREE),
    ]
    b = grappled(pair(dice=(6, 2, 5, 1)))
    since = len(b.log)
    end_turns(b, "ana", "bo")
    assert tagged(b, since) == [
        ("rolled", RollKind.SUSTAIN_GRAPPLE),
        ("rolled", RollKind.SUSTAIN_GRAPPLE),
        ("contest_resolved", RollKind.SUSTAIN_GRAPPLE),
    ]
