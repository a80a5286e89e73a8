"""The evaluators of care: Aid to a downed ally, First Aid or a potion given, a potion drunk."""

from __future__ import annotations

import numpy as np

from sim.ai.context import KILL, Context
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.catalog import Gadget
from sim.core.components import Health, Position, Stats
from sim.core.condition import Condition
from sim.core.creature import conditions, incapacitated, item_kind
from sim.core.world import World
from sim.play.legal import Legal
from sim.play.odds import skill_total
from sim.rules.reach.threat import (
    reaches,
)


def aid(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X11: a downed ally back in the fight; else the Burning and Bleeding stacks it puts
    out, each worth what it gives a foe (`burning_stack`, `bleeding_stack`), for a 1½ Action,
    two blows of its own and its Bonus Actions."""
    assert isinstance(d, a.Aid)
    if incapacitated(c.world, d.target):
        there = c.world.need(d.target, Position).cell
        menaced = any(reaches(c.world, f, c.world.need(f, Position).cell, there) for f in c.foes)
        if menaced:
            # Back at 1 HP within a foe's reach, it would only go down again (R-X11, R-K2).
            return c.w.aid_menaced, f"aids {d.target}, who is down but still menaced"
        return KILL + c.w.aid_downed, f"aids {d.target}, who is down"
    if not (c.w.burning_stack or c.w.bleeding_stack):
        return -1.0, f"aid: {d.target} is not down"  # `classic`: stacks count for nothing
    burning, bleeding = _put_out(c.world, c.unit, d.target)
    worth = c.w.burning_stack * burning + c.w.bleeding_stack * bleeding
    if worth <= 0:
        return -1.0, f"aid: {d.target} is not down"
    return worth - 2 * c.best_strike(), (
        f"aids {d.target}: {burning:.0f} Burning and {bleeding:.1f} Bleeding stacks put out"
    )


def _put_out(world: World, aider: str, target: str) -> tuple[float, float]:
    """The Burning stacks an Aid of `aider` takes off `target`, and the Bleeding stacks it is
    expected to (a First Aid roll less the threshold, R-X11)."""
    numbers = world.rules.conditions
    held = conditions(world, target)
    burning = float(min(held.count(Condition.BURNING), numbers.aid_burning_stacks))
    stacks = held.count(Condition.BLEEDING)
    bleeding = 0.0
    if stacks:
        roll = skill_total(world, aider, "first_aid")
        totals = np.arange(roll.low, roll.low + len(roll.probs))
        stopped = np.clip(totals - numbers.aid_bleeding_threshold, 0, stacks)
        bleeding = float(np.dot(roll.probs, stopped))
    return burning, bleeding


def _heal_amount(world: World, item: str) -> float:
    kind = world.catalog.get(item_kind(world, item))
    return float(kind.heal) if isinstance(kind, Gadget) and kind.drink else 0.0


def consume(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Consume)
    health = c.world.need(c.unit, Health)
    heal = min(_heal_amount(c.world, d.item), health.max_hp - health.hp)
    if heal <= 0 or health.hp > health.max_hp // 2:
        return -1.0, "consume: not hurt enough"
    value = heal + c.rescue(c.unit, heal)
    return value, f"drinks {item_kind(c.world, d.item)}: about {heal:.0f} hit points back"


def administer(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X12: the hit points its First Aid, or the potion it gives, brings a hurt ally back,
    for a 1 Action, two blows of its own."""
    assert isinstance(d, a.Administer)
    world = c.world
    if incapacitated(world, d.target):
        return -1.0, f"administer: {d.target} is down, and needs Aid first"
    health = world.need(d.target, Health)
    if d.item is None:
        healed = float(world.need(c.unit, Stats).skill("first_aid"))
    else:
        healed = _heal_amount(world, d.item)
    healed = min(healed, health.max_hp - health.hp)
    if healed <= 0 or health.hp > health.max_hp // 2:
        return -1.0, f"administer: {d.target} is not hurt enough"
    worth = c.w.administer * healed + c.rescue(d.target, healed) - 2 * c.best_strike()
    return worth, f"tends {d.target}: about {healed:.0f} hit points back"
