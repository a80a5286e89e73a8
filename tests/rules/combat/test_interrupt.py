"""Interrupt (sim/rules/combat/interrupt.py, R-R7) as transcripts with loaded dice.

Creatures are tests/movers.BASE unless a test overrides them.
"""

from __future__ import annotations

from tests.helpers import accepted, battle, scenario_text
from tests.movers import creature


def test_R_R7_an_enemy_on_a_ledge_above_its_reach_cannot_interrupt() -> None:
    """R-R7 with R-A4: the Interrupt is a melee Hit Roll, so the adjacent enemy must reach:
    a foe 3 m up a ledge (higher than it is tall) cannot interrupt the shot."""
    text = scenario_text(
        "....\n.ab.\n..c.",
        "\n".join([
            creature("ana", "blue", "a", held=["shortbow"]),
            creature("bob", "red", "b", policy="always"),
            creature("cy", "red", "c"),
        ]),
        extra='[legend]\n"b" = { kind = "open", height = 3 }\n',
    )  # fmt: skip
    b = battle(text, [8, 7, 6, 8, 1])
    events = accepted(b, unit="ana", action="attack", target="cy")
    # cy, the adjacent target on the ground, is offered an Interrupt (R-R7); bob is not.
    assert [
        e["unit"] for e in events if e["type"] == "reaction_answered" and e["window"] == "interrupt"
    ] == ["cy"]
