"""Decisions written as JSON objects (scripts, saves) and turned into engine values."""

from __future__ import annotations

from collections.abc import Callable
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
)


class DecisionError(ValueError):
    """A decision that cannot be understood; the message says which field and why."""


def _item(fields: dict[str, Any]) -> str:
    item = fields.get("item")
    if not isinstance(item, str) or not item:
        raise DecisionError('needs "item": the id or kind of an item, e.g. "healing_potion"')
    return item


def _cell(value: Any, field: str) -> Pos:
    if (
        isinstance(value, list)
        and len(value) in (2, 3)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value[:2])
        and (len(value) == 2 or value[2] == "jump")
    ):
        return Pos(value[0], value[1])
    raise DecisionError(f'"{field}" cells are [x, y] (or [x, y, "jump"] in a path), not {value!r}')


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


_MOVES: dict[str, type[a.Action]] = {
    cls.name: cls for cls in (a.Step, a.Walk, a.Run, a.Sprint, a.Crawl, a.Swim, a.Jump, a.Climb)
}


def _target(fields: dict[str, Any]) -> str:
    target = fields.get("target")
    if not isinstance(target, str) or not target:
        raise DecisionError('needs "target": the id of a creature, e.g. "grok"')
    return target


def _attack(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
    weapon = fields.get("weapon")
    if weapon is not None and not isinstance(weapon, str):
        raise DecisionError('"weapon" must be the id or kind of a held weapon')
    return a.Attack(unit, _target(fields), weapon, slow=slow, quicken=quicken)


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


def _parsers() -> dict[str, Parser]:
    out: dict[str, Parser] = {name: _plain(cls) for name, cls in _PLAIN.items()}
    out.update({name: _with_item(cls) for name, cls in _WITH_ITEM.items()})
    out.update({name: _movement(cls) for name, cls in _MOVES.items()})
    out["attack"] = _attack
    return out


PARSERS = _parsers()
COMMON = {"unit", "action", "slow", "quicken"}
FIELDS: dict[str, set[str]] = (
    {name: set() for name in _PLAIN}
    | {n: {"item"} for n in _WITH_ITEM}
    | {n: {"path", "to"} for n in _MOVES}
    | {"attack": {"target", "weapon"}}
)


def parse(obj: Any) -> Decision:
    """A decision from its JSON object; raises DecisionError with a reason a player can read."""
    if not isinstance(obj, dict):
        raise DecisionError("a decision must be a JSON object")
    unit = obj.get("unit")
    if not isinstance(unit, str):
        raise DecisionError('needs "unit": the id of the creature that acts')
    if "reaction" in obj:
        extra = set(obj) - {"unit", "reaction"}
        if extra:
            raise DecisionError(
                f"unknown field(s) for a reaction answer: {', '.join(sorted(extra))}"
            )
        if not isinstance(obj["reaction"], str):
            raise DecisionError('"reaction" must be an option name such as "dodge" or "none"')
        return ReactionChoice(unit, obj["reaction"])
    if "policy" in obj:
        extra = set(obj) - {"unit", "policy", "defence"}
        if extra:
            raise DecisionError(f"unknown field(s) for a policy line: {', '.join(sorted(extra))}")
        return SetPolicy(unit, str(obj["policy"]), str(obj.get("defence", "best")))
    if "reaction" in obj:
        extra = set(obj) - {"unit", "reaction"}
        if extra:
            raise DecisionError(f"unknown field(s) for a reaction line: {', '.join(sorted(extra))}")
        choice = obj["reaction"]
        if not isinstance(choice, str) or not choice:
            raise DecisionError('"reaction" must name one of the offered options, or "none"')
        return ReactionChoice(unit, choice)
    name = obj.get("action")
    if not isinstance(name, str):
        raise DecisionError('needs "action": an action name such as "walk" or "end_turn"')
    parser = PARSERS.get(name)
    if parser is None:
        if name in ALL_ACTION_NAMES:
            raise DecisionError(f"unknown action {name!r}: not built yet in this simulator")
        raise DecisionError(f"unknown action {name!r}")
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
        return {"unit": decision.unit, "reaction": decision.choice}
    if isinstance(decision, ReactionChoice):
        return {"unit": decision.unit, "reaction": decision.choice}
    out: dict[str, Any] = {"unit": decision.actor, "action": decision.name}
    item = getattr(decision, "item", None)
    if item is not None:
        out["item"] = item
    for key in ("target", "weapon"):
        value = getattr(decision, key, None)
        if value:
            out[key] = value
    if isinstance(decision, a.Movement):
        if decision.path:
            out["path"] = [
                [c.x, c.y, "jump"] if i in decision.jumps else [c.x, c.y]
                for i, c in enumerate(decision.path)
            ]
        if decision.to is not None:
            out["to"] = [decision.to.x, decision.to.y]
    if decision.slow:
        out["slow"] = True
    if decision.quicken:
        out["quicken"] = True
    return out
