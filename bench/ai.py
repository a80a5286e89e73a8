"""How strong each AI level is, how fast it decides and what it chooses: a tournament on every
shipped map, against the goals of issue #29.

    python bench/ai.py [--games N] [--first-seed S] [--round-cap R] [--workers K]
                       [--only SCENARIO] [--pairing STRONG-WEAK]...

Tournament: each pairing (by default `normal-classic`, `hard-normal` and `normal-random`; any
`STRONG-WEAK` of two levels with `--pairing`, repeated for more) is played on every shipped
scenario N times from each side (the first level as blue, then as red; seeds S..S+N-1, S 0
unless `--first-seed` says: fresh seeds for a figure after tuning on the first ones), and the
share of games the first level wins is printed with its 95 % Wilson interval, per scenario
(and won as blue and as red) and in all, against the goal of the pairing: the whole action
economy (`normal`, whose weights are `tactical`'s since issue #29)
beats `classic` (`normal` before issue #29, kept as a baseline) and `hard` beats `normal` in
>= 65 %, `normal` beats `random` in >= 95 %. A game stopped by the round cap counts as not
won. A pairing with a level this tree does not have is named ("unknown AI level classic") and
not played.

Decision time: the CPU time of every decision of every level in every game it played
(`time.thread_time`, so the load of a shared machine does not inflate it), median and 99th
percentile (nearest rank), against the goals: `normal` median <= 10 ms and p99 <= 100 ms,
`hard` median <= 100 ms and p99 <= 1 s.

Choices: the share of each kind of action and reaction in each level's choices (counted as
`sim batch` counts them: accepted actions but End Turn, and reactions taken), and whether `hard`
chose every kind it was offered at least once: a kind is offered when it was legal for a
creature `hard` played at one of its decisions; the kinds the AI lists as never worth choosing
(`NEVER` of sim.ai.evaluators, where the tree has it) are listed apart, not asked of it.

The exit status is 1 when a goal is not met (or a pairing with a goal could not be played),
2 for an argument error.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import textwrap
import time
from collections.abc import Collection, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

# The tree this script is in, before any installed `sim` (a worktree's bench measures its own).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.ai.choice import Choice
from sim.ai.chooser import AI
from sim.ai.seats import play, players, take_seats
from sim.content.scenario import load
from sim.core.actions import Action, EndTurn
from sim.formats.replay import begin
from sim.play.engine import AwaitingAction, AwaitingReaction, Battle, BattleOver, Decision
from sim.play.legal import kinds
from sim.rules.combat.reactions import NONE, reaction_name
from sim.rules.reach.pathfinder import warm_up
from sim.tools.batch import Chosen, Taken, choices, kind_order, percentile, wilson

ROOT = Path(__file__).resolve().parent.parent
# The pairings of issue #29 with the share of games the first level must win.
GOALS = {("normal", "classic"): 0.65, ("hard", "normal"): 0.65, ("normal", "random"): 0.95}
# Decision CPU time goals in ms (median, p99).
TIME_GOALS = {"normal": (10.0, 100.0), "hard": (100.0, 1000.0)}
# The levels whose offered kinds are recorded: `hard` must choose every one at least once.
EVERY_KIND = ("hard",)
# The order levels are listed in, weakest first; a level not named here comes last.
ORDER = ("random", "easy", "classic", "normal", "tactical", "hard")
WIDTH = 100  # the lines the kinds are wrapped to


@dataclass(frozen=True, slots=True)
class Game:
    scenario: str
    strong: str
    weak: str
    strong_side: str
    seed: int
    cap: int

    @property
    def levels(self) -> dict[str, str]:
        weak_side = "red" if self.strong_side == "blue" else "blue"
        return {self.strong_side: self.strong, weak_side: self.weak}


@dataclass(frozen=True, slots=True)
class Result:
    game: Game
    won: bool
    capped: bool
    rounds: int
    times: tuple[tuple[str, tuple[float, ...]], ...]  # (level, seconds per decision) by side
    chosen: tuple[tuple[str, Chosen], ...] = ()  # (level of the side, what it chose)
    offered: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (level, kinds legal at its turns)


class Timed(AI):
    """An AI that keeps how much CPU time each of its choices took (the thread's own time, not
    the wall clock, which other work on a shared machine stretches) and, when `offered` is
    on, the kinds of action and reaction that were legal at each of its decisions (looked up
    outside the timed part)."""

    def __init__(self, level: str, seed: int, *, offered: bool = False) -> None:
        super().__init__(level, seed)
        self.times: list[float] = []
        self.offered: set[str] | None = set() if offered else None

    def choose(self, battle: Battle, avoid: Collection[Decision] = ()) -> Choice:
        if self.offered is not None:
            self.offered |= offered_kinds(battle)
        start = time.thread_time()
        choice = super().choose(battle, avoid)
        self.times.append(time.thread_time() - start)
        return choice


def offered_kinds(battle: Battle) -> set[str]:
    """The kinds of action and reaction legal now, named as `sim batch` counts them."""
    pending = battle.pending
    if isinstance(pending, AwaitingReaction):
        return {reaction_name(pending.kind, o) for o in pending.options if o != NONE}
    if not isinstance(pending, AwaitingAction):
        return set()
    return {
        legal.decision.name
        for legal in kinds(battle, slowed=False)
        if isinstance(legal.decision, Action) and not isinstance(legal.decision, EndTurn)
    }


def play_game(game: Game) -> Result:
    scenario = load(game.scenario)
    battle = begin(scenario, game.seed)
    levels = game.levels
    seated = players(levels, game.seed)
    take_seats(battle, seated)
    timed = {
        team: Timed(ai.level, ai.seed, offered=ai.level in EVERY_KIND)
        for team, ai in seated.items()
    }
    taken = Taken()
    reason = play(battle, dict(timed), round_cap=game.cap, report=taken)
    pending = battle.pending
    won = isinstance(pending, BattleOver) and pending.winners == (game.strong_side,)
    return Result(
        game,
        won,
        reason == "capped",
        battle.world.turn.round,
        tuple((levels[team], tuple(ai.times)) for team, ai in timed.items()),
        tuple((levels[c.team], c) for c in choices(battle.world, taken.actions, battle.log)),
        tuple(
            (levels[team], tuple(sorted(ai.offered)))
            for team, ai in timed.items()
            if ai.offered is not None
        ),
    )


def games(
    paths: Sequence[Path], strong: str, weak: str, n: int, cap: int, first: int = 0
) -> Iterator[Game]:
    for path in paths:
        for side in ("blue", "red"):
            for seed in range(first, first + n):
                yield Game(str(path), strong, weak, side, seed, cap)


def pairing(text: str) -> tuple[str, str]:
    """`STRONG-WEAK` as two level names (argparse type)."""
    strong, dash, weak = text.partition("-")
    if not dash or not strong or not weak:
        raise argparse.ArgumentTypeError(
            f"a pairing is two AI levels, STRONG-WEAK, e.g. hard-normal, not {text!r}"
        )
    return strong, weak


# --- the report --------------------------------------------------------------------------------


@dataclass
class Verdicts:
    """Each goal of the issue with its figure and whether it is met, for the closing table."""

    rows: list[tuple[str, str, bool]] = field(default_factory=list)  # (goal, figure, met)

    def add(self, goal: str, figure: str, met: bool) -> str:
        self.rows.append((goal, figure, met))
        return "met" if met else "NOT met"

    @property
    def failed(self) -> bool:
        return not all(met for _, _, met in self.rows)


def _pct(rate: float) -> str:
    return f"{rate:.0%}"


def _share(rate: float) -> str:
    """A share of choices: "<1%" rather than "0%" for a kind that was chosen."""
    return "<1%" if 0 < rate < 0.005 else _pct(rate)


def tournament(
    strong: str,
    weak: str,
    results: Sequence[Result],
    paths: Sequence[Path],
    verdicts: Verdicts,
    seconds: float | None = None,
) -> list[str]:
    """The lines of one pairing: each scenario's games won with their interval, and in all
    against the pairing's goal."""
    took = f", {seconds:.0f} s wall clock" if seconds is not None else ""
    lines = [
        f"{strong} vs {weak} ({len(results)} games{took})",
        f"  {'scenario':16} {'won':>7} {'95 %':>9} {'as blue':>8} {'as red':>7}"
        f" {'capped':>7} {'rounds':>7}",
    ]
    for path in paths:
        mine = [r for r in results if r.game.scenario == str(path)]
        if not mine:
            continue
        won = sum(r.won for r in mine)
        low, high = wilson(won, len(mine))
        sides = [
            f"{sum(r.won for r in mine if r.game.strong_side == side)}/"
            f"{sum(r.game.strong_side == side for r in mine)}"
            for side in ("blue", "red")
        ]
        capped = sum(r.capped for r in mine)
        rounds = statistics.median(r.rounds for r in mine)
        lines.append(
            f"  {path.stem:16} {won:>3}/{len(mine):<3} {_pct(low):>4}-{_pct(high):<4}"
            f" {sides[0]:>8} {sides[1]:>7} {capped:>7} {rounds:>7.1f}"
        )
    total = sum(r.won for r in results)
    low, high = wilson(total, len(results))
    rate = total / len(results) if results else 0.0
    figure = f"{_pct(rate)} ({_pct(low)}-{_pct(high)})"
    line = f"  {strong} wins {rate:.0%} (95 % interval {_pct(low)}-{_pct(high)})"
    goal = GOALS.get((strong, weak))
    if goal is not None:
        verdict = verdicts.add(f"{strong} vs {weak} wins >= {_pct(goal)}", figure, rate >= goal)
        line += f"; goal >= {_pct(goal)}: {verdict}"
        if rate >= goal > low:
            line += " (its interval reaches below the goal: more games would tell)"
    lines.append(line)
    return lines


