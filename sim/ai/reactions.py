"""The AI's answers to its own reaction windows: defences, Interrupts, catches, opportunities."""

from __future__ import annotations

from sim.ai.choice import Choice, percent
from sim.ai.context import KILL, foe_damage, foe_odds
from sim.ai.weights import Weights
from sim.core import actions as a
from sim.core import events as ev
from sim.core.actions import Action, Refusal
from sim.core.components import Budget, Position
from sim.core.creature import hp, incapacitated
from sim.core.purpose import RollKind
from sim.core.world import World
from sim.play.auto import auto_answer
from sim.play.engine import (
    AwaitingReaction,
    Battle,
    ReactionChoice,
)
from sim.play.legal import Legal
from sim.play.odds import (
    attack_odds,
    defense_total,
)
from sim.rules.combat.attack import plan_attack
from sim.rules.combat.reactions import (
    NONE,
    Ask,
    bonus_left,
    expected_defence,
    held_weapon,
    reaction_price,
)
from sim.rules.reach.threat import (
    enemies,
    reaches,
)

_VERBS = {"dodge": "dodges", "parry": "parries", "block": "blocks"}


def react(
    battle: Battle,
    world: World,
    pending: AwaitingReaction,
    listed: tuple[Legal, ...],
    known_roll: bool = False,
    weights: Weights | None = None,
) -> Choice:
    """Defend with the defence that adds most; take an Attack of Opportunity; Interrupt only
    when what it wins beats the defences its 2 Bonus Actions would otherwise pay for (R-R7);
    catch only with a free hand (dropping a weapon to catch costs more than it saves).
    It reads `world`, the battle as its side knows it (sim/ai/sight.py), and of `battle`
    only what has happened: the action being resolved and the rolls made."""
    names = [d.decision.choice for d in listed if isinstance(d.decision, ReactionChoice)]
    unit = pending.unit
    acting = battle.resolving
    auto = weights is not None and weights.auto_reactions
    if auto and acting is not None and pending.kind in ("interrupt", "attack_of_opportunity"):
        # The standing policy "auto"'s judgement (sim/play/auto.py): what the Bonus Actions
        # would buy in defences against the foes still to come before its next turn, not only
        # against those that reach it now.
        ask = Ask(unit, pending.kind, pending.trigger, pending.options, source=acting.actor)
        answer = auto_answer(world, ask, acting, battle.objectives)
        if answer.choice in names:
            taken = answer.choice != NONE
            return Choice(ReactionChoice(unit, answer.choice), float(taken), answer.reason)
    if pending.kind == "defence":
        usable = [n for n in names if n != NONE]
        if usable and known_roll:
            known = defend_known(battle, world, unit, names)
            if known is not None:
                return known
        if usable:
            best = max(usable, key=lambda n: (expected_defence(world, unit, n), -usable.index(n)))
            why = f"{_VERBS.get(best, best)}: the best defence it has"
            return Choice(ReactionChoice(unit, best), 1.0, why)
    elif pending.kind == "catch":
        if "catch" in names:
            return Choice(ReactionChoice(unit, "catch"), 1.0, "catches with a free hand")
    elif pending.kind == "interrupt":
        if "interrupt" in names and acting is not None:
            gain, why = interrupt_value(world, unit, acting)
            if gain > 0:
                return Choice(ReactionChoice(unit, "interrupt"), gain, why)
            return Choice(ReactionChoice(unit, NONE), 0.0, why)
    else:
        chosen = next((n for n in names if n != NONE), None)
        if chosen is not None:
            return Choice(ReactionChoice(unit, chosen), 1.0, f"takes the {chosen}")
    return Choice(ReactionChoice(unit, NONE), 0.0, "lets it pass")


