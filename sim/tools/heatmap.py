"""Where fights are decided, drawn on the map: a panel per side and count (where its creatures
went down, dealt and took damage, and ended their turns; sim/tools/hotspots.py), over every game
of a batch, for `sim batch --heatmap` and the lower panels of `--plot` (matplotlib, off-screen).

Each count is shaded from a light tint of the side's colour to a dark shade of it: one hue, so
the amount is read from lightness alone, which colour-blind readers see as well as anyone; the
number is written in the cell as well. The scale of a count is the same for every side, so the
sides' panels of one count compare cell for cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sim.content.scenario import Scenario
from sim.core.components import Position
from sim.core.creature import creatures, team_of
from sim.core.grid import Kind
from sim.rules.objectives import Reach
from sim.tools.colours import side_colours
from sim.tools.hotspots import MEASURES, UNITS, WORDS

# The ground in greys, under the counts (a cell with a count is covered by its colour).
GROUND = {
    Kind.OPEN: "#f4f4f4",
    Kind.DIFFICULT: "#e4e4e4",
    Kind.COVER: "#cccccc",
    Kind.FIRE: "#d8d8d8",
    Kind.WALL: "#5c5c5c",
    Kind.PIT: "#1f1f1f",
}
HATCH = {Kind.DIFFICULT: "//", Kind.FIRE: "xx"}  # and dots for water, upright lines an obstacle
NUMBERED = 900  # on maps of at most this many cells every count is written in its cell
KEY = (
    "Per cell, over every game; the darker, the more. Ground: dark grey wall, black pit, dots "
    "water, upright lines a low obstacle, slanted lines difficult, crosses fire, light grey "
    "cover; heavy lines: a change of ground height; dashed outline: an objective's cells; a dot "
    "in a corner: where the side starts."
)


def panel_inches(scenario: Scenario, width: float) -> float:
    """The height of one row of map panels `width` inches wide in all (a panel per count)."""
    grid = scenario.world.grid
    # The panels take about nine tenths of their share of the width, the rest being gaps.
    return 0.9 * width / len(MEASURES) * grid.height / grid.width + 0.45


def draw_panels(fig: Any, spec: Any, summary: Mapping[str, Any], scenario: Scenario) -> None:
    """The map panels in `spec` (a matplotlib SubplotSpec) of `fig`: a row per side of the
    summary's `cells`, a column per count."""
    cells = summary["cells"]
    teams = list(cells)
    colours = side_colours(teams)
    inner = spec.subgridspec(len(teams), len(MEASURES), hspace=0.35, wspace=0.08)
    tops = {m: max([1, *(n for side in cells.values() for _, _, n in side[m])]) for m in MEASURES}
    for row, team in enumerate(teams):
        for col, measure in enumerate(MEASURES):
            axes = fig.add_subplot(inner[row, col])
            counts = cells[team][measure]
            _ground(axes, scenario)
            _counts(axes, scenario, counts, tops[measure], colours[team])
            _marks(axes, scenario, team, colours[team])
            total = sum(n for _, _, n in counts)
            unit = UNITS[measure].removesuffix("s") if total == 1 else UNITS[measure]
            axes.set_title(f"{team}: {WORDS[measure]} ({total} {unit})", fontsize=9)


