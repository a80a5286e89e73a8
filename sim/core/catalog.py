"""Shared equipment and creature templates (R-C7), loaded from sim/data; the checks of every
entry's keys, shared by the shipped files and the content a scenario brings (issue #32)."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from sim.core.abilities import Ability, default_abilities, default_table
from sim.core.codec import as_toml
from sim.core.datafiles import data_text
from sim.core.numbers import Race, default_rules

T = TypeVar("T")


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
# The tables of equipment.toml, and of a scenario's or a content pack's equipment.
EQUIPMENT_SECTIONS = ("weapons", "shields", "armour", "items")
# The documented range of each number of an entry (docs/scenarios.md, "Ranges"): not rules,
# bounds past which a number can only be a typo, so that no content file can make the engine
# overflow or loop for ever. The shipped entries are well inside them.
MAX_RATING = 50  # WD, Parry, Block and Armour Ratings, Speed penalties, Bleeding stacks
MAX_KG = 1000
MAX_METRES = 1000  # a throw's or a shot's range
MAX_HEAL = 1000
MAX_TURNS = 100  # turns of Quickened, stacks of Bleeding cured
MAX_SPEED = 100  # a race's Speed in metres
MAX_HEIGHT = 100  # a race's height in metres

# (key, message): a problem with one key of an entry ("" for the entry as a whole). The caller
# says where: the shipped files name the entry, a scenario's content its file and line too.
Report = Callable[[str, str], None]


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every piece of equipment, creature template, spell and ability by name: the shipped
    ones, with those a scenario's content adds or replaces (issue #32). Each battle's world
    holds its own; nothing here is global."""

    equipment: dict[str, Equipment] = field(default_factory=dict)
    templates: dict[str, dict[str, Any]] = field(default_factory=dict)
    abilities: dict[str, Ability] = field(default_factory=dict)  # R-X20
    # The races a scenario's content adds or replaces (R-C5); the others are the rules'.
    races: dict[str, Race] = field(default_factory=dict)
    # Each entry as written (a content entry with its `based_on` filled in), by section
    # ("weapons", "templates", "abilities", ...): what a content entry may be based on.
    tables: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    def get(self, name: str) -> Equipment:
        return self.equipment[name]

    def weight(self, name: str) -> float:
        return self.equipment[name].weight


