"""The action bar's content (no pygame): every action of the rules, what it costs the acting
creature now after Slow or Quicken, or why it cannot be taken, and the choices it needs: the
item, the spell or ability the creature knows (cast, use), and for Prepare the trigger."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from sim.core import actions as a
from sim.core import geometry
from sim.core.abilities import AREA, CELL, ONE_CREATURE, SELF, Ability
from sim.core.actions import AbilityAction, Action, Assist, Cost, EndTurn, Prepare, Refusal, Swim
from sim.core.components import Gear, Hands, Item, Position
from sim.core.condition import Condition
from sim.core.creature import creatures, has, team_of
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.numbers import Rules, Tier
from sim.core.world import World
from sim.play.decisions import ALL_ACTION_NAMES, FIELDS, DecisionError, parse
from sim.play.engine import AwaitingReaction, Battle, Decision, ReactionChoice
from sim.play.legal import Legal, kinds
from sim.play.rulebook import ACTIONS
from sim.rules.budget import price
from sim.rules.combat.casting import known
from sim.rules.combat.items import item_name, item_names, ordinal
from sim.rules.combat.reactions import expected_defence, reaction_price
from sim.rules.combat.throw import CATCH
from sim.rules.movement.movement import condition_problem
from sim.rules.reach.reachmap import reach_map
from sim.ui.model.planner import DIVE, MOVES, hidden_from
from sim.ui.words.status import say

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


TYPES: dict[str, type[Action]] = ACTIONS  # every action type by its name (the registry's)
# The actions aimed by a spell or an ability, and the JSON field that names it (R-X20).
ABILITY_ACTIONS = {
    name: kind.category for name, kind in ACTIONS.items() if issubclass(kind, AbilityAction)
}
# What a button shows for a cost that depends on the choice made next (a spell, an ability)
# or that is no tier at all (Prepare skips the rest of the turn).
OPEN_LABELS = {**dict.fromkeys(ABILITY_ACTIONS, "…"), Prepare.name: "skip"}
# Every cost a button can show, so the bar can give each the room of the widest.
LABELS = (*SHORT.values(), "free+1B", "1+1B", *OPEN_LABELS.values(), "?")


def base_label(rules: Rules, name: str, slow: bool = False, quicken: bool = False) -> str:
    """The short cost of an action with a whole turn's budget, after the Slow or Quicken
    toggle (R-B3, R-B6): what a button that cannot be taken now shows greyed (its reason comes
    on hover), so the bar shows the same kind of thing in the same place either way.

    >>> from sim.core.numbers import default_rules
    >>> rules = default_rules()
    >>> base_label(rules, "attack"), base_label(rules, "sprint"), base_label(rules, "cast")
    ('½', '1+1B', '…')
    >>> base_label(rules, "attack", slow=True), base_label(rules, "dive")
    ('1', '1')
    """
    if name in OPEN_LABELS:
        return OPEN_LABELS[name]
    kind = TYPES.get("swim" if name == DIVE else name)
    if kind is None:
        return "?"
    tier = kind.tier
    if slow:
        tier = rules.slow[tier]
    elif quicken and tier in rules.quicken:
        tier = rules.quicken[tier]
    bonus = rules.sprint.extra_bonus if kind.extra_bonus else 0
    return SHORT[tier] + (f"+{bonus}B" if bonus else "")


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    ok: bool
    label: str  # the short cost; greyed when refused (the cost it would have)
    words: str  # the cost in words, or the refusal reason ("" until `why` is asked)
    needs: tuple[str, ...]  # "item", "target", "to"; movement actions need "path"
    # Finds the refusal reason when it is first read: most greyed buttons are never hovered,
    # and finding why costs the engine's checks of every plausible target.
    why: Callable[[], str] | None = field(default=None, compare=False, repr=False)

    @property
    def detail(self) -> str:
        """The cost in words, or the refusal reason."""
        if not self.words and self.why is not None:
            object.__setattr__(self, "words", self.why())
        return self.words


ASSIST = Assist.name  # R-X21: needs an ally, then an enemy


# The bar's buttons: every action of the rules, and the dive (a Swim under the surface, R-M8)
# beside the Swim.
BAR_NAMES: tuple[str, ...] = tuple(
    n for name in ALL_ACTION_NAMES for n in ((name, DIVE) if name == Swim.name else (name,))
)


def needs(name: str) -> tuple[str, ...]:
    """What a player chooses for an action: "item", "ability" (a spell or an ability, which
    then says whether it needs a "target" or a cell "to"), "trigger" (Prepare), "target", "to";
    movement actions (and the dive) need a "path"."""
    known = _NEEDS.get(name)
    return known if known is not None else _needs(name)


def _needs(name: str) -> tuple[str, ...]:
    if name in MOVES or name == DIVE:
        return ("path",)
    if name in ABILITY_ACTIONS:
        return ("ability",)
    if name == Prepare.name:
        return ("trigger",)
    if name == a.Disarm.name:
        # R-X5: the weapon is the target's, so it is chosen after the target (`TargetHandler`),
        # and only when the target holds more than one.
        return ("target",)
    fields = FIELDS.get(name, set())
    # An Assist's two creatures are clicked in turn, the ally first (R-X21).
    return tuple(f for f in ("item", "target", "to", "ally", "enemy") if f in fields)


# Each button's, worked out once: the bar asks for every button after every change.
_NEEDS: dict[str, tuple[str, ...]] = {name: _needs(name) for name in BAR_NAMES}


def aim_of(ability: Ability) -> tuple[str, ...]:
    """What a spell or ability is aimed at: nothing (itself), a creature, or a cell."""
    if ability.target == SELF:
        return ()
    if ability.target in ONE_CREATURE:
        return ("target",)
    return ("to",)


def metres(half: int) -> str:
    """Half-metres as metres for a label.

    >>> metres(3), metres(24), metres(-4), metres(2)
    ('1.5', '12', '-2', '1')
    """
    return f"{geometry.metres(half):g}"


def ability_summary(ability: Ability) -> str:
    """A short line: what it is aimed at, how far, and how it is decided.

    >>> from sim.core.abilities import default_abilities
    >>> ability_summary(default_abilities()["firebolt"])
    'an enemy within 12 m; Hit Roll'
    >>> ability_summary(default_abilities()["inferno"])
    'a cell within 16 m, 1.5 m around it; AGI Save'
    """
    target = {
        SELF: "itself",
        "ally": "an ally",
        "enemy": "an enemy",
        "creature": "a creature",
        CELL: "a cell",
        AREA: "a cell",
    }[ability.target]
    where = target if ability.target == SELF else f"{target} within {metres(ability.range_half)} m"
    if ability.target == AREA:
        where += f", {metres(ability.radius_half)} m around it"
    how = "Hit Roll" if ability.attack else (f"{ability.save.upper()} Save" if ability.save else "")
    return f"{where}; {how}" if how else where


def item_choices(battle: Battle, unit: str) -> list[str]:
    """Items the unit could name: held, carried, and lying within a step. Not its worn
    armour: no action takes it by name (Doff takes off whatever is worn, R-B5)."""
    world = battle.world
    out: list[str] = []
    hands = world.get(unit, Hands)
    if hands is not None:
        out += list(hands.items())
    gear = world.get(unit, Gear)
    if gear is not None:
        out += list(gear.carried)
    here = world.need(unit, Position).cell
    for item, pos in world.each(Position):
        if world.has(item, Item) and max(abs(pos.cell.x - here.x), abs(pos.cell.y - here.y)) <= 1:
            out.append(item)
    return list(dict.fromkeys(out))


def item_choice_labels(battle: Battle, unit: str, items: list[str]) -> dict[str, str]:
    """The item list's labels: each item by name ("longsword"); where two share a name, with
    where each is ("dagger, in hand", "dagger, on the ground"), and which one where that is the
    same too ("first dagger, carried")."""
    world = battle.world
    hands = world.get(unit, Hands)
    gear = world.get(unit, Gear)

    def where(item: str) -> str:
        if hands is not None and hands.holding(item):
            return "in hand"
        if gear is not None and item == gear.armour:
            return "worn"
        if gear is not None and item in gear.carried:
            return "carried"
        return "on the ground"

    names = {item: item_name(world, item) for item in items}
    alike = Counter(names.values())
    placed = Counter((names[item], where(item)) for item in items)
    seen: Counter[tuple[str, str]] = Counter()
    labels: dict[str, str] = {}
    for item in items:
        name, place = names[item], where(item)
        if alike[name] == 1:
            labels[item] = name
        elif placed[name, place] == 1:
            labels[item] = f"{name}, {place}"
        else:
            labels[item] = f"{ordinal(seen[name, place])} {name}, {place}"
            seen[name, place] += 1
    return labels


def target_choices(battle: Battle, unit: str, side: str | None) -> list[str]:
    world = battle.world
    return [c for c in creatures(world) if c != unit and not hidden_from(world, c, side)]


@dataclass(frozen=True, slots=True)
class Choice:
    """One line of a chooser (a spell, an ability, a trigger): the value it stands for, its
    words, whether it can be taken now, and its cost or the reason it cannot."""

    value: str
    label: str
    ok: bool
    detail: str


def _ability_fields(
    battle: Battle, unit: str, ability: Ability, side: str | None
) -> list[dict[str, Any]]:
    """Plausible aims for a spell or ability, to judge whether it can be used now."""
    world = battle.world
    aim = aim_of(ability)
    if not aim:
        return [{}]
    seen = [*target_choices(battle, unit, side), unit]
    if aim == ("target",):
        return [{"target": t} for t in seen]
    cells = [world.need(u, Position).cell for u in seen]
    return [{"to": [c.x, c.y]} for c in cells]


def ability_choices(
    battle: Battle,
    unit: str,
    action: str,
    slow: bool,
    quicken: bool,
    side: str | None,
    legal: LegalIndex | None = None,
) -> list[Choice]:
    """The spells (`action` "cast") or abilities ("use") `unit` knows, each open when the core
    lists a decision casting or using it now (`sim.play.legal`), with its cost after the Slow or
    Quicken toggle; else with the reason it cannot be used on any creature in sight."""
    world = battle.world
    kind = ABILITY_ACTIONS[action]
    if legal is None:
        legal = legal_index(battle)
    out = []
    for name in known(world, unit):
        ability = world.catalog.abilities.get(name)
        if ability is None or ability.kind != kind:
            continue
        listed = [
            one
            for one in legal.get(action, [])
            if isinstance(one.decision, a.AbilityAction) and one.decision.ability == name
        ]
        cost = variant(battle, listed, slow, quicken)
        summary = ability_summary(ability)
        words = name.replace("_", " ")
        if isinstance(cost, Cost):
            out.append(
                Choice(
                    name,
                    f"{words}  [{cost_label(cost)}]",
                    True,
                    f"{summary}. {ability.description}",
                )
            )
            continue
        reason = (
            cost.reason
            if isinstance(cost, Refusal)
            else _ability_refusal(battle, unit, action, name, side)
        )
        out.append(
            Choice(name, f"{words}  [{SHORT[ability.tier]}]", False, f"{summary}. Now: {reason}")
        )
    return out


def _ability_refusal(battle: Battle, unit: str, action: str, name: str, side: str | None) -> str:
    """The engine's first reason to refuse a spell or ability at each plausible aim."""
    world = battle.world
    kind = ABILITY_ACTIONS[action]
    ability = world.catalog.abilities[name]
    for fields in _ability_fields(battle, unit, ability, side):
        result = judge(battle, build(unit, action, False, False, **{kind: name}, **fields))
        if isinstance(result, Refusal):
            return result.reason
    return "no creature in sight to aim at"


