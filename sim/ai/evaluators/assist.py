"""The evaluator of Assist: +2 on an ally's next Hit Roll, worth the extra chance times a hit."""

from __future__ import annotations

from sim.ai.choice import percent
from sim.ai.context import Context
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.components import Position
from sim.core.creature import incapacitated
from sim.play.legal import Legal
from sim.play.odds import (
    attack_odds,
    defense_total,
    hit_total,
)
from sim.rules.combat.reactions import (
    held_weapon,
)
from sim.rules.reach.threat import (
    reaches,
)


def assist(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X21: +2 on the ally's next Hit Roll against the enemy, worth the extra chance to hit
    times what a hit deals, when the ally can strike it."""
    assert isinstance(d, a.Assist)
    world = c.world
    there = world.need(d.ally, Position).cell
    if incapacitated(world, d.ally) or not reaches(
        world, d.ally, there, world.need(d.enemy, Position).cell
    ):
        return -1.0, f"assist: {d.ally} cannot strike {d.enemy}"
    weapon = held_weapon(world, d.ally, melee=True)
    defence = min(
        attack_odds(world, d.ally, d.enemy, weapon=weapon, melee=True), key=lambda o: o.hit
    )
    hit = hit_total(world, d.ally, d.enemy, melee=True)
    helped = (hit + world.rules.actions.assist_bonus).beats(
        defense_total(world, d.enemy, defence.defence)
    )
    value = (helped - defence.hit) * defence.per_hit
    return (
        value,
        f"assists {d.ally} against {d.enemy}: "
        f"{percent(defence.hit)} to hit becomes {percent(helped)}",
    )
