"""Spells and abilities as rules data (R-X20), loaded from sim/data/abilities.toml.

Each entry names its cost tier, what it targets and how far, how its targets are decided (a Hit
Roll, a save, or neither) and its effects, built from the engine's own: damage, healing and
conditions with their stacks or turns (R-K3, R-K4, R-K5, R-M10).
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from sim.core import condition
from sim.core.codec import as_toml
from sim.core.datafiles import data_text
from sim.core.numbers import Tier

KINDS = ("spell", "ability")
# R-X20: "Quick Spell ½, Complex Spell 1½, Very Complex Spell Full".
SPELL_TIERS = (Tier.HALF, Tier.ONE_AND_HALF, Tier.FULL)
ABILITY_TIERS = (Tier.BONUS, Tier.HALF, Tier.ONE, Tier.ONE_AND_HALF, Tier.FULL)
SELF, ALLY, ENEMY, CREATURE, CELL, AREA = "self", "ally", "enemy", "creature", "cell", "area"
TARGETS = (SELF, ALLY, ENEMY, CREATURE, CELL, AREA)
ONE_CREATURE = (ALLY, ENEMY, CREATURE)
ATTRIBUTES = ("str", "agi", "fcs", "res")
# R-C7's four damage types, and cold for frost.
DAMAGE_TYPES = ("crushing", "slashing", "piercing", "fire", "cold")
# The conditions an effect may give, and what its number counts ("" for none).
CONDITIONS: dict[str, str] = {
    condition.Condition.BURNING: "stacks",
    condition.Condition.BLEEDING: "stacks",
    condition.Condition.QUICKENED: "turns",
    condition.Condition.SLOWED: "turns",
    condition.Condition.PRONE: "",
}
ENTRY_KEYS = {
    "kind",
    "tier",
    "description",
    "target",
    "range",
    "radius",
    "attack",
    "save",
    "effects",
}
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
AMOUNT = re.compile(r"^(?:(\d+)d(\d+))?(?:([+-]?)(\d+))?$")


@dataclass(frozen=True, slots=True)
class Amount:
    """A number of points: `count` dice of `die` sides plus `flat`.

    >>> str(Amount(2, 4, 1)), str(Amount(0, 0, 3)), str(Amount(1, 6))
    ('2d4+1', '3', '1d6')
    """

    count: int = 0
    die: int = 0
    flat: int = 0

    @property
    def mean(self) -> float:
        """The points expected: each die's mean, and the flat part.

        >>> Amount(2, 4, 1).mean, Amount(0, 0, 3).mean
        (6.0, 3.0)
        """
        return self.count * (self.die + 1) / 2 + self.flat

    def chances(self) -> dict[int, float]:
        """The chance of each total of points.

        >>> Amount(1, 4, 1).chances()
        {2: 0.25, 3: 0.25, 4: 0.25, 5: 0.25}
        >>> Amount(2, 2).chances(), Amount(0, 0, 3).chances()
        ({2: 0.25, 3: 0.5, 4: 0.25}, {3: 1.0})
        """
        found = {self.flat: 1.0}
        for _ in range(self.count):
            rolled: dict[int, float] = {}
            for total, chance in found.items():
                for face in range(1, self.die + 1):
                    rolled[total + face] = rolled.get(total + face, 0.0) + chance / self.die
            found = rolled
        return found

    def __str__(self) -> str:
        if not self.count:
            return str(self.flat)
        dice = f"{self.count}d{self.die}"
        return dice if not self.flat else f"{dice}{self.flat:+d}"


@dataclass(frozen=True, slots=True)
class Damage:
    """Damage of a type; armour does not reduce it (R-A3 speaks of weapons)."""

    amount: Amount
    damage_type: str


@dataclass(frozen=True, slots=True)
class Heal:
    """Healing, never above the maximum (R-C6)."""

    amount: Amount


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition given or added to: Burning and Bleeding stacks (R-K4, R-K5), Quickened or
    Slowed turns (R-K3), Prone (R-M10; `value` 1)."""

    name: condition.Condition
    value: int = 1


Effect = Damage | Heal | Condition