PREPARE_DISTANCES = (1.5, 3.0, 6.0)
AREA_CHOICE = "area"  # the Prepare trigger whose cells are marked on the board next
AREA_HELP = say("area_help")  # the status line while the area is marked


def unmarkable(world: World, cell: Pos) -> str | None:
    """Why a cell cannot join Prepare's area, or None: nobody can enter a wall."""
    if world.grid.kind(cell) is Kind.WALL:
        return f"{cell} is a wall: nobody can enter it"
    return None


def prepare_triggers(
    battle: Battle, unit: str, side: str | None
) -> list[tuple[Choice, dict[str, Any]]]:
    """The triggers the client offers for Skip / Prepare (R-P2), with their script fields: an
    enemy coming within a distance, any creature entering an area the player marks on the
    board (its "cells" are added once marked), or a creature in sight ending its turn or
    starting an action."""
    world = battle.world
    out: list[tuple[Choice, dict[str, Any]]] = []
    for m in PREPARE_DISTANCES:
        fields: dict[str, Any] = {"trigger": "enemy_within", "metres": m}
        out.append((Choice(f"within:{m:g}", f"an enemy comes within {m:g} m", True, ""), fields))
    out.append(
        (
            Choice(
                AREA_CHOICE,
                "a creature enters an area you mark",
                True,
                "any creature but this one, ally or enemy (R-P2); click cells on the board to "
                "mark them, Enter when done",
            ),
            {"trigger": "enters_area"},
        )
    )
    own = team_of(world, unit)
    others = list(target_choices(battle, unit, side))
    others.sort(key=lambda c: team_of(world, c) == own)  # enemies first
    for other in others:
        out.append(
            (
                Choice(f"ends:{other}", f"{other} ends its turn", True, ""),
                {"trigger": "ends_turn", "watch": other},
            )
        )
    for other in others:
        if team_of(world, other) == own:
            continue  # an ally's action is no threat to wait for
        out.append(
            (
                Choice(f"starts:{other}", f"{other} starts an action", True, ""),
                {"trigger": "starts_action", "watch": other},
            )
        )
    return out


