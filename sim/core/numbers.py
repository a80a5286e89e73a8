"""The rules data: every number of RULES.md, loaded from sim/data/rules.toml."""

from __future__ import annotations

import enum
import tomllib
from dataclasses import MISSING, dataclass, fields
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar, get_origin, get_type_hints

from sim.core.datafiles import data_text

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Section = TypeVar("Section", bound="DataclassInstance")


class Tier(enum.Enum):
    """The cost ladder, quickest first (R-B1)."""

    FREE = "free"
    BONUS = "bonus"
    HALF = "half"
    ONE = "one"
    ONE_AND_HALF = "one_and_half"
    FULL = "full"
    EXTENDED = "extended"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Tier.FREE: "Free Action",
    Tier.BONUS: "Bonus Action",
    Tier.HALF: "½ Action",
    Tier.ONE: "1 Action",
    Tier.ONE_AND_HALF: "1½ Action",
    Tier.FULL: "Full Action",
    Tier.EXTENDED: "Extended Action",
}


@dataclass(frozen=True, slots=True)
class TierCost:
    """What one tier costs (R-B3); `None` means every half-action or Bonus Action left."""

    half: int | None
    bonus: int | None
    repeat_bonus: int = 0


RULES_FILE = "sim/data/rules.toml"


class RulesError(ValueError):
    """Rules data that cannot be used: the message names the file, the section and the key."""


# --- the sections of rules.toml: one frozen dataclass each, a field a number ----------------
# The field names are the keys of the data file, so a misspelt name is mypy's error, not a
# lookup that fails mid-battle; the numbers themselves live only in sim/data/rules.toml.


@dataclass(frozen=True, slots=True)
class Race:
    """A race's Speed and height (R-C5), its fly, swim and climb speeds in metres, 0 for none
    (R-Z5), and its size (R-Z1: 1 unless it says)."""

    name: str
    speed: int
    height: float
    fly: int = 0
    swim: int = 0
    climb: int = 0
    size: int = 1


@dataclass(frozen=True, slots=True)
class GridRules:
    """[grid]: the board's measures."""

    cell_metres: int  # R-U1
    orthogonal_half_metres: int  # R-U2: 1 m
    diagonal_half_metres: int  # R-U2: 1.5 m


@dataclass(frozen=True, slots=True)
class RoundRules:
    """[round]: how long a round lasts."""

    seconds: int  # R-U5


@dataclass(frozen=True, slots=True)
class SkillLevels:
    """[skill_levels]: the range of a skill's level (R-C3)."""

    min: int  # R-C3
    max: int  # R-C3


@dataclass(frozen=True, slots=True)
class HandRules:
    """[hands]: what a creature holds with."""

    count: int  # R-C7


@dataclass(frozen=True, slots=True)
class BudgetRules:
    """[budget]: what a turn starts with (R-B2)."""

    half_actions: int  # R-B2
    bonus_actions: int  # R-B2


@dataclass(frozen=True, slots=True)
class SprintRules:
    """[sprint]: what Sprint costs beyond its tier."""

    extra_bonus: int  # R-B3: Sprint is 1 Action + 1 Bonus Action


@dataclass(frozen=True, slots=True)
class ExtendedRules:
    """[extended]: Extended Actions' turns (R-B5)."""

    slowed_extra_turns: int  # Decision: a slowed Extended Action takes one more turn
    doff_divisor: int  # R-B5: doffing takes half (rounded up)
    # R-B5 Decision: turns to don armour, by its class (the catalogue's armour classes).
    don_turns: dict[str, int]


@dataclass(frozen=True, slots=True)
class InitiativeRules:
    """[initiative]: breaking ties of initiative (R-T1)."""

    tie_break_die: int  # R-T1: the seeded draw among exact ties
    max_redraws: int  # R-T1: then scenario order


@dataclass(frozen=True, slots=True)
class HitPointRules:
    """[hit_points]: when hit points take a creature down (R-C6)."""

    incapacitated_at: int  # R-C6: at or below this a creature is Incapacitated


@dataclass(frozen=True, slots=True)
class MovementRules:
    """[movement]: distances and divisors of moving (R-M)."""

    step_metres: int  # R-M1
    walk_speed_divisor: int  # R-M1: Walk is Speed/3
    swim_speed_divisor: int  # R-M8
    crawl_die_divisor: int  # R-M8
    difficult_multiplier: int  # R-M2
    leap_height_fraction: float  # R-M3: half the creature's height
    leap_width_metres: int  # R-M3
    fall_damage_per_metre: int  # R-M4: crushing, per full metre above height
    standing_jump_length_divisor: int  # R-M6: AGI Bonus / 4
    standing_jump_height_divisor: int  # R-M6: AGI Bonus / 10
    running_jump_max_length_divisor: int  # R-M6: at most AGI Bonus / 2
    running_jump_height_per_metres: int  # R-M6: +1 m height per 3 m run-up
    running_jump_max_extra_height: int  # R-M6 Decision
    jump_skill_levels_per_metre: int  # R-M6
    swim_exit_get_up_metres: int  # R-M8
    swim_exit_move_metres: int  # R-M8
    waist_fraction: float  # R-M9
    flier_fall_metres: int  # R-Z5: a downed flier over a pit or deep water falls this far
    mode_speed_max: int  # R-Z5 Decision: the most a fly, swim or climb speed may be


