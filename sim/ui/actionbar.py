"""The action bar's content (no pygame): every action of the rules, what it costs the acting
creature now after Slow or Quicken, or why it cannot be taken, and the choices it needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.actions import Cost, EndTurn, Refusal
from sim.budget import price
from sim.components import Gear, Hands, Item, Position
from sim.creature import creatures
from sim.decisions import ALL_ACTION_NAMES, FIELDS, PARSERS, DecisionError, parse
from sim.engine import Battle, Decision
from sim.movement import condition_problem
from sim.rules import Tier
from sim.ui.planner import MOVES, hidden_from

SHORT = {
    Tier.FREE: "free",
    Tier.BONUS: "B",
    Tier.HALF: "½",
    Tier.ONE: "1",
    Tier.ONE_AND_HALF: "1½",
    Tier.FULL: "Full",
    Tier.EXTENDED: "Ext",
}


def cost_label(cost: Cost) -> str:
    """A short cost: the tier, and any Bonus Action it takes on top.

    >>> cost_label(Cost(Tier.HALF, 1, 0)), cost_label(Cost(Tier.FREE, 0, 1, "drop"))
    ('½', 'free+1B')
    """
    label = SHORT[cost.tier]
    if (cost.tier is Tier.FREE and cost.bonus) or (cost.tier is Tier.ONE and cost.bonus):
        label += f"+{cost.bonus}B"
    return label


def cost_words(cost: Cost) -> str:
    parts = []
    if cost.half:
        parts.append(f"{cost.half} half-action{'s' if cost.half != 1 else ''}")
    if cost.bonus:
        parts.append(f"{cost.bonus} Bonus Action{'s' if cost.bonus != 1 else ''}")
    return f"{cost.tier.label}: " + (" and ".join(parts) if parts else "nothing from the budget")


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    ok: bool
    label: str  # the short cost, or "—"
    detail: str  # the cost in words, or the refusal reason
    needs: tuple[str, ...]  # "item", "target", "to"; movement actions need "path"


def needs(name: str) -> tuple[str, ...]:
    if name in MOVES:
        return ("path",)
    fields = FIELDS.get(name, set())
    return tuple(f for f in ("item", "target", "to") if f in fields)


def item_choices(battle: Battle, unit: str) -> list[str]:
    """Items the unit could name: held, carried, and lying within a step."""
    world = battle.world
    out: list[str] = []
    hands = world.get(unit, Hands)
    if hands is not None:
        out += list(hands.items())
    gear = world.get(unit, Gear)
    if gear is not None:
        out += list(gear.carried)
        if gear.armour:
            out.append(gear.armour)
    here = world.need(unit, Position).cell
    for item, pos in world.each(Position):
        if world.has(item, Item) and max(abs(pos.cell.x - here.x), abs(pos.cell.y - here.y)) <= 1:
            out.append(item)
    return list(dict.fromkeys(out))


def target_choices(battle: Battle, unit: str, side: str | None) -> list[str]:
    world = battle.world
    return [c for c in creatures(world) if c != unit and not hidden_from(world, c, side)]


def build(unit: str, name: str, slow: bool, quicken: bool, **fields: Any) -> Decision | str:
    """A decision from its script fields, or why it cannot be made."""
    obj: dict[str, Any] = {"unit": unit, "action": name, **fields}
    if slow:
        obj["slow"] = True
    if quicken:
        obj["quicken"] = True
    try:
        return parse(obj)
    except DecisionError as error:
        return str(error)


def judge(battle: Battle, decision: Decision | str) -> Cost | Refusal:
    if isinstance(decision, str):
        return Refusal(decision)
    return battle.check(decision)  # type: ignore[arg-type]


def entry(
    battle: Battle, unit: str, name: str, slow: bool, quicken: bool, side: str | None
) -> Entry:
    need = needs(name)
    if name not in PARSERS:
        return Entry(
            name, False, "—", f"{name.replace('_', ' ')} is not built yet in this simulator", need
        )
    world = battle.world
    if name in MOVES:
        # A move needs a path: judge the turn, the budget and the conditions without one.
        turn = battle.check(EndTurn(unit))
        if isinstance(turn, Refusal):
            return Entry(name, False, "—", turn.reason, need)
        kind = MOVES[name]
        action = kind(unit, slow=slow, quicken=quicken)
        cost = price(world, action)
        if isinstance(cost, Refusal):
            return Entry(name, False, "—", cost.reason, need)
        problem = condition_problem(world, unit, kind)
        if problem:
            return Entry(name, False, "—", problem, need)
        return Entry(
            name, True, cost_label(cost), cost_words(cost) + "; click a cell to move", need
        )
    choices: list[dict[str, Any]] = [{}]
    if "item" in need:
        choices = [{"item": i} for i in item_choices(battle, unit)] or [{"item": "?"}]
    if "target" in need:
        targets = target_choices(battle, unit, side) or ["?"]
        choices = [{**c, "target": t} for c in choices for t in targets]
    if "to" in need:
        here = world.need(unit, Position).cell
        choices = [{**c, "to": [here.x, here.y]} for c in choices]
    first: Refusal | None = None
    for fields in choices:
        result = judge(battle, build(unit, name, slow, quicken, **fields))
        if isinstance(result, Cost):
            return Entry(name, True, cost_label(result), cost_words(result), need)
        first = first or result
    assert first is not None
    return Entry(name, False, "—", first.reason, need)


class ActionBar:
    """Entries for every action, computed once per state and toggles."""

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self.entries: list[Entry] = []

    def update(
        self,
        battle: Battle,
        version: int,
        unit: str | None,
        slow: bool,
        quicken: bool,
        side: str | None,
    ) -> list[Entry]:
        key = (version, unit, slow, quicken, side)
        if key != self._key:
            self._key = key
            if unit is None:
                self.entries = [
                    Entry(n, False, "—", "no creature is acting", needs(n))
                    for n in ALL_ACTION_NAMES
                ]
            else:
                self.entries = [
                    entry(battle, unit, n, slow, quicken, side) for n in ALL_ACTION_NAMES
                ]
        return self.entries
