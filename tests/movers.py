"""Creatures for the terrain and movement tests (issue 3): plain stat blocks without a template,
so every number a test relies on is in view.

`creature("ana", "blue", "a")` is a human (Speed 9, height 1.8 m) with AGI d8+8, no armour,
nothing in hand, no skills and no reactions: Walk 3 m, Run 9 m, Sprint 9 + d8 + 8 m, Step 2 m,
Crawl 4 m, Swim 3 m; a standing jump 2 m long and 0.5 m high, a running jump at most 4 m long
and 1.5 m high; she leaps 0.9 m (half her height) and climbs 8 m (her AGI die).
"""

from __future__ import annotations

from typing import Any

from sim.core.components import Position
from sim.core.geometry import Pos
from sim.play.engine import Battle
from tests.helpers import _toml, battle, scenario_text

BASE: dict[str, Any] = {
    "race": "human",
    "str": "d8+6",
    "agi": "d8+8",
    "fcs": "d8+6",
    "res": "d10+5",  # 15 hit points (R-C6)
    "held": [],
    "carried": [],
    "policy": "never",  # no Attacks of Opportunity unless a test asks for them (R-R4)
}


def creature(uid: str, team: str, at: str, **keys: Any) -> str:
    """One [[units]] table: BASE with `keys` overriding it (race, agi, skills, armour, ...)."""
    lines = ["[[units]]", f'id = "{uid}"', f'team = "{team}"', f'at = "{at}"']
    lines += [f"{key} = {_toml(value)}" for key, value in (BASE | keys).items()]
    return "\n".join(lines)


def legend(**entries: dict[str, Any]) -> str:
    """A [legend] table: `legend(L={"height": 1.5})` lets "L" mark a 1.5 m ledge."""
    lines = ["[legend]"]
    for char, entry in entries.items():
        lines.append(f"{char} = {_toml({'kind': 'open'} | entry)}")
    return "\n".join(lines) + "\n"


def begin(rows: str, *units: str, extra: str = "", dice: tuple[int, ...] = ()) -> Battle:
    """A battle on `rows` with initiative 8, 7, 6, ... in scenario order (equal AGI: the first
    unit acts first), then the loaded `dice`."""
    rolls = [8 - i for i in range(len(units))]
    return battle(scenario_text(rows, "\n".join(units), extra), [*rolls, *dice])


def cell(b: Battle, uid: str) -> Pos:
    """Where a creature stands."""
    return b.world.need(uid, Position).cell
