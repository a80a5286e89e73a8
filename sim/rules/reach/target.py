"""Singling out a creature for a hands-on action (Shove, Trip, Disarm, Feint): it must be another
creature, one the actor sees (R-X8), within the actor's melee reach (R-A4)."""

from __future__ import annotations

from sim.core.actions import Refusal
from sim.core.components import Body, Conditions, Hands, Item, Position, Size, Stats, Team
from sim.core.creature import is_creature, side
from sim.core.world import World
from sim.rules.combat.hide import cannot_see
from sim.rules.reach.threat import out_of_reach, reaches


def singled_out(world: World, actor: str, target: str, what: str, rule: str) -> Refusal | None:
    """Why `actor` cannot `what` (a verb: "throw at") `target` at all, wherever it stands:
    it must be another creature, one the actor sees (R-X8). `rule`: the action's rule id,
    which the refusals name ("R-X17")."""
    if not target:
        return Refusal(f'{what} needs a "target": the id of a creature ({rule})')
    if target == actor:
        return Refusal(f"{actor} cannot {what} itself ({rule})")
    if not is_creature(world, target):
        return Refusal(f"there is no creature {target!r} to {what} ({rule})")
    # Kept by the world: a list of legal decisions asks it of each target for every action.
    return world.memo(
        ("cannot_see", actor, target),
        lambda: cannot_see(world, actor, target),
        reads=(Conditions, Position),
    )


def in_reach(world: World, actor: str, target: str, what: str, rule: str) -> Refusal | None:
    """Why `actor` cannot `what` (a verb: "shove") `target` now, or None when it can; `rule`
    as for `singled_out`."""
    problem = singled_out(world, actor, target, what, rule)
    if problem is not None:
        return problem
    return world.memo(
        ("in_reach", actor, target), lambda: _out_of_reach(world, actor, target), reads=REACH
    )


# What reach reads (R-A4): places and heights, what is held, bodies, and who is a creature.
REACH = (Position, Hands, Item, Body, Team, Stats, Size)


def _out_of_reach(world: World, actor: str, target: str) -> Refusal | None:
    where = world.need(target, Position)
    there = where.cell
    here = world.need(actor, Position).cell
    wide = side(world, target)  # R-Z3: any cell of a large target
    if not reaches(world, actor, here, there, up=where.elevation, target_side=wide):
        return Refusal(out_of_reach(world, actor, target))
    return None
