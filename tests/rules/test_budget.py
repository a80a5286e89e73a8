"""R-B: the action budget — the cost ladder, what each tier costs, Free, Full and Extended
Actions, refusals, Slow and Quicken."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest

from sim.core.actions import Action, Brace, Cost, Doff, Don, Evade, Refusal
from sim.core.catalog import Armour, default_catalog
from sim.core.components import ExtendedAction, Gear
from sim.core.events import ArmourDoffed, to_json
from sim.core.numbers import Tier, default_rules
from sim.play.apply import apply
from sim.play.engine import Battle
from sim.play.rulebook import RULEBOOK, Mechanic
from sim.rules.combat.armour import turns_needed
from tests.helpers import (
    accept,
    accepted,
    battle,
    budget,
    end_turns,
    give,
    refuse,
    refused,
    scenario_text,
    types,
    unit,
)
from tests.movers import creature

# --- two test-only actions: the tiers no built action has yet --------------------------------


@dataclass(frozen=True, slots=True)
class Chant(Action):
    """A 1½ Action (like a Complex Spell, R-X20), for the budget tests only."""

    name: ClassVar[str] = "chant"
    tier: ClassVar[Tier] = Tier.ONE_AND_HALF


@dataclass(frozen=True, slots=True)
class Ritual(Action):
    """A Full Action (like a Very Complex Spell, R-X20), for the budget tests only."""

    name: ClassVar[str] = "ritual"
    tier: ClassVar[Tier] = Tier.FULL


@pytest.fixture(autouse=True)
def _spells(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Chant and Ritual are known to the engine during these tests; they do nothing but cost."""
    # No candidates: the legal listing never offers them; a decision still may take them.
    nothing = Mechanic(lambda world, action: None, lambda world, action, dice: [], ())
    monkeypatch.setitem(RULEBOOK, Chant, nothing)
    monkeypatch.setitem(RULEBOOK, Ritual, nothing)
    yield


MAP = """
#######
#a...g#
#######
"""


def duel(**ana: Any) -> Battle:
    """Ana (human fighter, AGI d8+4) against grok (orc brute, AGI d6+3); ana goes first."""
    units = unit("ana", "blue", "human_fighter", "a", **ana) + "\n"
    units += unit("grok", "red", "orc_brute", "g")
    return battle(scenario_text(MAP, units), [8, 1])


def spent(events: list[dict[str, Any]]) -> tuple[str, int, int]:
    """The tier, half-actions and Bonus Actions an accepted action paid."""
    paid = [e for e in events if e["type"] == "spent"]
    assert len(paid) == 1, events
    return paid[0]["tier"], paid[0]["half"], paid[0]["bonus"]


# --- R-B1 the ladder -------------------------------------------------------------------------


def test_R_B1_the_cost_ladder_quickest_first() -> None:
    """R-B1: "Cost ladder, quickest first: Free, Bonus, ½, 1, 1½, Full, Extended."."""
    assert [tier.label for tier in Tier] == [
        "Free Action", "Bonus Action", "½ Action", "1 Action", "1½ Action", "Full Action",
        "Extended Action",
    ]  # fmt: skip
    costs = default_rules().costs
    # Up the ladder, each tier takes at least as much of a turn as the one before.
    half = [costs[t].half if costs[t].half is not None else 99 for t in Tier]
    bonus = [costs[t].bonus if costs[t].bonus is not None else 99 for t in Tier]
    assert [h + b for h, b in zip(half, bonus, strict=True)] == sorted(
        h + b for h, b in zip(half, bonus, strict=True)
    )


# --- R-B2 the budget of a turn ---------------------------------------------------------------


def test_R_B2_a_turn_starts_with_2_half_actions_and_2_bonus_actions() -> None:
    """R-B2: "At the start of its turn a creature gets 2 half-actions (H) and 2 Bonus Actions
    (B)."."""
    b = duel()
    assert to_json(b.log[-1]) == {"type": "budget_refilled", "unit": "ana", "half": 2, "bonus": 2}
    assert budget(b, "ana") == (2, 2)


