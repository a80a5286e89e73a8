"""The board while an action waits for its target (`Targeting`): a click on a creature or a cell
completes it; Assist's first click is the ally (R-X21), a Disarm's target's weapon is picked
from a list when it holds several (R-X5)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from sim.core.actions import Disarm, Refusal
from sim.core.geometry import Pos
from sim.play.engine import Decision
from sim.rules.combat.disarm import weapons
from sim.ui.input.board import BoardHandler
from sim.ui.input.orders import commit
from sim.ui.model.actionbar import ASSIST
from sim.ui.model.intent import (
    aim_needs,
    assist_step,
    cell_choice,
    target_choice,
    target_verdict,
)
from sim.ui.model.mode import Picking, Targeting
from sim.ui.words.status import say

if TYPE_CHECKING:
    from sim.ui.input.app import App

DISARM = Disarm.name


def choose_ally(app: App, unit: str | None) -> None:
    """Assist's first click (R-X21): the ally, when some enemy in sight can follow."""
    view = app.view
    if unit is None or view.selected is None:
        view.status = say("assist_step", what=assist_step(view))
        return
    verdict = target_verdict(app.session, view, unit)
    if not verdict.ok:
        view.refuse(say("why", why=verdict.words))
        return
    if isinstance(view.mode, Targeting):
        view.mode = replace(view.mode, ally=unit)
    view.status = say("assist_ally", ally=unit, what=assist_step(view))


class TargetHandler(BoardHandler):
    """An action waits for a creature or a cell."""

    def on_cell(self, cell: Pos, shift: bool) -> None:
        app = self.app
        view = app.view
        unit = app.unit_at(cell)
        if view.targeting == ASSIST and view.ally is None:
            choose_ally(app, unit)
            return
        aim = aim_needs(app.world, view)
        decision: Decision | str | None = None
        if (
            view.targeting == DISARM
            and unit is not None
            and len(weapons(app.world, unit)) > 1
            and target_verdict(app.session, view, unit).ok
        ):
            # R-X5: which of the target's weapons; with one, the disarm is after that one, and
            # a target it cannot disarm is refused at once with the reason.
            view.mode = Picking(DISARM, target=unit)
            view.status = say("disarm_which", unit=unit)
            return
        if "target" in aim and unit is not None:
            decision = target_choice(view, unit)
        elif "to" in aim:
            decision = cell_choice(view, cell)
        elif "target" in aim:
            view.status = say("click_creature", action=view.targeting)
            return
        if decision is None:
            return
        if isinstance(decision, str):
            view.refuse(say("refused", why=decision))
            return
        result = commit(app, decision, cell)
        if result is not None and not isinstance(result, Refusal):
            view.clear_plan()
