"""Issue #11: the compiled sum of what a move's Attacks of Opportunity are worth
(`threat.provoked_along`) is the sum over `threat.provocations` of the path the reach map shows,
term for term in the same order (R-R4), on every shipped map with creatures set down among
their foes."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from sim.content.scenario import load
from sim.core.components import Position
from sim.core.creature import creatures, team_of
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.formats.replay import begin
from sim.rules.movement.footing import standing_at
from sim.rules.reach.fields import Field
from sim.rules.reach.reachmap import reach_map
from sim.rules.reach.threat import enemies, provocations, provoked_along

SCENARIOS = sorted((Path(__file__).resolve().parents[3] / "scenarios").glob("*.toml"))


def _near_a_foe(world: World, unit: str, rng: random.Random) -> Pos | None:
    """An open cell next to one of `unit`'s foes, where moves away provoke."""
    taken = standing_at(world, unit)
    foes = [u for u in creatures(world) if team_of(world, u) != team_of(world, unit)]
    spots = [
        cell
        for foe in foes
        for cell in world.need(foe, Position).cell.neighbours()
        if world.grid.inside(cell)
        and world.grid.kind(cell) not in (Kind.WALL, Kind.PIT)
        and world.grid.water_half(cell) == 0
        and cell not in taken
    ]
    return rng.choice(spots) if spots else None


def test_the_compiled_sum_is_the_sum_over_the_provocations_of_the_shown_path() -> None:
    rng = random.Random(11)
    compared = provoking = 0
    for path in SCENARIOS:
        world = begin(load(path), 0).world
        for unit in creatures(world):
            for _ in range(2):
                spot = _near_a_foe(world, unit, rng)
                if spot is None:
                    continue
                world.set(unit, Position(spot))
                foes = enemies(world, unit)
                # Distinct weights per foe, so that a provocation counted for the wrong foe
                # (or twice, or left out) changes the sum.
                weights = np.array([rng.uniform(1, 9) for _ in foes])
                planes: dict[int, tuple[Field, np.ndarray]] = {}
                for cell, offered in reach_map(world, unit).items():
                    field = offered.route
                    if not isinstance(field, Field):
                        continue
                    if id(field) not in planes:
                        asked = field.ground.can_end
                        planes[id(field)] = (
                            field,
                            provoked_along(world, unit, field, weights, asked),
                        )
                    plane = planes[id(field)][1]
                    route = tuple(p for p, _ in offered.path)
                    expected = sum(
                        weights[foes.index(p.enemy)] for p in provocations(world, unit, route)
                    )
                    got = plane[field.window.local(cell)]
                    assert got == expected, (path.name, unit, spot, cell)
                    compared += 1
                    provoking += expected > 0
    print(f"compared {compared} paths, {provoking} of them provoking")
    assert compared > 1000 and provoking > 200