def trigger_words(fields: dict[str, Any]) -> str:
    """
    >>> trigger_words({"trigger": "enemy_within", "metres": 3.0})
    'when an enemy comes within 3 m'
    >>> trigger_words({"trigger": "ends_turn", "watch": "grok"})
    'when grok ends its turn'
    """
    trigger = fields.get("trigger")
    if trigger == "enemy_within":
        return f"when an enemy comes within {float(fields.get('metres', 0)):g} m"
    if trigger == "ends_turn":
        return f"when {fields.get('watch')} ends its turn"
    if trigger == "starts_action":
        return f"when {fields.get('watch')} starts an action"
    if trigger == "enters_area":
        return f"when a creature enters {len(fields.get('cells', []))} marked cell(s)"
    return f"on {trigger}"


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


LegalIndex = dict[str, list[Legal]]


def legal_index(battle: Battle, slowed: bool = True) -> LegalIndex:
    """The core's legal decisions now (`sim.play.legal`, R-B6 variants included) by the bar's
    button that takes them: a Swim under the surface is the dive's (R-M8). Of each action type
    (spell, ability) and of each Movement Action, the first decision with each variant
    (`sim.play.legal.kinds`): a button needs the cost, not every target or cell. `slowed=False`
    leaves the Slow variants out: a bar without the Slow toggle on reads none."""
    out: LegalIndex = {}
    for legal in kinds(battle, slowed=slowed):
        decision = legal.decision
        if not isinstance(decision, Action):
            continue
        name = DIVE if isinstance(decision, Swim) and decision.submerged else decision.name
        out.setdefault(name, []).append(legal)
    return out


