"""How fast the engine plays whole battles: a scripted policy on generated 4-vs-4 maps.

The policy is deliberately simple so that the figure measures the engine, not a mind: the acting
creature attacks an adjacent enemy while it can pay for it, otherwise it moves by its reach map
to the reachable cell nearest the nearest enemy, otherwise it ends its turn. Reactions follow
each creature's standing policy ("always", best defence).

    python bench/engine.py [--battles N] [--seed S]

Prints battles per second per core and decisions per second (medians of four runs) for the
generated maps and for `scenarios/skirmish.toml`, then the ten engine functions with the most
cumulative time in a profiled run on the generated maps.
The goal of the issue "Engine core" is >= 50 battles/s/core on the generated maps.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

from sim.actions import Action, Attack, EndTurn, Refusal
from sim.components import Position
from sim.creature import creatures, incapacitated, team_of
from sim.decisions import PARSERS
from sim.engine import AwaitingAction, Battle, BattleOver
from sim.reachmap import reach_map
from sim.replay import begin
from sim.scenario import Scenario, load, loads

ROOT = Path(__file__).resolve().parent.parent
BLUE = ("human_fighter", "dwarf_guard", "elf_skirmisher", "human_fighter")
RED = ("orc_brute", "orc_raider", "orc_brute", "goblin_sneak")
ROUND_CAP = 40
GOAL = 50.0


def generated_map(seed: int, size: int = 40) -> str:
    """A 40x40 scenario: a walled border, scattered walls, difficult ground and ponds; blue
    starts in the west, red in the east."""
    rng = random.Random(seed)
    rows = [["." for _ in range(size)] for _ in range(size)]
    for i in range(size):
        rows[0][i] = rows[size - 1][i] = rows[i][0] = rows[i][size - 1] = "#"
    for _ in range(size * size // 10):
        x, y = rng.randrange(6, size - 6), rng.randrange(1, size - 1)
        rows[y][x] = rng.choice("#,,,~")
    units = []
    for team, templates, x in (("blue", BLUE, 2), ("red", RED, size - 3)):
        for i, template in enumerate(templates):
            y = size // 2 - 4 + 2 * i
            rows[y][x] = "."
            units.append(
                f'[[units]]\nid = "{team}{i}"\nteam = "{team}"\n'
                f'template = "{template}"\nat = [{x}, {y}]\n'
            )
    body = "\n".join("".join(row) for row in rows)
    return f'name = "bench {seed}"\n\n[map]\nrows = """\n{body}\n"""\n\n' + "\n".join(units)


def _chebyshev(a: Position, b: Position) -> int:
    return max(abs(a.cell.x - b.cell.x), abs(a.cell.y - b.cell.y))


def choose(battle: Battle, unit: str) -> Action:
    """The scripted policy's decision for `unit` (see the module docstring)."""
    world = battle.world
    me = world.need(unit, Position)
    team = team_of(world, unit)
    enemies = [
        u for u in creatures(world) if team_of(world, u) != team and not incapacitated(world, u)
    ]
    if not enemies:
        return EndTurn(unit)
    for enemy in sorted(enemies, key=lambda u: _chebyshev(me, world.need(u, Position))):
        attack = Attack(unit, target=enemy)
        if not isinstance(battle.check(attack), Refusal):
            return attack
    spots = [world.need(u, Position).cell for u in enemies]

    def gap(cell: object) -> int:
        return min(max(abs(cell.x - s.x), abs(cell.y - s.y)) for s in spots)  # type: ignore[attr-defined]

    here = gap(me.cell)
    if here > 1:
        cells = reach_map(world, unit)
        best = min(cells.values(), key=lambda c: (gap(c.cell), c.cost), default=None)
        if best is not None and gap(best.cell) < here:
            move = PARSERS[best.action](unit, {"to": [best.cell.x, best.cell.y]}, False, False)
            assert isinstance(move, Action)
            if not isinstance(battle.check(move), Refusal):
                return move
    return EndTurn(unit)


def play(scenario: Scenario, seed: int) -> tuple[int, int]:
    """Play one battle to its end (or the round cap); the decisions taken and rounds played."""
    battle = begin(scenario, seed)
    world = battle.world
    decisions = 0
    while True:
        pending = battle.pending
        if isinstance(pending, BattleOver) or world.turn.round > ROUND_CAP:
            return decisions, world.turn.round
        assert isinstance(pending, AwaitingAction), pending
        outcome = battle.submit(choose(battle, pending.unit))
        assert not isinstance(outcome, Refusal), outcome
        decisions += 1


def measure(scenarios: list[Scenario], battles: int, seed: int) -> tuple[float, float, float]:
    """Battles per second, decisions per second and mean rounds, over `battles` battles."""
    times: list[float] = []
    decisions = rounds = 0
    for i in range(battles):
        scenario = scenarios[i % len(scenarios)]
        start = time.perf_counter()
        taken, played = play(scenario, seed + i)
        times.append(time.perf_counter() - start)
        decisions += taken
        rounds += played
    total = sum(times)
    return battles / total, decisions / total, rounds / battles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--battles", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    generated = [loads(generated_map(args.seed + i), f"<bench map {i}>") for i in range(8)]
    skirmish = load(ROOT / "scenarios" / "skirmish.toml")
    play(generated[0], 0)  # warm-up: numba's compile or cache load is not the engine's speed
    rows = []
    for label, scenarios in (("generated 4v4 40x40", generated), ("skirmish.toml", [skirmish])):
        runs = [measure(scenarios, args.battles // 4 or 1, args.seed + k * 1000) for k in range(4)]
        bps = statistics.median(r[0] for r in runs)
        dps = statistics.median(r[1] for r in runs)
        mean_rounds = statistics.mean(r[2] for r in runs)
        rows.append((label, bps, dps, mean_rounds))
    print(f"{'scenario':<22} {'battles/s/core':>15} {'decisions/s':>12} {'mean rounds':>12}")
    for label, bps, dps, mean_rounds in rows:
        print(f"{label:<22} {bps:>15.2f} {dps:>12.0f} {mean_rounds:>12.1f}")
    ratio = rows[0][1] / GOAL
    verdict = "met" if ratio >= 1 else "NOT met"
    print(f"goal >= {GOAL:.0f} battles/s/core on the generated maps: {verdict} ({ratio:.2f}x)")
    profiler = cProfile.Profile()
    profiler.enable()
    measure(generated, max(4, args.battles // 4), args.seed)
    profiler.disable()
    out = io.StringIO()
    # Only the engine's own functions: the bench's loop would top the list and say nothing.
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(r"/sim/", 10)
    print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
