"""What a decision's Bonus Actions cost when spent on the creature's own turn (R-B2: each gives
up a Dodge, Parry or Block until its next turn), in hit points' worth."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from sim.ai.context import Context
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.condition import Condition
from sim.core.creature import has
from sim.core.geometry import Pos
from sim.play.legal import MoveGroup


def move_bonus_prices(context: Context, group: MoveGroup) -> npt.NDArray[np.float64]:
    """What the Bonus Actions of every move of `group` cost (`bonus_price` of each move): each
    a defence given up where the creature stands when the foes come (R-B2), there the end of
    the move when `priced_at_end`, else where it starts; nothing in the foes' last round."""
    w = context.w
    if not group.cost.bonus or (w.last_round_free and context.last_round):
        return np.zeros(len(group), dtype=np.float64)
    if priced_at_end(context):
        threat = threat_values(context, group.xs, group.ys)
    else:
        threat = np.full(len(group), context.threat(context.here))
    return group.cost.bonus * (w.bonus_spent + w.move_bonus_threat * threat)


def priced_at_end(context: Context) -> bool:
    """Whether a move's Bonus Action (a Step's, a Sprint's) is priced by the threat where the
    move ends (`move_bonus_end`): the Dodge it gives up is wanted there, whether or not a move
    without a Bonus Action gets there too (after a Sprint or two blows the Step is the only
    move left, and where it ends is where the foes find it). Not a swimmer's: a Step is its
    only way up or out of the water (R-M8), a toll paid whenever it leaves and wherever it
    climbs out, so the threat at the bank tells leaving now from leaving later nothing; weighed
    against staying in the water (ending the turn, which the ranking cannot see is a stall) it
    kept the fighter beside the brute's quay swimming. It is priced where it starts."""
    return context.w.move_bonus_end and not has(context.world, context.unit, Condition.SWIMMING)


def threat_values(
    context: Context, xs: Sequence[int], ys: Sequence[int]
) -> npt.NDArray[np.float64]:
    """`Context.threat` of every cell (xs, ys): read off the move planes inside the window,
    worked out on its own beyond it."""
    x = np.array(xs, dtype=np.int64)
    y = np.array(ys, dtype=np.int64)
    win = context.window
    inside = (x >= win.x0) & (x < win.x1) & (y >= win.y0) & (y < win.y1)
    out = np.empty(len(x), dtype=np.float64)
    planes = context.move_planes()
    out[inside] = planes.threat_plane[y[inside] - planes.y0, x[inside] - planes.x0]
    for i in np.flatnonzero(~inside).tolist():
        out[i] = context.threat(Pos(xs[i], ys[i]))
    return out


def bonus_price(context: Context, decision: Action, bonus: int) -> float:
    """What `bonus` Bonus Actions spent on `decision` on its own turn cost (R-B2: each gives up
    a Dodge, Parry or Block until its next turn), priced by the threat where it will stand."""
    w = context.w
    if not bonus or (w.last_round_free and context.last_round):
        return 0.0
    threat = context.threat(context.here)
    if w.disengage_leaves and isinstance(decision, a.Disengage):
        threat = 0.0  # it leaves the threat it stands in; its move weighs where it goes
    if isinstance(decision, a.Movement):
        # A move (a Step) weighs the threat at its end itself; the share here is the rest's,
        # or the threat where it ends, where the defence given up is wanted.
        to = decision.to
        if to is not None and priced_at_end(context):
            threat = context.threat(to)
        return bonus * (w.bonus_spent + w.move_bonus_threat * threat)
    return bonus * (w.bonus_spent + w.bonus_threat * threat)
