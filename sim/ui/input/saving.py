"""Saving and loading the game: the quick save (F5, F9), loading a save, a new game of the same
scenario and the unfinished game offered on the handover screen (C)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from sim.ai.seats import players
from sim.formats.replay import ReplayError, replay
from sim.play.engine import BattleOver
from sim.ui.draw.render import Renderer
from sim.ui.input import camera
from sim.ui.model import rewind
from sim.ui.model.rewind import loaded
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.status import say

if TYPE_CHECKING:
    from sim.ui.input.app import App

NO_QUICK_SAVE = "no quick save of this scenario yet: Save (F5) makes one"


def save(app: App, path: Path | None = None) -> bool:
    """Save the game (to the quick save by default); whether it was saved."""
    target = path or app.quicksave
    try:
        app.session.save_to(target)
    except ReplayError as error:
        app.view.status = say("save_fault", fault=error)
        return False
    app.view.status = say("saved", path=target)
    return True


def load(app: App, path: Path | str) -> None:
    session = loaded(app.session, path)
    if isinstance(session, str):
        app.view.status = session
        return
    app.view.offer = ""
    app.view.aftermath = []  # what an answer did in the game left behind
    grid_changed = not session.scenario.world.grid.same_as(app.world.grid)
    app.session = session
    app.scene.reset()
    if grid_changed:
        app.renderer = Renderer(app.session, app.renderer.m, app.scene)
        camera.fit(app)
    app.turn_key = None
    app.view.side = None
    app.view.omniscient = False
    app.seats.seat()
    app.sync()
    app.view.status = say("loaded", path=path)


def quick_load(app: App) -> None:
    """F9 and the menu's Load: the quick save, when the side at the screen may take the game
    back (as the menu's Load line says)."""
    view = app.view
    refused = rewind.load_refusal(app.session, view, app.acting())
    if refused is not None:
        view.status = say("cannot_load", why=refused)
    elif app.quicksave.is_file():
        load(app, app.quicksave)
    else:
        view.status = say("cannot_load", why=NO_QUICK_SAVE)


FILE_KEYS: dict[int, Callable[[App], object]] = {pygame.K_F5: save, pygame.K_F9: quick_load}


def play_again(app: App) -> None:
    """After the battle: the same scenario afresh (`new_game`)."""
    if isinstance(app.session.battle.pending, BattleOver):
        new_game(app)


def new_game(app: App) -> None:
    """The same scenario afresh, with the next seed (other dice), and the same sides played by
    the AI; the game left is autosaved as it closes."""
    old = app.session
    old.close()
    app.session = Session(old.scenario, old.seed + 1)
    app.scene.reset()
    app.view = View()
    app.turn_key = None
    app.seats.seat()
    app.sync()
    app.view.status = say("new_game", scenario=old.scenario.name, seed=old.seed + 1)


def continue_offered(app: App) -> None:
    """Take up the unfinished game offered on the handover screen, in its own autosave."""
    offer = app.offer
    app.view.offer = ""
    app.offer = None
    if offer is None or app.session.decided():
        return
    try:
        scenario, battle = replay(offer.save, app.session.scenario, where=str(offer.path))
    except ReplayError as error:
        app.view.status = say("save_fault", fault=error)
        return
    app.session = Session(scenario, offer.save.seed, battle, autosave=offer.path)
    if offer.save.ai:  # the sides the AI played in that game, as `sim play --continue`
        app.seats.seated = players(dict(offer.save.ai), offer.save.seed)
    app.scene.reset()
    app.turn_key = None
    app.view.side = None
    app.seats.seat()
    app.sync()
    app.view.status = say("continued", path=offer.path)
