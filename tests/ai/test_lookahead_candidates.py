"""Issue #29: `hard`'s candidates are picked from the kinds and scores of `normal`'s ranking
(`outline`), and only the Choices kept are made. Played out on the shipped scenarios, the pick
must be the one the rule gives read off every Choice of the ranking, as it once was."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from sim.ai import lookahead
from sim.ai import ranking as ai_ranking
from sim.ai.choice import Choice
from sim.ai.chooser import AI
from sim.ai.evaluators import evaluator_of
from sim.ai.lookahead import candidates, outline
from sim.ai.ranking import rank
from sim.ai.sight import Sightings, known_world
from sim.ai.weights import Search, level
from sim.content.scenario import load
from sim.core import actions as a
from sim.core.creature import team_of
from sim.core.dice import SeededDice
from sim.core.geometry import Pos
from sim.formats.replay import begin
from sim.play.engine import AwaitingAction, Battle, BattleOver, Decision
from sim.play.legal import listing
from sim.rules.objectives import Reach

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml"))


def _every_choice_rule(
    ranked: Sequence[Choice], search: Search, goals: Collection[Pos]
) -> list[Choice]:
    """The rule of `candidates` read off every Choice of the ranking (how it was first made)."""
    weighed = [c for c in ranked if evaluator_of(c.decision) is not None] or list(ranked[:1])
    top = weighed[: search.candidates]
    kinds = {type(c.decision) for c in top}
    for choice in weighed[search.candidates :]:
        if len(top) >= search.candidates + search.extra:
            break
        kind = type(choice.decision)
        if kind not in kinds and choice.score >= ranked[0].score - search.margin:
            kinds.add(kind)
            top.append(choice)
    onto = next(
        (c for c in ranked if isinstance(c.decision, a.Movement) and c.decision.to in goals),
        None,
    )
    if onto is not None and onto not in top:
        top.append(onto)
    hold = next((c for c in ranked if isinstance(c.decision, a.EndTurn)), None)
    striking = any(isinstance(c.decision, a.Attack) and c.score > 0 for c in ranked)
    if hold is not None and hold not in top and not striking:
        top.append(hold)
    return top


def _compare(battle: Battle, searches: Sequence[Search]) -> int:
    """`candidates` against the rule read off every Choice, for each of `searches`, with the
    scenario's objective cells and with every cell a move of the turn may end on as goals."""
    pending = battle.pending
    assert isinstance(pending, AwaitingAction)
    world = known_world(
        battle.world, team_of(battle.world, pending.unit), Sightings(), battle.start
    )
    listed = listing(battle, slowed=False)
    weights = level("hard").weights
    kept = 0
    for search in searches:
        aims = {cell for o in battle.objectives if isinstance(o, Reach) for cell in o.cells}
        ends = {
            Pos(x, y) for group in listed.groups for x, y in zip(group.xs, group.ys, strict=True)
        }
        for goals in (aims, set(list(ends)[::7])):
            ranked = rank(
                world, pending.unit, listed, objectives=battle.objectives, weights=weights
            )
            picked = candidates(ranked, outline(listed, ranked), search, goals)
            assert picked == _every_choice_rule(list(ranked), search, goals)
            kept += len(picked)
    return kept


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_candidates_from_the_outline_are_those_of_every_choice(path: Path) -> None:
    hard = level("hard").search
    assert hard is not None
    # hard's own search and a broad one, so every clause of the rule picks something.
    broad = replace(hard, candidates=1, extra=6, margin=50.0)
    battle = begin(load(path), 5)
    guide = AI("normal", 5)
    kept = 0
    for _ in range(6):
        if isinstance(battle.pending, BattleOver):
            break  # a short battle (chasm's runner reaching the far side)
        if not isinstance(battle.pending, AwaitingAction):
            battle.submit(guide.decide(battle))
            continue
        kept += _compare(battle, (hard, broad))
        battle.submit(guide.decide(battle))
    assert kept > 0


def test_candidates_make_only_the_choices_they_keep(monkeypatch: pytest.MonkeyPatch) -> None:
    battle = begin(load(SCENARIOS[0]), 1)
    pending = battle.pending
    assert isinstance(pending, AwaitingAction)
    listed = listing(battle, slowed=False)
    moves = sum(len(group) for group in listed.groups)
    assert moves > 50  # a turn of many moves, of which few are kept
    ranked = rank(battle.world, pending.unit, listed, objectives=battle.objectives)
    made: list[object] = []
    scalar = ai_ranking.score

    def counted(context: object, legal: object) -> Choice:
        made.append(legal)
        return scalar(context, legal)  # type: ignore[arg-type]

    monkeypatch.setattr(ai_ranking, "score", counted)
    search = level("hard").search
    assert search is not None
    picked = candidates(ranked, outline(listed, ranked), search)
    assert 0 < len(made) <= len(picked)


@pytest.mark.parametrize(("budget", "seeds"), [(1, 1), (10_000, 6)])
def test_a_look_ahead_starts_no_seed_its_budget_cannot_pay(
    monkeypatch: pytest.MonkeyPatch, budget: int, seeds: int
) -> None:
    """search.budget: the decisions a turn's forks may play. Each seed plays every candidate
    still in; once another seed would likely overspend the budget, none is started."""
    battle = begin(load(SCENARIOS[0]), 1)
    pending = battle.pending
    assert isinstance(pending, AwaitingAction)
    listed = listing(battle, slowed=False)
    ranked = rank(battle.world, pending.unit, listed, objectives=battle.objectives)
    hard = level("hard").search
    assert hard is not None
    search = replace(hard, seeds=6, budget=budget)
    played: list[tuple[int, Decision]] = []
    real = lookahead.played_out

    def noted(start: Battle, unit: str, choice: Choice, seed: int, *rest: Any) -> tuple[float, int]:
        played.append((seed, choice.decision))
        return real(start, unit, choice, seed, *rest)

    monkeypatch.setattr(lookahead, "played_out", noted)
    lookahead.look_ahead(
        battle, pending.unit, listed, ranked, SeededDice(7), AI("normal", 7), search
    )
    assert len({seed for seed, _ in played}) == seeds
    # normal's best is played on every seed that is started, as the measure to beat.
    assert sum(decision == ranked[0].decision for _, decision in played) == seeds


@pytest.mark.parametrize(
    ("left", "kept"),
    [
        (100, [0, 1, 2, 3]),  # all fit: 10 + 30 + 20 + 5 a seed
        (50, [0, 2, 3]),  # normal's best, then the best placed that fit: 2 (20), 3 (5)
        (35, [0, 2, 3]),  # 10 + 20 + 5
        (30, [0, 2]),  # 3 is placed after 2: 10 + 20, and 3's 5 no longer fits
        (9, [0]),  # normal's best alone (it does not fit either): the look-ahead stops
    ],
)
def test_a_look_ahead_over_budget_plays_on_its_best_placed_candidates(
    left: int, kept: list[int]
) -> None:
    """search.budget, between two seeds: each candidate still in is expected to cost on the
    next seed what its forks cost a seed so far; when they do not all fit in what is left,
    normal's best (the measure) and the best placed others that fit with it play on."""
    totals = [0.0, 9.0, 12.0, 3.0]
    cost = [20, 60, 40, 10]  # two seeds played
    assert lookahead.affordable([0, 1, 2, 3], totals, cost, 2, left) == kept
