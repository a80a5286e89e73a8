"""The frozen components a creature or an item is made of; a change replaces the component."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sim.core.condition import Condition, Value
from sim.core.geometry import Pos


@dataclass(frozen=True, slots=True)
class Attribute:
    """One attribute's die and Bonus (R-C1)."""

    die: int
    bonus: int

    def __str__(self) -> str:
        return f"d{self.die}+{self.bonus}"


@dataclass(frozen=True, slots=True)
class Stats:
    """STR, AGI, FCS and RES (R-C1) and skill levels (R-C3)."""

    attributes: tuple[tuple[str, Attribute], ...]
    skills: tuple[tuple[str, int], ...] = ()

    def attribute(self, name: str) -> Attribute:
        for key, value in self.attributes:
            if key == name:
                return value
        raise KeyError(name)

    def skill(self, name: str) -> int:
        for key, value in self.skills:
            if key == name:
                return value
        return 0


@dataclass(frozen=True, slots=True)
class Team:
    """The side a creature fights for."""

    name: str


@dataclass(frozen=True, slots=True)
class Position:
    """Where a creature or a dropped item is; `elevation` is metres above the ground (climbing)."""

    cell: Pos
    elevation: float = 0.0


@dataclass(frozen=True, slots=True)
class Body:
    """Race, base Speed and height (R-C5); fly, swim and climb speeds in metres, 0 for none
    (R-Z5)."""

    race: str
    speed: int
    height: float
    fly: int = 0
    swim: int = 0
    climb: int = 0

    @property
    def modes(self) -> tuple[tuple[str, int], ...]:
        """The movement modes it has, as (name, metres), in the order fly, swim, climb."""
        return tuple(
            (name, metres)
            for name, metres in (("fly", self.fly), ("swim", self.swim), ("climb", self.climb))
            if metres
        )


@dataclass(frozen=True, slots=True)
class Size:
    """A large creature's footprint, `side` cells square from its Position, the top-left cell
    (R-Z1); a creature without one is size 1."""

    side: int


@dataclass(frozen=True, slots=True)
class Health:
    """Hit points (R-C6)."""

    hp: int
    max_hp: int


@dataclass(frozen=True, slots=True)
class Hands:
    """What the two hands hold (R-C7): item ids, or None for a free hand."""

    held: tuple[str | None, str | None] = (None, None)

    @property
    def free(self) -> int:
        return sum(1 for item in self.held if item is None)

    def holding(self, item: str) -> bool:
        return item in self.held

    def put(self, item: str, hands: int = 1) -> Hands:
        """Hold `item` in the first free hand, or in both for a two-handed weapon."""
        if hands == 2:
            return Hands((item, item))
        left, right = self.held
        return Hands((item, right)) if left is None else Hands((left, item))

    def items(self) -> tuple[str, ...]:
        """Held item ids, each once (a two-handed weapon fills both hands)."""
        return tuple(dict.fromkeys(h for h in self.held if h is not None))

    def take(self, item: str) -> Hands:
        return Hands(tuple(None if held == item else held for held in self.held))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Gear:
    """Worn armour (an item id) and stowed items (item ids) (R-C7)."""

    armour: str | None = None
    carried: tuple[str, ...] = ()

    def without(self, item: str) -> Gear:
        kept = list(self.carried)
        kept.remove(item)
        return replace(self, carried=tuple(kept))

    def with_item(self, item: str) -> Gear:
        return replace(self, carried=(*self.carried, item))


@dataclass(frozen=True, slots=True)
class Item:
    """An item entity: which catalogue entry it is (R-C7)."""

    kind: str


@dataclass(frozen=True, slots=True)
class Budget:
    """Half-actions and Bonus Actions left (R-B2), Free Action kinds used (R-B3), and whether a
    non-free action was taken this turn (R-B3: Full only as the first)."""

    half: int
    bonus: int
    free_used: tuple[str, ...] = ()
    acted: bool = False


@dataclass(frozen=True, slots=True)
class Conditions:
    """Conditions and effects, each with the value its `Condition.holds` says (stacks, turns
    left, a creature, creatures, a cell) (R-K). `has` is a set lookup: rules ask it often."""

    entries: tuple[tuple[Condition, Value], ...] = ()
    _names: frozenset[Condition] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_names", frozenset(key for key, _ in self.entries))

    def has(self, name: Condition) -> bool:
        return name in self._names

    def value(self, name: Condition) -> Value | None:
        if name not in self._names:
            return None
        return next(value for key, value in self.entries if key == name)

    def count(self, name: Condition) -> int:
        """Stacks, turns left, a round or a bonus; 1 for a condition that holds something else,
        0 without it."""
        value = self.value(name)
        if value is None:
            return 0
        return value if isinstance(value, int) else 1

    def creature(self, name: Condition) -> str:
        """The creature a condition names (a grappler, the feinted), "" without it."""
        value = self.value(name)
        return value if isinstance(value, str) else ""

    def creatures(self, name: Condition) -> tuple[str, ...]:
        """The creatures a condition names (who does not see it, whom it assisted)."""
        value = self.value(name)
        return value if isinstance(value, tuple) and not isinstance(value, Pos) else ()

    def cell(self, name: Condition) -> Pos | None:
        """The cell a condition names (the face it hangs on)."""
        value = self.value(name)
        return value if isinstance(value, Pos) else None

    def set(self, name: Condition, value: Value) -> Conditions:
        if not name.fits(value):
            raise TypeError(f"{name} holds a {name.holds.__name__}, not {value!r}")
        kept = tuple((k, v) for k, v in self.entries if k != name)
        return Conditions(tuple(sorted((*kept, (name, value)), key=lambda kv: kv[0])))

    def clear(self, name: Condition) -> Conditions:
        return Conditions(tuple((k, v) for k, v in self.entries if k != name))

    def names(self) -> tuple[Condition, ...]:
        return tuple(key for key, _ in self.entries)


@dataclass(frozen=True, slots=True)
class Repertoire:
    """The spells and abilities a creature knows, by their names in the rules data (R-X20)."""

    names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AttackWindow:
    """Attacks made in the current window; it resets at the start and end of the creature's own
    turn (R-A1)."""

    count: int = 0


@dataclass(frozen=True, slots=True)
class Initiative:
    """The initiative score rolled at the start (R-T1)."""

    score: int


@dataclass(frozen=True, slots=True)
class ExtendedAction:
    """An Extended Action in progress (R-B3, R-B5)."""

    action: str
    item: str
    turns_needed: int
    turns_done: int


@dataclass(frozen=True, slots=True)
class Policy:
    """How a creature answers reaction windows: auto (by the odds, the default), always, ask or
    never, and its preferred defence."""

    reactions: str = "auto"
    defence: str = "best"


@dataclass(frozen=True, slots=True)
class TurnState:
    """Whose turn it is, in which round, in what order (R-T1, R-U5)."""

    order: tuple[str, ...] = ()
    index: int = 0
    round: int = 0
    over: bool = False
    winners: tuple[str, ...] = ()

    @property
    def current(self) -> str | None:
        if not self.order or self.over:
            return None
        return self.order[self.index]
