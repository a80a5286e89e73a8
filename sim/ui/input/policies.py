"""Reaction and defence policies from the window: P and O cycle the selected creature's, the
menu's Reactions line has the whole seated side asked or answering by itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.actions import Refusal
from sim.core.components import Policy
from sim.core.creature import creatures, team_of
from sim.play.engine import DEFENCES, REACTION_POLICIES, SetPolicy
from sim.ui.model.seating import side_policies
from sim.ui.words.status import say

if TYPE_CHECKING:
    from sim.ui.input.app import App


def set_policy(app: App, reactions: bool) -> None:
    """P (`reactions`) or O: the selected creature's next reaction policy, or defence."""
    view = app.view
    unit = view.selected
    if unit is None or not (app.mine(unit) or view.omniscient):
        view.status = say("no_policy")
        return
    policy = app.world.get(unit, Policy) or Policy()
    if reactions:
        i = (
            REACTION_POLICIES.index(policy.reactions)
            if policy.reactions in REACTION_POLICIES
            else -1
        )
        decision = SetPolicy(
            unit, REACTION_POLICIES[(i + 1) % len(REACTION_POLICIES)], policy.defence
        )
    else:
        i = DEFENCES.index(policy.defence) if policy.defence in DEFENCES else -1
        decision = SetPolicy(unit, policy.reactions, DEFENCES[(i + 1) % len(DEFENCES)])
    if not isinstance(app.submit(decision), Refusal):
        view.status = say(
            "policy", unit=unit, reactions=decision.reactions, defence=decision.defence
        )
        if reactions and app.hints.due:
            app.hints.taken_up()
            app.hints.show(app.world, view)


def ask_reactions(app: App, ask: bool) -> None:
    """Every creature of the seated side asks its player about reactions ("ask"), or answers
    by itself by the odds ("auto", the default policy)."""
    side = app.view.side
    if side is None:
        return
    for decision in side_policies(app.world, side, ask):
        app.submit(decision)
    app.view.status = say("side_asked" if ask else "side_automatic", side=side.upper())
    if ask and app.hints.due:
        app.hints.taken_up()
    app.hints.show(app.world, app.view)


def side_asked(app: App) -> bool | None:
    """Whether every creature of the seated side asks its player about reactions (None: no
    side sits at the screen)."""
    side = app.view.side
    if side is None:
        return None
    mine = [u for u in creatures(app.world) if team_of(app.world, u) == side]
    return all((app.world.get(u, Policy) or Policy()).reactions == "ask" for u in mine)
