"""The evaluator of Prepare: hold an attack for the foe that must come through a narrow way."""

from __future__ import annotations

from sim.ai.context import Context, chebyshev
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.components import Position
from sim.core.grid import Kind
from sim.play.legal import Legal
from sim.rules.combat.prepare import PREPARE_METRES

# The triggers in the order the AI prefers them for the same attack: a foe stepping beside it
# first (it comes through the door), then a foe within a distance.
_TRIGGERS = ("enters_area", "enemy_within")


def _openings(c: Context) -> int:
    """How many cells beside it a creature can step into: few in a doorway or a corridor."""
    grid = c.world.grid
    return sum(
        1
        for cell in c.here.neighbours()
        if grid.inside(cell) and grid.kind(cell) not in (Kind.WALL, Kind.PIT)
    )


def prepare(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-P1: with no foe to strike now, in a narrow way (a door, a corridor) a foe must come
    through, an attack prepared for the foe coming close is worth the blows it will strike
    first with the chance the foe comes (it is close); in the open, closing in does as well."""
    assert isinstance(d, a.Prepare)
    then = d.then
    if not isinstance(then, a.Attack) or d.trigger not in _TRIGGERS:
        return -1.0, "prepare: only an attack on a foe that comes close"
    if c.best_strike() > 0:
        return -1.0, "prepare: a foe is in reach now"
    if _openings(c) > c.w.prepare_openings:
        return -1.0, "prepare: in the open, closing in does as well"
    if d.trigger == "enemy_within" and d.metres > min(PREPARE_METRES):
        return -1.0, "prepare: it strikes only a foe beside it"
    foe = then.target
    gap = chebyshev(c.here, c.world.need(foe, Position).cell)
    coming = max(0.0, 1.0 - gap / c.w.prepare_horizon)
    rank = _TRIGGERS.index(d.trigger)
    worth = c.w.prepare * coming * 2 * c.own_damage(foe) - 0.1 * rank
    return worth, f"prepares to attack {foe} when it comes through ({d.trigger})"
