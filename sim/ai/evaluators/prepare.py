"""The evaluator of Prepare: hold an attack for the foe that must come through a narrow way."""

from __future__ import annotations

from sim.ai.context import Context, chebyshev
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.components import Position
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.play.legal import Legal
from sim.rules.combat.prepare import PREPARE_METRES
from sim.rules.reach.threat import reaches

# The triggers in the order the AI prefers them for the same attack: a foe stepping beside it
# first (it comes through the door), then a foe within a distance.
_TRIGGERS = ("enters_area", "enemy_within")


def _doorway(c: Context) -> bool:
    """Whether it stands in a door: walls (or the map's edge) on two opposite sides, and open
    ground beside it the other way that is not a corridor too, so a foe must come at it from
    the front. In a corridor both sides would wait for each other for ever."""
    grid = c.world.grid
    x, y = c.here.x, c.here.y

    def shut(cell: Pos) -> bool:
        return not grid.inside(cell) or grid.kind(cell) in (Kind.WALL, Kind.PIT)

    for dx, dy in ((1, 0), (0, 1)):
        if shut(Pos(x - dx, y - dy)) and shut(Pos(x + dx, y + dy)):
            # Walls across: the way through runs the other way, into rooms on either side.
            ends = (Pos(x - dy, y - dx), Pos(x + dy, y + dx))
            if any(
                not shut(end)
                and not (shut(Pos(end.x - dx, end.y - dy)) and shut(Pos(end.x + dx, end.y + dy)))
                for end in ends
            ):
                return True
    return False


def prepare(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-P1: with no foe to strike now, in a narrow way (a door, a corridor) a foe must come
    through, an attack prepared for a foe near enough to come is worth the blows of its turn,
    struck when the foe steps up (R-P3), and the blow the foe spends walking, rather than
    walking out into its reach; in the open, the AI closes in (its move weighs the trade)."""
    assert isinstance(d, a.Prepare)
    then = d.then
    if not isinstance(then, a.Attack) or d.trigger not in _TRIGGERS:
        return -1.0, "prepare: only an attack on a foe that comes close"
    if c.best_strike() > 0:
        return -1.0, "prepare: a foe is in reach now"
    if not _doorway(c):
        return -1.0, "prepare: in the open, closing in does as well"
    if d.trigger == "enemy_within" and d.metres > min(PREPARE_METRES):
        return -1.0, "prepare: it strikes only a foe beside it"
    foe = then.target
    there = c.world.need(foe, Position).cell
    if reaches(c.world, c.unit, c.here, there):
        return -1.0, f"prepare: {foe} is in reach now"
    gap = chebyshev(c.here, there)
    coming = 1.0 if gap <= c.w.prepare_horizon else 0.0
    rank = _TRIGGERS.index(d.trigger)
    # Its turn's two blows, struck once the foe has come (R-P3), and the blow the foe spent
    # walking up to it rather than striking: the tempo a creature that closes in gives away.
    tempo = 2 * c.own_damage(foe) + c.foe_damage(foe)
    worth = c.w.prepare * coming * tempo - 0.1 * rank
    return worth, f"prepares to attack {foe} when it comes through ({d.trigger})"
