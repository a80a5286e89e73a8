"""The evaluators of moving: a Movement Action's end cell weighed as a trade, and Disengage."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sim.ai.context import Context, chebyshev
from sim.ai.price import bonus_price, move_bonus_prices
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.condition import Condition
from sim.core.creature import has, hp
from sim.core.geometry import Pos
from sim.play.legal import Legal, MoveGroup
from sim.rules.combat.reactions import held_weapon
from sim.rules.movement.climb import ClimbPlan, plan_climb
from sim.rules.reach.opportunity import held_by, provocations


def move(c: Context, d: Action, legal: Legal, *, leaving: bool = False) -> tuple[float, str]:
    """A move's end cell weighed as a trade; `leaving`: as the move after a Disengage of a
    hurt creature is (`fleeing`), whether or not it has disengaged yet."""
    assert isinstance(d, a.Movement) and d.to is not None and legal.cost is not None
    world, cell = c.world, d.to
    if isinstance(d, a.Climb):
        # R-M7: a climb that stops part-way leaves the climber hanging below the face it is
        # aimed at, not on top of it.
        climbed = plan_climb(world, d)
        if isinstance(climbed, ClimbPlan):
            cell = climbed.end
    half_left = c.budget.half - legal.cost.half
    # The planes every candidate reads, looked up once per cell of the window (issue #30: a
    # turn weighs hundreds of cells, and a call per measure per cell cost more than the maps).
    planes = c.move_planes() if c.window.holds(cell) else None
    # What it can strike from there with what the move leaves, over what it can strike
    # staying where it is: a step from one cell in reach to another wins no attack.
    if planes is None:
        strike, target = c.strike(cell, half_left)
        closer = c.nearest_foe(c.here) - c.nearest_foe(cell)
        taken, dealt = c.threat(cell), c.menace(cell)
        danger = taken - c.threat(c.here)
        pressure = dealt - c.menace(c.here)
    else:
        y, x = cell.y - planes.y0, cell.x - planes.x0
        # No foe within striking distance of the cell: `strike` would find none to strike.
        near = bool(planes.close_plane[y, x])
        strike, target = c.strike(cell, half_left) if near else (0.0, "")
        closer = planes.nearest_here - int(planes.nearest_plane[y, x])
        taken, dealt = float(planes.threat_plane[y, x]), float(planes.menace_plane[y, x])
        danger = taken - planes.threat_here
        pressure = dealt - planes.menace_here
    strike -= c.strike(c.here, c.budget.half)[0]
    if strike <= 0:
        target = ""
    toward = c.w.move_closer
    if c.w.shooter_closer != 1.0 and c.shoots():
        # A shooter that has a foe in its bow's range here gains no shot by coming nearer.
        toward *= c.w.shooter_closer
    value = strike + toward * closer - c.w.move_cost * legal.cost.half
    why = f"{d.name}s to {cell.x},{cell.y}"
    if c.goals:
        before = min(chebyshev(c.here, g) for g in c.goals)
        after = min(chebyshev(cell, g) for g in c.goals)
        value += c.w.goal_step * (before - after) + (c.w.goal_reached if after == 0 else 0.0)
        if after < before:
            why += ", toward the objective"
    if c.warden:
        # Standing on the cell itself bars it: no foe can end a move there (R-M5).
        before = min(chebyshev(c.here, g) for g in c.guarded)
        after = min(chebyshev(cell, g) for g in c.guarded)
        value += c.w.warden_step * (before - after) + c.w.warden_on * ((after == 0) - (before == 0))
        if after < before:
            why += ", to guard the objective"
    # Weighed as a trade (`danger` less `pressure`): the damage the foes can deal it at the
    # end cell against what it can deal them from there. Counting only the first, two sides
    # that each hold back out of reach end every turn and the battle never ends.
    provoked = provoked_damage(c, d)
    if c.w.high_ground and cell != c.here:
        # Ground the foes cannot strike without climbing first (R-A4, R-M7): a ledge, worth
        # holding only where it can strike from it. One it cannot fight from is a hiding
        # place: the fighter that ran up the harbour wall braced there for 29 rounds while the
        # orc below waited too (every such game capped).
        shelter = held(c, cell) - held(c, c.here)
        value += c.w.high_ground * shelter
        if shelter > 0:
            why += ", to high ground"
    weight = c.w.trade_hurt if lopsided(c, danger, taken, dealt, strike) else trade(c)
    value -= weight * (danger - pressure) + provoked
    if leaving or fleeing(c):
        value += c.w.disengage_share * max(0.0, -danger)
    if provoked:
        why += f", provoking {provoked:.1f} damage expected"
    if target:
        why += f" to attack {target}"
    elif closer > 0:
        why += ", closing in"
    return value, why


def held(c: Context, cell: Pos) -> float:
    """`sheltered` where it can strike a foe from `cell` (a foe in its reach there, or it
    shoots), else nothing. A foe merely close by is no blow: the fighter on the harbour wall
    with the orcs in the water below counted them as its menace and held the wall all game."""
    shelter = c.sheltered(cell)
    if shelter <= 0 or c.shoots() or c.strike(cell, 1)[0] > 0:
        return shelter
    return 0.0


def provoked_damage(c: Context, d: a.Movement) -> float:
    """Expected damage of the Attacks of Opportunity the move's path provokes (R-R4, after a
    Disengage none: `provoked`)."""
    assert d.to is not None
    return provoked_at(c, type(d), d.to)


def provoked_at(c: Context, kind: type[a.Movement], to: Pos) -> float:
    """`provoked_damage` of a move of `kind` to `to`."""
    # Only a cell some foe reaches can be left to provoke (R-R4): most paths pass none. A
    # creature hanging on a face leaves its first cell from a height: no shortcut for it.
    near = c.reached()
    lifted = c.lifted()
    if not near and not lifted:
        return 0.0
    if not lifted:
        # The sum for every cell of the kind's search at once (`Context.provoked_rows`).
        known = c.provoked_rows(kind)
        if known is not None:
            win, rows = known
            if not win.holds(to):
                return 0.0
            return rows[to.y - win.y0][to.x - win.x0]
    found = c.reach_map(kind).get(to)
    if found is None:
        return 0.0
    path = tuple(p for p, _ in found.path)
    if not lifted and c.here not in near and not any(q in near for q in path[:-1]):
        return 0.0
    return sum(c.foe_damage(p.enemy) for p in provocations(c.world, c.unit, path))


def fleeing(c: Context) -> bool:
    """Whether it has disengaged (R-R5) hurt, its hit points short of the threat where it
    stands: its next move is weighed as `disengage` weighed it, the threat it leaves counting
    `disengage_share` more (else it disengaged and stayed to strike)."""
    if not c.w.disengage_moves:
        return False
    if c._fleeing is None:
        c._fleeing = has(c.world, c.unit, Condition.DISENGAGED) and hurt(c)
    return c._fleeing


def trade(c: Context) -> float:
    """How much a move's trade (the threat taken at its end less the menace gained there)
    weighs: `trade_hurt` for a creature whose hit points are short of the threat where it
    stands (`hurt`: its safety first), else `trade`; a lopsided move (`lopsided`) weighs it by
    `trade_hurt` too."""
    return c.w.trade_hurt if hurt(c) else c.w.trade


def lopsided(c: Context, danger: float, taken: float, dealt: float, strike: float) -> bool:
    """A move into more threat (`danger`) that strikes no foe this turn (`strike`) and ends
    where the foes' blows (`taken`) are more than `trade_lopsided` times its own (`dealt`):
    it only waits there to be struck first, and harder. The halfling medic ran up beside the
    orc brute with no Action left, `trade` weighing the blows it would take that lightly."""
    ratio = c.w.trade_lopsided
    return ratio > 0 and strike <= 0 and danger > 0 and dealt > 0 and taken > ratio * dealt


def lopsided_values(
    c: Context,
    danger: npt.NDArray[np.float64],
    taken: npt.NDArray[np.float64],
    dealt: npt.NDArray[np.float64],
    strike: npt.NDArray[np.float64],
) -> npt.NDArray[np.bool_]:
    """`lopsided` of every cell at once."""
    ratio = c.w.trade_lopsided
    if ratio <= 0:
        return np.zeros(len(danger), dtype=np.bool_)
    return (strike <= 0) & (danger > 0) & (dealt > 0) & (taken > ratio * dealt)


def hurt(c: Context) -> bool:
    """Its hit points are short of the blows the foes can deal it where it stands."""
    return hp(c.world, c.unit) <= c.threat(c.here)


def group_values(c: Context, group: MoveGroup, *, leaving: bool = False) -> npt.NDArray[np.float64]:
    """`move_values`, worked out once per decision for each group (a group is one Movement
    Action and variant): the ranking and a Disengage's escape both read them. Shared: callers
    must not change it."""
    key = ("move values", group.kind, group.slow, group.quicken, group.submerged, leaving)
    return c.kept(key, lambda: move_values(c, group, leaving=leaving))


def move_values(c: Context, group: MoveGroup, *, leaving: bool = False) -> npt.NDArray[np.float64]:
    """`move`'s value of every move of `group`, worked out for all its cells at once (issue
    #30: a turn weighs hundreds of cells). Each number is the one `move` gives, to the bit:
    the same operations in the same order, cell by cell (numpy's elementwise arithmetic rounds
    as Python's does); a cell beyond the context's window is weighed by `move` itself."""
    assert not issubclass(group.kind, a.Climb), "a Climb is listed with the other actions"
    xs = np.array(group.xs, dtype=np.int64)
    ys = np.array(group.ys, dtype=np.int64)
    out = np.empty(len(xs), dtype=np.float64)
    win = c.window
    inside = (xs >= win.x0) & (xs < win.x1) & (ys >= win.y0) & (ys < win.y1)
    for index in np.flatnonzero(~inside).tolist():
        legal = group.at(index)
        assert isinstance(legal.decision, a.Movement)
        out[index] = move(c, legal.decision, legal, leaving=leaving)[0]
    if not inside.any():
        return out
    xs, ys = xs[inside], ys[inside]
    cost = group.cost
    planes = c.move_planes()
    ly, lx = ys - planes.y0, xs - planes.x0
    half_left = c.budget.half - cost.half
    strike = np.zeros(len(xs), dtype=np.float64)
    for i in np.flatnonzero(planes.close_plane[ly, lx]).tolist():
        strike[i] = c.strike(Pos(int(xs[i]), int(ys[i])), half_left)[0]
    strike = strike - c.strike(c.here, c.budget.half)[0]
    closer = planes.nearest_here - planes.nearest_plane[ly, lx]
    taken, dealt = planes.threat_plane[ly, lx], planes.menace_plane[ly, lx]
    danger = taken - planes.threat_here
    pressure = dealt - planes.menace_here
    toward = c.w.move_closer
    if c.w.shooter_closer != 1.0 and c.shoots():
        toward *= c.w.shooter_closer
    value = strike + toward * closer - c.w.move_cost * cost.half
    if c.goals:
        before = min(chebyshev(c.here, g) for g in c.goals)
        after = _apart(xs, ys, c.goals)
        value = value + (
            c.w.goal_step * (before - after) + np.where(after == 0, c.w.goal_reached, 0.0)
        )
    if c.warden:
        before = min(chebyshev(c.here, g) for g in c.guarded)
        after = _apart(xs, ys, c.guarded)
        on = (after == 0).astype(np.int64) - int(before == 0)
        value = value + (c.w.warden_step * (before - after) + c.w.warden_on * on)
    provoked = _provoked_values(c, group.kind, xs, ys)
    if c.w.high_ground:
        # `held` of every cell: its shelter, but where it can strike no foe from there.
        here = held(c, c.here)
        holds = c.sheltered_plane()[ly, lx]
        if not c.shoots():
            for i in np.flatnonzero(holds > 0).tolist():
                if c.strike(Pos(int(xs[i]), int(ys[i])), 1)[0] <= 0:
                    holds[i] = 0.0
        away = (xs != c.here.x) | (ys != c.here.y)
        value = np.where(away, value + c.w.high_ground * (holds - here), value)
    weight = np.where(lopsided_values(c, danger, taken, dealt, strike), c.w.trade_hurt, trade(c))
    value = value - (weight * (danger - pressure) + provoked)
    if leaving or fleeing(c):
        value = value + c.w.disengage_share * np.maximum(0.0, -danger)
    out[inside] = value
    return out


def _apart(
    xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64], marks: list[Pos]
) -> npt.NDArray[np.int64]:
    """`chebyshev` of each cell (xs, ys) to the nearest of `marks`."""
    near = np.maximum(np.abs(xs - marks[0].x), np.abs(ys - marks[0].y))
    for mark in marks[1:]:
        np.minimum(near, np.maximum(np.abs(xs - mark.x), np.abs(ys - mark.y)), out=near)
    return near


def _provoked_values(
    c: Context, kind: type[a.Movement], xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """`provoked_at` of every cell (xs, ys): read off `Context.provoked_grid` where it has
    them, else cell by cell."""
    if not c.reached() and not c.lifted():
        return np.zeros(len(xs), dtype=np.float64)
    if not c.lifted():
        known = c.provoked_grid(kind)
        if known is not None:
            win, grid = known
            inside = (xs >= win.x0) & (xs < win.x1) & (ys >= win.y0) & (ys < win.y1)
            out = np.zeros(len(xs), dtype=np.float64)
            out[inside] = grid[ys[inside] - win.y0, xs[inside] - win.x0]
            return out
    return np.array(
        [provoked_at(c, kind, Pos(x, y)) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)],
        dtype=np.float64,
    )


def disengage(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-R5: worth the Attacks of Opportunity the move away would provoke, when staying is
    worse than leaving: it is hurt and outnumbered where it stands, or it is a shooter in the
    reach of several foes at once (each would strike it as it goes)."""
    if not c.foes:
        return -1.0, "disengage: no one to slip away from"
    held = held_by(c.world, c.unit)
    # A shooter in the reach of several foes strikes better from further off: it leaves.
    shooter = held_weapon(c.world, c.unit, melee=False) is not None
    crowded = shooter and len(held) >= c.w.disengage_crowd
    if not held or not (hurt(c) or crowded):
        return -1.0, "disengage: not worth leaving"
    if c.w.disengage_moves:
        # R-R5 spares the Movement Action directly after it, nothing else: the Disengage is
        # worth the best move it still leaves, weighed as `move` weighs it with nothing
        # provoked. Valued by the threat it stood in, tactical's creatures disengaged and then
        # stayed to trip or strike (38 of 52 Disengages of 160 games), a Bonus Action spent
        # for nothing (no Dodge left for the blows that then came).
        escape, to = _escape(c, legal)
        if to is None or escape <= 0:
            return -1.0, "disengage: no move it would then make is worth it"
        return escape, f"disengages to slip away to {to.x},{to.y}"
    spared = sum(c.foe_damage(foe) for foe in held)
    value = c.w.disengage_share * c.threat(c.here) + c.w.disengage_spared * spared
    return value, "disengages to step out of reach"


def _escape(c: Context, legal: Legal) -> tuple[float, Pos | None]:
    """The best of the moves listed this turn that it could still pay for after the Disengage
    (`legal`), as `move` weighs each with no Attack of Opportunity provoked (less what its own
    Bonus Action costs when `escape_priced`, as the ranking will price it), and its cell (None
    when no move is left)."""
    assert legal.cost is not None
    bonus = c.budget.bonus - legal.cost.bonus
    away = hurt(c)  # the move after it weighed as `fleeing` will weigh it
    best, to = 0.0, None
    for group in c.moves:
        if group.slow or group.cost.bonus > bonus or group.cost.half > c.budget.half:
            continue
        xs = np.array(group.xs, dtype=np.int64)
        ys = np.array(group.ys, dtype=np.int64)
        values = group_values(c, group, leaving=away) + _provoked_values(c, group.kind, xs, ys)
        if c.w.escape_priced and group.cost.bonus:
            values = values - move_bonus_prices(c, group)
        i = int(np.argmax(values))
        if to is None or values[i] > best:
            best, to = float(values[i]), Pos(group.xs[i], group.ys[i])
    for other in c.listed_moves:
        d = other.decision
        if not isinstance(d, a.Movement) or d.to is None or other.cost is None or d.slow:
            continue
        if other.cost.bonus > bonus or other.cost.half > c.budget.half:
            continue
        value = move(c, d, other, leaving=away)[0] + provoked_damage(c, d)
        if c.w.escape_priced:
            value -= bonus_price(c, d, other.cost.bonus)
        if to is None or value > best:
            best, to = value, d.to
    return best, to
