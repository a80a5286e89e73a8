"""The AI's evaluators, one per kind of decision, by the name the action registry gives it."""

from __future__ import annotations

from collections.abc import Callable

from sim.ai.context import Context
from sim.ai.evaluators.assist import assist
from sim.ai.evaluators.attack import attack
from sim.ai.evaluators.care import aid, consume
from sim.ai.evaluators.cast import cast
from sim.ai.evaluators.contests import grapple, shove, trip
from sim.ai.evaluators.move import disengage, move
from sim.ai.evaluators.stance import draw, end_turn, guard, stand_up
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
}
"""The evaluator of each kind of decision, by the name an action's registry entry gives it
(`Mechanic.evaluator`, sim/play/rulebook.py): its value in hit points' worth and why."""
