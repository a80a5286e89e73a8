"""Skip / Prepare as transcripts (R-X16, R-P1, R-P2, R-P3): a plan must be the first action and
ends the turn's acting; a trigger the engine can check sets it off on another creature's turn;
the preparer then takes the rest of its turn after that one, its prepared action first, and
keeps that place in the initiative order; a plan that waits a full round is dropped.

Creatures are tests/movers.BASE (Walk 3 m, Run 9 m, FCS d8+6, RES d10+5, policy "never").
"""

from __future__ import annotations

from typing import Any

from sim.play.engine import AwaitingAction, Battle
from tests.helpers import accepted, battle, budget, give, refused, scenario_text, types
from tests.movers import creature

FIELD = """
..........
.a......b.
........c.
"""


def begin(*dice: int) -> Battle:
    """ana (1,1) acts first, then bob (8,1), then cy (8,2)."""
    units = (creature("ana", "blue", "a"), creature("bob", "red", "b"),
             creature("cy", "red", "c"))  # fmt: skip
    return battle(scenario_text(FIELD, "\n".join(units)), [8, 7, 6, *dice])


def plan(b: Battle, **fields: Any) -> list[dict[str, Any]]:
    return accepted(b, unit="ana", action="prepare", **fields)


ATTACK_BOB = {"action": "attack", "target": "bob"}


def test_R_X16_R_P1_prepare_names_a_trigger_and_an_action_and_ends_the_turns_acting() -> None:
    """R-X16, R-P1: "the creature names a trigger and the action it prepares, and does nothing
    else this turn" — ana's turn passes to bob at once; her budget is kept for later."""
    b = begin()
    events = plan(b, trigger="enemy_within", metres=1.5, then=ATTACK_BOB)
    assert types(events)[:3] == ["spent", "plan_made", "turn_ended"]
    made = events[1]
    assert (made["trigger"], made["metres"], made["round"]) == ("enemy_within", 1.5, 1)
    assert made["then"]["action"] == "attack" and made["then"]["target"] == "bob"
    assert b.pending == AwaitingAction("bob")
    assert budget(b, "ana") == (2, 2)


def test_R_P1_prepare_must_be_the_first_action_of_the_turn() -> None:
    """R-P1: "Must be the first action of the turn" — after an Aim it is refused."""
    b = begin()
    accepted(b, unit="ana", action="aim")
    reason = refused(b, unit="ana", action="prepare", trigger="ends_turn", watch="bob",
                     then=ATTACK_BOB)  # fmt: skip
    assert "first action of the turn (R-P1)" in reason


def test_R_P2_only_triggers_the_engine_can_check() -> None:
    """R-P2: an enemy within N m, a marked area, a named creature starting an action or
    ending its turn; anything else, or one missing what it needs, is refused."""
    b = begin()
    assert "must be one of enemy_within, enters_area, starts_action, ends_turn" in refused(
        b, unit="ana", action="prepare", trigger="sunrise", then=ATTACK_BOB
    )
    assert '"enemy_within" needs "metres"' in refused(
        b, unit="ana", action="prepare", trigger="enemy_within", then=ATTACK_BOB
    )
    assert '"enters_area" needs "cells"' in refused(
        b, unit="ana", action="prepare", trigger="enters_area", then=ATTACK_BOB
    )
    assert '"ends_turn" needs "watch": another creature' in refused(
        b, unit="ana", action="prepare", trigger="ends_turn", watch="ana", then=ATTACK_BOB
    )


