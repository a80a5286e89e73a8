"""The action budget (R-B): what an action costs after Slow or Quicken, and if it is payable."""

from __future__ import annotations

from sim.actions import Action, Cost, EndTurn, Refusal
from sim.components import Budget, Conditions
from sim.rules import Rules, Tier
from sim.world import World


def shifted_tier(rules: Rules, action: Action) -> Tier | Refusal:
    """The tier after Slow or Quicken, exactly as the text's table gives it (R-B6, R-B7)."""
    if action.slow and action.quicken:
        return Refusal("an action cannot be both Slowed and Quickened")
    if action.slow:
        return rules.slow[action.tier]
    if action.quicken:
        if action.tier not in rules.quicken:
            return Refusal(f"{_a(action.tier.label)} cannot be Quickened")
        return rules.quicken[action.tier]
    return action.tier


def quicken_source(world: World, actor: str) -> bool:
    """R-B6: Quicken needs a source; every source grants the Quickened condition (R-K3)."""
    conditions = world.get(actor, Conditions) or Conditions()
    return conditions.has("quickened")


def price(world: World, action: Action, budget: Budget | None = None) -> Cost | Refusal:
    """The cost of `action` for its actor now, or why the budget cannot pay it (R-B3, R-B4).
    `budget` replaces the actor's own, e.g. the turn's budget an Extended Action gives back."""
    actor = action.actor
    rules = world.rules
    if budget is None:
        budget = world.need(actor, Budget)
    if isinstance(action, EndTurn):
        if action.slow or action.quicken:
            return Refusal("ending the turn cannot be Slowed or Quickened")
        return Cost(Tier.FREE, 0, 0, counts_as_action=False)
    if action.quicken and not quicken_source(world, actor):
        return Refusal(f"{actor} has nothing that Quickens actions (R-B6: Quicken needs a source)")
    tier = shifted_tier(rules, action)
    if isinstance(tier, Refusal):
        return tier
    entry = rules.costs[tier]
    free_kind: str | None = None
    counts = True
    if tier is Tier.FREE:
        counts = False
        free_kind = action.free_kind
        bonus = entry.repeat_bonus if free_kind in budget.free_used else 0
        half = 0
    elif tier in (Tier.FULL, Tier.EXTENDED):
        if budget.acted:
            return Refusal(
                f"{_a(tier.label)} must be the first action of the turn; "
                f"{actor} has already acted this turn"
            )
        if budget.half < rules.half_actions:
            return Refusal(
                f"{_a(tier.label)} takes the whole turn; {actor} has only "
                f"{budget.half} of {rules.half_actions} half-actions left"
            )
        half, bonus = budget.half, budget.bonus
    else:
        half = entry.half or 0
        bonus = entry.bonus or 0
    bonus += action.extra_bonus
    what = f"{action.name.replace('_', ' ').title()} ({tier.label})"
    if half > budget.half:
        return Refusal(
            f"{actor} has only {_count(budget.half, 'half-action')} left; {what} costs {half}"
        )
    if bonus > budget.bonus:
        return Refusal(
            f"{actor} has only {_count(budget.bonus, 'Bonus Action')} left; "
            f"{what} costs {_count(bonus, 'Bonus Action')}"
        )
    return Cost(tier, half, bonus, free_kind, counts)


def _a(label: str) -> str:
    """
    >>> _a("Full Action"), _a("Extended Action"), _a("½ Action")
    ('a Full Action', 'an Extended Action', 'a ½ Action')
    """
    return f"{'an' if label[0] in 'AEIOU' else 'a'} {label}"


def _count(n: int, noun: str) -> str:
    """
    >>> _count(1, "half-action"), _count(0, "Bonus Action")
    ('1 half-action', '0 Bonus Actions')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def refilled(rules: Rules) -> Budget:
    """A fresh turn's budget (R-B2): nothing carries over."""
    return Budget(half=rules.half_actions, bonus=rules.bonus_actions)
