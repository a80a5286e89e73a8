"""A toy battle loop in plain Python: the reference the engine's speed is compared with.

It plays rules of the same shape as the engine's on bench/engine.py's generated maps, with
bench/engine.py's scripted policy, written the plain way a small game would be: a grid of
walls, difficult ground and water (which costs double here); eight-way movement at 1 m
orthogonally and 1.5 m diagonally, no corner cutting past a wall, no entering an occupied
cell; a turn budget of two actions (a Walk of Speed/3 metres or an Attack for one, a Run of
Speed metres for both); initiative by a roll; an Attack rolls d8+7 against the target's d10+2
and, while the target still has its reaction this round, its Dodge d8+3 on top; a hit deals
d8+2. A battle ends when one side is down, or at the round cap. Movement is a Dijkstra over
the map bounded by what the budget pays, as the engine's reach map is.

    python bench/toy.py [--battles N] [--seed S] [--side K]

prints battles per CPU-second (per core) on the generated maps. bench/goals.py runs it beside
the engine in the same process, for the goal "the engine >= 1.0x the toy loop".
"""

from __future__ import annotations

import argparse
import heapq
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import ROUND_CAP, generated_map  # bench/engine.py, beside this file

HP = 12
SPEED = 9  # metres a Run covers; a Walk covers a third (R-M1's divisor)
ORTHOGONAL, DIAGONAL = 2, 3  # half-metres
STEPS = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]


@dataclass(slots=True)
class Unit:
    name: str
    team: str
    x: int
    y: int
    hp: int = HP
    halves: int = 4  # half-actions left this turn
    reaction: bool = True


@dataclass(slots=True)
class Toy:
    """One battle: the map's rows ('#' wall, ',' difficult, '~' water) and the units."""

    rows: list[str]
    units: list[Unit]
    rng: random.Random
    occupied: dict[tuple[int, int], Unit] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.occupied = {(u.x, u.y): u for u in self.units}

    def enemies(self, me: Unit) -> list[Unit]:
        return [u for u in self.units if u.team != me.team and u.hp > 0]

    def reach(self, me: Unit, budget: int) -> dict[tuple[int, int], int]:
        """Half-metres to every cell `me` can end a move in within `budget` half-metres."""
        best = {(me.x, me.y): 0}
        queue = [(0, me.x, me.y)]
        rows = self.rows
        while queue:
            cost, x, y = heapq.heappop(queue)
            if cost > best[x, y]:
                continue
            for dx, dy in STEPS:
                nx, ny = x + dx, y + dy
                ground = rows[ny][nx]
                if ground == "#" or (nx, ny) in self.occupied:
                    continue
                if dx and dy and "#" in (rows[y][nx], rows[ny][x]):
                    continue  # no cutting a wall's corner
                step = DIAGONAL if dx and dy else ORTHOGONAL
                if ground in ",~" or rows[y][x] in ",~":
                    step *= 2
                total = cost + step
                if total <= budget and total < best.get((nx, ny), budget + 1):
                    best[nx, ny] = total
                    heapq.heappush(queue, (total, nx, ny))
        del best[me.x, me.y]
        return best

    def attack(self, me: Unit, target: Unit) -> None:
        me.halves -= 2
        roll = self.rng.randint(1, 8) + 7
        defence = self.rng.randint(1, 10) + 2
        if target.reaction:
            target.reaction = False
            defence += self.rng.randint(1, 8) + 3
        if roll > defence:
            target.hp -= self.rng.randint(1, 8) + 2
            if target.hp <= 0:
                del self.occupied[target.x, target.y]

    def turn(self, me: Unit) -> int:
        """Play `me`'s turn by the scripted policy; the decisions it took."""
        me.halves, me.reaction = 4, True
        decisions = 0
        while True:
            enemies = self.enemies(me)
            if not enemies:
                return decisions
            decisions += 1
            gap = {id(u): max(abs(u.x - me.x), abs(u.y - me.y)) for u in enemies}
            near = min(enemies, key=lambda u: gap[id(u)])
            if gap[id(near)] == 1 and me.halves >= 2:
                self.attack(me, near)
                continue
            if me.halves < 2 or gap[id(near)] == 1:
                return decisions  # End Turn
            budget = SPEED * 2 if me.halves == 4 else SPEED * 2 // 3
            cells = self.reach(me, budget)
            here = gap[id(near)]
            best = None
            for (x, y), cost in cells.items():
                to = min(max(abs(u.x - x), abs(u.y - y)) for u in enemies)
                if best is None or (to, cost) < best[0]:
                    best = ((to, cost), x, y)
            if best is None or best[0][0] >= here:
                return decisions
            del self.occupied[me.x, me.y]
            me.x, me.y = best[1], best[2]
            self.occupied[me.x, me.y] = me
            me.halves -= 4 if me.halves == 4 else 2

    def play(self) -> tuple[int, int]:
        """The battle to its end or the round cap: decisions taken and rounds played."""
        order = sorted(self.units, key=lambda u: -self.rng.randint(1, 20))
        decisions = 0
        for played in range(1, ROUND_CAP + 1):
            for unit in order:
                if unit.hp > 0:
                    decisions += self.turn(unit)
                if len({u.team for u in self.units if u.hp > 0}) < 2:
                    return decisions, played
        return decisions, ROUND_CAP


UNIT = re.compile(r'id = "(\w+)"\nteam = "(\w+)"\ntemplate = "\w+"\nat = \[(\d+), (\d+)\]')


def battle(text: str, seed: int) -> Toy:
    """A toy battle on a generated map's scenario text (its rows and its units' places)."""
    rows = text.split('"""\n')[1].split('\n"""')[0].split("\n")
    units = [Unit(n, team, int(x), int(y)) for n, team, x, y in UNIT.findall(text)]
    return Toy(rows, units, random.Random(seed))


def measure(texts: list[str], battles: int, seed: int) -> tuple[float, float, float]:
    """Battles per CPU-second, decisions per CPU-second and mean rounds, as engine.measure."""
    spent = 0.0
    decisions = rounds = 0
    for i in range(battles):
        toy = battle(texts[i % len(texts)], seed + i)
        start = time.process_time()
        taken, played = toy.play()
        spent += time.process_time() - start
        decisions += taken
        rounds += played
    return battles / spent, decisions / spent, rounds / battles


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--battles", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--side", type=int, default=4, help="creatures a side")
    args = parser.parse_args()
    texts = [generated_map(args.seed + i, per_side=args.side) for i in range(8)]
    bps, dps, rounds = measure(texts, args.battles, args.seed)
    print(f"toy loop: {bps:.1f} battles/s/core, {dps:.0f} decisions/s, {rounds:.1f} mean rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