def speed(results: Sequence[Result], verdicts: Verdicts) -> list[str]:
    """Each level's decision CPU time over every game it played, against its goals."""
    times: dict[str, list[float]] = {}
    for r in results:
        for level, seconds in r.times:
            times.setdefault(level, []).extend(seconds)
    lines = ["Decision CPU time (every decision of every game a level played)"]
    for level in sorted(times, key=_level_order):
        ms = [t * 1000 for t in times[level]]
        if not ms:
            continue
        median, p99 = statistics.median(ms), percentile(ms, 99)
        line = f"  {level:8} {len(ms):>6} decisions: median {median:.1f} ms, p99 {p99:.0f} ms"
        goals = TIME_GOALS.get(level)
        if goals is not None:
            goal_median, goal_p99 = goals
            a = verdicts.add(
                f"{level} median <= {goal_median:g} ms", f"{median:.1f} ms", median <= goal_median
            )
            b = verdicts.add(f"{level} p99 <= {goal_p99:g} ms", f"{p99:.0f} ms", p99 <= goal_p99)
            line += f"  (goals: median <= {goal_median:g} ms {a}, p99 <= {goal_p99:g} ms {b})"
        lines.append(line)
    return lines


def shares(results: Sequence[Result]) -> list[str]:
    """Each level's choices by kind: every kind with its share, the most chosen first."""
    counts: dict[str, dict[str, int]] = {}
    for r in results:
        for level, c in r.chosen:
            mine = counts.setdefault(level, {})
            mine[c.kind] = mine.get(c.kind, 0) + c.count
    lines = ["Choices by kind (share of each level's actions and reactions; End Turn not counted)"]
    for level in sorted(counts, key=_level_order):
        mine = counts[level]
        total = sum(mine.values())
        ranked = sorted(mine, key=lambda k: (-mine[k], kind_order(k)))
        words = [f"{k.replace('_', ' ')} {_share(mine[k] / total)}" for k in ranked]
        lines += _wrapped(words, f"  {level:8} {total:>6} choices: ")
    return lines


