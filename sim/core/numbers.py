"""The rules data: every number of RULES.md, loaded from sim/data/rules.toml."""

from __future__ import annotations

import enum
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any


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


@dataclass(frozen=True, slots=True)
class Race:
    """A race's Speed and height (R-C5)."""

    name: str
    speed: int
    height: float


@dataclass(frozen=True, slots=True)
class Rules:
    """All numbers of the rules, as one immutable value."""

    version: str
    raw: dict[str, Any]
    races: dict[str, Race]
    skills: dict[str, str]
    attribute_names: tuple[str, ...]
    attribute_dice: tuple[int, ...]
    costs: dict[Tier, TierCost]
    slow: dict[Tier, Tier]
    quicken: dict[Tier, Tier]
    half_actions: int
    bonus_actions: int
    sprint_extra_bonus: int

    source: str = RULES_FILE
    # Each number looked up once: the engine asks the same few hundreds of times a battle.
    _leaves: dict[tuple[str, str], object] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def integer(self, section: str, key: str) -> int:
        """A whole number by its section (dotted for a sub-table, "extended.don_turns") and key,
        e.g. `integer("movement", "step_metres")`."""
        value = self._leaf(section, key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(
                f"{self.source}: [{section}] {key} must be a whole number, not {value!r}"
            )
        return value

    def decimal(self, section: str, key: str) -> float:
        """A number that may have a fraction, e.g. `decimal("movement", "waist_fraction")`."""
        value = self._leaf(section, key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RulesError(f"{self.source}: [{section}] {key} must be a number, not {value!r}")
        return float(value)

    def _leaf(self, section: str, key: str) -> object:
        try:
            return self._leaves[section, key]
        except KeyError:
            pass
        table: Any = self.raw
        for part in section.split("."):
            table = table.get(part) if isinstance(table, dict) else None
        if not isinstance(table, dict) or key not in table:
            raise RulesError(f"{self.source}: [{section}] has no {key}")
        value: object = table[key]
        self._leaves[section, key] = value
        return value


def _cost(entry: dict[str, Any]) -> TierCost:
    def amount(value: Any) -> int | None:
        return None if value == "all" else int(value)

    return TierCost(
        half=amount(entry["half"]),
        bonus=amount(entry["bonus"]),
        repeat_bonus=int(entry.get("repeat_bonus", 0)),
    )


# The sections that hold numbers only (a sub-table's numbers too): checked when the rules load.
NUMBER_SECTIONS = (
    "grid",
    "round",
    "skill_levels",
    "races",
    "hands",
    "budget",
    "sprint",
    "extended",
    "initiative",
    "hit_points",
    "movement",
    "attack",
    "reactions",
    "conditions",
    "actions",
    "grapple",
    "toss",
)


def _check_numbers(table: dict[str, Any], section: str, source: str) -> None:
    for key, value in table.items():
        if isinstance(value, dict):
            _check_numbers(value, f"{section}.{key}", source)
        elif isinstance(value, bool) or not isinstance(value, int | float):
            raise RulesError(f"{source}: [{section}] {key} must be a number, not {value!r}")


def parse_rules(raw: dict[str, Any], source: str = RULES_FILE) -> Rules:
    """The rules from their TOML data; RulesError names the file, section and key of a value
    that is no number where a number belongs."""
    for section in NUMBER_SECTIONS:
        _check_numbers(raw.get(section, {}), section, source)
    return Rules(
        version=str(raw["version"]),
        raw=raw,
        races={
            name: Race(name, int(r["speed"]), float(r["height"]))
            for name, r in raw["races"].items()
        },
        skills=dict(raw["skills"]),
        attribute_names=tuple(raw["attributes"]["names"]),
        attribute_dice=tuple(raw["attributes"]["dice"]),
        costs={Tier(name): _cost(entry) for name, entry in raw["costs"].items()},
        slow={Tier(k): Tier(v) for k, v in raw["slow"].items()},
        quicken={Tier(k): Tier(v) for k, v in raw["quicken"].items()},
        half_actions=int(raw["budget"]["half_actions"]),
        bonus_actions=int(raw["budget"]["bonus_actions"]),
        sprint_extra_bonus=int(raw["sprint"]["extra_bonus"]),
        source=source,
    )


@cache
def default_rules() -> Rules:
    """The shipped rules (read once; the value is immutable)."""
    text = resources.files("sim").joinpath("data/rules.toml").read_text(encoding="utf-8")
    return parse_rules(tomllib.loads(text))