def defend_known(battle: Battle, world: World, unit: str, names: list[str]) -> Choice | None:
    """`hard`'s defence: the attack's Hit Roll is known when the window opens (R-A2: the
    defence answers a rolled attack), so each defence is worth its chance to beat that total
    times the damage of a hit, less the defences its Bonus Actions would no longer pay for
    against the attacks still to come before this creature's next turn."""
    acting = battle.resolving
    rolled = next(
        (e for e in reversed(battle.log) if isinstance(e, ev.Rolled) and e.tag is RollKind.HIT),
        None,
    )
    if not isinstance(acting, a.Attack) or rolled is None:
        return None
    plan = plan_attack(world, acting)
    if isinstance(plan, Refusal):
        return None
    odds = attack_odds(world, acting.actor, unit, weapon=plan.weapon, melee=plan.melee)
    per_hit = odds[0].per_hit if odds else 0.0
    # A later attack, its roll unknown: what a defence saves against it on average.
    later = max((o.hit for o in odds), default=0.0) - min((o.hit for o in odds), default=0.0)
    coming = world.need(acting.actor, Budget).half  # each ½ Action another attack
    here = world.need(unit, Position).cell
    for foe in enemies(world, unit):
        there = world.need(foe, Position).cell
        standing_foe = foe != acting.actor and not incapacitated(world, foe)
        if standing_foe and reaches(world, foe, there, here):
            coming += 1
    left = bonus_left(world, unit)

    def worth(option: str) -> float:
        saved = 1.0 - defense_total(world, unit, option).cdf_below(rolled.total)
        price = reaction_price(world, unit, "defence", option, slow=False)
        cost = price.bonus if option != NONE else 0
        short = max(0, coming - (left - cost)) - max(0, coming - left)
        return saved * per_hit - short * later * per_hit

    best = max(names, key=lambda n: (worth(n), n == NONE))
    if best == NONE:
        why = f"lets the Hit Roll {rolled.total} be: a defence is worth more later"
    else:
        why = f"{_VERBS.get(best, best)} against a Hit Roll of {rolled.total}"
    return Choice(ReactionChoice(unit, best), worth(best), why)


def interrupt_value(world: World, unit: str, acting: Action) -> tuple[float, str]:
    """What interrupting `acting` is worth to `unit` over letting it be, in hit points: its
    own strike (the actor may only Dodge it, R-R7) and, with the chance it hits, the action
    lost; less the defences the 2 Bonus Actions would have paid for before its next turn."""
    actor = acting.actor
    weapon = held_weapon(world, unit, melee=True)
    odds = [
        o
        for o in attack_odds(world, unit, actor, weapon=weapon, melee=True)
        if o.defence in ("none", "dodge")
    ]
    worst = min(odds, key=lambda o: o.hit)
    kill = worst.hit if worst.per_hit >= hp(world, actor) else 0.0
    target = getattr(acting, "target", "")
    prevented = 1.0
    if isinstance(acting, a.Attack | a.Trip | a.Disarm | a.Grapple | a.Shove | a.Throw):
        if target and not incapacitated(world, target):
            prevented = foe_damage(world, actor, target)
    elif isinstance(acting, a.Aid):
        prevented = KILL  # a foe back in the fight
    elif isinstance(acting, a.AbilityAction):
        prevented = 4.0
    left = bonus_left(world, unit) - world.rules.reactions.interrupt_bonus
    exposed = 0.0
    if left < world.rules.reactions.defence_bonus:
        # No defence until its next turn: each foe that reaches it strikes harder.
        here = world.need(unit, Position).cell
        for foe in enemies(world, unit):
            if incapacitated(world, foe):
                continue
            there = world.need(foe, Position).cell
            if reaches(world, foe, there, here):
                exposed += _exposure(world, foe, unit)
    gain = worst.hit * (worst.per_hit + prevented) + KILL * kill - exposed
    why = (
        f"interrupts {actor}: {percent(worst.hit)} to hit and stop it"
        if gain > 0
        else f"lets {actor} act: an Interrupt would leave it without a defence"
    )
    return gain, why


def _exposure(world: World, foe: str, unit: str) -> float:
    """How much more one attack of `foe` deals when `unit` cannot defend."""
    odds = foe_odds(world, foe, unit)
    undefended = next((o.damage for o in odds if o.defence == NONE), 0.0)
    return undefended - min(o.damage for o in odds)