def test_R_B2_bonus_actions_last_until_the_next_turn_starts_and_nothing_carries_over() -> None:
    """R-B2: "H can be spent only on its own turn; B on its own turn or as reactions until its
    next turn starts. Nothing carries over." — ana leaves 1 H and 1 B unspent; her B is still
    there on grok's turn (for reactions) but her H cannot be spent there; at her next turn she
    has 2 and 2 again, not 3 and 3."""
    b = duel()
    accepted(b, unit="ana", action="aim")
    accepted(b, unit="ana", action="evade")
    end_turns(b, "ana")
    assert budget(b, "ana") == (1, 1)  # kept through grok's turn
    assert refused(b, unit="ana", action="evade") == "it is grok's turn, not ana's (R-T3)"
    end_turns(b, "grok")
    assert budget(b, "ana") == (2, 2)


def test_R_B2_nothing_is_exchanged_half_actions_do_not_pay_for_bonus_actions() -> None:
    """R-B2: "nothing is exchanged, except through Slow" — with both B spent, a third Bonus-tier
    cost is refused though 2 H are left; slowing it to a ½ Action pays with H (R-B6)."""
    b = duel(held=[], carried=["dagger", "rock"])
    accepted(b, unit="ana", action="draw", item="dagger")  # free
    accepted(b, unit="ana", action="stow", item="dagger")  # 1 B: the second draw/stow
    accepted(b, unit="ana", action="draw", item="rock")  # 1 B: the third
    assert budget(b, "ana") == (2, 0)
    assert refused(b, unit="ana", action="aim") == (
        "ana has only 0 Bonus Actions left; Aim (Bonus Action) costs 1 Bonus Action (R-B4)"
    )
    assert spent(accepted(b, unit="ana", action="aim", slow=True)) == ("half", 1, 0)
    assert budget(b, "ana") == (1, 0)


# --- R-B3 what each tier costs ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "tier", "half", "bonus"),
    [
        (dict(action="aim"), "bonus", 0, 1),
        (dict(action="evade"), "half", 1, 0),
        (dict(action="brace"), "one", 2, 0),
        (dict(action="draw", item="healing_potion"), "free", 0, 0),
    ],
)
def test_R_B3_each_built_tier_costs_what_the_table_says(
    action: dict[str, Any], tier: str, half: int, bonus: int
) -> None:
    """R-B3: Free nothing (the first time); Bonus 1 B; ½ Action 1 H; 1 Action 2 H."""
    b = duel(held=["longsword"])
    assert spent(accepted(b, unit="ana", **action)) == (tier, half, bonus)
    assert budget(b, "ana") == (2 - half, 2 - bonus)


def test_R_B3_a_one_and_a_half_action_takes_the_whole_turn_and_every_reaction() -> None:
    """R-B3: "1½ Action: 2 H + 2 B (the whole turn, and no reactions until the next one)"."""
    b = duel()
    assert spent(accept(b, Chant("ana"))) == ("one_and_half", 2, 2)
    assert budget(b, "ana") == (0, 0)
    assert refused(b, unit="ana", action="aim") == (
        "ana has only 0 Bonus Actions left; Aim (Bonus Action) costs 1 Bonus Action (R-B4)"
    )


def test_R_B3_a_one_and_a_half_action_needs_both_half_actions() -> None:
    """R-B3 with R-B4: after a ½ Action, a 1½ Action cannot be paid."""
    b = duel()
    accepted(b, unit="ana", action="evade")
    assert refuse(b, Chant("ana")) == (
        "ana has only 1 half-action left; Chant (1½ Action) costs 2 half-actions (R-B4)"
    )


def test_R_B3_a_full_action_is_all_h_and_all_b_as_the_first_action() -> None:
    """R-B3: "Full Action: only as the first non-free action of the turn; all H and all B." —
    a Free Action before it is fine (it is not a non-free action)."""
    b = duel(held=["longsword"])
    accepted(b, unit="ana", action="draw", item="healing_potion")
    assert spent(accept(b, Ritual("ana"))) == ("full", 2, 2)
    assert budget(b, "ana") == (0, 0)


@pytest.mark.parametrize("first", ["aim", "evade"])
def test_R_B3_a_full_action_after_another_action_is_refused(first: str) -> None:
    """R-B3: a Full Action only as the first non-free action — after a Bonus Action (aim) or
    a ½ Action (evade) it is refused, though ana still has H and B left."""
    b = duel()
    accepted(b, unit="ana", action=first)
    assert refuse(b, Ritual("ana")) == (
        "a Full Action must be the first action of the turn; ana has already acted this turn (R-B3)"
    )


