"""The balance report: R-A2's bands measured by AI-vs-AI batches, written to docs/balance.md.

    python bench/balance.py [--games N] [--quick] [--workers K] [--seed S] [--only NAME ...]
                            [--out docs/balance.md]

Plays every shipped scenario, and a 1-vs-1 duel between every pair of the templates that
bench/balance.toml lists (on a small open map made here), through sim.tools.batch with the AI at
`normal` on both sides. For each it writes the first-attack hit rate by the defence the target
chose (the plain ones, with no Aim, Feint or Assist nor a braced or evading target, and the
boosted ones apart), mean and median
rounds, win rates with 95 % Wilson intervals, and the share of games stopped by the round cap,
then prints each figure against its band (bench/balance.toml) with its 95 % interval and exits 1
when one is shown to be out of it: the whole interval outside the band (see Check). Games per
batch are bench/balance.toml's, by kind (more for a scenario meant to be even, whose win rate is
judged); `--quick` plays few games (a few minutes here): its figures are rough. `--only` plays
the scenarios named by file stem, `duels` (every duel) or one duel as `A:B` (two templates of
the roster, e.g. `human_archer:orc_brute`); a name that is none of them is refused (status 2).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import statistics
import sys
import time
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The tree this script is in, before any installed `sim` (a worktree's bench measures its own).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.content.scenario import Scenario, load, loads
from sim.core.catalog import default_catalog
from sim.rules.combat.reactions import NONE
from sim.tools.batch import DEFENCES, Z95, Plan, run, summarize, wilson

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
    """One figure against its band, with its 95 % interval.

    The verdict weighs the interval, not the estimate alone: a figure is "out of band" (and
    fails the bench) only when its whole interval lies outside the band, so that the games
    played show it is out; "in band" when the estimate is inside; "unsettled" when the estimate
    is outside but the interval still reaches into the band (more games would tell)."""

    subject: str
    figure: str
    value: float | None
    low: float | None
    high: float | None
    interval: tuple[float, float] | None = None
    note: str = ""

    @property
    def judged(self) -> bool:
        return self.value is not None and not self.note

    def _inside(self, x: float) -> bool:
        return (self.low is None or x >= self.low) and (self.high is None or x <= self.high)

    @property
    def in_band(self) -> bool:
        return not self.judged or self._inside(self.value or 0.0)

    @property
    def ok(self) -> bool:
        """Not shown to be out of band: the estimate is inside, or the interval reaches in."""
        if self.in_band:
            return True
        lo, hi = self.interval or (self.value or 0.0, self.value or 0.0)
        below = self.low is not None and hi < self.low
        above = self.high is not None and lo > self.high
        return not (below or above)

    @property
    def verdict(self) -> str:
        if self.value is None:
            return "no data"
        if self.note:
            return "not judged: " + self.note
        if self.in_band:
            return "in band"
        return "unsettled" if self.ok else "OUT OF BAND"

    def line(self) -> str:
        band = f"[{_fmt(self.low)}, {_fmt(self.high)}]"
        interval = (
            "" if self.interval is None else f"({_fmt(self.interval[0])}-{_fmt(self.interval[1])})"
        )
        return (
            f"{self.subject:<34} {self.figure:<22} {_fmt(self.value):>6} {interval:<12} "
            f"band {band:<14} {self.verdict}"
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


def rounds_interval(rounds: Sequence[int]) -> tuple[float, float] | None:
    """The 95 % interval of a mean of rounds (normal approximation: mean +- z sd / sqrt n)."""
    if len(rounds) < 2:
        return None
    mean = statistics.fmean(rounds)
    half = Z95 * statistics.stdev(rounds) / math.sqrt(len(rounds))
    return mean - half, mean + half


def hit_check(
    subject: str, defence: str, attacks: int, hits: int, config: Mapping[str, Any]
) -> Check:
    """A plain first-attack hit rate (no Aim, Feint, Assist, Brace or Evade) against R-A2's band."""
    least = int(config["judging"]["min_attacks"])
    low, high = config["bands"][f"hit_{defence}"]
    note = "" if attacks >= least else f"{attacks} attacks (< {least})"
    rate = hits / attacks if attacks else None
    return Check(
        subject, f"hit rate, {_words(defence)}", rate, low, high, wilson(hits, attacks), note
    )


