"""Turns and rounds (R-T, R-U5): initiative, the start-of-turn and end-of-turn steps in order."""

from __future__ import annotations

from collections.abc import Callable

from sim.core import events as ev
from sim.core.components import AttackWindow, Budget, ExtendedAction, Stats
from sim.core.condition import Condition
from sim.core.creature import conditions, creatures, incapacitated
from sim.core.dice import Dice
from sim.core.purpose import RollKind
from sim.core.world import World
from sim.rules.combat.assist import assist_lapses
from sim.rules.combat.checks import roll_check
from sim.rules.combat.grapple import sustain_grapple
from sim.rules.combat.health import damage
from sim.rules.combat.prepare import Prepared

# A step gets the world, the creature whose turn starts or ends, and the battle's dice.
Step = Callable[[World, str, Dice], list[ev.Event]]


def roll_initiative(world: World, dice: Dice) -> list[ev.Event]:
    """R-T1: AGI Roll + AGI Bonus once; ties go to the higher AGI Bonus, then a seeded draw."""
    out: list[ev.Event] = []
    keys: dict[str, tuple[int, int, tuple[int, ...]]] = {}
    for unit in creatures(world):
        roll = roll_check(
            world, dice, unit, "agi", "initiative", tag=RollKind.INITIATIVE
        )  # AGI Roll + AGI Bonus
        out.append(roll.rolled)
        out.append(ev.InitiativeRolled(unit, roll.total))
        keys[unit] = (roll.total, world.need(unit, Stats).attribute("agi").bonus, ())
    # Draw among exact ties until no two tied creatures drew the same (R-T1).
    die = world.rules.initiative.tie_break_die
    redraws = world.rules.initiative.max_redraws
    for _ in range(redraws):
        groups: dict[tuple[int, int, tuple[int, ...]], list[str]] = {}
        for unit in keys:
            groups.setdefault(keys[unit], []).append(unit)
        tied = [group for group in groups.values() if len(group) > 1]
        if not tied:
            break
        for group in tied:
            for unit in group:
                draw = dice.roll(die)
                words = "initiative tie-break draw"
                tag = RollKind.INITIATIVE_TIE_BREAK
                out.append(ev.Rolled(unit, words, die, draw, 0, draw, tag=tag))
                score, bonus, draws = keys[unit]
                keys[unit] = (score, bonus, (*draws, draw))
    # Dice that tie every time (only loaded ones can) leave the rest in scenario order; the
    # sort is stable, so that is deterministic too.
    order = sorted(keys, key=lambda u: tuple(-k for k in _flat(keys[u])))
    out.append(ev.InitiativeOrder(tuple(order)))
    return out


def _flat(key: tuple[int, int, tuple[int, ...]]) -> tuple[int, ...]:
    return (key[0], key[1], *key[2])


# --- the start of a turn (R-T2), run in the order read -------------------------------------


def _refill(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    rules = world.rules
    return [ev.BudgetRefilled(unit, rules.budget.half_actions, rules.budget.bonus_actions)]


# Effects that last "until the creature's next turn" (R-X3, R-X9, R-X14; R-G2's once a turn).
UNTIL_NEXT_TURN = (
    Condition.BRACED,
    Condition.EVADING,
    Condition.GUARDING,
    Condition.GUARD_USED,
    Condition.BREAK_FREE_TRIED,
)


def _expire(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    held = conditions(world, unit)
    return [
        ev.ConditionLost(unit, name, "until its next turn")
        for name in UNTIL_NEXT_TURN
        if held.has(name)
    ]


def _burning(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    """R-K4: 1 fire damage per stack, then one stack fades."""
    stacks = conditions(world, unit).count(Condition.BURNING)
    if stacks <= 0:
        return []
    per = world.rules.conditions.burning_damage_per_stack
    fade = world.rules.conditions.burning_fade_per_turn
    out = damage(world, unit, stacks * per, "fire", "burning", dealer=None)
    left = stacks - fade
    out.append(
        ev.ConditionGained(unit, Condition.BURNING, left)
        if left > 0
        else ev.ConditionLost(unit, Condition.BURNING, "the flames died out")
    )
    return out


def _bleeding(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    """R-K5: 1 damage per stack; stacks do not fade by themselves."""
    stacks = conditions(world, unit).count(Condition.BLEEDING)
    if stacks <= 0:
        return []
    per = world.rules.conditions.bleeding_damage_per_stack
    return damage(world, unit, stacks * per, "bleeding", "bleeding", dealer=None)


def _extended(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    """R-B3: an Extended Action takes a Full Action on each turn in a row."""
    extended = world.get(unit, ExtendedAction)
    if extended is None:
        return []
    budget = world.need(unit, Budget)
    return [
        ev.Spent(unit, extended.action, "extended", budget.half, budget.bonus),
        ev.ExtendedContinued(unit, extended.action, extended.turns_done + 1, extended.turns_needed),
    ]


def _attack_window(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    """R-A1: the attack window resets at the start and at the end of the creature's turn."""
    return [ev.AttackWindowReset(unit)] if world.has(unit, AttackWindow) else []


# Steps that change hit points are followed by a fresh look at the world, so each sees the last.
def _plan_lapses(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    """R-P3: a plan whose trigger did not come in a full round is given up when the creature's
    next turn starts; it acts normally (and may prepare again)."""
    if world.has(unit, Prepared):
        return [ev.PlanDropped(unit, "a full round passed without its trigger (R-P3)")]
    return []


START_OF_TURN: tuple[Step, ...] = (
    _plan_lapses,
    _refill,
    _attack_window,
    _expire,
    assist_lapses,  # R-X21: the help given last turn lapses; each ally may be helped again
    _burning,
    _bleeding,
    sustain_grapple,  # R-T2, R-G3: after Burning and Bleeding, before an Extended Action
    _extended,
)


def _counts_down(condition: Condition) -> Step:
    """A condition that lasts a number of the creature's turn ends: Quickened and Slowed
    (R-K3)."""

    def step(world: World, unit: str, dice: Dice) -> list[ev.Event]:
        turns = conditions(world, unit).count(condition)
        if turns <= 0:
            return []
        if turns == 1:
            return [ev.ConditionLost(unit, condition, "its duration ran out")]
        return [ev.ConditionGained(unit, condition, turns - 1)]

    return step


def _finish_extended(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    """R-B3: an Extended Action resolves at the end of its last turn."""
    extended = world.get(unit, ExtendedAction)
    if extended is None or extended.turns_done < extended.turns_needed:
        return []
    if extended.action == "don":
        return [ev.ArmourDonned(unit, extended.item)]
    return [ev.ArmourDoffed(unit, extended.item)]


def _disengage(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    """R-R5: an unused Disengage does not outlast the turn."""
    if conditions(world, unit).has(Condition.DISENGAGED):
        return [ev.ConditionLost(unit, Condition.DISENGAGED, "the turn ended")]
    return []


END_OF_TURN: tuple[Step, ...] = (
    _finish_extended,
    _counts_down(Condition.QUICKENED),
    _counts_down(Condition.SLOWED),
    _attack_window,
    _disengage,
)  # R-X10 Decision: an unused Feint's bonus is kept until its melee Hit Roll: no expiry


def next_in_order(world: World) -> tuple[str, bool]:
    """The creature after the current one, and whether a new round begins (R-U5)."""
    order = world.turn.order
    index = world.turn.index + 1
    return (order[0], True) if index >= len(order) else (order[index], False)


def skip_reason(world: World, unit: str) -> str | None:
    """Why a creature's turn is passed over, if it is (R-K2)."""
    if incapacitated(world, unit):
        return "incapacitated"
    return None
