"""The sides the AI plays in a game at the screen (no pygame): its seats with their levels, the
reaction policy they answer by, one decision at a time with the reason the log shows, and a side
handed to the AI or back. The window adds its pause and keys (sim/ui/input/seats.py); the
terminal plays the AI's decisions out as they come (sim/ui/text/)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from sim.ai.chooser import AI
from sim.ai.seats import players
from sim.core.actions import Refusal
from sim.core.components import Policy
from sim.core.creature import creatures, team_of
from sim.core.world import World
from sim.play.auto import AUTO
from sim.play.engine import Battle, BattleOver, Decision, Outcome, SetPolicy
from sim.ui.model.session import Session
from sim.ui.words.status import say

HANDED = "normal"  # the level of a side handed to the AI while playing
log = logging.getLogger(__name__)


def side_policies(world: World, side: str, ask: bool) -> list[SetPolicy]:
    """The decisions that have every creature of `side` ask its player about reactions
    ("ask"), or answer by itself by the odds ("auto", the default policy); none for a creature
    whose policy is that already."""
    out = []
    for unit in creatures(world):
        policy = world.get(unit, Policy) or Policy()
        if team_of(world, unit) == side and (policy.reactions == "ask") != ask:
            out.append(SetPolicy(unit, "ask" if ask else AUTO, policy.defence))
    return out


class Seating:
    """Which sides the AI plays (team -> its AI) and the decisions it made that were refused
    in the state it is asked about (a fault of the legal listing, not chosen again)."""

    def __init__(self, ai: Mapping[str, str] | None, seed: int) -> None:
        """`ai`: the sides the AI plays, with their levels (team -> level)."""
        self.seated: dict[str, AI] = players(dict(ai or {}), seed)
        self.refused: list[Decision] = []

    def levels(self) -> dict[str, str]:
        """The sides the AI plays, with their levels, as saves record them."""
        return {team: player.level for team, player in sorted(self.seated.items())}

    def seat_on(self, session: Session) -> None:
        """The AI answers its creatures' reaction windows itself (policy "ask"); the session
        records its sides, so a save seats them again."""
        session.ai = self.levels()
        world = session.battle.world
        for unit in creatures(world):
            policy = world.get(unit, Policy) or Policy()
            if team_of(world, unit) in self.seated and policy.reactions != "ask":
                session.submit(SetPolicy(unit, "ask", policy.defence), setup=True)

    def waiting(self, battle: Battle) -> AI | None:
        """The AI whose decision the battle waits for, if any."""
        pending = battle.pending
        if isinstance(pending, BattleOver):
            return None
        return self.seated.get(team_of(battle.world, pending.unit))

    def decide(self, session: Session) -> tuple[str, Outcome] | None:
        """One decision of the AI the battle waits for (None when it waits for none): the
        reason the log shows before its events ("AI grok: ..."), and what the battle made of
        it."""
        player = self.waiting(session.battle)
        pending = session.battle.pending
        if player is None or isinstance(pending, BattleOver):
            return None
        choice = player.choose(session.battle, self.refused)
        note = say("ai_decided", unit=pending.unit, why=choice.why)
        result = session.submit(choice.decision, note)
        if isinstance(result, Refusal):
            log.warning("the AI's decision %s was refused: %s", choice.decision, result.reason)
            self.refused.append(choice.decision)
        else:
            self.refused = []
        return note, result

    def hand_over(self, session: Session, team: str, level: str = HANDED) -> None:
        """`team` is played by the AI from now on, at `level`."""
        self.seated[team] = AI(level, session.seed * 1_000_003 + len(self.seated))
        self.seat_on(session)

    def hand_back(self, session: Session, team: str) -> None:
        """`team` is played by its player again."""
        self.seated.pop(team, None)
        session.ai = self.levels()
