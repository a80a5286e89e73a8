"""Reactions (R-R): the windows a resolving action opens for other creatures, which defences a
creature can use, how a policy answers a window, and Disengage (R-R5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sim.core import events as ev
from sim.core.actions import Disengage, Refusal
from sim.core.catalog import Shield, Weapon
from sim.core.components import Budget, Hands, Policy, Stats
from sim.core.condition import Condition
from sim.core.creature import has, incapacitated, item_kind
from sim.core.dice import Dice
from sim.core.numbers import ReactionRules, Tier
from sim.core.world import World
from sim.rules.budget import several

NONE = "none"


@dataclass(frozen=True, slots=True)
class Ask:
    """A resolver's question to `unit`: react to `trigger` with one of `options` ("none" too).
    The engine answers it from the creature's policy, or waits for its player (R-R8).
    `source`: the creature whose attack, move or action opened the window; `roll`: the Hit
    Roll a defence or a Catch answers (0 for the other windows), for a policy that weighs it."""

    unit: str
    kind: str  # "defence", "attack_of_opportunity", "interrupt", "catch"
    trigger: str
    options: tuple[str, ...]
    source: str = ""
    roll: int = 0


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer the engine sends back for an Ask: the option chosen, and whether the reaction
    is slowed (R-B7: paid one step slower on the ladder)."""

    choice: str
    slow: bool = False


# What each reaction costs (R-R1..R-R7): its Bonus Actions in the rules data, by window.
_COSTS: dict[str, Callable[[ReactionRules], int]] = {
    "defence": lambda costs: costs.defence_bonus,
    "attack_of_opportunity": lambda costs: costs.opportunity_bonus,
    "interrupt": lambda costs: costs.interrupt_bonus,
    "catch": lambda costs: costs.catch_bonus,
}


@dataclass(frozen=True, slots=True)
class ReactionPrice:
    """What a reaction costs: the tier the `spent` event names ("bonus", "half", or "TIER_xN"
    for N payments at once, budget.several), the half-actions and Bonus Actions, and in words."""

    tier: str
    half: int
    bonus: int
    words: str


def reaction_name(kind: str, option: str) -> str:
    """The `spent` action of a reaction: "dodge", "attack_of_opportunity", "catch"...

    >>> reaction_name("defence", "parry"), reaction_name("catch", "catch, dropping ana.club")
    ('parry', 'catch')
    """
    return kind if kind in ("attack_of_opportunity", "interrupt") else option.split(",")[0]


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def reaction_price(world: World, unit: str, kind: str, option: str, *, slow: bool) -> ReactionPrice:
    """What answering a `kind` window with `option` costs `unit` now: its Bonus Actions, or
    nothing for a Parry or Block that Guard pays (R-X14). **Decision** (R-B7) slowed, each
    payment is one step slower on the ladder (R-B6's table): a Bonus Action becomes a ½ Action
    (1 half-action), so a slowed Interrupt (2 Bonus Actions) costs 2 half-actions; a Parry
    that Guard pays becomes a Bonus Action."""
    rules = world.rules
    guarded = (
        kind == "defence" and option in ("parry", "block") and has(world, unit, Condition.GUARDING)
    )
    count = 1 if guarded else _COSTS[kind](rules.reactions)
    tier = Tier.FREE if guarded else Tier.BONUS
    if slow:
        tier = rules.slow[tier]
    entry = rules.costs[tier]
    half, bonus = (entry.half or 0) * count, (entry.bonus or 0) * count
    paid = [_plural(n, noun) for n, noun in ((half, "half-action"), (bonus, "Bonus Action")) if n]
    label = tier.label
    each = f"{'an' if label[0] in 'AEIOU' else 'a'} {label}" if count == 1 else f"{count} × {label}"
    words = f"{each}: {' and '.join(paid) or 'nothing'}"
    return ReactionPrice(several(tier, count), half, bonus, words)


def reaction_refusal(
    world: World, unit: str, kind: str, option: str, *, slow: bool
) -> Refusal | None:
    """Why `unit` cannot pay that reaction now (R-B4, R-B7), or None. Half-actions are spent
    only on a creature's own turn (R-B2): between its turns it has none."""
    price = reaction_price(world, unit, kind, option, slow=slow)
    budget = world.get(unit, Budget) or Budget(0, 0)
    own_turn = world.turn.current == unit
    half = budget.half if own_turn else 0
    missing = [
        _plural(need - have, noun)
        for need, have, noun in (
            (price.half, half, "half-action"),
            (price.bonus, budget.bonus, "Bonus Action"),
        )
        if need > have
    ]
    if not missing:
        return None
    what = reaction_name(kind, option).replace("_", " ").title().replace(" Of ", " of ")
    left = f"{_plural(half, 'half-action')} and {_plural(budget.bonus, 'Bonus Action')}"
    has_left = f"{unit} has {left} left"
    if not own_turn:
        has_left += " (half-actions only on its own turn)"
    slowed = "slowed, " if slow else ""
    return Refusal(
        f"{slowed}{what} is {price.words}; {has_left}: {' and '.join(missing)} short"
        + (" (R-B7)" if slow else " (R-R8)")
    )


def reaction_spent(world: World, unit: str, kind: str, option: str, *, slow: bool) -> ev.Spent:
    """The `spent` event of a reaction (R-R8, R-B7): no action of the turn's (R-B3 "first")."""
    price = reaction_price(world, unit, kind, option, slow=slow)
    return ev.Spent(
        unit, reaction_name(kind, option), price.tier, price.half, price.bonus, None, False
    )


