"""The input layer's questions (no drawing): what a click on a creature, a cell or an item
would decide for the action being chosen, in decisions and in words. The app turns clicks into
these decisions; the renderer shows the same words in its tips, so what a hover says is what a
click does. Neither imports the other for them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.core.actions import Action, Cost, Refusal
from sim.core.creature import team_of
from sim.core.geometry import Pos
from sim.core.world import World
from sim.play.decisions import to_json
from sim.play.engine import AwaitingAction, AwaitingReaction, Decision
from sim.rules.combat.disarm import weapons
from sim.ui.model.actionbar import (
    ABILITY_ACTIONS,
    ASSIST,
    aim_of,
    assist_verdict,
    build,
    cost_label,
    item_choices,
    item_verdict,
    judge,
    needs,
)
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.status import say


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a click would do: whether it is taken (`ok`), and in words; code asks `ok`, the
    screen shows `words`, so nothing branches on display text."""

    ok: bool
    words: str


def verdict(result: Cost | Refusal) -> Verdict:
    return Verdict(isinstance(result, Cost), verdict_words(result))


def verdict_words(result: Cost | Refusal) -> str:
    return (
        f"refused: {result.reason}"
        if isinstance(result, Refusal)
        else f"costs {cost_label(result)}"
    )


def aim_needs(world: World, view: View) -> tuple[str, ...]:
    """What the action being targeted still needs: "target" (a creature) or "to" (a cell)."""
    name = view.targeting
    if name is None:
        return ()
    if name in ABILITY_ACTIONS:
        ability = world.catalog.abilities.get(view.ability or "")
        return aim_of(ability) if ability is not None else ()
    if name == ASSIST:
        return ("target",)  # the ally, then the enemy: each a creature (R-X21)
    return tuple(n for n in needs(name) if n in ("target", "to"))


def assist_step(view: View) -> str:
    """What the next click of an Assist names (R-X21), in words.

    >>> from sim.ui.model.mode import Targeting
    >>> assist_step(View(mode=Targeting("assist")))
    'the ally to help'
    >>> assist_step(View(mode=Targeting("assist", ally="ana")))
    'the enemy ana is helped against'
    """
    return "the ally to help" if view.ally is None else f"the enemy {view.ally} is helped against"


def chosen_fields(view: View) -> dict[str, Any]:
    """The fields already chosen for the action being targeted (its item, spell or ability)."""
    fields: dict[str, Any] = {}
    if view.item is not None:
        fields["item"] = view.item
    if view.targeting in ABILITY_ACTIONS and view.ability is not None:
        fields[ABILITY_ACTIONS[view.targeting]] = view.ability
    return fields


def held_ready(view: View, decision: Decision | str) -> Decision | str:
    """While a Prepare trigger is chosen, the decision becomes Prepare's "then"."""
    if view.preparing is None or isinstance(decision, str) or not isinstance(decision, Action):
        return decision
    inner = {k: v for k, v in to_json(decision).items() if k != "unit"}
    return build(decision.actor, "prepare", False, False, **view.preparing, then=inner)


def target_verdict(session: Session, view: View, target: str) -> Verdict:
    """What choosing `target` for the action being targeted would do."""
    if view.targeting == ASSIST and view.ally is None and view.selected is not None:
        # R-X21: the first click names the ally; any enemy in sight may follow.
        helped = assist_verdict(
            session.battle, view.selected, view.slow, view.quicken, view.eyes, ally=target
        )
        if isinstance(helped, Refusal):
            world = session.battle.world
            if (
                view.preparing is not None
                and target != view.selected
                and (team_of(world, target) == team_of(world, view.selected))
            ):
                # Held ready, it is checked again when the trigger comes (as other actions).
                return Verdict(
                    True, f"the ally: then click the enemy (held ready; now: {helped.reason})"
                )
            return verdict(helped)
        return Verdict(True, f"the ally: then click the enemy ({cost_label(helped)})")
    decision = target_choice(view, target)
    if decision is None:
        return Verdict(False, "refused: no action is waiting for a target")
    return decision_verdict(session, view, decision)


