"""Assist (R-X21) as transcripts: a Bonus Action that gives an ally +2 on its next Hit Roll
against an enemy, both in the assister's melee reach, until the assister's next turn; once per
ally per turn; its refusals in a player's words.

Creatures are tests/movers.BASE (FCS d8+6, RES d10+5, policy "never"). bram (1,2) stands next
to his ally ana (1,1) and to grok (2,1); cy (3,2) is ana's other ally, zed (9,1) an enemy far
off. Initiative: bram, ana, cy, grok, zed.
"""

from __future__ import annotations

from typing import Any

import pytest

from sim.core.condition import Condition
from sim.core.events import ConditionLost, to_json
from sim.play.apply import apply
from sim.play.decisions import DecisionError, parse
from sim.play.engine import AwaitingAction, Battle
from tests.helpers import accepted, budget, conditions_of, end_turns, give, refused
from tests.movers import begin, creature

FIELD = """
..........
.ag......z
.b.c......
"""


def field(*dice: int) -> Battle:
    return begin(
        FIELD,
        creature("bram", "blue", "b"),
        creature("ana", "blue", "a"),
        creature("cy", "blue", "c"),
        creature("grok", "red", "g"),
        creature("zed", "red", "z"),
        dice=dice,
    )


def hit_rolls(events: list[dict[str, Any]]) -> list[tuple[str, int, int, int]]:
    """(unit, die result, bonus, total) of each Hit Roll."""
    return [
        (e["unit"], e["result"], e["bonus"], e["total"])
        for e in events
        if e["type"] == "rolled" and e["purpose"].startswith("hit roll")
    ]


def test_R_X21_assist_is_a_bonus_action_giving_the_ally_plus_2_on_its_next_hit_roll() -> None:
    """R-X21: bram assists ana against grok (1 B); on her turn her Hit Roll on grok is
    4 + 6 + 2 = 12 and the help is used up; her second attack gets no +2."""
    b = field(4, 1, 4, 1)
    events = accepted(b, unit="bram", action="assist", ally="ana", enemy="grok")
    assert events == [
        {"type": "spent", "unit": "bram", "action": "assist", "tier": "bonus", "half": 0,
         "bonus": 1, "free_kind": None, "counts_as_action": True},
        # grok, next to bram, may Interrupt the Assist (R-R7); his policy lets it be.
        {"type": "reaction_answered", "unit": "grok", "window": "interrupt",
         "trigger": "bram starts an Assist next to grok", "options": ["interrupt", "none"],
         "choice": "none", "by": "policy"},
        {"type": "condition_gained", "unit": "ana", "condition": "assisted", "value": "grok"},
        {"type": "condition_gained", "unit": "ana", "condition": "assisted_by", "value": "bram"},
        {"type": "condition_gained", "unit": "bram", "condition": "assisting", "value": "ana"},
    ]  # fmt: skip
    assert budget(b, "bram") == (2, 1)
    end_turns(b, "bram")
    events = accepted(b, unit="ana", action="attack", target="grok")
    assert hit_rolls(events) == [("ana", 4, 8, 12)]
    assert {"type": "condition_lost", "unit": "ana", "condition": "assisted",
            "reason": "used on this Hit Roll (R-X21)"} in events  # fmt: skip
    assert conditions_of(b, "ana") == {}
    events = accepted(b, unit="ana", action="attack", target="grok")
    assert hit_rolls(events) == [("ana", 4, 3, 7)]  # the second attack: half the FCS Bonus (R-A1)


def test_R_X21_the_help_lapses_at_the_start_of_the_assisters_next_turn() -> None:
    """R-X21 "before the start of your next turn": ana never attacks grok; when bram's next
    turn starts her help is gone, and bram may assist her again."""
    b = field()
    accepted(b, unit="bram", action="assist", ally="ana", enemy="grok")
    end_turns(b, "bram", "ana", "cy", "grok", "zed")
    assert b.pending == AwaitingAction("bram")
    lapsed = {"type": "condition_lost", "unit": "ana", "condition": "assisted",
              "reason": "not used before bram's next turn (R-X21)"}  # fmt: skip
    assert lapsed in map(to_json, b.log)
    assert conditions_of(b, "ana") == {}
    assert "assisting" not in conditions_of(b, "bram")
    accepted(b, unit="bram", action="assist", ally="ana", enemy="grok")


def test_R_X21_a_hit_roll_against_another_enemy_does_not_use_it() -> None:
    """R-X21 "against that enemy": ana's help is against zed; her Hit Roll on grok is the plain
    5 + 6, and the help stays."""
    b = field(5, 1)
    give(b, "ana", "assisted", "zed")
    give(b, "ana", "assisted_by", "bram")
    end_turns(b, "bram")
    events = accepted(b, unit="ana", action="attack", target="grok")
    assert hit_rolls(events) == [("ana", 5, 6, 11)]
    assert conditions_of(b, "ana")["assisted"] == "zed"


@pytest.mark.parametrize(
    ("decision", "reason"),
    [
        ({"ally": "zed", "enemy": "grok"},
         "zed is not on bram's side; Assist helps an ally (R-X21)"),
        ({"ally": "ana", "enemy": "cy"},
         "cy is on bram's side; Assist is against an enemy (R-X21)"),
        ({"ally": "bram", "enemy": "grok"},
         "bram cannot assist itself; Assist helps an ally (R-X21)"),
        ({"ally": "ana", "enemy": "zed"},
         "zed at (9,1) is out of bram's melee reach (R-X21, R-A4)"),
        ({"ally": "cy", "enemy": "grok"},
         "cy at (3,2) is out of bram's melee reach (R-X21, R-A4)"),
        ({"ally": "dora", "enemy": "grok"},
         "there is no creature 'dora' to name as the ally (R-X21)"),
    ],
)  # fmt: skip
def test_R_X21_refusals_name_what_is_wrong(decision: dict[str, str], reason: str) -> None:
    """R-X21: an ally (not the assister itself) and an enemy, both in its melee reach."""
    b = field()
    assert refused(b, unit="bram", action="assist", **decision) == reason


def test_R_X21_the_decision_needs_both_creatures() -> None:
    """A script line without "enemy" is not understood, and says what it needs."""
    with pytest.raises(DecisionError, match=r'needs "enemy": the id of a creature, e\.g\. "grok"'):
        parse({"unit": "bram", "action": "assist", "ally": "ana"})


def test_R_X21_once_per_ally_per_turn_and_one_assist_held_at_a_time() -> None:
    """R-X21 "Once per ally per turn": after bram's help to ana is used (as by a Hit Roll), he
    may not assist her again this turn. And an ally holds one Assist at a time: bram, holding
    one from cy (as if), cannot be assisted by ana as well."""
    b = field()
    accepted(b, unit="bram", action="assist", ally="ana", enemy="grok")
    for name in (Condition.ASSISTED, Condition.ASSISTED_BY):
        apply(b.world, ConditionLost("ana", name, "used on this Hit Roll (R-X21)"))
    assert refused(b, unit="bram", action="assist", ally="ana", enemy="grok") == (
        "bram has already assisted ana this turn (R-X21: once per ally)"
    )
    end_turns(b, "bram")
    give(b, "bram", "assisted", "grok")
    give(b, "bram", "assisted_by", "cy")
    assert refused(b, unit="ana", action="assist", ally="bram", enemy="grok") == (
        "bram already has an Assist (from cy, against grok); it holds one at a time (R-X21)"
    )
