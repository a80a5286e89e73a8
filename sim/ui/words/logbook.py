"""The combat log in words: every roll says whose it was, the die, and what it was for."""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby

from sim.core import events as ev
from sim.core.actions import Refusal
from sim.core.events import Event, to_json
from sim.ui.words.wording import (
    ItemWords,
    condition_lost_words,
    condition_words,
    id_words,
    reaction_done,
)

# Bookkeeping a player does not need to read (steps are summed up by `move_summary`).
SILENT = (ev.InitiativeRolled, ev.BudgetRefilled, ev.Moved, ev.AttackCounted, ev.AttackWindowReset)


def describe(
    event: Event,
    secret: Callable[[str], bool] | None = None,
    names: ItemWords = id_words,
) -> str | None:
    """One line for the log, or None for bookkeeping a player does not need to read.
    `secret(unit)`: whether the reader must not learn what `unit` prepared (a plan is hidden
    information in hotseat: the other side sees that it holds an action, not what for).
    `names(item)`: an item id in words ("bo.heater" -> "heater shield", `wording.item_words`)."""
    if isinstance(event, SILENT):
        return None
    said = _items(event, names) or _moves(event)
    if said:
        return said
    if isinstance(event, ev.Rolled):
        extra = f" {event.bonus:+d} = {event.total}" if event.bonus else ""
        purpose = event.purpose.replace("_", " ")
        return f"{event.unit} rolls d{event.die} for {purpose}: {event.result}{extra}"
    if isinstance(event, ev.InitiativeOrder):
        return "initiative: " + ", ".join(event.order)
    if isinstance(event, ev.RoundStarted):
        return f"— round {event.round} —"
    if isinstance(event, ev.TurnStarted):
        return f"{event.unit}'s turn"
    if isinstance(event, ev.TurnEnded):
        return f"{event.unit} ends the turn"
    if isinstance(event, ev.Spent):
        paid = []
        if event.half:
            paid.append(f"{event.half} half")
        if event.bonus:
            paid.append(f"{event.bonus} bonus")
        return f"{event.unit}: {event.action.replace('_', ' ')} ({', '.join(paid) or 'free'})"
    if isinstance(event, ev.Damaged):
        return (
            f"{event.unit} takes {event.amount} {event.damage_type} damage "
            f"from {event.source} (HP {event.hp})"
        )
    if isinstance(event, ev.ConditionGained):
        words = condition_words(event.condition, event.value)
        return f"{event.unit}: {words}" if words else None
    if isinstance(event, ev.ConditionLost):
        why = f": {event.reason}" if event.reason else ""
        words = condition_lost_words(event.condition)
        return f"{event.unit} {words}{why}" if words else None
    if isinstance(event, ev.ReactionAnswered):
        if event.reason:  # the policy "auto" says what it did and why
            return f"{event.reason} (auto)"
        # A player's answer, or the AI's (its reason is the line before): no one else to name.
        how = ", by its reaction policy" if event.by == "policy" else ""
        return f"{event.unit} {reaction_done(event.choice, names)}{how}"
    if isinstance(event, ev.AttackResolved):
        verdict = "HIT" if event.hit else "miss"
        return (
            f"{event.attacker}'s {event.purpose} on {event.target}: Hit Roll {event.hit_roll} vs "
            f"Defense {event.defense_roll}: {verdict}"
        )
    if isinstance(event, ev.PolicySet):
        return f"{event.unit}: reactions {event.reactions}, defence {event.defence}"
    if isinstance(event, ev.AbilityUsed):
        verb = "uses"
        aim = f" on {event.target}" if event.target else (f" at {event.at}" if event.at else "")
        hit = ", ".join(event.affected) or "nobody"
        return f"{event.unit} {verb} {event.ability.replace('_', ' ')}{aim} (reaches {hit})"
    if isinstance(event, ev.CheckResolved):
        verdict = "success" if event.success else "failure"
        return f"{event.unit}: {event.purpose} {event.total} vs {event.against:g}: {verdict}"
    if isinstance(event, ev.ContestResolved):
        return (
            f"{event.purpose}: {event.acting} {event.acting_total} vs {event.other} "
            f"{event.other_total}: {event.winner} wins"
        )
    if isinstance(event, ev.Healed):
        return f"{event.unit} heals {event.amount} from {event.source} (HP {event.hp})"
    if isinstance(event, ev.TurnResumed):
        return f"{event.unit} takes the rest of its turn"
    if isinstance(event, ev.PlanRefused):
        return f"{event.unit}'s prepared action cannot be taken: {event.reason}"
    if isinstance(event, ev.PlanMade):
        if secret is not None and secret(event.unit):
            return f"{event.unit} holds an action ready (what for is hidden)"
        then = str(getattr(event.then, "name", "act")).replace("_", " ")
        target = getattr(event.then, "target", "") or getattr(event.then, "ability", "")
        trigger = {
            "enemy_within": f"an enemy comes within {event.metres:g} m",
            "ends_turn": f"{event.watch} ends its turn",
            "starts_action": f"{event.watch} starts an action",
            "enters_area": "a creature enters the marked cells",
        }.get(event.trigger, event.trigger)
        aim = f" {target}" if target else ""
        return f"{event.unit} prepares to {then}{aim} when {trigger}"
    if isinstance(event, ev.PlanTriggered):
        return f"{event.unit}'s prepared action goes off: {event.reason}"
    if isinstance(event, ev.BattleStarted):
        return f"{event.scenario} begins ({event.dice})"
    if isinstance(event, ev.BattleEnded):
        return f"battle over: {', '.join(event.winners) or 'nobody'} wins: {event.reason}"
    data = to_json(event)
    kind = str(data.pop("type")).replace("_", " ")
    unit = data.pop("unit", None)
    fields = ", ".join(f"{k} {v}" for k, v in data.items() if v not in (None, "", [], ()))
    head = f"{unit}: {kind}" if unit else kind
    return f"{head} ({fields})" if fields else head


