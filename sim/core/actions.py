"""Actions as frozen values (one type per intent), their costs and refusals."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Any, ClassVar, Literal

from sim.core.geometry import Pos
from sim.core.numbers import Tier


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
class Json:
    """How one field of an action is written in a decision's JSON (scripts, saves, the event
    log; docs/commands.md "Decisions"), read by sim/core/codec.py: its kind, the words that say what
    it holds in the message refusing a bad one, whether a decision must give it, and whether
    an empty text will do."""

    kind: Literal["text", "flag", "cell", "path", "cells", "metres", "action", "ability"]
    words: str = ""
    required: bool = False
    empty: bool = True  # "text": an empty string is accepted
    marked: bool = True  # "cell": [x, y, "jump"] is accepted too (as [x, y])


def spec(kind: Any, words: str = "", **how: Any) -> dict[str, Json]:
    """A field's metadata naming its JSON form: `field(default=..., metadata=spec(...))`."""
    return {"json": Json(kind, words, **how)}


CREATURE = 'the id of a creature, e.g. "grok"'
ITEM = 'the id or kind of an item, e.g. "healing_potion"'


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
    # The order of its fields in JSON where it is not their order here: saves and logs keep
    # the shape they were written in.
    json_order: ClassVar[tuple[str, ...]] = ()


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

    item: str = field(metadata=spec("text", ITEM, required=True, empty=False))
    name: ClassVar[str] = "draw"
    tier: ClassVar[Tier] = Tier.FREE
    free_kind: ClassVar[str | None] = "draw_stow"


@dataclass(frozen=True, slots=True)
class Stow(Action):
    """R-X6."""

    item: str = field(metadata=spec("text", ITEM, required=True, empty=False))
    name: ClassVar[str] = "stow"
    tier: ClassVar[Tier] = Tier.FREE
    free_kind: ClassVar[str | None] = "draw_stow"


@dataclass(frozen=True, slots=True)
class Drop(Action):
    """R-X7."""

    item: str = field(metadata=spec("text", ITEM, required=True, empty=False))
    name: ClassVar[str] = "drop"
    tier: ClassVar[Tier] = Tier.FREE
    free_kind: ClassVar[str | None] = "drop"


@dataclass(frozen=True, slots=True)
class PickUp(Action):
    """R-X7."""

    item: str = field(metadata=spec("text", ITEM, required=True, empty=False))
    name: ClassVar[str] = "pick_up"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Consume(Action):
    """R-X4."""

    item: str = field(metadata=spec("text", ITEM, required=True, empty=False))
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

    item: str = field(metadata=spec("text", ITEM, required=True, empty=False))
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

    path: tuple[Pos, ...] = field(default=(), metadata=spec("path"))
    to: Pos | None = field(default=None, metadata=spec("cell"))
    jumps: tuple[int, ...] = ()  # written in "path" (a cell [x, y, "jump"])

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

    submerged: bool = field(
        default=False, metadata=spec("flag", "true (swim under the surface) or false")
    )

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

    target: str = field(default="", metadata=spec("text", CREATURE, required=True, empty=False))
    weapon: str | None = field(
        default=None, metadata=spec("text", "the id or kind of a held weapon")
    )
    name: ClassVar[str] = "attack"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Shove(Action):
    """R-X15: a STR Contest against `target` in reach; a loser is pushed away and may fall."""

    target: str = field(default="", metadata=spec("text", CREATURE, required=True, empty=False))
    name: ClassVar[str] = "shove"
    tier: ClassVar[Tier] = Tier.BONUS


