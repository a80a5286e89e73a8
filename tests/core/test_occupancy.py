"""Who stands in each cell (sim/core/occupancy.py, issue #30): every cell of a standing
creature's footprint (R-Z1), kept up to date from the world's journal of writes; a creature
down on the ground holds no cell (R-M5, R-K2); always what asking every creature gives."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sim.core import world as world_module
from sim.core.components import Conditions, Position, Size, Team
from sim.core.condition import Condition
from sim.core.geometry import Pos
from sim.core.occupancy import standing, standing_scan
from sim.core.world import World
from sim.rules.movement.footing import standing_at
from tests.helpers import accepted, random_play, refused, types
from tests.movers import begin, creature

ROWS = "\n".join(
    (
        "..........",
        ".ab.......",
        "..........",
        "......o...",
        "..........",
        "..........",
    )
)
UNITS = (
    creature("ana", "blue", "a"),
    creature("bo", "red", "b"),
    creature("ogre", "red", "o", size=2),
)


def test_cells_held_follow_moves_falls_and_footprints() -> None:
    b = begin(ROWS, *UNITS)
    world = b.world
    # R-Z1: the ogre holds its 2x2 footprint from its top-left (6, 3).
    assert dict(standing_at(world, "ana")) == {
        Pos(2, 1): "bo",
        Pos(6, 3): "ogre",
        Pos(7, 3): "ogre",
        Pos(6, 4): "ogre",
        Pos(7, 4): "ogre",
    }
    assert standing(world, "bo").team(Pos(1, 1)) == "blue"
    # R-M5: no move ends on a standing creature.
    assert "R-M5" in refused(b, unit="ana", action="walk", to=[7, 4])
    before = standing_at(world, "bo")
    assert types(accepted(b, unit="ana", action="fall_prone"))[-1] == "condition_gained"
    # Down on the ground, ana holds no cell (R-M5); a view taken before keeps its moment.
    assert Pos(1, 1) not in standing_at(world, "bo") and before[Pos(1, 1)] == "ana"
    assert standing_scan(world, "bo") == dict(standing_at(world, "bo"))


def test_a_shared_cell_names_the_first_creature_but_never_the_one_asking() -> None:
    world = begin(ROWS, *UNITS).world
    world.set("bo", Position(Pos(1, 1)))  # set by hand: the rules never let two stand so
    assert standing_at(world, "ogre")[Pos(1, 1)] == "ana"
    assert standing_at(world, "ana")[Pos(1, 1)] == "bo"
    assert standing(world, "ana").team(Pos(1, 1)) == "red"
    assert standing(world, "bo").team(Pos(1, 1)) == "blue"
    world.set("ana", Team("red"))  # a change of side alone is filed too
    assert standing_at(world, "bo")[Pos(1, 1)] == "ana"
    assert standing(world, "bo").team(Pos(1, 1)) == "red"


def test_a_copy_and_a_journal_started_afresh_are_rebuilt_from_the_world(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    world = begin(ROWS, *UNITS).world
    assert standing_at(world, "ana").get(Pos(2, 1)) == "bo"
    clone = world.copy()
    clone.set("bo", Position(Pos(4, 4)))
    assert standing_at(clone, "ana").get(Pos(4, 4)) == "bo" and Pos(2, 1) not in standing_at(
        clone, "ana"
    )
    assert standing_at(world, "ana").get(Pos(2, 1)) == "bo"  # the original is not moved
    monkeypatch.setattr(world_module, "JOURNAL_LIMIT", 4)
    for x in range(6):  # more writes than the journal keeps: the index starts afresh
        world.set("bo", Position(Pos(x, 5)))
    assert standing_at(world, "ana").get(Pos(5, 5)) == "bo"
    assert standing_at(world, "ana").get(Pos(4, 4)) is None
    assert standing_scan(world, "ana") == dict(standing_at(world, "ana"))


SPOTS = st.tuples(st.integers(0, 9), st.integers(0, 5))
WRITES = st.one_of(
    st.tuples(st.just("at"), st.sampled_from(("ana", "bo", "ogre")), SPOTS),
    st.tuples(st.just("size"), st.sampled_from(("ana", "bo", "ogre")), st.integers(1, 2)),
    st.tuples(st.just("down"), st.sampled_from(("ana", "bo", "ogre")), st.booleans()),
    st.tuples(st.just("team"), st.sampled_from(("ana", "bo", "ogre")), st.sampled_from("xy")),
)


@random_play(60)
@given(writes=st.lists(st.tuples(WRITES, st.booleans()), max_size=14))
def test_standing_is_always_what_asking_every_creature_gives(
    writes: list[tuple[tuple[str, str, object], bool]],
) -> None:
    world: World = begin(ROWS, *UNITS).world
    for (what, unit, value), copied in writes:
        if what == "at":
            world.set(unit, Position(Pos(*value)))  # type: ignore[misc]
        elif what == "size":
            world.set(unit, Size(value))  # type: ignore[arg-type]
        elif what == "down":
            entries = ((Condition.PRONE, True),) if value else ()
            world.set(unit, Conditions(entries))
        else:
            world.set(unit, Team(str(value)))
        for asker in ("ana", "bo", "ogre"):
            view = standing(world, asker)
            scan = standing_scan(world, asker)
            assert dict(view) == scan and len(view) == len(scan)
            assert all(view.team(c) == world.need(u, Team).name for c, u in scan.items())
            assert dict(view.teams()) == {c: world.need(u, Team).name for c, u in scan.items()}
        if copied:
            world = world.copy()