def test_R_B3_a_free_action_is_free_once_per_kind_each_turn_then_one_bonus_action() -> None:
    """R-B3: "Free: nothing the first time each turn for each kind (draw/stow, drop, consume);
    then 1 B." — draw and stow are one kind; drop and consume are kinds of their own; the count
    starts again next turn."""
    b = duel(held=["dagger"], carried=["rock", "healing_potion", "healing_potion"], hp=3)
    transcript = [
        (dict(action="draw", item="rock"), ("free", 0, 0)),
        (dict(action="stow", item="rock"), ("free", 0, 1)),  # draw/stow again: 1 B
        (dict(action="drop", item="dagger"), ("free", 0, 0)),  # drop: its own kind
        (dict(action="consume", item="healing_potion"), ("free", 0, 0)),
        (dict(action="consume", item="healing_potion"), ("free", 0, 1)),
    ]
    for action, cost in transcript:
        assert spent(accepted(b, unit="ana", **action)) == cost, action
    assert budget(b, "ana") == (2, 0)
    assert refused(b, unit="ana", action="draw", item="rock") == (
        "ana has only 0 Bonus Actions left; Draw (Free Action) costs 1 Bonus Action (R-B4)"
    )
    end_turns(b, "ana", "grok")
    assert spent(accepted(b, unit="ana", action="draw", item="rock")) == ("free", 0, 0)


def test_R_B3_a_free_action_paid_with_a_bonus_action_still_allows_a_full_action() -> None:
    """R-B3: a Free Action is never "the first non-free action", even when it costs 1 B."""
    b = duel(held=[], carried=["rock"])
    accepted(b, unit="ana", action="draw", item="rock")
    accepted(b, unit="ana", action="stow", item="rock")
    assert spent(accept(b, Ritual("ana"))) == ("full", 2, 1)  # all that is left


def test_R_B3_an_extended_action_is_a_full_action_on_n_turns_in_a_row() -> None:
    """R-B3: "Extended (N turns): a Full Action on N turns in a row; resolves at the end of the
    last." — ana doffs her mail (medium: 10 turns to don, 5 to doff). Each of her turns starts
    by paying the whole turn; the mail comes off when her fifth turn ends."""
    b = duel()
    begun = accepted(b, unit="ana", action="doff")
    assert begun == [
        {"type": "spent", "unit": "ana", "action": "doff", "tier": "extended", "half": 2,
         "bonus": 2, "free_kind": None, "counts_as_action": True},
        {"type": "extended_begun", "unit": "ana", "action": "doff", "item": "ana.mail",
         "turns": 5},
    ]  # fmt: skip
    for turn in range(2, 6):
        end_turns(b, "ana", "grok")
        assert [to_json(e) for e in b.log[-2:]] == [
            {"type": "spent", "unit": "ana", "action": "doff", "tier": "extended", "half": 2,
             "bonus": 2, "free_kind": None, "counts_as_action": True},
            {"type": "extended_continued", "unit": "ana", "action": "doff", "turns_done": turn,
             "turns_needed": 5},
        ]  # fmt: skip
        assert budget(b, "ana") == (0, 0)
        assert b.world.need("ana", Gear).armour == "ana.mail"
    ended = accepted(b, unit="ana", action="end_turn")
    assert types(ended)[:2] == ["turn_ended", "armour_doffed"]
    assert b.world.need("ana", Gear) == Gear(None, ("ana.healing_potion", "ana.mail"))
    end_turns(b, "grok")
    assert budget(b, "ana") == (2, 2)  # a normal turn again


def test_R_B3_an_extended_action_must_be_the_first_action() -> None:
    """R-B3: like a Full Action, an Extended Action is refused after another action."""
    b = duel()
    accepted(b, unit="ana", action="aim")
    assert refused(b, unit="ana", action="doff") == (
        "an Extended Action must be the first action of the turn; ana has already acted this turn "
        "(R-B3)"
    )


# --- R-B4 refusals ---------------------------------------------------------------------------


