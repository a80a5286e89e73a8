"""Who is near a cell (sim/core/placement.py, issue #30): the creatures by block of the map,
kept up to date from the world's journal of writes, always the same creatures in the same
order as asking every creature would give; footprints of large creatures count (R-Z1, R-Z3).
And the journal itself (World.since) and `World.each` over the few holders of a kind."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sim.core import world as world_module
from sim.core.components import Position, Size
from sim.core.geometry import Pos
from sim.core.placement import near, near_scan
from sim.core.world import World
from sim.rules.combat.prepare import Prepared
from tests.helpers import accepted, random_play, types
from tests.movers import begin, creature


def _rows() -> str:
    grid = [["."] * 24 for _ in range(24)]
    for mark, x, y in (("a", 1, 1), ("b", 3, 1), ("o", 12, 10), ("c", 20, 20), ("d", 23, 23)):
        grid[y][x] = mark
    return "\n".join("".join(row) for row in grid)


ROWS = _rows()
# ana and bo at the west end, the ogre (2 cells wide, R-Z1) and cy far east, dee farther.
UNITS = (
    creature("ana", "blue", "a"),
    creature("bo", "red", "b"),
    creature("ogre", "red", "o", size=2),
    creature("cy", "blue", "c"),
    creature("dee", "red", "d"),
)


def test_near_finds_by_footprint_gap_in_scenario_order_and_follows_moves() -> None:
    b = begin(ROWS, *UNITS)
    world = b.world
    assert near(world, Pos(2, 1), 1) == ["ana", "bo"]
    assert near(world, Pos(0, 0), 1) == ["ana"]
    # R-Z3: the ogre's footprint is 12-13 by 10-11: two cells from (15, 12) at its nearest.
    assert near(world, Pos(15, 12), 2) == ["ogre"]
    assert near(world, Pos(15, 12), 1) == []
    # A footprint asking: (10, 8) two cells wide reaches to (11, 9), one cell from the ogre.
    assert near(world, Pos(10, 8), 1, wide=2) == ["ogre"]
    assert near(world, Pos(9, 8), 1, wide=2) == []
    assert near(world, Pos(21, 21), 2) == ["cy", "dee"]
    # ana walks south (the engine's one writer moves her): she is found where she is now.
    assert types(accepted(b, unit="ana", action="walk", to=[1, 3]))[-1] == "moved"
    assert near(world, Pos(2, 1), 1) == ["bo"]
    assert near(world, Pos(0, 4), 1) == ["ana"]
    assert near(world, Pos(2, 2), 1) == ["ana", "bo"]


def test_a_copy_and_a_journal_started_afresh_are_rebuilt_from_the_world(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    world = begin(ROWS, *UNITS).world
    assert near(world, Pos(20, 20), 0) == ["cy"]
    clone = world.copy()
    clone.set("cy", Position(Pos(2, 2)))
    assert near(clone, Pos(20, 20), 0) == [] and near(clone, Pos(2, 2), 1) == ["ana", "bo", "cy"]
    assert near(world, Pos(20, 20), 0) == ["cy"]  # the original is not moved
    monkeypatch.setattr(world_module, "JOURNAL_LIMIT", 4)
    for x in range(10):  # more writes than the journal keeps: the index starts afresh
        world.set("dee", Position(Pos(x, 5)))
    assert near(world, Pos(9, 6), 1) == ["dee"]
    world.set("dee", Size(3))
    assert near(world, Pos(12, 8), 1) == ["dee"]  # 9-11 by 5-7 now (R-Z1)


def test_the_journal_names_the_entities_written_since_a_mark() -> None:
    world = begin(ROWS, *UNITS).world
    mark = world.written
    assert world.since(mark, (Position,)) == []
    world.set("bo", Position(Pos(4, 1)))
    world.set("ana", Size(2))
    world.set("bo", Position(Pos(5, 1)))
    assert world.since(mark, (Position,)) == ["bo", "bo"]
    assert world.since(mark, (Position, Size)) == ["bo", "ana", "bo"]
    assert world.copy().since(mark, (Position,)) is None  # a copy's journal starts with it


def test_each_over_a_few_holders_keeps_the_order_the_entities_were_added() -> None:
    world = begin(ROWS, *UNITS).world
    plan = Prepared("ends_turn", 0.0, (), "ana", None, 1)  # type: ignore[arg-type]
    for unit in ("dee", "ana", "cy"):
        world.set(unit, plan)
    assert [unit for unit, _ in world.each(Prepared)] == ["ana", "cy", "dee"]


SPOTS = st.tuples(st.integers(0, 23), st.integers(0, 23))


@random_play(60)
@given(
    moves=st.lists(
        st.tuples(st.sampled_from(("ana", "bo", "ogre", "cy", "dee")), SPOTS, st.integers(1, 3)),
        max_size=12,
    ),
    asked=st.lists(st.tuples(SPOTS, st.integers(0, 4), st.integers(1, 3)), min_size=1),
    copied=st.booleans(),
)
def test_near_is_always_what_asking_every_creature_gives(
    moves: list[tuple[str, tuple[int, int], int]],
    asked: list[tuple[tuple[int, int], int, int]],
    copied: bool,
) -> None:
    world: World = begin(ROWS, *UNITS).world
    for unit, (x, y), wide in moves:
        world.set(unit, Position(Pos(x, y)))
        world.set(unit, Size(wide))
        (x0, y0), cells, side = asked[0]
        assert near(world, Pos(x0, y0), cells, side) == near_scan(world, Pos(x0, y0), cells, side)
        if copied:
            world = world.copy()
    for (x, y), cells, side in asked:
        assert near(world, Pos(x, y), cells, side) == near_scan(world, Pos(x, y), cells, side)


def test_a_roster_follows_the_writes_of_the_kinds_it_reads() -> None:
    """sim/core/roster.py: the creatures holding a condition, in scenario order, the same
    tuple while they stay the same, and what asking every entity gives after a copy."""
    from sim.core.components import Conditions
    from sim.core.condition import Condition
    from sim.core.creature import conditions
    from sim.core.roster import roster

    def prone(world: World, entity: str) -> bool:
        return conditions(world, entity).has(Condition.PRONE)

    world = begin(ROWS, *UNITS).world
    assert roster(world, "prone", prone, (Conditions,)) == ()
    for unit in ("dee", "bo"):
        world.set(unit, conditions(world, unit).set(Condition.PRONE, 1))
    first = roster(world, "prone", prone, (Conditions,))
    assert first == ("bo", "dee")
    world.set("ana", Position(Pos(2, 2)))  # a kind it does not read
    assert roster(world, "prone", prone, (Conditions,)) is first
    world.set("bo", Conditions())
    assert roster(world, "prone", prone, (Conditions,)) == ("dee",)
    clone = world.copy()
    clone.set("ana", conditions(clone, "ana").set(Condition.PRONE, 1))
    assert roster(clone, "prone", prone, (Conditions,)) == ("ana", "dee")
    assert roster(world, "prone", prone, (Conditions,)) == ("dee",)
