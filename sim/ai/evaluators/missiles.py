"""The evaluators of what leaves its hand: Throw at a foe, Toss to an ally."""

from __future__ import annotations

from sim.ai.choice import percent
from sim.ai.context import KILL, Context, hit_value
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.creature import incapacitated, item_kind, team_of
from sim.play.legal import Legal
from sim.play.odds import attack_odds, catch_toss_chance
from sim.rules.combat.attack import weapon_kind
from sim.rules.combat.reactions import held_weapon


def _edge(c: Context, wielder: str, item: str | None) -> float:
    """How much more one melee blow of `wielder` with `item` deals the foe it hurts most than
    its fists do (0 for no item)."""
    if item is None:
        return 0.0
    best = 0.0
    for foe in c.foes:
        armed = attack_odds(c.world, wielder, foe, weapon=item, melee=True)
        bare = attack_odds(c.world, wielder, foe, weapon=None, melee=True)
        best = max(best, min(o.damage for o in armed) - min(o.damage for o in bare))
    return best


def _parting(c: Context, item: str) -> float:
    """What giving up `item` costs: the edge of its only melee weapon, for the blows it would
    strike with it, or the shots of its bow (it has no other way to strike from afar)."""
    if held_weapon(c.world, c.unit, melee=True) == item:
        return c.w.throw_keep * _edge(c, c.unit, item)
    if held_weapon(c.world, c.unit, melee=False) == item:
        return c.w.throw_shots * c.blow(item, here=False)
    return 0.0


def throw(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X17: a ranged attack with a held weapon, valued as an attack, less the blows its
    melee weapon would have struck: worth it at a foe out of reach, a fleeing archer."""
    assert isinstance(d, a.Throw)
    if weapon_kind(c.world, d.item) is None:
        return -1.0, "throw: only a weapon is worth throwing"
    if held_weapon(c.world, c.unit, melee=True) == d.item and c.w.throw_only_weapon < 0:
        # Its only blade thrown, it fights bare-handed until it walks over to pick it up.
        return c.w.throw_only_weapon, "throw: its only melee weapon"
    hit, dealt, kill = hit_value(c.world, c.unit, d.target, d.item, False)
    value = dealt + KILL * kill - _parting(c, d.item)
    return value, (
        f"throws its {item_kind(c.world, d.item)} at {d.target}: {percent(hit)} to hit, "
        f"{dealt:.1f} damage expected"
    )


def toss(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X18: a weapon into the hands of an ally that has none, worth the edge it gives the
    ally's blows with the chance it is caught (R-R6), less what the tosser gives up."""
    assert isinstance(d, a.Toss)
    ally = d.target
    world = c.world
    if not ally or team_of(world, ally) != c.team or incapacitated(world, ally):
        return -1.0, "toss: only into a standing ally's hands"
    if weapon_kind(world, d.item) is None or held_weapon(world, ally, melee=True) is not None:
        return -1.0, f"toss: {ally} needs no weapon"
    caught = catch_toss_chance(world, ally, world.catalog.weight(item_kind(world, d.item)))
    worth = caught * c.w.toss * _edge(c, ally, d.item) - _parting(c, d.item)
    return worth, f"tosses its {item_kind(world, d.item)} to {ally}: {percent(caught)} to catch"
