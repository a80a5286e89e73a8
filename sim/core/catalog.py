"""Shared equipment and creature templates (R-C7), loaded from sim/data."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from sim.core.abilities import Ability, default_abilities


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon: WD, damage type, Parry Rating and properties (R-C7)."""

    name: str
    wd: int
    damage: str
    parry: int
    weight: float
    reach: bool = False
    trip: bool = False
    two_handed: bool = False
    thrown: int | None = None
    ranged: int | None = None
    bleed: int = 0


@dataclass(frozen=True, slots=True)
class Shield:
    """A shield and its Block Rating (R-C7)."""

    name: str
    block: int
    weight: float


@dataclass(frozen=True, slots=True)
class Armour:
    """Armour: Armour Rating, Speed penalty and class for donning time (R-C7, R-B5)."""

    name: str
    rating: int
    speed_penalty: int
    armour_class: str
    weight: float


@dataclass(frozen=True, slots=True)
class Gadget:
    """Any other item; drinkable ones carry their effects."""

    name: str
    weight: float
    drink: bool = False
    heal: int = 0
    quickened: int = 0
    cure_bleeding: int = 0


Equipment = Weapon | Shield | Armour | Gadget

DAMAGE_TYPES = ("crushing", "slashing", "piercing", "fire")
ARMOUR_CLASSES = ("light", "medium", "heavy")


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every piece of equipment, creature template, spell and ability by name."""

    equipment: dict[str, Equipment] = field(default_factory=dict)
    templates: dict[str, dict[str, Any]] = field(default_factory=dict)
    abilities: dict[str, Ability] = field(default_factory=dict)  # R-X20

    def get(self, name: str) -> Equipment:
        return self.equipment[name]

    def weight(self, name: str) -> float:
        return self.equipment[name].weight


def parse_equipment(raw: dict[str, Any]) -> dict[str, Equipment]:
    """Build equipment from its TOML tables; raises KeyError/ValueError/TypeError on bad data."""
    found: dict[str, Equipment] = {}
    for name, w in raw.get("weapons", {}).items():
        found[name] = Weapon(
            name=name,
            wd=int(w["wd"]),
            damage=_choice(w["damage"], DAMAGE_TYPES, "damage"),
            parry=int(w.get("parry", 0)),
            weight=float(w["weight"]),
            reach=bool(w.get("reach", False)),
            trip=bool(w.get("trip", False)),
            two_handed=bool(w.get("two_handed", False)),
            thrown=int(w["thrown"]) if "thrown" in w else None,
            ranged=int(w["ranged"]) if "ranged" in w else None,
            bleed=int(w.get("bleed", 0)),
        )
    for name, s in raw.get("shields", {}).items():
        found[name] = Shield(name=name, block=int(s["block"]), weight=float(s["weight"]))
    for name, a in raw.get("armour", {}).items():
        found[name] = Armour(
            name=name,
            rating=int(a["rating"]),
            speed_penalty=int(a.get("speed_penalty", 0)),
            armour_class=_choice(a["class"], ARMOUR_CLASSES, "class"),
            weight=float(a["weight"]),
        )
    for name, i in raw.get("items", {}).items():
        found[name] = Gadget(
            name=name,
            weight=float(i["weight"]),
            drink=bool(i.get("drink", False)),
            heal=int(i.get("heal", 0)),
            quickened=int(i.get("quickened", 0)),
            cure_bleeding=int(i.get("cure_bleeding", 0)),
        )
    return found


def _choice(value: Any, allowed: tuple[str, ...], key: str) -> str:
    if value not in allowed:
        raise ValueError(f"{key} must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def _read(name: str) -> dict[str, Any]:
    text = resources.files("sim").joinpath(f"data/{name}").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def default_catalog() -> Catalog:
    """The shipped equipment, templates and abilities (read once; treated as immutable)."""
    return Catalog(
        equipment=parse_equipment(_read("equipment.toml")),
        templates=_read("templates.toml"),
        abilities=default_abilities(),
    )