@dataclass(frozen=True, slots=True)
class Ability:
    """One spell or ability of the rules data (R-X20); distances in half-metres (R-U2)."""

    name: str
    kind: str
    tier: Tier
    target: str
    range_half: int = 0
    radius_half: int = 0
    attack: bool = False
    save: str | None = None
    effects: tuple[Effect, ...] = ()
    description: str = ""

    @property
    def verb(self) -> str:
        """How a log says it starts: "casting firebolt", "using battle_focus"."""
        return f"{'casting' if self.kind == 'spell' else 'using'} {self.name}"


class AbilityError(ValueError):
    """Rules data for abilities that cannot be used, with every problem found."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(f"{source}: {p}" for p in problems))


def parse_amount(value: Any) -> Amount | None:
    """A whole number of points (0 or more), or dice like "2d4+1"; None when it is neither.

    >>> [str(parse_amount(v)) for v in (3, "1d6+1", "2d4", "1d4-1")]
    ['3', '1d6+1', '2d4', '1d4-1']
    >>> parse_amount("d4"), parse_amount("+3"), parse_amount(-1), parse_amount(True)
    (None, None, None, None)
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return Amount(flat=value) if value >= 0 else None
    if not isinstance(value, str):
        return None
    found = AMOUNT.match(value.replace(" ", ""))
    if found is None or not value or (found.group(1) is None and found.group(3)):
        return None
    count, die = int(found.group(1) or 0), int(found.group(2) or 0)
    if found.group(1) is not None and (count < 1 or die < 1):
        return None
    flat = int(found.group(4) or 0) * (-1 if found.group(3) == "-" else 1)
    return Amount(count, die, flat)


# The documented range of each number of an entry (docs/scenarios.md, "Ranges"): a scenario's
# content may define abilities, so no number may make a roll loop for ever or overflow.
MAX_METRES = 1000
MAX_DICE = 100  # dice of one amount
MAX_SIDES = 1000
MAX_FLAT = 1000
MAX_STACKS = 100  # stacks or turns of a condition

Report = Callable[[str, str], None]  # (key, message), as sim/core/catalog.py's


