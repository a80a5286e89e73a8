"""The input mode: what the next click or key chooses, as one value (as the engine's `Pending`
says what the battle waits for), never several fields that could disagree."""

from __future__ import annotations

from dataclasses import dataclass

from sim.core.geometry import Pos


@dataclass(frozen=True, slots=True)
class Free:
    """Nothing is being chosen: a click selects, plans or commits a move, or attacks."""


@dataclass(frozen=True, slots=True)
class Picking:
    """The item list of `action` is open: the acting creature's items, or for a Disarm (R-X5)
    the weapons of `target`, the creature clicked first."""

    action: str
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Choosing:
    """A list is open for `action`: a spell ("cast"), an ability ("use") or a trigger
    ("prepare")."""

    action: str


@dataclass(frozen=True, slots=True)
class Targeting:
    """`action` waits for a creature or a cell, with what was chosen for it already: its item,
    its spell or ability, and for Assist (R-X21) the ally clicked first."""

    action: str
    item: str | None = None
    ability: str | None = None
    ally: str | None = None


@dataclass(frozen=True, slots=True)
class Marking:
    """Prepare's "enters_area" trigger (R-P2): the cells marked so far, in the order marked."""

    cells: tuple[Pos, ...] = ()


Mode = Free | Picking | Choosing | Targeting | Marking
