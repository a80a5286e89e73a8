"""The evaluators of standing ready for the foes' turn: Brace, Evade and Hide."""

from __future__ import annotations

from sim.ai.choice import percent
from sim.ai.context import Context, after, attack_count, chebyshev, foe_damage
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.components import Position
from sim.core.creature import hp
from sim.play.legal import Legal
from sim.play.odds import attack_odds, hide_odds
from sim.rules.combat.reactions import NONE, held_weapon
from sim.rules.reach.threat import reaches


def brace(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X3: the damage its doubled RES saves of the blows the foes can deal it here before
    its next turn (the threat map with it braced), for a 1 Action, two blows of its own."""
    assert isinstance(d, a.Brace)
    if c.w.stance_stake:
        threat = c.coming_threat()
        if threat <= 0:
            return -1.0, "brace: no foe can come to strike it"
        saved = threat - c.coming_threat_after(d)
        # Damage it can take without going down is an even trade for the blows it gives up
        # or the ground it does not take: what a Brace saves counts as the share of its hit
        # points at stake (at full health in the harbour's water a fighter braced rather than
        # swim to the orcs, every round; the game capped).
        saved *= min(1.0, threat / max(hp(c.world, c.unit), 1))
    else:
        threat = c.threat(c.here)
        if threat <= 0:
            return -1.0, "brace: no foe can strike it"
        saved = threat - c.threat_after(d)
    worth = c.w.brace * saved - 2 * c.best_strike() - c.w.stance_cost
    return worth, f"braces: {saved:.1f} of {threat:.1f} damage expected saved"


def evade(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X9: the doubled AGI Bonus counts on its first Dodge only: worth what it saves of the
    hardest blow coming, for a ½ Action."""
    assert isinstance(d, a.Evade)
    changed = after(c.world, d)
    saved = 0.0
    for foe in c.foes:
        there = c.world.need(foe, Position).cell
        coming = attack_count(reaches(c.world, foe, there, c.here), chebyshev(c.here, there))
        if coming and c.w.stance_stake and c.climbs(foe, c.here):
            continue  # it must climb up to it first: no blow this turn
        if coming:
            spared = c.foe_damage(foe) - foe_damage(changed, foe, c.unit)
            saved = max(saved, min(coming, 1.0) * spared)
    if saved <= 0:
        return -1.0, "evade: no blow it would dodge better"
    return (
        c.w.evade * saved - c.best_strike() - c.w.stance_cost,
        f"evades: {saved:.1f} damage saved on a Dodge",
    )


def hide(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X8: with the chance no foe sees it any more, the blows they can deal it here (an
    unseen creature is not struck at as one in sight) for a 1 Action, two blows of its own."""
    assert isinstance(d, a.Hide)
    odds = hide_odds(c.world, c.unit)
    if odds.every <= 0:
        return -1.0, "hide: a foe sees it in plain sight"
    # Unseen, its next blow or shot meets no defence (R-X8): the foe it would gain most on,
    # with its blade or, for an archer, its bow (the blade alone valued a hidden archer's
    # next shot as a blow of its fists).
    ambush = 0.0
    for melee in (True, False):
        weapon = held_weapon(c.world, c.unit, melee=melee)
        if weapon is None and not melee:
            continue  # no bow: no shot
        for foe in c.foes:
            odds_on = attack_odds(c.world, c.unit, foe, weapon=weapon, melee=melee)
            bare = next((o.damage for o in odds_on if o.defence == NONE), 0.0)
            ambush = max(ambush, bare - min(o.damage for o in odds_on))
    threat = c.coming_threat() if c.w.stance_stake else c.threat(c.here)
    shelter = c.w.hide * threat + c.w.hide_ambush * ambush
    worth = odds.every * shelter - 2 * c.best_strike() - c.w.stance_cost
    return worth, f"hides: {percent(odds.every)} to go unseen by every foe"
