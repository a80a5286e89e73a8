"""`easy`'s greedy turn: the best attack now, else up or free, else the move nearest its aim."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import numpy as np
import numpy.typing as npt

from sim.ai.choice import Choice, percent
from sim.ai.context import KILL, chebyshev, hit_value, strike_spots
from sim.core import actions as a
from sim.core.actions import Action, Refusal
from sim.core.components import Body, Gear, Position
from sim.core.condition import Condition
from sim.core.creature import has, incapacitated, item_kind, team_of
from sim.core.geometry import Pos
from sim.core.world import World
from sim.play.engine import (
    Battle,
    Decision,
)
from sim.rules.combat.attack import plan_attack, weapon_kind
from sim.rules.combat.reactions import (
    held_weapon,
)
from sim.rules.objectives import Reach
from sim.rules.reach.reachmap import ORDER, reach_map
from sim.rules.reach.threat import (
    enemies,
    reach_cells,
)

_MOVES = {kind.name: kind for kind in ORDER}


def greedy(battle: Battle, world: World, unit: str, avoid: Collection[Decision]) -> Choice:
    """`easy`'s decision on its own turn: the attack that deals most now (R-A2, R-A3); else
    back on its feet (R-M10) or out of a grapple (R-G2); else the move that gets it nearest
    its side's objective or a foe, cheapest first; else the end of its turn. Greedy on damage,
    blind to threats and Attacks of Opportunity, and it asks the rules only of the few
    decisions it weighs, not of every legal one. It reads `world`, the battle as its side
    knows it (sim/ai/sight.py); the rules it asks are the true battle's."""

    def allowed(decision: Action) -> bool:
        return decision not in avoid and not isinstance(battle.check(decision), Refusal)

    foes = [f for f in enemies(world, unit) if not incapacitated(world, f)]
    here = world.need(unit, Position).cell
    melee_only = held_weapon(world, unit, melee=False) is None
    if melee_only and held_weapon(world, unit, melee=True) is None:
        # Empty-handed (a Climb stows what it held, R-M7; a Disarm drops it): a carried weapon
        # first, rather than fists.
        gear = world.get(unit, Gear)
        for item in gear.carried if gear is not None else ():
            draw = a.Draw(unit, item=item)
            if weapon_kind(world, item) is not None and allowed(draw):
                return Choice(draw, 0.5, f"draws {item_kind(world, item)}")
    # Without a ranged weapon in hand, a foe beyond its melee reach cannot be attacked (R-A4):
    # the rules are not asked.
    reach = reach_cells(world, unit)
    best: Choice | None = None
    for foe in foes:
        if melee_only and chebyshev(here, world.need(foe, Position).cell) > reach:
            continue
        attack = a.Attack(unit, target=foe)
        if not allowed(attack):
            continue
        plan = plan_attack(world, attack)
        assert not isinstance(plan, Refusal)
        hit, dealt, kill = hit_value(world, unit, foe, plan.weapon, plan.melee)
        value = dealt + KILL * kill
        if value <= 0:
            continue  # nothing to win: armour takes it all, or it cannot hit from here
        if best is None or value > best.score:
            why = f"attacks {foe}: {percent(hit)} to hit, {dealt:.1f} damage expected"
            best = Choice(attack, value, why)
    if best is not None:
        return best
    if has(world, unit, Condition.PRONE) and allowed(a.StandUp(unit)):
        return Choice(a.StandUp(unit), 0.5, "stands up")
    if has(world, unit, Condition.GRAPPLED) and allowed(a.BreakFree(unit)):
        return Choice(a.BreakFree(unit), 0.5, "tries to break free")
    move = _closing(battle, world, unit, foes, allowed)
    if move is not None:
        return move
    return Choice(a.EndTurn(unit), 0.0, "ends its turn")


def _apart(
    xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64], here: Pos, marks: Sequence[Pos]
) -> tuple[npt.NDArray[np.int64], int]:
    """How many cells (Chebyshev) each cell (xs, ys), and `here`, lies from the nearest of
    `marks`."""
    spots = np.array([(c.x, c.y) for c in marks], dtype=np.int64).reshape(-1, 2)
    near = np.maximum(
        np.abs(xs[:, None] - spots[None, :, 0]), np.abs(ys[:, None] - spots[None, :, 1])
    ).min(axis=1)
    return near, int(np.maximum(np.abs(spots[:, 0] - here.x), np.abs(spots[:, 1] - here.y)).min())


def _closing(
    battle: Battle, world: World, unit: str, foes: list[str], allowed: Callable[[Action], bool]
) -> Choice | None:
    """`easy`'s move: to the reachable cell nearest (in cells) its side's objective, or else
    a foe, and of those the cheapest; only if it gets nearer than it stands."""
    team = team_of(world, unit)
    goals = [
        c for o in battle.objectives if isinstance(o, Reach) and o.team == team for c in o.cells
    ]
    # Toward the cells it could strike a foe from (R-A4, heights included), not the foe's own
    # cell: beside a quay, or below a ledge, the foe's cell is near and out of reach.
    foe_cells = [world.need(f, Position).cell for f in foes]
    marks = goals or strike_spots(world, unit, foes) or foe_cells
    cells = reach_map(world, unit)
    if not marks or not cells:
        return None
    xs, ys, costs, codes = cells.arrays()
    here = world.need(unit, Position)
    gaps, now = _apart(xs, ys, here.cell, marks)
    # Hanging on a face (R-M7), a climb up or back down that gets it no nearer on the map is
    # still on the way; a Jump from higher than it is tall is a fall (R-M4), never taken.
    hanging = here.elevation > 0
    if hanging:
        now += 1
        falls = here.elevation > world.need(unit, Body).height
        jump = [i for i, offer in enumerate(cells.offers) if offer.name == a.Jump.name]
        if falls and jump:
            gaps = np.where(np.isin(codes, jump), now, gaps)
    order = np.lexsort((costs, gaps))
    # With a bow in hand, near enough to shoot is near enough (R-C7): the cheapest cell within
    # its range of a foe (in cells that are in range whichever way they lie), if it is not
    # there already.
    bow = weapon_kind(world, held_weapon(world, unit, melee=False))
    if bow is not None and bow.ranged is not None and not goals and not hanging:
        far = bow.ranged * 2 // world.rules.grid.diagonal_half_metres
        apart, away = _apart(xs, ys, here.cell, foe_cells)
        if away > far and (apart <= far).any():
            order = np.lexsort((apart, costs, apart > far))
            gaps, now = apart, away
    for index in order[:3].tolist():  # the best few, should one be refused
        if int(gaps[index]) >= now:
            break
        name = cells.offers[int(codes[index])].name
        to = Pos(int(xs[index]), int(ys[index]))
        # Along the reach map's own path: a move by "to" would search again for its path.
        steps = cells[to].path
        jumps = tuple(i for i, (_, jumped) in enumerate(steps) if jumped)
        move = _MOVES[name](unit, path=tuple(c for c, _ in steps), jumps=jumps)
        if allowed(move):
            aim = "toward the objective" if goals else "closing in"
            return Choice(move, 0.4 * (now - int(gaps[index])), f"{name}s to {to.x},{to.y}, {aim}")
    return None