@dataclass(frozen=True, slots=True)
class AttackRules:
    """[attack]: the numbers of attacking (R-A)."""

    second_attack_fcs_divisor: int  # R-A1
    unarmed_wd: int  # R-A3
    melee_reach_half_metres: int  # R-A4: 1.5 m
    reach_weapon_half_metres: int  # R-A4: 3 m


@dataclass(frozen=True, slots=True)
class ReactionRules:
    """[reactions]: what each reaction costs in Bonus Actions (R-R8)."""

    defence_bonus: int  # R-R1, R-R2, R-R3: Dodge, Parry, Block
    opportunity_bonus: int  # R-R4
    disengage_bonus: int  # R-R5
    catch_bonus: int  # R-R6
    interrupt_bonus: int  # R-R7


@dataclass(frozen=True, slots=True)
class ConditionRules:
    """[conditions]: stacks and damage of conditions (R-K)."""

    burning_damage_per_stack: int  # R-K4
    burning_fade_per_turn: int  # R-K4
    fire_terrain_stacks: int  # R-K4
    bleeding_damage_per_stack: int  # R-K5
    aid_burning_stacks: int  # R-X11
    aid_bleeding_threshold: int  # R-X11
    incapacitated_revive_hp: int  # R-K2


@dataclass(frozen=True, slots=True)
class ActionRules:
    """[actions]: the numbers of the other actions (R-X), and of catching a tossed item."""

    aim_bonus: int  # R-X1
    assist_bonus: int  # R-X21 Decision: as Aim's +2
    feint_bonus: int  # R-X10
    shove_push_divisor: int  # R-X15: half the shover's STR Roll, rounded down
    shove_min_push_metres: int  # R-X15: minimum 1
    trip_weapon_fcs_factor: int  # R-X19: a `trip` weapon doubles the FCS Bonus
    # The next three go with an item's weight in kg, a decimal: read as decimals.
    throw_item_damage_per_kg: float  # R-X17
    catch_toss_base: float  # R-R6
    catch_toss_damage_per_kg: float  # R-R6


@dataclass(frozen=True, slots=True)
class GrappleRules:
    """[grapple]: what a grapple needs and costs (R-G)."""

    free_hands: int  # R-G1: beginning a grapple needs a free hand
    sustain_bonus: int  # R-G3, R-X13: sustaining costs 2 Bonus Actions


@dataclass(frozen=True, slots=True)
class TossRules:
    """[toss]: what can be tossed."""

    max_weight_divisor: int  # R-X18: at most half the STR Bonus in kg


@dataclass(frozen=True, slots=True)
class SizeRules:
    """[sizes]: how large a creature may be and what size does to contests (R-Z)."""

    largest: int  # R-Z1: sizes 1, 2 (2x2 cells) and 3 (3x3)
    contest_step: int  # R-Z4: one size larger gives the smaller side -5, one smaller +5
    refused_gap: int  # R-Z4: Shove, Trip, Grapple refused against two or more sizes larger


@dataclass(frozen=True, slots=True)
class Rules:
    """All numbers of the rules, as one immutable value: a section of rules.toml a field,
    e.g. `rules.reactions.interrupt_bonus`. A house rule is a copy with a section replaced:
    `dataclasses.replace(rules, budget=replace(rules.budget, bonus_actions=1))`."""

    version: str
    races: dict[str, Race]
    skills: dict[str, str]
    attribute_names: tuple[str, ...]
    attribute_dice: tuple[int, ...]
    costs: dict[Tier, TierCost]
    slow: dict[Tier, Tier]
    quicken: dict[Tier, Tier]
    grid: GridRules
    round: RoundRules
    skill_levels: SkillLevels
    hands: HandRules
    budget: BudgetRules
    sprint: SprintRules
    extended: ExtendedRules
    initiative: InitiativeRules
    hit_points: HitPointRules
    movement: MovementRules
    attack: AttackRules
    reactions: ReactionRules
    conditions: ConditionRules
    actions: ActionRules
    grapple: GrappleRules
    toss: TossRules
    sizes: SizeRules
    source: str = RULES_FILE


