"""Legal decisions (sim/legal.py, issue #12): random play on every shipped scenario that submits
mostly listed decisions, with every creature's reactions asked so that windows open too, and a
share of random (mostly illegal) decisions to keep checking refusals.

Every listed decision must be accepted at the cost listed (a refusal is a bug in
`legal_decisions`, and the failure names the decision and the refusal); a random decision the
battle accepts must be of a kind (and variant) that was listed; every kind of the rules (each
action of sim/decisions.py and each reaction) is accepted at least once across the shipped
scenarios, and the counts are printed."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from sim import actions as a
from sim.actions import Refusal
from sim.creature import creatures
from sim.decisions import parse
from sim.engine import (
    Accepted,
    AwaitingAction,
    AwaitingReaction,
    Battle,
    BattleOver,
    ReactionChoice,
    SetPolicy,
)
from sim.events import Spent
from sim.legal import Legal, legal_decisions
from sim.replay import begin
from sim.rules import Tier
from sim.scenario import load
from tests.legal_play import (
    RULE_KINDS,
    VARIANTS,
    Tally,
    draw,
    random_line,
    shape_of,
    shown,
)

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios").glob("*.toml"))
SEEDS = (1, 2, 3, 4, 5)
STEPS = 200
RANDOM_SHARE = 0.15  # of the steps, a random decision instead of a listed one


def submit_listed(battle: Battle, legal: Legal, where: str) -> Accepted:
    """Submit a listed decision; it must be accepted, and an action must spend what was listed."""
    decision = legal.decision
    outcome = battle.submit(decision)
    if isinstance(outcome, Refusal):
        pytest.fail(
            f"{where}: legal_decisions listed {shown(decision)}, "
            f"but submit refused it: {outcome.reason}"
        )
    cost = legal.cost
    if isinstance(decision, a.Action) and cost is not None and not isinstance(decision, a.EndTurn):
        spent = next(
            e
            for e in outcome.events
            if isinstance(e, Spent) and e.unit == decision.actor and e.action == decision.name
        )
        assert (spent.half, spent.bonus) == (cost.half, cost.bonus), (
            f"{where}: {shown(decision)} was listed at {cost.half} half-actions and "
            f"{cost.bonus} Bonus Actions but spent {spent.half} and {spent.bonus}"
        )
    return outcome


def try_random(battle: Battle, rng: random.Random, tally: Tally, where: str) -> None:
    """A random decision: refused, it changes nothing; accepted, its kind and variant must have
    been listed (an answer to a window exactly: the options are few). A Slow or Quicken variant
    that costs what the plain action costs is listed as the plain one (sim/legal.py)."""
    listed = legal_decisions(battle)
    pending = battle.pending
    line = random_line(battle, rng)
    decision = parse(line)
    expected = shape_of(pending, decision)
    if isinstance(decision, a.Action) and (decision.slow or decision.quicken):
        plain = replace(decision, slow=False, quicken=False)
        cost = battle.check(decision)
        if cost == battle.check(plain) and getattr(cost, "tier", None) is not Tier.EXTENDED:
            expected = shape_of(pending, plain)
    before = battle.world.copy()
    logged = len(battle.log)
    tally.tried += 1
    outcome = battle.submit(decision)
    if isinstance(outcome, Refusal):
        assert outcome.reason
        assert battle.world == before, f"{where}: refused {line} but the world changed"
        assert len(battle.log) == logged
        tally.refused += 1
        return
    tally.took(pending, decision)
    if isinstance(decision, ReactionChoice):
        assert any(legal.decision == decision for legal in listed), (
            f"{where}: {line} was accepted but legal_decisions did not list it"
        )
    elif isinstance(pending, AwaitingAction) and getattr(decision, "actor", "") == pending.unit:
        shapes = {shape_of(pending, legal.decision) for legal in listed}
        assert expected in shapes, (
            f"{where}: {line} was accepted but legal_decisions listed no {expected}"
        )


@cache
def played(path: Path) -> Tally:
    """Random play of `path` from each seed; what it took."""
    scenario = load(path)
    tally = Tally()
    for seed in SEEDS:
        battle = begin(scenario, seed)
        for unit in creatures(battle.world):
            assert isinstance(battle.submit(SetPolicy(unit, "ask")), Accepted)
        rng = random.Random(f"{path.stem}:{seed}")
        for step in range(STEPS):
            pending = battle.pending
            if isinstance(pending, BattleOver):
                break
            where = f"{path.name}, seed {seed}, step {step}"
            if rng.random() < RANDOM_SHARE:
                try_random(battle, rng, tally, where)
                continue
            # Slowed reactions are rare (own turn only, R-B7): a window always lists them.
            slowed = isinstance(pending, AwaitingReaction) or rng.random() < 0.5
            listed = legal_decisions(battle, slowed=slowed)
            assert listed, f"{where}: nothing legal while waiting for {pending}"
            legal = draw(battle, listed, rng, tally)
            submit_listed(battle, legal, where)
            tally.took(pending, legal.decision)
            if isinstance(pending, AwaitingReaction):
                assert isinstance(legal.decision, ReactionChoice)
    return tally


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_listed_decision_is_accepted(path: Path) -> None:
    tally = played(path)
    assert sum(tally.kinds.values()) > 0
    assert tally.refused > 0, "no random decision was refused: the refusals went unchecked"


def test_every_kind_of_the_rules_is_accepted_on_the_shipped_scenarios(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Across the shipped scenarios random play accepts every action of the rules and every
    reaction at least once, and each variant (Slow, Quicken, a dive) of some action; the counts
    are printed."""
    total = Tally()
    for path in SCENARIOS:
        total.add(played(path))
    with capsys.disabled():
        print(f"\nrandom play on {len(SCENARIOS)} shipped scenarios:\n{total.report()}")
    unknown = sorted(set(total.kinds) - set(RULE_KINDS))
    assert not unknown, f"kinds of decision the rules do not name: {unknown}"
    missing = [kind for kind in RULE_KINDS if total.kinds[kind] == 0]
    assert not missing, f"random play never had accepted: {', '.join(missing)}"
    for variant in VARIANTS:
        assert total.variants[variant] > 0, f"random play never had accepted a {variant} action"
    slowed_answers = sum(
        n for k, n in total.variants.items() if k.startswith("reaction:") and "slowed" in k
    )
    assert slowed_answers > 0, "random play never had accepted a slowed reaction (R-B7)"


def test_a_listed_decision_that_submit_refuses_fails_the_test_naming_both() -> None:
    """A refusal of a listed decision is a bug in legal_decisions: the check fails and says
    which decision and why it was refused."""
    battle = begin(load(SCENARIOS[0]), 1)
    pending = battle.pending
    assert isinstance(pending, AwaitingAction)
    bogus = Legal(a.Attack(pending.unit, target="nobody"), None)
    with pytest.raises(pytest.fail.Exception) as failure:
        submit_listed(battle, bogus, "here")
    message = str(failure.value)
    assert f"legal_decisions listed {{'unit': '{pending.unit}', 'action': 'attack'" in message
    assert "'target': 'nobody'" in message
    assert "but submit refused it: there is no creature 'nobody' to attack" in message
