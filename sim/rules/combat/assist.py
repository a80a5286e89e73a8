"""Assist (R-X21, **Decision**: the text names it as a Bonus Action with no details): a creature
chooses an ally and an enemy, both within its melee reach (R-A4); the ally's next Hit Roll
against that enemy before the start of the assister's next turn gains +2 (as Aim's +2, R-X1).
Once per ally per turn.

The ally holds the help as conditions "assisted" (value: the enemy) and "assisted_by" (value:
the assister); the assister records whom it assisted this turn in "assisting" (value: their ids,
comma-separated), which lapses at the start of its next turn. **Decisions**: any Hit Roll counts
(melee or ranged, an Attack of Opportunity or an Interrupt too); a creature holds one Assist at a
time (a second assister is refused until the first is used or lapses); the enemy must be one the
assister sees (R-X8).
"""

from __future__ import annotations

from collections.abc import Iterator

from sim.core import events as ev
from sim.core.actions import Assist, Refusal
from sim.core.components import Conditions, Position, Stats, Team
from sim.core.condition import Condition
from sim.core.creature import conditions, creatures, is_creature, team_of, unseen_by
from sim.core.dice import Dice
from sim.core.roster import roster
from sim.core.world import World
from sim.rules.candidates import Scene
from sim.rules.combat.hide import cannot_see
from sim.rules.reach.threat import reaches

ASSISTED = Condition.ASSISTED
ASSISTED_BY = Condition.ASSISTED_BY
ASSISTING = Condition.ASSISTING


def assisted_this_turn(world: World, unit: str) -> tuple[str, ...]:
    """The allies `unit` has assisted since its turn started."""
    return conditions(world, unit).creatures(ASSISTING)


def _within_reach(world: World, actor: str, other: str) -> Refusal | None:
    there = world.need(other, Position).cell
    if not reaches(world, actor, world.need(actor, Position).cell, there):
        return Refusal(f"{other} at {there} is out of {actor}'s melee reach (R-X21, R-A4)")
    return None


def check_assist(world: World, action: Assist) -> Refusal | None:
    actor, ally, enemy = action.actor, action.ally, action.enemy
    everyone = creatures(world)
    if not ally or not enemy:
        return Refusal('Assist needs "ally" and "enemy": the ids of two creatures (R-X21)')
    if ally == actor:
        return Refusal(f"{actor} cannot assist itself; Assist helps an ally (R-X21)")
    for who, what in ((ally, "ally"), (enemy, "enemy")):
        if who not in everyone:
            return Refusal(f"there is no creature {who!r} to name as the {what} (R-X21)")
    team = team_of(world, actor)
    if team_of(world, ally) != team:
        return Refusal(f"{ally} is not on {actor}'s side; Assist helps an ally (R-X21)")
    if team_of(world, enemy) == team:
        return Refusal(f"{enemy} is on {actor}'s side; Assist is against an enemy (R-X21)")
    for who in (ally, enemy):
        problem = _within_reach(world, actor, who)
        if problem is not None:
            return problem
    unseen = cannot_see(world, actor, enemy)
    if unseen is not None:
        return unseen
    if ally in assisted_this_turn(world, actor):
        return Refusal(f"{actor} has already assisted {ally} this turn (R-X21: once per ally)")
    held = conditions(world, ally)
    if held.has(ASSISTED):
        return Refusal(
            f"{ally} already has an Assist (from {held.creature(ASSISTED_BY)}, against "
            f"{held.creature(ASSISTED)}); it holds one at a time (R-X21)"
        )
    return None


def resolve_assist(world: World, action: Assist, dice: Dice) -> list[ev.Event]:
    actor, ally = action.actor, action.ally
    return [
        ev.ConditionGained(ally, ASSISTED, action.enemy),
        ev.ConditionGained(ally, ASSISTED_BY, actor),
        ev.ConditionGained(actor, ASSISTING, (*assisted_this_turn(world, actor), ally)),
    ]


def assist_bonus(world: World, attacker: str, target: str) -> tuple[int, list[ev.Event]]:
    """R-X21: what an Assist adds to `attacker`'s Hit Roll against `target`, and the events
    that use it up (nothing when it holds none against that target)."""
    held = conditions(world, attacker)
    if held.creature(ASSISTED) != target:
        return 0, []
    reason = "used on this Hit Roll (R-X21)"
    return world.rules.actions.assist_bonus, [
        ev.ConditionLost(attacker, ASSISTED, reason),
        ev.ConditionLost(attacker, ASSISTED_BY, reason),
    ]


def _assisted(world: World, entity: str) -> bool:
    """A creature holding an Assist: the few `assist_lapses` looks at (issue #30)."""
    return is_creature(world, entity) and conditions(world, entity).has(ASSISTED_BY)


def assist_lapses(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    """Start of `unit`'s turn: the help it gave and did not see used lapses (R-X21 "before the
    start of your next turn"); it may assist each ally again."""
    out: list[ev.Event] = []
    for ally in roster(world, "assisted", _assisted, (Conditions, Team, Stats)):
        if conditions(world, ally).creature(ASSISTED_BY) == unit:
            reason = f"not used before {unit}'s next turn (R-X21)"
            out += [
                ev.ConditionLost(ally, ASSISTED, reason),
                ev.ConditionLost(ally, ASSISTED_BY, reason),
            ]
    if conditions(world, unit).has(ASSISTING):
        out.append(ev.ConditionLost(unit, ASSISTING, "until its next turn"))
    return out


def assist_candidates(scene: Scene, subject: None) -> Iterator[Assist]:
    """Each ally and each enemy it sees, both within its melee reach."""
    world, unit = scene.world, scene.unit
    allies, foes = [], []
    for other in creatures(world):
        if other == unit or not reaches(world, unit, scene.here, world.need(other, Position).cell):
            continue
        if team_of(world, other) == scene.team:
            allies.append(other)
        elif unit not in unseen_by(world, other):
            foes.append(other)
    for ally in allies:
        for enemy in foes:
            yield Assist(unit, ally, enemy)