def never_worth() -> dict[str, str]:
    """The kinds the AI lists as never worth choosing, each with its reason (issue #29 asks for
    one such list: `NEVER` of sim.ai.evaluators, in a tree that has it; none in one that does
    not). `hard` is not asked to choose those."""
    try:
        module = importlib.import_module("sim.ai.evaluators")
    except ImportError:
        return {}
    return dict(getattr(module, "NEVER", {}))


def every_kind(
    results: Sequence[Result], verdicts: Verdicts, exempt: Mapping[str, str] | None = None
) -> list[str]:
    """Whether each EVERY_KIND level chose every kind it was offered at least once, but those
    `exempt` (by default `never_worth`), which are listed apart."""
    exempt = never_worth() if exempt is None else exempt
    lines: list[str] = []
    for level in EVERY_KIND:
        games = [set(ks) for r in results for lv, ks in r.offered if lv == level]
        offered: set[str] = set().union(*games)
        if not offered:
            continue
        chose = {c.kind for r in results for lv, c in r.chosen if lv == level and c.count}
        asked = offered - exempt.keys()
        never = sorted(asked - chose, key=kind_order)
        verdict = verdicts.add(
            f"{level} chooses every kind it is offered",
            f"{len(asked) - len(never)} of {len(asked)}",
            not never,
        )
        lines.append(
            f"{level} chose {len(asked) - len(never)} of the {len(asked)} kinds of action and "
            f"reaction it was offered at least once; goal: every one: {verdict}"
        )
        if never:
            # How rare each one's chance was: a kind offered in a game or two says less.
            rare = [
                f"{k.replace('_', ' ')} ({sum(k in g for g in games)} of {len(games)} games)"
                for k in never
            ]
            lines += _wrapped(rare, "  never chosen (offered in): ")
        apart = sorted(offered & exempt.keys(), key=kind_order)
        if apart:
            words = [k.replace("_", " ") for k in apart]
            lines += _wrapped(words, "  also offered, never worth choosing by the AI's own list: ")
    return lines


