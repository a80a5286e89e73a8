"""The evaluators of the small actions of a turn: standing up, drawing or picking up a weapon,
guarding, ending it."""

from __future__ import annotations

from sim.ai.context import Context
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.catalog import Weapon
from sim.core.components import Gear, Hands
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
    """R-X7: a weapon back in its hands, worth a Draw (`pick_up`) and the edge of two blows
    over the best weapon it holds or could draw for free instead (`pick_up_edge`): an archer
    whose bow lies at its feet takes it up to shoot rather than draw a dagger it must walk to
    the foe with; a blade no better than one in its belt is not worth the ½ Action."""
    assert isinstance(d, a.PickUp)
    weapon = c.world.catalog.get(item_kind(c.world, d.item))
    if not isinstance(weapon, Weapon):
        return -1.0, "pick up: nothing it needs"
    if not c.w.pick_up_edge:
        # The flat worth of a Draw, as before the edge was weighed.
        if _needed(c, d.item) is None:
            return -1.0, "pick up: nothing it needs"
        return c.w.pick_up, f"picks up {weapon.name}"
    world = c.world
    own = (None, *world.need(c.unit, Hands).items(), *world.need(c.unit, Gear).carried)
    # What strikes a foe from here first; with nothing in reach or range, the better blade
    # for when a foe comes.
    now = max(c.blow(item, here=True) for item in own)
    edge = c.blow(d.item, here=True) - now
    if edge <= 0 and now <= 0:
        edge = c.blow(d.item, here=False) - max(c.blow(item, here=False) for item in own)
    if edge <= 0:
        return -1.0, "pick up: nothing it needs"
    worth = c.w.pick_up + c.w.pick_up_edge * 2 * edge
    return worth, f"picks up {weapon.name}: {edge:.1f} more damage a blow than it has"
