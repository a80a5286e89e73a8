"""The evaluators of the small actions of a turn: standing up, drawing or picking up a weapon,
guarding, ending it."""

from __future__ import annotations

from sim.ai.context import Context
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.catalog import Weapon
from sim.core.creature import item_kind
from sim.play.legal import Legal
from sim.rules.combat.reactions import (
    held_weapon,
)


def stand_up(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    return c.w.stand_up, "stands up"


def _needed(c: Context, item: str) -> Weapon | None:
    """`item` when it is a weapon and the creature holds no melee weapon: one it needs."""
    kind = c.world.catalog.get(item_kind(c.world, item))
    if isinstance(kind, Weapon) and held_weapon(c.world, c.unit, melee=True) is None:
        return kind
    return None


def draw(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Draw)
    weapon = _needed(c, d.item)
    if weapon is not None:
        return c.w.draw, f"draws its {weapon.name}"
    return -1.0, "draw: nothing it needs"


def guard(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    return c.w.guard_threat * c.threat(c.here) - c.w.guard_cost, "guards: a free parry or block"


def end_turn(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    return 0.0, "ends its turn"


def pick_up(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X7: a weapon back in empty hands (after a Disarm), worth as much as drawing one."""
    assert isinstance(d, a.PickUp)
    weapon = _needed(c, d.item)
    if weapon is not None:
        return c.w.pick_up, f"picks up {weapon.name}"
    return -1.0, "pick up: nothing it needs"