def _wrapped(items: Sequence[str], head: str) -> list[str]:
    """`items` after `head`, comma-separated and wrapped to WIDTH under it, never inside one."""
    glued = ", ".join(item.replace(" ", "\u00a0") for item in items)  # textwrap keeps NBSPs
    lines = textwrap.wrap(glued, WIDTH, initial_indent=head, subsequent_indent=" " * len(head))
    return [line.replace("\u00a0", " ") for line in lines] or [head + "none"]


def closing(verdicts: Verdicts, skipped: Sequence[tuple[str, str]]) -> list[str]:
    """The goals of issue #29, each with its figure and met or NOT met."""
    lines = ["Goals of issue #29"]
    width = max([len(goal) for goal, _, _ in verdicts.rows] + [30])
    for goal, figure, met in verdicts.rows:
        lines.append(f"  {goal:<{width}}  {figure:>14}  {'met' if met else 'NOT met'}")
    for strong, weak in skipped:
        share = GOALS.get((strong, weak))
        if share is not None:
            words = f"{strong} vs {weak} wins >= {_pct(share)}"
            lines.append(f"  {words:<{width}}  {'not played':>14}  NOT met")
    return lines


def _level_order(level: str) -> tuple[int, str]:
    return (ORDER.index(level), "") if level in ORDER else (len(ORDER), level)


def unknown(level: str) -> str | None:
    """Why this tree has no AI level `level` (the AI's own words, which list the levels it
    has), or None when it has it."""
    try:
        AI(level, 0)
    except ValueError as error:
        return str(error)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per scenario and side")
    parser.add_argument(
        "--first-seed", type=int, default=0, help="the first game's seed (default 0)"
    )
    parser.add_argument("--round-cap", type=int, default=30)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", help="one scenario file instead of every shipped one")
    parser.add_argument(
        "--pairing",
        type=pairing,
        action="append",
        metavar="STRONG-WEAK",
        help="play this pairing (repeat for more); default: "
        + ", ".join(f"{s}-{w}" for s, w in GOALS),
    )
    args = parser.parse_args(argv)
    asked = args.pairing is not None
    pairings: list[tuple[str, str]] = list(dict.fromkeys(args.pairing or GOALS))
    missing = {level: why for pair in pairings for level in pair if (why := unknown(level))}
    skipped = [p for p in pairings if p[0] in missing or p[1] in missing]
    for level, why in missing.items():
        named = ", ".join(f"{s}-{w}" for s, w in skipped if level in (s, w))
        print(
            f"bench/ai.py: unknown AI level {level} ({why}): "
            f"{'cannot play' if asked else 'not playing'} {named}",
            file=sys.stderr if asked else sys.stdout,  # an error, or a line of the report
        )
    if missing and asked:
        return 2
    pairings = [p for p in pairings if p not in skipped]
    paths = [Path(args.only)] if args.only else sorted((ROOT / "scenarios").glob("*.toml"))
    verdicts = Verdicts()
    every: list[Result] = []
    # The AI's speed is the compiled engine's: no process interprets its first searches.
    warm_up()
    pool = (
        ProcessPoolExecutor(max_workers=args.workers, initializer=warm_up)
        if args.workers > 1
        else None
    )
    try:
        for strong, weak in pairings:
            start = time.perf_counter()
            todo = list(games(paths, strong, weak, args.games, args.round_cap, args.first_seed))
            results = list(pool.map(play_game, todo) if pool else map(play_game, todo))
            every += results
            elapsed = time.perf_counter() - start
            print()
            print("\n".join(tournament(strong, weak, results, paths, verdicts, elapsed)))
    finally:
        if pool is not None:
            pool.shutdown()
    for section in (speed(every, verdicts), shares(every), every_kind(every, verdicts)):
        if section:
            print()
            print("\n".join(section))
    print()
    print("\n".join(closing(verdicts, skipped)))
    return 1 if verdicts.failed or any(p in GOALS for p in skipped) else 0


if __name__ == "__main__":
    sys.exit(main())