def bonus_left(world: World, unit: str) -> int:
    budget = world.get(unit, Budget)
    return budget.bonus if budget is not None else 0


def can_react(world: World, unit: str, cost: int) -> bool:
    """R-R8: only with the Bonus Actions the reaction needs; never while Incapacitated (R-K2)."""
    return not incapacitated(world, unit) and bonus_left(world, unit) >= cost


def held_weapon(world: World, unit: str, *, melee: bool) -> str | None:
    """The first held weapon of the kind asked for (melee: not `ranged`)."""
    for item in world.need(unit, Hands).items():
        kind = world.catalog.get(item_kind(world, item))
        if isinstance(kind, Weapon) and (kind.ranged is None) == melee:
            return item
    return None


def held_shield(world: World, unit: str) -> str | None:
    for item in world.need(unit, Hands).items():
        if isinstance(world.catalog.get(item_kind(world, item)), Shield):
            return item
    return None


def parry_attribute(stats: Stats) -> str:
    """A Parry rolls STR or AGI, whichever gives more on average."""

    def mean(name: str) -> float:
        a = stats.attribute(name)
        return (a.die + 1) / 2 + a.bonus

    return max(("str", "agi"), key=mean)


def parry_weapons(world: World, unit: str) -> tuple[Weapon, ...]:
    """The kinds of the weapons `unit` holds, melee or ranged: R-R2 parries with any of them."""
    kinds = (world.catalog.get(item_kind(world, item)) for item in world.need(unit, Hands).items())
    return tuple(kind for kind in kinds if isinstance(kind, Weapon))


def parry_rating(world: World, unit: str) -> int:
    """The best Parry Rating among the held weapons (R-R2; a Parry Rating of 0 still parries);
    0 with none, when no Parry can be made."""
    return max((kind.parry for kind in parry_weapons(world, unit)), default=0)


def block_rating(world: World, unit: str) -> int:
    """The Block Rating of the held shield; 0 without one."""
    shield = held_shield(world, unit)
    kind = world.catalog.get(item_kind(world, shield)) if shield else None
    return kind.block if isinstance(kind, Shield) else 0


def defence_options(world: World, unit: str, *, dodge_only: bool = False) -> tuple[str, ...]:
    """Which defences `unit` could add now (R-R1..R-R3, R-X14): Dodge not while Prone, Parry
    against any attack, melee, ranged, thrown or a spell's, with a held weapon (R-R2), Block
    with a shield; Guard pays a Parry or Block."""
    if incapacitated(world, unit):
        return ()
    paid = bonus_left(world, unit) >= world.rules.reactions.defence_bonus
    guard = has(world, unit, Condition.GUARDING)
    out = []
    if paid and not has(world, unit, Condition.PRONE):
        out.append("dodge")
    if not dodge_only:
        if (paid or guard) and parry_weapons(world, unit):
            out.append("parry")
        if (paid or guard) and held_shield(world, unit) is not None:
            out.append("block")
    return tuple(out)


def expected_defence(world: World, unit: str, option: str) -> float:
    """The average a defence adds, to choose the "best" one for a policy."""
    stats = world.need(unit, Stats)
    braced = 2 if has(world, unit, Condition.BRACED) else 1

    def mean(name: str, bonus_factor: int = 1) -> float:
        a = stats.attribute(name)
        return (a.die + 1) / 2 + a.bonus * bonus_factor

    if option == "dodge":
        return mean("agi", 2 if has(world, unit, Condition.EVADING) else 1)
    if option == "parry":
        return mean(parry_attribute(stats)) + parry_rating(world, unit)
    if option == "block":
        return mean("res") * braced + block_rating(world, unit)
    return 0.0


def policy_answer(world: World, ask: Ask) -> str | None:
    """The answer the scripted policies give: "always" the first option (the best defence by
    its average), "never" none; None for "ask", whose player must choose. The engine answers
    for "auto" itself, by the odds (sim/play/auto.py), which rules may not read."""
    policy = world.get(ask.unit, Policy) or Policy()
    if policy.reactions == "never":
        return NONE
    if policy.reactions == "ask":
        return None
    choices = [o for o in ask.options if o != NONE]
    if not choices:
        return NONE
    if ask.kind != "defence":
        return choices[0]
    if policy.defence == "none":
        return NONE
    if policy.defence in choices:
        return policy.defence
    return max(choices, key=lambda o: (expected_defence(world, ask.unit, o), -choices.index(o)))


# --- Disengage (R-R5) ------------------------------------------------------------------------


def check_disengage(world: World, action: Disengage) -> Refusal | None:
    if has(world, action.actor, Condition.DISENGAGED):
        return Refusal(f"{action.actor} has already disengaged for its next move (R-R5)")
    return None


def resolve_disengage(world: World, action: Disengage, dice: Dice) -> list[ev.Event]:
    return [ev.ConditionGained(action.actor, Condition.DISENGAGED, 1)]


def disengage_lapses(world: World, unit: str, moving: bool) -> list[ev.Event]:
    """R-R5: Disengage covers only the Movement Action directly after it."""
    if has(world, unit, Condition.DISENGAGED) and not moving:
        return [
            ev.ConditionLost(unit, Condition.DISENGAGED, "no Movement Action directly after it")
        ]
    return []
