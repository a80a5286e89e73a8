"""The action budget (R-B): what an action costs after Slow or Quicken, and if it is payable."""

from __future__ import annotations

from sim.core.actions import AbilityAction, Action, Cost, EndTurn, Refusal
from sim.core.components import Budget, Conditions, ExtendedAction
from sim.core.condition import Condition
from sim.core.creature import has
from sim.core.numbers import Rules, Tier
from sim.core.world import World


def standard_tier(world: World, action: Action) -> Tier | Refusal:
    """An action's tier before Slow or Quicken: its type's, or for a spell or an ability the tier
    the rules data names (R-X20)."""
    if not isinstance(action, AbilityAction):
        return action.tier
    ability = world.catalog.abilities.get(action.ability)
    if ability is None:
        known = ", ".join(
            name for name, a in world.catalog.abilities.items() if a.kind == action.category
        )
        return Refusal(f"there is no {action.category} {action.ability!r} (known: {known}) (R-X20)")
    return ability.tier


def shifted_tier(rules: Rules, action: Action, standard: Tier | None = None) -> Tier | Refusal:
    """The tier after Slow or Quicken, exactly as the text's table gives it (R-B6, R-B7);
    `standard` is the tier before them when it is not the action type's (R-X20)."""
    tier = action.tier if standard is None else standard
    if action.slow and action.quicken:
        return Refusal("an action cannot be both Slowed and Quickened (R-B6)")
    if action.slow:
        return rules.slow[tier]
    if action.quicken:
        if tier not in rules.quicken:
            return Refusal(f"{_a(tier.label)} cannot be Quickened (R-B6)")
        return rules.quicken[tier]
    return tier


def price(world: World, action: Action, budget: Budget | None = None) -> Cost | Refusal:
    """The cost of `action` for its actor now, or why the budget cannot pay it (R-B3, R-B4).
    `budget` replaces the actor's own, e.g. the turn's budget an Extended Action gives back."""
    if budget is None and not isinstance(action, AbilityAction | EndTurn):
        # Kept while the actor's budget and conditions are (World.memo): a policy prices the
        # same action at every target, and all an action's type, Slow and Quicken aside, is
        # its class's (issue #30: a spent budget's refusal was worded again for each).
        return world.memo(
            ("price", type(action), action.actor, action.slow, action.quicken),
            lambda: _price(world, action, world.need(action.actor, Budget)),
            reads=(Budget, Conditions),
        )
    return _price(world, action, budget if budget is not None else world.need(action.actor, Budget))


def _price(world: World, action: Action, budget: Budget) -> Cost | Refusal:
    actor = action.actor
    rules = world.rules
    if isinstance(action, EndTurn):
        if action.slow or action.quicken:
            return Refusal("ending the turn cannot be Slowed or Quickened (R-B6)")
        return Cost(Tier.FREE, 0, 0, counts_as_action=False)
    standard = standard_tier(world, action)
    if isinstance(standard, Refusal):
        return standard
    # R-B6: Quicken needs a source; every source grants the Quickened condition (R-K3).
    if action.quicken and not has(world, actor, Condition.QUICKENED):
        return Refusal(f"{actor} has nothing that Quickens actions (R-B6: Quicken needs a source)")
    tier = shifted_tier(rules, action, standard)
    if isinstance(tier, Refusal):
        return tier
    slowed = "slowed" if action.slow else ""
    if has(world, actor, Condition.SLOWED) and not action.slow:
        tier = rules.slow[tier]  # R-K3: as if every action were Slowed (R-B6)
        slowed = f"{actor} is Slowed, so"
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
                f"{actor} has already acted this turn (R-B3)"
            )
        if budget.half < rules.budget.half_actions:
            return Refusal(
                f"{_a(tier.label)} takes the whole turn; {actor} has only "
                f"{budget.half} of {rules.budget.half_actions} half-actions left (R-B3)"
            )
        half, bonus = budget.half, budget.bonus
    else:
        half = entry.half or 0
        bonus = entry.bonus or 0
    if action.extra_bonus:
        bonus += rules.sprint.extra_bonus  # R-B3: Sprint's Bonus Action, from the rules data
    if half <= budget.half and bonus <= budget.bonus:
        return Cost(tier, half, bonus, free_kind, counts)
    # Refused: the words are made only now (a policy prices hundreds of actions a decision).
    what = action.name.replace("_", " ").title()
    if isinstance(action, AbilityAction):
        what += f" {action.ability}"  # "Cast frost_grip" (R-X20)
    if slowed:
        return _slowed_refusal(world, action, what, tier, half, bonus, budget, slowed)
    what += f" ({tier.label})"
    if half > budget.half:
        return Refusal(
            f"{actor} has only {_count(budget.half, 'half-action')} left; "
            f"{what} costs {_count(half, 'half-action')} (R-B4)"
        )
    return Refusal(
        f"{actor} has only {_count(budget.bonus, 'Bonus Action')} left; "
        f"{what} costs {_count(bonus, 'Bonus Action')} (R-B4)"
    )


