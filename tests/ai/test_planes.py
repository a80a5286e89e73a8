"""Issue #11: the AI weighs the threat, menace and nearness to a foe of every cell around a
creature at once (`threat.reached_plane`, `threat.reaching_plane`, `Context.nearest_foe`), and
issue #30 the shelter of a ledge (`Context.sheltered_plane`);
each must be what the one-cell sum gives
(R-A4 reach with heights, R-M7 hanging creatures) on every shipped map, with creatures set down
among their foes, some of them hanging on a face."""

from __future__ import annotations

import random
from pathlib import Path

from sim.ai.context import Context
from sim.content.scenario import load
from sim.core.components import Position
from sim.core.creature import creatures
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.formats.replay import begin
from sim.rules.movement.footing import standing_at

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml"))


def _open(world: World, unit: str, rng: random.Random) -> Pos:
    taken = standing_at(world, unit)
    while True:
        cell = Pos(rng.randrange(world.grid.width), rng.randrange(world.grid.height))
        if world.grid.kind(cell) not in (Kind.WALL, Kind.PIT) and cell not in taken:
            return cell


def test_the_planes_of_threat_menace_and_nearness_are_the_one_cell_answers() -> None:
    rng = random.Random(7)
    cells = threatened = menaced = sheltered = hung = 0
    for path in SCENARIOS:
        world = begin(load(path), 0).world
        units = creatures(world)
        for _ in range(3):
            for unit in units:
                # Scattered, and now and then up a face: heights change who reaches whom.
                up = rng.choice((0.0, 0.0, 0.0, 1.5, 3.0))
                world.set(unit, Position(_open(world, unit, rng), up))
                hung += up > 0
            for unit in units:
                context = Context(world, unit)
                window = context.window
                for y in range(window.y0, window.y1):
                    for x in range(window.x0, window.x1):
                        cell = Pos(x, y)
                        assert context.threat(cell) == context.threat_at(cell), (path.name, cell)
                        assert context.menace(cell) == context.menace_at(cell), (path.name, cell)
                        assert context.nearest_foe(cell) == context.nearest_foe_at(cell)
                        shelter = context.sheltered_plane()[window.local(cell)]
                        assert shelter == context.sheltered_at(cell), (path.name, cell)
                        cells += 1
                        threatened += context.threat_at(cell) > 0
                        menaced += context.menace_at(cell) > 0
                        sheltered += context.sheltered_at(cell) > 0
    print(
        f"{cells} cells compared: {threatened} threatened, {menaced} menaced, "
        f"{sheltered} sheltered; {hung} hanging"
    )
    assert threatened > 1000 and menaced > 1000 and sheltered > 100 and hung > 5
