"""The one JSON form of an action (scripts, saves, the event log), read off its type's fields."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import MISSING, Field, fields
from typing import Any

from sim.core import actions as a
from sim.core.geometry import Pos


class DecisionError(ValueError):
    """A decision that cannot be understood; the message says which field and why."""


# The range of every number a decision holds (docs/commands.md, "Decisions"): not rules, only
# bounds past which a number cannot mean anything on a map, so that none reaches the engine
# to overflow or to make it work for ever (issue #10).
MAX_COORDINATE = 1_000_000  # a cell's x or y, either way from 0
MAX_METRES = 1000  # Prepare's "metres", as a scenario's heights

COMMON = {"unit", "action", "slow", "quicken"}


def shown(value: Any, limit: int = 60) -> str:
    """`value` as the JSON a script or save holds (`[true, 1]`, not Python's `[True, 1]`), cut
    short for a message: input can be huge or nested deep."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except RecursionError:
        text = "(something nested too deep)"
    except (TypeError, ValueError):  # not JSON at all: no script or save gives such a value
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def as_toml(value: Any, limit: int = 60) -> str:
    """`value` as a TOML file writes it (`"big"`, `true`, `inf`, `[1, 2]`), cut short for a
    message; nothing given is `nothing`: a scenario's or a pack's problem quotes the file's words,
    not Python's (`'big'`, `True`)."""
    text = _toml(value, 0)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _toml(value: Any, depth: int) -> str:
    if depth > 8:
        return "..."
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return "nan" if value != value else ("inf" if value > 0 else "-inf")
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v, depth + 1) for v in value[:20]) + "]"
    if isinstance(value, dict):
        pairs = list(value.items())[:20]
        return "{ " + ", ".join(f"{k} = {_toml(v, depth + 1)}" for k, v in pairs) + " }"
    return str(value)  # a date or a time: TOML writes them as Python does


# What a cell of each field is, for the message refusing one that is not [x, y].
_CELL_WORDS = {
    "path": '"path" cells are [x, y] (or [x, y, "jump"] for a cell entered by a jump), not {}',
    "to": '"to" is a cell [x, y], not {}',
    "cells": '"cells" is the area the plan watches, a list of cells [x, y]; {} is not a cell',
}
_LIST_WORDS = {
    "path": '"path" must be a list of cells like [[3, 4], [4, 4]]',
    "cells": '"cells" must be a list of cells like [[3, 4], [4, 4]]',
}


def _cell(value: Any, key: str) -> Pos:
    if (
        isinstance(value, list)
        and len(value) in (2, 3)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value[:2])
        and (len(value) == 2 or value[2] == "jump")
    ):
        if not all(-MAX_COORDINATE <= v <= MAX_COORDINATE for v in value[:2]):
            raise DecisionError(
                f'"{key}" cells have x and y from {-MAX_COORDINATE} to {MAX_COORDINATE}, '
                f"not {shown(value)}"
            )
        return Pos(value[0], value[1])
    raise DecisionError(_CELL_WORDS[key].format(shown(value)))


Wire = tuple[tuple[str, str, a.Json, Field[Any]], ...]
_WIRES: dict[type[a.Action], Wire] = {}


def wire(kind: type[a.Action]) -> Wire:
    """An action type's JSON fields in the order a decision writes them: each one's JSON key,
    its attribute, its `Json` form and its dataclass field (read once per type)."""
    known = _WIRES.get(kind)
    if known is not None:
        return known
    found = {f.name: f for f in fields(kind) if "json" in f.metadata}
    order = [*kind.json_order, *(name for name in found if name not in kind.json_order)]
    out = []
    for name in order:
        f = found[name]
        spec: a.Json = f.metadata["json"]
        key = (
            kind.category if spec.kind == "ability" and issubclass(kind, a.AbilityAction) else name
        )
        out.append((key, name, spec, f))
    _WIRES[kind] = tuple(out)
    return _WIRES[kind]


def keys(kind: type[a.Action]) -> set[str]:
    """The JSON fields an action of this type takes besides COMMON."""
    return {key for key, *_ in wire(kind)}


def _default(f: Field[Any]) -> Any:
    return MISSING if f.default is MISSING else f.default