class CatalogError(ValueError):
    """Shipped data that cannot be used, with every problem found."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(f"{source}: {p}" for p in problems))


class Fields:
    """One entry's keys read against their ranges, each problem reported with its key; a key
    that is missing gives its default, or is a problem when it has none."""

    def __init__(self, raw: dict[str, Any], report: Report) -> None:
        self.raw = raw
        self._report = report
        self.failed = False

    def report(self, key: str, message: str) -> None:
        self.failed = True
        self._report(key, message)

    def known(self, allowed: set[str]) -> None:
        """A problem for each key not in `allowed`."""
        for key in self.raw:
            if key not in allowed:
                expected = ", ".join(sorted(allowed))
                self.report(key, f"unknown key {key!r} (expected one of {expected})")

    def _missing(self, key: str, what: str, default: T) -> T:
        if default is None:
            self.report(key, f"needs {key}, {what}")
        return default

    def whole(self, key: str, low: int, high: int, default: int | None = None) -> int | None:
        what = f"a whole number from {low} to {high}"
        if key not in self.raw:
            return self._missing(key, what, default)
        value = self.raw[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.report(key, f"{key} must be {what}, not {as_toml(value)}")
            return None
        return value

    def number(self, key: str, low: float, high: float, unit: str) -> float | None:
        """A number of `unit` (int or float, finite) from `low` to `high`; always required."""
        what = f"a number of {unit} from {low:g} to {high:g}"
        if key not in self.raw:
            return self._missing(key, what, None)
        value = self.raw[key]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or not low <= value <= high
        ):
            self.report(key, f"{key} must be {what}, not {as_toml(value)}")
            return None
        return float(value)

    def flag(self, key: str) -> bool:
        value = self.raw.get(key, False)
        if not isinstance(value, bool):
            self.report(key, f"{key} must be true or false, not {as_toml(value)}")
            return False
        return value

    def choice(self, key: str, allowed: tuple[str, ...]) -> str | None:
        if key not in self.raw:
            return self._missing(key, f"one of {', '.join(allowed)}", None)
        value = self.raw[key]
        if value not in allowed:
            self.report(key, f"{key} must be one of {', '.join(allowed)}, not {as_toml(value)}")
            return None
        return str(value)


WEAPON_KEYS = {
    "wd",
    "damage",
    "parry",
    "weight",
    "reach",
    "trip",
    "two_handed",
    "thrown",
    "ranged",
    "bleed",
}
SHIELD_KEYS = {"block", "weight"}
ARMOUR_KEYS = {"rating", "speed_penalty", "class", "weight"}
ITEM_KEYS = {"weight", "drink", "heal", "quickened", "cure_bleeding"}
# R-Z5: the movement modes a race, a template or a unit may give, each a speed in metres.
MODE_KEYS = ("fly", "swim", "climb")
RACE_KEYS = {"speed", "height", "size", *MODE_KEYS}


def weapon(name: str, raw: dict[str, Any], report: Report) -> Weapon | None:
    """A weapon of the tables, or None when `report` was told of its problems."""
    f = Fields(raw, report)
    f.known(WEAPON_KEYS)
    wd = f.whole("wd", 0, MAX_RATING)
    damage = f.choice("damage", DAMAGE_TYPES)
    parry = f.whole("parry", 0, MAX_RATING, 0)
    weight = f.number("weight", 0, MAX_KG, "kg")
    flags = {key: f.flag(key) for key in ("reach", "trip", "two_handed")}
    thrown = f.whole("thrown", 1, MAX_METRES) if "thrown" in raw else None
    ranged = f.whole("ranged", 1, MAX_METRES) if "ranged" in raw else None
    bleed = f.whole("bleed", 0, MAX_RATING, 0)
    if f.failed or wd is None or damage is None or parry is None or weight is None:
        return None
    return Weapon(
        name, wd, damage, parry, weight, thrown=thrown, ranged=ranged, bleed=bleed or 0, **flags
    )


def shield(name: str, raw: dict[str, Any], report: Report) -> Shield | None:
    f = Fields(raw, report)
    f.known(SHIELD_KEYS)
    block = f.whole("block", 0, MAX_RATING)
    weight = f.number("weight", 0, MAX_KG, "kg")
    if f.failed or block is None or weight is None:
        return None
    return Shield(name, block, weight)


def armour(name: str, raw: dict[str, Any], report: Report) -> Armour | None:
    f = Fields(raw, report)
    f.known(ARMOUR_KEYS)
    rating = f.whole("rating", 0, MAX_RATING)
    penalty = f.whole("speed_penalty", 0, MAX_RATING, 0)
    armour_class = f.choice("class", ARMOUR_CLASSES)
    weight = f.number("weight", 0, MAX_KG, "kg")
    if f.failed or rating is None or penalty is None or armour_class is None or weight is None:
        return None
    return Armour(name, rating, penalty, armour_class, weight)


def gadget(name: str, raw: dict[str, Any], report: Report) -> Gadget | None:
    """Any other item; a potion's effects (R-X4) need `drink = true`."""
    f = Fields(raw, report)
    f.known(ITEM_KEYS)
    weight = f.number("weight", 0, MAX_KG, "kg")
    drink = f.flag("drink")
    heal = f.whole("heal", 0, MAX_HEAL, 0)
    quickened = f.whole("quickened", 0, MAX_TURNS, 0)
    cure = f.whole("cure_bleeding", 0, MAX_TURNS, 0)
    for key, value in (("heal", heal), ("quickened", quickened), ("cure_bleeding", cure)):
        if value and not drink:
            f.report(key, f"{key} is what drinking it does: it needs drink = true")
    if f.failed or weight is None:
        return None
    return Gadget(name, weight, drink, heal or 0, quickened or 0, cure or 0)


