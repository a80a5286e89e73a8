"""Is each shipped scenario fair: every one played AI `normal` against `normal` as
`sim batch --fairness` plays it, its sides' win rates with 95 % Wilson intervals written to
docs/fairness.md.

    python bench/fairness.py [--games N] [--workers K] [--seed S] [--only NAME ...]
                             [--out docs/fairness.md]

A scenario passes when each side wins 40 % to 60 % of its games with the interval inside 35 % to
65 % (sim/tools/fairness.py), or when its description says it is deliberately uneven and by how
much ("deliberately uneven: blue wins about 80 %") and the side named wins within 10 points of
that. Exit status 1 when a scenario does neither. The issue asks for at least 400 games a
scenario (the default); a few dozen (`--games 60`) give a first look while tuning a map.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The tree this script is in, before any installed `sim` (a worktree's bench measures its own).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.content.scenario import Scenario, load
from sim.tools import fairness
from sim.tools.batch import Plan

ROOT = Path(__file__).resolve().parent.parent
LEVELS = (("blue", "normal"), ("red", "normal"))
ROUND_CAP = 30  # sim batch's default
CLAIM_SLACK = 0.10  # a side said to win about N % must win within 10 points of it
CLAIM = re.compile(
    r"deliberately uneven\b.*?\b(\w+) wins about (\d+) ?%", re.IGNORECASE | re.DOTALL
)


@dataclass(frozen=True, slots=True)
class Claim:
    """What a description says of a deliberately uneven scenario: `team` wins about `rate`."""

    team: str
    rate: float


def claim(description: str) -> Claim | None:
    """The unevenness a description declares, if it declares one.

    >>> claim("Hold the bridge. Deliberately uneven: red wins about 70 % (one against three).")
    Claim(team='red', rate=0.7)
    >>> claim("An even fight.") is None
    True
    """
    found = CLAIM.search(description)
    return Claim(found.group(1), int(found.group(2)) / 100) if found else None


@dataclass(frozen=True, slots=True)
class Result:
    """One scenario's fairness: its summary, the unevenness it declares, and the verdict."""

    name: str
    scenario: Scenario
    summary: Mapping[str, Any]
    declared: Claim | None
    seconds: float

    @property
    def fair(self) -> Mapping[str, Any]:
        return self.summary["fairness"]

    @property
    def as_declared(self) -> bool | None:
        """Whether the side a declared unevenness names wins within CLAIM_SLACK of it (None
        without a declaration, or when it names no side of the scenario)."""
        if self.declared is None or self.declared.team not in self.fair["sides"]:
            return None
        rate = self.fair["sides"][self.declared.team]["win_rate"]
        return rate is not None and abs(rate - self.declared.rate) <= CLAIM_SLACK + 1e-12

    @property
    def passes(self) -> bool:
        return self.fair["verdict"] == "fair" or bool(self.as_declared)

    def judgement(self) -> str:
        if self.fair["verdict"] == "fair":
            return "fair"
        if self.declared is None:
            return f"NOT FAIR ({self.fair['verdict']}), and its description does not say so"
        said = f"{self.declared.team} wins about {self.declared.rate:.0%}"
        if self.as_declared:
            return f"uneven as its description says ({said})"
        return f"NOT AS DESCRIBED: the description says {said}"


def play(name: str, scenario: Scenario, games: int, workers: int, seed: int) -> Result:
    start = time.perf_counter()
    plan = Plan(scenario, LEVELS, seed=seed, round_cap=ROUND_CAP)
    records = fairness.play(plan, games, workers=workers)
    summary = fairness.summarize(plan, records, games)
    took = time.perf_counter() - start
    return Result(name, scenario, summary, claim(scenario.description), took)


def markdown(results: Sequence[Result], args: argparse.Namespace, seconds: float) -> str:
    """docs/fairness.md: a row per scenario, then how it is judged."""
    command = f"python bench/fairness.py --games {args.games} --workers {args.workers}"
    command += f" --seed {args.seed}"
    lines = [
        "# Fairness of the shipped scenarios",
        "",
        f"Written by `{command}` (do not edit by hand) in {seconds / 60:.1f} minutes. Each "
        f"scenario is played {args.games} times with the AI at `normal` on both sides, as "
        "`sim batch SCENARIO --fairness` plays it (round cap 30; with the same level on both "
        "sides there is one game a seed: swapping the levels would play the same game again). "
        "Rates are of all games played; the intervals are 95 % Wilson intervals.",
        "",
        "A scenario is **fair** when each side wins 40 % to 60 % of its games and the interval "
        "lies inside 35 % to 65 %. A scenario that is not says in its description that it is "
        '*deliberately uneven* and by how much ("blue wins about 80 %"); the bench checks that '
        "the side named wins within 10 points of what is said, and fails (exit status 1) on a "
        "scenario that is neither fair nor as described. `sim batch SCENARIO --fairness "
        "--heatmap FILE.png` draws where each side's fights were decided.",
        "",
        "| scenario | games | blue wins (95 %) | red wins (95 %) | draws | capped | rounds "
        "(mean) | verdict |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        s = r.summary
        sides = [_side_cell(r.fair["sides"].get(team)) for team in ("blue", "red")]
        mean = s["rounds"]["mean"]
        cells = [
            f"{r.name} ({r.scenario.name})",
            str(s["played"]),
            *sides,
            str(s["draws"]),
            str(s["capped"]),
            "-" if mean is None else f"{mean:.1f}",
            r.judgement(),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## What each scenario says of itself", ""]
    for r in results:
        lines.append(f"- **{r.name}**: {r.scenario.description}")
    lines.append("")
    return "\n".join(lines)


def _side_cell(side: Mapping[str, Any] | None) -> str:
    if side is None or side["win_rate"] is None:
        return "-"
    low, high = side["wilson_95"]
    return f"{side['win_rate']:.1%} ({low:.1%}–{high:.1%})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games a scenario (default 400)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="base seed of every batch")
    parser.add_argument("--only", nargs="*", default=None, help="only these scenarios (stems)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "fairness.md")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        print("bench/fairness.py: --games and --workers must be 1 or more", file=sys.stderr)
        return 2
    paths = sorted((ROOT / "scenarios").glob("*.toml"))
    unknown = sorted(set(args.only or ()) - {p.stem for p in paths})
    if unknown:
        print(f"bench/fairness.py: no shipped scenario {', '.join(unknown)}", file=sys.stderr)
        return 2
    began = time.perf_counter()
    results = []
    for path in paths:
        if args.only is not None and path.stem not in args.only:
            continue
        result = play(path.stem, load(str(path)), args.games, args.workers, args.seed)
        results.append(result)
        print(f"{path.stem}: {args.games} games in {result.seconds:.0f} s")
        for line in fairness.lines(result.fair):
            print("  " + line)
        print("  " + result.judgement(), flush=True)
    seconds = time.perf_counter() - began
    args.out.write_text(markdown(results, args, seconds), encoding="utf-8")
    failing = [r.name for r in results if not r.passes]
    print(
        f"wrote {args.out} in {seconds / 60:.1f} min; "
        + (
            f"neither fair nor as described: {', '.join(failing)}"
            if failing
            else "every scenario passes"
        )
    )
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
