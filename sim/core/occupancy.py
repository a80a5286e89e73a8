"""Who stands in each cell: every cell of a standing creature's footprint (R-Z1, R-M5), kept up
to date from the world's journal of writes, so that asking who holds a cell is one look-up
instead of a pass over every creature after each change (issue #30)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from sim.core.components import Conditions, Position, Size, Stats, Team
from sim.core.creature import cells_of, creatures, is_creature, lying, side
from sim.core.geometry import Pos, footprint
from sim.core.world import World

# Where a creature stands, whether it is down (a condition), how large, and that it is one.
READS = (Position, Conditions, Team, Stats, Size)

Holders = tuple[tuple[str, str], ...]  # (creature, its team) standing in a cell, by rank


class Occupancy:
    """The standing creatures in each cell, with their teams, in the order the creatures were
    added, as of the world's write `mark`. `cells` is replaced, never changed, when a creature
    moves, falls or gets up: a `Standing` view made from it keeps answering for its moment."""

    __slots__ = ("cells", "mark", "views", "where")

    def __init__(self) -> None:
        self.mark = -1  # never brought up to date
        self.cells: dict[Pos, Holders] = {}
        # The cells each standing creature holds, and its team.
        self.where: dict[str, tuple[tuple[Pos, ...], str]] = {}
        self.views: dict[str, Standing] = {}  # made from the present `cells`

    def update(self, world: World) -> None:
        """File again the creatures written since the last look (all of them the first time,
        or when the journal does not reach back so far)."""
        due = world.refile(self.mark, READS)
        if due is None:
            return
        changed, afresh = due
        if afresh:
            self._afresh(world)
            return
        cells = self.cells
        copied = False
        ranks = world.ranks
        for unit in dict.fromkeys(changed):
            held = _held(world, unit)
            team = world.need(unit, Team).name if held else ""
            old = self.where.get(unit)
            if (held, team) == (old or ((), "")):
                continue  # a change of what neither moves it nor lays it down
            if not copied:
                cells, copied = dict(cells), True
            for cell in self.where.pop(unit, ((), ""))[0]:
                left = tuple(h for h in cells[cell] if h[0] != unit)
                if left:
                    cells[cell] = left
                else:
                    del cells[cell]
            if held:
                self.where[unit] = (held, team)
                _file(cells, unit, team, held, ranks)
        if copied:
            self.cells = cells
            self.views = {}
        self.mark = world.written

    def _afresh(self, world: World) -> None:
        """Every standing creature filed anew, with nothing to take out first (a first look,
        or a journal that does not reach back so far: a reach map on a copy of the world)."""
        cells: dict[Pos, Holders] = {}
        where: dict[str, tuple[tuple[Pos, ...], str]] = {}
        ranks = world.ranks
        # Only a creature holds a cell: filed from the creatures alone, not from every item
        # too.
        for unit in creatures(world):
            held = _standing_on(world, unit)
            if held:
                team = world.need(unit, Team).name
                where[unit] = (held, team)
                _file(cells, unit, team, held, ranks)
        self.cells, self.where, self.views = cells, where, {}
        self.mark = world.written


def _held(world: World, unit: str) -> tuple[Pos, ...]:
    """The cells a creature holds for itself: its footprint while it stands (R-Z1, R-M5)."""
    return _standing_on(world, unit) if is_creature(world, unit) else ()


def _standing_on(world: World, unit: str) -> tuple[Pos, ...]:
    """`_held` of a creature: one without any condition is not lying down (most creatures;
    `lying` asks two conditions of each, and a reach map's copy of the world files them all)."""
    at = world.get(unit, Position)
    if at is None:
        return ()
    held = world.get(unit, Conditions)
    if held is not None and held.entries and lying(world, unit):
        return ()
    return footprint(at.cell, side(world, unit))


def _file(
    cells: dict[Pos, Holders], unit: str, team: str, held: tuple[Pos, ...], ranks: Mapping[str, int]
) -> None:
    """`unit` (of `team`) filed on each cell of `held`, its holders in the order of `creatures`."""
    for cell in held:
        there = (*cells.get(cell, ()), (unit, team))
        if len(there) > 1:
            there = tuple(sorted(there, key=lambda h: ranks[h[0]]))
        cells[cell] = there


def occupancy(world: World) -> Occupancy:
    """The world's occupancy index, brought up to date."""
    index = world.kept("occupancy", Occupancy)
    index.update(world)
    return index


class Standing(Mapping[Pos, str]):
    """The cells other standing creatures than `unit` hold, each with the first of them in the
    order of `creatures` (R-M5); read-only, as of the moment it was made."""

    __slots__ = ("_cells", "_unit")

    def __init__(self, cells: dict[Pos, Holders], unit: str) -> None:
        self._cells = cells
        self._unit = unit

    def get(self, cell: Pos, default: str | None = None) -> str | None:  # type: ignore[override]
        there = self._cells.get(cell)
        if there is None:
            return default
        first = there[0][0]
        if first != self._unit:
            return first
        return there[1][0] if len(there) > 1 else default

    def team(self, cell: Pos) -> str | None:
        """The team of the creature `get` names, or None."""
        there = self._cells.get(cell)
        if there is None:
            return None
        if there[0][0] != self._unit:
            return there[0][1]
        return there[1][1] if len(there) > 1 else None

    def teams(self) -> Iterator[tuple[Pos, str]]:
        """Each cell held, with the team of the creature `get` names."""
        unit = self._unit
        for cell, there in self._cells.items():
            if there[0][0] != unit:
                yield cell, there[0][1]
            elif len(there) > 1:
                yield cell, there[1][1]

    def __getitem__(self, cell: Pos) -> str:
        found = self.get(cell)
        if found is None:
            raise KeyError(cell)
        return found

    def __contains__(self, cell: object) -> bool:
        there = self._cells.get(cell)  # type: ignore[call-overload]
        return there is not None and (there[0][0] != self._unit or len(there) > 1)

    def __iter__(self) -> Iterator[Pos]:
        unit = self._unit
        for cell, there in self._cells.items():
            if there[0][0] != unit or len(there) > 1:
                yield cell

    def __len__(self) -> int:
        return sum(1 for _ in self)


def standing(world: World, unit: str) -> Standing:
    """Where standing creatures other than `unit` are (R-M5): a view of the occupancy index."""
    index = occupancy(world)
    view = index.views.get(unit)
    if view is None:
        view = index.views[unit] = Standing(index.cells, unit)
    return view


def standing_scan(world: World, unit: str) -> dict[Pos, str]:
    """`standing` by asking every creature: what it must always equal (tests hold it so)."""
    out: dict[Pos, str] = {}
    for other in world.entities():
        if other != unit and _held(world, other):
            for cell in cells_of(world, other):
                out.setdefault(cell, other)
    return out