@dataclass(frozen=True, slots=True)
class Trip(Action):
    """R-X19: a melee attack on `target` (with `weapon`, else the first held melee weapon);
    on a hit, an AGI Save against the Hit Roll or the target falls Prone."""

    target: str = field(default="", metadata=spec("text", CREATURE, required=True, empty=False))
    weapon: str | None = field(
        default=None, metadata=spec("text", "the id or kind of a held weapon")
    )
    name: ClassVar[str] = "trip"
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Disarm(Action):
    """R-X5: a contested melee attack on `target`; on success its held weapon `item` (else its
    first held weapon) drops to the ground in its cell."""

    target: str = field(default="", metadata=spec("text", CREATURE, required=True, empty=False))
    item: str | None = field(
        default=None, metadata=spec("text", "the id or kind of a weapon the target holds")
    )
    name: ClassVar[str] = "disarm"
    json_order: ClassVar[tuple[str, ...]] = ("item", "target")
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Feint(Action):
    """R-X10: Deception against `target`'s FCS Save; success gives +5 on the next melee Hit Roll
    against it."""

    target: str = field(default="", metadata=spec("text", CREATURE, required=True, empty=False))
    name: ClassVar[str] = "feint"
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Assist(Action):
    """R-X21: `ally`'s next Hit Roll against `enemy` (both in the assister's melee reach) before
    the start of the assister's next turn gains +2."""

    ally: str = field(
        default="",
        metadata=spec("text", 'the id of a creature, e.g. "bram"', required=True, empty=False),
    )
    enemy: str = field(default="", metadata=spec("text", CREATURE, required=True, empty=False))
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

    ability: str = field(default="", metadata=spec("ability", required=True, empty=False))
    target: str = field(default="", metadata=spec("text", CREATURE))
    to: Pos | None = field(default=None, metadata=spec("cell", marked=False))
    category: ClassVar[str] = "ability"  # "spell" or "ability": the data's kind and JSON field
    example: ClassVar[str] = "battle_focus"  # one by that name, for a message
    json_order: ClassVar[tuple[str, ...]] = ("ability", "to", "target")


@dataclass(frozen=True, slots=True)
class Cast(AbilityAction):
    """R-X20: cast a spell (Quick ½, Complex 1½, Very Complex Full)."""

    name: ClassVar[str] = "cast"
    category: ClassVar[str] = "spell"
    example: ClassVar[str] = "firebolt"


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

    target: str = field(default="", metadata=spec("text", CREATURE, required=True, empty=False))
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

    target: str = field(default="", metadata=spec("text", CREATURE, required=True, empty=False))
    name: ClassVar[str] = "aid"
    tier: ClassVar[Tier] = Tier.ONE_AND_HALF


@dataclass(frozen=True, slots=True)
class Administer(Action):
    """R-X12: heal an ally in reach by the First Aid level; with `item`, help a willing creature
    in reach drink a potion or remedy the administrator has."""

    target: str = field(default="", metadata=spec("text", CREATURE, required=True, empty=False))
    item: str | None = field(
        default=None, metadata=spec("text", "the id or kind of a potion or remedy the unit has")
    )
    name: ClassVar[str] = "administer"
    json_order: ClassVar[tuple[str, ...]] = ("item", "target")
    tier: ClassVar[Tier] = Tier.ONE


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """R-X17: a ranged attack on `target` with the held `item`."""

    target: str = field(default="", metadata=spec("text", CREATURE, required=True, empty=False))
    item: str = field(default="", metadata=spec("text", ITEM, required=True, empty=False))
    name: ClassVar[str] = "throw"
    json_order: ClassVar[tuple[str, ...]] = ("item", "target")
    tier: ClassVar[Tier] = Tier.HALF


@dataclass(frozen=True, slots=True)
class Toss(Action):
    """R-X18: the held `item` to a cell `to` or to a creature `target`, which may catch it."""

    item: str = field(default="", metadata=spec("text", ITEM, required=True, empty=False))
    to: Pos | None = field(default=None, metadata=spec("cell"))
    target: str | None = field(
        default=None, metadata=spec("text", 'the id of a creature, e.g. "bram"', empty=False)
    )
    name: ClassVar[str] = "toss"
    json_order: ClassVar[tuple[str, ...]] = ("item", "target", "to")
    tier: ClassVar[Tier] = Tier.BONUS


@dataclass(frozen=True, slots=True)
class Prepare(Action):
    """R-P1, R-X16: skip now to act later. `trigger` is one of "enemy_within" (with `metres`),
    "enters_area" (with `cells`), "starts_action" or "ends_turn" (with `watch`, a creature);
    `then` is the prepared action, taken first when the trigger comes."""

    trigger: str = field(
        default="",
        metadata=spec(
            "text", "enemy_within, enters_area, starts_action or ends_turn", required=True
        ),
    )
    metres: float = field(default=0.0, metadata=spec("metres"))
    cells: tuple[Pos, ...] = field(default=(), metadata=spec("cells"))
    watch: str = field(default="", metadata=spec("text", "the id of a creature"))
    then: Action | None = field(default=None, metadata=spec("action", required=True))
    name: ClassVar[str] = "prepare"
    tier: ClassVar[Tier] = Tier.FREE
