"""Who holds what: the entities for which a test holds (a creature still standing, one that
grapples), kept up to date from the world's journal of writes, so that a question asked after
every change looks at the few entities written since instead of at every creature (issue
#30: the cost of a decision must not grow with creatures far from the action)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.core.world import World

Test = Callable[[World, str], bool]


class Roster:
    """The entities passing a test, as of the world's write `mark`; `listed` is them in the
    order the entities were added, the same tuple while they stay the same."""

    __slots__ = ("listed", "mark", "members")

    def __init__(self) -> None:
        self.mark = -1  # never brought up to date
        self.members: dict[str, None] = {}
        self.listed: tuple[str, ...] | None = None

    def update(self, world: World, test: Test, reads: tuple[type[Any], ...]) -> None:
        """Test again the entities written in `reads` since the last look (all of them the
        first time, or when the journal does not reach back so far)."""
        due = world.refile(self.mark, reads)
        if due is None:
            return
        changed, afresh = due
        if afresh:
            self.members = {e: None for e in changed if test(world, e)}
            self.listed = None
        else:
            members = self.members
            for entity in dict.fromkeys(changed):
                now = test(world, entity)
                if now != (entity in members):
                    if now:
                        members[entity] = None
                    else:
                        del members[entity]
                    self.listed = None
        self.mark = world.written


def roster(world: World, name: str, test: Test, reads: tuple[type[Any], ...]) -> tuple[str, ...]:
    """The entities for which `test(world, entity)` holds, in the order they were added. The
    test must read only the entity's own components of the kinds `reads` (and whether it
    exists); `name` names the test: one roster per name in each world."""
    kept = world.kept(("roster", name), Roster)
    kept.update(world, test, reads)
    if kept.listed is None:
        kept.listed = tuple(sorted(kept.members, key=world.ranks.__getitem__))
    return kept.listed
