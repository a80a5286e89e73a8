"""The world: entities with readable ids, their frozen components, the terrain and whose turn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from sim.catalog import Catalog
from sim.components import TurnState
from sim.grid import Grid
from sim.rules import Rules

C = TypeVar("C")


class World:
    """An entity-component store passed around as an object; several may coexist.

    Components are frozen, so `copy()` only copies the dictionaries that index them.
    """

    def __init__(self, grid: Grid, rules: Rules, catalog: Catalog) -> None:
        self.grid = grid
        self.rules = rules
        self.catalog = catalog
        self.turn = TurnState()
        self._entities: dict[str, None] = {}  # insertion-ordered; never a set (determinism)
        self._stores: dict[type[Any], dict[str, Any]] = {}

    # --- entities -------------------------------------------------------------------------
    def add_entity(self, entity: str, *components: object) -> None:
        if entity in self._entities:
            raise ValueError(f"entity {entity!r} exists already")
        self._entities[entity] = None
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
        self._stores.setdefault(type(component), {})[entity] = component

    def get(self, entity: str, kind: type[C]) -> C | None:
        return self._stores.get(kind, {}).get(entity)

    def need(self, entity: str, kind: type[C]) -> C:
        found = self.get(entity, kind)
        if found is None:
            raise KeyError(f"{entity!r} has no {kind.__name__}")
        return found

    def has(self, entity: str, kind: type[Any]) -> bool:
        return entity in self._stores.get(kind, {})

    def remove(self, entity: str, kind: type[Any]) -> None:
        self._stores.get(kind, {}).pop(entity, None)

    def each(self, kind: type[C]) -> Iterator[tuple[str, C]]:
        """Entities with this component, in the order they were added."""
        store = self._stores.get(kind, {})
        for entity in self._entities:
            if entity in store:
                yield entity, store[entity]

    # --- snapshots ------------------------------------------------------------------------
    def copy(self) -> World:
        clone = World.__new__(World)
        clone.grid = self.grid  # terrain never changes during a battle
        clone.rules = self.rules
        clone.catalog = self.catalog
        clone.turn = self.turn
        clone._entities = dict(self._entities)
        clone._stores = {kind: dict(store) for kind, store in self._stores.items()}
        return clone

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