def decision_verdict(session: Session, view: View, decision: Decision | str) -> Verdict:
    """What committing `decision` would do: its cost, or, while a Prepare trigger is chosen,
    that it is held ready (checked again when the trigger comes)."""
    if view.preparing is not None and not isinstance(decision, str):
        now = judge(session.battle, decision)
        later = judge(session.battle, held_ready(view, decision))
        if isinstance(later, Refusal):
            return verdict(later)
        if isinstance(now, Refusal):
            return Verdict(True, f"held ready (now: {now.reason})")
        return Verdict(True, f"held ready ({cost_label(now)} when it comes)")
    return verdict(judge(session.battle, decision))


def target_choice(view: View, target: str) -> Decision | str | None:
    if view.targeting is None or view.selected is None:
        return None
    if view.targeting == ASSIST:
        if view.ally is None:
            return None  # the ally is chosen first (`TargetHandler.on_cell`)
        return build(view.selected, ASSIST, view.slow, view.quicken, ally=view.ally, enemy=target)
    return build(
        view.selected, view.targeting, view.slow, view.quicken, target=target, **chosen_fields(view)
    )


def cell_choice(view: View, cell: Pos) -> Decision | str | None:
    if view.targeting is None or view.selected is None:
        return None
    return build(
        view.selected,
        view.targeting,
        view.slow,
        view.quicken,
        to=[cell.x, cell.y],
        **chosen_fields(view),
    )


def listed_items(session: Session, view: View) -> list[str]:
    """The item list open over the board: the weapons of a Disarm's target (R-X5), else the
    items the acting creature could name."""
    if view.owner is not None:
        return list(weapons(session.battle.world, view.owner))
    return item_choices(session.battle, view.selected) if view.selected else []


def weapon_choice(view: View, item: str) -> Decision | str | None:
    """A Disarm after `item`, one of the weapons of its target, clicked first (None: the list
    open is not a Disarm's)."""
    if view.owner is None or view.picking is None or view.selected is None:
        return None
    return build(view.selected, view.picking, view.slow, view.quicken, target=view.owner, item=item)


def item_verdict_of(session: Session, view: View, item: str) -> Verdict:
    """What picking `item` from the list would do (a target may be chosen next)."""
    if view.picking is None or view.selected is None:
        return Verdict(False, "refused: no action is waiting for an item")
    side = view.eyes
    chosen = weapon_choice(view, item)
    if chosen is not None:  # a Disarm after one of its target's weapons (R-X5)
        return decision_verdict(session, view, chosen)
    result = item_verdict(
        session.battle, view.selected, view.picking, item, view.slow, view.quicken, side
    )
    if isinstance(result, Refusal):
        return Verdict(False, f"refused: {result.reason}")
    aim = [n for n in needs(view.picking) if n in ("target", "to")]
    then = (
        "; then click a creature or a cell"
        if aim == ["target", "to"]
        else ("; then click a target" if aim else "")
    )
    return Verdict(True, f"costs {cost_label(result)}{then}")


def disengage_first(session: Session, unit: str) -> Decision | str:
    """The Disengage a move toggled "Disengage first" takes before it (R-R5), or why it is
    refused, in words."""
    first = build(unit, "disengage", False, False)
    if isinstance(first, str):
        return say("refused", why=first)
    check = session.battle.check(first)  # type: ignore[arg-type]
    if isinstance(check, Refusal):
        return say("disengage_refused", why=check.reason)
    return first


def acting_unit(session: Session) -> str | None:
    pending = session.battle.pending
    if isinstance(pending, AwaitingAction | AwaitingReaction):
        return pending.unit
    return None


def aim_words(aim: tuple[str, ...]) -> str:
    """
    >>> aim_words(("target",)), aim_words(("to",)), aim_words(("target", "to"))
    ('a creature', 'a cell', 'a creature or a cell')
    """
    if "target" in aim and "to" in aim:
        return "a creature or a cell"
    return "a cell" if "to" in aim else "a creature"
