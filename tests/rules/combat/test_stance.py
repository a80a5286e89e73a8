"""Evade (R-X9, sim/rules/combat/stance.py) as transcripts with loaded dice; Aim, Brace and
Guard are shown with the rolls they change (tests/rules/combat/test_attacks.py, test_grapple.py,
test_aid.py).

Creatures are tests/movers.BASE unless a test overrides them.
"""

from __future__ import annotations

from tests.helpers import accepted, battle, conditions_of, end_turns, scenario_text
from tests.movers import creature

# --- R-X9: Evade doubles the AGI Bonus of the first AGI Save, a spell's too --------------------


def test_R_X9_evade_doubles_the_agi_bonus_of_an_agi_save_against_a_spell() -> None:
    """R-X9: "the creature's AGI Bonus counts double on its first AGI Save or Dodge until its
    next turn". bo evades; ana's frost_grip (AGI Save against her FCS Check, 8 + 6 = 14) is
    saved by bo's 1 + 8 + 8 = 17, and Evade is used up."""
    rows = "......\n.a..b.\n......"
    units = "\n".join(
        [creature("ana", "blue", "a", abilities=["frost_grip"]), creature("bo", "red", "b")]
    )
    b = battle(scenario_text(rows, units), [3, 4, 8, 1])
    accepted(b, unit="bo", action="evade")
    end_turns(b, "bo")
    events = accepted(b, unit="ana", action="cast", spell="frost_grip", target="bo")
    save = [e for e in events if e["type"] == "rolled" and e["unit"] == "bo"]
    assert [(s["result"], s["total"]) for s in save] == [(1, 17)]
    resolved = [e for e in events if e["type"] == "check_resolved"]
    assert resolved[0]["success"] is True
    assert "evading" not in conditions_of(b, "bo")
    assert "slowed" not in conditions_of(b, "bo")
