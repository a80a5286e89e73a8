"""How fast the AI decides, and how strong each level is: a tournament on every shipped map.

    python bench/ai.py [--games N] [--round-cap R] [--workers K] [--only SCENARIO]

Decision time: the CPU time of every decision of the stronger level over the games of each
pairing (`time.thread_time`, so the load of a shared machine does not inflate it), median and
99th percentile; `normal`'s against the goals of the issue "Legal decisions, exact odds,
and an AI" (median < 50 ms, p99 < 500 ms), `hard`'s against median < 200 ms, p99 < 1.5 s (it
looks ahead, and must stay playable in the client). Tournament: on every shipped scenario,
each pairing is played N times from each side (the stronger level as blue, then as red; seeds
0..N-1), and the share of games the stronger level wins is printed with its 95 % Wilson
interval, per scenario (and won as blue and as red) and in all, against
the goals: `normal` beats `random` in >= 95 %, `hard` beats `normal` in >= 60 %. A game stopped
by the round cap counts as not won.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Collection, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from sim.ai.choice import Choice
from sim.ai.chooser import AI
from sim.ai.seats import play, players, take_seats
from sim.content.scenario import load
from sim.formats.replay import begin
from sim.play.engine import Battle, BattleOver, Decision
from sim.tools.batch import wilson

ROOT = Path(__file__).resolve().parent.parent
PAIRINGS = (("normal", "random", 0.95), ("hard", "normal", 0.60))
# Decision CPU time goals in ms (median, p99): normal's are the issue's, hard's what keeps
# the client playable.
TIME_GOALS = {"normal": (50.0, 500.0), "hard": (200.0, 1500.0)}


@dataclass(frozen=True, slots=True)
class Game:
    scenario: str
    strong: str
    weak: str
    strong_side: str
    seed: int
    cap: int


@dataclass(frozen=True, slots=True)
class Result:
    game: Game
    won: bool
    capped: bool
    rounds: int
    times: tuple[float, ...]  # seconds per decision of the strong side


class Timed(AI):
    """An AI that keeps how much CPU time each of its choices took: the thread's own time, not
    the wall clock, which other work on a shared machine stretches."""

    def __init__(self, level: str, seed: int) -> None:
        super().__init__(level, seed)
        self.times: list[float] = []

    def choose(self, battle: Battle, avoid: Collection[Decision] = ()) -> Choice:
        start = time.thread_time()
        choice = super().choose(battle, avoid)
        self.times.append(time.thread_time() - start)
        return choice


def play_game(game: Game) -> Result:
    scenario = load(game.scenario)
    battle = begin(scenario, game.seed)
    weak_side = "red" if game.strong_side == "blue" else "blue"
    levels = {game.strong_side: game.strong, weak_side: game.weak}
    seated = players(levels, game.seed)
    take_seats(battle, seated)
    strong = Timed(seated[game.strong_side].level, seated[game.strong_side].seed)
    seated[game.strong_side] = strong
    reason = play(battle, seated, round_cap=game.cap)
    pending = battle.pending
    won = isinstance(pending, BattleOver) and pending.winners == (game.strong_side,)
    return Result(game, won, reason == "capped", battle.world.turn.round, tuple(strong.times))


def games(paths: list[Path], strong: str, weak: str, n: int, cap: int) -> Iterator[Game]:
    for path in paths:
        for side in ("blue", "red"):
            for seed in range(n):
                yield Game(str(path), strong, weak, side, seed, cap)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per scenario and side")
    parser.add_argument("--round-cap", type=int, default=30)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", help="one scenario file instead of every shipped one")
    parser.add_argument(
        "--pairing",
        choices=[f"{strong}-{weak}" for strong, weak, _ in PAIRINGS],
        help="only this pairing",
    )
    args = parser.parse_args()
    paths = [Path(args.only)] if args.only else sorted((ROOT / "scenarios").glob("*.toml"))
    failed = False
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for strong, weak, goal in PAIRINGS:
            if args.pairing not in (None, f"{strong}-{weak}"):
                continue
            start = time.perf_counter()
            results = list(
                pool.map(play_game, games(paths, strong, weak, args.games, args.round_cap))
            )
            elapsed = time.perf_counter() - start
            print(f"\n{strong} vs {weak} ({len(results)} games, {elapsed:.0f} s wall clock)")
            print(
                f"  {'scenario':16} {'won':>7} {'95 %':>9} {'as blue':>8} {'as red':>7}"
                f" {'capped':>7} {'rounds':>7}"
            )
            for path in paths:
                mine = [r for r in results if r.game.scenario == str(path)]
                won = sum(r.won for r in mine)
                low, high = wilson(won, len(mine))
                sides = [
                    f"{sum(r.won for r in mine if r.game.strong_side == side)}/"
                    f"{sum(r.game.strong_side == side for r in mine)}"
                    for side in ("blue", "red")
                ]
                capped = sum(r.capped for r in mine)
                rounds = statistics.median(r.rounds for r in mine)
                print(
                    f"  {path.stem:16} {won:>3}/{len(mine):<3} {low:>4.0%}-{high:<4.0%}"
                    f" {sides[0]:>8} {sides[1]:>7} {capped:>7} {rounds:>7.1f}"
                )
            total = sum(r.won for r in results)
            low, high = wilson(total, len(results))
            rate = total / len(results)
            verdict = "meets" if rate >= goal else "BELOW"
            print(
                f"  {strong} wins {rate:.0%} (95 % interval {low:.0%}-{high:.0%}); "
                f"goal >= {goal:.0%}: {verdict}"
            )
            failed |= rate < goal
            times = sorted(t for r in results for t in r.times)
            median = statistics.median(times) * 1000
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
            # `hard` looks ahead and may take longer than `normal`, as long as it stays
            # playable in the client.
            goal_median, goal_p99 = TIME_GOALS[strong]
            print(
                f"  {strong} decision CPU time over {len(times)} decisions:"
                f" median {median:.1f} ms (goal < {goal_median:.0f}),"
                f" p99 {p99:.0f} ms (goal < {goal_p99:.0f})"
            )
            failed |= median >= goal_median or p99 >= goal_p99
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
