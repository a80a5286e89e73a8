"""Attacks of Opportunity (R-R4, R-R5, R-R8): who may make one on a moving creature and which
legs of its move provoke it. The one place the rule is decided: the engine's resolution of every
Movement Action, the client's tips and "!" warnings and `sim reach` (through `foreseen`) and the
AI's weighing of a move all ask `provoked`; the AI's per-cell weighing of a whole reach map asks
its vectorised twin `provoked_along`, which a property test keeps equal to it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from sim.core.actions import Movement, Step, Swim
from sim.core.components import Body, Conditions, Hands, Item, Position, Size, Stats, Team
from sim.core.condition import Condition
from sim.core.creature import has, incapacitated, side, team_of, unseen_by
from sim.core.geometry import Pos
from sim.core.placement import near
from sim.core.world import World
from sim.rules.combat.reactions import can_react
from sim.rules.movement.diving import apart
from sim.rules.reach import pathfinder as pf
from sim.rules.reach.fields import Field, Window
from sim.rules.reach.threat import enemies, reach_bound, reaches, zone


@dataclass(frozen=True, slots=True)
class Provocation:
    """Leaving `cell` (index `leg` of the path) leaves `enemy`'s reach (R-R4)."""

    leg: int
    cell: Pos
    enemy: str
    can_react: bool  # the enemy still has the Bonus Action to pay for it (R-R8)


def provoked(
    world: World,
    unit: str,
    path: tuple[Pos, ...],
    *,
    start: Pos | None = None,
    up: float | None = None,
    end_up: float = 0.0,
    disengaged: bool | None = None,
    submerged: bool | None = None,
) -> Iterator[Provocation]:
    """The Attacks of Opportunity a Movement Action of `unit` along `path` (the cells after
    `start`) provokes, leg by leg and, in each, enemy by enemy in `enemies` order.

    R-R4: a leg provokes an enemy when it leaves that enemy's reach (R-A4, heights included:
    in reach where the leg starts, out of it where it ends, `leaves_reach`); the enemy must be
    one that may react to the mover at all (`_watches`: it can still act, R-K2; it sees the
    mover, R-X8; no water parts them, R-M8 Decision), and none does after a Disengage (R-R5).
    Each provocation says whether the enemy can pay for the attack (R-R8, `can_pay`): the
    engine asks only those that can, the client shows the others dimmed. Forced movement (a
    Shove's push, R-X15) is no Movement Action and never asks this: being pushed never provokes.

    `start` and `up`: the cell the move leaves and the metres above its ground the mover is
    there (a climber hanging on a face, R-M7); None: where the mover is now. `end_up`: metres
    above the last cell's ground the move ends at (a Climb that hangs part-way). `disengaged`
    and `submerged`: the mover's state during the move when it is not so yet (a Disengage
    first; a dive or a Swim up to the surface, `submerged_during`); None: as it is
    now. A generator: the engine resolves each Attack of Opportunity before the next enemy is
    weighed, as the rules have it (R-R8: whether it can pay is asked at its turn to react)."""
    if _disengaged(world, unit, disengaged):
        return
    own = world.need(unit, Position)
    here = own.cell if start is None else start
    height = own.elevation if up is None else up
    team = team_of(world, unit)
    wide = side(world, unit)  # R-Z3: it leaves reach only when none of its cells is in it
    # No reach is longer than this: on most legs no enemy is near enough and nothing more is
    # asked (issue #11: the engine asks before every leg of every move), and only the
    # creatures that near are asked at all (issue #30: not every enemy on the map).
    bound = reach_bound(world)
    hidden: tuple[str, ...] | None = None
    # Whether each creature near a leg is one of `enemies` (another team, able to act, R-K2)
    # that `_watches`, asked once a path, when it first comes near: a creature far from the
    # path is never asked (the move cannot change it before then).
    watching: dict[str, bool] = {}
    last = len(path) - 1
    for leg, there in enumerate(path):
        there_up = end_up if leg == last else 0.0
        for enemy in near(world, here, bound, wide):
            if enemy not in watching:
                if team_of(world, enemy) == team or incapacitated(world, enemy):
                    watching[enemy] = False
                    continue
                if hidden is None:
                    hidden = unseen_by(world, unit)
                watching[enemy] = _watches(world, unit, enemy, hidden, submerged)
            if not watching[enemy]:
                continue
            at = world.need(enemy, Position).cell
            if leaves_reach(
                world, enemy, at, here, there, up_here=height, up_there=there_up, side=wide
            ):
                yield Provocation(leg, here, enemy, can_pay(world, enemy))
        here, height = there, 0.0