def race(name: str, raw: dict[str, Any], report: Report) -> Race | None:
    """A race's Speed and height (R-C5), as the rules' [races] tables give them."""
    f = Fields(raw, report)
    f.known(RACE_KEYS)
    speed = f.whole("speed", 0, MAX_SPEED)
    height = f.number("height", 0.1, MAX_HEIGHT, "metres")
    modes = {key: 0 for key in MODE_KEYS}
    for key in MODE_KEYS:
        if key in raw:
            problem = mode_problem(key, raw[key])
            if problem:
                f.report(key, problem)
            else:
                modes[key] = raw[key]
    size = size_value(raw.get("size", 1), default_rules().sizes.largest)
    if isinstance(size, str):
        f.report("size", size)
    if f.failed or speed is None or height is None or isinstance(size, str):
        return None
    return Race(name, speed, height, size=size, **modes)


def mode_problem(key: str, value: object) -> str | None:
    """Why `value` is not a `fly`, `swim` or `climb` speed (R-Z5): whole metres from 0 (none)
    to the rules' `mode_speed_max`; None when it is one."""
    most = default_rules().movement.mode_speed_max
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        return (
            f"{key} must be a speed in whole metres from 0 to {most}, not {as_toml(value)} (R-Z5)"
        )
    return None


def size_value(value: Any, largest: int) -> int | str:
    """A creature's size (R-Z1), or why `value` is none."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= largest:
        sizes = ", ".join(str(n) for n in range(1, largest + 1))
        return f"size must be one of {sizes} (cells a side, R-Z1), not {as_toml(value)}"
    return value


Reader = Callable[[str, dict[str, Any], Report], Equipment | None]
READERS: dict[str, Reader] = {
    "weapons": weapon,
    "shields": shield,
    "armour": armour,
    "items": gadget,
}
# What each section's entry is called in words: "a weapon", "armour".
ENTRY_WORDS = {
    "weapons": "weapon",
    "shields": "shield",
    "armour": "armour",
    "items": "item",
    "templates": "template",
    "races": "race",
    "abilities": "ability",
}


def parse_equipment(raw: dict[str, Any], source: str = "equipment.toml") -> dict[str, Equipment]:
    """Build equipment from its TOML tables; raises CatalogError listing every problem."""
    found: dict[str, Equipment] = {}
    problems: list[str] = []
    for section, entries in raw.items():
        reader = READERS.get(section)
        if reader is None or not isinstance(entries, dict):
            problems.append(f"[{section}] is not one of {', '.join(EQUIPMENT_SECTIONS)}")
            continue
        for name, entry in entries.items():

            def report(key: str, message: str, where: str = f"{section}.{name}") -> None:
                problems.append(f"{where}: {message}")

            if not isinstance(entry, dict):
                report("", "must be a table")
                continue
            item = reader(name, entry, report)
            if item is not None:
                found[name] = item
    if problems:
        raise CatalogError(source, problems)
    return found


def _read(name: str) -> dict[str, Any]:
    text = data_text(name)
    return tomllib.loads(text)


@cache
def default_catalog() -> Catalog:
    """The shipped equipment, templates and abilities (read once; treated as immutable)."""
    equipment = _read("equipment.toml")
    templates = _read("templates.toml")
    return Catalog(
        equipment=parse_equipment(equipment, "sim/data/equipment.toml"),
        templates=templates,
        abilities=default_abilities(),
        tables={
            **{section: equipment.get(section, {}) for section in EQUIPMENT_SECTIONS},
            "templates": templates,
            "abilities": default_table(),
        },
    )
