"""What a typed command decides (no drawing): `walk 3,2` a move along the path the window's
hover would show, `attack grok` the decision the window's click would make, `dodge` a reaction
prompt's option; names of creatures, items, spells and triggers resolved as the window's lists
show them; and what Tab completes at each word."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sim.ai.levels import LEVELS
from sim.core.creature import creatures, team_of
from sim.core.geometry import Pos
from sim.core.world import World
from sim.play.engine import DEFENCES, REACTION_POLICIES, AwaitingReaction, Decision
from sim.rules.combat.casting import known
from sim.rules.combat.disarm import weapons
from sim.rules.combat.items import item_name
from sim.ui.model.actionbar import (
    ABILITY_ACTIONS,
    AREA_CHOICE,
    ASSIST,
    BAR_NAMES,
    aim_of,
    build,
    item_choices,
    needs,
    prepare_triggers,
)
from sim.ui.model.intent import held_ready
from sim.ui.model.planner import DIVE, MOVES, visible
from sim.ui.model.scene import Scene
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.text.board import letters

CELL = re.compile(r"^\(?\s*(-?\d{1,4})\s*,\s*(-?\d{1,4})\s*\)?$")
GO = "go"  # a move by the cheapest Movement Action, as a click on a cell of the reach map
VIA = "via"  # waypoints: `walk 5,5 via 3,2 4,4`
THEN = "then"  # Prepare's action: `prepare within:3 then attack grok`
MOVE_NAMES = (*MOVES, DIVE)
ACTIONS = tuple(n for n in BAR_NAMES if n != "end_turn")
ALIASES = {"end": "end_turn", "move": GO}

# The client's own commands (not decisions), with what they do, for `help`.
COMMANDS: dict[str, str] = {
    "help": "help [COMMAND]: the commands, or one command in full",
    "board": "board: the board, the creatures and the overlays again",
    "look": "look X,Y | look CREATURE: what a click there would do (a path and where it "
    "provokes, or an attack and its odds), drawn on the board",
    "odds": "odds ACTION CREATURE: the chance of an aimed action (attack, trip, shove, "
    "grapple, disarm, feint)",
    "actions": "actions: every action of the rules, with its cost now or why it is refused",
    "info": "info [CREATURE]: a creature's hit points, budget, conditions, gear and policy",
    "log": "log [N]: the last N lines of the battle's log (default 20)",
    "reach": "reach [on|off]: the selected creature's reach map (letters: the cheapest action)",
    "threat": "threat [on|off|TEAM...]: how many enemies can attack in each cell",
    "own": "own [on|off]: the cells the selected creature can attack in (+)",
    "slow": "slow [on|off]: the next action slowed (R-B6)",
    "quicken": "quicken [on|off]: the next action quickened (R-B6)",
    "disengage": "disengage [on|off]: the next move Disengages first (R-R5)",
    "select": "select CREATURE: show its reach and details",
    GO: "go X,Y [via X,Y ...]: move there by the cheapest Movement Action (as a click)",
    "end": "end: end the acting creature's turn",
    "reactions": "reactions ask|auto: your side's reaction windows asked of you, or answered "
    "by the odds",
    "policy": "policy CREATURE [REACTIONS] [DEFENCE]: one creature's reaction policy "
    "(auto, ask, always, never) and defence (best, dodge, parry, block, none)",
    "undo": "undo [turn]: take back the last decision (or the turn); never a dice roll",
    "save": "save [FILE]: save the game (default: the scenario's quick save)",
    "load": "load [FILE]: load a save (default: the quick save); never takes back a roll",
    "ai": "ai [LEVEL] | ai off TEAM: hand your side to the AI, or take a side back",
    "again": "again: after the battle, the same scenario with the next seed",
    "colour": "colour [on|off]: colours repeating the board's letters",
    "quit": "quit: autosave and leave",
}
SWITCHES = ("on", "off")


def cell(token: str) -> Pos | None:
    """A cell written `3,2` or `(3,2)`.

    >>> cell("3,2"), cell("(10, 4)"), cell("3.2")
    (Pos(x=3, y=2), Pos(x=10, y=4), None)
    """
    found = CELL.match(token)
    return Pos(int(found.group(1)), int(found.group(2))) if found else None


def spoken(name: str) -> str:
    """A name as typed: lower case, spaces for underscores."""
    return " ".join(name.lower().replace("_", " ").split())


def creature(world: World, side: str | None, token: str) -> str | None:
    """The creature `side` sees that `token` names: its id, or its letter on the board."""
    seen = visible(world, side)
    for unit in seen:
        if unit.lower() == token.lower():
            return unit
    if len(token) == 1:
        marks = letters(world)
        return next((u for u in seen if marks[u] == token.upper()), None)
    return None


def item(world: World, choices: Sequence[str], token: str) -> str | None:
    """The item of `choices` that `token` names: its id, else the first of that name (the
    lists' order: in hand, carried, on the ground)."""
    for one in choices:
        if one.lower() == token.lower():
            return one
    return next((one for one in choices if spoken(item_name(world, one)) == spoken(token)), None)


def option(scene: Scene, session: Session, line: str) -> str | None:
    """The reaction prompt's option a line names: its number, its value or its words."""
    rows = scene.reaction(session)
    text = spoken(line)
    if text.isdigit() and 1 <= int(text) <= len(rows):
        return rows[int(text) - 1][0]
    for value, label, _ in rows:
        if text in (spoken(value), spoken(label)):
            return value
    return None


def move_target(view: View, args: Sequence[str]) -> str:
    """Set the hover and the waypoints a move command names (`X,Y [via X,Y ...]`); "" when
    they are good, else what is wrong."""
    if not args:
        return "give the cell to move to, e.g. 3,2"
    end = cell(args[0])
    if end is None:
        return f"{args[0]!r} is not a cell; write it x,y, e.g. 3,2"
    stops: list[Pos] = []
    rest = list(args[1:])
    if rest and rest[0] == VIA:
        for token in rest[1:]:
            stop = cell(token)
            if stop is None:
                return f"{token!r} is not a cell; write waypoints x,y, e.g. via 3,2 4,4"
            stops.append(stop)
    elif rest:
        return f"after the cell only `via` and waypoints may follow, not {rest[0]!r}"
    view.hover = end
    view.waypoints = stops
    return ""


def action_decision(
    session: Session, view: View, unit: str, name: str, args: Sequence[str]
) -> Decision | str:
    """The decision `name ARGS` makes for `unit` (not a move), with the Slow and Quicken
    toggles as the window's bar applies them; or what is wrong with the command."""
    world = session.battle.world
    side = view.eyes
    need = needs(name)
    shifted = name != "end_turn"  # ending the turn is never slowed or quickened (R-B6)
    slow, quicken = view.slow and shifted, view.quicken and shifted
    fields: dict[str, Any] = {}
    rest = list(args)
    if "trigger" in need:
        return _prepare(session, view, unit, rest)
    if "ability" in need:
        if not rest:
            what = ABILITY_ACTIONS[name]
            article = "an" if what[0] in "aeiou" else "a"
            return f"{name} needs {article} {what}: {_known(world, unit, name)}"
        chosen = next((a for a in known(world, unit) if spoken(a) == spoken(rest[0])), None)
        ability = world.catalog.abilities.get(chosen or "")
        if chosen is None or ability is None or ability.kind != ABILITY_ACTIONS[name]:
            return (
                f"{unit} knows no {ABILITY_ACTIONS[name]} {rest[0]!r}: {_known(world, unit, name)}"
            )
        fields[ABILITY_ACTIONS[name]] = chosen
        rest = rest[1:]
        need = aim_of(ability)
    if name == ASSIST:
        if len(rest) != 2:
            return "assist needs the ally, then the enemy: assist ana grok (R-X21)"
        ally, enemy = (creature(world, side, t) for t in rest)
        if ally is None or enemy is None:
            return f"no creature in sight called {rest[0] if ally is None else rest[1]!r}"
        return build(unit, name, slow, quicken, ally=ally, enemy=enemy)
    items = list(item_choices(session.battle, unit))
    for token in rest:
        where = cell(token)
        who = creature(world, side, token)
        if where is not None and "to" in need and "to" not in fields:
            fields["to"] = [where.x, where.y]
        elif who is not None and "target" in need and "target" not in fields:
            fields["target"] = who
        elif name == "disarm" and "target" in fields and "item" not in fields:
            held = weapons(world, fields["target"])
            found = item(world, held, token)
            if found is None:
                return f"{fields['target']} holds no weapon {token!r}"
            fields["item"] = found
        elif "item" in need and "item" not in fields and item(world, items, token) is not None:
            fields["item"] = item(world, items, token)
        else:
            return f"{name}: {token!r} is not {_wanted(need)}"
    if name == "disarm" and "target" in fields and "item" not in fields:
        held = weapons(world, fields["target"])
        if len(held) > 1:  # R-X5: which of its weapons, when it holds several
            return f"disarm {fields['target']}: which weapon? " + ", ".join(held)
        if held:
            fields["item"] = held[0]
    missing = [n for n in need if n in ("item", "target", "to") and n not in fields]
    if missing and not (set(need) >= {"target", "to"} and ("target" in fields or "to" in fields)):
        return f"{name} needs {_wanted(tuple(missing))}"
    return build(unit, name, slow, quicken, **fields)


def _prepare(session: Session, view: View, unit: str, args: list[str]) -> Decision | str:
    """`prepare TRIGGER [CELLS] then ACTION ...` (R-P2): the trigger as the window's list names
    it (within:1.5, within:3, within:6, area X,Y ..., ends:CREATURE, starts:CREATURE)."""
    usage = (
        "prepare TRIGGER then ACTION ...: triggers "
        + ", ".join(_triggers(session, view, unit))
        + " (area takes the cells: area 3,2 3,3 then ...)"
    )
    if THEN not in args or args.index(THEN) == 0:
        return usage
    at = args.index(THEN)
    head, action = args[:at], args[at + 1 :]
    fields: dict[str, Any] | None = None
    for choice, found in prepare_triggers(session.battle, unit, view.eyes):
        if choice.value == head[0]:
            fields = dict(found)
    if fields is None:
        return f"no trigger {head[0]!r}; {usage}"
    if head[0] == AREA_CHOICE:
        cells = [cell(t) for t in head[1:]]
        if not cells or None in cells:
            return "area takes the cells to watch: prepare area 3,2 3,3 then attack"
        marked = sorted({c for c in cells if c is not None}, key=lambda c: (c.y, c.x))
        fields["cells"] = [[c.x, c.y] for c in marked]
    elif len(head) > 1:
        return f"{head[0]} takes nothing more before `then`; {usage}"
    if not action:
        return "after `then`, the action to hold ready, e.g. then attack grok"
    name = ALIASES.get(action[0], action[0])
    if name in ("prepare", "end_turn", GO, *MOVE_NAMES):
        return "hold ready an action that is not a move, Prepare or End turn"
    if name not in ACTIONS:
        return f"unknown action {action[0]!r}"
    inner = action_decision(session, view, unit, name, action[1:])
    if isinstance(inner, str):
        return inner
    kept = view.preparing
    view.preparing = fields
    try:
        return held_ready(view, inner)
    finally:
        view.preparing = kept


def _triggers(session: Session, view: View, unit: str) -> list[str]:
    return [c.value for c, _ in prepare_triggers(session.battle, unit, view.eyes)]


def _known(world: World, unit: str, name: str) -> str:
    kind = ABILITY_ACTIONS[name]
    names = [a for a in known(world, unit) if world.catalog.abilities[a].kind == kind]
    return "knows " + ", ".join(names) if names else f"{unit} knows none"


def _wanted(need: Sequence[str]) -> str:
    words = {"target": "a creature in sight", "to": "a cell x,y", "item": "an item it can name"}
    return " or ".join(words[n] for n in need if n in words) or "needed"


# --- completion --------------------------------------------------------------------------------


def first_words(session: Session) -> list[str]:
    """What the first word may be now: the commands, the actions, a prompt's options."""
    words = [*COMMANDS, *ACTIONS, *ALIASES]
    if isinstance(session.battle.pending, AwaitingReaction):
        words += [value for value in _option_words(session)]
    return sorted(dict.fromkeys(words))


def _option_words(session: Session) -> list[str]:
    pending = session.battle.pending
    if not isinstance(pending, AwaitingReaction):
        return []
    return [o.replace(" ", "_") for o in (*pending.options, "none") if "," not in o]


def completions(
    session: Session, view: View, scene: Scene, unit: str | None, words: Sequence[str]
) -> list[str]:
    """What may come next after `words` (the line's words before the one being typed)."""
    world = session.battle.world
    if not words:
        return first_words(session)
    head = ALIASES.get(words[0], words[0])
    seen = list(visible(world, view.eyes))
    cells = [f"{p.x},{p.y}" for p in scene.reach_cells(session, view)]
    if head in ("help",):
        return list(COMMANDS) + list(ACTIONS)
    if head in ("reach", "own", "slow", "quicken", "disengage", "colour"):
        return list(SWITCHES)
    if head == "threat":
        return [*SWITCHES, *dict.fromkeys(_teams(world))]
    if head in ("info", "select", "look"):
        return seen + (cells if head == "look" else [])
    if head == "odds":
        return list(ACTIONS) if len(words) == 1 else seen
    if head == "undo":
        return ["turn"]
    if head == "reactions":
        return ["ask", "auto"]
    if head == "policy":
        return seen if len(words) == 1 else [*REACTION_POLICIES, *DEFENCES]
    if head == "ai":
        return [*LEVELS, "off"] if len(words) == 1 else list(dict.fromkeys(_teams(world)))
    if head in (GO, *MOVE_NAMES):
        return [*cells, VIA] if len(words) >= 2 else cells
    if head == "prepare" and unit is not None:
        if THEN in words:
            after = list(words[words.index(THEN) + 1 :])
            return completions(session, view, scene, unit, after) if after else list(ACTIONS)
        return [*_triggers(session, view, unit), THEN] if len(words) == 1 else [THEN]
    if head in ACTIONS and unit is not None:
        need = needs(head)
        out: list[str] = []
        if "ability" in need and len(words) == 1:
            kind = ABILITY_ACTIONS[head]
            return [a for a in known(world, unit) if world.catalog.abilities[a].kind == kind]
        if "target" in need or "ability" in need or head == ASSIST:
            out += [u for u in seen if u != unit]
        if "item" in need:
            out += list(item_choices(session.battle, unit))
        if head == "disarm" and len(words) == 2:
            who = creature(world, view.eyes, words[1])
            out = list(weapons(world, who)) if who else []
        return out
    return []


def _teams(world: World) -> list[str]:
    return [team_of(world, u) for u in creatures(world)]
