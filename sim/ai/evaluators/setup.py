"""The evaluators of set-ups that make the next blow land: Aim and Feint."""

from __future__ import annotations

from sim.ai.choice import percent
from sim.ai.context import KILL, Context
from sim.ai.evaluators.attack import attack
from sim.core import actions as a
from sim.core.actions import Action, Refusal
from sim.core.condition import Condition
from sim.core.creature import conditions, hp
from sim.play.legal import Legal
from sim.play.odds import attack_odds, defences, defense_total, feint_chance, hit_total
from sim.rules.combat.attack import plan_attack


def lift(c: Context, target: str, weapon: str | None, melee: bool, bonus: int) -> float:
    """What +`bonus` on the next Hit Roll on `target` is worth: the extra chance to hit times
    what a hit deals (no more than its hit points), and KILL times it when a hit takes it
    down; the target defends as well as it can, with the bonus and without."""
    world = c.world
    hit = hit_total(world, c.unit, target, melee=melee)
    options = defences(world, c.unit, target)
    before = min(hit.beats(defense_total(world, target, o)) for o in options)
    lifted = min((hit + bonus).beats(defense_total(world, target, o)) for o in options)
    per_hit = attack_odds(world, c.unit, target, weapon=weapon, melee=melee)[0].per_hit
    left = max(hp(world, target), 1)
    gained = lifted - before
    return gained * min(per_hit, left) + (KILL * gained if per_hit >= left else 0.0)


def aim(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X1: scored as the aimed shot it sets up, so it comes first when +2 on that shot is
    worth more than the defence its Bonus Action would keep (`score` takes that off)."""
    if c.budget.half < 1:
        return -1.0, "aim: no ½ Action left to shoot"
    best, why = -1.0, "aim: no foe to shoot from here"
    for foe in c.foes:
        shot = a.Attack(c.unit, target=foe)
        plan = plan_attack(c.world, shot)
        if isinstance(plan, Refusal) or plan.melee:
            continue
        gain = lift(c, foe, plan.weapon, False, c.world.rules.actions.aim_bonus)
        value = attack(c, shot, legal)[0] + c.w.aim * gain
        if value > best:
            best, why = value, f"aims at {foe}: +2 to hit worth {gain:.1f} hit points"
    return best, why


def feint(c: Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X10: +5 on its next melee Hit Roll, whatever its target, with the chance the Feint on
    `d.target` succeeds, for the ½ Action an attack would have used: worth it against a
    defence that blunts most blows. The blow goes to the foe in its melee reach where +5 is
    worth most, which need not be the one feinted (the easiest to fool may be another)."""
    assert isinstance(d, a.Feint)
    world = c.world
    if conditions(world, c.unit).has(Condition.FEINTED):
        return -1.0, "feint: the last one is still unused (a second does not stack, R-X10)"
    bonus = world.rules.actions.feint_bonus
    # The same blow whichever foe is feinted: worked out once per decision.
    best, blow = c.kept(("feint blow", bonus), lambda: _best_blow(c, bonus))
    if not blow:
        return -1.0, "feint: no foe in its melee reach to strike after it"
    chance = feint_chance(world, c.unit, d.target)
    gain = chance * best
    if c.budget.half < 2:
        gain *= c.w.feint_later  # the blow waits for its next turn
    return c.w.feint * gain, (
        f"feints {d.target}: {percent(chance)} to open a guard, +{bonus} on its blow at {blow} "
        f"worth {gain:.1f}"
    )


def _best_blow(c: Context, bonus: int) -> tuple[float, str]:
    """The foe in its melee reach where +`bonus` on the next blow is worth most, and what it
    is worth (`lift`); (0.0, "") when none is in reach."""
    best, blow = 0.0, ""
    for foe in c.foes:
        plan = plan_attack(c.world, a.Attack(c.unit, target=foe))
        if isinstance(plan, Refusal) or not plan.melee:
            continue
        worth = lift(c, foe, plan.weapon, True, bonus)
        if worth > best or not blow:
            best, blow = worth, foe
    return best, blow
