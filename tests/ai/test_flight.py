"""The AI with movement modes (R-Z5): a flier's moves are searched with the flier's rules, so
it flies straight over a chasm no walker can cross to reach its enemy."""

from __future__ import annotations

from sim.ai.chooser import AI
from sim.core import actions as a
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.play.engine import Battle
from sim.play.legal import legal_decisions
from sim.rules.movement.movement import MovePlan, plan_move
from tests.ai.test_situations import turn_of, why_not
from tests.helpers import scenario_text, unit

CHASM = """
##########
#a.____.o#
##########
"""


def _battle(**orc: int) -> Battle:
    text = scenario_text(
        CHASM,
        unit("ana", "blue", "human_archer", "a", policy="ask", held=[])
        + "\n"
        + unit("grok", "red", "orc_brute", "o", policy="ask", **orc),
    )
    return turn_of(text, "grok")


def test_R_Z5_a_flying_brute_flies_over_the_chasm_to_its_enemy() -> None:
    b = _battle(fly=9)
    choice = AI("tactical").choose(b)
    move = choice.decision
    assert isinstance(move, a.Movement), why_not(b, choice)
    assert move.to == Pos(2, 1), why_not(b, choice)  # beside ana, on the far side
    plan = plan_move(b.world, move)
    assert isinstance(plan, MovePlan)
    assert [leg.end.x for leg in plan.legs if b.world.grid.kind(leg.end) is Kind.PIT] == [
        6,
        5,
        4,
        3,
    ]


def test_R_Z5_a_walking_brute_has_no_way_across() -> None:
    b = _battle()
    moves = [d.decision for d in legal_decisions(b, slowed=False)]
    ends = [m.to or m.path[-1] for m in moves if isinstance(m, a.Movement)]
    assert ends and all(end.x >= 7 for end in ends)
