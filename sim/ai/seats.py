"""Seats at the table: which sides the AI plays, at which level, and the loop that plays them."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping

from sim.ai.choice import Choice
from sim.ai.chooser import AI
from sim.ai.levels import LEVELS, ROUND_CAP
from sim.core import events as ev
from sim.core.actions import Refusal
from sim.core.creature import creatures, team_of
from sim.play.engine import (
    Battle,
    BattleOver,
    Decision,
    Outcome,
    SetPolicy,
)

log = logging.getLogger(__name__)


def players(levels: Mapping[str, str], seed: int) -> dict[str, AI]:
    """One AI per team at its level, each with its own dice derived from `seed`, so a game is
    the same for the same seed whatever else is played."""
    return {
        team: AI(levels[team], seed * 1_000_003 + index)
        for index, team in enumerate(sorted(levels))
    }


def seats(spec: str, teams: Collection[str], default: str = "normal") -> dict[str, str]:
    """The sides an `--ai` option hands to the AI, with their levels: "red", "red=hard" or
    "blue=normal,red=hard". ValueError says what is wrong in words."""
    out: dict[str, str] = {}
    for part in spec.split(","):
        team, _, level = part.strip().partition("=")
        team, level = team.strip(), level.strip() or default
        if not team:
            raise ValueError(f"--ai wants TEAM or TEAM=LEVEL, e.g. red=hard, not {spec!r}")
        if team not in teams:
            raise ValueError(f"--ai: no team {team!r} in this scenario (teams: {', '.join(teams)})")
        if level not in LEVELS:
            raise ValueError(f"--ai: level must be one of {', '.join(LEVELS)}, not {level!r}")
        if team in out:
            raise ValueError(f"--ai names team {team!r} twice")
        out[team] = level
    return out


def take_seats(battle: Battle, teams: Collection[str]) -> list[ev.Event]:
    """Hand `teams` to the AI: their creatures' reaction windows are asked of it rather than
    answered by a standing policy (SetPolicy "ask", recorded like any decision), and the battle
    keeps a checkpoint before each action, to fork it at a window cheaply. The events."""
    # Its look-ahead forks the battle at the windows it answers (`Battle.fork`).
    battle.keep_checkpoints()
    events: list[ev.Event] = []
    for unit in creatures(battle.world):
        if team_of(battle.world, unit) in teams:
            outcome = battle.submit(SetPolicy(unit, "ask"))
            assert not isinstance(outcome, Refusal), outcome
            events += outcome.events
    return events


def play(
    battle: Battle,
    players: Mapping[str, AI],
    *,
    round_cap: int = ROUND_CAP,
    report: Callable[[str, Choice, Outcome], None] | None = None,
) -> str:
    """Submit the AIs' decisions for the teams in `players` until the battle ends ("over"),
    it waits for a team without a player ("waiting"), or a round past `round_cap` begins
    ("capped"). `report(unit, choice, outcome)` hears each decision submitted and what came of
    it. A decision `submit` refuses is logged and not chosen again in that state."""
    while True:
        pending = battle.pending
        if isinstance(pending, BattleOver):
            return "over"
        if battle.world.turn.round > round_cap:
            return "capped"
        player = players.get(team_of(battle.world, pending.unit))
        if player is None:
            return "waiting"
        refused: list[Decision] = []
        while True:
            choice = player.choose(battle, refused)
            outcome = battle.submit(choice.decision)
            if report is not None:
                report(pending.unit, choice, outcome)
            if not isinstance(outcome, Refusal):
                break
            log.warning("legal_decisions listed a refused decision %s: %s", choice, outcome)
            refused.append(choice.decision)
