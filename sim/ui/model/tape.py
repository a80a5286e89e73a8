"""A save played back (no pygame): the battle after any number of its decisions, stepped by
decision, by turn or by round, forward and back, for the replay viewer (`sim replay SAVE`).

A save is a replay (DESIGN): stepping forward submits the next decisions to the battle on
show; stepping back begins the battle afresh and submits the decisions up to the point (the
seeded dice come out the same), as undo does."""

from __future__ import annotations

from dataclasses import dataclass

from sim.content.scenario import Scenario
from sim.core import events as ev
from sim.formats.replay import Save, begin
from sim.play.engine import Battle

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)  # decisions a second while playing


@dataclass(frozen=True, slots=True)
class Stop:
    """Where a turn begins: after `position` decisions, `unit`'s turn of round `round`."""

    position: int
    round: int
    unit: str


class Tape:
    """The battle of a save at a position (the number of its decisions submitted)."""

    def __init__(self, scenario: Scenario, save: Save) -> None:
        self.scenario = scenario
        self.seed = save.seed
        self.decisions = save.decisions
        self.default_policy = save.default_policy  # an older save's "always" (replay.VERSION)
        whole = begin(scenario, save.seed, self.default_policy)
        self.ends = [len(whole.log)]  # the log's length after each number of decisions
        for decision in self.decisions:
            whole.submit(decision)
            self.ends.append(len(whole.log))
        self.log = tuple(whole.log)
        self.turns = self._stops(ev.TurnStarted)
        self.rounds = self._stops(ev.RoundStarted)
        self.battle = begin(scenario, save.seed, self.default_policy)
        self.position = 0

    def _stops(self, kind: type[ev.TurnStarted] | type[ev.RoundStarted]) -> tuple[Stop, ...]:
        """Each event of `kind` by the position after which it has happened."""
        out = []
        position = 0
        unit = ""
        for index, event in enumerate(self.log):
            while self.ends[position] <= index:
                position += 1
            if isinstance(event, ev.TurnStarted):
                unit = event.unit
            if isinstance(event, kind):
                out.append(Stop(position, event.round, unit if kind is ev.TurnStarted else ""))
        return tuple(out)

    @property
    def length(self) -> int:
        return len(self.decisions)

    def go(self, position: int) -> bool:
        """Show the battle after `position` decisions (kept within the save); True if the
        position changed."""
        position = max(0, min(self.length, position))
        if position == self.position:
            return False
        if position < self.position:
            self.battle = begin(self.scenario, self.seed, self.default_policy)
            self.position = 0
        battle: Battle = self.battle
        for decision in self.decisions[self.position : position]:
            battle.submit(decision)
        self.position = position
        return True

    def events(self) -> tuple[ev.Event, ...]:
        """The events of the last decision submitted (none at the start)."""
        if self.position == 0:
            return ()
        return self.log[self.ends[self.position - 1] : self.ends[self.position]]

    def step(self, by: int) -> bool:
        return self.go(self.position + by)

    def _next(self, stops: tuple[Stop, ...], forward: bool) -> bool:
        if forward:
            later = [s.position for s in stops if s.position > self.position]
            return self.go(later[0] if later else self.length)
        earlier = [s.position for s in stops if s.position < self.position]
        return self.go(earlier[-1] if earlier else 0)

    def turn(self, forward: bool) -> bool:
        """To the start of the next (or this, else the previous) turn."""
        return self._next(self.turns, forward)

    def round(self, forward: bool) -> bool:
        """To the start of the next (or this, else the previous) round."""
        return self._next(self.rounds, forward)

    def jump(self, turn: int) -> str:
        """To the start of turn number `turn` (1 is the first); "" or why not."""
        if not 1 <= turn <= len(self.turns):
            return f"there is no turn {turn}: this battle has turns 1 to {len(self.turns)}"
        self.go(self.turns[turn - 1].position)
        return ""

    def where(self) -> str:
        """The position in words: decision, turn and round.

        The turn shown is the last one begun at or before the position."""
        begun = [i for i, s in enumerate(self.turns, 1) if s.position <= self.position]
        if not begun:
            return f"decision {self.position}/{self.length}, before the first turn"
        stop = self.turns[begun[-1] - 1]
        return (
            f"decision {self.position}/{self.length} · turn {begun[-1]}/{len(self.turns)} "
            f"({stop.unit}) · round {stop.round}"
        )
