"""R-B7 as transcripts: Free Actions and reactions can be slowed like any other action; a
slowed reaction costs one step more, paid from the half-actions the creature still has (none
between its turns), and Slow is always legal to ask: where the slowed cost cannot be paid the
refusal names the slowed cost and what is missing.

Creatures are tests/movers.BASE (AGI d8+8, FCS d8+6, RES d10+5, Walk 3 m, policy "never"
unless a test says); ana (1,1) acts first, bob (2,1) stands next to her.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sim.content.scenario import load
from sim.core.events import to_json as event_json
from sim.formats.replay import begin as begin_save
from sim.formats.replay import load_save, record, write
from sim.play.decisions import DecisionError, parse, to_json
from sim.play.engine import Accepted, AwaitingAction, AwaitingReaction, Battle, ReactionChoice
from sim.rules.combat.reactions import ReactionPrice, reaction_price
from tests.helpers import accepted, budget, refused, scenario_text
from tests.movers import begin, creature

OPEN = """
.........
.ab......
.........
"""


def duel(
    *dice: int, ana: dict[str, Any] | None = None, bob: dict[str, Any] | None = None
) -> Battle:
    return begin(
        OPEN,
        creature("ana", "blue", "a", **(ana or {})),
        creature("bob", "red", "b", **(bob or {})),
        dice=dice,
    )


def spent(events: list[dict[str, Any]], action: str) -> tuple[str, int, int]:
    paid = [e for e in events if e["type"] == "spent" and e["action"] == action]
    assert len(paid) == 1, events
    return paid[0]["tier"], paid[0]["half"], paid[0]["bonus"]


def test_R_B7_a_slowed_sprint_says_it_was_slowed_its_cost_and_what_is_missing() -> None:
    """R-B7 Decision: a Sprint (1 Action + 1 Bonus Action) slowed is a 1½ Action + 1 Bonus
    Action, 2 H + 3 B: more than a turn holds. The refusal says so in a player's words."""
    b = duel()
    assert refused(b, unit="ana", action="sprint", to=[1, 2], slow=True) == (
        "Sprint slowed is a 1½ Action + 1 Bonus Action: 2 half-actions and 3 Bonus Actions,"
        " more than a turn holds; ana has 2 half-actions and 2 Bonus Actions left:"
        " 1 Bonus Action short (R-B7)"
    )
    assert b.pending == AwaitingAction("ana") and budget(b, "ana") == (2, 2)


def test_R_B7_a_slowed_dodge_on_its_own_turn_is_paid_with_a_half_action() -> None:
    """R-B7: ana walks away from bob (½ Action); his Attack of Opportunity comes on her own
    turn, and she Dodges slowed: a ½ Action (1 H) instead of a Bonus Action, keeping both B
    for bob's turn. bob's Hit Roll 1 + 6 = 7 against her RES 2 + Dodge 3 + 8."""
    b = duel(1, 2, 3, ana={"policy": "ask"}, bob={"policy": "always"})
    accepted(b, unit="ana", action="walk", path=[[0, 1]])
    assert isinstance(b.pending, AwaitingReaction) and b.pending.kind == "defence"
    events = accepted(b, unit="ana", reaction="dodge", slow=True)
    assert spent(events, "dodge") == ("half", 1, 0)
    assert next(e for e in events if e["type"] == "attack_resolved")["defense_roll"] == 13
    assert budget(b, "ana") == (0, 2)
    assert budget(b, "bob") == (2, 1)


def test_R_B7_between_its_turns_a_creature_has_no_half_actions_to_slow_a_reaction() -> None:
    """R-B7: "between its turns it has none, so only its own-turn reactions can be slowed" — on
    bob's turn ana's slowed Dodge is refused with the slowed cost and what is missing; the
    window stays open and a plain Dodge is taken."""
    b = duel(6, 2, 3, ana={"policy": "ask"})
    accepted(b, unit="ana", action="end_turn")
    accepted(b, unit="bob", action="attack", target="ana")
    accepted(b, unit="ana", reaction="none")  # the Interrupt of his attack (R-R7): let it come
    window = b.pending
    assert isinstance(window, AwaitingReaction) and window.kind == "defence"
    assert refused(b, unit="ana", reaction="dodge", slow=True) == (
        "slowed, Dodge is a ½ Action: 1 half-action; ana has 0 half-actions and 2 Bonus Actions"
        " left (half-actions only on its own turn): 1 half-action short (R-B7)"
    )
    assert b.pending == window
    events = accepted(b, unit="ana", reaction="dodge")
    assert spent(events, "dodge") == ("bonus", 0, 1)


