"""Who has the screen (no pygame): after every change, the side whose creature the battle waits
for is asked to sit down, unless the AI plays it; the window and the terminal follow one rule."""

from __future__ import annotations

from collections.abc import Collection

from sim.core.creature import creatures, team_of
from sim.play.engine import AwaitingAction, BattleOver
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.status import say

TurnKey = tuple[int, int]  # (round, index in the initiative order) of a turn


def follow(
    session: Session, view: View, seated: Collection[str], turn_key: TurnKey | None
) -> TurnKey | None:
    """Set `view` for what the battle waits for now: a handover to the side whose creature must
    act or react (none for a side the AI plays in `seated`: the screen stays with a side a
    person plays, or shows everyone's when the AI plays all); a new turn clears the plan and
    the toggles and selects its creature. Returns the turn now seen (`turn_key`, kept by the
    caller between calls)."""
    world = session.battle.world
    pending = session.battle.pending
    if isinstance(pending, BattleOver):
        view.handover = None
        view.side = None
        view.omniscient = True
        view.clear_plan()
        return turn_key
    team = team_of(world, pending.unit)
    if team in seated:
        if view.side is None or view.side in seated:
            people = sorted({team_of(world, u) for u in creatures(world)} - set(seated))
            view.side = people[0] if people else None
            view.omniscient = not people
            view.clear_plan()
        view.handover = None
    elif view.side != team:
        view.handover = team
        view.omniscient = False
        view.clear_plan()
        view.selected = None
    turn = world.turn
    key = (turn.round, turn.index)
    if key != turn_key:
        turn_key = key
        view.clear_plan()
        view.move_only = None
        view.disengage = view.slow = view.quicken = False
        if isinstance(pending, AwaitingAction):
            view.selected = pending.unit
    if view.selected is not None and not world.exists(view.selected):
        view.selected = None
    return turn_key


def take_seat(session: Session, view: View) -> str:
    """The side asked to sit down has the screen; the status line's words ("" when no side
    was asked)."""
    if view.handover is None:
        return ""
    view.side = view.handover
    view.handover = None
    view.offer = ""  # the new game goes ahead
    pending = session.battle.pending
    if isinstance(pending, AwaitingAction):
        view.selected = pending.unit
    view.status = say("seated", side=view.side.upper())
    return view.status