def draw(summary: Mapping[str, Any], scenario: Scenario, path: str | Path) -> None:
    """`sim batch --heatmap`: the map panels alone, to the PNG at `path`."""
    import matplotlib

    matplotlib.use("Agg")  # off-screen: no display is needed, or opened
    import matplotlib.pyplot as plt

    width = 15.0
    rows = len(summary["cells"])
    fig = plt.figure(figsize=(width, panel_inches(scenario, width) * rows + 1.2))
    spec = fig.add_gridspec(1, 1, left=0.02, right=0.98, bottom=0.07, top=0.9)[0, 0]
    draw_panels(fig, spec, summary, scenario)
    fig.suptitle(f"{summary['name']}: where fights are decided, {summary['played']} games")
    fig.text(0.5, 0.015, KEY, ha="center", va="bottom", fontsize=8, wrap=True)
    try:
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def _ground(axes: Any, scenario: Scenario) -> None:
    """The map's ground in greys, hatched where it is difficult, on fire or under water, with a
    heavy line wherever the ground height changes between two cells (a ledge, a step, a cliff)."""
    from matplotlib.colors import to_rgb
    from matplotlib.patches import Rectangle

    grid = scenario.world.grid
    kinds, heights = grid.layers["kind"], grid.layers["height"]
    water, obstacle = grid.layers["water"], grid.layers["obstacle"]
    image = [[to_rgb(GROUND[Kind(int(k))]) for k in line] for line in kinds]
    axes.imshow(image, extent=(-0.5, grid.width - 0.5, grid.height - 0.5, -0.5), zorder=0)
    for y in range(grid.height):
        for x in range(grid.width):
            kind = Kind(int(kinds[y, x]))
            hatch = "...." if water[y, x] > 0 else "||" if obstacle[y, x] > 0 else HATCH.get(kind)
            if hatch:
                axes.add_patch(
                    Rectangle(
                        (x - 0.5, y - 0.5),
                        1,
                        1,
                        fill=False,
                        hatch=hatch,
                        edgecolor=(0.45, 0.45, 0.45, 0.55),
                        linewidth=0,
                        zorder=2.5,  # over the counts: the ground shows through them
                    )
                )
    lines = []
    for y in range(grid.height):
        for x in range(grid.width):
            if kinds[y, x] == Kind.WALL:
                continue
            if (
                x + 1 < grid.width
                and kinds[y, x + 1] != Kind.WALL
                and heights[y, x] != heights[y, x + 1]
            ):
                lines.append([(x + 0.5, y - 0.5), (x + 0.5, y + 0.5)])
            if (
                y + 1 < grid.height
                and kinds[y + 1, x] != Kind.WALL
                and heights[y, x] != heights[y + 1, x]
            ):
                lines.append([(x - 0.5, y + 0.5), (x + 0.5, y + 0.5)])
    if lines:
        from matplotlib.collections import LineCollection

        axes.add_collection(LineCollection(lines, colors="#000000", linewidths=1.6, zorder=3))
    axes.set_xlim(-0.5, grid.width - 0.5)
    axes.set_ylim(grid.height - 0.5, -0.5)  # row 0 at the top, as the map is written
    axes.set_xticks([])
    axes.set_yticks([])
    axes.set_aspect("equal")


def _counts(
    axes: Any, scenario: Scenario, counts: Sequence[Sequence[int]], top: int, colour: str
) -> None:
    """Each cell's count, shaded from a tint of the side's colour (1) to a dark shade (`top`),
    and written in the cell on a map small enough to read it."""
    from matplotlib.colors import LinearSegmentedColormap, to_rgb
    from matplotlib.patches import Rectangle

    base = to_rgb(colour)
    tint = tuple(c + (1 - c) * 0.8 for c in base)
    shade = tuple(c * 0.35 for c in base)
    ramp = LinearSegmentedColormap.from_list("side", [tint, base, shade])
    grid = scenario.world.grid
    numbered = grid.width * grid.height <= NUMBERED
    size = max(4.0, min(8.0, 300 / max(grid.width, 1) / 3))
    for x, y, n in counts:
        level = n / top
        fill = ramp(level)
        axes.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, color=fill, linewidth=0, zorder=2))
        if numbered:
            ink = "#ffffff" if level > 0.45 else "#000000"
            axes.text(x, y, _short(n), ha="center", va="center", fontsize=size, color=ink, zorder=5)


def _short(n: int) -> str:
    """A count in at most four characters.

    >>> _short(7), _short(1234), _short(98765)
    ('7', '1.2k', '99k')
    """
    if n < 1000:
        return str(n)
    if n < 9950:
        return f"{n / 1000:.1f}k"
    return f"{round(n / 1000)}k"


def _marks(axes: Any, scenario: Scenario, team: str, colour: str) -> None:
    """The objectives' cells (a dashed outline) and where the side's creatures start (a dot in
    the cell's upper left corner)."""
    from matplotlib.patches import Rectangle

    for objective in scenario.objectives:
        if isinstance(objective, Reach):
            for cell in objective.cells:
                axes.add_patch(
                    Rectangle(
                        (cell.x - 0.5, cell.y - 0.5),
                        1,
                        1,
                        fill=False,
                        linestyle="--",
                        edgecolor="#000000",
                        linewidth=1.4,
                        zorder=4,
                    )
                )
    world = scenario.world
    starts = [world.need(u, Position).cell for u in creatures(world) if team_of(world, u) == team]
    axes.scatter(
        [c.x - 0.3 for c in starts],
        [c.y - 0.3 for c in starts],
        s=14,
        color=colour,
        edgecolors="#ffffff",
        linewidths=0.6,
        zorder=6,
    )
