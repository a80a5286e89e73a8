"""Sight and range (sim/rules/reach/sight.py): how far apart two creatures are for a range,
in three dimensions when one hangs on a face (R-C7, R-M7 Decision)."""

from __future__ import annotations

from sim.core.components import Position
from sim.core.geometry import Pos
from tests.helpers import accepted, battle, end_turns, refused, scenario_text
from tests.helpers import types as kinds
from tests.movers import at, creature, legend

# ana at (1,1) below a 10 m climbable tower (1,0); bo, an archer with a 24 m shortbow, 21 m
# east of her along the row.
RANGE = "\n".join([".C" + "." * 22, ".a" + "." * 20 + "b.", "." * 24])


def test_R_M7_range_to_a_creature_hanging_on_a_face_counts_its_height() -> None:
    """R-M7 Decision: sight and range to a hanging creature are measured in three dimensions:
    8 m up, ana is 21 m + half of 8 m = 25 m from bo, beyond his 24 m shortbow; one step closer
    (20 m along the ground, 24 m in all) he shoots."""
    units = [creature("ana", "blue", "a"), creature("bo", "red", "b", held=["shortbow"])]
    extra = legend(C={"height": 10, "climbable": True})
    b = battle(scenario_text(RANGE, "\n".join(units), extra), [8, 7, 8, 1])
    accepted(b, unit="ana", action="climb", to=[1, 0])
    assert at(b) == Position(Pos(1, 1), 8.0)
    end_turns(b, "ana")
    assert refused(b, unit="bo", action="attack", target="ana") == (
        "ana is 25 m away; shortbow reaches 24 m (R-C7)"
    )
    accepted(b, unit="bo", action="step", path=[[21, 1]])
    events = accepted(b, unit="bo", action="attack", target="ana")
    assert "attack_resolved" in kinds(events)
