"""The battle-over summary (no pygame): who won and why, how many rounds it took, and for
each creature the damage it dealt and took and how it ended."""

from __future__ import annotations

from collections import Counter

from sim.core import events as ev
from sim.core.components import Health
from sim.core.creature import creatures, incapacitated, team_of
from sim.play.engine import Battle, BattleOver
from sim.ui.words.wording import rule_ids


def summary(battle: Battle) -> list[str]:
    """The lines of the battle-over screen; empty while the battle goes on.

    Damage dealt is counted for a Damaged event's `dealer`, the creature whose weapon, throw or
    spell it was; a fall or a fire is nobody's."""
    pending = battle.pending
    if not isinstance(pending, BattleOver):
        return []
    world = battle.world
    dealt: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    for event in battle.log:
        if isinstance(event, ev.Damaged):
            taken[event.unit] += event.amount
            if event.dealer is not None:
                dealt[event.dealer] += event.amount
    won = ", ".join(w.upper() for w in pending.winners) or "nobody"
    lines = [f"{won} wins after {world.turn.round} round{'s' if world.turn.round != 1 else ''}"]
    if pending.reason:
        lines.append(rule_ids(pending.reason)[0])
    for unit in creatures(world):
        health = world.get(unit, Health)
        state = "down" if incapacitated(world, unit) else "standing"
        hp = f", HP {health.hp}/{health.max_hp}" if health is not None else ""
        lines.append(
            f"{unit} ({team_of(world, unit)}): dealt {dealt[unit]}, took {taken[unit]}{hp}, {state}"
        )
    return lines
