"""Issue #29: `hard`'s forks ask their guide once per state (`Recall`): a fork that goes where
another went before it is played the same, with the guide asked only where none went."""

from __future__ import annotations

from pathlib import Path

from sim.ai.chooser import AI
from sim.ai.lookahead import Recall, play_out
from sim.ai.ranking import rank
from sim.content.scenario import load
from sim.core.creature import team_of
from sim.formats.replay import begin
from sim.play.engine import AwaitingAction, Battle, Decision
from sim.play.legal import listing

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


class Counted:
    """`normal`, counting the decisions it is asked for."""

    def __init__(self) -> None:
        self.ai = AI("normal", 0)
        self.asked = 0

    def decide(self, battle: Battle) -> Decision:
        self.asked += 1
        return self.ai.decide(battle)


def _start() -> tuple[Battle, str]:
    battle = begin(load(str(SCENARIOS / "brawl.toml")), 3)
    pending = battle.pending
    assert isinstance(pending, AwaitingAction)
    return battle, pending.unit


def test_a_fork_that_goes_where_another_went_asks_the_guide_nothing() -> None:
    """The same candidate on the same seed twice: the second fork is the first decision for
    decision, event for event, and its guide is not asked once."""
    battle, unit = _start()
    team = team_of(battle.world, unit)
    best = rank(battle.world, unit, listing(battle, slowed=False))[0]
    counted = Counted()
    recall = Recall(counted)
    first, _ = play_out(battle, unit, best, 11, recall, team, 80)
    asked = counted.asked
    second, _ = play_out(battle, unit, best, 11, recall, team, 80)
    assert asked > 0 and counted.asked == asked
    assert second.log == first.log and second.decisions == first.decisions


def test_forks_on_other_seeds_are_played_as_without_recall() -> None:
    """On other seeds each fork is the one the guide alone plays, decision for decision; the
    guide is asked less than once per decision (the forks share their way to the first roll
    that differs), and `worked` counts the actions it worked out, not the reactions."""
    battle, unit = _start()
    team = team_of(battle.world, unit)
    best = rank(battle.world, unit, listing(battle, slowed=False))[0]
    counted = Counted()
    recall = Recall(counted)
    played = 0
    for seed in (1, 2, 3, 4):
        alone, _ = play_out(battle, unit, best, seed, AI("normal", 0), team, 80)
        fork, _ = play_out(battle, unit, best, seed, recall, team, 80)
        assert fork.decisions == alone.decisions and fork.log == alone.log
        played += len(fork.decisions) - len(battle.decisions) - 1  # the candidate is no guide's
    assert counted.asked < played
    assert 0 < recall.worked <= counted.asked
