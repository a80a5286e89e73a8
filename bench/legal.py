"""How long `legal_decisions` takes on the shipped scenarios: the figure an AI pays every
decision (sim/play/legal.py).

The states are those of battles on every map of scenarios/ played by a seeded random policy
that chooses among `legal_decisions` itself (an action kind first, then one of its decisions,
as tests/play/test_legal.py does), every creature's reactions asked of it so that windows open too.
Each call's CPU time is measured (the process's, so other work on a shared machine does not
count); the median and the 99th percentile are printed per scenario and overall, for every call
and for the calls at a turn's start, whole budget left, where the lists are longest.

    python bench/legal.py [--seeds N] [--steps N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# The tree this script is in, before any installed `sim` (a worktree's bench measures its own).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.content.scenario import load
from sim.core.components import Budget
from sim.core.creature import creatures
from sim.formats.replay import begin
from sim.play.engine import AwaitingAction, Battle, BattleOver, ReactionChoice, SetPolicy
from sim.play.legal import Legal, legal_decisions
from sim.rules.budget import refilled
from sim.rules.reach.pathfinder import warm_up

ROOT = Path(__file__).resolve().parent.parent


def _kind(legal: Legal) -> str:
    decision = legal.decision
    if isinstance(decision, ReactionChoice):
        return f"reaction:{decision.choice.split(',')[0]}"
    return str(getattr(decision, "name", type(decision).__name__))


def _p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def timings(battle: Battle, rng: random.Random, steps: int) -> list[tuple[str, float]]:
    """Milliseconds per `legal_decisions` call over up to `steps` decisions of random play,
    each with what waited: "fresh" (a turn with its whole budget), "turn" or "reaction"."""
    for unit in creatures(battle.world):
        battle.submit(SetPolicy(unit, "ask"))
    out: list[tuple[str, float]] = []
    for _ in range(steps):
        pending = battle.pending
        if isinstance(pending, BattleOver):
            break
        what = "reaction"
        if isinstance(pending, AwaitingAction):
            left = battle.world.need(pending.unit, Budget)
            what = "fresh" if left == refilled(battle.world.rules) else "turn"
        start = time.process_time()
        listed = legal_decisions(battle)
        out.append((what, (time.process_time() - start) * 1000))
        kinds = sorted({_kind(legal) for legal in listed})
        if isinstance(pending, AwaitingAction) and len(kinds) > 1 and rng.random() < 0.7:
            kinds.remove("end_turn")  # let turns run long enough to do things
        kind = rng.choice(kinds)
        battle.submit(rng.choice([legal for legal in listed if _kind(legal) == kind]).decision)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--steps", type=int, default=120)
    args = parser.parse_args(argv)
    paths = sorted((ROOT / "scenarios").glob("*.toml"))
    warm_up()  # the compiled engine, not a process's first searches interpreted
    timings(begin(load(paths[0]), 0), random.Random(0), 5)  # warm-up: the first calls' costs
    every: list[tuple[str, float]] = []
    head = f"{'calls':>6} {'median ms':>10} {'p99 ms':>8}"
    print(f"{'':<20} {'every call':^26}   {'whole budget left':^26}")
    print(f"{'scenario':<20} {head}   {head}")
    for path in paths:
        scenario = load(path)
        times: list[tuple[str, float]] = []
        for seed in range(1, args.seeds + 1):
            times += timings(begin(scenario, seed), random.Random(seed), args.steps)
        every += times
        _row(path.stem, times)
    _row("all", every)
    return 0


def _row(label: str, times: list[tuple[str, float]]) -> None:
    """Every call, then those made at a turn's start (its whole budget left: the longest lists)."""
    cells = []
    for sample in ([t for _, t in times], [t for what, t in times if what == "fresh"]):
        cells.append(f"{len(sample):>6} {statistics.median(sample):>10.2f} {_p99(sample):>8.2f}")
    print(f"{label:<20} {cells[0]}   {cells[1]}")


if __name__ == "__main__":
    sys.exit(main())
