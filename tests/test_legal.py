"""Legal decisions (sim/legal.py): random play that only ever submits listed decisions, on every
shipped scenario, with every creature's reactions asked so that windows open too. Every listed
decision must be accepted; the test prints how many of each kind it took, and requires that
attacks, reactions and the other kinds of the rules were really exercised."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from sim.actions import Refusal
from sim.components import Position
from sim.creature import creatures, team_of
from sim.engine import (
    Accepted,
    AwaitingAction,
    AwaitingReaction,
    Battle,
    BattleOver,
    ReactionChoice,
    SetPolicy,
)
from sim.geometry import Pos
from sim.legal import Legal, legal_decisions
from sim.replay import begin
from sim.scenario import load

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios").glob("*.toml"))
STEPS = 80
TAKEN: Counter[str] = Counter()


def _closing_in(battle: Battle, unit: str, pool: list[Legal]) -> list[Legal]:
    """The moves of `pool` that end nearest an enemy (all of `pool` when it holds no move):
    uniform moves would seldom bring anyone to blows."""
    world = battle.world
    team = team_of(world, unit)
    foes = [world.need(c, Position).cell for c in creatures(world) if team_of(world, c) != team]
    ends = [(legal, getattr(legal.decision, "to", None)) for legal in pool]
    if not foes or any(to is None for _, to in ends):
        return pool

    def gap(to: Pos) -> int:
        return min(max(abs(to.x - f.x), abs(to.y - f.y)) for f in foes)

    best = min(gap(to) for _, to in ends if to is not None)
    return [legal for legal, to in ends if to is not None and gap(to) == best]


def _kind(decision: object) -> str:
    if isinstance(decision, ReactionChoice):
        return f"reaction:{decision.choice.split(',')[0]}"
    return str(getattr(decision, "name", type(decision).__name__))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_listed_decision_is_accepted(path: Path) -> None:
    scenario = load(path)
    for seed in (1, 2):
        battle = begin(scenario, seed)
        for unit in creatures(battle.world):
            assert isinstance(battle.submit(SetPolicy(unit, "ask")), Accepted)
        rng = random.Random(seed)
        for _ in range(STEPS):
            pending = battle.pending
            if isinstance(pending, BattleOver):
                break
            listed = legal_decisions(battle, slowed=rng.random() < 0.2)
            assert listed, f"nothing legal while waiting for {pending}"
            kinds = sorted({_kind(legal.decision) for legal in listed})
            if isinstance(pending, AwaitingAction) and len(kinds) > 1 and rng.random() < 0.7:
                kinds.remove("end_turn")  # let turns run long enough to do things
            kind = rng.choice(kinds)  # a kind first: moves would crowd out everything else
            pool = [legal for legal in listed if _kind(legal.decision) == kind]
            if isinstance(pending, AwaitingAction) and rng.random() < 0.6:
                pool = _closing_in(battle, pending.unit, pool)
            choice = rng.choice(pool)
            result = battle.submit(choice.decision)
            assert not isinstance(result, Refusal), (choice.decision, result.reason)
            TAKEN[kind] += 1
            if isinstance(pending, AwaitingReaction):
                assert isinstance(choice.decision, ReactionChoice)


def test_what_random_legal_play_exercised(capsys: pytest.CaptureFixture[str]) -> None:
    """Runs after the scenarios above (pytest keeps file order): the report, and a floor."""
    if not TAKEN:
        pytest.skip("run with the scenario tests above")
    with capsys.disabled():
        print("\naccepted legal decisions by kind:", dict(sorted(TAKEN.items())))
    for kind in ("attack", "step", "walk", "run", "sprint", "shove", "grapple", "prepare"):
        assert TAKEN[kind] > 0, f"random legal play never took {kind}"
    assert any(k.startswith("reaction:") and k != "reaction:none" for k in TAKEN)
