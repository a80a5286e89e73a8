"""The balance report: R-A2's bands measured by AI-vs-AI batches, written to docs/balance.md.

    python bench/balance.py [--games N] [--quick] [--workers K] [--seed S] [--only NAME ...]
                            [--out docs/balance.md]

Plays every shipped scenario, and a 1-vs-1 duel between every pair of the templates that
bench/balance.toml lists (on a small open map made here), through sim.batch with the AI at
`normal` on both sides. For each it writes the first-attack hit rate by the defence the target
chose (with counts), mean and median rounds, win rates with 95 % Wilson intervals, and the share
of games stopped by the round cap, then prints each figure against its band (bench/balance.toml)
and exits 1 when one is outside it. `--quick` plays few games (a few minutes here): its figures
are rough, and rates on too few attacks are shown but not judged.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.batch import DEFENCES, Plan, run, summarize
from sim.catalog import default_catalog
from sim.reactions import NONE
from sim.scenario import Scenario, load, loads

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).with_suffix(".toml")
LEVELS = (("blue", "normal"), ("red", "normal"))

DUEL_MAP = """
[map]
rows = \"\"\"
##########
#........#
#..a..b..#
#........#
##########
\"\"\"
"""


@dataclass(frozen=True, slots=True)
class Check:
    """One figure against its band."""

    subject: str
    figure: str
    value: float | None
    low: float | None
    high: float | None
    note: str = ""

    @property
    def judged(self) -> bool:
        return self.value is not None and not self.note

    @property
    def ok(self) -> bool:
        if not self.judged:
            return True
        assert self.value is not None
        return (self.low is None or self.value >= self.low) and (
            self.high is None or self.value <= self.high
        )

    def line(self) -> str:
        band = f"[{_fmt(self.low)}, {_fmt(self.high)}]"
        if self.value is None:
            verdict = "no data"
        elif self.note:
            verdict = "not judged: " + self.note
        else:
            verdict = "ok" if self.ok else "OUT OF BAND"
        return (
            f"{self.subject:<34} {self.figure:<22} {_fmt(self.value):>6}  band {band:<14} {verdict}"
        )


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if value < 1.5 else f"{value:.1f}"


def duel(a: str, b: str) -> Scenario:
    """A 1-vs-1 duel of two templates on a small open map, four cells apart: a Walk and an
    Attack close the gap, so the first round is not all approach."""
    text = (
        f'name = "Duel: {a} v {b}"\nseed = 1\n{DUEL_MAP}\n'
        f'[[units]]\nid = "{a}_blue"\nteam = "blue"\ntemplate = "{a}"\nat = "a"\n\n'
        f'[[units]]\nid = "{b}_red"\nteam = "red"\ntemplate = "{b}"\nat = "b"\n'
    )
    return loads(text, f"duel-{a}-{b}.toml")


def checks(
    subject: str,
    summary: Mapping[str, Any],
    config: Mapping[str, Any],
    *,
    is_duel: bool,
    even: bool,
) -> list[Check]:
    """Every figure of one batch that R-A2 or the issue puts a band on."""
    bands = config["bands"]
    least = int(config["judging"]["min_attacks"])
    out = []
    for defence in DEFENCES:
        c = summary["first_attack_counts"][defence]
        rate = summary["first_attack_hit_rate"][defence]
        low, high = bands[f"hit_{defence}"]
        note = "" if c["attacks"] >= least else f"{c['attacks']} attacks (< {least})"
        out.append(Check(subject, f"hit rate, {_words(defence)}", rate, low, high, note))
    played = summary["played"]
    if is_duel:
        low, high = bands["duel_rounds"]
        out.append(Check(subject, "mean rounds", summary["rounds"]["mean"], low, high))
    capped = summary["capped"] / played if played else None
    out.append(Check(subject, "share capped", capped, None, bands["capped_max"]))
    if even:
        for team, side in summary["sides"].items():
            figure = f"win rate, {team}"
            out.append(Check(subject, figure, side["win_rate"], None, bands["even_win_max"]))
    return out


def _words(defence: str) -> str:
    return "no defence" if defence == NONE else defence


def pooled(summaries: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """First attacks of many batches added up, by defence."""
    total = {d: {"attacks": 0, "hits": 0} for d in DEFENCES}
    for s in summaries:
        for d in DEFENCES:
            total[d]["attacks"] += s["first_attack_counts"][d]["attacks"]
            total[d]["hits"] += s["first_attack_counts"][d]["hits"]
    return total


def pooled_checks(
    subject: str, counts: Mapping[str, Mapping[str, int]], config: Mapping[str, Any]
) -> list[Check]:
    least = int(config["judging"]["min_attacks"])
    out = []
    for d in DEFENCES:
        n, hits = counts[d]["attacks"], counts[d]["hits"]
        low, high = config["bands"][f"hit_{d}"]
        note = "" if n >= least else f"{n} attacks (< {least})"
        rate = hits / n if n else None
        out.append(Check(subject, f"hit rate, {_words(d)}", rate, low, high, note))
    return out


def markdown(
    entries: Sequence[tuple[str, Mapping[str, Any], bool | None]],
    all_checks: Sequence[Check],
    config: Mapping[str, Any],
    args: argparse.Namespace,
) -> str:
    """docs/balance.md: a table per kind of batch, then every figure against its band."""
    bands = config["bands"]
    lines = [
        "# Balance report",
        "",
        "Written by `python bench/balance.py"
        + (" --quick" if args.quick else f" --games {args.games}")
        + f" --seed {args.seed}` (do not edit by hand). Every batch is AI `normal` on both",
        "sides (`sim batch`), round cap "
        f"{config['judging']['round_cap']}. The bands are RULES.md R-A2's and the issue's, "
        "kept in `bench/balance.toml`:",
        f"a first attack hits an undefended target {_band(bands['hit_none'])} of the time and a "
        f"dodging, parrying or blocking one {_band(bands['hit_dodge'])}; a duel lasts "
        f"{bands['duel_rounds'][0]:g} to {bands['duel_rounds'][1]:g} rounds on average; at most "
        f"{bands['capped_max']:.0%} of a scenario's games reach the round cap; no side of a "
        f"scenario meant to be even wins more than {bands['even_win_max']:.0%}.",
        "",
        "Hit rates are of the first Attack of each creature's turn, by the defence its target "
        "chose, with hits/attacks.",
        "",
    ]
    for title, kind in (("Scenarios", False), ("Duels", True)):
        rows = [(name, s, even) for name, s, even in entries if (even is None) == kind]
        if not rows:
            continue
        lines += [f"## {title}", ""]
        lines.append(
            "| batch | games | even | no defence | dodge | parry | block | rounds mean | "
            "median | capped | blue wins (95 %) | red wins (95 %) |"
        )
        lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for name, s, even in rows:
            hits = [_rate_cell(s, d) for d in DEFENCES]
            r = s["rounds"]
            mean = "-" if r["mean"] is None else f"{r['mean']:.1f}"
            median = "-" if r["median"] is None else f"{r['median']:g}"
            capped = f"{s['capped'] / s['played']:.0%}" if s["played"] else "-"
            sides = [_side_cell(s["sides"][team]) for team in ("blue", "red")]
            even_cell = "-" if even is None else ("yes" if even else "no")
            lines.append(
                f"| {name} | {s['played']} | {even_cell} | {' | '.join(hits)} | {mean} | "
                f"{median} | {capped} | {' | '.join(sides)} |"
            )
        counts = pooled(s for _, s, _ in rows)
        cells = []
        for d in DEFENCES:
            n, h = counts[d]["attacks"], counts[d]["hits"]
            cells.append(f"{h / n:.0%} ({h}/{n})" if n else "-")
        lines.append(f"| **all {title.lower()}** | | | {' | '.join(cells)} | | | | | |")
        lines.append("")
    failed = [c for c in all_checks if not c.ok]
    unjudged = [c for c in all_checks if not c.judged]
    lines += ["## Against the bands", ""]
    if failed:
        lines.append(f"{len(failed)} figures are outside their bands:")
        lines.append("")
        lines += [f"- {c.subject}: {c.figure} {_fmt(c.value)} (band {_band_of(c)})" for c in failed]
    else:
        lines.append("Every judged figure is inside its band.")
    lines += [
        "",
        f"{len(unjudged)} figures rest on too few first attacks "
        f"(< {config['judging']['min_attacks']}) to be judged; they are in the tables above.",
        "",
    ]
    return "\n".join(lines)


def _band(band: Sequence[float]) -> str:
    return f"{band[0]:.0%} to {band[1]:.0%}"


def _band_of(c: Check) -> str:
    return f"{_fmt(c.low)} to {_fmt(c.high)}"


def _rate_cell(s: Mapping[str, Any], defence: str) -> str:
    c = s["first_attack_counts"][defence]
    if not c["attacks"]:
        return "-"
    return f"{c['hits'] / c['attacks']:.0%} ({c['hits']}/{c['attacks']})"


def _side_cell(side: Mapping[str, Any]) -> str:
    low, high = side["wilson_95"]
    rate = side["win_rate"]
    return "-" if rate is None else f"{rate:.0%} ({low:.0%}–{high:.0%})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="games per scenario and per duel")
    parser.add_argument("--quick", action="store_true", help="few games: a rough run in minutes")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0, help="base seed of every batch")
    parser.add_argument(
        "--only", nargs="*", default=None, help="only these scenarios (file stems) or 'duels'"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "balance.md")
    args = parser.parse_args(argv)
    config = tomllib.loads(DATA.read_text(encoding="utf-8"))
    judging = config["judging"]
    if args.games is None:
        args.games = int(judging["quick_games"] if args.quick else judging["games"])
    duel_games = int(judging["quick_duel_games"]) if args.quick else args.games
    cap = int(judging["round_cap"])
    known = set(default_catalog().templates)
    roster = config["duels"]["templates"]
    unknown = [t for t in roster if t not in known]
    if unknown:
        print(f"bench/balance.toml: no such template: {', '.join(unknown)}", file=sys.stderr)
        return 2

    batches: list[tuple[str, Scenario, int, bool | None]] = []
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        if args.only is not None and path.stem not in args.only:
            continue
        meant = config["scenarios"].get(path.stem, {})
        batches.append((path.stem, load(path), args.games, bool(meant.get("even", False))))
    if args.only is None or "duels" in args.only:
        for a, b in itertools.combinations(roster, 2):
            batches.append((f"{a} v {b}", duel(a, b), duel_games, None))

    entries: list[tuple[str, Mapping[str, Any], bool | None]] = []
    all_checks: list[Check] = []
    for name, scenario, games, even in batches:
        start = time.perf_counter()
        plan = Plan(scenario, LEVELS, seed=args.seed, round_cap=cap)
        summary = summarize(plan, run(plan, games, workers=args.workers))
        entries.append((name, summary, even))
        found = checks(name, summary, config, is_duel=even is None, even=bool(even))
        all_checks += found
        print(f"{name}: {games} games in {time.perf_counter() - start:.0f} s", flush=True)
        for c in found:
            print("  " + c.line(), flush=True)
    for title, kind in (("all scenarios", False), ("all duels", True)):
        summaries = [s for _, s, even in entries if (even is None) == kind]
        if summaries:
            found = pooled_checks(title, pooled(summaries), config)
            all_checks += found
            for c in found:
                print("  " + c.line())
    args.out.write_text(markdown(entries, all_checks, config, args), encoding="utf-8")
    failed = [c for c in all_checks if not c.ok]
    print(f"wrote {args.out}; {len(failed)} of {len(all_checks)} figures outside their bands")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
