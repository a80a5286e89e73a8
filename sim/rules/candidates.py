"""Candidates: the decisions worth putting to the check for one creature, each action type's own
(its mechanic module says which), and what they share while one listing is made."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from sim.core.actions import Action
from sim.core.components import Gear, Hands, Position
from sim.core.creature import creatures, side, team_of, unseen_by
from sim.core.geometry import Pos, gap
from sim.core.world import World
from sim.rules.reach.target import in_reach
from sim.rules.reach.threat import reach_bound

T = TypeVar("T")


class Over(Enum):
    """What a candidates generator is called for, in the order the legal listing goes through
    them (sim/play/legal.py): the random AI draws by place in that list, so the order is part of
    every game it plays."""

    SELF = "self"  # once, first: what the creature does alone (Aim, Guard, ending the turn)
    HELD = "held"  # each item in its hands
    CARRIED = "carried"  # each item it carries
    AROUND = "around"  # once: its items and the ground and cells about it
    CREATURE = "creature"  # each creature in sight: tending it, an attack with no weapon named
    WEAPON = "weapon"  # each creature in sight and item in hand: an attack or a trip with it
    CLOSE = "close"  # each creature in sight again: the hands-on actions at it
    MISSILE = "missile"  # each creature in sight and item in hand: a throw or a toss to it
    GROUP = "group"  # once: actions on two others (Assist)
    ABILITY = "ability"  # each spell or ability it knows
    PLAN = "plan"  # once, last of the plain actions: plans for later (Prepare)
    REACH = "reach"  # a Movement Action to each cell of its reach map (the listing's own)


@dataclass(frozen=True, slots=True)
class Unless:
    """A candidate not listed when `same()`: it is a decision listed under another name. Asked
    only once the check accepts the action (most candidates it refuses)."""

    action: Action
    same: Callable[[], bool]


Make = Callable[["Scene", Any], Iterable["Action | Unless"]]


@dataclass(frozen=True, slots=True)
class Candidates:
    """How an action type's candidates are found: `make(scene, subject)` for each subject of
    `over` (None for the once-only ones, an item or creature id, a (creature, item) pair or an
    ability's name). Neither slowed nor quickened: the listing adds the variants it can pay.
    Over the reach map (`Over.REACH`) there is no `make`: the listing reads the cells off the
    searches itself, without making a decision per cell until one is asked for. `near`: a
    generator over a creature (`Over.CREATURE`, `WEAPON`, `CLOSE`, `MISSILE`) that makes none
    at a creature out of the unit's reach (`Scene.near`, its own first question): the listing
    asks it only of those in reach (issue #30: most creatures of a map are far)."""

    over: Over
    make: Make | None = None
    near: bool = False


def by_itself(kind: type[Action]) -> Candidates:
    """The candidates of an action that names nothing but its actor: the one action."""

    def make(scene: Scene, subject: None) -> tuple[Action, ...]:
        return (kind(scene.unit),)

    return Candidates(Over.SELF, make)


class Scene:
    """One creature's candidates being made: what they all read of the world (its items, the
    creatures it sees), and the sieve, the checks' first questions (a target in reach, a weapon
    that can strike, an item light enough to toss), each asked once per listing so that a
    candidate the check would refuse is not made. The sieve only leaves out what the check
    refuses: `Unsifted` lets everything through, and lists the same
    (tests/play/test_legal_listing.py)."""

    def __init__(self, world: World, unit: str) -> None:
        self.world, self.unit = world, unit
        self.here = world.need(unit, Position).cell
        self.team = team_of(world, unit)
        hands, gear = world.get(unit, Hands), world.get(unit, Gear)
        self.held: tuple[str, ...] = hands.items() if hands is not None else ()
        self.carried: tuple[str, ...] = gear.carried if gear is not None else ()
        self._kept: dict[Hashable, Any] = {}

    def others(self) -> tuple[str, ...]:
        """Creatures other than the unit that it sees (R-X8) and that are still in the fight or
        lying down in it. Kept by the world while nothing is written: a listing asks often."""
        world, unit = self.world, self.unit

        def seen() -> tuple[str, ...]:
            return tuple(
                c for c in creatures(world) if c != unit and unit not in unseen_by(world, c)
            )

        return world.memo(("legal.others", unit), seen)

    def kept(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, made once per listing for `key`."""
        if key in self._kept:
            return self._kept[key]  # type: ignore[no-any-return]
        found = self._kept[key] = make()
        return found

    def sifts(self, key: Hashable, question: Callable[[], bool]) -> bool:
        """The sieve's answer to `question` (a check's first question, True: it may pass),
        asked once per listing for `key`."""
        return self.kept(key, question)

    def apart(self, other: str) -> int:
        """Cells (Chebyshev) between the nearest cells of the unit's footprint and `other`'s
        (R-Z3): no reach or range is shorter than this many cells on the grid."""

        def cells() -> int:
            there = self.world.need(other, Position).cell
            return gap(self.here, side(self.world, self.unit), there, side(self.world, other))

        return self.kept(("apart", other), cells)

    def near(self, other: str) -> bool:
        """Whether `other` is in the unit's reach for a hands-on action (`in_reach`, the first
        question of Aid, Administer, Trip, Shove, Feint, Grapple and Disarm). A creature
        farther than any melee reach spans (`reach_bound`) is not, and its sight lines are not
        looked at (issue #30: most creatures of a map are far, and the action bar's listing
        asked each of them after every state change)."""

        def question() -> bool:
            if self.apart(other) > reach_bound(self.world):
                return False
            return in_reach(self.world, self.unit, other, "reach", "R-A4") is None

        return self.sifts(("near", other), question)

    def ally(self, other: str) -> bool:
        return team_of(self.world, other) == self.team


class Unsifted(Scene):
    """A scene whose sieve lets every candidate through to the check."""

    def sifts(self, key: Hashable, question: Callable[[], bool]) -> bool:
        return True


def chebyshev(p: Pos, q: Pos) -> int:
    return max(abs(p.x - q.x), abs(p.y - q.y))
