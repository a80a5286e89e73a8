"""Hit points, damage and healing (R-C6): at 0 HP or less a creature is Incapacitated (R-K2)."""

from __future__ import annotations

from sim.core import events as ev
from sim.core.components import Health
from sim.core.condition import Condition
from sim.core.creature import incapacitated
from sim.core.world import World


def damage(
    world: World, unit: str, amount: int, damage_type: str, source: str, *, dealer: str | None
) -> list[ev.Event]:
    """Events for `amount` damage to `unit`, with Incapacitated when it reaches 0 (R-C6);
    `source` words it for the log, `dealer` is the creature that dealt it, if any."""
    health = world.need(unit, Health)
    left = health.hp - max(0, amount)
    out: list[ev.Event] = [
        ev.Damaged(unit, max(0, amount), damage_type, source, left, dealer=dealer)
    ]
    floor = world.rules.hit_points.incapacitated_at
    if left <= floor and not incapacitated(world, unit):
        out.append(ev.ConditionGained(unit, Condition.INCAPACITATED, 1))
    return out


def heal(world: World, unit: str, amount: int, source: str) -> list[ev.Event]:
    """Events for healing, never above the maximum."""
    health = world.need(unit, Health)
    new = min(health.max_hp, health.hp + max(0, amount))
    return [ev.Healed(unit, new - health.hp, source, new)]