def test_R_B7_a_parry_that_guard_pays_slowed_costs_a_bonus_action() -> None:
    """R-B7, R-X14: a Parry that Guard pays is a Free reaction; slowed it is a Bonus Action
    (the Free row of R-B6's table), and the Guard is used as well. ana guards (½), steps
    (Bonus) away from bob, and parries his Attack of Opportunity slowed."""
    b = duel(1, 2, 2, ana={"policy": "ask", "held": ["longsword"]}, bob={"policy": "ask"})
    accepted(b, unit="ana", action="guard")
    accepted(b, unit="bob", reaction="none")  # no Interrupt of the Guard (R-R7)
    accepted(b, unit="ana", action="step", path=[[0, 1]])
    accepted(b, unit="bob", reaction="attack")  # his Attack of Opportunity (R-R4)
    assert "parry" in b.pending.options  # type: ignore[union-attr]
    events = accepted(b, unit="ana", reaction="parry", slow=True)
    assert spent(events, "parry") == ("bonus", 0, 1)
    assert any(e.get("reason") == "its free parry (R-X14)" for e in events)
    assert budget(b, "ana") == (1, 0)


def test_R_B7_declining_cannot_be_slowed_and_slow_must_be_true_or_false() -> None:
    b = duel(6, 2, ana={"policy": "ask"})
    accepted(b, unit="ana", action="end_turn")
    accepted(b, unit="bob", action="attack", target="ana")
    assert refused(b, unit="ana", reaction="none", slow=True) == (
        '"none" cannot be slowed: declining costs nothing (R-B7)'
    )
    with pytest.raises(DecisionError, match='"slow" must be true or false'):
        parse({"unit": "ana", "reaction": "dodge", "slow": "yes"})


def test_R_B7_a_slowed_answer_is_written_and_read_back_and_an_old_answer_is_unslowed() -> None:
    """Saves are replays: a slowed answer round-trips; an answer without "slow" (every save
    before R-B7) reads as a plain one."""
    slowed = ReactionChoice("ana", "dodge", slow=True)
    assert to_json(slowed) == {"unit": "ana", "reaction": "dodge", "slow": True}
    assert parse(to_json(slowed)) == slowed
    assert to_json(ReactionChoice("ana", "dodge")) == {"unit": "ana", "reaction": "dodge"}
    assert parse({"unit": "ana", "reaction": "dodge"}) == ReactionChoice("ana", "dodge", False)


def test_R_B7_R_R7_a_slowed_interrupt_costs_two_half_actions() -> None:
    """R-B7 Decision: the Interrupt's 2 Bonus Actions slowed are two ½ Actions (2 H), logged
    "half_x2"; unslowed it is "bonus_x2" (R-R7)."""
    b = duel()
    world = b.world
    assert reaction_price(world, "bob", "interrupt", "interrupt", slow=True) == ReactionPrice(
        "half_x2", 2, 0, "2 × ½ Action: 2 half-actions"
    )
    assert reaction_price(world, "bob", "interrupt", "interrupt", slow=False) == ReactionPrice(
        "bonus_x2", 0, 2, "2 × Bonus Action: 2 Bonus Actions"
    )


def test_R_B7_R_X21_a_save_with_a_slowed_reaction_and_an_assist_replays_the_same(
    tmp_path: Path,
) -> None:
    """Saves are replays: a seeded battle with an Assist (cy helps ana against bob) and a
    slowed Dodge (ana's, against bob's Attack of Opportunity on her own turn) is written and
    loaded back to the same log and world."""
    rows = "..........\n.ab.......\n.c........"
    units = (creature("ana", "blue", "a", policy="ask"), creature("bob", "red", "b", policy="ask"),
             creature("cy", "blue", "c"))  # fmt: skip
    path = tmp_path / "three.toml"
    path.write_text(scenario_text(rows, "\n".join(units)), encoding="utf-8")
    scenario = load(path)
    b = begin_save(scenario, 5)
    script = {
        "cy": [{"action": "assist", "ally": "ana", "enemy": "bob"}],
        "ana": [{"action": "step", "path": [[0, 1]]}],
    }
    answers = {"interrupt": "none", "attack_of_opportunity": "attack", "defence": "dodge"}
    slowed = []
    for _ in range(12):
        pending = b.pending
        if isinstance(pending, AwaitingReaction):
            slow = pending.kind == "defence" and b.world.turn.current == pending.unit
            slowed.append(slow)
            assert isinstance(b.submit(ReactionChoice(pending.unit, answers[pending.kind], slow)),
                              Accepted)  # fmt: skip
            continue
        assert isinstance(pending, AwaitingAction)
        todo = script.get(pending.unit, [])
        line = todo.pop(0) if todo else {"action": "end_turn"}
        assert isinstance(b.submit(parse({"unit": pending.unit, **line})), Accepted)
    assert True in slowed, "ana's slowed Dodge was taken"
    assert any(e.kind == "condition_gained" and e.condition == "assisted" for e in b.log)  # type: ignore[attr-defined]
    saved = tmp_path / "game.json"
    write(saved, record(b, scenario, 5))
    assert '"slow": true' in saved.read_text(encoding="utf-8")
    _, _, again = load_save(saved)
    assert [event_json(e) for e in again.log] == [event_json(e) for e in b.log]
    assert again.world == b.world
