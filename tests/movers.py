"""Creatures for the terrain and movement tests (issue 3): plain stat blocks without a template,
so every number a test relies on is in view.

`creature("ana", "blue", "a")` is a human (Speed 9, height 1.8 m) with AGI d8+8, no armour,
nothing in hand, no skills and no reactions: Walk 3 m, Run 9 m, Sprint 9 + d8 + 8 m, Step 2 m,
Crawl 4 m, Swim 3 m; a standing jump 2 m long and 0.5 m high, a running jump at most 4 m long
and 1.5 m high; she leaps 0.9 m (half her height) and climbs 8 m (her AGI die).

`solo` puts her alone on a map; the maps below are the ones several test files share.
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


def solo(rows: str, extra: str = "", **ana: Any) -> Battle:
    """ana alone on `rows` (`extra`: a [legend] table), `ana` overriding her stat block."""
    return battle(scenario_text(rows, creature("ana", "blue", "a", **ana), extra), [1])


def at(b: Battle, uid: str = "ana") -> Position:
    """Where a creature is: its cell and, hanging on a face, how high up it (R-M7)."""
    return b.world.need(uid, Position)


def legs(events: list[dict[str, Any]]) -> list[tuple[str, list[int], int]]:
    """(type, end, cost) of each Moved or Jumped event."""
    return [(e["type"], e["end"], e["cost"]) for e in events if e["type"] in ("moved", "jumped")]


# A 0.5 m rise at (3,1), within the 0.9 m ana leaps, and a 1.5 m ledge from (5,1) on, beyond it
# (R-M3) but within a jump when she grabs its edge (R-M6).
RISES = """
.........
.a.R.LLLL
.........
"""
RISE_LEGEND = legend(R={"height": 0.5}, L={"height": 1.5})

# ana swims at (1,1) in 2 m of water. North, (1,0) is a quay level with the surface (ground 2 m);
# west, (0,1) a climbable bank 1 m above the surface; east, (2,1) a sheer wall 2 m above it.
HARBOUR = """
WQW
KaH
WWW
"""
HARBOUR_LEGEND = legend(
    W={"water": 2.0},
    a={"water": 2.0},
    Q={"height": 2.0},
    K={"height": 3.0, "climbable": True},
    H={"height": 4.0},
)

# ana swims at (1,1) in a 2 m deep pool (W); the ford at (4,1) is 1 m deep. bo, an enemy with a
# dagger, stands on the bank at (1,0); cy, an enemy, swims in the same pool at (3,2).
POOL = """
.b....
.aWWF.
..WcW.
"""
POOL_LEGEND = legend(a={"water": 2.0}, W={"water": 2.0}, c={"water": 2.0}, F={"water": 1.0})