def test_R_B4_an_action_that_cannot_be_paid_is_refused_with_the_reason() -> None:
    """R-B4: "An action whose cost cannot be paid is refused with the reason, and nothing
    changes." — `refused` also checks the world and the log are exactly as they were."""
    b = duel()
    accepted(b, unit="ana", action="evade")
    assert refused(b, unit="ana", action="brace") == (
        "ana has only 1 half-action left; Brace (1 Action) costs 2 half-actions (R-B4)"
    )
    accepted(b, unit="ana", action="aim")
    accepted(b, unit="ana", action="guard")
    assert budget(b, "ana") == (0, 1)
    assert refused(b, unit="ana", action="fall_prone") == (
        "ana has only 0 half-actions left; Fall Prone (½ Action) costs 1 half-action (R-B4)"
    )
    assert refused(b, unit="ana", action="brace", slow=True) == (
        "Brace slowed is a 1½ Action: 2 half-actions and 2 Bonus Actions; ana has 0 half-actions"
        " and 1 Bonus Action left: 2 half-actions and 1 Bonus Action short (R-B7)"
    )
    assert budget(b, "ana") == (0, 1)


def test_R_B4_a_price_asked_again_follows_the_budget_and_the_conditions() -> None:
    """R-B4, R-K3: a policy prices the same action many times between two changes (issue
    #30 keeps the answer); each answer is still the one of the moment: Slowed makes Evade a
    1 Action (R-B6), and once the half-actions are spent it is refused with the reason."""
    b = duel()
    assert b.check(Evade("ana")) == b.check(Evade("ana")) == Cost(Tier.HALF, 1, 0)
    give(b, "ana", "slowed", 2)
    assert b.check(Evade("ana")) == Cost(Tier.ONE, 2, 0)
    accepted(b, unit="ana", action="evade")
    refusal = b.check(Evade("ana"))
    assert isinstance(refusal, Refusal) and refusal.reason == (
        "ana is Slowed, so Evade is a 1 Action: 2 half-actions; ana has 0 half-actions and 2"
        " Bonus Actions left: 2 half-actions short (R-K3)"
    )
    assert budget(b, "ana") == (0, 2)


def test_R_B4_a_payable_action_refused_for_another_reason_changes_nothing_either() -> None:
    """R-B4: nothing changes on any refusal — quickened, ana braces for 1 H; a second Brace
    could be paid but is refused (she is braced already) and her budget stays as it was."""
    b = duel()
    give(b, "ana", "quickened", 1)
    accepted(b, unit="ana", action="brace", quicken=True)
    assert budget(b, "ana") == (1, 2)
    assert refused(b, unit="ana", action="brace", quicken=True) == (
        "ana is already braced until its next turn (R-X3)"
    )
    assert budget(b, "ana") == (1, 2)


# --- R-B5 Extended Actions broken; donning and doffing times ---------------------------------


@pytest.mark.parametrize(
    ("armour", "don", "doff"),
    [("padded", 5, 3), ("hide", 10, 5), ("mail", 10, 5), ("plate", 20, 10)],
)
def test_R_B5_donning_takes_5_10_20_turns_and_doffing_half(
    armour: str, don: int, doff: int
) -> None:
    """R-B5: "Donning armour takes 5 / 10 / 20 turns (light / medium / heavy); doffing takes
    half." (half of 5 rounds up to 3)."""
    kind = default_catalog().get(armour)
    assert isinstance(kind, Armour)
    world = duel().world
    assert turns_needed(world, Don("ana", armour), kind) == don
    assert turns_needed(world, Doff("ana"), kind) == doff


@pytest.mark.parametrize(("armour", "turns"), [("padded", 3), ("plate", 10)])
def test_R_B5_doffing_worn_armour_begins_with_its_turns(armour: str, turns: int) -> None:
    """R-B5: the Extended Action begun in play carries the armour's turns."""
    b = duel(armour=armour)
    assert accepted(b, unit="ana", action="doff")[-1]["turns"] == turns


