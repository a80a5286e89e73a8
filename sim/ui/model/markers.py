"""Results on the board (no pygame): short-lived hit, miss and damage markers where they
happen, and a one-line summary of the last decision for beside the action bar."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sim.core import events as ev
from sim.core.components import Health, Position
from sim.core.geometry import Pos
from sim.core.world import World
from sim.ui.words.wording import reaction_done

LIFETIME = 1.8  # seconds a marker stays on the board: long enough to read a number

# What a marker says, by kind; the palette gives each kind its colour.
HIT, MISS, DAMAGE, HEAL, WON, LOST, DOWN = "hit", "miss", "damage", "heal", "won", "lost", "down"
REACTED = "reacted"  # what the policy "auto" answered for a creature
# A reaction the policy "auto" chose, as its marker says it ("none": it held back).
REACTION_WORDS = {"attack": "AoO", "none": "holds back"}


@dataclass(frozen=True, slots=True)
class Marker:
    """A word or number over a creature's cell, from `born` (seconds, monotonic) for
    LIFETIME; `unit` is whose it is, so a hidden creature's result is not shown to the side
    that cannot see it."""

    unit: str
    cell: Pos
    text: str
    kind: str
    born: float

    def age(self, now: float) -> float:
        """0 when just made, 1 when it is gone."""
        return min(1.0, max(0.0, (now - self.born) / LIFETIME))


def _cell(world: World, unit: str) -> Pos | None:
    pos = world.get(unit, Position)
    return pos.cell if pos is not None else None


def markers(events: Iterable[ev.Event], world: World, now: float) -> list[Marker]:
    """The markers a decision's events leave: a miss or a hit over the target (a hit's damage
    comes as its own number), damage and healing as numbers, a contest won or lost over the
    other side of it, a save passed or failed, "down" when a creature drops to 0 HP, and
    what the policy "auto" answered for a creature ("dodge", "interrupt", "holds back"...)."""
    out: list[Marker] = []

    def put(unit: str, text: str, kind: str) -> None:
        cell = _cell(world, unit)
        if cell is not None:
            out.append(Marker(unit, cell, text, kind, now))

    for event in events:
        if isinstance(event, ev.ReactionAnswered) and event.reason:
            choice = event.choice.split(",")[0]  # "catch, dropping X": a catch
            put(event.unit, REACTION_WORDS.get(choice, choice), REACTED)
        elif isinstance(event, ev.AttackResolved):
            put(event.target, "hit" if event.hit else "miss", HIT if event.hit else MISS)
        elif isinstance(event, ev.Damaged):
            put(event.unit, f"-{event.amount}", DAMAGE)
            if event.hp <= 0 and event.hp + event.amount > 0:
                put(event.unit, "down", DOWN)
        elif isinstance(event, ev.Healed):
            put(event.unit, f"+{event.amount}", HEAL)
        elif isinstance(event, ev.ContestResolved):
            won = event.winner == event.acting
            put(event.other, "won" if won else "held", WON if won else LOST)
        elif isinstance(event, ev.CheckResolved):
            put(event.unit, "saved" if event.success else "failed", LOST if event.success else WON)
    return out


def summary(events: Iterable[ev.Event], world: World) -> str:
    """The last decision in a line: who did what and how it went, e.g.
    "grok: attack on ana: hit, 7 damage (ana HP 5/12)". Empty for a decision that resolved
    nothing worth a line (an end of turn)."""
    doing: list[str] = []
    results: list[str] = []
    for event in events:
        if isinstance(event, ev.Spent) and not doing:
            doing.append(f"{event.unit}: {event.action.replace('_', ' ')}")
        elif isinstance(event, ev.ReactionAnswered) and event.reason:
            results.append(event.reason)  # the policy "auto": what it did and why
        elif isinstance(event, ev.ReactionAnswered) and event.choice != "none":
            results.append(f"{event.unit} {reaction_done(event.choice)}")
        elif isinstance(event, ev.AttackResolved):
            verdict = "hit" if event.hit else "miss"
            results.append(f"{event.purpose.replace('_', ' ')} on {event.target}: {verdict}")
        elif isinstance(event, ev.Damaged):
            health = world.get(event.unit, Health)
            of = f"/{health.max_hp}" if health is not None else ""
            results.append(f"{event.amount} damage to {event.unit} (HP {event.hp}{of})")
        elif isinstance(event, ev.Healed):
            health = world.get(event.unit, Health)
            of = f"/{health.max_hp}" if health is not None else ""
            results.append(f"{event.unit} heals {event.amount} (HP {event.hp}{of})")
        elif isinstance(event, ev.ContestResolved):
            results.append(f"{event.purpose.replace('_', ' ')}: {event.winner} wins")
        elif isinstance(event, ev.CheckResolved):
            verdict = "passes" if event.success else "fails"
            results.append(f"{event.unit} {verdict} {event.purpose.replace('_', ' ')}")
        elif isinstance(event, ev.ActionLost):
            results.append(f"{event.unit}'s {event.action.replace('_', ' ')} is lost")
        elif isinstance(event, ev.BattleEnded):
            results.append(f"battle over: {', '.join(event.winners) or 'nobody'} wins")
    head = doing[0] if doing else ""
    tail = ", ".join(results)
    return f"{head} — {tail}" if head and tail else head or tail
