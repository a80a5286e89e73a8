"""Issue #13: `listing` is `legal_decisions` as a sequence that makes each move only when it is
asked for. Its length, every index (negative too), its slices and its iteration give exactly
the tuple `legal_decisions` gives, on every shipped scenario's first turn, with and without the
Slow variants; an index out of range is an IndexError."""

from __future__ import annotations

import copy
import functools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from sim.content.scenario import load
from sim.core import actions as a
from sim.core.actions import Action, Refusal
from sim.core.condition import Condition
from sim.core.creature import has
from sim.formats.replay import begin
from sim.play import legal as legal_module
from sim.play.engine import AwaitingAction, Battle
from sim.play.legal import PLAIN, Legal, _Prices, kinds, legal_decisions, listing
from sim.play.rulebook import RULEBOOK
from sim.rules.candidates import Unless, Unsifted
from tests.helpers import first_fast
from tests.legal_play import Tally, draw, moves_off_reach_maps

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", first_fast(SCENARIOS), ids=lambda p: p.stem)
def test_listing_is_legal_decisions_made_when_asked(path: Path) -> None:
    battle = begin(load(path), 3)
    for slowed in (False, True):
        whole = legal_decisions(battle, slowed=slowed)
        lazy = listing(battle, slowed=slowed)
        moves = sum(1 for legal in whole if _moving(legal))
        assert moves > 0, "a first turn has somewhere to go"
        assert len(lazy) == len(whole)
        assert tuple(lazy) == whole
        assert [lazy[i] for i in range(len(lazy))] == list(whole)
        assert lazy[-1] == whole[-1] and lazy[-len(whole)] == whole[0]
        assert lazy[2:9] == whole[2:9]
        for wrong in (len(whole), -len(whole) - 1):
            with pytest.raises(IndexError):
                lazy[wrong]


def _moving(legal: Legal) -> bool:
    return isinstance(legal.decision, Action) and legal.decision.movement


def _kind(legal: Legal) -> tuple[object, ...]:
    d = legal.decision
    assert isinstance(d, Action)
    return (type(d), d.slow, d.quicken, getattr(d, "submerged", False), legal.cost)


@pytest.mark.parametrize("path", first_fast(SCENARIOS), ids=lambda p: p.stem)
def test_kinds_keep_every_non_move_and_one_move_per_action_and_variant(path: Path) -> None:
    """What the action bar reads: every decision but moves, and one move of each Movement
    Action, variant and cost; each one of the full list."""
    battle = begin(load(path), 3)
    whole = legal_decisions(battle)
    kinds = list(listing(battle).kinds())
    assert all(legal in whole for legal in kinds)
    assert [k for k in kinds if not _moving(k)] == [w for w in whole if not _moving(w)]
    moves = [k for k in kinds if _moving(k)]
    assert {_kind(k) for k in moves} == {_kind(w) for w in whole if _moving(w)}
    assert len(moves) == len({_kind(k) for k in moves}) < len(whole)


# --- issue #15: the moves and the kinds, worked out faster, list the same -----------------------


def _states(path: Path) -> Iterator[tuple[Battle, tuple[Legal, ...]]]:
    """The battle at each turn's decision of random play drawn from the legal list (the steering
    of tests/legal_play.py, seeded by the scenario's name), one decision after another, with
    `legal_decisions(battle)` there: each a copy of its own (`Battle.fork`) of the state
    `_played` keeps, so a test reads the state as it was played. A fork keeps no answers
    (`World.copy`): what a test asks of it is worked out afresh, while the listing was made
    on the played battle, with the answers its game kept."""
    for battle, listed in _played(path):
        yield battle.fork(copy.deepcopy(battle.dice)), listed


@functools.cache
def _played(path: Path, decisions: int = 30) -> tuple[tuple[Battle, tuple[Legal, ...]], ...]:
    """The states of `_states`, played once per process: five tests below read the same game
    of each scenario, which was played again for each (and its listings made again), most of
    this file's time. Each state is a fork of the battle, never submitted to."""
    battle = begin(load(path), 5)
    rng = random.Random(path.stem)
    taken = Tally()
    states: list[tuple[Battle, tuple[Legal, ...]]] = []
    for _ in range(decisions):
        listed = legal_decisions(battle)
        if not listed:
            break
        if isinstance(battle.pending, AwaitingAction):
            states.append((battle.fork(copy.deepcopy(battle.dice)), listed))
        chosen = draw(battle, listed, rng, taken)
        taken.took(battle.pending, chosen.decision)
        assert not isinstance(battle.submit(chosen.decision), Refusal)
    return tuple(states)


