"""Issue #30: the legal listing, however it is sped up, lists exactly what a slow reference path
lists, in the same order: every candidate of the registry made with no sieve (`Unsifted`), each
variant put to `Battle.check` whole, and the moves read off a reach map of each Movement
Action's own. Compared at every decision of random play (tests/legal_play.py's steering)
through every shipped scenario and a generated 40x40 4v4 map (the AI batch's), with and without
the Slow variants, for `listing`, `kinds` and `listing(without=...)`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from sim.content.scenario import load, loads
from sim.core import actions as a
from sim.core.actions import Action, Cost, Refusal
from sim.core.condition import Condition
from sim.core.creature import has
from sim.core.numbers import Tier
from sim.formats.replay import begin
from sim.play.engine import AwaitingAction, AwaitingReaction, Battle
from sim.play.legal import Legal, _answers, _plain_candidates, kinds, listing
from sim.play.rulebook import RULEBOOK
from sim.rules.candidates import Over, Scene, Unless, Unsifted
from tests.helpers import bench_module, first_fast, led_by
from tests.legal_play import Tally, draw, moves_off_reach_maps

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
Shift = tuple[bool, bool]
PLAIN: Shift = (False, False)


def reference(battle: Battle, slowed: bool, without: frozenset[type[Action]]) -> list[Legal]:
    """`listing(battle, slowed=, without=)` the slow way."""
    pending = battle.pending
    if isinstance(pending, AwaitingReaction):
        return list(_answers(battle, pending, slowed))
    if not isinstance(pending, AwaitingAction):
        return []
    world, unit = battle.world, pending.unit
    if isinstance(battle.check(a.EndTurn(unit)), Refusal):
        return []
    shifts = [PLAIN]
    if slowed:
        shifts.append((True, False))
    if has(world, unit, Condition.QUICKENED):
        shifts.append((False, True))
    out: list[Legal] = []
    seen: set[Action] = set()
    for candidate in _every_candidate(battle, unit):
        action = candidate.action if isinstance(candidate, Unless) else candidate
        if type(action) in without or action in seen:
            continue
        seen.add(action)
        accepted = _accepted(battle, action, shifts)
        if accepted and isinstance(candidate, Unless) and candidate.same():
            continue
        out += accepted
    return out + _moves(battle, unit, shifts, without)


def _every_candidate(battle: Battle, unit: str) -> Iterator[Action | Unless]:
    """Every action type's candidates, in the listing's order, none left out by the sieve."""
    return _plain_candidates(Unsifted(battle.world, unit))


def _accepted(battle: Battle, action: Action, shifts: list[Shift]) -> list[Legal]:
    """Each variant of `action` that `Battle.check` accepts whole, where it costs something
    else than the plain action (or, Extended, takes another number of turns)."""
    out: list[Legal] = []
    plain: Cost | Refusal | None = None
    for shift in shifts if not isinstance(action, a.EndTurn) else [PLAIN]:
        variant = action if shift == PLAIN else replace(action, slow=shift[0], quicken=shift[1])
        price = battle.priced(variant)
        if shift == PLAIN:
            plain = price
        elif price == plain and not (isinstance(price, Cost) and price.tier is Tier.EXTENDED):
            continue
        cost = battle.check(variant)
        if isinstance(cost, Cost):
            assert cost == price
            out.append(Legal(variant, cost))
    return out


def _moves(
    battle: Battle, unit: str, shifts: list[Shift], without: frozenset[type[Action]]
) -> list[Legal]:
    """The moves but Climb: a reach map of each Movement Action's own (and dive), its first cell
    put to `Battle.check` by `to`, then every cell of it in row order for each variant paid."""

    def paid(kind: type[a.Movement]) -> list[tuple[Shift, Cost]]:
        return [
            (shift, cost)
            for shift, cost in _variants(battle, kind(unit), shifts)
            if isinstance(cost, Cost)
        ]

    return moves_off_reach_maps(battle, unit, paid, (False, True) in shifts, without)


def _variants(
    battle: Battle, action: Action, shifts: list[Shift]
) -> list[tuple[Shift, Cost | Refusal]]:
    out: list[tuple[Shift, Cost | Refusal]] = []
    plain: Cost | Refusal | None = None
    for shift in shifts:
        price = battle.priced(replace(action, slow=shift[0], quicken=shift[1]))
        if shift == PLAIN:
            plain = price
        elif price == plain and not (isinstance(price, Cost) and price.tier is Tier.EXTENDED):
            continue
        out.append((shift, price))
    return out


def _firsts(whole: list[Legal]) -> list[Legal]:
    """What `kinds` lists of the full list: the first decision of each action type (of each
    spell or ability) with its variants, and the first move of each Movement Action and
    variant."""
    out: list[Legal] = []
    firsts: dict[tuple[object, ...], Action] = {}
    for legal in whole:
        d = legal.decision
        assert isinstance(d, Action)
        if d.movement and not isinstance(d, a.Climb):
            key: tuple[object, ...] = (
                type(d), d.slow, d.quicken, getattr(d, "submerged", False), legal.cost,
            )  # fmt: skip
        else:
            key = (type(d), getattr(d, "ability", ""))
        plain = replace(d, slow=False, quicken=False)
        if firsts.setdefault(key, plain) == plain:
            out.append(legal)
    return out


def far_makes_none(battle: Battle) -> int:
    """The generators the registry says make none at a creature out of reach (`near`) make
    none at each creature out of the unit's reach; how many were asked."""
    pending = battle.pending
    if not isinstance(pending, AwaitingAction):
        return 0
    scene = Scene(battle.world, pending.unit)
    asked = 0
    for other in scene.others():
        if scene.near(other):
            continue
        for mechanic in RULEBOOK.values():
            for found in mechanic.candidates:
                if not found.near:
                    continue
                assert found.make is not None and found.over in NEAR_OVER
                subjects = (
                    [(other, item) for item in scene.held]
                    if found.over in (Over.WEAPON, Over.MISSILE)
                    else [other]
                )
                for subject in subjects:
                    assert not list(found.make(scene, subject)), (found, subject)
                    asked += 1
    return asked


