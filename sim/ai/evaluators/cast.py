"""The evaluator of a spell or ability: the damage, healing and conditions it gives."""

from __future__ import annotations

from sim.ai.context import Context
from sim.core import actions as a
from sim.core import condition as cond
from sim.core.abilities import Condition, Damage, Heal
from sim.core.actions import Action, Refusal
from sim.core.components import Health
from sim.core.creature import incapacitated, team_of
from sim.play.legal import Legal
from sim.rules.combat.casting import affected


def cast(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """A spell or ability by the damage, healing and conditions it is expected to give each
    creature it touches, foes counting for it and allies against it."""
    assert isinstance(d, a.AbilityAction)
    ability = c.world.catalog.abilities.get(d.ability)
    touched = affected(c.world, d)
    if ability is None or isinstance(touched, Refusal):
        return -1.0, f"{d.ability}: cannot be aimed"
    value = 0.0
    for unit in touched:
        sign = -1.0 if team_of(c.world, unit) == c.team else 1.0
        down = incapacitated(c.world, unit)
        for effect in ability.effects:
            if isinstance(effect, Damage):
                if down and sign > 0:
                    # Burning a foe that is already down wins nothing (R-K2, R-C6): casters
                    # that did spent every turn on the fallen while the standing foe waited.
                    continue
                value += sign * effect.amount.mean
            elif isinstance(effect, Heal):
                health = c.world.need(unit, Health)
                if health.hp < health.max_hp:
                    healed = min(effect.amount.mean, health.max_hp - health.hp)
                    value -= sign * healed
                    if sign < 0 and not down:
                        value += c.rescue(unit, healed)  # it may stand through the foes' turn
            elif isinstance(effect, Condition) and not (down and sign > 0):
                value += sign * condition_worth(c, effect)
    if ability.attack and touched:
        hit, _, _ = c.hit_value(touched[0], None, False)
        value *= hit
    elif ability.save:
        value *= c.w.cast_save
    return value - c.w.cast_cost, f"{ability.verb} on {d.target or d.to or 'itself'}"


def condition_worth(c: Context, effect: Condition) -> float:
    """What a condition an ability gives is worth on a foe, in hit points (a boon, Quickened,
    counts against: it is worth as much on an ally)."""
    w = c.w
    if effect.name is cond.Condition.BURNING:
        return w.burning_stack * effect.value
    if effect.name is cond.Condition.BLEEDING:
        return w.bleeding_stack * effect.value
    if effect.name is cond.Condition.SLOWED:
        return w.slowed_turn * effect.value
    if effect.name is cond.Condition.QUICKENED:
        return -w.quickened_turn * effect.value
    if effect.name is cond.Condition.PRONE:
        return w.prone_given
    return 0.0
