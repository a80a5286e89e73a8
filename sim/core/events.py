"""What happened: frozen event values that `apply` writes into the world, and their JSON form."""

from __future__ import annotations

import re
from dataclasses import Field, dataclass, field, fields
from types import MappingProxyType
from typing import Any

from sim.core import codec
from sim.core.actions import Action
from sim.core.condition import Condition, Value, written
from sim.core.geometry import Pos
from sim.core.purpose import AttackKind, RollKind

# The metadata of a field for code, not for the log: `to_json` leaves it out, so the event log's
# JSON is what it was before tags existed (sim/core/purpose.py). Such a field is keyword-only and
# has no default, so no rule that makes the event can forget it.
UNLOGGED = MappingProxyType({"logged": False})
# The metadata of a logged field that `to_json` leaves out while it is empty (""): added to an
# event after logs were written, so the events that do not use it log as they always did.
WHEN_SET = MappingProxyType({"logged": True, "when_set": True})


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; `kind` is its name in logs ("turn_started")."""

    @property
    def kind(self) -> str:
        return _snake(type(self).__name__)


@dataclass(frozen=True, slots=True)
class BattleStarted(Event):
    scenario: str
    seed: int | None
    dice: str


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """One die, and what it was for (`purpose` in words, `tag` for code); `total` adds the named
    bonuses."""

    unit: str
    purpose: str
    die: int
    result: int
    bonus: int = 0
    total: int = 0
    tag: RollKind = field(kw_only=True, metadata=UNLOGGED)


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    unit: str
    score: int


@dataclass(frozen=True, slots=True)
class InitiativeOrder(Event):
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    unit: str
    round: int


@dataclass(frozen=True, slots=True)
class BudgetRefilled(Event):
    unit: str
    half: int
    bonus: int


@dataclass(frozen=True, slots=True)
class Spent(Event):
    """An action's cost paid out of the budget (R-B3)."""

    unit: str
    action: str
    tier: str
    half: int
    bonus: int
    free_kind: str | None = None
    counts_as_action: bool = True


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    unit: str
    reason: str


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    unit: str


@dataclass(frozen=True, slots=True)
class ConditionGained(Event):
    """`value`: what the condition holds (`Condition.holds`); the log writes it as
    `condition.written` does (creatures comma-separated, a cell "x,y")."""

    unit: str
    condition: Condition
    value: Value = 1


@dataclass(frozen=True, slots=True)
class ConditionLost(Event):
    unit: str
    condition: Condition
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    """`source` names the damage in words ("ana's longsword", "fall"); `dealer` is the creature
    that dealt it, None for a fall, fire or bleeding."""

    unit: str
    amount: int
    damage_type: str
    source: str
    hp: int
    dealer: str | None = field(kw_only=True, metadata=UNLOGGED)


@dataclass(frozen=True, slots=True)
class Healed(Event):
    unit: str
    amount: int
    source: str
    hp: int


@dataclass(frozen=True, slots=True)
class ItemDrawn(Event):
    unit: str
    item: str
    hands: int = 1


@dataclass(frozen=True, slots=True)
class ItemStowed(Event):
    unit: str
    item: str


@dataclass(frozen=True, slots=True)
class ItemDropped(Event):
    unit: str
    item: str
    at: Pos


@dataclass(frozen=True, slots=True)
class ItemPickedUp(Event):
    unit: str
    item: str
    hands: int = 1


@dataclass(frozen=True, slots=True)
class ItemConsumed(Event):
    unit: str
    item: str


@dataclass(frozen=True, slots=True)
class ExtendedBegun(Event):
    unit: str
    action: str
    item: str
    turns: int


@dataclass(frozen=True, slots=True)
class ExtendedContinued(Event):
    unit: str
    action: str
    turns_done: int
    turns_needed: int


@dataclass(frozen=True, slots=True)
class ExtendedBroken(Event):
    unit: str
    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class ArmourDonned(Event):
    unit: str
    item: str


@dataclass(frozen=True, slots=True)
class ArmourDoffed(Event):
    unit: str
    item: str


@dataclass(frozen=True, slots=True)
class PolicySet(Event):
    unit: str
    reactions: str
    defence: str


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    winners: tuple[str, ...]
    reason: str


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _plain(value: Any) -> Any:
    if isinstance(value, Pos):
        return [value.x, value.y]
    if isinstance(value, Action):
        # An action inside an event (a prepared one): as a script gives it in Prepare's "then".
        return {k: v for k, v in codec.encode(value).items() if k != "unit"}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def logged(kind: type[Event]) -> tuple[Field[Any], ...]:
    """The fields of an event type that its JSON holds, in order: all but its tags for code.

    >>> [f.name for f in logged(Damaged)]
    ['unit', 'amount', 'damage_type', 'source', 'hp']
    """
    return tuple(f for f in fields(kind) if f.metadata.get("logged", True))


