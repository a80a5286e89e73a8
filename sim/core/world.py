"""The world: entities with readable ids, their frozen components, the terrain and whose turn."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterator
from typing import Any, TypeVar

from sim.core.catalog import Catalog
from sim.core.components import TurnState
from sim.core.grid import Grid
from sim.core.numbers import Rules

C = TypeVar("C")
T = TypeVar("T")
MEMO_LIMIT = 4096  # answers kept before the memo starts afresh: a battle's worth of checks
JOURNAL_LIMIT = 1 << 14  # writes journaled before the journal starts afresh (its readers rebuild)


class World:
    """An entity-component store passed around as an object; several may coexist.

    Components are frozen, so `copy()` only copies the dictionaries that index them.

    Every write is counted, per component kind, so that answers worked out from the world (who
    stands where, a movement search, a planned move) are kept until what they read changes
    (`memo`) instead of being worked out again by every question asked of the same state.
    Every write is also journaled with its entity, so that an index worked out from the world
    (who stands near a cell) is brought up to date from the few entities written since it last
    looked (`since`, `kept`) instead of from every entity (issue #30).
    """

    def __init__(self, grid: Grid, rules: Rules, catalog: Catalog) -> None:
        self._memo: dict[Hashable, tuple[int, int, tuple[int, ...], Any]] = {}
        self._kept: dict[Hashable, Any] = {}  # indexes kept up to date from the journal
        self._generation = 0  # terrain, rules or catalogue swapped this many times
        self.grid = grid
        self.rules = rules
        self.catalog = catalog
        self._turn = TurnState()
        # Each entity's place in the order added; never a set (determinism).
        self._entities: dict[str, int] = {}
        self._stores: dict[type[Any], dict[str, Any]] = {}
        self._writes: dict[type[Any], int] = {}  # per component kind (TurnState: the turn)
        self._written = 0  # all writes
        # The kind and entity of each write since write number `_journal_from` (None: a new
        # entity; TurnState and "": the turn), and the indexes kept up to date from it.
        self._journal: list[tuple[type[Any] | None, str]] = []
        self._journal_from = 0

    # --- the terrain, the rules and the catalogue: kept answers read them all ----------------
    @property
    def grid(self) -> Grid:
        return self._grid

    @grid.setter
    def grid(self, grid: Grid) -> None:
        self._grid = grid
        self._swapped()

    @property
    def rules(self) -> Rules:
        return self._rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        self._rules = rules
        self._swapped()

    @property
    def catalog(self) -> Catalog:
        return self._catalog

    @catalog.setter
    def catalog(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self._swapped()

    def _swapped(self) -> None:
        """New terrain, rules or catalogue: every kept answer and every stamp is void."""
        self._memo.clear()
        self._kept.clear()
        self._generation += 1

    # --- the turn ---------------------------------------------------------------------------
    @property
    def turn(self) -> TurnState:
        return self._turn

    @turn.setter
    def turn(self, state: TurnState) -> None:
        self._turn = state
        self._wrote(TurnState, "")

    def _wrote(self, kind: type[Any], entity: str) -> None:
        self._writes[kind] = self._writes.get(kind, 0) + 1
        self._written += 1
        self._journaled(kind, entity)

    def _journaled(self, kind: type[Any] | None, entity: str) -> None:
        journal = self._journal
        if len(journal) >= JOURNAL_LIMIT:  # a long battle: its readers rebuild once
            journal.clear()
            self._journal_from = self._written - 1
        journal.append((kind, entity))

    # --- answers kept while what they read is unchanged -----------------------------------
    @property
    def mark(self) -> tuple[int, int, int]:
        """A mark that stays the same while nothing at all is written: no component, no
        entity, no cell of the terrain, no rules or catalogue swapped."""
        return (self._written, self._grid.version, self._generation)

    @property
    def written(self) -> int:
        """How many writes the world has had: a mark for `since`."""
        return self._written

    def since(self, written: int, kinds: tuple[type[Any], ...]) -> list[str] | None:
        """The entities given a component of `kinds` (or removed one) and the entities added,
        since the world's `written` was `written`, in the order written, repeats included; None
        when the journal does not reach back so far (a copy, or a long time ago): then whoever
        asks works its answer out afresh."""
        start = written - self._journal_from
        if start < 0:
            return None
        return [e for kind, e in self._journal[start:] if kind is None or kind in kinds]

    def refile(self, mark: int, kinds: tuple[type[Any], ...]) -> tuple[list[str], bool] | None:
        """What an index kept at write `mark` (-1: never) must file again to be up to date:
        None when nothing was written since; else the entities `since` names, or, with True
        (start afresh), every entity when the journal does not reach back so far."""
        if mark == self.written:
            return None
        changed = self.since(mark, kinds) if mark >= 0 else None
        if changed is None:
            return list(self.entities()), True
        return changed, False

    def kept(self, key: Hashable, make: Callable[[], T]) -> T:
        """The index kept under `key` in this world, made by `make()` the first time it is
        asked for: an object its owner keeps up to date with `since`. A copy of the world
        starts without any (each world's journal is its own)."""
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = make()
        kept: T = found
        return kept

    @property
    def ranks(self) -> dict[str, int]:
        """Each entity's place in the order the entities were added (the order of `entities`
        and `each`), to sort a few found by. Shared: callers must not change it."""
        return self._entities

    def stamp(self, kinds: tuple[type[Any], ...]) -> tuple[int, ...]:
        """A mark that stays the same while no component of `kinds` (TurnState: the turn),
        no entity and no cell of the terrain is written."""
        # Each count of writes and of entities only grows, so their sum stays the same exactly
        # while each of them does: one number, cheaper to make than a tuple of them (a memo
        # asks after most writes). A new terrain may start its version lower: kept apart.
        count = len(self._entities)
        writes = self._writes
        for kind in kinds:
            count += writes.get(kind, 0)
        return (count, self._grid.version, self._generation)

    def memo(
        self,
        key: Hashable,
        compute: Callable[[], T],
        *,
        reads: tuple[type[Any], ...] | None = None,
        ignores: tuple[type[Any], ...] = (),
    ) -> T:
        """`compute()`, or the answer it gave for `key` while nothing it depends on has been
        written since. It depends on the component kinds `reads` (TurnState for the turn), or,
        without `reads`, on every kind but `ignores`; always on the entities and the terrain.
        The answer is shared: callers must not change it."""
        kept = self._memo.get(key)
        written, version = self._written, self._grid.version
        # Nothing at all written since the answer was kept (a policy weighing its options
        # asks many questions between two writes): no stamp to work out.
        if kept is not None and kept[0] == written and kept[1] == version:
            answer: T = kept[3]
            return answer
        if reads is None:
            stamp: tuple[int, ...] = (
                written - sum(self._writes.get(k, 0) for k in ignores),
                len(self._entities),
                version,
                self._generation,
            )
        else:
            stamp = self.stamp(reads)
        if kept is not None and kept[2] == stamp:
            answer = kept[3]
        else:
            answer = compute()
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
        self._memo[key] = (written, version, stamp, answer)
        return answer

    # --- entities -------------------------------------------------------------------------
    def add_entity(self, entity: str, *components: object) -> None:
        if entity in self._entities:
            raise ValueError(f"entity {entity!r} exists already")
        self._entities[entity] = len(self._entities)
        self._written += 1
        self._journaled(None, entity)
        for component in components:
            self.set(entity, component)

    def exists(self, entity: str) -> bool:
        return entity in self._entities

    def entities(self) -> tuple[str, ...]:
        return tuple(self._entities)

    # --- components -----------------------------------------------------------------------
    def set(self, entity: str, component: object) -> None:
        if entity not in self._entities:
            raise KeyError(f"no entity {entity!r}")
        kind = type(component)
        self._stores.setdefault(kind, {})[entity] = component
        self._wrote(kind, entity)

    def get(self, entity: str, kind: type[C]) -> C | None:
        store = self._stores.get(kind)
        return None if store is None else store.get(entity)

    def need(self, entity: str, kind: type[C]) -> C:
        store = self._stores.get(kind)
        found: C | None = None if store is None else store.get(entity)
        if found is None:
            raise KeyError(f"{entity!r} has no {kind.__name__}")
        return found

    def has(self, entity: str, kind: type[Any]) -> bool:
        store = self._stores.get(kind)
        return store is not None and entity in store

    def remove(self, entity: str, kind: type[Any]) -> None:
        self._stores.get(kind, {}).pop(entity, None)
        self._wrote(kind, entity)

    def each(self, kind: type[C]) -> Iterator[tuple[str, C]]:
        """Entities with this component, in the order they were added."""
        store = self._stores.get(kind)
        if not store:  # most kinds asked after every change are held by no one (issue #11)
            return
        # Held by a few of many (a plan, an Extended Action): sort those few instead of passing
        # every entity by (issue #30: the cost of a change must not grow with far creatures).
        order: Collection[str] = self._entities
        if 8 * len(store) < len(order):
            order = sorted(store, key=self._entities.__getitem__)
        for entity in order:
            if entity in store:
                yield entity, store[entity]

    # --- snapshots ------------------------------------------------------------------------
    def copy(self) -> World:
        clone = World.__new__(World)
        clone._grid = self._grid  # shared: terrain changes only in the map editor
        clone._rules = self._rules
        clone._catalog = self._catalog
        clone._generation = self._generation
        clone._turn = self._turn
        clone._entities = dict(self._entities)
        clone._stores = {kind: dict(store) for kind, store in self._stores.items()}
        clone._writes = dict(self._writes)
        clone._written = self._written
        # The answers kept so far, copied: each was worked out from the history both worlds
        # share, and each world counts its own writes on from the same numbers, so an answer
        # passes in either exactly while what it read is unwritten there. Never the same
        # dictionary: an answer one world keeps later could then pass for the other's after
        # each had its own writes.
        clone._memo = dict(self._memo)
        clone._journal = []
        clone._journal_from = self._written
        clone._kept = {}
        return clone

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a batch worker's scenario) without its kept answers, which are only a
        shortcut and need not be picklable."""
        state = dict(self.__dict__)
        state["_memo"] = {}
        state["_kept"] = {}
        state["_journal"] = []
        state["_journal_from"] = self._written
        return state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, World):
            return NotImplemented
        mine = {k: v for k, v in self._stores.items() if v}
        theirs = {k: v for k, v in other._stores.items() if v}
        return (
            self.turn == other.turn
            and list(self._entities) == list(other._entities)
            and mine == theirs
            and (self.grid is other.grid or self.grid.same_as(other.grid))
        )

    __hash__ = None  # type: ignore[assignment]