def shift_words(slow: bool, quicken: bool) -> str:
    return "Slow" if slow else ("Quicken" if quicken else "")


def variant(
    battle: Battle, listed: list[Legal], slow: bool, quicken: bool
) -> Cost | Refusal | None:
    """What the action costs with the Slow or Quicken toggle (R-B6), from the legal decisions:
    the listed variant's cost; where the variant is not listed but the plain action is, the
    plain cost when the variant costs the same (the core lists a variant only where it changes
    the cost) or the budget's reason it cannot be paid; None when nothing is listed."""
    shifted = [
        legal
        for legal in listed
        if isinstance(legal.decision, Action)
        and (legal.decision.slow, legal.decision.quicken) == (slow, quicken)
        and legal.cost is not None
    ]
    if shifted:
        return min((legal.cost for legal in shifted if legal.cost is not None), key=_cheap)
    plain = [
        legal
        for legal in listed
        if isinstance(legal.decision, Action)
        and not (legal.decision.slow or legal.decision.quicken)
        and legal.cost is not None
    ]
    if not plain:
        return None
    first = plain[0].decision
    assert isinstance(first, Action)
    if isinstance(first, EndTurn):
        return plain[0].cost  # ending the turn is never slowed or quickened: toggles skip it
    priced = battle.priced(replace(first, slow=slow, quicken=quicken))
    if isinstance(priced, Refusal):
        return priced
    cost = plain[0].cost
    assert cost is not None
    return cost


def _cheap(cost: Cost) -> tuple[int, int]:
    return (cost.half, cost.bonus)


