"""Diving (sim/rules/movement/diving.py): a Swim submerged in water at least as deep as the
swimmer is tall, out of sight and reach of those outside the water, and surfacing (R-M8
Decision)."""

from __future__ import annotations

from sim.core.actions import Swim
from sim.core.geometry import Pos
from sim.play.engine import Battle
from sim.rules.reach.reachmap import reach_map
from tests.helpers import (
    accepted,
    battle,
    conditions_of,
    end_turns,
    give,
    refused,
    scenario_text,
)
from tests.helpers import types as kinds
from tests.movers import POOL, POOL_LEGEND, creature, legend, solo


# ana swims at (1,1) in a 2 m deep pool (tests/movers.POOL); the ford at (4,1) is 1 m deep. bo, an
# enemy with a dagger, stands on the bank at (1,0); cy, an enemy, swims in the same pool at (3,2).
def pool() -> Battle:
    units = [
        creature("ana", "blue", "a"),
        creature("bo", "red", "b", policy="always", held=["dagger"]),
        creature("cy", "red", "c", policy="always"),
    ]
    b = battle(scenario_text(POOL, "\n".join(units), POOL_LEGEND), [8, 7, 6, *[5] * 12])
    give(b, "ana", "swimming")
    give(b, "cy", "swimming")
    return b


def test_R_M8_a_diver_swims_away_under_the_surface_without_provoking_from_the_bank() -> None:
    """R-M8 Decision: ana dives (Swim with "submerged"): she leaves bo's reach under water, so
    bo, who is not in that water, makes no Attack of Opportunity."""
    b = pool()
    events = accepted(b, unit="ana", action="swim", path=[[2, 1], [3, 1]], submerged=True)
    assert kinds(events) == ["spent", "condition_gained", "moved", "moved"]
    assert events[1]["condition"] == "submerged"
    assert conditions_of(b, "ana") == {"swimming": 1, "submerged": 1}


def test_R_M8_a_diver_is_out_of_sight_of_those_outside_the_water_but_not_of_those_in_it() -> None:
    """R-M8 Decision: bo on the bank can neither strike nor throw at the submerged ana, nor she
    at him; cy, swimming in the same water, can attack her."""
    b = pool()
    accepted(b, unit="ana", action="swim", path=[[2, 1]], submerged=True)
    end_turns(b, "ana")
    assert refused(b, unit="bo", action="attack", target="ana") == (
        "bo cannot see ana: it is under the water (R-M8)"
    )
    assert refused(b, unit="bo", action="throw", target="ana", item="dagger") == (
        "bo cannot see ana: it is under the water (R-M8)"
    )
    end_turns(b, "bo")
    events = accepted(b, unit="cy", action="attack", target="ana")
    assert "attack_resolved" in kinds(events)
    end_turns(b, "cy")
    assert refused(b, unit="ana", action="attack", target="bo") == (
        "ana is under the water and cannot see bo out of it; swim up to the surface first (R-M8)"
    )


def test_R_M8_a_dive_needs_water_as_deep_as_the_swimmer_is_tall() -> None:
    """R-M8 Decision: the 1 m ford is shallower than ana's 1.8 m: no diving through it, by a
    path or by a destination, and both say why (the destination said only "no path a Swim can
    take gets there")."""
    b = pool()
    shallow = (
        "(4,1): water 1 m deep is shallower than ana is tall (1.8 m); a swimmer dives only in "
        "water at least that deep (R-M8)"
    )
    assert refused(b, unit="ana", action="swim", path=[[2, 1], [3, 1], [4, 1]], submerged=True) == (
        shallow
    )
    assert refused(b, unit="ana", action="swim", to=[4, 1], submerged=True) == shallow
    offered = reach_map(b.world, "ana", only=(Swim,), submerged=True)
    assert Pos(3, 1) in offered and Pos(4, 1) not in offered
    accepted(b, unit="ana", action="swim", to=[4, 1])


def test_R_M8_deep_water_beyond_a_ford_is_out_of_a_dives_reach_and_the_refusal_says_why() -> None:
    """R-M8 Decision: (3,0) is as deep as the pool ana dives in, but the only way there is the
    1 m ford at (2,0), which a dive cannot pass; the refusal of the destination says so."""
    b = solo(".aFW", legend(a={"water": 2.0}, F={"water": 1.0}, W={"water": 2.0}))
    assert refused(b, unit="ana", action="swim", to=[3, 0], submerged=True) == (
        "(3,0): no path a dive can take gets there this action (it stays in water at least as "
        "deep as ana is tall) (R-M8)"
    )
    accepted(b, unit="ana", action="swim", to=[3, 0])


def test_R_M8_a_swim_without_the_choice_surfaces_and_then_provokes() -> None:
    """R-M8 Decision: the next Swim without "submerged" surfaces the diver first, so leaving
    bo's reach at the surface provokes him as ever (R-R4)."""
    b = pool()
    accepted(b, unit="ana", action="swim", path=[[2, 1]], submerged=True)
    end_turns(b, "ana", "bo", "cy")
    events = accepted(b, unit="ana", action="swim", path=[[3, 1]])
    assert kinds(events)[:2] == ["spent", "condition_lost"]
    assert events[1]["condition"] == "submerged"
    assert "attack_resolved" in kinds(events)
    assert conditions_of(b, "ana") == {"swimming": 1}


def test_R_M8_stepping_out_surfaces_the_diver() -> None:
    """R-M8 Decision: a Step out of the water surfaces her too."""
    b = battle(scenario_text(".W\n.a", creature("ana", "blue", "a"), POOL_LEGEND), [1])
    give(b, "ana", "swimming")
    accepted(b, unit="ana", action="swim", path=[[1, 0]], submerged=True)
    end_turns(b, "ana")
    events = accepted(b, unit="ana", action="step", path=[[0, 0]])
    assert [e.get("condition") for e in events if e["type"] == "condition_lost"] == [
        "submerged",
        "swimming",
    ]
    assert conditions_of(b, "ana") == {}
