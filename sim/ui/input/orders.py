"""What the player's choices decide, whichever way they were made (a key, the action bar, a
list's line): an action chosen, its spell, ability, trigger or item, a reaction's answer, and
the decision committed, or held ready while a Prepare trigger is chosen."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sim.core.actions import Refusal
from sim.core.events import Event
from sim.core.geometry import Pos
from sim.play.engine import Accepted, AwaitingReaction, Decision, Outcome
from sim.rules.reach.opportunity import Provocation
from sim.ui.model.actionbar import (
    ABILITY_ACTIONS,
    AREA_CHOICE,
    Choice,
    ability_choices,
    aim_of,
    answer_for,
    build,
    needs,
    prepare_triggers,
    trigger_words,
)
from sim.ui.model.intent import held_ready, listed_items, weapon_choice
from sim.ui.model.markers import summary
from sim.ui.model.mode import Choosing, Free, Marking, Picking, Targeting
from sim.ui.model.planner import DIVE, MOVES
from sim.ui.model.risk import warning
from sim.ui.model.scene import plan_secret
from sim.ui.model.view import Confirm
from sim.ui.words.logbook import lines
from sim.ui.words.status import say
from sim.ui.words.wording import item_words

if TYPE_CHECKING:
    from sim.ui.input.app import App


def confirmed(
    app: App,
    decision: Decision,
    cell: Pos | None = None,
    provocations: Iterable[Provocation] | None = None,
) -> bool:
    """Whether `decision` may be submitted now. One whose result rolls dice no undo takes back
    (a Sprint, a move a foe may attack), or an attack that can deal no damage, waits for a
    second click on `cell` (or Enter), and the status line says why (sim/ui/model/risk.py)."""
    view = app.view
    held = view.confirm
    if held is not None and held.decision == decision:
        view.confirm = None
        return True
    why = warning(app.world, decision, provocations)
    if not why:
        view.confirm = None
        return True
    view.confirm = Confirm(decision, why, cell)
    view.status = say("confirm", what=why)
    return False


def commit(app: App, decision: Decision, cell: Pos | None = None) -> Outcome | None:
    """Submit a decision the player made; while a Prepare trigger is chosen, hold it ready
    instead (Prepare's "then"). None when it waits for a second click on `cell` first
    (`confirmed`)."""
    wrapped = held_ready(app.view, decision)
    if isinstance(wrapped, str):
        app.view.refuse(say("refused", why=wrapped))
        return Refusal(wrapped)
    if wrapped is decision and not confirmed(app, decision, cell):
        return None  # a held-ready action rolls nothing now
    result = app.submit(wrapped)
    if wrapped is not decision and not isinstance(result, Refusal):
        app.view.preparing = None
    return result


def choose_action(app: App, name: str) -> None:
    """An action of the bar (or its key): taken at once, or the mode that asks what it needs."""
    view = app.view
    unit = app.acting()
    if unit is None:
        view.status = say("not_your_turn")
        return
    view.selected = unit
    if view.marking is not None:
        view.status = say("area_help")
        return
    entry = next((e for e in app.scene.entries(app.session, view) if e.name == name), None)
    need = needs(name)
    if view.preparing is not None and name in ("prepare", "end_turn"):
        view.status = say("prepare_choose")
        return
    # A struck-through button says why and changes nothing (a Movement Action's click-a-cell
    # mode included); one already chosen may still be toggled off.
    if entry is not None and not entry.ok and view.move_only != name:
        view.refuse(say("action_refused", action=name.replace("_", " "), why=entry.detail))
        return
    if name in MOVES or name == DIVE:
        view.move_only = None if view.move_only == name else name
        view.waypoints.clear()
        view.status = say("move_chosen", action=name) if view.move_only else say("any_move")
        return
    preparing = view.preparing
    if "ability" in need or "trigger" in need:
        view.clear_plan()
        view.preparing = preparing
        view.mode = Choosing(name)
        return
    if "item" in need:
        view.mode = Picking(name)
        return
    if "target" in need or "to" in need or "ally" in need:
        view.mode = Free() if view.targeting == name else Targeting(name)
        return
    # Ending the turn is never slowed or quickened (R-B6): the toggles leave it alone.
    shifted = name != "end_turn"
    decision = build(unit, name, view.slow and shifted, view.quicken and shifted)
    if isinstance(decision, str):
        view.refuse(say("refused", why=decision))
        return
    commit(app, decision)


def choices(app: App) -> list[Choice]:
    """The lines of the chooser that is open (spells, abilities or Prepare's triggers)."""
    view = app.view
    unit = app.acting()
    if view.choosing is None or unit is None:
        return []
    side = view.eyes
    battle = app.session.battle
    if view.choosing == "prepare":
        return [choice for choice, _ in prepare_triggers(battle, unit, side)]
    return ability_choices(battle, unit, view.choosing, view.slow, view.quicken, side)


def listed(app: App) -> list[str]:
    """The values of the list open over the board (the menu, items, spells, triggers), in
    order."""
    view = app.view
    if view.menu is not None:
        return [line.value for line in app.menu.lines()]
    if view.picking:
        return listed_items(app.session, view)
    if view.choosing:
        return [c.value for c in choices(app)]
    return []


def choose(app: App, value: str) -> None:
    """A line of the open chooser was picked."""
    view = app.view
    name = view.choosing
    unit = app.acting()
    if name is None or unit is None:
        return
    if name == "prepare":
        side = view.eyes
        for choice, fields in prepare_triggers(app.session.battle, unit, side):
            if choice.value == AREA_CHOICE:
                if value == AREA_CHOICE:
                    view.mode = Marking()
                    view.status = say("area_help")
                    return
            elif choice.value == value:
                view.mode = Free()
                view.preparing = fields
                view.status = say("prepare_trigger", trigger=trigger_words(fields))
                return
        return
    chosen = next((c for c in choices(app) if c.value == value), None)
    if chosen is None:
        return
    if not chosen.ok and view.preparing is None:
        view.status = say("action_refused", action=value, why=chosen.detail)
        return
    ability = app.world.catalog.abilities[value]
    view.mode = Free()
    if not aim_of(ability):
        decision = build(unit, name, view.slow, view.quicken, **{ABILITY_ACTIONS[name]: value})
        if isinstance(decision, str):
            view.refuse(say("refused", why=decision))
        else:
            commit(app, decision)
        return
    view.mode = Targeting(name, ability=value)
    what = "a creature" if aim_of(ability) == ("target",) else "a cell"
    view.status = say("click_target", action=f"{name} {value}", what=what)


def pick_item(app: App, item: str) -> None:
    """A line of the open item list was picked."""
    view = app.view
    name = view.picking
    if name is None or view.selected is None:
        return
    chosen = weapon_choice(view, item)  # a Disarm's target was clicked first (R-X5)
    view.mode = Free()
    if chosen is not None:
        decision = chosen
    elif "target" in needs(name):
        view.mode = Targeting(name, item=item)
        return
    else:
        decision = build(view.selected, name, view.slow, view.quicken, item=item)
    if isinstance(decision, str):
        view.refuse(say("refused", why=decision))
    else:
        commit(app, decision)


def answer(app: App, option: str) -> None:
    """A prompt's option: one of the window's, or one slowed ("dodge slowed", R-B7). When the
    screen then goes to another side, the side that answered first sees what its answer did
    (the view's aftermath, a short panel over its board), then hands the screen over."""
    pending = app.session.battle.pending
    if not isinstance(pending, AwaitingReaction):
        return
    side = app.view.side
    result = app.submit(answer_for(pending, option))
    view = app.view
    if isinstance(result, Accepted) and view.handover is not None and view.handover != side:
        view.aftermath = aftermath(app, result.events)


def aftermath(app: App, events: tuple[Event, ...]) -> list[str]:
    """What an answer to a reaction prompt did, as the side that answered may read it: the
    result in a line, then the log's lines of it (the last AFTERMATH_LINES)."""
    world = app.world
    said = lines(events, plan_secret(world, app.view), item_words(world))
    head = summary(events, world)
    return ([head] if head else []) + said[-AFTERMATH_LINES:]


AFTERMATH_LINES = 8  # the log lines the panel after a reaction shows, at most