def _items(event: Event, names: ItemWords) -> str | None:
    """The lines of events about items, with the items by name."""
    match event:
        case ev.ItemDrawn(unit=unit, item=item):
            return f"{unit} draws the {names(item)}"
        case ev.ItemStowed(unit=unit, item=item):
            return f"{unit} stows the {names(item)}"
        case ev.ItemDropped(unit=unit, item=item, at=at):
            return f"{unit} drops the {names(item)} at {at}"
        case ev.ItemPickedUp(unit=unit, item=item):
            return f"{unit} picks up the {names(item)}"
        case ev.ItemConsumed(unit=unit, item=item):
            return f"{unit} consumes the {names(item)}"
        case ev.ArmourDonned(unit=unit, item=item):
            return f"{unit} puts on the {names(item)}"
        case ev.ArmourDoffed(unit=unit, item=item):
            return f"{unit} takes off the {names(item)}"
        case ev.ItemThrown(unit=unit, item=item, to=to):
            return f"{unit} throws the {names(item)} to {to}"
        case ev.ItemCaught(unit=unit, item=item):
            return f"{unit} catches the {names(item)}"
        case ev.ExtendedBegun(unit=unit, action=action, item=item, turns=turns):
            what = f"{action} the {names(item)}" if item else action
            return f"{unit} begins to {what} ({turns} turns)"
    return None


def _moves(event: Event) -> str | None:
    """The lines of moves other than steps (jumps, falls, pushes, climbs) and lost actions."""
    match event:
        case ev.Jumped(unit=unit, start=start, end=end, cost=cost, grabbed_ledge=grabbed):
            grab = ", grabbing the ledge" if grabbed else ""
            return f"{unit} jumps {start} -> {end} ({cost / 2:g} m){grab}"
        case ev.Fell(unit=unit, at=at, metres=metres):
            return f"{unit} falls {metres:g} m at {at}"
        case ev.MoveCutShort(unit=unit, at=at, reason=reason):
            return f"{unit} stops at {at}: {reason}"
        case ev.Pushed(unit=unit, start=start, end=end, by=by):
            return f"{unit} is pushed {start} -> {end} by {by}"
        case ev.Climbed(unit=unit, start=start, end=end, elevation=up, metres=metres):
            if up:
                return f"{unit} climbs {metres:g} m and hangs {up:g} m up at {end}"
            return f"{unit} climbs {metres:g} m, {start} -> {end}"
        case ev.ActionLost(unit=unit, action=action, reason=reason):
            return f"{unit} loses the {action.replace('_', ' ')}: {reason}"
        case ev.TurnSkipped(unit=unit, reason=reason):
            return f"{unit}'s turn is skipped: {reason}"
        case ev.ExtendedContinued(unit=unit, action=action, turns_done=done, turns_needed=need):
            return f"{unit} goes on: {action.replace('_', ' ')}, turn {done} of {need}"
        case ev.ExtendedBroken(unit=unit, action=action, reason=reason):
            return f"{unit}'s {action.replace('_', ' ')} is broken off: {reason}"
        case ev.PlanDropped(unit=unit, reason=reason):
            return f"{unit}'s prepared action is dropped: {reason}"
        case ev.InitiativeReordered(order=order):
            return "initiative now: " + ", ".join(order)
    return None


def move_summary(events: tuple[Event, ...]) -> str | None:
    """One line for a whole move instead of one per step."""
    steps = [e for e in events if isinstance(e, ev.Moved)]
    if not steps:
        return None
    metres = sum(e.cost for e in steps) / 2
    return f"{steps[0].unit} moves {steps[0].start} -> {steps[-1].end} ({metres:g} m)"


def lines(
    events: tuple[Event, ...] | list[Event],
    secret: Callable[[str], bool] | None = None,
    names: ItemWords = id_words,
) -> list[str]:
    """The log lines of some events; a run of steps by one creature becomes one line. `secret`
    hides plans from the reader and `names` names items, as in `describe`."""
    out: list[str] = []
    for mover, run in groupby(events, key=lambda e: e.unit if isinstance(e, ev.Moved) else None):
        if mover is None:
            out += [text for e in run if (text := describe(e, secret, names))]
        else:
            summary = move_summary(tuple(run))
            if summary:
                out.append(summary)
    return out


def refused(result: Refusal) -> str:
    return f"refused: {result.reason}"