def test_R_B5_donning_needs_the_armour_carried_and_none_worn() -> None:
    """R-B5: donning is refused while armour is worn, and for what is not carried armour."""
    b = duel(carried=["padded", "rock"])
    assert refused(b, unit="ana", action="don", item="padded") == (
        "ana already wears ana.mail; doff it first (R-B5)"
    )
    b = duel(carried=["rock"])
    apply(b.world, ArmourDoffed("ana", "ana.mail"))  # setup: she took it off before the fight
    assert refused(b, unit="ana", action="don", item="rock") == "ana.rock is not armour (R-B5)"
    assert (
        refused(b, unit="ana", action="don", item="plate") == "ana carries no 'plate' to don (R-B5)"
    )
    assert accepted(b, unit="ana", action="don", item="mail")[-1] == {
        "type": "extended_begun", "unit": "ana", "action": "don", "item": "ana.mail", "turns": 10,
    }  # fmt: skip


def test_R_B5_an_extended_action_is_broken_when_its_actor_becomes_incapacitated() -> None:
    """R-B5: "broken, and its progress lost, when its actor becomes Incapacitated" — ana (2 HP,
    bleeding 2) is doffing; at her next turn she bleeds to 0 and the doffing is lost."""
    units = "\n".join(
        [
            unit("ana", "blue", "human_fighter", "a", hp=2),
            unit("bram", "blue", "human_archer", "b"),
            unit("grok", "red", "orc_brute", "g"),
        ]
    )
    b = battle(scenario_text("#a.b.g#", units), [8, 1, 1])
    accepted(b, unit="ana", action="doff")
    give(b, "ana", "bleeding", 2)
    end_turns(b, "ana", "bram", "grok")
    start = max(i for i, e in enumerate(b.log) if e.kind == "round_started")
    assert types(b.log[start:])[:7] == [
        "round_started", "turn_started", "budget_refilled", "damaged", "condition_gained",
        "extended_broken", "turn_ended",
    ]  # fmt: skip
    broken = next(to_json(e) for e in b.log[start:] if e.kind == "extended_broken")
    assert broken == {
        "type": "extended_broken",
        "unit": "ana",
        "action": "doff",
        "reason": "ana is incapacitated",
    }
    assert b.world.need("ana", Gear).armour == "ana.mail"


@pytest.mark.parametrize(("condition", "value"), [("prone", 1), ("grappled", "grok")])
def test_R_B5_an_extended_action_is_broken_when_its_actor_is_knocked_prone_or_grappled(
    condition: str, value: int | str
) -> None:
    """R-B5: "... Grappled or Prone" — ana is doffing; on grok's turn she is knocked prone (or
    grabbed) by some other rule: the doffing is lost with the armour still on, and her next turn
    is a normal one with a full budget."""
    b = duel()
    accepted(b, unit="ana", action="doff")
    end_turns(b, "ana")
    give(b, "ana", condition, value)  # as if grok had shoved or grappled her
    events = accepted(b, unit="grok", action="aim")
    assert {
        "type": "extended_broken", "unit": "ana", "action": "doff",
        "reason": f"ana is {condition}",
    } in events  # fmt: skip
    end_turns(b, "grok")
    assert types(b.log[-2:]) == ["turn_started", "budget_refilled"]  # nothing continues
    assert not b.world.has("ana", ExtendedAction)
    assert budget(b, "ana") == (2, 2)
    assert b.world.need("ana", Gear).armour == "ana.mail"


def test_R_B5_free_actions_do_not_break_an_extended_action() -> None:
    """R-B5: only a non-free action breaks it — ana, doffing, draws and drinks (Free Actions)
    and keeps doffing."""
    b = duel(held=[], carried=["rock", "healing_potion"], hp=10)
    accepted(b, unit="ana", action="doff")
    end_turns(b, "ana", "grok")
    assert types(accepted(b, unit="ana", action="draw", item="rock")) == ["spent", "item_drawn"]
    accepted(b, unit="ana", action="consume", item="healing_potion")
    end_turns(b, "ana", "grok")
    assert to_json(b.log[-1])["turns_done"] == 3


def test_R_B5_another_non_free_action_breaks_an_extended_action() -> None:
    """R-B5: "... or takes any other non-free action." — ana, doffing, gives up on her next
    turn to evade instead: the doffing is lost and the evade is paid from her turn's budget."""
    b = duel()
    accepted(b, unit="ana", action="doff")
    end_turns(b, "ana", "grok")
    events = accepted(b, unit="ana", action="evade")
    assert types(events)[:3] == ["extended_broken", "budget_refilled", "spent"]
    assert budget(b, "ana") == (1, 2)


