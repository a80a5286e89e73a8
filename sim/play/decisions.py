"""Decisions written as JSON objects (scripts, saves) and turned into engine values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.core import actions as a
from sim.core import codec
from sim.core.codec import COMMON, MAX_COORDINATE, MAX_METRES, DecisionError, shown
from sim.play.engine import Decision, ReactionChoice, SetPolicy
from sim.play.rulebook import ACTIONS

__all__ = [
    "ALL_ACTION_NAMES",
    "COMMON",
    "FIELDS",
    "MAX_COORDINATE",
    "MAX_METRES",
    "PARSERS",
    "DecisionError",
    "parse",
    "shown",
    "to_json",
]

# Every action name of the rules (snake_case), in the registry's order (sim/play/rulebook.py).
ALL_ACTION_NAMES: tuple[str, ...] = tuple(ACTIONS)
# The fields each action takes besides COMMON, read off its type (sim/core/codec.py).
FIELDS: dict[str, set[str]] = {name: codec.keys(kind) for name, kind in ACTIONS.items()}

Parser = Callable[[str, dict[str, Any], bool, bool], a.Action]


def _then(unit: str, obj: dict[str, Any]) -> a.Action:
    """Prepare's "then": an action, read as a script line of the preparer's."""
    inner = parse({**obj, "unit": unit})
    if not isinstance(inner, a.Action):
        raise DecisionError('"then" must be an action, not a policy or a reaction')
    return inner


def _parser(kind: type[a.Action]) -> Parser:
    def make(unit: str, fields: dict[str, Any], slow: bool, quicken: bool) -> a.Action:
        return codec.decode(kind, unit, fields, slow, quicken, _then)

    return make


# An action from its fields, by its name: `PARSERS["walk"](unit, {"to": [3, 4]}, False, False)`.
PARSERS: dict[str, Parser] = {name: _parser(kind) for name, kind in ACTIONS.items()}


# The reactions (R-R), by the name a player might write as an action, and the option that
# answers each one's window: an Attack of Opportunity's is "attack" (R-R4).
REACTIONS: dict[str, str] = {
    "dodge": "dodge",
    "parry": "parry",
    "block": "block",
    "catch": "catch",
    "interrupt": "interrupt",
    "attack_of_opportunity": "attack",
}


def _reaction_hint(unit: str, name: str) -> str:
    """For a reaction written as an action: that it is answered in a window, and how (R-R8).

    >>> import textwrap
    >>> print(textwrap.fill(_reaction_hint("ana", "catch"), 80))
    : a reaction, answered when the engine opens a window for the creature (an
    attack on it, a throw at it, a foe leaving its reach or acting beside it):
    {"unit": "ana", "reaction": "catch"}, or in the client the reaction prompt
    (R-R8)
    >>> _reaction_hint("ana", "fly")
    ''
    """
    option = REACTIONS.get(name.strip().lower().replace(" ", "_"))
    if option is None:
        return ""
    answer = shown({"unit": unit, "reaction": option})
    return (
        ": a reaction, answered when the engine opens a window for the creature (an attack on "
        f"it, a throw at it, a foe leaving its reach or acting beside it): {answer}, or in the "
        "client the reaction prompt (R-R8)"
    )


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
        raise DecisionError(f"unknown action {shown(name)}{_reaction_hint(unit, name)}")
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
    return codec.encode(decision)
