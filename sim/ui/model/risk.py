"""Decisions a click should not take at once (no pygame): a move whose result is rolled (a
Sprint's distance, an Attack of Opportunity a foe with a Bonus Action may take), whose roll no
undo can take back (sim/ui/model/session.py: undo stops at a dice roll), and an attack that
expects no damage at all (a fist against armour), which only spends its half-action. The
client asks for a second click or Enter before it submits one, and its tip says why first."""

from __future__ import annotations

from collections.abc import Iterable

from sim.core.actions import Attack, Movement, Refusal, Sprint
from sim.core.world import World
from sim.play.engine import Decision
from sim.play.odds import attack_odds
from sim.rules.combat.attack import plan_attack, weapon_kind
from sim.rules.reach.opportunity import Provocation, foreseen

# Said after the reason, in the tip and the status line, while a second click is awaited.
NO_UNDO = "its roll cannot be undone"


def warning(
    world: World, decision: Decision, provocations: Iterable[Provocation] | None = None
) -> str:
    """Why `decision` waits for a second click, in words ("" when it goes at once).
    `provocations`: what a move provokes, as the client planned it (a Climb that stops part-way
    leaves its face from where it hangs); worked out from the move's path when not given."""
    if isinstance(decision, Sprint):
        return f"a Sprint rolls its distance (AGI Roll + Bonus), and {NO_UNDO}"
    if isinstance(decision, Movement):
        if provocations is None:
            provocations = foreseen(world, decision.actor, type(decision), decision.path)
        foes = list(dict.fromkeys(p.enemy for p in provocations if p.can_react))
        if foes:
            who = ", ".join(foes)
            return f"the move leaves {who}'s reach: {who} may attack, and {NO_UNDO}"
        return ""
    if isinstance(decision, Attack):
        return nothing_dealt(world, decision)
    return ""


def nothing_dealt(world: World, attack: Attack) -> str:
    """An attack whose hits deal 0 damage after the target's armour (R-A3): what it is made
    with and why it is pointless, or "" (also for one the engine would refuse)."""
    plan = plan_attack(world, attack)
    if isinstance(plan, Refusal):
        return ""
    found = attack_odds(world, attack.actor, attack.target, weapon=plan.weapon, melee=plan.melee)
    if not found or any(odds.per_hit > 0 for odds in found):
        return ""
    kind = weapon_kind(world, plan.weapon)
    what = kind.name.replace("_", " ") if kind is not None else "fist"
    return (
        f"{attack.actor}'s {what} deals 0 damage a hit to {attack.target} after armour: the "
        "attack only spends its cost"
    )
