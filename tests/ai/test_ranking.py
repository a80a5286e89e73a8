"""Issue #30: `rank` scores each group of moves at once (`move_values`) and makes a move's
Choice only when it is read. Played out on the shipped scenarios at `normal` and `tactical`
(objectives to take and to guard, ledges, shooters), every score must be the one the scalar
evaluator gives the same decision, to the bit, and the ranking the one it gives."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest

from sim.ai import context as ai_context
from sim.ai.chooser import AI
from sim.ai.ranking import Ranking, rank, worthless
from sim.ai.sight import Sightings, known_world
from sim.ai.weights import level
from sim.content.scenario import load
from sim.core.components import Position
from sim.core.creature import creatures, team_of
from sim.formats.replay import begin
from sim.play.engine import AwaitingAction, AwaitingReaction, Battle
from sim.play.legal import listing
from sim.rules.objectives import Objective, Reach
from tests.ai.test_planes import _open
from tests.helpers import first_fast, led_by

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml"))


def _bits(value: float) -> bytes:
    return struct.pack("<d", value)  # -0.0 and 0.0 told apart


def _compare(
    battle: Battle,
    weights_of: str,
    objectives: tuple[Objective, ...] | None = None,
    slowed: bool = False,
) -> int:
    """Ranks the pending creature's turn both ways; the moves weighed at once."""
    pending = battle.pending
    assert isinstance(pending, AwaitingAction)
    world = known_world(battle.world, team_of(battle.world, pending.unit), Sightings(), 0)
    weights = level(weights_of).weights
    aims = battle.objectives if objectives is None else objectives
    found = listing(battle, slowed=slowed)
    fast = rank(world, pending.unit, found, objectives=aims, weights=weights)
    # `legal_decisions(battle, slowed=slowed)` is `tuple(listing(...))` of the same state: the
    # listing made once (a Listing is immutable; ranking it changes nothing), read whole.
    whole = tuple(found)
    slow = rank(world, pending.unit, whole, objectives=aims, weights=weights)
    assert isinstance(fast, Ranking)
    assert [_bits(s) for s in fast.scores] == [_bits(s) for s in slow.scores]
    assert [(c.decision, _bits(c.score), c.why) for c in fast] == [
        (c.decision, _bits(c.score), c.why) for c in slow
    ]
    return sum(len(group) for group in found.groups)


def _play(path: Path, name: str, decisions: int) -> int:
    """Plays `decisions` of a game at level `name`, comparing each turn's two rankings; the
    moves compared."""
    battle = begin(load(path), 3)
    ai = AI(name, 3)
    moves = 0
    for _ in range(decisions):
        if not isinstance(battle.pending, AwaitingAction):
            break
        moves += _compare(battle, name)
        battle.submit(ai.decide(battle))
    return moves


@pytest.mark.parametrize("name", ["normal", "classic"])
@pytest.mark.parametrize("path", first_fast(led_by(SCENARIOS, "chasm")), ids=lambda p: p.stem)
def test_every_move_scored_at_once_is_scored_as_one_by_one(path: Path, name: str) -> None:
    assert _play(path, name, 30) > 100


@pytest.mark.slow
def test_moves_beyond_the_planes_window_are_weighed_one_by_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A window of 2 cells around the creature: most of its moves end beyond it.
    monkeypatch.setattr(ai_context, "PLANE_RADIUS", 2)
    assert _play(SCENARIOS[0], "tactical", 20) > 100


@pytest.mark.slow
@pytest.mark.parametrize("name", ["normal", "classic"])
def test_scattered_creatures_some_hanging_with_objectives_of_several_cells(name: str) -> None:
    # Every creature set down anywhere, now and then up a face (a move leaves its first cell
    # from a height, R-M7); each side with an objective of three cells to take, the other's to
    # guard (R-M5); the slowed variants listed too (R-B6).
    rng = random.Random(11)
    moves = hung = 0
    for path in SCENARIOS:
        battle = begin(load(path), 5)
        world = battle.world
        units = creatures(world)
        teams = sorted({team_of(world, u) for u in units})
        for _ in range(3):
            for unit in units:
                up = rng.choice((0.0, 0.0, 0.0, 1.5, 3.0))
                world.set(unit, Position(_open(world, unit, rng), up))
            pending = battle.pending
            assert isinstance(pending, AwaitingAction)
            hung += world.need(pending.unit, Position).elevation > 0
            aims = tuple(
                Reach(team, tuple(_open(world, "", rng) for _ in range(3))) for team in teams
            )
            moves += _compare(battle, name, aims, slowed=True)
    assert moves > 1000 and hung > 0


@pytest.mark.parametrize("path", first_fast(led_by(SCENARIOS, "chasm")), ids=lambda p: p.stem)
def test_normal_never_ranks_a_worthless_type_first_so_it_need_not_list_them(path: Path) -> None:
    """Issue #30: a type `score` weighs at -1 whatever the state (no evaluator, or one
    `normal`'s weights leave out) is never a ranking's first, since ending the turn scores 0;
    so `normal`, which takes the first, lists without them and chooses the same."""
    weights = level("normal").weights
    assert weights is not None
    skipped = worthless(weights)
    listed = compared = 0
    # Seeds played in turn until more than ten turns' decisions were compared: a battle may
    # end early (chasm's runner reaching the far side).
    for seed in range(3, 9):
        if compared > 10:
            break
        battle = begin(load(path), seed)
        ai = AI("normal", seed)
        for _ in range(60):
            pending = battle.pending
            if isinstance(pending, AwaitingReaction):
                battle.submit(ai.decide(battle))
                continue
            if not isinstance(pending, AwaitingAction):
                break
            world = known_world(battle.world, team_of(battle.world, pending.unit), Sightings(), 0)
            found = listing(battle, slowed=False)
            first = rank(world, pending.unit, found, objectives=battle.objectives, weights=weights)[
                0
            ]
            assert type(first.decision) not in skipped
            chosen = ai.choose(battle)
            assert (chosen.decision, chosen.score, chosen.why) == (
                first.decision,
                first.score,
                first.why,
            )
            listed += sum(1 for legal in found.head if type(legal.decision) in skipped)
            compared += 1
            battle.submit(chosen.decision)
    assert listed > 0 and compared > 10