# --- R-B6 Slow and Quicken -------------------------------------------------------------------

# The text's table, row by row: standard -> (slowed, quickened), with what each costs.
TABLE: list[tuple[Action, str, tuple[str, int, int], tuple[str, int, int]]] = [
    (Brace("ana"), "1 Action", ("one_and_half", 2, 2), ("half", 1, 0)),
    (Evade("ana"), "½ Action", ("one", 2, 0), ("bonus", 0, 1)),
    (Chant("ana"), "1½ Action", ("full", 2, 2), ("one", 2, 0)),
    (Ritual("ana"), "Full Action", ("full", 2, 2), ("half", 1, 0)),
]


@pytest.mark.parametrize(
    ("action", "standard", "slowed", "quickened"), TABLE, ids=[row[1] for row in TABLE]
)
def test_R_B6_the_slow_and_quicken_table_row_by_row(
    action: Action, standard: str, slowed: tuple[str, int, int], quickened: tuple[str, int, int]
) -> None:
    """R-B6: "Slow and Quicken follow the text's table exactly, including its last row (a
    Quickened Full Action becomes a ½ Action)." — slowed and quickened, each row is paid as
    the tier the table names. Ana drinks a quickening draught (a Free Action) to Quicken."""
    assert action.tier.label == standard
    b = duel(carried=["quickening_draught"])
    assert spent(accept(b, _flagged(action, slow=True))) == slowed

    b = duel(carried=["quickening_draught"])
    accepted(b, unit="ana", action="consume", item="quickening_draught")
    assert spent(accept(b, _flagged(action, quicken=True))) == quickened


def test_R_B6_the_bonus_action_row_slowed_is_a_half_action_and_quickened_stays_bonus() -> None:
    """R-B6, the table's first row: a Bonus Action slowed is a ½ Action (ana aims, paying 1 H)
    and quickened stays a Bonus Action."""
    b = duel()
    assert spent(accepted(b, unit="ana", action="aim", slow=True)) == ("half", 1, 0)
    assert budget(b, "ana") == (1, 2)
    b = duel(carried=["quickening_draught"])
    accepted(b, unit="ana", action="consume", item="quickening_draught")
    assert spent(accepted(b, unit="ana", action="aim", quicken=True)) == ("bonus", 0, 1)


def _flagged(action: Action, *, slow: bool = False, quicken: bool = False) -> Action:
    return type(action)(action.actor, slow=slow, quicken=quicken)


def test_R_B6_a_quickened_full_action_need_not_be_the_first_action() -> None:
    """R-B6 last row: quickened, a Full Action is a ½ Action, so it may follow another action."""
    b = duel(carried=["quickening_draught"])
    accepted(b, unit="ana", action="consume", item="quickening_draught")
    accepted(b, unit="ana", action="evade")
    assert spent(accept(b, Ritual("ana", quicken=True))) == ("half", 1, 0)
    assert budget(b, "ana") == (0, 2)


def test_R_B6_slow_is_always_allowed() -> None:
    """R-B6: "Slow is always allowed (one step slower)." — with no source of Quickening, ana
    slows a Bonus Action, a ½ Action and a Full Action (which stays Full); a slowed Extended
    Action takes one more turn (the rules data's Decision)."""
    b = duel()
    assert spent(accepted(b, unit="ana", action="aim", slow=True)) == ("half", 1, 0)
    b = duel()
    assert spent(accepted(b, unit="ana", action="evade", slow=True)) == ("one", 2, 0)
    b = duel()
    assert spent(accept(b, Ritual("ana", slow=True))) == ("full", 2, 2)
    b = duel()
    assert accepted(b, unit="ana", action="doff", slow=True)[-1]["turns"] == 5 + 1


