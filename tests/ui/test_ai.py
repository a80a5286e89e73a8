"""The AI in the window (issue #12 "Where a user meets it"): an AI side gets no handover
screen, plays one decision at a time with a pause (Space plays it out), answers its own
reaction windows, says in the log what it did and why, and a side can be handed to it and
taken back with I."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from sim.content.scenario import load
from sim.core.components import Policy, Position
from sim.core.creature import creatures, team_of
from sim.core.events import ReactionAnswered
from sim.play.engine import AwaitingAction, AwaitingReaction, BattleOver, ReactionChoice, SetPolicy
from sim.ui.input.app import App
from sim.ui.model.session import Session
from tests.ui.test_client import DUEL, Player, acting, seed_where, write_scenario

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    keep = os.environ.get("SIM_SHOTS")
    where = Path(keep) / "ui_ai" if keep else tmp_path / "shots"
    where.mkdir(parents=True, exist_ok=True)
    return where


def ai_app(tmp_path: Path, seed: int, **levels: str) -> App:
    return App(Session(load(write_scenario(tmp_path, "duel", DUEL)), seed), (1280, 800), ai=levels)


def step(app: App) -> bool:
    """One AI decision with its pause just over."""
    return app.seats.step(app.seats.at)


def to_people(app: App) -> int:
    """Let the AI play until a person is to decide; how many decisions it made."""
    made = 0
    while step(app):
        made += 1
        assert made < 200
    app.frame()  # as the window's loop draws after each AI decision
    return made


def test_an_ai_side_has_no_handover_and_plays_one_decision_at_a_time(
    tmp_path: Path, shots: Path
) -> None:
    """Red is the AI's: the screen stays with blue, the AI waits its pause between decisions,
    and each decision's reason is in the log before its events."""
    app = ai_app(tmp_path, 3, red="normal")
    p = Player(app, shots)
    assert app.view.ai == {"red": "normal"}
    assert all(
        (app.world.get(u, Policy) or Policy()).reactions == "ask"
        for u in creatures(app.world)
        if team_of(app.world, u) == "red"
    )
    if app.view.handover is not None:
        assert p.sit_down() == "blue"
    for _ in range(3):  # blue ends its turns; red plays between them
        if app.seats.turn() is None:
            assert app.view.handover is None and app.view.side == "blue"
            p.key(pygame.K_e)
        assert app.view.handover is None
        app.seats.at = 10.0
        if app.seats.turn() is not None:
            assert not app.seats.step(9.0), "the AI waits out its pause"
            assert app.seats.step(10.0)
            assert app.view.status.startswith("AI grok: ")
            to_people(app)
    said = app.scene.log_lines(app.session, app.view)
    notes = [line for line in said if line.startswith("AI grok: ")]
    assert notes, said
    assert len(notes) == len(app.session.notes)
    first = said.index(notes[0])
    assert said[first + 1 :], "the decision's events follow its reason"
    p.shot("ai_turn")


def test_space_plays_the_ai_turn_out_and_the_ai_answers_its_own_reactions(
    tmp_path: Path, shots: Path
) -> None:
    """Blue attacks grok; grok's defence is chosen by the AI, not by a policy; Space during
    red's turn plays it to blue's next decision without pauses."""
    app = ai_app(tmp_path, 5, red="normal")
    p = Player(app, shots)
    to_people(app)
    if app.view.handover is not None:
        p.sit_down()
    ana = acting(app)
    assert ana == "ana"
    p.key(pygame.K_a)
    p.click_cell(app.world.need("grok", Position).cell)
    pending = app.session.battle.pending
    if isinstance(pending, AwaitingReaction):  # grok may Interrupt, then defend
        assert pending.unit == "grok"
        to_people(app)
    answered = [
        e for e in app.session.battle.log if isinstance(e, ReactionAnswered) and e.unit == "grok"
    ]
    assert answered and all(e.by != "policy" for e in answered), answered
    p.key(pygame.K_e)
    assert app.seats.turn() is not None
    p.key(pygame.K_SPACE)
    assert app.seats.fast
    made = 0
    while app.seats.step(0.0):  # no time passes: only Space lets it go on
        made += 1
        assert made < 200
    assert made > 0 and not app.seats.fast
    pending = app.session.battle.pending
    assert isinstance(pending, BattleOver) or team_of(app.world, pending.unit) == "blue"
    p.shot("after_space")


