"""R-T: turns — initiative and its ties, the start of a turn in order, acting on one's turn."""

from __future__ import annotations

from typing import Any

import pytest

from sim.core.dice import DiceExhausted
from sim.core.events import InitiativeOrder, Rolled, to_json
from sim.core.purpose import RollKind
from sim.play.engine import AwaitingAction, Battle
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


def begin(dice: list[int], *templates: str) -> Battle:
    """A battle of the given templates, named ana, bo, cy and dee in scenario order and standing
    in a row at a, b, c and d; ana and cy are blue, bo and dee red."""
    names, teams, markers = ("ana", "bo", "cy", "dee"), ("blue", "red"), "abcd"
    units = "\n".join(
        unit(names[i], teams[i % 2], template, markers[i]) for i, template in enumerate(templates)
    )
    row = "#" + "".join(f"{m}." for m in markers[: len(templates)]) + "#"
    return battle(scenario_text("\n".join(["#" * len(row), row, "#" * len(row)]), units), dice)


def initiative_rolls(b: Battle) -> list[tuple[str, str, int, int, int, int]]:
    return [
        (e.unit, e.purpose, e.die, e.result, e.bonus, e.total)
        for e in b.log
        if isinstance(e, Rolled)
    ]


def order(b: Battle) -> tuple[str, ...]:
    found = [e for e in b.log if isinstance(e, InitiativeOrder)]
    assert len(found) == 1
    return found[0].order


# --- R-T1 initiative -------------------------------------------------------------------------


def test_R_T1_initiative_is_agi_roll_plus_agi_bonus_highest_first() -> None:
    """R-T1: "Initiative: AGI Roll + AGI Bonus once at the start" — ana (AGI d8+4) rolls 1 for
    5, bo (orc brute, d6+3) rolls 6 for 9, cy (elf, d10+6) rolls 2 for 8: bo, cy, ana."""
    b = begin([1, 6, 2], "human_fighter", "orc_brute", "elf_skirmisher")
    assert initiative_rolls(b) == [
        ("ana", "initiative", 8, 1, 4, 5),
        ("bo", "initiative", 6, 6, 3, 9),
        ("cy", "initiative", 10, 2, 6, 8),
    ]
    assert order(b) == ("bo", "cy", "ana")
    assert b.pending == AwaitingAction("bo")


def test_R_T1_initiative_is_rolled_once_not_every_round() -> None:
    """R-T1: "once at the start" — three rounds are played on two loaded dice; had initiative
    been rolled again, the loaded dice would have run out."""
    b = begin([1, 6], "human_fighter", "orc_brute")
    for _ in range(3):
        end_turns(b, "bo", "ana")
    assert b.world.turn.round == 4
    assert types(b.log).count("initiative_rolled") == 2
    assert b.world.turn.order == ("bo", "ana")


def test_R_T1_a_tied_score_goes_to_the_higher_agi_bonus() -> None:
    """R-T1: "ties go to the higher AGI Bonus" — ana (d8+4) rolls 5 and bo (d6+3) rolls 6:
    both 9; ana's Bonus 4 beats bo's 3, and no tie-break die is drawn (two loaded results
    only)."""
    b = begin([5, 6], "human_fighter", "orc_brute")
    assert [total for *_, total in initiative_rolls(b)] == [9, 9]
    assert order(b) == ("ana", "bo")


def test_R_T1_an_exact_tie_is_settled_by_a_seeded_draw() -> None:
    """R-T1: "then to a seeded random draw" — two human fighters, ana and cy, both roll 4 (8
    with Bonus 4): each draws a d20, ana 7 and cy 15, and cy goes first. Bo is not tied and
    draws nothing."""
    b = begin([4, 1, 4, 7, 15], "human_fighter", "orc_brute", "human_fighter")
    assert initiative_rolls(b) == [
        ("ana", "initiative", 8, 4, 4, 8),
        ("bo", "initiative", 6, 1, 3, 4),
        ("cy", "initiative", 8, 4, 4, 8),
        ("ana", "initiative tie-break draw", 20, 7, 0, 7),
        ("cy", "initiative tie-break draw", 20, 15, 0, 15),
    ]
    assert [tag for _, tag in tagged(b)] == [RollKind.INITIATIVE] * 3 + [
        RollKind.INITIATIVE_TIE_BREAK
    ] * 2
    assert order(b) == ("cy", "ana", "bo")


