"""The evaluator of an attack: damage expected, the kill, focus on the weakest foe."""

from __future__ import annotations

from sim.ai.choice import percent
from sim.ai.context import KILL, Context, chebyshev
from sim.core import actions as a
from sim.core.actions import Action, Refusal
from sim.core.components import Position
from sim.core.creature import hp
from sim.play.legal import Legal
from sim.rules.combat.attack import plan_attack


def attack(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Attack)
    plan = plan_attack(c.world, d)
    if isinstance(plan, Refusal):
        return -1.0, plan.reason
    hit, dealt, kill = c.hit_value(d.target, plan.weapon, plan.melee)
    focus = c.w.focus * hit / max(hp(c.world, d.target), 1)
    if c.guarded:
        near = min(chebyshev(c.world.need(d.target, Position).cell, g) for g in c.guarded)
        focus += max(0, c.w.objective_focus_cells - near) * hit  # a foe about to take the objective
    value = dealt + KILL * kill + focus
    return value, (
        f"attacks {d.target}: {percent(hit)} to hit, {dealt:.1f} damage expected"
        + (f", {percent(kill)} to take it down" if kill else "")
    )
