"""A game in the client: the battle, its scenario and seed, undo by replay, saves (no pygame).

Undo never reaches into the engine: it begins the battle afresh and submits the decisions up to
the chosen point (the seeded dice come out the same). One rule holds for undo and the quick
load alike: while the battle goes on, a die once rolled stays rolled. So:

- undo goes one decision back, but never back over a decision that rolled dice or started a
  turn ("undo back to the last dice roll");
- undo turn goes back to the start of the current creature's turn, or to just after the last
  decision of that turn that rolled dice, whichever is later;
- a quick load is refused when the game on screen rolled dice since the point the save holds
  (a save of another game, or of another line of this one, holds no point of it: any roll of
  this game refuses it). A game with nothing rolled yet may load any save, and once the
  battle is over any save may be loaded, to play on from there.

Each game has its own autosave (replay.new_autosave_path), written whenever a turn passes and when
the window closes; a game in which nothing was decided writes none, so it replaces nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count
from pathlib import Path

from sim.content.scenario import Scenario
from sim.core import events as ev
from sim.core.actions import Refusal
from sim.formats.replay import ReplayError, Save, begin, new_autosave_path, record, taken, write
from sim.play.engine import Accepted, Battle, Decision, Outcome


@dataclass(frozen=True, slots=True)
class Mark:
    """What one recorded decision did, for undo."""

    accepted: bool
    rolled: bool  # a die was rolled while it resolved
    turn_started: bool  # it ended a turn and another began (or the battle ended)


# One counter for every session: a loaded game never reuses the version of the one it replaced,
# so the client's caches (keyed by version) cannot serve the old world's answers.
_VERSIONS = count()


def _mark(result: Outcome) -> Mark:
    if not isinstance(result, Accepted):
        return Mark(False, False, False)
    rolled = any(isinstance(e, ev.Rolled) for e in result.events)
    turned = any(isinstance(e, ev.TurnStarted | ev.BattleEnded) for e in result.events)
    return Mark(True, rolled, turned)


class Session:
    """The battle being played, with what undo and saving need."""

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        battle: Battle | None = None,
        autosave: Path | None = None,
    ) -> None:
        """`autosave`: the game's own autosave file, when a game is continued from it; without
        it the game is a new one and gets a file of its own. Set `self.autosave = None` for no
        autosaves at all (pictures, benchmarks)."""
        self.scenario = scenario
        self.seed = seed
        self.battle = battle if battle is not None else begin(scenario, seed)
        # An AI seated now or later forks the battle at its windows (sim/ai/seats.py).
        self.battle.keep_checkpoints()
        self.marks: list[Mark] = []
        self.version = next(_VERSIONS)  # new on every change of the world, for the caches
        self.autosave: Path | None = (
            autosave if autosave is not None else new_autosave_path(scenario.path)
        )
        # Whether the file at self.autosave is this game's: another game may have taken a name
        # between this one's start and its first autosave.
        self._owned = autosave is not None
        self.autosaved: int | None = None  # decisions in the last autosave written, if any
        self.notice = ""  # the last autosave problem, shown by the client
        # What the AI said about its decisions, by where their events begin in the log: the
        # client's log shows each before the events (issue #12 "the log says why").
        self.notes: dict[int, str] = {}
        self.setup = 0  # decisions at the start that only hand sides to the AI
        # The sides the AI plays now, with their levels (the client keeps it): saves record
        # them, so a game against the AI goes on against it when loaded.
        self.ai: dict[str, str] = {}
        if battle is not None:
            self._remark(tuple(battle.decisions))

    @classmethod
    def from_save(cls, save: Save, scenario: Scenario) -> Session:
        session = cls(scenario, save.seed)
        session._rebuild(save.decisions)
        return session

    # --- playing ---------------------------------------------------------------------------
    def submit(self, decision: Decision, note: str = "", *, setup: bool = False) -> Outcome:
        """Submit a decision; `note`, said before its events in the log (an AI's reason).
        `setup`: it only hands a side to the AI (its policies); such decisions at the start
        of a game do not make it a game worth an autosave."""
        at = len(self.battle.log)
        if setup and self.setup == len(self.battle.decisions):
            self.setup += 1
        if note:
            self.notes[at] = note
        before = self.battle.world.turn
        result = self.battle.submit(decision)
        if isinstance(result, Refusal):
            self.notes.pop(at, None)
        self.marks.append(_mark(result))
        self.version = next(_VERSIONS)
        if isinstance(result, Accepted) and self.battle.world.turn != before:
            self._autosave()
        return result

    def decided(self) -> bool:
        """Whether anything was decided in the game: handing sides to the AI at its start
        (their reaction policies set to "ask") does not count."""
        return len(self.battle.decisions) > self.setup

    # --- undo ------------------------------------------------------------------------------
    def _last_accepted(self) -> int:
        """How many marks there are up to the last accepted decision (0: none was)."""
        k = len(self.marks)
        while k > 0 and not self.marks[k - 1].accepted:
            k -= 1
        return k

    def undo_step_point(self) -> int | None:
        """How many decisions stay after undoing the last one, or None if it rolled dice, began
        a turn, or there is nothing to undo. Refused decisions are undone along with it."""
        return None if self.undo_reason() else self._last_accepted() - 1

    def turn_start_point(self) -> int | None:
        """How many decisions stay after undoing back to the start of the current turn, or to
        just after its last decision that rolled dice (a roll stays rolled); None if nothing
        after that point can be undone (`turn_undo_reason` says why)."""
        k = len(self.marks)
        start = self.setup  # handing sides to the AI at the start is never undone
        for i in range(k - 1, self.setup - 1, -1):
            if self.marks[i].turn_started or self.marks[i].rolled:
                start = i + 1
                break
        # Refusals and policies right at the start carry nothing to undo.
        if all(not m.accepted for m in self.marks[start:]):
            return None
        return start

    def turn_undo_reason(self) -> str:
        """Why undo turn has nothing to take back ("" when it has)."""
        if self.turn_start_point() is not None:
            return ""
        k = self._last_accepted()
        if k > 0 and self.marks[k - 1].rolled and not self.marks[k - 1].turn_started:
            return "the last decision rolled dice; undo stops at a dice roll"
        return "nothing done this turn yet"

    def load_refusal(self, save: Save) -> str:
        """Why loading `save` would take back a dice roll of this battle ("" when it would
        not): the rule undo keeps too (module docstring)."""
        if self.battle.world.turn.over:
            return ""
        ours = self.battle.decisions
        same_game = save.scenario_digest == self.scenario.digest and save.seed == self.seed
        kept = 0
        if same_game:
            while kept < min(len(ours), len(save.decisions)) and (
                ours[kept] == save.decisions[kept]
            ):
                kept += 1
        if any(mark.rolled for mark in self.marks[kept:]):
            return (
                "dice were rolled in this battle since that save; a load, like undo, "
                "never takes back a dice roll while the battle goes on"
            )
        return ""

    def undo_reason(self) -> str:
        k = self._last_accepted()
        if k <= self.setup:  # nothing, or only handing sides to the AI at the start
            return "nothing to undo"
        last = self.marks[k - 1]
        if last.rolled:
            return "the last decision rolled dice; undo stops at a dice roll"
        if last.turn_started:
            return "nothing to undo in this turn"
        return ""

    def show(self, battle: Battle) -> None:
        """Show another battle of this scenario and seed: the replay viewer's step (it has no
        undo points of its own)."""
        self.battle = battle
        self.marks = []
        self.version = next(_VERSIONS)

    def rewind(self, keep: int) -> None:
        self._rebuild(tuple(self.battle.decisions[:keep]))

    def _rebuild(self, decisions: tuple[Decision, ...]) -> None:
        # A game loaded from an older save goes on under the default policy it began with.
        self.battle = begin(self.scenario, self.seed, self.battle.default_policy)
        self.battle.keep_checkpoints()
        self.marks = []
        for decision in decisions:
            self.marks.append(_mark(self.battle.submit(decision)))
        # The same decisions give the same log (DESIGN: determinism): notes up to here hold.
        self.notes = {at: note for at, note in self.notes.items() if at < len(self.battle.log)}
        self.version = next(_VERSIONS)

    def _remark(self, decisions: tuple[Decision, ...]) -> None:
        """Work out the marks of a battle that was replayed elsewhere."""
        probe = begin(self.scenario, self.seed, self.battle.default_policy)
        self.marks = [_mark(probe.submit(d)) for d in decisions]

    # --- saving ----------------------------------------------------------------------------
    def save(self) -> Save:
        return record(self.battle, self.scenario, self.seed, self.ai)

    def save_to(self, path: str | Path) -> None:
        write(path, self.save())

    def _autosave(self) -> bool | None:
        """Write the game's autosave: True if written, False if the write failed (the notice
        says why), None if there is nothing to write (autosaves off, or nothing decided yet:
        an empty game must replace nothing)."""
        if self.autosave is None or not self.decided():
            return None
        if not self._owned and taken(self.autosave):
            self.autosave = new_autosave_path(self.scenario.path)
        try:
            write(self.autosave, self.save())
        except ReplayError as error:
            self.notice = f"autosave failed: {error}"
            return False
        self._owned = True
        self.autosaved = len(self.battle.decisions)
        self.notice = ""
        return True

    def close(self) -> tuple[str, bool]:
        """Autosave once more as the game is closed; what to tell the player, and whether the
        game is kept (False: the last write failed, and the message says so)."""
        written = self._autosave()
        if written is None:
            if self.autosave is None:
                return "", True
            return "nothing was decided in this game, so nothing was autosaved", True
        if not written:
            kept = (
                f"; the autosave {self.autosave} keeps it up to decision {self.autosaved}"
                if self.autosaved
                else ""
            )
            return f"{self.notice}: this game is not saved{kept}", False
        if self.battle.world.turn.over:
            return f"autosaved to {self.autosave} (the battle is over)", True
        return (
            f"autosaved to {self.autosave}; continue with: sim play {self.scenario.path} "
            f"--continue (or sim play --load {self.autosave})"
        ), True


def refusal_text(result: Outcome) -> str:
    return result.reason if isinstance(result, Refusal) else ""
