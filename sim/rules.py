"""The rules data: every number of RULES.md, loaded from sim/data/rules.toml."""

from __future__ import annotations

import enum
import tomllib
from dataclasses import dataclass
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

    def number(self, section: str, key: str) -> Any:
        """One number by its section and key, e.g. `number("movement", "step_metres")`."""
        return self.raw[section][key]


def _cost(entry: dict[str, Any]) -> TierCost:
    def amount(value: Any) -> int | None:
        return None if value == "all" else int(value)

    return TierCost(
        half=amount(entry["half"]),
        bonus=amount(entry["bonus"]),
        repeat_bonus=int(entry.get("repeat_bonus", 0)),
    )


def parse_rules(raw: dict[str, Any]) -> Rules:
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
    )


@cache
def default_rules() -> Rules:
    """The shipped rules (read once; the value is immutable)."""
    text = resources.files("sim").joinpath("data/rules.toml").read_text(encoding="utf-8")
    return parse_rules(tomllib.loads(text))
