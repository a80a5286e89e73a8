"""The balance chart of a batch: win rates with their intervals, battle lengths, survival by
unit and the kinds of action each side chose, in one PNG for a design document (matplotlib,
drawn off-screen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sim.content.scenario import Scenario
from sim.tools.batch import GameRecord
from sim.tools.colours import NEUTRAL, side_colours
from sim.tools.heatmap import draw_panels, panel_inches

# Each side's bars in the action kinds panel also have a hatch of their own: nothing is told by
# colour alone.
HATCHES = ("", "//", "..", "xx", "\\\\", "oo")
KIND_ROWS = 14  # the kinds the action kinds panel names; the rest share one row,
OTHER = ""  # this one


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


def draw(
    summary: Mapping[str, Any],
    games: Sequence[GameRecord],
    path: str | Path,
    scenario: Scenario | None = None,
) -> None:
    """Draw the chart of a batch to the PNG at `path`: with the fairness panel when the summary
    has one (`sim batch --fairness`), and the map panels of where fights were decided when the
    `scenario` is given (sim/tools/heatmap.py)."""
    check_plotting()
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    sides = summary["sides"]
    colours = side_colours(list(sides))
    kinds = _kind_rows(summary["action_kinds"])
    # The action kinds panel spans the width under the others, a band of bars per kind; the
    # fairness panel and the map panels, when drawn, span it under that.
    band = 0.16 * max(len(sides), 1) + 0.12
    heights = [4.8, max(2.6, band * len(kinds) + 1.2)]
    fair = summary.get("fairness")
    if fair is not None:
        heights.append(0.45 * (len(fair["sides"]) + len(fair["levels"])) + 1.6)
    mapped = scenario is not None and "cells" in summary
    if scenario is not None and mapped:
        heights.append(panel_inches(scenario, 15) * len(summary["cells"]) + 0.4)
    fig = plt.figure(figsize=(15, sum(heights)))
    grid = fig.add_gridspec(len(heights), 3, width_ratios=[1, 1.2, 1.4], height_ratios=heights)
    wins = fig.add_subplot(grid[0, 0])
    length = fig.add_subplot(grid[0, 1])
    survival = fig.add_subplot(grid[0, 2])
    chosen = fig.add_subplot(grid[1, :])
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

    _draw_kinds(chosen, summary, kinds, colours)
    if fair is not None:
        _draw_fairness(fig.add_subplot(grid[2, :]), fair, colours)
    if scenario is not None and mapped:
        draw_panels(fig, grid[len(heights) - 1, :], summary, scenario)

    # Room at the top for the title, which tight_layout does not make by itself.
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.45 / sum(heights)))
    try:
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def _kind_rows(action_kinds: Mapping[str, Any]) -> list[str]:
    """The kinds the panel names, the most chosen first (by the larger of the sides' shares):
    KIND_ROWS of them, and "other" for the rest together when there are more."""
    best: dict[str, float] = {}
    for side in action_kinds.values():
        for kind, c in side["kinds"].items():
            best[kind] = max(best.get(kind, 0.0), c["share"])
    ranked = sorted(best, key=lambda kind: -best[kind])  # sorted() keeps ties in their order
    if len(ranked) > KIND_ROWS + 1:
        return [*ranked[:KIND_ROWS], OTHER]
    return ranked


def _draw_kinds(
    axes: Any, summary: Mapping[str, Any], kinds: list[str], colours: Mapping[str, str]
) -> None:
    """The share of each kind of action and reaction in each side's choices: a band of
    horizontal bars per kind, one bar per side, with its percentage at its end."""
    from matplotlib.ticker import PercentFormatter

    action_kinds = summary["action_kinds"]
    teams = list(action_kinds)
    axes.set_title(
        "What each side chose: share of its actions and reactions (End Turn not counted)",
        fontsize=10,
    )
    if not kinds:
        axes.text(0.5, 0.5, "no side took an action or a reaction", ha="center", va="center")
        axes.set_axis_off()
        return
    named = [k for k in kinds if k != OTHER]
    height = 0.8 / len(teams)
    top = 0.0
    for i, team in enumerate(teams):
        side = action_kinds[team]
        shares = [side["kinds"].get(k, {"share": 0.0})["share"] for k in named]
        if len(named) < len(kinds):
            shares.append(1.0 - sum(shares) if side["choices"] else 0.0)
        offset = (i - (len(teams) - 1) / 2) * height
        ys = [y + offset for y in range(len(kinds))]
        level = summary["sides"].get(team, {}).get("ai", "")
        axes.barh(
            ys,
            shares,
            height=height,
            color=colours[team],
            hatch=HATCHES[i % len(HATCHES)],
            edgecolor="#333333",
            linewidth=0.6,
            label=f"{team} ({level}, {side['choices']} choices)" if level else team,
        )
        for y, share in zip(ys, shares, strict=True):
            if share > 0:
                axes.annotate(
                    f"{share:.0%}" if share >= 0.005 else "<1%",
                    (share, y),
                    xytext=(3, 0),
                    textcoords="offset points",
                    va="center",
                    fontsize=7,
                )
        top = max([top, *shares])
    others = len({k for side in action_kinds.values() for k in side["kinds"]}) - len(named)
    labels = [k.replace("_", " ") if k != OTHER else f"{others} other kinds" for k in kinds]
    axes.set_yticks(list(range(len(kinds))), labels, fontsize=9)
    axes.set_ylim(len(kinds) - 0.5, -0.5)  # the most chosen at the top
    axes.set_xlim(0, min(1.0, top * 1.12 + 0.03))
    axes.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    axes.set_xlabel("share of the side's choices")
    axes.grid(axis="x", color="#dddddd", linewidth=0.6)
    axes.set_axisbelow(True)
    axes.legend(fontsize=8, loc="lower right")


def _draw_fairness(axes: Any, fair: Mapping[str, Any], colours: Mapping[str, str]) -> None:
    """Each side's win rate over the games in which it played every level equally often, and
    each level's apart from the sides, with their 95 % intervals, over the fair band: the side's
    advantage apart from the level's."""
    from matplotlib.ticker import PercentFormatter

    sides, levels = fair["sides"], fair["levels"]
    names = [*sides, *(f"level {level}" for level in levels)]
    rows = [*sides.values(), *levels.values()]
    rates = [row["win_rate"] or 0.0 for row in rows]
    low = [max(0.0, rate - row["wilson_95"][0]) for rate, row in zip(rates, rows, strict=True)]
    high = [max(0.0, row["wilson_95"][1] - rate) for rate, row in zip(rates, rows, strict=True)]
    ys = list(range(len(names)))
    share = fair["share"]
    # The fair band: the rate within 10 points of an equal share, its interval within 15.
    axes.axvspan(*fair["fair_interval"], color="#eeeeee", zorder=0, label="interval must lie in")
    axes.axvspan(*fair["fair_rate"], color="#d4d4d4", zorder=0, label="rate must lie in")
    axes.axvline(share, color="black", linestyle="--", linewidth=1, zorder=1)
    axes.barh(
        ys,
        rates,
        height=0.6,
        color=[colours.get(team, NEUTRAL) for team in sides] + [NEUTRAL] * len(levels),
        edgecolor="#333333",
        zorder=2,
    )
    axes.errorbar(rates, ys, xerr=[low, high], fmt="none", ecolor="black", capsize=5, zorder=3)
    # Each figure in words at the right of the panel, clear of the bars and their intervals.
    at_right = axes.get_yaxis_transform()
    for y, rate, row in zip(ys, rates, rows, strict=True):
        low_end, high_end = row["wilson_95"]
        axes.text(
            1.01,
            y,
            f"{rate:.0%} ({low_end:.0%}-{high_end:.0%})",
            transform=at_right,
            va="center",
            fontsize=9,
        )
    axes.set_yticks(ys, names)
    axes.set_ylim(len(names) - 0.5, -0.5)
    axes.set_xlim(0, 1)
    axes.xaxis.set_major_formatter(PercentFormatter(1.0))
    axes.set_xlabel("share of games won")
    seatings = " and ".join(
        ", ".join(f"{team} {level}" for team, level in seating.items())
        for seating in fair["seatings"]
    )
    axes.set_title(f"Fairness: {fair['verdict']} ({fair['played']} games; {seatings})", fontsize=10)
    axes.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=2)