def unchanged(listed: list[Legal], slow: bool, quicken: bool) -> bool:
    """Whether the toggle is on but changes nothing for this action (no such variant is
    listed, the plain action is)."""
    if not (slow or quicken):
        return False
    return not any(
        isinstance(legal.decision, Action)
        and (legal.decision.slow, legal.decision.quicken) == (slow, quicken)
        for legal in listed
    )


def entry(
    battle: Battle,
    unit: str,
    name: str,
    slow: bool,
    quicken: bool,
    side: str | None,
    legal: LegalIndex | None = None,
) -> Entry:
    """A button: open when the core lists a decision of this action now (`sim.play.legal`), with
    its cost after the Slow or Quicken toggle; else greyed, with the cost it would have and
    the engine's reason it is refused."""
    need = needs(name)
    rules = battle.world.rules
    if legal is None:
        legal = legal_index(battle)
    listed = legal.get(name, [])
    cost = variant(battle, listed, slow, quicken)
    if isinstance(cost, Refusal):
        return Entry(name, False, base_label(rules, name, slow, quicken), cost.reason, need)
    if cost is None:
        return Entry(
            name,
            False,
            base_label(rules, name, slow, quicken),
            "",
            need,
            lambda: refusal(battle, unit, name, side),
        )
    same = ""
    if unchanged(listed, slow, quicken):
        same = f" ({shift_words(slow, quicken)} does not change its cost)"
    if name in ABILITY_ACTIONS:
        names = ", ".join(
            dict.fromkeys(
                d.ability.replace("_", " ")
                for legal_one in listed
                if isinstance(d := legal_one.decision, a.AbilityAction)
            )
        )
        return Entry(name, True, "…", f"choose from: {names}", need)
    if name == Prepare.name:
        return Entry(
            name,
            True,
            "skip",
            "skip the rest of the turn and hold an action ready for a trigger",
            need,
        )
    words = cost_words(cost) + same
    if name in MOVES or name == DIVE:
        words += "; click a cell to move"
    if name == DIVE:
        words += (
            "; a Swim under the surface, in water at least as deep as you are tall; unseen "
            "and unreachable from outside that water"
        )
    return Entry(name, True, cost_label(cost), words, need)


def refusal(battle: Battle, unit: str, name: str, side: str | None) -> str:
    """Why no decision of action `name` is accepted now, in the engine's words: the first
    refusal met putting plausible ones to `Battle.check` (the core lists only what it
    accepts, not why the rest is refused)."""
    world = battle.world
    if name in MOVES or name == DIVE:
        kind = MOVES["swim" if name == DIVE else name]
        turn = battle.check(EndTurn(unit))
        if isinstance(turn, Refusal):
            return turn.reason
        cost = price(world, kind(unit))
        if isinstance(cost, Refusal):
            return cost.reason
        return (
            condition_problem(world, unit, kind)
            or nowhere(world, unit, name)
            or f"{unit} has nowhere to {name} now"
        )
    if name in ABILITY_ACTIONS:
        listed = ability_choices(battle, unit, name, False, False, side)
        if not listed:
            what = "spells" if ABILITY_ACTIONS[name] == "spell" else "abilities"
            return f"{unit} knows no {what}"
        return f"{listed[0].value.replace('_', ' ')}: {listed[0].detail}"
    if name == Prepare.name:
        others = target_choices(battle, unit, side)
        probe: dict[str, Any] = (
            {"trigger": "ends_turn", "watch": others[0]}
            if others
            else {"trigger": "enemy_within", "metres": 1.5}
        )
        result = judge(battle, build(unit, name, False, False, **probe, then={"action": "aim"}))
    elif name == ASSIST:
        result = assist_verdict(battle, unit, False, False, side)
    else:
        items: list[dict[str, Any]] = [{}]
        if "item" in needs(name):
            items = [{"item": i} for i in item_choices(battle, unit)] or [{"item": "?"}]
        result = _first_fit(battle, unit, name, False, False, side, items)
    if isinstance(result, Refusal):
        return result.reason
    return f"nothing to {name.replace('_', ' ')} in sight now"