def test_i_hands_the_side_at_the_screen_to_the_ai_and_takes_it_back(
    tmp_path: Path, shots: Path
) -> None:
    app = ai_app(tmp_path, 3)
    p = Player(app, shots)
    assert app.view.handover is not None
    first = app.view.handover
    p.key(pygame.K_i)  # on the handover screen: the side asked to sit down goes to the AI
    assert first in app.seats.seated and app.view.handover is None
    assert app.view.status == f"{first.upper()} is played by the AI (normal); I takes it back"
    to_people(app)
    other = next(t for t in ("blue", "red") if t != first)
    if app.view.handover is not None:
        assert p.sit_down() == other
    p.key(pygame.K_i)  # the other side too: the AI plays both, the screen shows everyone
    assert set(app.seats.seated) == {"blue", "red"} and app.view.omniscient
    for _ in range(6):
        step(app)
    assert app.seats.turn() is not None
    team = team_of(app.world, app.session.battle.pending.unit)  # type: ignore[union-attr]
    p.key(pygame.K_i)  # during an AI turn: that side is handed back
    assert team not in app.seats.seated
    assert app.view.status == f"{team.upper()} is played by its player again"
    assert app.view.handover == team or app.view.side == team


def test_policies_alone_are_not_a_game_to_autosave(tmp_path: Path) -> None:
    """Handing sides to the AI records their policies, but a game closed before anything was
    decided writes no autosave."""
    skirmish = Path(__file__).resolve().parents[2] / "scenarios" / "skirmish.toml"
    app = App(Session(load(skirmish), 3), (1280, 800), ai={"red": "normal", "blue": "easy"})
    decisions = app.session.battle.decisions
    assert decisions and all(isinstance(d, SetPolicy) for d in decisions)
    message, kept = app.session.close()
    assert (message, kept) == ("nothing was decided in this game, so nothing was autosaved", True)


@pytest.mark.slow
def test_reaction_choice_of_the_ai_is_one_the_window_offered(tmp_path: Path) -> None:
    app = ai_app(tmp_path, 7, red="hard", blue="random")
    seen = 0
    for _ in range(60):
        pending = app.session.battle.pending
        if isinstance(pending, BattleOver):
            break
        if isinstance(pending, AwaitingReaction):
            before = len(app.session.battle.decisions)
            assert step(app)
            made = app.session.battle.decisions[before]
            assert isinstance(made, ReactionChoice) and made.choice in (*pending.options, "none")
            seen += 1
        else:
            assert isinstance(pending, AwaitingAction)
            assert step(app)
    print(f"reaction windows answered by the AI: {seen}")


def test_undo_never_takes_back_handing_sides_to_the_ai(tmp_path: Path, shots: Path) -> None:
    """On the skirmish (policies "always"), red is handed to the AI by recorded policies: Z
    before anything else is decided refuses, and the policies stay."""
    skirmish = Path(__file__).resolve().parents[2] / "scenarios" / "skirmish.toml"
    app = App(
        Session(load(skirmish), seed_where(skirmish, "bram")), (1280, 800), ai={"red": "normal"}
    )
    p = Player(app, shots)
    assert acting(app) == "bram"  # blue's bram acts first, nothing decided yet
    if app.view.handover is not None:
        p.sit_down()
    setup = app.session.setup
    assert setup == sum(team_of(app.world, u) == "red" for u in creatures(app.world)) == 2
    assert len(app.session.battle.decisions) == setup
    p.key(pygame.K_z)
    assert app.view.status == "cannot undo: nothing to undo"
    assert len(app.session.battle.decisions) == setup
    assert all(
        (app.world.get(u, Policy) or Policy()).reactions == "ask"
        for u in creatures(app.world)
        if team_of(app.world, u) == "red"
    )
