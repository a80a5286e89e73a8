"""Interrupt (R-R7): which actions an adjacent enemy may interrupt, and the window that opens
before any of them resolves.

Every action that is not movement can be interrupted: a melee or ranged attack, a spell, an
ability, a throw, a toss, Administer, Aid, a Draw... (the text's list is examples). **Decisions**:
a Movement Action is not (R-R7 "not movement"); neither is ending the turn, which is no action;
nor Skip / Prepare, which is refraining from acting (the prepared action itself can be
interrupted when it is taken); nor letting go of a grapple, which a grappler may do at any time
(R-G4).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable

from sim.core import events as ev
from sim.core.actions import AbilityAction, Action, Attack, EndTurn, Prepare, Throw
from sim.core.dice import Dice
from sim.core.world import World
from sim.rules.combat.attack import AttackPlan, interrupts, plan_attack
from sim.rules.combat.reactions import Ask, Reply

Resolution = Generator[ev.Event | Ask, Reply | None, None]


def _article(words: str) -> str:
    """
    >>> _article("Administer"), _article("Toss")
    ('an Administer', 'a Toss')
    """
    return f"{'an' if words[0] in 'AEIOU' else 'a'} {words}"


def interruptible(world: World, action: Action) -> str | None:
    """What an interrupter sees `action` start as ("a melee attack", "casting firebolt"), or
    None when it cannot be interrupted (the module's Decisions)."""
    if action.movement or action.reaction or isinstance(action, EndTurn | Prepare):
        return None
    if isinstance(action, Attack):
        plan = plan_attack(world, action)
        melee = not isinstance(plan, AttackPlan) or plan.melee
        return "a melee attack" if melee else "a ranged attack"
    if isinstance(action, Throw):
        return "a throw"
    if isinstance(action, AbilityAction):
        ability = world.catalog.abilities.get(action.ability)
        if ability is not None:
            return ability.verb
    return _article(action.name.replace("_", " ").title())


def guarded(
    world: World, dice: Dice, action: Action, resolve: Callable[[], Iterable[ev.Event | Ask]]
) -> Resolution:
    """R-R7, R-R8: the Interrupt windows open before `action` resolves; an interrupt that hits
    loses the action (its cost stays spent), else `resolve()` resolves it as usual. It is called
    only then, so the action reads the world, and rolls its dice, after the interrupts."""
    what = interruptible(world, action)
    if what is not None:
        lost = yield from interrupts(world, dice, action.actor, what)
        if lost:
            return
    yield from resolve()
