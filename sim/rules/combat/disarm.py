"""Disarm (R-X5), a 1 Action: a contested melee attack. The disarmer's Hit Roll (R-A1, in its
attack window) against the target's Hit Roll (FCS Roll + FCS Bonus); the higher wins, a tie goes
to the target (R-C4). On success the target's weapon drops to the ground in its cell."""

from __future__ import annotations

from collections.abc import Generator, Iterator

from sim.core import events as ev
from sim.core.actions import Disarm, Refusal
from sim.core.components import Hands, Position
from sim.core.creature import incapacitated
from sim.core.dice import Dice
from sim.core.purpose import AttackKind, RollKind
from sim.core.world import World
from sim.rules.candidates import Scene
from sim.rules.combat.attack import hit_roll, weapon_kind
from sim.rules.combat.checks import acting_wins, roll_check
from sim.rules.combat.items import find
from sim.rules.combat.reactions import Ask, Reply
from sim.rules.reach.target import in_reach

Resolution = Generator[ev.Event | Ask, Reply | None, None]


def weapons(world: World, unit: str) -> tuple[str, ...]:
    """The weapons `unit` holds, in hand order: what a disarm may be after (R-X5)."""
    return tuple(item for item in world.need(unit, Hands).items() if weapon_kind(world, item))


def _weapon(world: World, action: Disarm) -> str | Refusal:
    """The held weapon the disarm is after: `item`, or the target's first held weapon."""
    target = action.target
    if action.item is not None:
        held = world.need(target, Hands).items()
        item = find(world, action.item, held)
        if item is None:
            return Refusal(f"{target} holds no {action.item!r} (R-X5)")
        if weapon_kind(world, item) is None:
            return Refusal(f"{item} is not a weapon; Disarm takes a weapon (R-X5)")
        return item
    held = weapons(world, target)
    return held[0] if held else Refusal(f"{target} holds no weapon to disarm (R-X5)")


def check_disarm(world: World, action: Disarm) -> Refusal | None:
    refusal = in_reach(world, action.actor, action.target, "disarm", "R-X5")
    if refusal is not None:
        return refusal
    item = _weapon(world, action)
    return item if isinstance(item, Refusal) else None


def resolve_disarm(world: World, action: Disarm, dice: Dice) -> Resolution:
    actor, target = action.actor, action.target
    item = _weapon(world, action)
    assert isinstance(item, str)
    mine = yield from hit_roll(world, dice, actor, target, melee=True, purpose="disarm")
    theirs = 0
    if not incapacitated(world, target):  # R-A2 by analogy: an Incapacitated target rolls 0
        roll = roll_check(
            world,
            dice,
            target,
            "fcs",
            f"hold on to {item}: Hit Roll against {actor}",
            tag=RollKind.HOLD_ON,
        )
        yield roll.rolled
        theirs = roll.total
    won = acting_wins(mine, theirs)
    yield ev.AttackResolved(actor, target, "disarm", mine, theirs, won, tag=AttackKind.DISARM)
    if won:
        yield ev.ItemDropped(target, item, world.need(target, Position).cell)


def disarm_candidates(scene: Scene, other: str) -> Iterator[Disarm]:
    """Each item in the hands of anyone in sight and reach."""
    if scene.near(other):
        hands = scene.world.get(other, Hands)
        for item in hands.items() if hands is not None else ():
            yield Disarm(scene.unit, target=other, item=item)
