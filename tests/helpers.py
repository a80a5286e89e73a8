"""Transcript helpers: build a battle from an inline scenario with loaded dice, then play it."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from sim.content.scenario import loads
from sim.core.actions import Refusal
from sim.core.components import Budget, Conditions, Health
from sim.core.condition import Condition, Value, written
from sim.core.dice import LoadedDice, SeededDice
from sim.core.events import (
    AttackResolved,
    CheckResolved,
    ConditionGained,
    ContestResolved,
    Damaged,
    Event,
    Rolled,
    to_json,
)
from sim.core.purpose import AttackKind, RollKind
from sim.play.apply import apply
from sim.play.decisions import parse
from sim.play.engine import Accepted, Battle, Decision


def random_play(examples: int) -> settings:
    """Hypothesis settings of a random-play test: `examples` draws, the same every run (CI
    plays the same battles each time, so a tally check is not luck); with SIM_LONG_PLAY=N in
    the environment, N times as many, drawn afresh each run (a long hunt for rare states)."""
    raw = os.environ.get("SIM_LONG_PLAY")
    if raw is not None and not (raw.isdecimal() and raw.isascii() and int(raw) >= 1):
        raise pytest.UsageError(f"SIM_LONG_PLAY must be a whole number of at least 1, not {raw!r}")
    return settings(
        max_examples=examples * (int(raw) if raw is not None else 1),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        derandomize=raw is None,
    )


def first_fast(values: Sequence[Any], *, several: bool = False) -> list[Any]:
    """A parametrized test's values with all but the first marked `slow`: the fast lane
    (`pytest -m "not slow"`, README) runs the first as the test's short version, the whole
    suite every one. `several`: each value is a tuple of several arguments."""
    slow = pytest.mark.slow
    return [
        v if i == 0 else pytest.param(*v, marks=slow) if several else pytest.param(v, marks=slow)
        for i, v in enumerate(values)
    ]


def led_by(values: Sequence[Any], name: str) -> list[Any]:
    """`values` with the one named `name` (a path's stem, or the value itself) moved first, so
    that `first_fast` keeps it in the fast lane: the cheapest case that makes the test's point,
    as measured (issue #30), rather than the alphabetical first. The full suite runs them all."""
    chosen = [v for v in values if (v.stem if isinstance(v, Path) else v) == name]
    assert len(chosen) == 1, f"{name} is not one of the values"
    return chosen + [v for v in values if v not in chosen]


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
    return loads(text, "test.toml").begin(LoadedDice(dice))


def act(b: Battle, **decision: Any) -> Accepted | Refusal:
    """Submit one decision written as in a script line."""
    return b.submit(parse(decision))


def accepted(b: Battle, **decision: Any) -> list[dict[str, Any]]:
    """Submit a decision that must be accepted; its events as JSON dicts."""
    return accept(b, parse(decision))


def refused(b: Battle, **decision: Any) -> str:
    """Submit a decision that must be refused, check it changed nothing, return the reason."""
    return refuse(b, parse(decision))


def accept(b: Battle, decision: Decision) -> list[dict[str, Any]]:
    """`accepted` for a decision value (an action type no script parser knows, say)."""
    result = b.submit(decision)
    assert isinstance(result, Accepted), f"refused: {result}"
    return [to_json(e) for e in result.events]


def refuse(b: Battle, decision: Decision) -> str:
    """`refused` for a decision value."""
    before = b.world.copy()
    log = len(b.log)
    result = b.submit(decision)
    assert isinstance(result, Refusal), f"accepted: {result}"
    assert b.world == before, "a refused decision changed the world"
    assert len(b.log) == log
    return result.reason


def rolls(events: list[dict[str, Any]]) -> list[tuple[str, str, int, int]]:
    """(unit, purpose, die result, total) of each roll."""
    return [
        (e["unit"], e["purpose"], e["result"], e["total"]) for e in events if e["type"] == "rolled"
    ]


def types(events: list[dict[str, Any]] | list[Event]) -> list[str]:
    return [e["type"] if isinstance(e, dict) else e.kind for e in events]


Tag = RollKind | AttackKind | str | None


def tagged(b: Battle, since: int = 0) -> list[tuple[str, Tag]]:
    """Issue #28: (event type, tag) of each roll, check, contest and attack logged since
    `since`, and (damaged, dealer) of each damage: what the log's JSON leaves out."""
    out: list[tuple[str, Tag]] = []
    for e in b.log[since:]:
        if isinstance(e, Rolled | CheckResolved | ContestResolved | AttackResolved):
            out.append((e.kind, e.tag))
        elif isinstance(e, Damaged):
            out.append((e.kind, e.dealer))
    return out


# The attribute dice and Bonuses the rules transcripts were written for (the shipped templates'
# before issue 16 balanced them). `unit` states them in each table it writes, so a transcript's
# loaded dice keep meaning what they say when the shipped numbers are tuned again; a test of
# the shipped templates themselves reads them from the catalog (`shipped`), and a test that
# plays a shipped scenario follows whatever the data says.
TRANSCRIPT_STATS: dict[str, dict[str, str]] = {
    "human_fighter": {"str": "d8+6", "agi": "d8+4", "fcs": "d8+7", "res": "d10+5"},
    "human_archer": {"str": "d6+4", "agi": "d8+5", "fcs": "d8+7", "res": "d8+4"},
    "elf_skirmisher": {"str": "d6+4", "agi": "d10+6", "fcs": "d8+7", "res": "d8+4"},
    "dwarf_guard": {"str": "d10+6", "agi": "d6+3", "fcs": "d8+6", "res": "d12+6"},
    "halfling_medic": {"str": "d4+3", "agi": "d8+5", "fcs": "d8+6", "res": "d8+4"},
    "orc_brute": {"str": "d10+8", "agi": "d6+3", "fcs": "d8+7", "res": "d10+6"},
    "orc_raider": {"str": "d8+6", "agi": "d8+4", "fcs": "d8+7", "res": "d10+4"},
    "goblin_sneak": {"str": "d4+2", "agi": "d10+5", "fcs": "d8+6", "res": "d6+3"},
    "human_mage": {"str": "d6+3", "agi": "d8+5", "fcs": "d8+7", "res": "d8+4"},
    "orc_shaman": {"str": "d8+5", "agi": "d8+4", "fcs": "d8+7", "res": "d10+4"},
}


def unit(uid: str, team: str, template: str, at: str, **keys: Any) -> str:
    """One [[units]] table; `keys` override the template (lists, tables, strings, numbers).
    The template's attributes are stated as TRANSCRIPT_STATS has them unless `keys` names them.

    >>> print(unit("ana", "blue", "human_fighter", "a", held=[], skills={"athletics": 2}))
    [[units]]
    id = "ana"
    team = "blue"
    template = "human_fighter"
    at = "a"
    str = "d8+6"
    agi = "d8+4"
    fcs = "d8+7"
    res = "d10+5"
    held = []
    skills = { athletics = 2 }
    """
    lines = ["[[units]]", f'id = "{uid}"', f'team = "{team}"', f'template = "{template}"']
    lines.append(f'at = "{at}"')
    keys = {**TRANSCRIPT_STATS.get(template, {}), **keys}
    lines += [f"{key} = {_toml(value)}" for key, value in keys.items()]
    return "\n".join(lines)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return str(value)


def seeded_battle(text: str, seed: int) -> Battle:
    """A battle begun on an inline scenario with fair dice from `seed`."""
    return loads(text, "test.toml").begin(SeededDice(seed), seed)


def budget(b: Battle, uid: str) -> tuple[int, int]:
    """The half-actions and Bonus Actions `uid` has left (R-B2)."""
    left = b.world.need(uid, Budget)
    return left.half, left.bonus


def conditions_of(b: Battle, uid: str) -> dict[str, int | str]:
    """`uid`'s conditions and their values, as the state file writes them."""
    return {k: written(v) for k, v in (b.world.get(uid, Conditions) or Conditions()).entries}


def hp(b: Battle, uid: str) -> int:
    return b.world.need(uid, Health).hp


def give(b: Battle, uid: str, condition: str, value: Value = 1) -> None:
    """Test setup: `uid` gains a condition as if some other rule had given it."""
    apply(b.world, ConditionGained(uid, Condition(condition), value))


def end_turns(b: Battle, *uids: str) -> None:
    """Each of `uids`, in order, ends its turn without acting (it must be its turn)."""
    for uid in uids:
        accepted(b, unit=uid, action="end_turn")


def shipped(template: str, attribute: str) -> tuple[int, int]:
    """(die, Bonus) of a shipped template's attribute, read from the catalog's raw text
    ("d8+6"): tests whose numbers come from the templates follow the data (issue 16)."""
    from sim.core.catalog import default_catalog

    die, bonus = str(default_catalog().templates[template][attribute]).removeprefix("d").split("+")
    return int(die), int(bonus)


def wd(weapon: str) -> int:
    """A shipped weapon's WD, from the catalog (issue 16: tests follow the data)."""
    from sim.core.catalog import Weapon, default_catalog

    kind = default_catalog().get(weapon)
    assert isinstance(kind, Weapon)
    return kind.wd


def rating(item: str) -> int:
    """A shipped weapon's Parry Rating, shield's Block Rating or armour's Armour Rating."""
    from sim.core.catalog import Armour, Shield, Weapon, default_catalog

    kind = default_catalog().get(item)
    if isinstance(kind, Weapon):
        return kind.parry
    if isinstance(kind, Shield):
        return kind.block
    assert isinstance(kind, Armour)
    return kind.rating


def stated(template: str) -> str:
    """TOML lines stating a template's TRANSCRIPT_STATS, for a scenario written out by hand."""
    return "".join(f'{key} = "{value}"\n' for key, value in TRANSCRIPT_STATS[template].items())


def bench_module(name: str) -> ModuleType:
    """bench/NAME.py (the bench scripts are no package) loaded as the module `bench_NAME`, and
    registered so: its dataclasses look their module up."""
    path = Path(__file__).resolve().parent.parent / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"bench_{name}"] = module
    spec.loader.exec_module(module)
    return module
