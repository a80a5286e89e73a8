"""Reaction windows and what they cost (sim/rules/combat/reactions.py, R-R8) as transcripts.

Creatures are tests/movers.BASE unless a test overrides them.
"""

from __future__ import annotations

from dataclasses import replace

from sim.core.geometry import Pos
from sim.play.engine import Battle
from sim.rules.reach.opportunity import provocations
from tests.helpers import accepted, battle, budget, end_turns, scenario_text, types
from tests.movers import creature

# --- R-R8: a defence reaction needs the Bonus Actions the rules data says it costs -------------


def _with_reaction_costs(b: Battle, **costs: int) -> None:
    rules = b.world.rules
    b.world.rules = replace(rules, reactions=replace(rules.reactions, **costs))


def test_R_R8_a_defence_is_not_offered_without_the_bonus_actions_it_costs() -> None:
    """R-R8: "A creature without the Bonus Actions it needs cannot react". With a table's
    Dodge at 2 Bonus Actions ([reactions] defence_bonus), bo with 1 left is not offered one,
    and its budget never goes below 0."""
    rows = "......\n.ab...\n......"
    units = "\n".join([creature("ana", "blue", "a"), creature("bo", "red", "b", policy="always")])
    b = battle(scenario_text(rows, units), [3, 4, 8, 1, 8])
    _with_reaction_costs(b, defence_bonus=2)
    accepted(b, unit="bo", action="aim")
    end_turns(b, "bo")
    events = accepted(b, unit="ana", action="attack", target="bo")
    assert "reaction_answered" not in types(events)
    assert budget(b, "bo") == (2, 1)
    assert b.dice.remaining == 1  # type: ignore[attr-defined]


def test_R_R8_R_R4_provocations_count_the_opportunity_cost_from_the_rules_data() -> None:
    """R-R8 with R-R4: the AoO preview says whether the enemy can pay for the attack; with a
    table's Attack of Opportunity at 2 Bonus Actions, an enemy with 1 left cannot."""
    rows = "......\n.ab...\n......"
    units = "\n".join([creature("ana", "blue", "a"), creature("bo", "red", "b")])
    b = battle(scenario_text(rows, units), [3, 4])
    _with_reaction_costs(b, opportunity_bonus=2)
    accepted(b, unit="bo", action="aim")
    end_turns(b, "bo")
    found = provocations(b.world, "ana", (Pos(0, 1),))
    assert [(p.enemy, p.can_react) for p in found] == [("bo", False)]
