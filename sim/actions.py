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
    extra_bonus: ClassVar[int] = 0  # 1: pays Sprint's extra Bonus ([sprint], R-B3)
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
    """R-M8: Speed/3 in water at least waist-deep; `submerged`: under the surface (diving), in
    water at least as deep as the swimmer is tall."""

    submerged: bool = False

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
class Shove(Action):
    """R-X15: a STR Contest against `target` in reach; a loser is pushed away and may fall."""

    target: str = ""
    name: ClassVar[str] = "shove"
    tier: ClassVar[Tier] = Tier.BONUS


@dataclass(frozen=True, slots=True)
class Trip(Action):
    """R-X19: a melee attack on `target` (with `weapon`, else the first held melee weapon);
    on a hit, an AGI Save against the Hit Roll or the target falls Prone."""

    target: str = ""
    weapon: str | None = None
    name: ClassVar[str] = "trip"
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Disarm(Action):
    """R-X5: a contested melee attack on `target`; on success its held weapon `item` (else its
    first held weapon) drops to the ground in its cell."""

    target: str = ""
    item: str | None = None
    name: ClassVar[str] = "disarm"
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Feint(Action):
    """R-X10: Deception against `target`'s FCS Save; success gives +5 on the next melee Hit Roll
    against it."""

    target: str = ""
    name: ClassVar[str] = "feint"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Assist(Action):
    """R-X21: `ally`'s next Hit Roll against `enemy` (both in the assister's melee reach) before
    the start of the assister's next turn gains +2."""

    ally: str = ""
    enemy: str = ""
    name: ClassVar[str] = "assist"
    tier: ClassVar[Tier] = Tier.BONUS


@dataclass(frozen=True, slots=True)
class Hide(Action):
    """R-X8: Stealth against each opponent's Perception; each beaten one no longer sees it."""

    name: ClassVar[str] = "hide"
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class AbilityAction(Action):
    """R-X20: a spell or an ability of the rules data (`ability`, its name there), aimed at a
    creature (`target`, its id) or a cell (`to`). It costs the tier its data names, which
    `budget.standard_tier` reads; the type's own `tier` is not used."""

    ability: str = ""
    target: str = ""
    to: Pos | None = None
    category: ClassVar[str] = "ability"  # "spell" or "ability": the data's kind and JSON field


@dataclass(frozen=True, slots=True)
class Cast(AbilityAction):
    """R-X20: cast a spell (Quick ½, Complex 1½, Very Complex Full)."""

    name: ClassVar[str] = "cast"
    category: ClassVar[str] = "spell"


@dataclass(frozen=True, slots=True)
class Use(AbilityAction):
    """R-X20: use an ability at the tier it names."""

    name: ClassVar[str] = "use"
    category: ClassVar[str] = "ability"


@dataclass(frozen=True, slots=True)
class Disengage(Action):
    """R-R5: the Movement Action directly after it provokes no Attack of Opportunity."""

    name: ClassVar[str] = "disengage"
    tier: ClassVar[Tier] = Tier.BONUS


@dataclass(frozen=True, slots=True)
class Grapple(Action):
    """R-X13, R-G1: begin a grapple on `target` in reach, with a free hand."""

    target: str = ""
    name: ClassVar[str] = "grapple"
    tier: ClassVar[Tier] = Tier.ONE_AND_HALF


@dataclass(frozen=True, slots=True)
class BreakFree(Action):
    """R-G2: a Grappled creature tries to break free, once per turn."""

    name: ClassVar[str] = "break_free"
    tier: ClassVar[Tier] = Tier.FULL


@dataclass(frozen=True, slots=True)
class Release(Action):
    """R-G4: the grappler lets go, for free, at any time (also outside its turn)."""

    name: ClassVar[str] = "release"
    tier: ClassVar[Tier] = Tier.FREE
    reaction: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Aid(Action):
    """R-X11: an ally in reach loses Incapacitated, 2 Burning stacks and, by a First Aid roll,
    Bleeding stacks."""

    target: str = ""
    name: ClassVar[str] = "aid"
    tier: ClassVar[Tier] = Tier.ONE_AND_HALF


@dataclass(frozen=True, slots=True)
class Administer(Action):
    """R-X12: heal an ally in reach by the First Aid level; with `item`, help a willing creature
    in reach drink a potion or remedy the administrator has."""

    target: str = ""
    item: str | None = None
    name: ClassVar[str] = "administer"
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """R-X17: a ranged attack on `target` with the held `item`."""

    target: str = ""
    item: str = ""
    name: ClassVar[str] = "throw"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Toss(Action):
    """R-X18: the held `item` to a cell `to` or to a creature `target`, which may catch it."""

    item: str = ""
    to: Pos | None = None
    target: str | None = None
    name: ClassVar[str] = "toss"
    tier: ClassVar[Tier] = Tier.BONUS


@dataclass(frozen=True, slots=True)
class Prepare(Action):
    """R-P1, R-X16: skip now to act later. `trigger` is one of "enemy_within" (with `metres`),
    "enters_area" (with `cells`), "starts_action" or "ends_turn" (with `watch`, a creature);
    `then` is the prepared action, taken first when the trigger comes."""

    trigger: str = ""
    metres: float = 0.0
    cells: tuple[Pos, ...] = ()
    watch: str = ""
    then: Action | None = None
    name: ClassVar[str] = "prepare"
    tier: ClassVar[Tier] = Tier.FREE