def to_json(event: Event) -> dict[str, Any]:
    """An event as a JSON-ready dict whose first key is "type"; its tags for code are left out.

    >>> to_json(TurnStarted("ana", 1))
    {'type': 'turn_started', 'unit': 'ana', 'round': 1}
    """
    out: dict[str, Any] = {"type": event.kind}
    for f in logged(type(event)):
        value = getattr(event, f.name)
        if f.metadata.get("when_set") and value == "":
            continue
        out[f.name] = _plain(value)
    if isinstance(event, ConditionGained):
        out["value"] = written(event.value)
    return out


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """One step of a move, from a cell to its neighbour, and the half-metres it cost."""

    unit: str
    start: Pos
    end: Pos
    cost: int


@dataclass(frozen=True, slots=True)
class Jumped(Event):
    unit: str
    start: Pos
    end: Pos
    cost: int
    grabbed_ledge: bool = False


@dataclass(frozen=True, slots=True)
class Fell(Event):
    unit: str
    at: Pos
    metres: float


@dataclass(frozen=True, slots=True)
class MoveCutShort(Event):
    unit: str
    at: Pos
    reason: str


@dataclass(frozen=True, slots=True)
class Pushed(Event):
    """Forced movement into a neighbouring cell, e.g. by a Shove (R-X15); it never provokes
    (R-R4) and is no Movement Action."""

    unit: str
    start: Pos
    end: Pos
    by: str


@dataclass(frozen=True, slots=True)
class Climbed(Event):
    """A Climb: where the creature is now and how high above that cell's ground it hangs."""

    unit: str
    start: Pos
    end: Pos
    elevation: float
    metres: float


@dataclass(frozen=True, slots=True)
class ReactionAnswered(Event):
    """A reaction window and its answer (`by`: the creature's policy, or its player);
    `reason`: why, in words, when the policy `auto` answered (its JSON has no `reason` else)."""

    unit: str
    window: str
    trigger: str
    options: tuple[str, ...]
    choice: str
    by: str
    reason: str = field(default="", metadata=WHEN_SET)


@dataclass(frozen=True, slots=True)
class AttackCounted(Event):
    """The attacker's n-th attack in its current window (R-A1)."""

    unit: str
    count: int


@dataclass(frozen=True, slots=True)
class AttackWindowReset(Event):
    unit: str


@dataclass(frozen=True, slots=True)
class AttackResolved(Event):
    """Hit Roll against Defense Roll (R-A3): `hit` when the first is greater; `tag`: which
    attack it was."""

    attacker: str
    target: str
    purpose: str
    hit_roll: int
    defense_roll: int
    hit: bool
    tag: AttackKind = field(kw_only=True, metadata=UNLOGGED)


@dataclass(frozen=True, slots=True)
class ActionLost(Event):
    """An action interrupted before it resolved; its cost stays spent (R-R7)."""

    unit: str
    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class AbilityUsed(Event):
    """A spell or an ability takes effect, past any Interrupt (R-X20, R-R7): aimed at `target`
    or the cell `at`, it reaches the creatures `affected` (before any Hit Roll or save)."""

    unit: str
    ability: str
    target: str | None
    at: Pos | None
    affected: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ContestResolved(Event):
    """A contest (R-C4): the acting side wins only with the higher total; `winner` is its id."""

    purpose: str
    acting: str
    acting_total: int
    other: str
    other_total: int
    winner: str
    tag: RollKind = field(kw_only=True, metadata=UNLOGGED)


@dataclass(frozen=True, slots=True)
class CheckResolved(Event):
    """A check or save against a number (R-C4): `success` when `total` reaches `against`."""

    unit: str
    purpose: str
    total: int
    against: float
    success: bool
    tag: RollKind = field(kw_only=True, metadata=UNLOGGED)


@dataclass(frozen=True, slots=True)
class ItemThrown(Event):
    """A thrown or tossed item leaves the hand; it lands in `to` unless it is caught (R-X17,
    R-X18)."""

    unit: str
    item: str
    to: Pos


@dataclass(frozen=True, slots=True)
class ItemCaught(Event):
    """A thrown or tossed item caught in a free hand (R-R6)."""

    unit: str
    item: str


@dataclass(frozen=True, slots=True)
class PlanMade(Event):
    """Skip / Prepare: the creature waits for a trigger (R-P1, R-P2) with its action ready."""

    unit: str
    trigger: str
    metres: float
    cells: tuple[Pos, ...]
    watch: str
    then: Action
    round: int


@dataclass(frozen=True, slots=True)
class PlanTriggered(Event):
    unit: str
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class PlanDropped(Event):
    unit: str
    reason: str


@dataclass(frozen=True, slots=True)
class InitiativeReordered(Event):
    """R-P3: a preparer keeps the place where it acted."""

    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnResumed(Event):
    """R-P3: a preparer takes the rest of its turn, after the triggering creature's."""

    unit: str
    round: int


@dataclass(frozen=True, slots=True)
class PlanRefused(Event):
    """The prepared action could not be taken when its trigger came; the turn goes on."""

    unit: str
    reason: str
