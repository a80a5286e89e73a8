"""Reactions (R-R): the windows a resolving action opens for other creatures, which defences a
creature can use, how a policy answers a window, and Disengage (R-R5)."""

from __future__ import annotations

from dataclasses import dataclass

from sim import events as ev
from sim.actions import Disengage, Refusal
from sim.catalog import Shield, Weapon
from sim.components import Budget, Hands, Policy, Stats
from sim.creature import has, incapacitated, item_kind
from sim.dice import Dice
from sim.world import World

NONE = "none"


@dataclass(frozen=True, slots=True)
class Ask:
    """A resolver's question to `unit`: react to `trigger` with one of `options` ("none" too).
    The engine answers it from the creature's policy, or waits for its player (R-R8)."""

    unit: str
    kind: str  # "defence", "attack_of_opportunity", "interrupt", "catch"
    trigger: str
    options: tuple[str, ...]


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


def parry_rating(world: World, unit: str) -> int:
    """The Parry Rating of the held melee weapon; 0 unarmed."""
    weapon = held_weapon(world, unit, melee=True)
    kind = world.catalog.get(item_kind(world, weapon)) if weapon else None
    return kind.parry if isinstance(kind, Weapon) else 0


def block_rating(world: World, unit: str) -> int:
    """The Block Rating of the held shield; 0 without one."""
    shield = held_shield(world, unit)
    kind = world.catalog.get(item_kind(world, shield)) if shield else None
    return kind.block if isinstance(kind, Shield) else 0


def defence_options(
    world: World, unit: str, *, melee: bool, dodge_only: bool = False
) -> tuple[str, ...]:
    """Which defences `unit` could add now (R-R1..R-R3, R-X14): Dodge not while Prone, Parry
    only against melee and with a weapon, Block with a shield; Guard pays a Parry or Block."""
    if incapacitated(world, unit):
        return ()
    paid = bonus_left(world, unit) >= int(world.rules.number("reactions", "defence_bonus"))
    guard = has(world, unit, "guarding")
    out = []
    if paid and not has(world, unit, "prone"):
        out.append("dodge")
    if not dodge_only:
        if melee and (paid or guard) and held_weapon(world, unit, melee=True) is not None:
            out.append("parry")
        if (paid or guard) and held_shield(world, unit) is not None:
            out.append("block")
    return tuple(out)


def expected_defence(world: World, unit: str, option: str) -> float:
    """The average a defence adds, to choose the "best" one for a policy."""
    stats = world.need(unit, Stats)
    braced = 2 if has(world, unit, "braced") else 1

    def mean(name: str, bonus_factor: int = 1) -> float:
        a = stats.attribute(name)
        return (a.die + 1) / 2 + a.bonus * bonus_factor

    if option == "dodge":
        return mean("agi", 2 if has(world, unit, "evading") else 1)
    if option == "parry":
        return mean(parry_attribute(stats)) + parry_rating(world, unit)
    if option == "block":
        return mean("res") * braced + block_rating(world, unit)
    return 0.0


def policy_answer(world: World, ask: Ask) -> str | None:
    """The answer the creature's standing policy gives, or None when its player must choose."""
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
    if has(world, action.actor, "disengaged"):
        return Refusal(f"{action.actor} has already disengaged for its next move (R-R5)")
    return None


def resolve_disengage(world: World, action: Disengage, dice: Dice) -> list[ev.Event]:
    return [ev.ConditionGained(action.actor, "disengaged", 1)]


def disengage_lapses(world: World, unit: str, moving: bool) -> list[ev.Event]:
    """R-R5: Disengage covers only the Movement Action directly after it."""
    if has(world, unit, "disengaged") and not moving:
        return [ev.ConditionLost(unit, "disengaged", "no Movement Action directly after it")]
    return []