def provocations(
    world: World,
    unit: str,
    path: tuple[Pos, ...],
    *,
    end_up: float = 0.0,
    disengaged: bool | None = None,
    submerged: bool | None = None,
) -> tuple[Provocation, ...]:
    """`provoked` from where `unit` is now, all of them: what a path would provoke."""
    return tuple(
        provoked(world, unit, path, end_up=end_up, disengaged=disengaged, submerged=submerged)
    )


class Up(Protocol):
    """Where a Climb that stops part-way leaves its climber (a reach map's `Hang`, R-M7)."""

    @property
    def cell(self) -> Pos: ...

    @property
    def height(self) -> float: ...


def foreseen(
    world: World,
    unit: str,
    kind: type[Movement],
    cells: tuple[Pos, ...],
    *,
    dive: bool = False,
    hang: Up | None = None,
    disengaged: bool | None = None,
) -> tuple[Provocation, ...]:
    """What a `kind` move of `unit` through `cells` (after its start) would provoke, before it
    is made: what the hover tips and their "!" marks, `sim reach` and the tests that hold the
    engine to them show. `dive`: a Swim under water (R-M8); `hang`: a Climb that stops
    part-way up a face leaves its first cell from there (R-M7); `disengaged`: a Disengage
    taken first (R-R5)."""
    return provocations(
        world,
        unit,
        (hang.cell,) if hang is not None else cells,
        end_up=hang.height if hang is not None else 0.0,
        disengaged=disengaged,
        submerged=submerged_during(world, unit, kind, dive),
    )


def submerged_during(world: World, unit: str, kind: type[Movement], dive: bool) -> bool:
    """Whether `unit` is under water while it makes a `kind` move, as the move's resolution
    leaves it before the first leg (R-M8): a Swim dives or swims up as asked (`dive`), a Step
    surfaces to get out of the water, any other move keeps it as it is (a Climb surfaces after
    it has left its cell). What an Attack of Opportunity sees of the move (`diving.apart`)."""
    if kind is Swim:
        return dive
    if kind is Step:
        return False
    return has(world, unit, Condition.SUBMERGED)


def _disengaged(world: World, unit: str, disengaged: bool | None) -> bool:
    """R-R5: whether `unit`'s move follows a Disengage, so that it provokes nothing
    (`disengaged`; None: whether it has disengaged now)."""
    return has(world, unit, Condition.DISENGAGED) if disengaged is None else disengaged


def _watches(
    world: World, unit: str, enemy: str, hidden: tuple[str, ...], submerged: bool | None
) -> bool:
    """Whether `enemy` (one of `enemies`: it can still act, R-K2) may react to `unit`'s move
    at all: it sees the mover (R-X8: `hidden` are those that do not) and no water parts them
    (R-M8 Decision; `submerged`: the mover's state during the move, None: as it is now)."""
    return enemy not in hidden and not apart(world, unit, enemy, a_under=submerged)


def leaves_reach(
    world: World,
    enemy: str,
    at: Pos,
    here: Pos,
    there: Pos,
    *,
    up_here: float = 0.0,
    up_there: float = 0.0,
    side: int = 1,
) -> bool:
    """R-R4: whether a leg from `here` to `there` leaves the reach of `enemy` standing at `at`:
    it reaches `here` and not `there` (R-A4, `up_here` and `up_there` metres above each
    cell's ground, R-M7). R-Z3: a mover `side` cells wide leaves it only when no cell of its
    footprint at `there` is in it."""
    return reaches(world, enemy, at, here, up=up_here, target_side=side) and not reaches(
        world, enemy, at, there, up=up_there, target_side=side
    )


def can_pay(world: World, enemy: str) -> bool:
    """R-R8: whether `enemy` has the Bonus Actions an Attack of Opportunity costs (and may
    react at all, R-K2)."""
    return can_react(world, enemy, world.rules.reactions.opportunity_bonus)


