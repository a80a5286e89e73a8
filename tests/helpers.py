"""Transcript helpers: build a battle from an inline scenario with loaded dice, then play it."""

from __future__ import annotations

import textwrap
from typing import Any

from sim.actions import Refusal
from sim.decisions import parse
from sim.dice import LoadedDice
from sim.engine import Accepted, Battle
from sim.events import Event, to_json
from sim.scenario import loads


def scenario_text(rows: str, units: str, extra: str = "") -> str:
    """A scenario with the given map rows and [[units]] tables (TOML text)."""
    return (
        'name = "test"\n[map]\nrows = """\n'
        + textwrap.dedent(rows).strip("\n")
        + '\n"""\n'
        + textwrap.dedent(extra)
        + "\n"
        + textwrap.dedent(units)
    )


def battle(text: str, dice: list[int]) -> Battle:
    """A battle begun on an inline scenario with loaded dice (initiative uses the first)."""
    scenario = loads(text, "test.toml")
    return Battle.begin(
        scenario.world, LoadedDice(dice), scenario=scenario.name, objectives=scenario.objectives
    )


def act(b: Battle, **decision: Any) -> Accepted | Refusal:
    """Submit one decision written as in a script line."""
    return b.submit(parse(decision))


def accepted(b: Battle, **decision: Any) -> list[dict[str, Any]]:
    """Submit a decision that must be accepted; its events as JSON dicts."""
    result = act(b, **decision)
    assert isinstance(result, Accepted), f"refused: {result}"
    return [to_json(e) for e in result.events]


def refused(b: Battle, **decision: Any) -> str:
    """Submit a decision that must be refused, check it changed nothing, return the reason."""
    before = b.world.copy()
    log = len(b.log)
    result = act(b, **decision)
    assert isinstance(result, Refusal), f"accepted: {result}"
    assert b.world == before, "a refused decision changed the world"
    assert len(b.log) == log
    return result.reason


def types(events: list[dict[str, Any]] | list[Event]) -> list[str]:
    return [e["type"] if isinstance(e, dict) else e.kind for e in events]