def test_R_P3_an_enemy_coming_within_reach_sets_off_an_attack_after_its_turn() -> None:
    """R-P3: bob runs up to ana; after bob's turn ends, ana takes the rest of her turn with
    the prepared attack first, and keeps her place after bob: the order is bob, ana, cy."""
    b = begin(5, 1)  # ana's Hit Roll d8 = 5 (+6 = 11) against bob's RES d10 = 1
    plan(b, trigger="enemy_within", metres=1.5, then=ATTACK_BOB)
    moved = accepted(b, unit="bob", action="run", path=[[x, 1] for x in range(7, 1, -1)])
    fired = [e for e in moved if e["type"] == "plan_triggered"]
    assert fired == [{"type": "plan_triggered", "unit": "ana", "by": "bob",
                      "reason": "bob came within 1.5 m"}]  # fmt: skip
    events = accepted(b, unit="bob", action="end_turn")
    assert types(events)[:4] == ["turn_ended", "initiative_reordered", "turn_resumed", "spent"]
    assert events[1]["order"] == ["bob", "ana", "cy"]
    hit = next(e for e in events if e["type"] == "attack_resolved")
    assert (hit["attacker"], hit["target"], hit["hit_roll"], hit["hit"]) == ("ana", "bob", 11, True)
    # The rest of her turn: the attack took one half-action; she may still act, then cy goes.
    assert b.pending == AwaitingAction("ana") and budget(b, "ana") == (1, 2)
    events = accepted(b, unit="ana", action="end_turn")
    assert [e["unit"] for e in events if e["type"] == "turn_started"] == ["cy"]
    accepted(b, unit="cy", action="end_turn")
    # Round 2 in the new order: bob, then ana, then cy.
    assert b.pending == AwaitingAction("bob")
    events = accepted(b, unit="bob", action="end_turn")
    assert [e["unit"] for e in events if e["type"] == "turn_started"] == ["ana"]


def test_R_P3_a_named_creature_ending_its_turn_sets_it_off() -> None:
    """R-P2, R-P3: "a named creature ends its turn" — cy's turn end; ana acts after cy."""
    b = begin()
    plan(b, trigger="ends_turn", watch="cy", then={"action": "walk", "to": [3, 1]})
    accepted(b, unit="bob", action="end_turn")
    events = accepted(b, unit="cy", action="end_turn")
    assert types(events)[:5] == [
        "turn_ended", "plan_triggered", "initiative_reordered", "turn_resumed", "spent"
    ]  # fmt: skip
    assert events[2]["order"] == ["bob", "cy", "ana"]
    assert any(e["type"] == "moved" and e["end"] == [3, 1] for e in events)


def test_R_P3_a_creature_starting_an_action_or_entering_an_area_sets_it_off() -> None:
    """R-P2: "a named creature starts an action" and "any creature enters a marked area"."""
    b = begin()
    plan(b, trigger="starts_action", watch="bob", then={"action": "aim"})
    events = accepted(b, unit="bob", action="brace")
    assert [e["reason"] for e in events if e["type"] == "plan_triggered"] == ["bob started brace"]
    b = begin()
    plan(b, trigger="enters_area", cells=[[6, 1]], then={"action": "aim"})
    events = accepted(b, unit="bob", action="walk", path=[[7, 1], [6, 1]])
    assert [e["reason"] for e in events if e["type"] == "plan_triggered"] == [
        "bob entered the marked area at (6,1)"
    ]


def test_R_P3_a_plan_whose_trigger_does_not_come_in_a_round_is_dropped() -> None:
    """R-P3: "If a full round passes without the trigger, the preparer may give up the plan
    and act normally on its turn" — at ana's next turn the plan is dropped; she acts."""
    b = begin()
    plan(b, trigger="enemy_within", metres=1.5, then=ATTACK_BOB)
    accepted(b, unit="bob", action="end_turn")
    events = accepted(b, unit="cy", action="end_turn")
    assert {"type": "plan_dropped", "unit": "ana",
            "reason": "a full round passed without its trigger (R-P3)"} in events  # fmt: skip
    assert b.pending == AwaitingAction("ana") and budget(b, "ana") == (2, 2)
    accepted(b, unit="ana", action="aim")


def test_R_P3_a_prepared_action_that_no_longer_works_is_refused_and_the_turn_goes_on() -> None:
    """The prepared attack on bob: bob is out of reach when cy's turn ends, so the attack is
    refused with its reason, and ana takes the rest of her turn as she likes."""
    b = begin()
    plan(b, trigger="ends_turn", watch="cy", then=ATTACK_BOB)
    accepted(b, unit="bob", action="end_turn")
    events = accepted(b, unit="cy", action="end_turn")
    refusal = next(e for e in events if e["type"] == "plan_refused")
    assert "out of ana's reach (R-A4)" in refusal["reason"]
    assert b.pending == AwaitingAction("ana") and budget(b, "ana") == (2, 2)


