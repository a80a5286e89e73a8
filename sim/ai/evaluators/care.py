"""The evaluators of care: Aid to a downed ally, First Aid or a potion given, a potion drunk."""

from __future__ import annotations

from sim.ai.context import KILL, Context
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.catalog import Gadget
from sim.core.components import Health, Position, Stats
from sim.core.creature import incapacitated, item_kind
from sim.core.world import World
from sim.play.legal import Legal
from sim.rules.reach.threat import (
    reaches,
)


def aid(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Aid)
    if incapacitated(c.world, d.target):
        there = c.world.need(d.target, Position).cell
        menaced = any(reaches(c.world, f, c.world.need(f, Position).cell, there) for f in c.foes)
        if menaced:
            # Back at 1 HP within a foe's reach, it would only go down again (R-X11, R-K2).
            return c.w.aid_menaced, f"aids {d.target}, who is down but still menaced"
        return KILL + c.w.aid_downed, f"aids {d.target}, who is down"
    return -1.0, f"aid: {d.target} is not down"


def _heal_amount(world: World, item: str) -> float:
    kind = world.catalog.get(item_kind(world, item))
    return float(kind.heal) if isinstance(kind, Gadget) and kind.drink else 0.0


def consume(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Consume)
    health = c.world.need(c.unit, Health)
    heal = min(_heal_amount(c.world, d.item), health.max_hp - health.hp)
    if heal <= 0 or health.hp > health.max_hp // 2:
        return -1.0, "consume: not hurt enough"
    return heal, f"drinks {item_kind(c.world, d.item)}: about {heal:.0f} hit points back"


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
    worth = c.w.administer * healed - 2 * c.best_strike()
    return worth, f"tends {d.target}: about {healed:.0f} hit points back"
