"""Decisions written as JSON objects (scripts, saves) and turned into engine values."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sim import actions as a
from sim.engine import Decision, ReactionChoice, SetPolicy
from sim.geometry import Pos

# Every action name of the rules (snake_case). Those without a parser here are not built yet.
ALL_ACTION_NAMES = (
    "step",
    "walk",
    "run",
    "sprint",
    "climb",
    "crawl",
    "swim",
    "jump",
    "stand_up",
    "fall_prone",
    "aim",
    "assist",
    "attack",
    "brace",
    "consume",
    "disarm",
    "draw",
    "stow",
    "drop",
    "pick_up",
    "evade",
    "feint",
    "aid",
    "administer",
    "grapple",
    "break_free",
    "release",
    "guard",
    "hide",
    "shove",
    "prepare",
    "throw",
    "toss",
    "trip",
    "disengage",
    "end_turn",
    "don",
    "doff",
    "cast",
    "use",
)


class DecisionError(ValueError):
    """A decision that cannot be understood; the message says which field and why."""


# The range of every number a decision holds (docs/commands.md, "Decisions"): not rules, only
# bounds past which a number cannot mean anything on a map, so that none reaches the engine
# to overflow or to make it work for ever (issue #10).
MAX_COORDINATE = 1_000_000  # a cell's x or y, either way from 0
MAX_METRES = 1000  # Prepare's "metres", as a scenario's heights


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


def _item(fields: dict[str, Any]) -> str:
    item = fields.get("item")
    if not isinstance(item, str) or not item:
        raise DecisionError('needs "item": the id or kind of an item, e.g. "healing_potion"')
    return item


# What a cell of each field is, for the message refusing one that is not [x, y].
_CELL_WORDS = {
    "path": '"path" cells are [x, y] (or [x, y, "jump"] for a cell entered by a jump), not {}',
    "to": '"to" is a cell [x, y], not {}',
    "cells": '"cells" is the area the plan watches, a list of cells [x, y]; {} is not a cell',
}


def _cell(value: Any, field: str) -> Pos:
    if (
        isinstance(value, list)
        and len(value) in (2, 3)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value[:2])
        and (len(value) == 2 or value[2] == "jump")
    ):
        if not all(-MAX_COORDINATE <= v <= MAX_COORDINATE for v in value[:2]):
            raise DecisionError(
                f'"{field}" cells have x and y from {-MAX_COORDINATE} to {MAX_COORDINATE}, '
                f"not {shown(value)}"
            )
        return Pos(value[0], value[1])
    raise DecisionError(_CELL_WORDS[field].format(shown(value)))


def _movement(cls: Any) -> Parser:
    """`path`: cells after the start, a cell [x, y, "jump"] entered by a jump; or `to`: a cell."""

    def make(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
        raw_path = fields.get("path", [])
        if not isinstance(raw_path, list):
            raise DecisionError('"path" must be a list of cells like [[3, 4], [4, 4]]')
        path = tuple(_cell(c, "path") for c in raw_path)
        jumps = tuple(i for i, c in enumerate(raw_path) if len(c) == 3)
        to = _cell(fields["to"], "to") if "to" in fields else None
        action: a.Action = cls(unit, path, to, jumps, slow=slow, quicken=quicken)
        return action

    return make


def _swim(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
    """A Swim, with `"submerged": true` to dive (R-M8)."""
    swim = _movement(a.Swim)(unit, fields, slow, quicken)
    submerged = fields.get("submerged", False)
    if not isinstance(submerged, bool):
        raise DecisionError('"submerged" must be true (swim under the surface) or false')
    assert isinstance(swim, a.Swim)
    return replace(swim, submerged=submerged)


_MOVES: dict[str, type[a.Action]] = {
    cls.name: cls for cls in (a.Step, a.Walk, a.Run, a.Sprint, a.Crawl, a.Swim, a.Jump, a.Climb)
}


def _target(fields: dict[str, Any]) -> str:
    target = fields.get("target")
    if not isinstance(target, str) or not target:
        raise DecisionError('needs "target": the id of a creature, e.g. "grok"')
    return target


def _optional(fields: dict[str, Any], key: str, what: str) -> str | None:
    value = fields.get(key)
    if value is not None and not isinstance(value, str):
        raise DecisionError(f'"{key}" must be the id or kind of {what}')
    return value


def _at_target(cls: Any, optional: tuple[str, str] | None = None) -> Parser:
    """`cls` is an action type whose fields are `target`, then the optional field named by
    `optional` (its key, and what its id or kind names)."""

    def make(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
        extra = () if optional is None else (_optional(fields, *optional),)
        action: a.Action = cls(unit, _target(fields), *extra, slow=slow, quicken=quicken)
        return action

    return make


_PLAIN: dict[str, type[a.Action]] = {
    cls.name: cls
    for cls in (
        a.EndTurn,
        a.Aim,
        a.Brace,
        a.Evade,
        a.Guard,
        a.FallProne,
        a.StandUp,
        a.Doff,
        a.Disengage,
        a.Hide,
    )
}
_WITH_ITEM: dict[str, type[a.Action]] = {
    cls.name: cls for cls in (a.Draw, a.Stow, a.Drop, a.PickUp, a.Consume, a.Don)
}

Parser = Callable[[str, dict[str, Any], bool, bool], a.Action]


def _plain(cls: type[a.Action]) -> Parser:
    def make(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
        return cls(unit, slow=slow, quicken=quicken)

    return make


def _with_item(cls: Any) -> Parser:
    """`cls` is an action type whose second field is `item`."""

    def make(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
        action: a.Action = cls(unit, _item(fields), slow=slow, quicken=quicken)
        return action

    return make


def _ability(cls: type[a.AbilityAction]) -> Parser:
    """R-X20: `spell` (for cast) or `ability` (for use) names it; `target` a creature, or `to` a
    cell [x, y]."""
    key = cls.category

    def make(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
        name = fields.get(key)
        if not isinstance(name, str) or not name:
            example = "firebolt" if key == "spell" else "battle_focus"
            raise DecisionError(f'needs "{key}": the name of a {key}, e.g. "{example}"')
        target = fields.get("target", "")
        if not isinstance(target, str):
            raise DecisionError('"target" must be the id of a creature, e.g. "grok"')
        to = None
        if "to" in fields:
            if isinstance(fields["to"], list) and len(fields["to"]) != 2:
                raise DecisionError(f'"to" is a cell [x, y], not {shown(fields["to"])}')
            to = _cell(fields["to"], "to")
        return cls(unit, name, target, to, slow=slow, quicken=quicken)

    return make


def _assist(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
    """R-X21: `ally` and `enemy`, the ids of two creatures."""
    names = []
    for key, example in (("ally", "bram"), ("enemy", "grok")):
        value = fields.get(key)
        if not isinstance(value, str) or not value:
            raise DecisionError(f'needs "{key}": the id of a creature, e.g. "{example}"')
        names.append(value)
    return a.Assist(unit, names[0], names[1], slow=slow, quicken=quicken)


def _throw(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
    """R-X17: `target` and the held `item`."""
    return a.Throw(unit, _target(fields), _item(fields), slow=slow, quicken=quicken)


def _toss(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
    """R-X18: the held `item`, and `to` a cell or `target` a creature (the check refuses both
    or neither, with its reason)."""
    to = _cell(fields["to"], "to") if "to" in fields else None
    target = fields.get("target")
    if target is not None and (not isinstance(target, str) or not target):
        raise DecisionError('"target" must be the id of a creature, e.g. "bram"')
    return a.Toss(unit, _item(fields), to, target, slow=slow, quicken=quicken)


def _prepare(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
    """R-P: {"trigger": ..., "metres" | "cells" | "watch": ..., "then": {an action}}."""
    trigger = fields.get("trigger")
    if not isinstance(trigger, str):
        raise DecisionError(
            'needs "trigger": enemy_within, enters_area, starts_action or ends_turn'
        )
    metres = fields.get("metres", 0)
    # NaN fails both comparisons, and infinity and 1e308 the upper one (issue #10).
    if (
        isinstance(metres, bool)
        or not isinstance(metres, int | float)
        or not 0 <= metres <= MAX_METRES
    ):
        raise DecisionError(f'"metres" must be a number from 0 to {MAX_METRES}')
    raw_cells = fields.get("cells", [])
    if not isinstance(raw_cells, list):
        raise DecisionError('"cells" must be a list of cells like [[3, 4], [4, 4]]')
    watch = fields.get("watch", "")
    if not isinstance(watch, str):
        raise DecisionError('"watch" must be the id of a creature')
    then = fields.get("then")
    if not isinstance(then, dict):
        raise DecisionError('needs "then": the prepared action, e.g. {"action": "attack", ...}')
    if then.get("action") == "prepare":
        # R-P1: Prepare must be the first action of a turn, which a prepared action never is;
        # refusing it here also keeps a chain of them from nesting the parser without end.
        raise DecisionError('the prepared action cannot itself be a Prepare ("then" is prepare)')
    inner = parse({**then, "unit": unit})
    if not isinstance(inner, a.Action):
        raise DecisionError('"then" must be an action, not a policy or a reaction')
    cells = tuple(_cell(c, "cells") for c in raw_cells)
    return a.Prepare(unit, trigger, float(metres), cells, watch, inner, slow=slow, quicken=quicken)


_TABLE: dict[str, tuple[Parser, set[str]]] = {
    **{name: (_plain(cls), set()) for name, cls in _PLAIN.items()},
    **{name: (_with_item(cls), {"item"}) for name, cls in _WITH_ITEM.items()},
    **{name: (_movement(cls), {"path", "to"}) for name, cls in _MOVES.items()},
    "swim": (_swim, {"path", "to", "submerged"}),
    "attack": (_at_target(a.Attack, ("weapon", "a held weapon")), {"target", "weapon"}),
    "trip": (_at_target(a.Trip, ("weapon", "a held weapon")), {"target", "weapon"}),
    "disarm": (_at_target(a.Disarm, ("item", "a weapon the target holds")), {"target", "item"}),
    "shove": (_at_target(a.Shove), {"target"}),
    "feint": (_at_target(a.Feint), {"target"}),
    "grapple": (_at_target(a.Grapple), {"target"}),
    "break_free": (_plain(a.BreakFree), set()),
    "release": (_plain(a.Release), set()),
    "aid": (_at_target(a.Aid), {"target"}),
    "assist": (_assist, {"ally", "enemy"}),
    # R-X12: `item` for a potion or remedy (without it: First Aid healing).
    "administer": (
        _at_target(a.Administer, ("item", "a potion or remedy the unit has")),
        {"target", "item"},
    ),
    "throw": (_throw, {"target", "item"}),
    "toss": (_toss, {"item", "to", "target"}),
    "cast": (_ability(a.Cast), {"spell", "target", "to"}),
    "use": (_ability(a.Use), {"ability", "target", "to"}),
    "prepare": (_prepare, {"trigger", "metres", "cells", "watch", "then"}),
}
PARSERS: dict[str, Parser] = {name: parser for name, (parser, _) in _TABLE.items()}
COMMON = {"unit", "action", "slow", "quicken"}
# The fields each action takes besides COMMON.
FIELDS: dict[str, set[str]] = {name: fields for name, (_, fields) in _TABLE.items()}


def parse(obj: Any) -> Decision:
    """A decision from its JSON object; raises DecisionError with a reason a player can read."""
    if not isinstance(obj, dict):
        raise DecisionError("a decision must be a JSON object")
    unit = obj.get("unit")
    if not isinstance(unit, str):
        raise DecisionError('needs "unit": the id of the creature that acts')
    if "reaction" in obj:
        extra = set(obj) - {"unit", "reaction", "slow"}
        if extra:
            raise DecisionError(
                f"unknown field(s) for a reaction answer: {', '.join(sorted(extra))}"
            )
        if not isinstance(obj["reaction"], str):
            raise DecisionError('"reaction" must be an option name such as "dodge" or "none"')
        slow = obj.get("slow", False)
        if not isinstance(slow, bool):
            raise DecisionError('"slow" must be true or false')
        return ReactionChoice(unit, obj["reaction"], slow)  # R-B7: a slowed reaction
    if "policy" in obj:
        extra = set(obj) - {"unit", "policy", "defence"}
        if extra:
            raise DecisionError(f"unknown field(s) for a policy line: {', '.join(sorted(extra))}")
        policy, defence = obj["policy"], obj.get("defence", "best")
        if not isinstance(policy, str) or not isinstance(defence, str):
            raise DecisionError('"policy" and "defence" must be names such as "ask" and "dodge"')
        return SetPolicy(unit, policy, defence)
    name = obj.get("action")
    if not isinstance(name, str):
        raise DecisionError('needs "action": an action name such as "walk" or "end_turn"')
    parser = PARSERS.get(name)
    if parser is None:
        if name in ALL_ACTION_NAMES:
            raise DecisionError(f"unknown action {shown(name)}: not built yet in this simulator")
        raise DecisionError(f"unknown action {shown(name)}")
    extra = set(obj) - COMMON - FIELDS[name]
    if extra:
        raise DecisionError(f"unknown field(s) for {name}: {', '.join(sorted(extra))}")
    flags = {}
    for flag in ("slow", "quicken"):
        value = obj.get(flag, False)
        if not isinstance(value, bool):
            raise DecisionError(f'"{flag}" must be true or false')
        flags[flag] = value
    return parser(unit, obj, flags["slow"], flags["quicken"])


def to_json(decision: Decision) -> dict[str, Any]:
    """The JSON object that `parse` turns back into `decision`."""
    if isinstance(decision, SetPolicy):
        return {"unit": decision.unit, "policy": decision.reactions, "defence": decision.defence}
    if isinstance(decision, ReactionChoice):
        answer: dict[str, Any] = {"unit": decision.unit, "reaction": decision.choice}
        return {**answer, "slow": True} if decision.slow else answer
    out: dict[str, Any] = {"unit": decision.actor, "action": decision.name}
    if isinstance(decision, a.AbilityAction):
        out[decision.category] = decision.ability  # "spell" or "ability" (R-X20)
        if decision.to is not None:
            out["to"] = [decision.to.x, decision.to.y]
    item = getattr(decision, "item", None)
    if item is not None:
        out["item"] = item
    for key in ("target", "weapon", "ally", "enemy"):
        value = getattr(decision, key, None)
        if value:
            out[key] = value
    if isinstance(decision, a.Toss) and decision.to is not None:
        out["to"] = [decision.to.x, decision.to.y]
    if isinstance(decision, a.Prepare):
        out["trigger"] = decision.trigger
        if decision.metres:
            out["metres"] = decision.metres
        if decision.cells:
            out["cells"] = [[c.x, c.y] for c in decision.cells]
        if decision.watch:
            out["watch"] = decision.watch
        if decision.then is not None:
            out["then"] = {k: v for k, v in to_json(decision.then).items() if k != "unit"}
    if isinstance(decision, a.Movement):
        if decision.path:
            out["path"] = [
                [c.x, c.y, "jump"] if i in decision.jumps else [c.x, c.y]
                for i, c in enumerate(decision.path)
            ]
        if decision.to is not None:
            out["to"] = [decision.to.x, decision.to.y]
    if isinstance(decision, a.Swim) and decision.submerged:
        out["submerged"] = True
    if decision.slow:
        out["slow"] = True
    if decision.quicken:
        out["quicken"] = True
    return out
