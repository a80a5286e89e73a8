"""Answers the world keeps (World.memo): reused while what they read is unchanged, worked out
again after any write they read, copied to a copy (each then keeps its own), dropped with new
rules or terrain (issue #11: plan once, look up once, and never answer from a stale state;
issue #30: a look-ahead's forks start from the answers of the battle they are forked from)."""

from __future__ import annotations

from dataclasses import replace

from sim.core.actions import Walk
from sim.core.components import Budget, Conditions, Position
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.rules.movement.footing import standing_at
from sim.rules.movement.movement import plan_move
from tests.helpers import battle, scenario_text

TWO = scenario_text(
    """
    ......
    ......
    """,
    """
    [[units]]
    id = "ana"
    team = "blue"
    template = "human_fighter"
    at = [0, 0]

    [[units]]
    id = "orc"
    team = "red"
    template = "orc_brute"
    at = [5, 1]
    """,
)


def counted(world, reads=None, ignores=()):  # type: ignore[no-untyped-def]
    calls = []

    def ask() -> int:
        calls.append(1)
        return len(calls)

    def memo() -> int:
        return world.memo("probe", ask, reads=reads, ignores=ignores)

    return memo, calls


def test_an_answer_is_kept_until_a_kind_it_reads_is_written() -> None:
    world = battle(TWO, [8, 1]).world
    memo, calls = counted(world, reads=(Position,))
    assert memo() == 1 and memo() == 1
    world.set("ana", world.need("ana", Budget))  # a kind it does not read
    assert memo() == 1
    world.set("ana", Position(Pos(1, 0)))
    assert memo() == 2 and len(calls) == 2


def test_without_reads_every_kind_but_the_ignored_ones_counts() -> None:
    world = battle(TWO, [8, 1]).world
    memo, _ = counted(world, ignores=(Budget,))
    assert memo() == 1
    world.set("ana", replace(world.need("ana", Budget), bonus=0))
    assert memo() == 1
    world.set("ana", Conditions((("prone", 1),)))
    assert memo() == 2
    world.turn = replace(world.turn, round=world.turn.round + 1)
    assert memo() == 3


def test_a_copy_starts_from_the_originals_answers_and_keeps_its_own() -> None:
    """A copy answers with what the original kept while what the answer reads is unwritten in
    the copy; after its own writes each world works out and keeps its own answers, and an
    answer one keeps never passes for the other's, even once both have written as often."""
    world = battle(TWO, [8, 1]).world
    memo, calls = counted(world, reads=(Position,))
    assert memo() == 1
    clone = world.copy()
    clone_memo, clone_calls = counted(clone, reads=(Position,))
    assert clone_memo() == 1 and clone_calls == []  # the original's answer, nothing worked out
    clone.set("ana", replace(clone.need("ana", Budget), bonus=0))  # a kind it does not read
    assert clone_memo() == 1 and clone_calls == []
    clone.set("ana", Position(Pos(1, 0)))
    assert clone_memo() == 1 and clone_calls == [1]  # its own write: worked out afresh
    # The original, written as often (the same counts), still answers with its own.
    world.set("ana", replace(world.need("ana", Budget), bonus=0))
    assert memo() == 1 and len(calls) == 1
    world.set("orc", Position(Pos(4, 1)))
    assert memo() == 2 and len(calls) == 2  # not the copy's answer, kept at the same counts
    assert clone_memo() == 1 and clone_calls == [1]  # nor the other way round


def test_new_rules_or_terrain_drop_kept_answers() -> None:
    world = battle(TWO, [8, 1]).world
    memo, calls = counted(world, reads=(Position,))
    memo()
    world.rules = replace(world.rules)
    assert memo() == 2
    world.grid.set_cell(Pos(3, 0), kind=Kind.WALL)
    assert memo() == 3 and len(calls) == 3


def test_who_stands_where_follows_a_move() -> None:
    b = battle(TWO, [8, 1])
    world = b.world
    assert dict(standing_at(world, "ana")) == {Pos(5, 1): "orc"}
    world.set("orc", Position(Pos(4, 1)))
    assert dict(standing_at(world, "ana")) == {Pos(4, 1): "orc"}
    world.set("orc", Conditions((("prone", 1),)))  # lying down holds no cell (R-M5)
    assert dict(standing_at(world, "ana")) == {}


def test_a_move_is_planned_again_when_the_ground_under_it_changes() -> None:
    b = battle(TWO, [8, 1])
    world = b.world
    walk = Walk("ana", to=Pos(2, 0))
    first = plan_move(world, walk)
    assert plan_move(world, walk) is first  # the check's plan, reused by the resolution
    world.set("ana", replace(world.need("ana", Budget), half=1))  # spending: still the plan
    assert plan_move(world, walk) is first
    world.set("orc", Position(Pos(1, 0)))  # a creature now stands in the way
    second = plan_move(world, walk)
    assert second is not first and second != first


def test_a_world_with_kept_answers_pickles_without_them() -> None:
    import pickle

    world = battle(TWO, [8, 1]).world
    standing_at(world, "ana")  # keeps an answer that cannot be pickled (a read-only view)
    again = pickle.loads(pickle.dumps(world))
    assert again == world
    assert dict(standing_at(again, "ana")) == {Pos(5, 1): "orc"}


def test_new_rules_make_the_follow_ups_look_again() -> None:
    """A house rule swapped in mid-battle (no reach at all) lets a grapple go at the next
    event, as R-G4 says, though nothing the follow-ups read was written since they last
    found nothing to do."""
    from sim.play.engine import SetPolicy
    from tests.rules.combat.test_grapple import OPEN, grappled, held, pair

    b = grappled(pair(dice=(6, 2, 8, 1), rows=OPEN))
    assert held(b) == ("bo", "ana")
    rules = b.world.rules
    b.world.rules = replace(rules, attack=replace(rules.attack, melee_reach_half_metres=0))
    b.submit(SetPolicy("bo", "never", "none"))  # an event that writes only a policy
    assert held(b) != ("bo", "ana")
