"""Falling out of the air (R-Z5): a flier that becomes Prone, Grappled or Incapacitated while
over a pit or water at least waist-deep falls from `flier_fall_metres` (R-M4: Prone, 2 crushing
damage per full metre above its height), or into the water, where it starts swimming.

A flier is in the air whenever it stands over a pit or such water; one already lying down
(Prone, Incapacitated) or swimming is at the bottom or in the water, and falls no further.
A large flier (R-Z1) is over a drop when any cell of its footprint is (R-Z2: a footprint stands
only where every cell may be entered; the deepest water decides), and falls as its footprint."""

from __future__ import annotations

from collections.abc import Sequence

from sim.core import events as ev
from sim.core.components import Body, Position
from sim.core.condition import Condition
from sim.core.creature import conditions, side
from sim.core.grid import Kind
from sim.core.world import World
from sim.rules.movement.footing import mover, terrain_view
from sim.rules.movement.movement import fall

# The conditions that bring a flier down (R-Z5).
GROUNDING = (Condition.PRONE, Condition.GRAPPLED, Condition.INCAPACITATED)


def over_pit(world: World, unit: str) -> bool:
    """Whether `unit` is over a pit: for a large creature, any cell of its footprint (R-Z2)."""
    cell = world.need(unit, Position).cell
    return world.grid.footprints(side(world, unit)).kind(cell) is Kind.PIT


def over_drop(world: World, unit: str) -> bool:
    """Whether `unit` is over a pit or water at least waist-deep (R-M9): where a flier that
    stops flying falls (R-Z5). A large one's deepest cell decides (R-Z2)."""
    cell = world.need(unit, Position).cell
    grid = world.grid.footprints(side(world, unit))
    return over_pit(world, unit) or grid.water_half(cell) >= mover(world, unit).waist_half


def falls_if_downed(world: World, unit: str) -> bool:
    """Whether a flier that is now aloft would fall if it were knocked Prone, Grappled or
    Incapacitated (R-Z5): the odds and the AI read it."""
    return world.need(unit, Body).fly > 0 and over_drop(world, unit)


def grounded(world: World, events: Sequence[ev.Event]) -> list[ev.Event]:
    """The falls that `events`, just applied, cause (R-Z5): for each flier they made Prone,
    Grappled or Incapacitated over a pit or waist-deep water, a fall from the rules' height.
    Not a flier already down before them: a Prone or Incapacitated one lies at the bottom, a
    swimming one is in the water."""
    out: list[ev.Event] = []
    downed = [
        e.unit
        for e in events
        if isinstance(e, ev.ConditionGained) and e.condition in GROUNDING and world.exists(e.unit)
    ]
    for unit in dict.fromkeys(downed):  # each once, in the order the events name them
        if not world.has(unit, Body) or not falls_if_downed(world, unit):
            continue
        held = [e.condition for e in events if isinstance(e, ev.ConditionGained) and e.unit == unit]
        if any(isinstance(e, ev.Fell) and e.unit == unit for e in events):
            continue  # it fell already (off a face, R-M4)
        if _down_before(world, unit, held):
            continue
        cell = world.need(unit, Position).cell
        metres = world.rules.movement.flier_fall_metres
        view = terrain_view(world, unit)  # a large flier lands as its footprint (R-Z2)
        out += fall(view, mover(world, unit), unit, cell, cell, float(metres))
        if Condition.PRONE in held and view.grid.water_half(cell) >= mover(world, unit).waist_half:
            # R-M10: in the water it swims rather than lies.
            out.append(ev.ConditionLost(unit, Condition.PRONE, "fell into the water (R-Z5)"))
    return out


def _down_before(world: World, unit: str, gained: list[Condition]) -> bool:
    """Whether `unit` was already lying down or swimming before the conditions `gained`."""
    held = conditions(world, unit)
    if held.has(Condition.SWIMMING) and Condition.SWIMMING not in gained:
        return True
    for condition in (Condition.PRONE, Condition.INCAPACITATED):
        if held.has(condition) and condition not in gained:
            return True
    return False
