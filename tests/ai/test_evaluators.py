"""Issue #29: every kind of decision of the action registry has an evaluator, or a row of the
one table of kinds the AI never takes, with the reason; a new kind with neither fails here."""

from __future__ import annotations

from sim.ai.evaluators import EVALUATORS, NEVER
from sim.ai.weights import book
from sim.play.rulebook import RULEBOOK


def test_every_action_kind_has_an_evaluator_or_a_reason_it_is_never_chosen() -> None:
    missing = [
        kind.name
        for kind, mechanic in RULEBOOK.items()
        if mechanic.evaluator not in EVALUATORS and kind.name not in NEVER
    ]
    assert missing == [], f"give these an evaluator or a row in NEVER with the reason: {missing}"
    both = [k.name for k, m in RULEBOOK.items() if m.evaluator is not None and k.name in NEVER]
    assert both == [], f"weighed and never chosen at once: {both}"
    assert set(NEVER) <= {kind.name for kind in RULEBOOK}, "NEVER names an action there is not"
    assert all(len(reason.split()) >= 8 for reason in NEVER.values())  # a reason, in words


def test_a_weight_set_switches_off_only_evaluators_there_are() -> None:
    for name, weights in book().weights.items():
        assert weights.off <= set(EVALUATORS), name