def _moves_as_each_reach_map_gives(battle: Battle) -> list[Legal]:
    """The moves but Climb as `legal_decisions` listed them before issue #15: a reach map of its
    own for each Movement Action (and dive), whose first cell, given by `to`, is put to the
    move's check for the kind; then every cell of it, in row order, for each variant paid."""
    pending = battle.pending
    assert isinstance(pending, AwaitingAction)
    world, unit = battle.world, pending.unit
    if isinstance(battle.check(a.EndTurn(unit)), Refusal):
        return []
    shifts = [PLAIN, (True, False)]
    if has(world, unit, Condition.QUICKENED):
        shifts.append((False, True))
    prices = _Prices(battle, shifts)
    return moves_off_reach_maps(
        battle, unit, lambda kind: prices.listed(kind(unit)), quicken=len(shifts) > 2
    )


@pytest.mark.parametrize("path", first_fast(SCENARIOS), ids=lambda p: p.stem)
def test_moves_are_each_kinds_reach_map_in_random_play(path: Path) -> None:
    """Issue #15: the listed moves (but Climb, listed cell by cell with the other actions) are
    exactly, in order, those of a reach map of each Movement Action's own with its first cell
    put to the check, though the strides now share one search, no map is made and the kind is
    checked along the path to its cheapest cell; at every turn's decision of random play."""
    seen = 0
    for battle, whole in _states(path):
        listed = [legal for legal in whole if _by_cell(legal)]
        assert listed == _moves_as_each_reach_map_gives(battle)
        seen += bool(listed)
    assert seen > 3, "random play has somewhere to go"


@pytest.mark.parametrize("path", first_fast(SCENARIOS), ids=lambda p: p.stem)
def test_kinds_are_of_the_full_list_in_random_play(path: Path) -> None:
    """What the action bar reads (`Listing.kinds`) at every turn's decision of random play:
    every decision but moves as listed (climbs, each put to the check, too), and of the other
    moves the first of each Movement Action, variant and cost."""
    for battle, whole in _states(path):
        kinds = list(listing(battle).kinds())
        assert [k for k in kinds if not _by_cell(k)] == [w for w in whole if not _by_cell(w)]
        firsts: dict[tuple[object, ...], Legal] = {}
        for legal in whole:
            if _by_cell(legal):
                firsts.setdefault(_kind(legal), legal)
        assert [k for k in kinds if _by_cell(k)] == list(firsts.values())


def _by_cell(legal: Legal) -> bool:
    """A move listed by the cells of a reach map (all but a Climb)."""
    return _moving(legal) and not isinstance(legal.decision, a.Climb)


@pytest.mark.parametrize("path", first_fast(SCENARIOS), ids=lambda p: p.stem)
def test_kinds_are_the_first_of_each_type_in_random_play(path: Path) -> None:
    """Issue #15: `kinds`, what the action bar reads, at every turn's decision of random play:
    of the full list, in its order, the first decision of each action type (for a spell or an
    ability, of each one) with all its variants, and the first move of each Movement Action,
    variant and cost: what tells the bar which actions are open and at what cost. Some turns
    list more than one decision of a type, so that asking only until one is accepted shows."""
    fewer = 0
    for battle, whole in _states(path):
        expected: list[Legal] = []
        firsts: dict[tuple[object, ...], Action] = {}
        for legal in whole:
            d = legal.decision
            assert isinstance(d, Action)
            if _by_cell(legal):
                key: tuple[object, ...] = _kind(legal)
            else:
                key = (type(d), getattr(d, "ability", ""))
            plain = replace(d, slow=False, quicken=False)
            if firsts.setdefault(key, plain) == plain:
                expected.append(legal)
        assert list(kinds(battle)) == expected
        fewer += len(expected) < len(list(listing(battle).kinds()))
    assert fewer > 0


