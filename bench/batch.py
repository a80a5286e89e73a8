"""How fast `sim batch` plays: AI-vs-AI 4-vs-4 battles on generated 40x40 maps.

    python bench/batch.py [--games N] [--maps M]

For each of M generated maps (walls, difficult ground, ponds; bench/engine.py's generator) it
plays N games through sim.tools.batch, as `sim batch` does, and prints battles per second per core
at the levels `random`, `easy` and `normal` (medians over the maps; CPU time of one worker),
names the cheapest (the most battles a second: `easy`, which checks a few decisions a turn;
`random` draws from every legal one and plays to the round cap), and the speed-up of 2
workers over 1 at the cheapest (clock time). Goals of the issue "Encounter balance": >= 20
battles/s/core at the cheapest level, and >= 1.8x on 2 workers (a shared machine lowers the
second figure: the load is printed beside it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# The tree this script is in, before any installed `sim` (a worktree's bench measures its own),
# and bench/ for engine.py's maps.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import generated_map  # bench/engine.py, beside this file

from sim.content.scenario import loads
from sim.tools.batch import Plan, run

GOAL_RATE = 20.0
GOAL_SPEEDUP = 1.8
ROUND_CAP = 30
WORKER_SECONDS = 10.0
LEVELS = ("random", "easy", "normal")  # hard plays normal's games over many times: not for sweeps


def rate(plan: Plan, games: int, workers: int) -> float:
    """Battles per second of the clock per worker (what a speed-up compares)."""
    start = time.perf_counter()
    run(plan, games, workers=workers)
    return games / (time.perf_counter() - start) / workers


def cpu_rate(plan: Plan, games: int) -> float:
    """Battles per CPU-second of one worker, which plays in this process: per core by
    definition, and what other work on a shared machine takes from it does not count."""
    start = time.process_time()
    run(plan, games, workers=1)
    return games / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games per map and level")
    parser.add_argument("--maps", type=int, default=3)
    args = parser.parse_args()
    plans = {
        level: [
            Plan(
                loads(generated_map(seed), f"generated-{seed}.toml"),
                (("blue", level), ("red", level)),
                seed=seed,
                round_cap=ROUND_CAP,
            )
            for seed in range(args.maps)
        ]
        for level in LEVELS
    }
    rates = {
        level: statistics.median(cpu_rate(plan, args.games) for plan in plans[level])
        for level in plans
    }
    for level, value in rates.items():
        print(f"{level:7} 1 worker: {value:6.2f} battles/s/core")
    level = max(rates, key=lambda name: rates[name])
    cheapest = rates[level]
    print(f"cheapest level ({level}): {cheapest:.2f} battles/s/core (goal >= {GOAL_RATE:.0f})")
    # Enough games for about 10 s of each worker's time, so that a worker's start (importing,
    # loading the compiled search) is small beside its share of them, as in a real batch.
    games = max(args.games * 2, round(cheapest * 2 * WORKER_SECONDS))
    two = statistics.median(rate(plan, games, 2) * 2 for plan in plans[level])
    one = statistics.median(rate(plan, games, 1) for plan in plans[level])
    load = os.getloadavg()[0]
    print(
        f"2 workers over 1 at {level}: {two / one:.2f}x (goal >= {GOAL_SPEEDUP}; "
        f"load average {load:.1f} on {os.cpu_count()} cores)"
    )
    return 0 if cheapest >= GOAL_RATE and two / one >= GOAL_SPEEDUP else 1


if __name__ == "__main__":
    sys.exit(main())
