"""Actions as frozen values (one type per intent), their costs and refusals."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import ClassVar

from sim.rules import Tier


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action cannot be taken, in words a player can read."""

    reason: str


@dataclass(frozen=True, slots=True)
class Cost:
    """What an action will take out of the budget (R-B3)."""

    tier: Tier
    half: int
    bonus: int
    free_kind: str | None = None
    counts_as_action: bool = True  # False for Free Actions and ending the turn (R-B3 "first")


@dataclass(frozen=True, slots=True)
class Action:
    """Something a creature does. `slow` and `quicken` shift its tier (R-B6)."""

    actor: str
    _: KW_ONLY
    slow: bool = False
    quicken: bool = False

    name: ClassVar[str] = "action"
    tier: ClassVar[Tier] = Tier.HALF
    free_kind: ClassVar[str | None] = None  # R-B3: the kind of Free Action, once a turn
    extra_bonus: ClassVar[int] = 0  # Sprint's extra Bonus Action (R-B3)
    reaction: ClassVar[bool] = False  # taken outside the actor's turn (R-T3)


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    name: ClassVar[str] = "end_turn"
    tier: ClassVar[Tier] = Tier.FREE


@dataclass(frozen=True, slots=True)
class Aim(Action):
    """R-X1."""

    name: ClassVar[str] = "aim"
    tier: ClassVar[Tier] = Tier.BONUS


@dataclass(frozen=True, slots=True)
class Brace(Action):
    """R-X3."""

    name: ClassVar[str] = "brace"
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Evade(Action):
    """R-X9."""

    name: ClassVar[str] = "evade"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Guard(Action):
    """R-X14."""

    name: ClassVar[str] = "guard"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """R-X6: a stowed weapon or shield (or any carried item) into a free hand."""

    item: str
    name: ClassVar[str] = "draw"
    tier: ClassVar[Tier] = Tier.FREE
    free_kind: ClassVar[str | None] = "draw_stow"


@dataclass(frozen=True, slots=True)
class Stow(Action):
    """R-X6."""

    item: str
    name: ClassVar[str] = "stow"
    tier: ClassVar[Tier] = Tier.FREE
    free_kind: ClassVar[str | None] = "draw_stow"


@dataclass(frozen=True, slots=True)
class Drop(Action):
    """R-X7."""

    item: str
    name: ClassVar[str] = "drop"
    tier: ClassVar[Tier] = Tier.FREE
    free_kind: ClassVar[str | None] = "drop"


@dataclass(frozen=True, slots=True)
class PickUp(Action):
    """R-X7."""

    item: str
    name: ClassVar[str] = "pick_up"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Consume(Action):
    """R-X4."""

    item: str
    name: ClassVar[str] = "consume"
    tier: ClassVar[Tier] = Tier.FREE
    free_kind: ClassVar[str | None] = "consume"


@dataclass(frozen=True, slots=True)
class FallProne(Action):
    """R-M10."""

    name: ClassVar[str] = "fall_prone"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class StandUp(Action):
    """R-M10."""

    name: ClassVar[str] = "stand_up"
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Don(Action):
    """R-B5: put on carried armour, an Extended Action."""

    item: str
    name: ClassVar[str] = "don"
    tier: ClassVar[Tier] = Tier.EXTENDED


@dataclass(frozen=True, slots=True)
class Doff(Action):
    """R-B5: take off worn armour, an Extended Action."""

    name: ClassVar[str] = "doff"
    tier: ClassVar[Tier] = Tier.EXTENDED