def test_R_B6_quicken_needs_a_source() -> None:
    """R-B6: "Quicken needs a source (an ability, a potion, a scenario effect) that grants it."
    — without one, ana's quickened Brace is refused; after a quickening draught it is a ½
    Action; the draught lasts this turn, and next turn Quicken is refused again."""
    b = duel(carried=["quickening_draught"])
    assert refused(b, unit="ana", action="brace", quicken=True) == (
        "ana has nothing that Quickens actions (R-B6: Quicken needs a source)"
    )
    assert accepted(b, unit="ana", action="consume", item="quickening_draught")[-1] == {
        "type": "condition_gained", "unit": "ana", "condition": "quickened", "value": 1,
    }  # fmt: skip
    assert spent(accepted(b, unit="ana", action="brace", quicken=True)) == ("half", 1, 0)
    ended = accepted(b, unit="ana", action="end_turn")
    assert ended[1] == {
        "type": "condition_lost", "unit": "ana", "condition": "quickened",
        "reason": "its duration ran out",
    }  # fmt: skip
    end_turns(b, "grok")
    assert refused(b, unit="ana", action="evade", quicken=True) == (
        "ana has nothing that Quickens actions (R-B6: Quicken needs a source)"
    )


def test_R_B6_a_scenario_effect_can_be_the_source() -> None:
    """R-B6: any source that grants Quickened will do — here a condition given by the
    scenario's setup."""
    b = duel()
    give(b, "ana", "quickened", 2)
    assert spent(accepted(b, unit="ana", action="evade", quicken=True)) == ("bonus", 0, 1)


def test_R_B6_slowed_and_quickened_at_once_is_refused() -> None:
    """R-B6: one step slower or one step faster, never both."""
    b = duel()
    give(b, "ana", "quickened", 1)
    assert refused(b, unit="ana", action="brace", slow=True, quicken=True) == (
        "an action cannot be both Slowed and Quickened (R-B6)"
    )


def test_R_B6_an_extended_action_cannot_be_quickened() -> None:
    """R-B6: the text's table has no faster tier for an Extended Action."""
    b = duel()
    give(b, "ana", "quickened", 1)
    assert refused(b, unit="ana", action="doff", quicken=True) == (
        "an Extended Action cannot be Quickened (R-B6)"
    )


def test_R_B6_ending_the_turn_is_not_an_action_to_slow_or_quicken() -> None:
    """R-B6: end_turn has no tier to shift."""
    b = duel()
    assert refused(b, unit="ana", action="end_turn", slow=True) == (
        "ending the turn cannot be Slowed or Quickened (R-B6)"
    )


# --- R-B7 slowing Free Actions ---------------------------------------------------------------


def test_R_B7_a_slowed_free_action_is_a_bonus_action() -> None:
    """R-B7: "Free Actions and reactions can be slowed like any other action." — a slowed draw
    costs 1 B even the first time; being a Bonus Action, it is an action, so a Full Action can
    no longer follow it. Quickened, a Free Action stays Free."""
    b = duel(held=[], carried=["rock", "dagger", "quickening_draught"])
    assert spent(accepted(b, unit="ana", action="draw", item="rock", slow=True)) == ("bonus", 0, 1)
    assert budget(b, "ana") == (2, 1)
    assert refuse(b, Ritual("ana")) == (
        "a Full Action must be the first action of the turn; ana has already acted this turn (R-B3)"
    )
    accepted(b, unit="ana", action="consume", item="quickening_draught")
    assert spent(accepted(b, unit="ana", action="draw", item="dagger", quicken=True)) == (
        "free", 0, 0,
    )  # fmt: skip


def test_R_B7_the_slow_table_puts_free_below_bonus() -> None:
    """R-B7 in the rules data: slowed, Free becomes Bonus; quickened, it stays Free."""
    rules = default_rules()
    assert rules.slow[Tier.FREE] is Tier.BONUS
    assert rules.quicken[Tier.FREE] is Tier.FREE


# --- R-B3: Sprint's extra Bonus Action is a number of the rules data ---------------------------


def test_R_B3_sprint_extra_bonus_comes_from_the_rules_data() -> None:
    """R-B3 "Sprint costs exactly what the text says: 1 Action + 1 Bonus Action", and every
    number lives in rules.toml ([sprint] extra_bonus): a table that changes it changes Sprint."""
    rows = "..........\n.a........\n.........."
    b = battle(scenario_text(rows, creature("ana", "blue", "a")), [4, 8])
    rules = b.world.rules
    b.world.rules = replace(rules, sprint=replace(rules.sprint, extra_bonus=0))
    events = accepted(b, unit="ana", action="sprint", to=[5, 1])
    assert (events[0]["half"], events[0]["bonus"]) == (2, 0)
    assert budget(b, "ana") == (0, 2)