@pytest.mark.parametrize("path", first_fast(SCENARIOS), ids=lambda p: p.stem)
def test_the_sieve_leaves_out_only_what_the_checks_refuse(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #15: the candidates the sieve leaves out unmade (targets out of reach or range,
    items too heavy to toss) are each refused by its own check, and listed with every
    candidate put to the check, every turn's decision of random play lists the same."""
    sifted = sum(_sifted(battle, monkeypatch, whole) for battle, whole in _states(path))
    assert sifted > 0, "some candidates are out of reach"


# A reach weapon two cells from its target, a bow far from its, a thrown javelin, and creatures
# beyond all of them: what the sieve must not drop (R-A4 reach weapons, R-C7 ranges, R-X17).
REACHES = '''
name = "reaches"
seed = 4

[map]
rows = """
##############
#............#
#.d.g......o.#
#............#
#.b..........#
##############
"""

[[units]]
id = "dwarf"
team = "blue"
template = "dwarf_guard"
at = "d"
held = ["halberd"]

[[units]]
id = "bow"
team = "blue"
template = "human_archer"
at = "b"
held = ["shortbow"]
carried = ["javelin"]

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "g"
held = ["javelin"]

[[units]]
id = "orc"
team = "red"
template = "orc_raider"
at = "o"
'''


def test_the_sieve_keeps_reach_weapons_ranged_attacks_and_throws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At each creature's first turn: the halberd's attack two cells away, the archer's shots,
    grok's javelin throw are listed, and what the sieve drops is refused by its check."""
    path = tmp_path / "reaches.toml"
    path.write_text(REACHES, encoding="utf-8")
    battle = begin(load(path), 4)
    listed: list[Action] = []
    for _ in range(4):
        pending = battle.pending
        assert isinstance(pending, AwaitingAction)
        _sifted(battle, monkeypatch)
        listed += [d.decision for d in legal_decisions(battle) if isinstance(d.decision, Action)]
        assert not isinstance(battle.submit(a.EndTurn(pending.unit)), Refusal)
    assert a.Attack("dwarf", target="grok") in listed  # two cells away, with the halberd
    assert a.Attack("bow", target="orc") in listed  # with the shortbow
    assert any(isinstance(d, a.Throw) and d.actor == "grok" for d in listed)
    assert not any(isinstance(d, a.Trip) and d.target == "orc" for d in listed)


def _sifted(
    battle: Battle, monkeypatch: pytest.MonkeyPatch, whole: tuple[Legal, ...] | None = None
) -> int:
    """How many candidates the sieve leaves out at this decision; each is refused by its check,
    and the list is the same with every candidate put to the check. `whole`: the listing
    (`legal_decisions(battle)`), if made already."""
    pending = battle.pending
    assert isinstance(pending, AwaitingAction)
    if whole is None:
        whole = legal_decisions(battle)
    made = _candidates(battle, pending.unit)
    with monkeypatch.context() as patch:
        patch.setattr(legal_module, "Scene", Unsifted)
        assert legal_decisions(battle) == whole
        every = _candidates(battle, pending.unit)
    dropped = every - made
    for action in dropped:
        assert RULEBOOK[type(action)].check(battle.world, action) is not None, action
    assert not made - every
    return sum(dropped.values())


def _candidates(battle: Battle, unit: str) -> Counter[Action]:
    return Counter(
        c.action if isinstance(c, Unless) else c
        for c in legal_module._plain_candidates(legal_module.Scene(battle.world, unit))
    )


@pytest.mark.parametrize("path", first_fast(SCENARIOS), ids=lambda p: p.stem)
def test_a_listing_without_some_types_is_the_rest_in_the_same_order(path: Path) -> None:
    """Issue #30: `listing(without=...)` leaves the named types out, neither made nor put to
    the check (a level that sees nothing to gain by them), and lists the rest as the whole
    listing does, in its order: a Climb and a Walk left out too, to cover the moves."""
    without = frozenset({a.Aim, a.Throw, a.Toss, a.Stow, a.Drop, a.Prepare, a.Climb, a.Walk})
    left_out = 0
    for battle, _ in _states(path):
        whole = legal_decisions(battle, slowed=False)
        rest = [legal for legal in whole if type(legal.decision) not in without]
        assert list(listing(battle, slowed=False, without=without)) == rest
        left_out += len(whole) - len(rest)
    assert left_out > 0
