"""The AI's evaluators, one per kind of decision, by the name the action registry gives it."""

from __future__ import annotations

from collections.abc import Callable

from sim.ai.context import Context
from sim.ai.evaluators.assist import assist
from sim.ai.evaluators.attack import attack
from sim.ai.evaluators.care import administer, aid, consume
from sim.ai.evaluators.cast import cast
from sim.ai.evaluators.contests import break_free, disarm, grapple, shove, trip
from sim.ai.evaluators.defence import brace, evade, hide
from sim.ai.evaluators.missiles import throw, toss
from sim.ai.evaluators.move import disengage, move
from sim.ai.evaluators.prepare import prepare
from sim.ai.evaluators.setup import aim, feint
from sim.ai.evaluators.stance import draw, end_turn, guard, pick_up, stand_up
from sim.core.actions import Action
from sim.play.engine import Decision
from sim.play.legal import Legal
from sim.play.rulebook import RULEBOOK

Evaluator = Callable[[Context, Action, Legal], tuple[float, str]]


def evaluator_of(decision: Decision) -> Evaluator | None:
    """The evaluator of an action: the one its type's registry entry names."""
    if not isinstance(decision, Action):
        return None
    named = RULEBOOK[type(decision)].evaluator
    return EVALUATORS.get(named) if named is not None else None


EVALUATORS: dict[str, Evaluator] = {
    "attack": attack,
    "move": move,
    "disengage": disengage,
    "shove": shove,
    "trip": trip,
    "grapple": grapple,
    "aid": aid,
    "consume": consume,
    "ability": cast,
    "stand_up": stand_up,
    "draw": draw,
    "guard": guard,
    "assist": assist,
    "end_turn": end_turn,
    "aim": aim,
    "feint": feint,
    "disarm": disarm,
    "break_free": break_free,
    "brace": brace,
    "evade": evade,
    "hide": hide,
    "throw": throw,
    "toss": toss,
    "prepare": prepare,
    "administer": administer,
    "pick_up": pick_up,
}
"""The evaluator of each kind of decision, by the name an action's registry entry gives it
(`Mechanic.evaluator`, sim/play/rulebook.py): its value in hit points' worth and why."""

NEVER: dict[str, str] = {
    "fall_prone": "Prone gives up the Dodge and leaves only a Crawl (R-M10); no cover from "
    "missiles comes of it in these rules, so lying down only helps the foes",
    "stow": "a weapon stowed is a Draw away from use; the AI keeps its weapons in hand, and a "
    "hand freed for a Grapple or a Catch is not worth the weapon's blows",
    "drop": "what is dropped is lost until a ½ Action picks it up (R-X7): the AI drops nothing",
    "release": "the grapple is what its 1½ Action and each turn's 2 Bonus Actions were paid "
    "for; letting go for nothing throws that away",
    "don": "an Extended Action over several turns (R-B5): armour is put on before a battle, "
    "not in one",
    "doff": "an Extended Action over several turns (R-B5) that leaves it with less armour",
}
"""The kinds of decision the AI never takes, by action name, each with the reason: every kind
of the registry has an evaluator (its entry names one in EVALUATORS) or a row here
(tests/ai/test_evaluators.py checks it)."""
