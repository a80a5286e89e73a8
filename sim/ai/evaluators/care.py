"""The evaluators of care: Aid to a downed ally and drinking a potion."""

from __future__ import annotations

from sim.ai.context import KILL, Context
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.catalog import Gadget
from sim.core.components import Health, Position
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
