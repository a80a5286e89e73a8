"""The AI's weight sets, search efforts and levels, read from sim/data/ai.toml."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from sim.core.datafiles import data_text


@dataclass(frozen=True, slots=True)
class Weights:
    """What the evaluators count and how much, in hit points' worth (sim/data/ai.toml says
    what each is for). `off`: the evaluators this set leaves out, their kinds worth nothing."""

    bonus_spent: float
    bonus_threat: float
    slowed: float
    focus: float
    objective_focus_cells: int
    move_closer: float
    move_cost: float
    goal_step: float
    goal_reached: float
    warden_step: float
    warden_on: float
    trade: float
    disengage_share: float
    shove_prone: float
    shove_cost: float
    trip_prone: float
    grapple_caster: float
    grapple_other: float
    grapple_cost: float
    aid_downed: float
    aid_menaced: float
    stand_up: float
    draw: float
    guard_threat: float
    guard_cost: float
    cast_save: float
    cast_cost: float
    burning_stack: float
    bleeding_stack: float
    quickened_turn: float
    slowed_turn: float
    prone_given: float
    trip_stand: float
    trip_dodge: float
    disengage_crowd: int
    disengage_spared: float
    disengage_moves: bool
    aim: float
    feint: float
    feint_later: float
    disarm_blows: float
    disarm_strikes: float
    break_free: float
    break_free_threat: float
    brace: float
    evade: float
    hide: float
    throw_keep: float
    throw_shots: float
    toss: float
    prepare: float
    prepare_horizon: float
    administer: float
    pick_up: float
    pick_up_edge: float
    shooter_closer: float
    throw_only_weapon: float
    hide_ambush: float
    high_ground: float
    stance_cost: float
    disengage_leaves: bool
    move_bonus_threat: float
    move_bonus_end: bool
    escape_priced: bool
    stance_stake: bool
    last_round_free: bool
    shove_goal: float
    auto_reactions: bool
    heal_rescue: float
    trade_hurt: float
    trade_lopsided: float
    off: frozenset[str]


@dataclass(frozen=True, slots=True)
class Search:
    """How hard `hard` looks ahead: how many candidates, on how many dice seeds, and by how
    much a played-out candidate must beat normal's best to overrule it."""

    candidates: int
    extra: int
    margin: float
    seeds: int
    first: int
    cut: float
    switch: float
    noise: float
    contest_switch: float
    steps: int
    budget: int
    guide: str
    hidden_walks: float
    windows: tuple[str, ...]  # the kinds of reaction window it looks ahead at too


@dataclass(frozen=True, slots=True)
class Level:
    """A level of the AI: its policy ("random", "greedy" or "rank"), the weight set it ranks
    by, the look-ahead it adds (None: none), and whether it weighs a defence against the Hit
    Roll already rolled (R-A2: the window opens on a rolled attack) or against the odds."""

    name: str
    policy: str
    weights: Weights | None
    search: Search | None
    read_roll: bool = False


@dataclass(frozen=True, slots=True)
class Book:
    """Everything sim/data/ai.toml holds."""

    kill: float
    weights: dict[str, Weights]
    levels: dict[str, Level]


def _weights(sets: dict[str, dict[str, Any]], name: str) -> Weights:
    table = dict(sets[name])
    base = table.pop("base", None)
    merged: dict[str, Any] = {}
    if base is not None:
        parent = _weights(sets, base)
        merged = {f.name: getattr(parent, f.name) for f in fields(Weights)}
    merged.update(table)
    merged["off"] = frozenset(merged.get("off", ()))
    names = {f.name for f in fields(Weights)}
    if set(merged) != names:
        raise ValueError(f"ai.toml weights.{name}: unknown or missing {set(merged) ^ names}")
    return Weights(**merged)


def parse(data: dict[str, Any]) -> Book:
    """The book of a parsed ai.toml; ValueError names a weight or level that is wrong."""
    sets = {name: _weights(data["weights"], name) for name in data["weights"]}
    searches = {
        name: Search(**{**table, "windows": tuple(table.get("windows", ()))})
        for name, table in data.get("search", {}).items()
    }
    levels: dict[str, Level] = {}
    for name, table in data["levels"].items():
        if table["policy"] not in ("random", "greedy", "rank"):
            raise ValueError(f"ai.toml levels.{name}: no policy {table['policy']!r}")
        weights = sets[table["weights"]] if "weights" in table else None
        search = searches[table["search"]] if "search" in table else None
        read = bool(table.get("read_roll", False))
        levels[name] = Level(name, table["policy"], weights, search, read)
    return Book(float(data["currency"]["kill"]), sets, levels)


@cache
def book() -> Book:
    """The shipped book (read once)."""
    text = data_text("ai.toml")
    return parse(tomllib.loads(text))


def level(name: str) -> Level:
    """The level called `name`; ValueError lists the levels there are."""
    levels = book().levels
    if name not in levels:
        raise ValueError(f"AI level must be one of {', '.join(levels)}, not {name!r}")
    return levels[name]
