"""The evaluators of the contests that move or hold a foe: Shove, Trip, Grapple."""

from __future__ import annotations

from sim.ai.choice import percent
from sim.ai.context import Context
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.condition import Condition
from sim.core.creature import has, hp
from sim.core.world import World
from sim.play.apply import apply
from sim.play.legal import Legal
from sim.play.odds import (
    grapple_chance,
    shove_odds,
    trip_odds,
)
from sim.rules.combat.casting import known
from sim.rules.combat.reactions import (
    Ask,
)
from sim.rules.combat.shove import push


def shove(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Shove)
    odds = shove_odds(c.world, c.unit, d.target)
    landing = push_worth(c.world, c.unit, d.target)
    already = has(c.world, d.target, Condition.PRONE)
    value = odds.win * landing + (0.0 if already else odds.prone * c.w.shove_prone)
    return value - c.w.shove_cost, f"shoves {d.target}: {percent(odds.win)} to win the contest"


def push_worth(world: World, shover: str, target: str) -> float:
    """What the push itself is worth: a fall or deep water takes a foe out of the fight for a
    while (a shove into them is the terrain trick the AI looks for)."""
    copy = world.copy()
    worth = 0.0
    for event in push(copy, shover, target, 1):
        if not isinstance(event, Ask):
            apply(copy, event)
    if has(copy, target, Condition.SWIMMING) and not has(world, target, Condition.SWIMMING):
        worth += 4.0
    worth += max(0, hp(world, target) - hp(copy, target)) + (
        3.0 if has(copy, target, Condition.PRONE) else 0
    )
    return worth


def trip(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Trip)
    odds = min(trip_odds(c.world, c.unit, d.target), key=lambda o: o.hit)
    _, dealt, _ = c.hit_value(d.target, d.weapon, True)
    # A Trip is a 1 Action: two attacks' worth of budget for one attack and a chance of Prone.
    value = dealt + odds.prone * c.w.trip_prone - dealt
    return value, f"trips {d.target}: {percent(odds.prone)} to knock it down"


def grapple(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Grapple)
    chance = grapple_chance(c.world, c.unit, d.target)
    caster = bool(known(c.world, d.target))
    value = chance * (c.w.grapple_caster if caster else c.w.grapple_other) - c.w.grapple_cost
    why = f"grapples {d.target}: {percent(chance)} to hold it"
    return value, why + (", a caster" if caster else "")