def test_R_P3_preparing_never_costs_a_turn_when_the_trigger_comes_in_the_next_round() -> None:
    """R-P3 Decision: with initiative [bob, ana], ana prepares in round 1 and bob sets the plan
    off in round 2. After bob's turn ana takes the rest of her round-1 turn (the prepared
    attack first: 5 + 6 = 11 against bob's 1), and then, at her place after bob, her round-2
    turn as usual, with a fresh budget; round 3 begins with bob."""
    units = (creature("ana", "blue", "a"), creature("bob", "red", "b"))
    b = battle(scenario_text(FIELD.replace("c", "."), "\n".join(units)), [7, 8, 5, 1])
    assert b.world.turn.order == ("bob", "ana")
    accepted(b, unit="bob", action="end_turn")
    plan(b, trigger="enemy_within", metres=1.5, then=ATTACK_BOB)
    assert b.pending == AwaitingAction("bob") and b.world.turn.round == 2
    accepted(b, unit="bob", action="run", path=[[x, 1] for x in range(7, 1, -1)])
    events = accepted(b, unit="bob", action="end_turn")
    assert types(events)[:4] == ["turn_ended", "initiative_reordered", "turn_resumed", "spent"]
    assert events[2] == {"type": "turn_resumed", "unit": "ana", "round": 2}
    hit = next(e for e in events if e["type"] == "attack_resolved")
    assert (hit["attacker"], hit["hit_roll"], hit["hit"]) == ("ana", 11, True)
    assert b.pending == AwaitingAction("ana") and budget(b, "ana") == (1, 2)
    # The rest of the round-1 turn ends; ana's round-2 turn starts at once, as usual.
    events = accepted(b, unit="ana", action="end_turn")
    started = types(events).index("turn_started")
    assert "round_started" not in types(events)
    assert events[started] == {"type": "turn_started", "unit": "ana", "round": 2}
    assert events[started + 1]["type"] == "budget_refilled"
    assert b.pending == AwaitingAction("ana") and budget(b, "ana") == (2, 2)
    accepted(b, unit="ana", action="aim")
    events = accepted(b, unit="ana", action="end_turn")
    assert [e for e in events if e["type"] in ("round_started", "turn_started")] == [
        {"type": "round_started", "round": 3},
        {"type": "turn_started", "unit": "bob", "round": 3},
    ]


def test_R_P3_two_preparers_set_off_by_one_turn_resume_then_take_their_turns_in_order() -> None:
    """R-P3 Decision: bob, cy and ana in that order; cy and ana both prepare in round 1 and
    bob's round-2 Brace sets both off. Both act right after bob's turn (each moved behind the
    one before: bob, ana, cy), and only then do they take their round-2 turns, in that order."""
    units = (creature("ana", "blue", "a"), creature("bob", "red", "b"),
             creature("cy", "blue", "c"))  # fmt: skip
    b = battle(scenario_text(FIELD, "\n".join(units)), [6, 8, 7])
    assert b.world.turn.order == ("bob", "cy", "ana")
    accepted(b, unit="bob", action="end_turn")
    watch_bob = {"trigger": "starts_action", "watch": "bob", "then": {"action": "aim"}}
    accepted(b, unit="cy", action="prepare", **watch_bob)
    accepted(b, unit="ana", action="prepare", **watch_bob)
    accepted(b, unit="bob", action="brace")
    events = accepted(b, unit="bob", action="end_turn")
    assert [e["unit"] for e in events if e["type"] == "turn_resumed"] == ["ana"]
    events = accepted(b, unit="ana", action="end_turn")
    assert [e["unit"] for e in events if e["type"] == "turn_resumed"] == ["cy"]
    assert b.world.turn.order == ("bob", "ana", "cy")
    events = accepted(b, unit="cy", action="end_turn")
    assert [(e["unit"], e["round"]) for e in events if e["type"] == "turn_started"] == [("ana", 2)]
    events = accepted(b, unit="ana", action="end_turn")
    assert [(e["unit"], e["round"]) for e in events if e["type"] == "turn_started"] == [("cy", 2)]
    events = accepted(b, unit="cy", action="end_turn")
    assert [(e["unit"], e["round"]) for e in events if e["type"] == "turn_started"] == [("bob", 3)]


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