def encode(action: a.Action) -> dict[str, Any]:
    """The JSON object of an action: "unit", "action", each field that is not its default, then
    "slow" and "quicken" when set."""
    out: dict[str, Any] = {"unit": action.actor, "action": action.name}
    for key, name, spec, f in wire(type(action)):
        value = getattr(action, name)
        if value is None or (not spec.required and value == _default(f)):
            continue
        out[key] = _plain(action, spec, value)
    if action.slow:
        out["slow"] = True
    if action.quicken:
        out["quicken"] = True
    return out


def _plain(action: a.Action, spec: a.Json, value: Any) -> Any:
    if spec.kind == "cell":
        return [value.x, value.y]
    if spec.kind == "cells":
        return [[c.x, c.y] for c in value]
    if spec.kind == "path":
        assert isinstance(action, a.Movement)
        return [
            [c.x, c.y, "jump"] if i in action.jumps else [c.x, c.y] for i, c in enumerate(value)
        ]
    if spec.kind == "action":
        return {k: v for k, v in encode(value).items() if k != "unit"}
    return value


Then = Callable[[str, dict[str, Any]], a.Action]


def decode(
    kind: type[a.Action], unit: str, obj: dict[str, Any], slow: bool, quicken: bool, then: Then
) -> a.Action:
    """An action of type `kind` from its JSON object (its common fields already read); `then`
    reads a prepared action (Prepare's "then"). Raises DecisionError naming the bad field."""
    values: dict[str, Any] = {}
    # Read in the fields' own order (a line with two faults is refused for the first), written
    # in `wire`'s.
    written = wire(kind)
    order = [f.name for f in fields(kind)]
    for key, name, spec, f in sorted(written, key=lambda w: order.index(w[1])):
        if spec.kind == "path":
            path, jumps = _path(obj.get(key, []))
            values[name], values["jumps"] = path, jumps
        elif key in obj or spec.required:
            values[name] = _read(kind, key, spec, obj.get(key), _default(f), unit, then)
    return kind(unit, **values, slow=slow, quicken=quicken)


def _path(raw: Any) -> tuple[tuple[Pos, ...], tuple[int, ...]]:
    """`path`: cells after the start, a cell [x, y, "jump"] entered by a jump."""
    if not isinstance(raw, list):
        raise DecisionError(_LIST_WORDS["path"])
    cells = tuple(_cell(c, "path") for c in raw)
    return cells, tuple(i for i, c in enumerate(raw) if len(c) == 3)


def _read(
    kind: type[a.Action],
    key: str,
    spec: a.Json,
    value: Any,
    default: Any,
    unit: str,
    then: Then,
) -> Any:
    if spec.kind in ("text", "ability"):
        words = spec.words
        if spec.kind == "ability":
            words = f'the name of a {key}, e.g. "{getattr(kind, "example", "")}"'
        if value is None and default is None and not spec.required:
            return None  # null: not given, where the field may be left out
        if not isinstance(value, str) or (not value and not spec.empty):
            raise DecisionError(
                f'needs "{key}": {words}' if spec.required else f'"{key}" must be {words}'
            )
        return value
    if spec.kind == "flag":
        if not isinstance(value, bool):
            raise DecisionError(f'"{key}" must be {spec.words}')
        return value
    if spec.kind == "cell":
        if not spec.marked and isinstance(value, list) and len(value) != 2:
            raise DecisionError(_CELL_WORDS[key].format(shown(value)))
        return _cell(value, key)
    if spec.kind == "cells":
        if not isinstance(value, list):
            raise DecisionError(_LIST_WORDS[key])
        return tuple(_cell(c, key) for c in value)
    if spec.kind == "metres":
        # NaN fails both comparisons, and infinity and 1e308 the upper one (issue #10).
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0 <= value <= MAX_METRES
        ):
            raise DecisionError(f'"{key}" must be a number from 0 to {MAX_METRES}')
        return float(value)
    assert spec.kind == "action"
    if not isinstance(value, dict):
        raise DecisionError(f'needs "{key}": the prepared action, e.g. {{"action": "attack", ...}}')
    if value.get("action") == "prepare":
        # R-P1: Prepare must be the first action of a turn, which a prepared action never is;
        # refusing it here also keeps a chain of them from nesting the parser without end.
        raise DecisionError('the prepared action cannot itself be a Prepare ("then" is prepare)')
    return then(unit, value)