def _metres(report: Report, key: str, value: Any) -> int:
    """Metres in half-metre steps, as half-metres (R-U2)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        report(key, f"{key} must be a number of metres, not {as_toml(value)}")
        return 0
    if not math.isfinite(value) or not 0 <= value <= MAX_METRES or value * 2 != int(value * 2):
        report(key, f"{key} must be 0 to {MAX_METRES} in half-metre steps, not {value}")
        return 0
    return int(value * 2)


def _amount(value: Any) -> Amount | None:
    """`parse_amount` within the ranges: at most 100 dice of 1000 sides, plus or minus 1000."""
    if isinstance(value, str) and len(value) > 40:  # int() of thousands of digits is refused
        return None
    amount = parse_amount(value)
    if amount is None or amount.count > MAX_DICE or amount.die > MAX_SIDES:
        return None
    return amount if abs(amount.flat) <= MAX_FLAT else None


def _effect(report: Report, where: str, raw: Any) -> Effect | None:
    def say(message: str) -> None:
        report("effects", f"{where}{message}")

    if not isinstance(raw, dict):
        say(' must be a table like { damage = 3, type = "fire" }')
        return None
    heads = [key for key in ("damage", "heal", "condition") if key in raw]
    if len(heads) != 1:
        say(" needs exactly one of damage, heal or condition")
        return None
    head = heads[0]
    allowed = {"damage": {"damage", "type"}, "heal": {"heal"}}.get(head)
    if head == "condition":
        counts = CONDITIONS.get(str(raw["condition"]), "")
        allowed = {"condition", counts} - {""}
    assert allowed is not None
    for key in sorted(set(raw) - allowed):
        say(f": unknown key {key!r} (expected {', '.join(sorted(allowed))})")
    if head == "condition":
        name = raw["condition"]
        if name not in CONDITIONS:
            say(f": condition must be one of {', '.join(CONDITIONS)}, not {as_toml(name)}")
            return None
        counts = CONDITIONS[name]
        if not counts:
            return Condition(condition.Condition(name))
        value = raw.get(counts)
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_STACKS:
            say(f": {name} needs {counts}, a whole number from 1 to {MAX_STACKS}")
            return None
        return Condition(condition.Condition(name), value)
    amount = _amount(raw[head])
    if amount is None:
        say(
            f': {head} must be a number or dice like "1d6+1" (at most {MAX_DICE} dice of '
            f"{MAX_SIDES} sides, {MAX_FLAT} more or less), not {as_toml(raw[head])}"
        )
        return None
    if head == "heal":
        return Heal(amount)
    damage_type = raw.get("type")
    if damage_type not in DAMAGE_TYPES:
        say(f": damage type must be one of {', '.join(DAMAGE_TYPES)}, not {as_toml(damage_type)}")
        return None
    return Damage(amount, str(damage_type))


def entry(name: str, raw: Any, report: Report) -> Ability | None:
    """One ability of the tables, or None when `report` was told of its problems."""
    failed = False

    def problem(key: str, message: str) -> None:
        nonlocal failed
        failed = True
        report(key, message)

    if not NAME.match(name):
        problem("", "a name is lower-case letters, digits and _, from a letter")
    if not isinstance(raw, dict):
        problem("", "must be a table")
        return None
    for key in sorted(set(raw) - ENTRY_KEYS):
        problem(key, f"unknown key {key!r} (expected {', '.join(sorted(ENTRY_KEYS))})")
    kind = raw.get("kind")
    if kind not in KINDS:
        problem("kind", f"kind must be spell or ability, not {as_toml(kind)}")
    tiers = SPELL_TIERS if kind == "spell" else ABILITY_TIERS
    tier_name = raw.get("tier")
    tier = next((t for t in tiers if t.value == tier_name), None)
    if tier is None:
        names = ", ".join(t.value for t in tiers)
        rule = " (R-X20: Quick ½, Complex 1½, Very Complex Full)" if kind == "spell" else ""
        problem("tier", f"tier must be one of {names}{rule}, not {as_toml(tier_name)}")
    target = raw.get("target")
    if target not in TARGETS:
        problem("target", f"target must be one of {', '.join(TARGETS)}, not {as_toml(target)}")
    if target == SELF:
        if "range" in raw:
            problem("range", "it targets itself and takes no range")
        range_half = 0
    else:
        range_half = _metres(problem, "range", raw.get("range"))
    radius_half = 0
    if target == AREA:
        radius_half = _metres(problem, "radius", raw.get("radius"))
    elif "radius" in raw:
        problem("radius", "only an area target has a radius")
    attack = raw.get("attack", False)
    if not isinstance(attack, bool):
        problem("attack", "attack must be true or false")
        attack = False
    if attack and target not in (ENEMY, CREATURE):
        problem("attack", "an attack needs one creature as its target (enemy, creature)")
    save = raw.get("save")
    if save is not None and save not in ATTRIBUTES:
        problem("save", f"save must be one of {', '.join(ATTRIBUTES)}, not {as_toml(save)}")
    if attack and save is not None:
        problem("save", "a Hit Roll or a save decides who is affected, not both")
    description = raw.get("description", "")
    if not isinstance(description, str):
        problem("description", "description must be a string")
    effects_raw = raw.get("effects")
    if not isinstance(effects_raw, list) or not effects_raw:
        problem("effects", "needs effects, a list of tables")
        effects_raw = []
    effects = [_effect(problem, f"effect {i + 1}", e) for i, e in enumerate(effects_raw)]
    if failed or tier is None:
        return None
    return Ability(
        name=name,
        kind=str(kind),
        tier=tier,
        target=str(target),
        range_half=range_half,
        radius_half=radius_half,
        attack=attack,
        save=save,
        effects=tuple(e for e in effects if e is not None),
        description=str(description),
    )


def parse_abilities(raw: dict[str, Any], source: str = "abilities.toml") -> dict[str, Ability]:
    """Every ability of the TOML tables; raises AbilityError listing every problem."""
    problems: list[str] = []
    found: dict[str, Ability] = {}
    for name, table in raw.items():

        def report(key: str, message: str, where: str = f"[{name}]") -> None:
            problems.append(f"{where}: {message}")

        ability = entry(name, table, report)
        if ability is not None:
            found[name] = ability
    if problems:
        raise AbilityError(source, problems)
    return found


@cache
def default_table() -> dict[str, Any]:
    """sim/data/abilities.toml as parsed (read once; treated as immutable): the abilities are
    made from it, and the catalogue keeps it as written (issue #31: it was parsed twice)."""
    return tomllib.loads(data_text("abilities.toml"))


@cache
def default_abilities() -> dict[str, Ability]:
    """The shipped spells and abilities (read once; treated as immutable)."""
    return parse_abilities(default_table(), "sim/data/abilities.toml")