def _aims(battle: Battle, unit: str, name: str, side: str | None) -> list[dict[str, Any]]:
    """Plausible targets for an action: each creature in sight, and for a cell the ones
    around the unit and under each creature; a toss takes either."""
    world = battle.world
    need = needs(name)
    targets = target_choices(battle, unit, side)
    here = world.need(unit, Position).cell
    near = [Pos(here.x + dx, here.y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    cells = [c for c in near if world.grid.inside(c)]
    cells += [world.need(t, Position).cell for t in targets]
    aims: list[dict[str, Any]] = []
    if "target" in need:
        aims += [{"target": t} for t in targets or ["?"]]
    if "to" in need:
        aims += [{"to": [c.x, c.y]} for c in cells]
    return aims or [{}]


def _first_fit(
    battle: Battle,
    unit: str,
    name: str,
    slow: bool,
    quicken: bool,
    side: str | None,
    items: list[dict[str, Any]],
) -> Cost | Refusal:
    """The cost of the first way to take the action, or the first refusal met."""
    first: Refusal | None = None
    for base in items:
        for aim in _aims(battle, unit, name, side):
            result = judge(battle, build(unit, name, slow, quicken, **base, **aim))
            if isinstance(result, Cost):
                return result
            first = first or result
    assert first is not None
    return first


def _sides(battle: Battle, unit: str, side: str | None) -> tuple[list[str], list[str]]:
    """The creatures in sight of `unit`'s side: its allies, then its enemies."""
    world = battle.world
    own = team_of(world, unit)
    seen = target_choices(battle, unit, side)
    return [c for c in seen if team_of(world, c) == own], [
        c for c in seen if team_of(world, c) != own
    ]


def assist_verdict(
    battle: Battle,
    unit: str,
    slow: bool,
    quicken: bool,
    side: str | None,
    ally: str | None = None,
) -> Cost | Refusal:
    """Whether `unit` can Assist now (R-X21): the cost of the first ally (or `ally`, when one
    is chosen) and enemy in sight it may name, or the first reason met."""
    allies, foes = _sides(battle, unit, side)
    if ally is not None:
        allies = [ally]
    if not allies:
        return Refusal(f"{unit} has no ally in sight to assist (R-X21)")
    if not foes:
        return Refusal(f"{unit} sees no enemy to assist against (R-X21)")
    first: Refusal | None = None
    for helped in allies:
        for foe in foes:
            result = judge(battle, build(unit, ASSIST, slow, quicken, ally=helped, enemy=foe))
            if isinstance(result, Cost):
                return result
            first = first or result
    assert first is not None
    return first


def item_verdict(
    battle: Battle, unit: str, name: str, item: str, slow: bool, quicken: bool, side: str | None
) -> Cost | Refusal:
    """Whether `unit` can take action `name` with `item` at some target now."""
    return _first_fit(battle, unit, name, slow, quicken, side, [{"item": item}])


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
        holding: bool = False,
    ) -> list[Entry]:
        """`holding`: a Prepare trigger is chosen, so the next action is held ready, not taken;
        every action but Prepare and End turn may be chosen (the engine checks it again when
        the trigger comes)."""
        key = (version, unit, slow, quicken, side, holding)
        if key != self._key:
            self._key = key
            if unit is None:
                self.entries = [
                    Entry(
                        n,
                        False,
                        base_label(battle.world.rules, n),
                        "no creature is acting",
                        needs(n),
                    )
                    for n in BAR_NAMES
                ]
            else:
                legal = legal_index(battle, slowed=slow)
                self.entries = [
                    entry(battle, unit, n, slow, quicken, side, legal) for n in BAR_NAMES
                ]
                if holding:
                    self.entries = [held(e) for e in self.entries]
        return self.entries


# The Movement Actions that need something on the map beside the creature (water, a face):
# the bar offers them only where the reach map finds somewhere they go now.
SITED = {
    "swim": "no water it can swim in within reach now (R-M8)",
    "climb": "no climbable face beside it to climb up or down (R-M7)",
    DIVE: "no water as deep as it is tall within reach now (R-M8)",
}


def nowhere(world: World, unit: str, name: str) -> str:
    """Why a Swim, a Climb or a dive goes nowhere from here now ("" when it goes somewhere),
    so the bar offers it only when the engine would take it somewhere."""
    if name not in SITED:
        return ""
    kind = MOVES["swim" if name == DIVE else name]
    if reach_map(world, unit, (kind,), submerged=name == DIVE):
        return ""
    return f"{unit} has {SITED[name]}"


def held(item: Entry) -> Entry:
    """An entry as an action to hold ready for a Prepare trigger."""
    if item.name in (Prepare.name, EndTurn.name):
        return Entry(item.name, False, item.label, "choose the action to hold ready", item.needs)
    if item.ok:
        return Entry(item.name, True, item.label, f"hold ready: {item.detail}", item.needs)
    return Entry(
        item.name,
        True,
        "?",
        f"hold ready; now refused ({item.detail}), checked again when the trigger comes",
        item.needs,
    )


SLOWED = " slowed"  # a reaction prompt's option taken slowed (R-B7): "dodge slowed"


def prompt_options(battle: Battle) -> list[str]:
    """What the reaction prompt offers: the window's options and "none", then each option
    slowed (R-B7) where its slowed cost can be paid now (on the creature's own turn, from its
    half-actions): "dodge slowed"."""
    pending = battle.pending
    if not isinstance(pending, AwaitingReaction):
        return []
    options = [*pending.options, *([] if "none" in pending.options else ["none"])]
    slowed = [
        option + SLOWED
        for option in pending.options
        if option != "none"
        and battle.check_answer(ReactionChoice(pending.unit, option, slow=True)) is None
    ]
    return options + slowed


def answer_for(pending: AwaitingReaction, option: str) -> ReactionChoice:
    """The decision a prompt's option stands for.

    >>> pending = AwaitingReaction("ana", "bob attacks ana", ("dodge", "none"), "defence")
    >>> answer_for(pending, "dodge slowed")
    ReactionChoice(unit='ana', choice='dodge', slow=True)
    >>> answer_for(pending, "none").slow
    False
    """
    if option.endswith(SLOWED):
        return ReactionChoice(pending.unit, option.removesuffix(SLOWED), slow=True)
    return ReactionChoice(pending.unit, option)


DROPPING = f"{CATCH}, dropping "  # a Catch option that frees a hand: "catch, dropping ITEM"


def option_label(world: World, pending: AwaitingReaction, option: str) -> str:
    """A prompt's option as the player reads it: "catch, dropping the longsword" for the
    decision value "catch, dropping ana.longsword" (which the answer still sends)."""
    base = option.removesuffix(SLOWED)
    if base.startswith(DROPPING):
        hands = world.get(pending.unit, Hands)
        names = item_names(world, list(hands.items()) if hands is not None else [])
        item = base.removeprefix(DROPPING)
        words = f"{DROPPING}the {names[item] if item in names else item_name(world, item)}"
    else:
        words = base.replace("_", " ")
    return words + SLOWED if option.endswith(SLOWED) else words


def prompt_help(world: World, pending: AwaitingReaction, option: str) -> str:
    """What a prompt's option does and costs, in words; a slowed one says its slowed cost."""
    if option.endswith(SLOWED):
        base = option.removesuffix(SLOWED)
        price = reaction_price(world, pending.unit, pending.kind, base, slow=True)
        return (
            f"{option_label(world, pending, base)}, slowed (R-B7): costs {price.words}, keeping "
            "the Bonus Actions"
        )
    return reaction_help(world, pending.unit, option)


def _bonus(n: int) -> str:
    return f"{n} Bonus Action{'s' if n != 1 else ''}"


def reaction_help(world: World, unit: str, option: str) -> str:
    """What answering a reaction window with `option` does and costs, in words."""
    costs = world.rules.reactions
    if option in ("dodge", "parry", "block"):
        stat = {"dodge": "AGI Roll", "parry": "STR or AGI Roll + weapon parry",
                "block": "RES Roll + shield block"}[option]  # fmt: skip
        cost = _bonus(costs.defence_bonus)
        if option != "dodge" and has(world, unit, Condition.GUARDING):
            cost = "paid by Guard"
        mean = expected_defence(world, unit, option)
        return f"Defense Roll + {stat} (about +{mean:.0f}); costs {cost}"
    if option == "attack":
        cost = _bonus(costs.opportunity_bonus)
        return f"an attack of opportunity before it leaves; costs {cost}"
    if option == "interrupt":
        cost = _bonus(costs.interrupt_bonus)
        return f"attack first; on a hit its action is lost; costs {cost}"
    if option.startswith("catch"):
        cost = _bonus(costs.catch_bonus)
        return f"try to catch it; costs {cost}"
    if option == "none":
        return "let it happen; keep the Bonus Actions"
    return ""
