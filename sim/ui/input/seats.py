"""The sides the AI plays: their seats, their decisions one at a time with a pause between them,
Space (play the AI's turn out) and I (hand the side at the screen to the AI, or take it back)."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

import pygame

from sim.ai.chooser import AI
from sim.ai.seats import players
from sim.core.actions import Refusal
from sim.core.components import Policy
from sim.core.creature import creatures, team_of
from sim.play.engine import BattleOver, Decision, SetPolicy
from sim.ui.words.status import say

if TYPE_CHECKING:
    from sim.ui.input.app import App

AI_PAUSE = 0.7  # seconds between the AI's decisions, so a player can follow them
log = logging.getLogger(__name__)


class Seats:
    """The AI's sides of `app`'s game: they get no handover screen; their decisions come one at
    a time with `pause` between them (Space plays the rest of their turns at once)."""

    def __init__(self, app: App, ai: Mapping[str, str] | None, seed: int) -> None:
        """`ai`: the sides the AI plays, with their levels (team -> level)."""
        self.app = app
        self.seated: dict[str, AI] = players(dict(ai or {}), seed)
        self.pause = AI_PAUSE
        self.fast = False
        self.at = 0.0  # time.monotonic() before which the AI waits
        self.refused: list[Decision] = []

    def seat(self) -> None:
        """The AI answers its creatures' reaction windows itself (policy "ask")."""
        self.shown()
        app = self.app
        world = app.world
        for unit in creatures(world):
            policy = world.get(unit, Policy) or Policy()
            if team_of(world, unit) in self.seated and policy.reactions != "ask":
                app.session.submit(SetPolicy(unit, "ask", policy.defence), setup=True)

    def shown(self) -> None:
        """The sides the AI plays, as the sidebar shows them and the saves record them."""
        app = self.app
        app.view.ai = {team: player.level for team, player in sorted(self.seated.items())}
        app.session.ai = dict(app.view.ai)

    def wait(self) -> None:
        """A player's decision: let the player see it before the AI's next one."""
        self.at = time.monotonic() + self.pause

    def turn(self) -> AI | None:
        """The AI whose decision the battle waits for, if any."""
        pending = self.app.session.battle.pending
        if isinstance(pending, BattleOver):
            return None
        return self.seated.get(team_of(self.app.world, pending.unit))

    def step(self, now: float | None = None) -> bool:
        """One AI decision, when the battle waits for an AI side and its pause is over; True if
        one was made. Its reason goes to the log before its events."""
        app = self.app
        player = self.turn()
        if player is None:
            self.fast = False
            return False
        now = time.monotonic() if now is None else now
        if not self.fast and now < self.at:
            return False
        pending = app.session.battle.pending
        assert not isinstance(pending, BattleOver)
        choice = player.choose(app.session.battle, self.refused)
        note = say("ai_decided", unit=pending.unit, why=choice.why)
        result = app.session.submit(choice.decision, note)
        app.show_results(result)
        if isinstance(result, Refusal):
            # A fault of legal_decisions: logged, and not chosen again in this state.
            log.warning("the AI's decision %s was refused: %s", choice.decision, result.reason)
            self.refused.append(choice.decision)
        else:
            self.refused = []
            app.view.status = note
            app.view.log_offset = 0
        self.at = now + self.pause
        app.sync()
        return True

    def hand_to_ai(self) -> None:
        """I: the side at the screen is played by the AI from now on; during an AI turn, the
        side playing it is handed back to its player."""
        app = self.app
        if self.turn() is not None:
            pending = app.session.battle.pending
            assert not isinstance(pending, BattleOver)
            team = team_of(app.world, pending.unit)
            del self.seated[team]
            self.shown()
            self.fast = False
            app.view.status = say("ai_back", side=team.upper())
            app.sync()
            return
        # On a handover screen, the side asked to sit down; else the one sitting.
        side = app.view.handover or app.view.side
        if side is None or isinstance(app.session.battle.pending, BattleOver):
            app.view.status = say("ai_no_side")
            return
        self.seated[side] = AI("normal", app.session.seed * 1_000_003 + len(self.seated))
        self.seat()
        app.view.clear_plan()
        app.view.status = say("ai_handed", side=side.upper(), level="normal")
        self.wait()
        app.sync()

    def key(self, pressed: int) -> bool:
        """Space during an AI turn and I, on every screen of the game; whether it was one."""
        if pressed == pygame.K_SPACE and self.turn() is not None:
            self.fast = True
            self.app.view.status = say("ai_fast")
            return True
        if pressed == pygame.K_i:
            self.hand_to_ai()
            return True
        return False
