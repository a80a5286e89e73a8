"""Actions as frozen values (one type per intent), their costs and refusals."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import ClassVar

from sim.geometry import Pos
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
    movement: ClassVar[bool] = False  # a Movement Action (R-M)


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


# --- movement (R-M) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Movement(Action):
    """A Movement Action along `path` (cells after the start; `jumps` marks path indices entered
    by a jump) or to `to`, for which the engine finds the cheapest legal path."""

    path: tuple[Pos, ...] = ()
    to: Pos | None = None
    jumps: tuple[int, ...] = ()

    movement: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Step(Movement):
    """R-M1: up to 2 m."""

    name: ClassVar[str] = "step"
    tier: ClassVar[Tier] = Tier.BONUS


@dataclass(frozen=True, slots=True)
class Walk(Movement):
    """R-M1: Speed/3."""

    name: ClassVar[str] = "walk"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Run(Movement):
    """R-M1: Speed + Athletics."""

    name: ClassVar[str] = "run"
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Sprint(Movement):
    """R-M1: Speed + Athletics + AGI Roll + AGI Bonus, rolled when declared."""

    name: ClassVar[str] = "sprint"
    tier: ClassVar[Tier] = Tier.ONE
    extra_bonus: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Crawl(Movement):
    """R-M8: AGI die size / 2, only while prone."""

    name: ClassVar[str] = "crawl"
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Swim(Movement):
    """R-M8: Speed/3 in water at least waist-deep."""

    name: ClassVar[str] = "swim"
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Jump(Movement):
    """R-M6: a standing jump on its own, a ½ Action."""

    name: ClassVar[str] = "jump"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Climb(Movement):
    """R-M7: up or down a climbable face by up to the AGI die size in metres."""

    name: ClassVar[str] = "climb"
    tier: ClassVar[Tier] = Tier.ONE


# --- combat (R-A, R-X, R-R) ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """R-X2: a basic melee or ranged attack on `target`, with `weapon` (an item id or kind;
    the first held weapon that can reach the target when not given)."""

    target: str = ""
    weapon: str | None = None
    name: ClassVar[str] = "attack"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Disengage(Action):
    """R-R5: the Movement Action directly after it provokes no Attack of Opportunity."""

    name: ClassVar[str] = "disengage"
    tier: ClassVar[Tier] = Tier.BONUS
