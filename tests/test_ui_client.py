"""The hotseat client driven headless with posted mouse and key events (SDL dummy driver):
select, hover a path, move, an attack of opportunity answered through the handover, an attack
with a defence reaction, undo, save, and a load that continues identically. Screenshots are
saved to a temporary directory along the way (set SIM_SHOTS to keep them somewhere)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.components import Position
from sim.creature import team_of
from sim.decisions import PARSERS, to_json
from sim.engine import AwaitingAction, AwaitingReaction, BattleOver
from sim.events import to_json as event_json
from sim.geometry import Pos
from sim.scenario import load
from sim.ui.app import App
from sim.ui.session import Session

DUEL = '''
name = "UI duel"
seed = 3

[map]
rows = """
#########
#.......#
#..ab...#
#.......#
#########
"""

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"
policy = "ask"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
policy = "ask"
'''

needs_combat = pytest.mark.skipif("attack" not in PARSERS, reason="the engine has no attack yet")


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    where = Path(os.environ.get("SIM_SHOTS", tmp_path / "shots"))
    where.mkdir(parents=True, exist_ok=True)
    return where


@pytest.fixture(autouse=True)
def save_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "saves"
    monkeypatch.setenv("SIM_SAVE_DIR", str(where))
    return where


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL, encoding="utf-8")
    return path


def make_app(path: Path, seed: int = 3) -> App:
    return App(Session(load(path), seed), (1280, 800))


class Player:
    """Posts real pygame events and pumps them through the app."""

    def __init__(self, app: App, shots: Path) -> None:
        self.app = app
        self.shots = shots
        self.count = 0

    def post(self, kind: int, **fields: object) -> None:
        pygame.event.post(pygame.event.Event(kind, **fields))
        self.app.pump()

    def key(self, key: int, mod: int = 0, char: str = "") -> None:
        self.post(pygame.KEYDOWN, key=key, mod=mod, unicode=char, scancode=0)

    def move_mouse(self, pos: tuple[int, int]) -> None:
        self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        self.move_mouse(pos)
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=button)

    def cell(self, cell: Pos) -> tuple[int, int]:
        return self.app.camera.centre(cell)

    def hover(self, cell: Pos) -> None:
        self.move_mouse(self.cell(cell))

    def click_cell(self, cell: Pos) -> None:
        self.click(self.cell(cell))

    def button(self, kind: str, value: str) -> None:
        self.app.frame()
        for rect, k, v in self.app.renderer.hits.items:
            if (k, v) == (kind, value):
                self.click(rect.center)
                return
        raise AssertionError(f"no {kind} button {value!r} on screen")

    def shot(self, name: str) -> Path:
        self.count += 1
        path = self.shots / f"{self.count:02d}_{name}.png"
        pygame.image.save(self.app.frame(), str(path))
        return path

    def sit_down(self) -> str:
        """Press Enter on the handover screen; the side that took the screen."""
        assert self.app.view.handover is not None, "expected a handover screen"
        side = self.app.view.handover
        self.key(pygame.K_RETURN)
        assert self.app.view.handover is None
        return side


def acting(app: App) -> str:
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingAction), pending
    return pending.unit


def test_handover_hides_the_board_until_the_side_is_ready(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    first = acting(app)
    assert app.view.handover == team_of(app.world, first)
    p.shot("handover")
    # Clicking the board does nothing while it is hidden.
    p.click((300, 300))
    assert app.session.battle.decisions == []
    p.button("handover", app.view.handover)
    assert app.view.side == team_of(app.world, first)
    assert app.view.selected == first


def test_select_hover_move_end_turn_and_undo(duel: Path, shots: Path, save_dir: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    unit = acting(app)
    start = app.world.need(unit, Position).cell
    # Select by clicking the creature, look at the reach map, hover a cell two to the left.
    p.click_cell(start)
    assert app.view.selected == unit
    reach = app.planner.reach(app.session.battle, app.session.version, unit, None)
    assert reach, "the reach map is shown"
    target = next(c for c in (Pos(start.x, start.y - 1), Pos(start.x, start.y + 1)) if c in reach)
    p.hover(target)
    plan = app.renderer.plan(app.session, app.view, app.planner)
    assert plan is not None and plan.action is not None and plan.cells[-1] == target
    p.shot("hover_path")
    # Commit the move with a click.
    p.click_cell(target)
    assert app.world.need(unit, Position).cell == target
    p.shot("moved")
    # Undo the move (it rolled no dice), then do it again.
    p.key(pygame.K_z)
    assert app.world.need(unit, Position).cell == start
    p.click_cell(target)
    assert app.world.need(unit, Position).cell == target
    # Help overlay on and off.
    p.key(pygame.K_F1)
    assert app.view.help
    p.shot("help")
    p.key(pygame.K_ESCAPE)
    assert not app.view.help
    # End the turn: the screen goes to the other side, and an autosave is written.
    p.key(pygame.K_e)
    assert app.view.handover is not None and app.view.handover != team_of(app.world, unit)
    assert (save_dir / "duel.autosave.json").exists()
    p.shot("handover_other_side")


def test_waypoints_choose_another_path(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    unit = acting(app)
    start = app.world.need(unit, Position).cell
    app.view.move_only = "run"
    goal = Pos(start.x, start.y - 1)
    detour = Pos(start.x - 1, start.y + 1) if start.x > 1 else Pos(start.x + 1, start.y + 1)
    app._shift = True
    p.click_cell(detour)
    app._shift = False
    assert app.view.waypoints == [detour]
    p.hover(goal)
    plan = app.renderer.plan(app.session, app.view, app.planner)
    assert plan is not None and detour in plan.cells and plan.cells[-1] == goal
    p.shot("waypoint")
    p.key(pygame.K_BACKSPACE)
    assert app.view.waypoints == []


def test_save_and_load_continue_identically(duel: Path, shots: Path, save_dir: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    unit = acting(app)
    start = app.world.need(unit, Position).cell
    p.click_cell(Pos(start.x, start.y - 1))
    p.key(pygame.K_F5)
    assert app.quicksave.exists()
    decisions = [to_json(d) for d in app.session.battle.decisions]
    log = [event_json(e) for e in app.session.battle.log]
    # A second client loads it and both continue with the same decision: same events.
    other = make_app(duel)
    q = Player(other, shots)
    q.key(pygame.K_F9)
    assert [to_json(d) for d in other.session.battle.decisions] == decisions
    assert [event_json(e) for e in other.session.battle.log] == log
    q.sit_down()
    for player in (p, q):
        player.key(pygame.K_e)
    assert [event_json(e) for e in other.session.battle.log] == [
        event_json(e) for e in app.session.battle.log
    ]
    q.shot("loaded")


def test_a_damaged_save_is_reported_and_the_game_goes_on(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    app.quicksave.parent.mkdir(parents=True, exist_ok=True)
    app.quicksave.write_text('{"format": "sim-save", "version": 1, "seed": ', encoding="utf-8")
    before = list(app.session.battle.decisions)
    p.key(pygame.K_F9)
    assert "damaged save" in app.view.status and str(app.quicksave) in app.view.status
    assert app.session.battle.decisions == before
    p.shot("damaged_save")


def test_policy_is_set_from_the_client(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    unit = acting(app)
    p.key(pygame.K_p)
    last = app.session.battle.decisions[-1]
    assert to_json(last)["unit"] == unit and to_json(last)["policy"] == "never"


def test_resize_zoom_and_pan_keep_drawing(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    app.surface = pygame.Surface((800, 600))
    p.post(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0)
    p.key(pygame.K_LEFT)
    p.key(pygame.K_MINUS)
    p.key(pygame.K_HOME)
    p.shot("small_window")


def answer_everything(p: Player, choose: str | None = None) -> list[str]:
    """Go through handovers and reaction prompts until a creature may act; the prompts seen."""
    seen = []
    app = p.app
    for _ in range(20):
        if app.view.handover is not None:
            p.sit_down()
            continue
        pending = app.session.battle.pending
        if not isinstance(pending, AwaitingReaction):
            return seen
        seen.append(f"{pending.unit}:{pending.trigger}")
        p.shot("reaction_prompt")
        options = [o for o in pending.options if o != "none"]
        option = choose if choose in pending.options else (options[0] if options else "none")
        p.button("option", option)
    raise AssertionError("reactions never ended")


@needs_combat
def test_attack_of_opportunity_through_the_handover(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    mover = acting(app)
    side = app.view.side
    start = app.world.need(mover, Position).cell
    enemy = next(u for u in ("ana", "grok") if u != mover)
    step = 1 if start.x > app.world.need(enemy, Position).cell.x else -1
    away = Pos(min(7, max(1, start.x + 3 * step)), start.y)
    p.hover(away)
    plan = app.renderer.plan(app.session, app.view, app.planner)
    assert plan is not None and plan.provocations, "the path is marked as provoking"
    p.shot("provoking_path")
    p.click_cell(away)
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingReaction)
    assert app.view.handover == team_of(app.world, pending.unit) != side
    p.shot("reaction_handover")
    prompts = answer_everything(p)
    assert prompts
    # The screen comes back to the mover's side.
    assert app.view.side == side
    assert isinstance(app.session.battle.pending, AwaitingAction | BattleOver)


@needs_combat
def test_attack_with_a_defence_reaction(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    attacker = acting(app)
    enemy = next(u for u in ("ana", "grok") if u != attacker)
    p.key(pygame.K_a)
    assert app.view.targeting == "attack"
    p.hover(app.world.need(enemy, Position).cell)
    p.shot("targeting")
    p.click_cell(app.world.need(enemy, Position).cell)
    assert any(to_json(d).get("action") == "attack" for d in app.session.battle.decisions)
    prompts = answer_everything(p)
    assert any(prompt.startswith(enemy) for prompt in prompts), "the target was asked to defend"
    assert any(e.kind == "rolled" for e in app.session.battle.log[-20:])
    p.shot("after_attack")