def test_R_T1_a_tied_draw_is_drawn_again() -> None:
    """R-T1: a draw that ties again is drawn again, until the order is settled: ana and cy
    both draw 10, then 3 and 17."""
    b = begin([4, 1, 4, 10, 10, 3, 17], "human_fighter", "orc_brute", "human_fighter")
    draws = [(u, r) for u, purpose, _, r, _, _ in initiative_rolls(b) if "draw" in purpose]
    assert draws == [("ana", 10), ("cy", 10), ("ana", 3), ("cy", 17)]
    assert order(b) == ("cy", "ana", "bo")


def test_R_T1_the_draw_uses_the_battle_dice() -> None:
    """R-T1: the draw is "seeded": it comes from the battle's dice like every roll, so loaded
    dice that run out before the draw fail loudly rather than draw elsewhere."""
    with pytest.raises(DiceExhausted, match="a d20 was needed"):
        begin([4, 1, 4], "human_fighter", "orc_brute", "human_fighter")


# --- R-T2 the start of a turn ----------------------------------------------------------------


def _turn_start(b: Battle, uid: str) -> list[dict[str, Any]]:
    """The events of `uid`'s latest turn start, from turn_started on."""
    start = max(
        i for i, e in enumerate(b.log) if e.kind == "turn_started" and to_json(e)["unit"] == uid
    )
    return [to_json(e) for e in b.log[start:]]


def test_R_T2_the_start_of_a_turn_in_order() -> None:
    """R-T2: "Start of a turn, in this order: refill H and B; Burning and Bleeding deal damage;
    a grappler sustains or loses its grapple; an Extended Action continues." — ana is doffing
    her mail, burns with 2 stacks and bleeds with 1 (the grapple step:
    tests/rules/combat/test_grapple.py)."""
    b = begin([8, 1], "human_fighter", "orc_brute")
    accepted(b, unit="ana", action="doff")
    give(b, "ana", "burning", 2)
    give(b, "ana", "bleeding", 1)
    end_turns(b, "ana", "bo")
    assert _turn_start(b, "ana") == [
        {"type": "turn_started", "unit": "ana", "round": 2},
        {"type": "budget_refilled", "unit": "ana", "half": 2, "bonus": 2},
        {"type": "damaged", "unit": "ana", "amount": 2, "damage_type": "fire",
         "source": "burning", "hp": 13},
        {"type": "condition_gained", "unit": "ana", "condition": "burning", "value": 1},
        {"type": "damaged", "unit": "ana", "amount": 1, "damage_type": "bleeding",
         "source": "bleeding", "hp": 12},
        {"type": "spent", "unit": "ana", "action": "doff", "tier": "extended", "half": 2,
         "bonus": 2, "free_kind": None, "counts_as_action": True},
        {"type": "extended_continued", "unit": "ana", "action": "doff", "turns_done": 2,
         "turns_needed": 5},
    ]  # fmt: skip


def test_R_T2_burning_fades_one_stack_a_turn_and_bleeding_does_not() -> None:
    """R-T2 with R-K4 and R-K5: burning 1 deals 1 and goes out; bleeding 2 deals 2 every turn."""
    b = begin([8, 1], "human_fighter", "orc_brute")
    give(b, "ana", "burning", 1)
    give(b, "ana", "bleeding", 2)
    end_turns(b, "ana", "bo")
    assert types(_turn_start(b, "ana")) == [
        "turn_started", "budget_refilled", "damaged", "condition_lost", "damaged",
    ]  # fmt: skip
    assert hp(b, "ana") == 15 - 1 - 2
    end_turns(b, "ana", "bo")
    assert types(_turn_start(b, "ana")) == ["turn_started", "budget_refilled", "damaged"]
    assert hp(b, "ana") == 15 - 1 - 2 - 2
    assert conditions_of(b, "ana") == {"bleeding": 2}