def _cost(entry: dict[str, Any]) -> TierCost:
    def amount(value: Any) -> int | None:
        return None if value == "all" else int(value)

    return TierCost(
        half=amount(entry["half"]),
        bonus=amount(entry["bonus"]),
        repeat_bonus=int(entry.get("repeat_bonus", 0)),
    )


def _whole(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{where} must be a whole number, not {value!r}")
    return value


def _decimal(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RulesError(f"{where} must be a number, not {value!r}")
    return float(value)


def _table(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise RulesError(f"{where} must be a table, not {value!r}")
    return value


def _section(
    kind: type[Section], raw: object, section: str, source: str, **given: object
) -> Section:
    """The dataclass `kind` from one table of the data: each field its key's value of the
    field's type (int, float, or a sub-table of whole numbers), no key missing and none
    unknown, or RulesError naming the file, the section and the key."""
    if raw is None:
        raise RulesError(f"{source}: [{section}] is missing")
    table = _table(raw, f"{source}: [{section}]")
    hints = get_type_hints(kind)
    names = [f.name for f in fields(kind) if f.name not in given]
    # A field with a default may be left out (a race's fly, swim and climb speeds, R-Z5; its
    # size, R-Z1).
    optional = {f.name for f in fields(kind) if f.default is not MISSING}
    unknown = sorted(set(table) - set(names))
    if unknown:
        raise RulesError(f"{source}: [{section}] {unknown[0]} is not a number of the rules")
    values = dict(given)
    for name in names:
        if name not in table:
            if name in optional:
                continue
            raise RulesError(f"{source}: [{section}] has no {name}")
        where, value, hint = f"{source}: [{section}] {name}", table[name], hints[name]
        if hint is int:
            values[name] = _whole(value, where)
        elif hint is float:
            values[name] = _decimal(value, where)
        elif get_origin(hint) is dict:  # a sub-table of whole numbers, e.g. [extended.don_turns]
            sub = f"{source}: [{section}.{name}]"
            values[name] = {k: _whole(v, f"{sub} {k}") for k, v in _table(value, sub).items()}
        else:
            raise TypeError(f"{kind.__name__}.{name}: no reading for a field of type {hint}")
    return kind(**values)


# What the data file may hold besides the sections of numbers: a key unknown here is a typo.
_TOP_LEVEL = {"attributes"} | (
    {f.name for f in fields(Rules)} - {"source", "attribute_names", "attribute_dice"}
)


def parse_rules(raw: dict[str, Any], source: str = RULES_FILE) -> Rules:
    """The rules from their TOML data, checked once: RulesError names the file, section and key
    of a number that is missing, of the wrong kind, or not a number of the rules at all."""

    def section(kind: type[Section], name: str) -> Section:
        return _section(kind, raw.get(name), name, source)

    unknown = sorted(set(raw) - _TOP_LEVEL)
    if unknown:
        raise RulesError(f"{source}: [{unknown[0]}] is not a section of the rules")
    races = _table(raw.get("races"), f"{source}: [races]")
    return Rules(
        version=str(raw["version"]),
        races={
            name: _section(Race, table, f"races.{name}", source, name=name)
            for name, table in races.items()
        },
        skills=dict(raw["skills"]),
        attribute_names=tuple(raw["attributes"]["names"]),
        attribute_dice=tuple(raw["attributes"]["dice"]),
        costs={Tier(name): _cost(entry) for name, entry in raw["costs"].items()},
        slow={Tier(k): Tier(v) for k, v in raw["slow"].items()},
        quicken={Tier(k): Tier(v) for k, v in raw["quicken"].items()},
        grid=section(GridRules, "grid"),
        round=section(RoundRules, "round"),
        skill_levels=section(SkillLevels, "skill_levels"),
        hands=section(HandRules, "hands"),
        budget=section(BudgetRules, "budget"),
        sprint=section(SprintRules, "sprint"),
        extended=section(ExtendedRules, "extended"),
        initiative=section(InitiativeRules, "initiative"),
        hit_points=section(HitPointRules, "hit_points"),
        movement=section(MovementRules, "movement"),
        attack=section(AttackRules, "attack"),
        reactions=section(ReactionRules, "reactions"),
        conditions=section(ConditionRules, "conditions"),
        actions=section(ActionRules, "actions"),
        grapple=section(GrappleRules, "grapple"),
        toss=section(TossRules, "toss"),
        sizes=section(SizeRules, "sizes"),
        source=source,
    )


@cache
def default_rules() -> Rules:
    """The shipped rules (read once; the value is immutable)."""
    text = data_text("rules.toml")
    return parse_rules(tomllib.loads(text))