def checks(
    subject: str,
    summary: Mapping[str, Any],
    rounds: Sequence[int],
    config: Mapping[str, Any],
    *,
    is_duel: bool,
    even: bool,
) -> list[Check]:
    """Every figure of one batch that R-A2 or the issue puts a band on."""
    bands = config["bands"]
    out = []
    for defence in DEFENCES:
        c = summary["first_attack_counts"][defence]
        out.append(hit_check(subject, defence, c["plain_attacks"], c["plain_hits"], config))
    played = summary["played"]
    if is_duel:
        low, high = bands["duel_rounds"]
        mean = summary["rounds"]["mean"]
        out.append(Check(subject, "mean rounds", mean, low, high, rounds_interval(rounds)))
    capped = summary["capped"] / played if played else None
    interval = wilson(summary["capped"], played)
    out.append(Check(subject, "share capped", capped, None, bands["capped_max"], interval))
    if even:
        for team, side in summary["sides"].items():
            figure = f"win rate, {team}"
            low, high = side["wilson_95"]
            out.append(
                Check(subject, figure, side["win_rate"], None, bands["even_win_max"], (low, high))
            )
    return out


def _words(defence: str) -> str:
    return "no defence" if defence == NONE else defence


def pooled(summaries: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """First attacks of many batches added up, by defence (all, and the plain ones)."""
    keys = ("attacks", "hits", "plain_attacks", "plain_hits")
    total = {d: dict.fromkeys(keys, 0) for d in DEFENCES}
    for s in summaries:
        for d in DEFENCES:
            for key in keys:
                total[d][key] += s["first_attack_counts"][d][key]
    return total


def pooled_checks(
    subject: str, counts: Mapping[str, Mapping[str, int]], config: Mapping[str, Any]
) -> list[Check]:
    return [
        hit_check(subject, d, counts[d]["plain_attacks"], counts[d]["plain_hits"], config)
        for d in DEFENCES
    ]


def markdown(
    entries: Sequence[Entry],
    all_checks: Sequence[Check],
    config: Mapping[str, Any],
    args: argparse.Namespace,
    seconds: float,
) -> str:
    """docs/balance.md: a table per kind of batch, then every figure against its band."""
    bands = config["bands"]
    judging = config["judging"]
    command = "python bench/balance.py" + (" --quick" if args.quick else "")
    command += f" --seed {args.seed} --workers {args.workers}"
    lines = [
        "# Balance report",
        "",
        f"Written by `{command}` (do not edit by hand) in {seconds / 60:.1f} minutes on "
        f"{os.cpu_count()} cores shared with other work. Every batch is AI `normal` on both sides "
        f"(`sim batch`), round cap {judging['round_cap']}; games per batch are in each table "
        "(`bench/balance.toml` sets them). The bands are RULES.md R-A2's and the issue's, kept in "
        "`bench/balance.toml`:",
        f"a first attack hits an undefended target {_band(bands['hit_none'])} of the time and a "
        f"dodging, parrying or blocking one {_band(bands['hit_dodge'])}; a duel lasts "
        f"{bands['duel_rounds'][0]:g} to {bands['duel_rounds'][1]:g} rounds on average; at most "
        f"{bands['capped_max']:.0%} of a scenario's games reach the round cap; no side of a "
        f"scenario meant to be even wins more than {bands['even_win_max']:.0%}.",
        "",
        "Hit rates are of the first Attack of each creature's turn, by the defence its target "
        "chose, with hits/attacks. The bands are judged on the *plain* first attacks: those with "
        "no Aim (R-X1), Feint (R-X10) or Assist (R-X21) added to the Hit Roll and no Brace "
        "(R-X3) or Evade (R-X9) to the target's Defense Roll, since R-A2 speaks of what the "
        "templates' and equipment's numbers give; a first attack the AI spent Bonus Actions or "
        "an Action to improve, or to defend against, is a tactic, not the numbers. The table "
        "*Boosted first attacks* shows them apart.",
        "",
        "**How a figure is judged.** Each figure has a 95 % interval (Wilson for a rate; "
        "mean ± 1.96 sd/√n for a mean of rounds). It is *in band* when the estimate is inside "
        "the band; *out of band* (the bench fails, exit status 1) when the whole interval lies "
        "outside it, so the games played show it is out; *unsettled* when the estimate is "
        "outside but the interval still reaches into the band (more games would tell; listed, "
        f"not failed). A hit rate on fewer than {judging['min_attacks']} plain first attacks is "
        "shown but not judged.",
        "",
    ]
    for title, kind in (("Scenarios", False), ("Duels", True)):
        rows = [e for e in entries if (e.even is None) == kind]
        if not rows:
            continue
        lines += [f"## {title}", ""]
        if kind:
            lines.append(
                "| duel | games | no defence | dodge | parry | block | rounds mean (95 %) | "
                "median | capped | blue wins (95 %) | red wins (95 %) |"
            )
            lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
        else:
            lines.append(
                "| scenario | games | even | no defence | dodge | parry | block | rounds mean | "
                "median | capped | blue wins (95 %) | red wins (95 %) |"
            )
            lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for e in rows:
            s = e.summary
            hits = [_rate_cell(s, d) for d in DEFENCES]
            r = s["rounds"]
            mean = "-" if r["mean"] is None else f"{r['mean']:.1f}"
            if kind:
                interval = rounds_interval(e.rounds)
                if interval is not None:
                    mean += f" ({interval[0]:.1f}–{interval[1]:.1f})"
            median = "-" if r["median"] is None else f"{r['median']:g}"
            capped = f"{s['capped'] / s['played']:.0%}" if s["played"] else "-"
            sides = [_side_cell(s["sides"][team]) for team in ("blue", "red")]
            cells = [e.name, str(s["played"])]
            if not kind:
                cells.append("yes" if e.even else "no")
            cells += [*hits, mean, median, capped, *sides]
            lines.append("| " + " | ".join(cells) + " |")
        counts = pooled(e.summary for e in rows)
        cells = []
        for d in DEFENCES:
            n, h = counts[d]["plain_attacks"], counts[d]["plain_hits"]
            cells.append(f"{h / n:.0%} ({h}/{n})" if n else "-")
        lead = [f"**all {title.lower()}**", ""] + ([] if kind else [""])
        lines.append("| " + " | ".join([*lead, *cells, *[""] * 5]) + " |")
        lines.append("")
    lines += _boosted_table(entries)
    failed = [c for c in all_checks if not c.ok]
    unsettled = [c for c in all_checks if c.ok and not c.in_band]
    unjudged = [c for c in all_checks if not c.judged]
    lines += ["## Against the bands", ""]
    judged = len(all_checks) - len(unjudged)
    in_band = judged - len(failed) - len(unsettled)
    lines.append(
        f"{judged} figures judged: {in_band} in band, {len(unsettled)} unsettled, "
        f"{len(failed)} out of band."
    )
    lines.append("")
    for listed, head in (
        (failed, "Out of band (the whole 95 % interval outside the band):"),
        (unsettled, "Unsettled (the estimate outside, the interval reaching into the band):"),
    ):
        if listed:
            lines += [head, ""]
            lines += [
                f"- {c.subject}: {c.figure} {_with_interval(c)} (band {_band_of(c)})"
                for c in listed
            ]
            lines.append("")
    lines += [
        f"{len(unjudged)} hit rates rest on too few plain first attacks "
        f"(< {judging['min_attacks']}) to be judged; they are in the tables above.",
        "",
    ]
    return "\n".join(lines)


def _boosted_table(entries: Sequence[Entry]) -> list[str]:
    """Every first attack against the plain ones, for the scenarios and the duels pooled: how
    much the AI's Aim, Feint and Assist raise the hit rate, and its Brace and Evade lower it, by
    defence."""
    lines = [
        "## Boosted first attacks",
        "",
        "First attacks with an Aim, a Feint or an Assist on the Hit Roll, or a Brace or an Evade "
        "on the target's Defense Roll, beside the plain ones "
        "the bands are judged on: what the AI's tactics add to the numbers, by defence.",
        "",
        "| batches | defence | plain | boosted | all |",
        "|---|---|---|---|---|",
    ]
    for title, kind in (("scenarios", False), ("duels", True)):
        counts = pooled(e.summary for e in entries if (e.even is None) == kind)
        for d in DEFENCES:
            c = counts[d]
            if not c["attacks"]:
                continue
            boosted = (c["attacks"] - c["plain_attacks"], c["hits"] - c["plain_hits"])
            lines.append(
                f"| {title} | {_words(d)} | {_count_cell(c['plain_attacks'], c['plain_hits'])} | "
                f"{_count_cell(*boosted)} | {_count_cell(c['attacks'], c['hits'])} |"
            )
    lines.append("")
    return lines


def _count_cell(attacks: int, hits: int) -> str:
    return f"{hits / attacks:.0%} ({hits}/{attacks})" if attacks else "-"


def _with_interval(c: Check) -> str:
    if c.interval is None:
        return _fmt(c.value)
    return f"{_fmt(c.value)} (95 %: {_fmt(c.interval[0])} to {_fmt(c.interval[1])})"


def _band(band: Sequence[float]) -> str:
    return f"{band[0]:.0%} to {band[1]:.0%}"


def _band_of(c: Check) -> str:
    return f"{_fmt(c.low)} to {_fmt(c.high)}"


def _rate_cell(s: Mapping[str, Any], defence: str) -> str:
    c = s["first_attack_counts"][defence]
    return _count_cell(c["plain_attacks"], c["plain_hits"])


def _side_cell(side: Mapping[str, Any]) -> str:
    low, high = side["wilson_95"]
    rate = side["win_rate"]
    return "-" if rate is None else f"{rate:.0%} ({low:.0%}–{high:.0%})"


@dataclass(frozen=True, slots=True)
class Entry:
    """One batch played: its name, summary, each game's rounds, and whether it is meant to be
    even (None for a duel)."""

    name: str
    summary: Mapping[str, Any]
    rounds: tuple[int, ...]
    even: bool | None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, help="games per batch (default: bench/balance.toml's per kind)"
    )
    parser.add_argument("--quick", action="store_true", help="few games: a rough run in minutes")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0, help="base seed of every batch")
    parser.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="only these scenarios (file stems), 'duels' (every duel) or duels as A:B "
        "(two templates of bench/balance.toml, e.g. human_archer:orc_brute)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "balance.md")
    args = parser.parse_args(argv)
    config = tomllib.loads(DATA.read_text(encoding="utf-8"))
    judging = config["judging"]
    cap = int(judging["round_cap"])
    known = set(default_catalog().templates)
    roster = config["duels"]["templates"]
    unknown = [t for t in roster if t not in known]
    if unknown:
        print(f"bench/balance.toml: no such template: {', '.join(unknown)}", file=sys.stderr)
        return 2

    paths = sorted((ROOT / "scenarios").glob("*.toml"))
    stems = [path.stem for path in paths]
    pairs = {frozenset(pair): pair for pair in itertools.combinations(roster, 2)}
    named: set[tuple[str, str]] = set()  # the duels --only names one by one
    for name in args.only or ():
        pair = frozenset(name.split(":"))
        if ":" in name and pair in pairs:
            named.add(pairs[pair])
        elif name not in stems and name != "duels":
            print(
                f"--only {name}: no such scenario or duel; scenarios: {', '.join(stems)}; "
                f"'duels'; or a duel as A:B of {', '.join(roster)}",
                file=sys.stderr,
            )
            return 2

    def games_for(kind: str) -> int:
        if args.games is not None:
            return int(args.games)
        return int(judging["quick_games" if args.quick else "games"][kind])

    batches: list[tuple[str, Scenario, int, bool | None]] = []
    for path in paths:
        if args.only is not None and path.stem not in args.only:
            continue
        even = bool(config["scenarios"].get(path.stem, {}).get("even", False))
        games = games_for("even" if even else "scenario")
        batches.append((path.stem, load(path), games, even))
    for a, b in itertools.combinations(roster, 2):
        if args.only is None or "duels" in args.only or (a, b) in named:
            batches.append((f"{a} v {b}", duel(a, b), games_for("duel"), None))

    began = time.perf_counter()
    entries: list[Entry] = []
    all_checks: list[Check] = []
    for name, scenario, games, even in batches:
        start = time.perf_counter()
        plan = Plan(scenario, LEVELS, seed=args.seed, round_cap=cap)
        records = run(plan, games, workers=args.workers)
        summary = summarize(plan, records)
        rounds = tuple(g.rounds for g in records if g.result != "crashed")
        entries.append(Entry(name, summary, rounds, even))
        found = checks(name, summary, rounds, config, is_duel=even is None, even=bool(even))
        all_checks += found
        print(f"{name}: {games} games in {time.perf_counter() - start:.0f} s", flush=True)
        for c in found:
            print("  " + c.line(), flush=True)
    for title, kind in (("all scenarios", False), ("all duels", True)):
        summaries = [e.summary for e in entries if (e.even is None) == kind]
        if summaries:
            found = pooled_checks(title, pooled(summaries), config)
            all_checks += found
            for c in found:
                print("  " + c.line())
    seconds = time.perf_counter() - began
    args.out.write_text(markdown(entries, all_checks, config, args, seconds), encoding="utf-8")
    failed = [c for c in all_checks if not c.ok]
    print(
        f"wrote {args.out} in {seconds / 60:.1f} min; {len(failed)} of {len(all_checks)} "
        "figures out of band"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