def test_R_T2_bonus_actions_are_refilled_at_the_next_turn() -> None:
    """R-T2: "refill H and B" — ana spends both H and 1 B; they stay spent through bo's turn and
    come back at the start of her next turn."""
    b = begin([8, 1], "human_fighter", "orc_brute")
    accepted(b, unit="ana", action="aim")
    accepted(b, unit="ana", action="guard")
    accepted(b, unit="ana", action="fall_prone")
    assert budget(b, "ana") == (0, 1)
    end_turns(b, "ana")
    assert budget(b, "ana") == (0, 1)
    end_turns(b, "bo")
    assert _turn_start(b, "ana")[1] == {
        "type": "budget_refilled", "unit": "ana", "half": 2, "bonus": 2,
    }  # fmt: skip
    assert budget(b, "ana") == (2, 2)


def test_R_T2_a_creature_bleeding_to_0_is_refilled_first_and_then_its_turn_ends() -> None:
    """R-T2: the refill comes first; a creature that bleeds to 0 at the start of its turn is
    then Incapacitated and its turn ends at once (R-K2). Order: ana 12, cy 6, bo 4."""
    b = begin([8, 1, 1], "human_fighter", "orc_brute", "human_archer")
    give(b, "ana", "bleeding", 20)
    end_turns(b, "ana", "cy", "bo")
    assert types(_turn_start(b, "ana")) == [
        "turn_started", "budget_refilled", "damaged", "condition_gained", "turn_ended",
        "turn_started", "budget_refilled",
    ]  # fmt: skip
    assert b.pending == AwaitingAction("cy")


# --- R-T3 acting on one's own turn -----------------------------------------------------------


def test_R_T3_acting_out_of_turn_is_refused() -> None:
    """R-T3: "Most actions only on one's own turn." — on ana's turn bo may not act, not even
    end the turn; once ana ends hers, bo may, and ana may not."""
    b = begin([8, 1], "human_fighter", "orc_brute")
    assert refused(b, unit="bo", action="aim") == "it is ana's turn, not bo's (R-T3)"
    assert refused(b, unit="bo", action="end_turn") == "it is ana's turn, not bo's (R-T3)"
    assert refused(b, unit="bo", action="draw", item="greataxe") == (
        "it is ana's turn, not bo's (R-T3)"
    )
    end_turns(b, "ana")
    assert refused(b, unit="ana", action="evade") == "it is bo's turn, not ana's (R-T3)"
    accepted(b, unit="bo", action="aim")


@pytest.mark.parametrize("who", ["zed", "ana.longsword", ""])
def test_R_T3_only_a_creature_of_the_battle_acts(who: str) -> None:
    """R-T3: an unknown id, or an item's id, is not a unit that can act."""
    b = begin([8, 1], "human_fighter", "orc_brute")
    assert refused(b, unit=who, action="aim") == f"there is no unit {who!r} (R-C1)"


def test_R_T1_dice_that_always_tie_leave_scenario_order_after_a_bounded_number_of_draws() -> None:
    """R-T1: the draw repeats among exact ties, but not forever: loaded dice that tie every
    time (a seeded die cannot) leave the tied creatures in scenario order."""
    from sim.content.scenario import loads

    class Always:
        def roll(self, sides: int) -> int:
            return min(4, sides)

        def describe(self) -> str:
            return "always 4"

    text = scenario_text("...\n.ab\n...", "\n".join([
        unit("ana", "blue", "human_fighter", "a"), unit("bob", "red", "human_fighter", "b"),
    ]))  # fmt: skip
    scenario = loads(text)
    b = scenario.begin(Always())
    assert b.world.turn.order == ("ana", "bob")
    draws = [e for e in b.log if getattr(e, "tag", None) is RollKind.INITIATIVE_TIE_BREAK]
    assert len(draws) == 2 * 20
