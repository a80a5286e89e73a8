"""The evaluators of contests with a foe: Shove, Trip, Grapple, Break Free and Disarm."""

from __future__ import annotations

from sim.ai.choice import percent
from sim.ai.context import Context, chebyshev
from sim.core import actions as a
from sim.core.actions import Action, Refusal
from sim.core.components import Position
from sim.core.condition import Condition
from sim.core.creature import conditions, creatures, has, hp, incapacitated, team_of
from sim.core.world import World
from sim.play.apply import apply
from sim.play.legal import Legal
from sim.play.odds import (
    attack_odds,
    break_free_chance,
    disarm_chance,
    grapple_chance,
    shove_odds,
    trip_chance,
    trip_odds,
)
from sim.rules.combat.attack import plan_attack
from sim.rules.combat.casting import known
from sim.rules.combat.reactions import Ask, held_weapon
from sim.rules.combat.shove import push
from sim.rules.reach.threat import reaches


def unguarded(c: Context, target: str, defence: str, weapon: str | None) -> float:
    """How much more one melee blow of this creature deals `target` when it cannot choose
    `defence` (a Prone creature cannot Dodge, a disarmed one cannot Parry)."""
    odds = attack_odds(c.world, c.unit, target, weapon=weapon, melee=True)
    kept = [o.damage for o in odds if o.defence != defence]
    return (min(kept) if kept else 0.0) - min(o.damage for o in odds)


def _beside(c: Context, target: str) -> list[str]:
    """This creature's allies that reach `target` where they stand: the blows that land on it
    before its turn comes."""
    world = c.world
    there = world.need(target, Position).cell
    return [
        u
        for u in creatures(world)
        if u != c.unit
        and team_of(world, u) == c.team
        and not incapacitated(world, u)
        and reaches(world, u, world.need(u, Position).cell, there)
    ]


def _striking(c: Context, target: str) -> list[str]:
    """This creature's allies that can attack `target` where they stand, in melee reach or
    with a ranged weapon in range and sight: a Parry answers all of those (R-R2)."""
    world = c.world
    return [
        u
        for u in creatures(world)
        if u != c.unit
        and team_of(world, u) == c.team
        and not incapacitated(world, u)
        and not isinstance(plan_attack(world, a.Attack(u, target=target)), Refusal)
    ]


def shove(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Shove)
    odds = shove_odds(c.world, c.unit, d.target)
    landing = push_worth(c.world, c.unit, d.target)
    already = has(c.world, d.target, Condition.PRONE)
    value = odds.win * landing + (0.0 if already else odds.prone * c.w.shove_prone)
    if c.goals and c.world.need(d.target, Position).cell in c.goals:
        value += odds.win * c.w.shove_goal  # it bars its side's objective no more (R-M5)
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
    """R-X19: a blow and the chance of knocking the foe Prone: it then spends a 1 Action
    standing up (R-M10), two blows it does not strike, and cannot Dodge the blows of the allies
    beside it until then: a dodger is the one worth tripping. A 1 Action, two blows' worth."""
    assert isinstance(d, a.Trip)
    _, dealt, _ = c.hit_value(d.target, d.weapon, True)
    if not (c.w.trip_stand or c.w.trip_dodge):
        # `classic`'s Trip, kept as it was: its odds without the trip weapon's factor.
        odds = min(trip_odds(c.world, c.unit, d.target), key=lambda o: o.hit)
        value = dealt + odds.prone * c.w.trip_prone - dealt
        return value, f"trips {d.target}: {percent(odds.prone)} to knock it down"
    prone = trip_chance(c.world, d)
    stand = c.w.trip_stand * 2 * c.foe_damage(d.target)
    allies = len(_beside(c, d.target))
    dodge = c.w.trip_dodge * 2 * allies * unguarded(c, d.target, "dodge", d.weapon)
    value = dealt + prone * (c.w.trip_prone + stand + dodge) - c.best_strike()
    return value, f"trips {d.target}: {percent(prone)} to knock it down"


def grapple(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Grapple)
    chance = grapple_chance(c.world, c.unit, d.target)
    caster = bool(known(c.world, d.target))
    value = chance * (c.w.grapple_caster if caster else c.w.grapple_other) - c.w.grapple_cost
    why = f"grapples {d.target}: {percent(chance)} to hold it"
    return value, why + (", a caster" if caster else "")


def disarm(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X5: its weapon on the ground, the foe spends a ½ Action of its turn picking it up (R-X7),
    a blow it does not strike, and cannot Parry the attacks of this creature's allies until
    then, their blows beside it and their shots from afar (R-R2: a Parry answers any attack);
    a 1 Action, two blows' worth of budget. A duellist, whose blade both hits hard and
    parries, is the one to disarm."""
    assert isinstance(d, a.Disarm)
    world = c.world
    weapon = d.item or held_weapon(world, d.target, melee=True)
    if weapon is None:
        return -1.0, f"disarm: {d.target} holds no weapon"
    chance = disarm_chance(world, c.unit, d.target)
    armed = c.foe_damage(d.target)
    own = held_weapon(world, c.unit, melee=True)
    parry = unguarded(c, d.target, "parry", own)
    allies = len(_striking(c, d.target))
    lost = c.w.disarm_blows * armed + c.w.disarm_strikes * 2 * allies * parry
    worth = chance * lost
    return (
        worth - c.best_strike(),
        f"disarms {d.target}: {percent(chance)} to knock its weapon away",
    )


def break_free(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-G2: a Full Action for the chance to move again, worth it when its blows from here
    win less than getting out of the holder's grip."""
    holder = conditions(c.world, c.unit).creature(Condition.GRAPPLED)
    if not holder:
        return -1.0, "break free: nothing holds it"
    chance = break_free_chance(c.world, c.unit, holder)
    # Held, it can make no step toward its objective either (R-G2).
    way = min((chebyshev(c.here, g) for g in c.goals), default=0)
    loose = c.w.break_free + c.w.break_free_threat * c.threat(c.here) + c.w.goal_step * way
    worth = chance * loose
    return worth - 2 * c.best_strike(), f"breaks free of {holder}: {percent(chance)} to get loose"
