"""The balance chart of a batch: win rates with their intervals, battle lengths and survival by
unit, in one PNG for a design document (matplotlib, drawn off-screen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sim.tools.batch import GameRecord

# Each side's colour in the chart: the client's team colours where there are any, a cycle else.
TEAM_COLOURS = {"blue": "#3b6fd1", "red": "#c8423b", "green": "#3f9a4a", "yellow": "#c9a227"}
OTHER_COLOURS = ("#7d5ba6", "#2a9d8f", "#e76f51", "#6c757d")
NEUTRAL = "#9aa0a6"


class ChartError(Exception):
    """The chart cannot be drawn; the message says why and what to do."""


def check_plotting() -> None:
    """Raise ChartError unless matplotlib can draw (before a batch, not after it)."""
    try:
        import matplotlib
    except ImportError:
        raise ChartError(
            "--plot draws with matplotlib, which is not installed: pip install -e ."
        ) from None
    matplotlib.use("Agg")  # off-screen: no display is needed, or opened


def draw(summary: Mapping[str, Any], games: Sequence[GameRecord], path: str | Path) -> None:
    """Draw the chart of a batch to the PNG at `path`."""
    check_plotting()
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    sides = summary["sides"]
    colours = _colours(list(sides))
    fig, (wins, length, survival) = plt.subplots(
        1, 3, figsize=(15, 4.8), gridspec_kw={"width_ratios": [1, 1.2, 1.4]}
    )
    levels = ", ".join(f"{team} {side['ai']}" for team, side in sides.items())
    fig.suptitle(
        f"{summary['name']}: {summary['played']} games ({levels}; round cap "
        f"{summary['round_cap']}, seed {summary['seed']})",
        fontsize=12,
    )

    # Win rate with its 95 % Wilson interval; draws and capped games beside them as shares.
    n = max(summary["played"], 1)
    names = [*sides, "draw", "capped"]
    rates = [side["win_rate"] or 0.0 for side in sides.values()]
    rates += [summary["draws"] / n, summary["capped"] / n]
    # max(0, ...): an interval's end at a rate of 0 or 1 is that rate but for rounding.
    low = [
        max(0.0, rate - side["wilson_95"][0])
        for rate, side in zip(rates, sides.values(), strict=False)
    ]
    high = [
        max(0.0, side["wilson_95"][1] - rate)
        for rate, side in zip(rates, sides.values(), strict=False)
    ]
    bars = wins.bar(
        names,
        rates,
        color=[colours[t] for t in sides] + [NEUTRAL, "#d9d9d9"],
        edgecolor="#333333",
    )
    wins.errorbar(
        list(sides), rates[: len(sides)], yerr=[low, high], fmt="none", ecolor="black", capsize=6
    )
    tops = [side["wilson_95"][1] for side in sides.values()] + rates[len(sides) :]
    for bar, rate, top in zip(bars, rates, tops, strict=True):
        wins.annotate(
            f"{rate:.0%}",
            (bar.get_x() + bar.get_width() / 2, top),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=9,
        )
    wins.set_ylim(0, 1.1)
    wins.yaxis.set_major_formatter(PercentFormatter(1.0))
    wins.set_ylabel("share of games")
    wins.set_title("Win rate (bars: 95 % Wilson interval)", fontsize=10)

    # Battle length: decided games stacked on capped ones, one bar per round.
    cap = summary["round_cap"]
    decided = [g.rounds for g in games if g.result in ("won", "draw")]
    capped = [g.rounds for g in games if g.result == "capped"]
    longest = max([*decided, *capped, 1])
    edges = [r - 0.5 for r in range(1, longest + 2)]
    length.hist(
        [decided, capped],
        bins=edges,
        stacked=True,
        color=["#4c72b0", "#d9d9d9"],
        edgecolor="#333333",
        label=["decided", f"stopped at the cap ({cap})"],
    )
    rounds = summary["rounds"]
    if rounds["median"] is not None:
        length.axvline(
            rounds["median"],
            color="black",
            linestyle="--",
            linewidth=1,
            label=f"median {rounds['median']:g}, 90th percentile {rounds['p90']:g}",
        )
    length.set_ylim(0, length.get_ylim()[1] * 1.3)  # room for the legend above the bars
    length.xaxis.set_major_locator(MaxNLocator(integer=True))
    length.yaxis.set_major_locator(MaxNLocator(integer=True))
    length.set_xlabel("rounds")
    length.set_ylabel("games")
    length.set_title("Battle length", fontsize=10)
    length.legend(fontsize=8, loc="best")

    # Survival by unit, coloured by side, with the share of games it was the first one down.
    units = summary["units"]
    labels = list(units)
    alive = [u["survival_rate"] or 0.0 for u in units.values()]
    first = [u["downed_first_rate"] or 0.0 for u in units.values()]
    rows = range(len(labels))
    survival.barh(
        [y - 0.2 for y in rows],
        alive,
        height=0.4,
        color=[colours[u["team"]] for u in units.values()],
        edgecolor="#333333",
        label="survived",
    )
    survival.barh(
        [y + 0.2 for y in rows],
        first,
        height=0.4,
        color=NEUTRAL,
        hatch="//",
        edgecolor="#333333",
        label="first creature downed",
    )
    survival.set_yticks(list(rows), labels)
    for y, (rate, down, u) in enumerate(zip(alive, first, units.values(), strict=True)):
        hp = u["mean_hp_left"]
        words = f"{rate:.0%}" + (f", {hp:.1f}/{u['max_hp']} HP left" if hp is not None else "")
        survival.annotate(
            words,
            (rate, y - 0.2),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
        survival.annotate(
            f"{down:.0%}",
            (down, y + 0.2),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    survival.set_xlim(0, 1.45)
    survival.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    survival.xaxis.set_major_formatter(PercentFormatter(1.0))
    survival.invert_yaxis()  # the scenario's order, top down
    survival.set_xlabel("games")
    survival.set_title("Survival by unit", fontsize=10)
    survival.legend(fontsize=8, loc="lower right")

    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def _colours(teams: list[str]) -> dict[str, str]:
    others = iter(OTHER_COLOURS * (len(teams) // len(OTHER_COLOURS) + 1))
    return {team: TEAM_COLOURS.get(team) or next(others) for team in teams}
