"""How a battle is won: a side defeated (R-C6), or a scenario's own objectives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.core.components import Position, Stats, Team
from sim.core.creature import able, creatures, incapacitated, team_of
from sim.core.geometry import Pos
from sim.core.world import World


@dataclass(frozen=True, slots=True)
class Reach:
    """A team wins when one of its standing creatures stands on one of these cells."""

    team: str
    cells: tuple[Pos, ...]


@dataclass(frozen=True, slots=True)
class Survive:
    """A team wins when round `rounds + 1` begins and it is not defeated."""

    team: str
    rounds: int


Objective = Reach | Survive


def teams(world: World) -> tuple[str, ...]:
    def seen() -> tuple[str, ...]:
        return tuple(dict.fromkeys(team_of(world, unit) for unit in creatures(world)))

    return world.memo("teams", seen, reads=(Team, Stats))  # no condition changes a side


def standing_teams(world: World) -> tuple[str, ...]:
    """Teams with at least one creature not Incapacitated (R-C6)."""

    # The creatures standing are kept from the journal (issue #30: a change to a condition
    # other than Incapacitated, the most common, leaves them as they were, and their teams).
    standing = able(world)
    sides = world.stamp((Team,))  # a creature changing sides changes them too
    kept: dict[str, Any] = world.kept("standing_teams", dict)
    if kept.get("of") is not standing or kept.get("sides") != sides:
        kept["of"], kept["sides"] = standing, sides
        kept["teams"] = tuple(dict.fromkeys(team_of(world, unit) for unit in standing))
    teams: tuple[str, ...] = kept["teams"]
    return teams


def reached_by(world: World, objective: Reach) -> str | None:
    """The first creature of the objective's team, not Incapacitated, that stands on one of
    its cells, or None."""
    for unit in creatures(world):
        if team_of(world, unit) != objective.team or incapacitated(world, unit):
            continue
        if world.need(unit, Position).cell in objective.cells:
            return unit
    return None


def outcome(world: World, objectives: tuple[Objective, ...]) -> tuple[tuple[str, ...], str] | None:
    """The winners and why, once the battle is decided; None while it goes on."""
    alive = standing_teams(world)
    for objective in objectives:
        if objective.team not in alive:
            continue
        if isinstance(objective, Reach):
            unit = reached_by(world, objective)
            if unit is not None:
                return (objective.team,), f"{unit} reached the objective"
        elif world.turn.round > objective.rounds:
            rounds = f"{objective.rounds} round{'' if objective.rounds == 1 else 's'}"
            return (objective.team,), f"{objective.team} held out for {rounds}"
    if len(alive) <= 1 and len(teams(world)) > 1:
        return alive, "every other side is incapacitated (R-C6)"
    return None
