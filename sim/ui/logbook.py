"""The combat log in words: every roll says whose it was, the die, and what it was for."""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby

from sim import events as ev
from sim.actions import Refusal
from sim.events import Event, to_json

# Bookkeeping a player does not need to read (steps are summed up by `move_summary`).
SILENT = (ev.InitiativeRolled, ev.BudgetRefilled, ev.Moved, ev.AttackCounted, ev.AttackWindowReset)


def describe(event: Event, secret: Callable[[str], bool] | None = None) -> str | None:
    """One line for the log, or None for bookkeeping a player does not need to read.
    `secret(unit)`: whether the reader must not learn what `unit` prepared (a plan is hidden
    information in hotseat: the other side sees that it holds an action, not what for)."""
    if isinstance(event, SILENT):
        return None
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
        value = f" ({event.value})" if event.value not in (1, "") else ""
        return f"{event.unit} is {event.condition}{value}"
    if isinstance(event, ev.ConditionLost):
        why = f": {event.reason}" if event.reason else ""
        return f"{event.unit} is no longer {event.condition}{why}"
    if isinstance(event, ev.ReactionAnswered):
        how = "its policy" if event.by == "policy" else "its player"
        what = "no reaction" if event.choice == "none" else event.choice.replace("_", " ")
        return f"{event.unit} reacts ({how}): {what}"
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
    if isinstance(event, ev.PlanMade):
        if secret is not None and secret(event.unit):
            return f"{event.unit} holds an action ready (what for is hidden)"
        then = getattr(event.then, "name", "an action")
        target = getattr(event.then, "target", "") or getattr(event.then, "ability", "")
        trigger = {
            "enemy_within": f"an enemy comes within {event.metres:g} m",
            "ends_turn": f"{event.watch} ends its turn",
            "starts_action": f"{event.watch} starts an action",
            "enters_area": "a creature enters the marked cells",
        }.get(event.trigger, event.trigger)
        return f"{event.unit} prepares {then} {target} for when {trigger}".replace("  ", " ")
    if isinstance(event, ev.PlanTriggered):
        return f"{event.unit}'s prepared action goes off: {event.reason}"
    if isinstance(event, ev.BattleStarted):
        return f"{event.scenario} begins ({event.dice})"
    if isinstance(event, ev.BattleEnded):
        return f"battle over: {', '.join(event.winners) or 'nobody'} wins ({event.reason})"
    data = to_json(event)
    kind = str(data.pop("type")).replace("_", " ")
    unit = data.pop("unit", None)
    fields = ", ".join(f"{k} {v}" for k, v in data.items() if v not in (None, "", [], ()))
    head = f"{unit}: {kind}" if unit else kind
    return f"{head} ({fields})" if fields else head


def move_summary(events: tuple[Event, ...]) -> str | None:
    """One line for a whole move instead of one per step."""
    steps = [e for e in events if isinstance(e, ev.Moved)]
    if not steps:
        return None
    metres = sum(e.cost for e in steps) / 2
    return f"{steps[0].unit} moves {steps[0].start} -> {steps[-1].end} ({metres:g} m)"


def lines(
    events: tuple[Event, ...] | list[Event], secret: Callable[[str], bool] | None = None
) -> list[str]:
    """The log lines of some events; a run of steps by one creature becomes one line. `secret`
    hides plans from the reader, as in `describe`."""
    out: list[str] = []
    for mover, run in groupby(events, key=lambda e: e.unit if isinstance(e, ev.Moved) else None):
        if mover is None:
            out += [text for e in run if (text := describe(e, secret))]
        else:
            summary = move_summary(tuple(run))
            if summary:
                out.append(summary)
    return out


def refused(result: Refusal) -> str:
    return f"refused: {result.reason}"
