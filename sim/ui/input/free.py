"""The board's free mode (nothing being chosen): a click moves the selected acting creature,
adds a waypoint (Shift), attacks an enemy it can, climbs back down, or selects a creature."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.actions import Refusal
from sim.core.geometry import Pos
from sim.play.engine import Decision
from sim.ui.input.board import BoardHandler
from sim.ui.input.orders import commit, confirmed
from sim.ui.model.actionbar import build, judge
from sim.ui.model.intent import disengage_first
from sim.ui.words.status import say

if TYPE_CHECKING:
    from sim.ui.input.app import App


def attack_offer(app: App, target: str) -> Decision | None:
    """Clicking an enemy while the acting creature is selected attacks it, when it can."""
    acting = app.acting()
    if acting is None or app.mine(target) or app.view.preparing is not None:
        return None
    view = app.view
    decision = build(acting, "attack", view.slow, view.quicken, target=target)
    if isinstance(decision, str) or isinstance(judge(app.session.battle, decision), Refusal):
        return None
    return decision


def attack_refusal(app: App, target: str) -> str:
    """Why the acting creature cannot attack `target` ("" when it can, or none acts)."""
    acting = app.acting()
    if acting is None:
        return ""
    decision = build(acting, "attack", app.view.slow, app.view.quicken, target=target)
    result = judge(app.session.battle, decision)
    return result.reason if isinstance(result, Refusal) else ""


def commit_move(app: App, cell: Pos) -> None:
    """Move the selected creature to `cell` by the planned path (through the waypoints), after
    a Disengage when it is toggled on."""
    view = app.view
    unit = view.selected
    if unit is None:
        return
    plan = app.scene.plan(app.session, view) if view.hover == cell else None
    if plan is None:
        view.hover = cell
        plan = app.scene.plan(app.session, view)
    if plan is None:
        return
    decision = plan.decision(view.slow, view.quicken)
    if decision is None:
        view.status = say("cannot_move", why=plan.refusal)
        return
    if view.preparing is not None:
        held = commit(app, decision, cell)
        if held is not None and not isinstance(held, Refusal):
            view.waypoints.clear()
        return
    if not confirmed(app, decision, cell, plan.provocations):
        return  # a second click on the cell (or Enter) makes it
    if view.disengage:
        first = disengage_first(app.session, unit)
        if isinstance(first, str):
            view.refuse(say("why", why=first))
            return
        keep = len(app.session.battle.decisions)
        app.submit(first)
        result = app.submit(decision)
        if isinstance(result, Refusal):
            # The move cannot follow the Disengage: take the Disengage back too.
            app.session.rewind(keep)
            app.sync()
            view.refuse(say("refused_after_disengage", why=result.reason))
            return
    else:
        result = app.submit(decision)
    if not isinstance(result, Refusal):
        view.waypoints.clear()
        view.disengage = False


class FreeHandler(BoardHandler):
    """Nothing is being chosen (`Free`)."""

    def on_cell(self, cell: Pos, shift: bool) -> None:
        app = self.app
        view = app.view
        unit = app.unit_at(cell)
        acting = app.acting()
        if acting is not None and view.selected == acting and unit is None:
            if shift:
                if cell not in view.waypoints:
                    view.waypoints.append(cell)
                    view.status = say("waypoint", n=len(view.waypoints), cell=cell)
                return
            commit_move(app, cell)
            return
        if unit is not None and acting is not None and view.selected == acting and unit != acting:
            offer = attack_offer(app, unit)
            if offer is not None:
                result = commit(app, offer, cell)
                if result is not None and not isinstance(result, Refusal):
                    view.clear_plan()
                return
        if (
            unit is not None
            and unit == acting
            and view.selected == acting
            and app.scene.climbs_down(app.session, view)
        ):
            # Hanging on a face, its own cell is where a Climb takes it back down (R-M7).
            commit_move(app, cell)
            return
        if unit is not None:
            view.selected = unit
            view.clear_plan()
            if acting is not None and unit != acting and not app.mine(unit):
                reason = attack_refusal(app, unit)
                view.status = (
                    say("selected_no_attack", unit=unit, why=reason)
                    if reason
                    else say("selected", unit=unit)
                )
            return
        view.status = ""