NEAR_OVER = (Over.CREATURE, Over.WEAPON, Over.CLOSE, Over.MISSILE)
WITHOUT = frozenset({a.Aim, a.Throw, a.Toss, a.Stow, a.Drop, a.Prepare, a.Climb, a.Walk})


def unslowed(whole: list[Legal]) -> list[Legal]:
    """`reference(battle, False, frozenset())` read off `reference(battle, True, frozenset())`:
    the same walk with the Slow variants left out. Each other variant is kept or not on its
    own price against the plain one's and its own check, never on the Slow one's (a kind whose
    only paid variant is Slow lists no moves either way; a reaction window lists its plain
    options, then the slowed ones), so this is exactly the reference made again unslowed; and
    that with the types of `without` left out, the reference made again without them. Made
    three times at each state, the reference was most of this file's time."""
    return [legal for legal in whole if not getattr(legal.decision, "slow", False)]


def compare(battle: Battle) -> tuple[int, tuple[Legal, ...]]:
    """Asserts the listings equal the reference's at this decision; how many listed decisions
    were compared, and the listing (slowed, as `listing(battle)` gives it) to draw from."""
    slowed = reference(battle, True, frozenset())
    listed = tuple(listing(battle, slowed=True))
    assert list(listed) == slowed
    plain = unslowed(slowed)
    assert list(listing(battle, slowed=False)) == plain
    if isinstance(battle.pending, AwaitingAction):
        assert list(kinds(battle, slowed=True)) == _firsts(slowed)
        assert list(kinds(battle, slowed=False)) == _firsts(plain)
    rest = [legal for legal in plain if type(legal.decision) not in WITHOUT]
    assert list(listing(battle, slowed=False, without=WITHOUT)) == rest
    return len(slowed) + len(plain) + len(rest), listed


def play(battle: Battle, seed: str, decisions: int) -> tuple[int, int]:
    """Random play from `battle`, every decision compared: (states, listed decisions compared);
    the generators over creatures out of reach asked too."""
    rng = random.Random(seed)
    taken = Tally()
    states = compared = far = 0
    for _ in range(decisions):
        count, listed = compare(battle)  # `listed`: listing(battle), as compared
        compared += count
        far += far_makes_none(battle)
        states += 1
        if not listed:
            break
        chosen = draw(battle, listed, rng, taken)
        taken.took(battle.pending, chosen.decision)
        assert not isinstance(battle.submit(chosen.decision), Refusal)
    assert far > 0, "some creature is out of reach"
    return states, compared


@pytest.mark.parametrize("path", first_fast(led_by(SCENARIOS, "spells")), ids=lambda p: p.stem)
def test_the_listing_is_the_reference_in_random_play(path: Path) -> None:
    states, compared = play(begin(load(path), 5), path.stem, 60)
    assert states > 20 and compared > 1000


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_the_listing_is_the_reference_on_generated_maps(seed: int) -> None:
    engine = bench_module("engine")
    battle = begin(loads(engine.generated_map(seed), f"g{seed}.toml"), seed)
    states, compared = play(battle, f"generated {seed}", 80)
    assert states > 20 and compared > 1000
