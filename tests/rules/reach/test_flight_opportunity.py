"""Attacks of Opportunity against a flier (R-Z5 with R-R4): flying over a pit out of an enemy's
reach provokes as any move does, the engine opens the window the preview foresaw, and the
client's warning names the foe before the move is made."""

from __future__ import annotations

from sim.core.actions import Walk
from sim.core.geometry import Pos
from sim.play.engine import Battle
from sim.rules.reach.opportunity import foreseen
from sim.ui.model.risk import warning
from tests.helpers import accepted, hp
from tests.movers import begin, cell, creature

# ana, a flier, beside bob; the pit P at (2,1) is behind her. Only she could cross it.
ROWS = """
......
.Pab..
......
"""


def _battle(policy: str, dice: tuple[int, ...] = ()) -> Battle:
    return begin(
        ROWS,
        creature("ana", "blue", "a", fly=9),
        creature("bob", "red", "b", policy=policy, held=["longsword"]),
        extra='[legend]\nP = { kind = "pit" }\n',
        dice=dice,
    )


def test_R_Z5_R_R4_a_flier_leaving_reach_over_a_pit_is_foreseen_and_warned() -> None:
    b = _battle("never")
    path = (Pos(1, 1), Pos(0, 1))
    found = foreseen(b.world, "ana", Walk, path)
    assert [(p.enemy, p.cell) for p in found if p.can_react] == [("bob", Pos(2, 1))]
    said = warning(b.world, Walk("ana", path))
    assert said == "the move leaves bob's reach: bob may attack, and its roll cannot be undone"


def test_R_Z5_R_R4_the_flier_is_struck_as_it_flies_off_over_the_pit() -> None:
    """bob (policy always) strikes as ana leaves (2,1), the pit she hovers over: Hit Roll 8 + 6
    against her RES Roll 1 hits for the longsword's damage; she flies on to (0,1)."""
    b = _battle("always", dice=(8, 1))
    events = accepted(b, unit="ana", action="walk", path=[[1, 1], [0, 1]])
    answered = [e for e in events if e.get("window") == "attack_of_opportunity"]
    assert [(e["unit"], e["trigger"], e["choice"]) for e in answered] == [
        ("bob", "ana is leaving bob's reach at (2,1)", "attack")
    ]
    assert hp(b, "ana") < 15
    assert cell(b, "ana") == Pos(0, 1)
