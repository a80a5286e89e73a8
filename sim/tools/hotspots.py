"""Where fights are decided: per cell, for each side, where its creatures went down, where they
dealt and took damage and where they ended their turns, read from a game's event log and added
up over a batch.

A creature's cell is followed through the log from where the scenario puts it: every event that
moves a creature (a step, a jump, a push, a climb, a fall) says where it ends. The four counts:

- `downed`: creatures of the side Incapacitated (R-C6, R-K2) on that cell;
- `dealt`: damage (after armour) the side's creatures did from that cell, to anyone: the cell
  the dealer stood on, so an archer's damage counts where the archer stood;
- `taken`: damage the side's creatures took on that cell, from anything (a fall, a fire);
- `held`: turns the side's creatures ended on that cell: the cells the side holds most.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sim.core import events as ev
from sim.core.components import Position
from sim.core.condition import Condition
from sim.core.creature import creatures, team_of
from sim.core.geometry import Pos
from sim.core.world import World

# The counts in the order the JSON, the summary and the map panels give them, with their words.
MEASURES = ("downed", "dealt", "taken", "held")
WORDS = {
    "downed": "went down",
    "dealt": "damage dealt from",
    "taken": "damage taken on",
    "held": "turns ended on",
}
UNITS = {"downed": "creatures", "dealt": "HP", "taken": "HP", "held": "turns"}


@dataclass(frozen=True, slots=True)
class CellCount:
    """One side's count of one measure on one cell, in one game or over a batch."""

    team: str
    measure: str
    x: int
    y: int
    count: int


def read_cells(log: Iterable[ev.Event], start: World) -> tuple[CellCount, ...]:
    """The per-cell counts of one game: `log` is its event log and `start` the world it began
    from (the scenario's, which gives each creature's first cell and its side). In MEASURES'
    order, then by side as `start` lists its creatures, then by cell (row by row)."""
    units = creatures(start)
    team = {unit: team_of(start, unit) for unit in units}
    where = {unit: start.need(unit, Position).cell for unit in units}
    counts: dict[tuple[str, str, Pos], int] = {}
    down: set[str] = set()  # a creature already down is not downed again by a new value

    def add(measure: str, unit: str, cell: Pos, amount: int = 1) -> None:
        key = (measure, team[unit], cell)
        counts[key] = counts.get(key, 0) + amount

    for event in log:
        if isinstance(event, ev.Moved | ev.Jumped | ev.Pushed | ev.Climbed):
            if event.unit in where:
                where[event.unit] = event.end
        elif isinstance(event, ev.Fell):
            if event.unit in where:
                where[event.unit] = event.at
        elif isinstance(event, ev.Damaged):
            if event.unit in where:
                add("taken", event.unit, where[event.unit], event.amount)
            if event.dealer in where:  # None for a fall, fire or bleeding
                add("dealt", event.dealer, where[event.dealer], event.amount)
        elif isinstance(event, ev.TurnEnded):
            if event.unit in where:
                add("held", event.unit, where[event.unit])
        elif isinstance(event, ev.ConditionGained | ev.ConditionLost):
            if event.condition != Condition.INCAPACITATED or event.unit not in where:
                continue
            if isinstance(event, ev.ConditionLost):
                down.discard(event.unit)
            elif event.unit not in down:
                down.add(event.unit)
                add("downed", event.unit, where[event.unit])
    sides = list(dict.fromkeys(team.values()))
    order = sorted(
        counts,
        key=lambda key: (MEASURES.index(key[0]), sides.index(key[1]), key[2].y, key[2].x),
    )
    return tuple(
        CellCount(side, measure, cell.x, cell.y, counts[measure, side, cell])
        for measure, side, cell in order
        if counts[measure, side, cell]
    )


def totals(teams: Sequence[str], games: Iterable[Sequence[CellCount]]) -> dict[str, Any]:
    """The counts of many games added up, JSON-ready: for each side in `teams` and each measure,
    `[x, y, count]` for every cell with a count, the highest first (then row by row).

    >>> one = (CellCount("blue", "downed", 2, 1, 1), CellCount("red", "held", 0, 0, 3))
    >>> totals(["blue", "red"], [one, one[:1]])["red"]
    {'downed': [], 'dealt': [], 'taken': [], 'held': [[0, 0, 3]]}
    >>> totals(["blue", "red"], [one, one[:1]])["blue"]["downed"]
    [[2, 1, 2]]
    """
    added: dict[tuple[str, str], dict[tuple[int, int], int]] = {}
    for game in games:
        for c in game:
            cells = added.setdefault((c.team, c.measure), {})
            cells[c.x, c.y] = cells.get((c.x, c.y), 0) + c.count
    out: dict[str, Any] = {}
    for team in [*teams, *(t for t, _ in added if t not in teams)]:
        out[team] = {}
        for measure in MEASURES:
            cells = added.get((team, measure), {})
            ranked = sorted(cells, key=lambda xy: (-cells[xy], xy[1], xy[0]))
            out[team][measure] = [[x, y, cells[x, y]] for x, y in ranked]
    return out