def watchers(world: World, unit: str) -> tuple[str, ...]:
    """The enemies that may make an Attack of Opportunity on `unit`'s next Movement Action as
    it stands (R-R4, R-R5: none after a Disengage; `_watches`), in `enemies` order."""
    if _disengaged(world, unit, None):
        return ()
    hidden = unseen_by(world, unit)
    return tuple(e for e in enemies(world, unit) if _watches(world, unit, e, hidden, None))


def held_by(world: World, unit: str) -> tuple[str, ...]:
    """The `watchers` whose reach `unit` stands in: those any move out of their reach would
    provoke (R-R4), the ones a Disengage slips away from (R-R5)."""
    own = world.need(unit, Position)
    return tuple(
        enemy
        for enemy in watchers(world, unit)
        if reaches(
            world,
            enemy,
            world.need(enemy, Position).cell,
            own.cell,
            up=own.elevation,
            target_side=side(world, unit),
        )
    )


def provoking_cells(world: World, unit: str) -> frozenset[Pos]:
    """Every cell on the ground some of `watchers` reaches (its `zone`): only leaving one of
    them can provoke (R-R4), so a path that passes none provokes nothing. For a large mover,
    every top-left from which its footprint covers one of them (R-Z3)."""
    zones = frozenset().union(*(zone(world, foe) for foe in watchers(world, unit)))
    return anchored(zones, side(world, unit))  # R-Z3: a large mover's top-lefts


# --- the compiled twin ------------------------------------------------------------------------


def zone_planes(
    world: World, unit: str, window: Window
) -> tuple[tuple[str, ...], npt.NDArray[np.uint8]]:
    """`unit`'s `watchers` (in that order) and, for each, a plane of `window` marking the cells
    of its `zone`, kept by the world until a creature moves, what it holds or a condition
    changes."""

    def planes() -> tuple[tuple[str, ...], npt.NDArray[np.uint8]]:
        foes = watchers(world, unit)
        wide = side(world, unit)
        out = np.zeros((len(foes), *window.shape), dtype=np.uint8)
        for index, foe in enumerate(foes):
            for cell in anchored(zone(world, foe), wide):
                if window.holds(cell):
                    out[(index, *window.local(cell))] = 1
        return foes, out

    return world.memo(
        ("zone_planes", unit, window),
        planes,
        reads=(Position, Hands, Item, Body, Team, Stats, Conditions, Size),
    )


def anchored(cells: frozenset[Pos], wide: int) -> frozenset[Pos]:
    """The top-lefts from which a footprint `wide` cells a side covers one of `cells`: where a
    large mover is in a foe's reach (R-Z3), on the ground, when `cells` is that foe's zone.

    >>> sorted(anchored(frozenset({Pos(3, 3)}), 2))
    [Pos(x=2, y=2), Pos(x=2, y=3), Pos(x=3, y=2), Pos(x=3, y=3)]
    """
    if wide == 1:
        return cells
    return frozenset(
        Pos(cell.x - dx, cell.y - dy) for cell in cells for dy in range(wide) for dx in range(wide)
    )


def provoked_along(
    world: World,
    unit: str,
    field: Field,
    weigh: Callable[[str], float],
    asked: npt.NDArray[np.bool_],
) -> npt.NDArray[np.float64]:
    """The vectorised twin of `provoked`, for a creature on the ground (not hanging on a face)
    moving as it stands: for each cell of `field`'s window marked in `asked` (0 elsewhere), the
    sum of `weigh(enemy)` over what `provoked` yields for the field's path to it, added up in
    the same order. Twin, not a second rule: on the ground reach is membership of the enemy's
    `zone` (`reaches` with no height), so the legs' leaving is `zone_planes` in at the start
    and out at the end, which `pathfinder.path_provoked` tests in compiled code for every path
    at once (issue #11: a policy weighs hundreds of moves a decision). Kept equal to
    `provoked` by tests/rules/reach/test_opportunity.py on random maps."""
    foes, zones = zone_planes(world, unit, field.window)
    weights = np.array([weigh(foe) for foe in foes], dtype=np.float64)
    g = field.ground
    sy, sx = field.window.local(field.start)
    return pf.paths_provoked(
        g.planes, g.flags, g.params, field.dist, field.states, sy, sx, asked, zones, weights
    )
