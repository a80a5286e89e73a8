"""Who a creature's enemies are (threat.enemies, issue #30): the creatures of other teams still
able to act (R-K2), in scenario order, kept from the world's journal instead of worked out
again after every change of a condition; always what asking every creature gives."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sim.core.components import Conditions, Team
from sim.core.condition import Condition
from sim.core.creature import creatures, incapacitated, team_of
from sim.core.world import World
from sim.rules.objectives import standing_teams
from sim.rules.reach.threat import enemies
from tests.helpers import random_play
from tests.movers import begin, creature

ROWS = "a.b.c.d"
UNITS = (
    creature("ana", "blue", "a"),
    creature("bo", "red", "b"),
    creature("cy", "blue", "c"),
    creature("dee", "red", "d"),
)
DOWN = Conditions(((Condition.INCAPACITATED, True),))


def _scan(world: World, unit: str) -> tuple[str, ...]:
    team = team_of(world, unit)
    return tuple(
        o for o in creatures(world) if team_of(world, o) != team and not incapacitated(world, o)
    )


def test_enemies_follow_who_is_downed_and_who_changes_sides() -> None:
    world = begin(ROWS, *UNITS).world
    assert enemies(world, "ana") == ("bo", "dee") and enemies(world, "bo") == ("ana", "cy")
    world.set("dee", DOWN)  # R-K2: an incapacitated creature threatens no one
    assert enemies(world, "cy") == ("bo",)
    world.set("dee", Conditions())
    assert enemies(world, "cy") == ("bo", "dee")
    world.set("cy", Team("red"))  # no one is downed: the sides alone changed
    assert enemies(world, "ana") == ("bo", "cy", "dee") and enemies(world, "bo") == ("ana",)
    assert standing_teams(world) == ("blue", "red")
    world.set("ana", Team("red"))
    assert enemies(world, "bo") == () and standing_teams(world) == ("red",)


@random_play(40)
@given(
    writes=st.lists(
        st.tuples(
            st.sampled_from(("ana", "bo", "cy", "dee")),
            st.one_of(st.booleans(), st.sampled_from(("blue", "red", "green"))),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_enemies_are_always_what_asking_every_creature_gives(
    writes: list[tuple[str, bool | str, bool]],
) -> None:
    world = begin(ROWS, *UNITS).world
    for unit, value, copied in writes:
        world.set(unit, DOWN if value is True else Conditions() if value is False else Team(value))
        for asker in ("ana", "bo", "cy", "dee"):
            assert enemies(world, asker) == _scan(world, asker)
        if copied:
            world = world.copy()