def _slowed_refusal(
    world: World,
    action: Action,
    what: str,
    tier: Tier,
    half: int,
    bonus: int,
    budget: Budget,
    slowed: str,
) -> Refusal:
    """R-B7 **Decision**: Slow is always legal to ask; where the slowed cost cannot be paid,
    the refusal says that the action was slowed, what the slowed cost is, and what is missing.

    "Sprint slowed is a 1½ Action + 1 Bonus Action: 2 half-actions and 3 Bonus Actions, more
    than a turn holds; ana has 2 half-actions and 2 Bonus Actions left: 1 Bonus Action short"
    """
    rules = world.rules
    shape = _a(tier.label)
    if action.extra_bonus:
        shape += f" + {_count(rules.sprint.extra_bonus, 'Bonus Action')}"
    paid = " and ".join(
        _count(n, noun) for n, noun in ((half, "half-action"), (bonus, "Bonus Action")) if n
    )
    beyond = half > rules.budget.half_actions or bonus > rules.budget.bonus_actions
    missing = " and ".join(
        _count(need - have, noun)
        for need, have, noun in (
            (half, budget.half, "half-action"),
            (bonus, budget.bonus, "Bonus Action"),
        )
        if need > have
    )
    head = f"{what} slowed is" if slowed == "slowed" else f"{slowed} {what} is"
    left = f"{_count(budget.half, 'half-action')} and {_count(budget.bonus, 'Bonus Action')}"
    return Refusal(
        f"{head} {shape}: {paid}{', more than a turn holds' if beyond else ''}; "
        f"{action.actor} has {left} left: {missing} short ({'R-B7' if action.slow else 'R-K3'})"
    )


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


def several(tier: Tier, times: int) -> str:
    """The `tier` a `spent` event names for a price of `times` payments of one tier at once,
    which is no rung of the ladder (R-G3's sustain and R-R7's Interrupt cost 2 Bonus Actions),
    so a log reader can check it: `times` × the tier's cost.

    >>> several(Tier.BONUS, 2), several(Tier.HALF, 2), several(Tier.BONUS, 1)
    ('bonus_x2', 'half_x2', 'bonus')
    """
    return tier.value if times == 1 else f"{tier.value}_x{times}"


def refilled(rules: Rules) -> Budget:
    """A fresh turn's budget (R-B2): nothing carries over."""
    return Budget(half=rules.budget.half_actions, bonus=rules.budget.bonus_actions)


def given_back(world: World, action: Action) -> Budget | None:
    """R-B5: the budget `action` is paid from when it breaks an Extended Action in progress,
    the turn's Full Action that the Extended Action had taken given back; None when it is paid
    from the actor's own (no Extended Action, ending the turn, or a free action that is not
    slowed)."""
    if world.get(action.actor, ExtendedAction) is None or isinstance(action, EndTurn):
        return None
    if action.tier is Tier.FREE and not action.slow:
        return None
    return refilled(world.rules)
