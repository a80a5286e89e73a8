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

from sim.content.scenario import load
from sim.core.components import Position
from sim.core.condition import Condition
from sim.core.creature import conditions, team_of
from sim.core.events import to_json as event_json
from sim.core.geometry import Pos
from sim.play.decisions import PARSERS, parse, to_json
from sim.play.engine import AwaitingAction, AwaitingReaction, BattleOver
from sim.ui.input import camera, free, orders, saving
from sim.ui.input.app import App
from sim.ui.model.actionbar import prompt_options
from sim.ui.model.session import Session
from tests.helpers import TRANSCRIPT_STATS


def fighters(name: str, rows: str, ana: str = "", grok: str = "") -> str:
    """A scenario of ana (a blue human fighter at "a") against grok (a red orc brute at "b"),
    both asking their player about reactions; `ana` and `grok` are extra TOML lines. Their
    attributes are the ones these transcripts were written for (tests/helpers.py), so the seeded
    initiative and rolls do not move when the shipped templates are balanced again."""
    ana = _stated("human_fighter", ana)
    grok = _stated("orc_brute", grok)
    return f'''
name = "{name}"
seed = 3

[map]
rows = """
{rows.strip()}
"""

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"
policy = "ask"
{ana}
[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
policy = "ask"
{grok}
'''


def _stated(template: str, extra: str) -> str:
    """`extra` TOML lines with the template's transcript attributes added, unless it sets them."""
    stats = TRANSCRIPT_STATS[template]
    given = {line.split("=")[0].strip() for line in extra.splitlines() if "=" in line}
    # First: `extra` may go on with a table of its own ([legend], [[items]]).
    return "\n".join([*(f'{k} = "{v}"' for k, v in stats.items() if k not in given), extra])


DUEL = fighters(
    "UI duel",
    """
#########
#.......#
#..ab...#
#.......#
#########
""",
)


def write_scenario(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


needs_combat = pytest.mark.skipif("attack" not in PARSERS, reason="the engine has no attack yet")


@pytest.fixture
def shots(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """Where a test's screenshots go: a temporary directory, or $SIM_SHOTS/<test name>."""
    keep = os.environ.get("SIM_SHOTS")
    where = Path(keep) / request.node.name.removeprefix("test_") if keep else tmp_path / "shots"
    where.mkdir(parents=True, exist_ok=True)
    return where


@pytest.fixture(autouse=True)
def save_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "saves"
    monkeypatch.setenv("SIM_SAVE_DIR", str(where))
    return where


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    return write_scenario(tmp_path, "duel", DUEL)


def make_app(path: Path, seed: int = 3) -> App:
    return App(Session(load(path), seed), (1280, 800))


def seed_where(path: Path, *units: str) -> int:
    """The first seed from 1 on whose initiative order of `path` begins with `units`: which seed
    that is follows the shipped templates' AGI, so a transcript on a shipped scenario that needs
    them to act first, in that order, does not depend on their numbers."""
    scenario = load(path)
    for seed in range(1, 5000):
        if Session(scenario, seed).battle.world.turn.order[: len(units)] == units:
            return seed
    raise AssertionError(f"no seed below 5000 lets {', '.join(units)} act first in {path}")


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

    def click_twice(self, cell: Pos) -> None:
        """A click the client holds back (a move a foe may attack, a Sprint: its roll cannot
        be undone, issue #33), and the second click that makes it."""
        decided = len(self.app.session.battle.decisions)
        self.click_cell(cell)
        assert self.app.view.confirm is not None, "the first click should wait for a second"
        assert len(self.app.session.battle.decisions) == decided
        self.click_cell(cell)

    def button(self, kind: str, value: str) -> None:
        self.app.frame()
        for rect, k, v in self.app.renderer.hits.items:
            if (k, v) == (kind, value):
                self.click(rect.center)
                return
        raise AssertionError(f"no {kind} button {value!r} on screen")

    def shot(self, name: str) -> Path:
        self.count = len(list(self.shots.glob("*.png"))) + 1  # numbered across players
        path = self.shots / f"{self.count:02d}_{name}.png"
        pygame.image.save(self.app.frame(), str(path))
        return path

    def sit_down(self) -> str:
        """Press Enter on the handover screen; the side that took the screen. After an answer
        to a reaction prompt, the panel of what it did comes first (issue #33): Enter there
        passes the screen."""
        assert self.app.view.handover is not None, "expected a handover screen"
        if self.app.view.aftermath:
            self.key(pygame.K_RETURN)
            assert not self.app.view.aftermath and self.app.view.handover is not None
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
    plan = app.scene.plan(app.session, app.view)
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
    assert app.session.autosave is not None and app.session.autosave.parent == save_dir
    assert app.session.autosave.name.startswith("duel.")
    assert app.session.autosave.exists()
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
    app.shift = True
    p.click_cell(detour)
    app.shift = False
    assert app.view.waypoints == [detour]
    p.hover(goal)
    plan = app.scene.plan(app.session, app.view)
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
    p.key(pygame.K_p)  # the duel's creatures are asked: P gives the next policy, "always"
    last = app.session.battle.decisions[-1]
    assert to_json(last)["unit"] == unit and to_json(last)["policy"] == "always"
    for policy in ("never", "auto", "ask"):  # and round again, "auto" (the default) then "ask"
        p.key(pygame.K_p)
        assert to_json(app.session.battle.decisions[-1])["policy"] == policy


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
    plan = app.scene.plan(app.session, app.view)
    assert plan is not None and plan.provocations, "the path is marked as provoking"
    p.key(pygame.K_g)  # Disengage first: the same path provokes nobody (R-R5)
    assert app.view.disengage
    disengaged = app.scene.plan(app.session, app.view)
    assert disengaged is not None and disengaged.provocations == ()
    p.key(pygame.K_g)
    assert not app.view.disengage
    p.shot("provoking_path")
    p.click_twice(away)
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


# --- a short skirmish played to its end through the window -----------------------------------

SHORT = fighters(
    "UI short skirmish",
    """
##########
#........#
#..ab....#
#........#
##########
""",
    ana="hp = 5          # a short fight: a hit or two of the greataxe through mail takes her down",
    grok="hp = 4          # and a hit or two of the longsword through hide takes him down",
)


@pytest.fixture
def short(tmp_path: Path) -> Path:
    return write_scenario(tmp_path, "short", SHORT)


def enemy_of(app: App, unit: str) -> str:
    return next(u for u in ("ana", "grok") if u != unit and u != "" and app.world.exists(u))


def at(app: App, unit: str) -> Pos:
    return app.world.need(unit, Position).cell


def react(p: Player, choose: str, shot: bool = True) -> str:
    """Take the seat for a reaction prompt and answer it with `choose` (or "none")."""
    app = p.app
    if app.view.handover is not None:
        p.sit_down()
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingReaction), pending
    assert app.view.side == team_of(app.world, pending.unit), "the reacting side has the screen"
    if shot:
        p.shot(f"reaction_prompt_{pending.unit}")
    option = choose if choose in pending.options else "none"
    p.button("option", option)
    return f"{pending.unit}:{option}"


def settle(p: Player, choose: str, shot: bool = True) -> list[str]:
    """Answer reaction prompts with `choose` until a creature may act; the answers given."""
    answers = []
    for _ in range(20):
        pending = p.app.session.battle.pending
        if isinstance(pending, AwaitingReaction):
            answers.append(react(p, choose, shot))
            continue
        if p.app.view.handover is not None and isinstance(pending, AwaitingAction):
            p.sit_down()
        return answers
    raise AssertionError("reaction prompts never ended")


def second_turn(p: Player, shots: bool = True) -> list[str]:
    """The side that did not move first ends... the creature now acting walks next to its enemy,
    clicks it to attack (the click-an-enemy convenience), and the defender dodges through the
    handover. Returns the reaction answers."""
    app = p.app
    if app.view.handover is not None:
        p.sit_down()
    attacker = acting(app)
    target = enemy_of(app, attacker)
    there = at(app, target)
    beside = next(
        c
        for c in (Pos(there.x + 1, there.y), Pos(there.x - 1, there.y), Pos(there.x, there.y + 1))
        if app.world.grid.inside(c) and app.unit_at(c) is None and c != at(app, attacker)
    )
    p.click_cell(beside)
    assert at(app, attacker) == beside
    p.hover(there)
    if shots:
        p.shot("hover_enemy_to_attack")
    p.click_cell(there)
    assert isinstance(app.session.battle.pending, AwaitingReaction), "the defender is asked"
    assert app.view.handover == team_of(app.world, target)
    if shots:
        p.shot("defence_handover")
    return settle(p, "dodge", shots)


@needs_combat
@pytest.mark.slow
def test_a_short_skirmish_played_to_its_end(short: Path, shots: Path, save_dir: Path) -> None:
    """Selecting, an undo, a move that provokes an attack of opportunity answered through the
    handover, a save, an attack with a defence reaction, a load that continues identically, and
    attacks until one side is defeated."""
    app = make_app(short)
    p = Player(app, shots)
    p.shot("start_handover")
    first_side = p.sit_down()
    mover = acting(app)
    enemy = enemy_of(app, mover)
    start = at(app, mover)
    assert team_of(app.world, mover) == first_side

    # Selecting: with nothing selected a click on the enemy selects it (with the acting
    # creature selected it would attack); then a click on the mover selects the mover.
    assert app.view.selected == mover, "the acting creature is selected when the seat is taken"
    p.key(pygame.K_ESCAPE)
    assert app.view.selected is None
    p.click_cell(at(app, enemy))
    assert app.view.selected == enemy and app.session.battle.decisions == []
    p.click_cell(start)
    assert app.view.selected == mover
    p.shot("selected")

    # An undo: a Step that stays in the enemy's reach rolls no dice, so Z takes it back.
    beside = Pos(start.x, start.y - 1)
    p.click_cell(beside)
    assert at(app, mover) == beside
    assert not isinstance(app.session.battle.pending, AwaitingReaction), "no provocation"
    p.shot("stepped")
    p.key(pygame.K_z)
    assert at(app, mover) == start and app.view.status == f"undone: {mover}'s step"
    p.click_cell(start)  # select it again

    # A move that provokes: the hovered path marks the cell where the enemy may attack. The
    # Walk button restricts the move to a Walk (a Step would spend the Bonus Action the mover
    # keeps for its defence later).
    p.button("action", "walk")
    assert app.view.move_only == "walk"
    there = at(app, enemy)
    step = -1 if there.x > start.x else 1
    away = Pos(start.x + 2 * step, start.y)
    p.hover(away)
    plan = app.scene.plan(app.session, app.view)
    assert plan is not None and plan.action is not None
    assert [prov.enemy for prov in plan.provocations] == [enemy]
    p.shot("provoking_path")
    p.click_twice(away)
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingReaction) and pending.unit == enemy
    assert "attack" in pending.options
    # The handover hides the board and names the enemy's side; it answers, then hands back.
    assert app.view.handover == team_of(app.world, enemy) != first_side
    p.shot("opportunity_handover")
    p.sit_down()
    p.shot("opportunity_prompt")
    p.button("option", "attack")
    answers = settle(p, "dodge")  # the mover's defence against the attack of opportunity
    assert app.view.side == first_side, "the screen comes back to the mover's side"
    assert at(app, mover) == away
    log = app.session.battle.log
    assert any(e.kind == "reaction_answered" and e.unit == enemy for e in log)  # type: ignore[attr-defined]
    assert any(e.kind == "attack_resolved" for e in log)
    assert all(answer.startswith(mover) for answer in answers)
    p.shot("after_opportunity")

    # A save in the middle of the battle, then the turn ends.
    p.key(pygame.K_F5)
    assert app.quicksave.exists() and "saved" in app.view.status
    p.key(pygame.K_e)
    assert app.view.handover == team_of(app.world, enemy)

    # The other side attacks with a defence reaction (dodge) through the handover.
    defended = second_turn(p)
    assert defended and defended[0].startswith(mover) and defended[0].endswith(":dodge")
    p.shot("after_defended_attack")

    # A load continues identically: a fresh client loads the save and plays the same inputs.
    other = make_app(short)
    q = Player(other, shots)
    q.key(pygame.K_F9)
    assert "loaded" in other.view.status
    q.sit_down()
    q.key(pygame.K_e)
    assert second_turn(q, shots=False) == defended
    assert [event_json(e) for e in other.session.battle.log] == [
        event_json(e) for e in app.session.battle.log
    ]
    assert other.session.battle.pending == app.session.battle.pending
    q.shot("loaded_and_continued")

    # Fight on, answering defences with "none", until one side is down.
    for _ in range(60):
        pending = app.session.battle.pending
        if isinstance(pending, BattleOver):
            break
        if app.view.handover is not None:
            p.sit_down()
            continue
        if isinstance(pending, AwaitingReaction):
            react(p, "none", shot=False)
            continue
        unit = acting(app)
        foe = enemy_of(app, unit)
        if free.attack_offer(app, foe) is not None:
            p.click_cell(at(app, foe))  # clicking the enemy attacks it
        else:
            p.key(pygame.K_e)
    pending = app.session.battle.pending
    assert isinstance(pending, BattleOver), pending
    assert len(pending.winners) == 1
    loser = next(u for u in ("ana", "grok") if team_of(app.world, u) not in pending.winners)
    assert "incapacitated" in {name for name, _ in conditions(app.world, loser).entries}
    assert app.view.handover is None and app.view.omniscient
    p.shot("battle_over")
    taken = {path.stem.split("_", 1)[1] for path in shots.glob("*.png")}
    assert {"provoking_path", "opportunity_handover", "opportunity_prompt", "defence_handover",
            "loaded_and_continued", "battle_over"} <= taken  # fmt: skip
    # Once it is over, either player may load the quick save and play on from there.
    p.key(pygame.K_F9)
    assert "loaded" in app.view.status
    assert not isinstance(app.session.battle.pending, BattleOver)


def test_closing_the_window_mid_turn_and_starting_again_continues(
    duel: Path, shots: Path, save_dir: Path
) -> None:
    """The window closes with a reaction window open; the autosave brings back the same world
    and the same pending question, and both games go on alike."""
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    mover = acting(app)
    start = at(app, mover)
    p.click_cell(Pos(start.x, start.y + 1))  # a step, mid-turn (no autosave yet for it)
    enemy = enemy_of(app, mover)
    moved_away = Pos(start.x - 2 if at(app, enemy).x > start.x else start.x + 2, start.y + 1)
    p.button("action", "walk")
    p.click_twice(moved_away)
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingReaction), "the close happens with a question open"
    p.shot("before_close")
    p.post(pygame.QUIT)
    assert not app.running
    autosave = app.session.autosave
    assert autosave is not None and autosave.exists()
    assert list(save_dir.glob("duel.*.autosave.json")) == [autosave]

    # Starting again as `sim play --load AUTOSAVE` does.
    from sim.formats.replay import load_save

    save, scenario, battle = load_save(autosave)
    again = App(Session(scenario, save.seed, battle), (1280, 800))
    q = Player(again, shots)
    assert again.session.battle.pending == pending
    assert again.view.handover == team_of(again.world, pending.unit), "the question is asked"
    assert [event_json(e) for e in again.session.battle.log] == [
        event_json(e) for e in app.session.battle.log
    ]
    for unit in ("ana", "grok"):
        assert again.world.need(unit, Position) == app.world.need(unit, Position)
    q.shot("restarted_from_autosave")
    # Both answer the same way and end the turn alike.
    for player in (p, q):
        react(player, "none", shot=False)
        settle(player, "none", shot=False)
    assert [event_json(e) for e in again.session.battle.log] == [
        event_json(e) for e in app.session.battle.log
    ]


# --- spells, abilities and Prepare from the client -------------------------------------------

CIRCLE = '''
name = "UI circle"
seed = 1

[map]
rows = """
###############
#.............#
#.m.........z.#
#.............#
###############
"""

[[units]]
id = "mara"
team = "blue"
template = "human_mage"
at = "m"

[[units]]
id = "zul"
team = "red"
template = "orc_shaman"
at = "z"
'''


def circle_app(tmp_path: Path) -> App:
    return make_app(write_scenario(tmp_path, "circle", CIRCLE), seed=1)


def seat_for(p: Player, unit: str) -> None:
    """Play end_turn for other creatures until `unit` may act, taking every handover."""
    app = p.app
    for _ in range(10):
        if app.view.handover is not None:
            p.sit_down()
        if acting(app) == unit:
            return
        p.key(pygame.K_e)
    raise AssertionError(f"{unit} never got a turn")


def test_cast_a_spell_chosen_from_the_list(tmp_path: Path, shots: Path) -> None:
    app = circle_app(tmp_path)
    p = Player(app, shots)
    seat_for(p, "mara")
    p.key(pygame.K_c)
    assert app.view.choosing == "cast"
    listed = orders.listed(app)
    assert listed and set(listed) <= {"firebolt", "frost_grip", "inferno", "mend"}
    p.shot("spell_list")
    index = listed.index("firebolt")
    p.key(pygame.K_1 + index)
    assert app.view.targeting == "cast" and app.view.ability == "firebolt"
    zul = at(app, "zul")
    p.hover(zul)
    assert zul in app.scene.aims(app.session, app.view), "zul is marked as a target"
    p.shot("spell_target")
    p.click_cell(zul)
    last = to_json(app.session.battle.decisions[-1])
    assert last == {"unit": "mara", "action": "cast", "spell": "firebolt", "target": "zul"}
    assert any(e.kind == "ability_used" for e in app.session.battle.log)


def test_an_area_spell_is_aimed_at_a_cell(tmp_path: Path, shots: Path) -> None:
    app = circle_app(tmp_path)
    p = Player(app, shots)
    seat_for(p, "mara")
    listed = [c for c in app.renderer.bar.entries if c.name == "cast"]
    assert listed and listed[0].ok
    p.key(pygame.K_c)
    if "inferno" not in orders.listed(app):
        pytest.skip("the mage template knows no area spell")
    p.button("choice", "inferno")
    assert app.view.targeting == "cast" and app.view.ability == "inferno"
    centre = Pos(at(app, "zul").x - 1, at(app, "zul").y)  # 9 m away: inferno reaches 16 m
    p.hover(centre)
    area = app.scene.area(app.session, app.view)
    assert centre in area and at(app, "zul") in area
    p.shot("area_preview")


def test_an_ability_on_itself_needs_no_target(tmp_path: Path, shots: Path) -> None:
    app = circle_app(tmp_path)
    p = Player(app, shots)
    seat_for(p, "zul")
    p.key(pygame.K_u)
    if "battle_focus" not in orders.listed(app):
        pytest.skip("the shaman template knows no ability on itself")
    p.shot("ability_list")
    p.button("choice", "battle_focus")
    last = to_json(app.session.battle.decisions[-1])
    assert last == {"unit": "zul", "action": "use", "ability": "battle_focus"}


def test_a_refused_spell_says_why_and_is_struck_through(tmp_path: Path, shots: Path) -> None:
    app = circle_app(tmp_path)
    p = Player(app, shots)
    seat_for(p, "mara")
    p.key(pygame.K_c)
    choices = orders.choices(app)
    refused = [c for c in choices if not c.ok]
    assert refused, "zul is 10 m away: out of frost_grip's 8 m"
    assert all("Now:" in c.detail for c in refused)
    p.button("choice", refused[0].value)
    assert app.view.targeting is None and refused[0].value in app.view.status
    p.key(pygame.K_ESCAPE)
    assert app.view.choosing is None


def test_prepare_an_attack_for_when_an_enemy_comes_near(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    unit = acting(app)
    enemy = enemy_of(app, unit)
    p.key(pygame.K_w)
    assert app.view.choosing == "prepare"
    p.shot("prepare_triggers")
    p.key(pygame.K_1)  # an enemy comes within 1.5 m
    assert app.view.preparing == {"trigger": "enemy_within", "metres": 1.5}
    entries = {e.name: e for e in app.renderer.bar.entries}
    assert entries["attack"].ok and not entries["end_turn"].ok
    p.key(pygame.K_a)
    p.hover(at(app, enemy))
    p.shot("prepare_target")
    p.click_cell(at(app, enemy))
    last = to_json(app.session.battle.decisions[-1])
    assert last == {
        "unit": unit,
        "action": "prepare",
        "trigger": "enemy_within",
        "metres": 1.5,
        "then": {"action": "attack", "target": enemy},
    }
    assert app.view.preparing is None
    assert any(e.kind == "plan_made" for e in app.session.battle.log)


def test_prepare_can_be_cancelled(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    p.key(pygame.K_w)
    p.key(pygame.K_2)
    assert app.view.preparing is not None
    p.key(pygame.K_ESCAPE)
    assert app.view.preparing is None and "cancelled" in app.view.status
    assert app.session.battle.decisions == []


@needs_combat
def test_clicking_an_enemy_in_reach_attacks_it(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    unit = acting(app)
    enemy = enemy_of(app, unit)
    p.hover(at(app, enemy))
    p.shot("enemy_tip")
    p.click_cell(at(app, enemy))
    assert to_json(app.session.battle.decisions[0]) == {
        "unit": unit,
        "action": "attack",
        "target": enemy,
    }


def test_clicking_an_enemy_out_of_reach_selects_it_and_says_why(
    tmp_path: Path, shots: Path
) -> None:
    app = circle_app(tmp_path)
    p = Player(app, shots)
    seat_for(p, "mara")
    p.click_cell(at(app, "zul"))
    assert app.session.battle.decisions[-1:] == [] or all(
        to_json(d).get("action") != "attack" for d in app.session.battle.decisions
    )
    assert app.view.selected == "zul" and "cannot attack" in app.view.status


@pytest.mark.parametrize("size", [(640, 480), (900, 600), (1920, 1080)])
def test_every_button_fits_the_window(duel: Path, shots: Path, size: tuple[int, int]) -> None:
    """Narrow or wide, the sidebar's pips and every clickable thing stay inside the window."""
    app = make_app(duel)
    app.surface = pygame.Surface(size)
    camera.fit(app)
    p = Player(app, shots)
    p.sit_down()
    p.key(pygame.K_q)  # Quicken: the bar's labels change
    p.shot(f"window_{size[0]}x{size[1]}")
    bounds = app.surface.get_rect()
    for rect, kind, value in app.renderer.hits.items:
        assert bounds.contains(rect), f"{kind} {value} at {rect} is outside {bounds}"


# --- hidden plans, the marked area of Prepare, and what a reaction prompt is about ---------------


def prepare_attack_on_grok(p: Player) -> None:
    """ana (blue, first in the duel) prepares an attack on grok for when an enemy comes within
    1.5 m; the screen goes to red."""
    app = p.app
    p.sit_down()
    assert acting(app) == "ana"
    p.key(pygame.K_w)
    p.key(pygame.K_1)  # an enemy comes within 1.5 m
    p.key(pygame.K_a)
    p.click_cell(at(app, "grok"))
    assert any(e.kind == "plan_made" for e in app.session.battle.log)
    assert app.view.handover == "red"


def test_a_prepared_plan_is_hidden_from_the_other_side(duel: Path, shots: Path) -> None:
    """At a table you see that someone holds an action, not what for: the other side's sidebar
    and log say that ana holds an action ready; ana's own side reads the trigger and the
    action."""
    app = make_app(duel)
    p = Player(app, shots)
    prepare_attack_on_grok(p)
    p.sit_down()
    assert app.view.side == "red"
    p.button("unit", "ana")  # select ana from the initiative list
    assert app.view.selected == "ana"
    about = " ".join(app.scene.unit_lines(app.session, app.view, "ana"))
    assert "holds an action ready" in about
    assert "attack" not in about and "1.5" not in about
    log = app.scene.log_lines(app.session, app.view)
    assert "ana holds an action ready (what for is hidden)" in log
    assert not any("prepares" in line or "1.5 m" in line for line in log)
    p.shot("plan_hidden_from_red")

    # grok walks away from ana: ana's attack of opportunity brings blue to the screen.
    grok = at(app, "grok")
    p.button("action", "walk")
    p.click_twice(Pos(grok.x + 2, grok.y))
    p.sit_down()
    assert app.view.side == "blue"
    p.button("unit", "ana")
    about = " ".join(app.scene.unit_lines(app.session, app.view, "ana"))
    assert "prepared: attack grok when an enemy comes within 1.5 m" in about
    log = app.scene.log_lines(app.session, app.view)
    assert "ana prepares to attack grok when an enemy comes within 1.5 m" in log
    p.shot("plan_shown_to_blue")


def test_prepare_for_a_creature_entering_a_marked_area(duel: Path, shots: Path) -> None:
    """The enters_area trigger from the client: pick it, click cells on the board to mark them
    (a second click unmarks, a wall is refused), Enter, then the action as for any trigger;
    the decision is the script's. Only blue is shown the area afterwards."""
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    assert acting(app) == "ana"
    p.key(pygame.K_w)
    assert "area" in orders.listed(app)
    p.button("choice", "area")
    assert app.view.choosing is None and app.view.marking == []
    p.key(pygame.K_RETURN)  # nothing marked yet: nothing happens
    assert app.view.marking == [] and "at least one cell" in app.view.status
    for cell in (Pos(5, 3), Pos(5, 2), Pos(6, 2), Pos(5, 1)):
        p.click_cell(cell)
    p.click_cell(Pos(6, 2))  # unmark
    p.click_cell(Pos(5, 0))  # a wall
    assert "wall" in app.view.status
    assert app.view.marking == [Pos(5, 3), Pos(5, 2), Pos(5, 1)]
    assert app.session.battle.decisions == []
    p.hover(Pos(6, 2))
    assert app.scene.marked_areas(app.session, app.view) == [
        ((Pos(5, 3), Pos(5, 2), Pos(5, 1)), "marking: 3 cells")
    ]
    p.shot("area_marking")
    p.key(pygame.K_RETURN)
    assert app.view.marking is None
    assert app.view.preparing == {"trigger": "enters_area", "cells": [[5, 1], [5, 2], [5, 3]]}
    p.key(pygame.K_a)
    p.hover(at(app, "grok"))
    p.shot("area_then_target")
    p.click_cell(at(app, "grok"))
    script = {
        "unit": "ana",
        "action": "prepare",
        "trigger": "enters_area",
        "cells": [[5, 1], [5, 2], [5, 3]],
        "then": {"action": "attack", "target": "grok"},
    }
    last = app.session.battle.decisions[-1]
    assert to_json(last) == script and last == parse(script)

    # Red does not see the area (nor what ana holds ready).
    p.sit_down()
    assert app.view.side == "red"
    assert app.scene.marked_areas(app.session, app.view) == []
    p.shot("area_hidden_from_red")
    # grok steps into the area: leaving ana's reach, blue gets the screen for the attack of
    # opportunity and sees its area; then the step sets the plan off.
    p.button("action", "step")
    p.click_twice(Pos(5, 2))
    p.sit_down()
    assert app.view.side == "blue"
    assert app.scene.marked_areas(app.session, app.view) == [
        ((Pos(5, 1), Pos(5, 2), Pos(5, 3)), "ana watches this area")
    ]
    p.shot("area_shown_to_blue")
    react(p, "none", shot=False)
    assert any(e.kind == "plan_triggered" and e.unit == "ana" for e in app.session.battle.log)  # type: ignore[attr-defined]


def test_marking_an_area_is_cancelled_with_escape(duel: Path, shots: Path) -> None:
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    p.key(pygame.K_w)
    p.button("choice", "area")
    p.click_cell(Pos(5, 1))
    p.key(pygame.K_ESCAPE)
    assert app.view.marking is None and app.view.preparing is None
    assert "cancelled" in app.view.status
    p.click_cell(Pos(3, 1))  # a click moves again
    assert at(app, "ana") == Pos(3, 1)
    assert [to_json(d)["action"] for d in app.session.battle.decisions] == ["step"]


@needs_combat
def test_a_reaction_prompt_shows_the_move_and_the_attack_it_is_about(
    duel: Path, shots: Path
) -> None:
    """ana walks away from grok: grok's prompt (red) shows ana's path and where it ends; when
    grok attacks, ana's defence prompt (blue) shows grok's attack as an arrow, and the rest of
    the walk."""
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    assert acting(app) == "ana" and at(app, "ana") == Pos(3, 2)
    p.button("action", "walk")
    p.click_twice(Pos(1, 3))
    p.sit_down()
    assert app.view.side == "red"
    shown = app.scene.underway_shown(app.session, app.view)
    assert shown is not None and shown.move is not None and not shown.aims
    assert shown.move.unit == "ana" and shown.move.here == Pos(3, 2)
    assert shown.move.end == Pos(1, 3) and shown.move.ahead[-1] == Pos(1, 3)
    assert shown.move.ahead == tuple(
        Pos(*c) for c in to_json(app.session.battle.decisions[-1])["path"]
    )
    p.shot("reaction_shows_destination")
    p.button("option", "attack")
    p.sit_down()
    assert app.view.side == "blue"
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingReaction) and pending.unit == "ana"
    shown = app.scene.underway_shown(app.session, app.view)
    assert shown is not None and shown.move is not None and shown.move.end == Pos(1, 3)
    assert [(a.actor, a.what, a.target) for a in shown.aims] == [
        ("grok", "attack of opportunity", "ana")
    ]
    p.shot("reaction_shows_attack")
    react(p, "none", shot=False)
    assert app.scene.underway_shown(app.session, app.view) is None


def test_the_side_answering_a_reaction_cannot_undo_or_load_the_other_sides_turn(
    duel: Path, shots: Path
) -> None:
    """ana walks away from grok; red, seated for grok's prompt and shown ana's whole path, may
    not take ana's move back with Z, Shift+Z or the quick load: only the acting side may."""
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    saving.save(app)  # a quick save exists, so a refused load is refused for the seat, not the file
    p.button("action", "walk")
    p.click_twice(Pos(1, 3))
    assert app.view.handover == "red"
    p.key(pygame.K_F9)  # not from the handover to grok's prompt either
    assert "cannot load: take the screen first" in app.view.status
    p.sit_down()
    assert app.view.side == "red"
    before = [to_json(d) for d in app.session.battle.decisions]
    for mod in (0, pygame.KMOD_SHIFT):
        p.key(pygame.K_z, mod=mod)
        assert "cannot undo: only the side whose creature is acting" in app.view.status
    p.key(pygame.K_F9)
    assert "cannot load: only the side whose creature is acting" in app.view.status
    assert [to_json(d) for d in app.session.battle.decisions] == before
    assert isinstance(app.session.battle.pending, AwaitingReaction)
    react(p, "none", shot=False)
    p.sit_down()
    assert acting(app) == "ana"
    p.key(pygame.K_z)  # ana's own side may take its walk back
    # What Z took back is said: grok's answer, made on ana's turn (ana never left her cell).
    assert app.view.status == "undone: grok's answer (no reaction)" and at(app, "ana") == Pos(3, 2)


def test_a_sprints_prompt_shows_where_its_rolled_metres_end_it(tmp_path: Path) -> None:
    """R-M1: a Sprint's metres are rolled when it is declared, and the move stops where they
    run out; grok's prompt, as ana sprints out of its reach, shows that cell, not the end of
    the written path nor the destination: a path with a jump over a pit whose run-up was
    already run (R-M6), and the same move given only by "to"."""
    from sim.play.engine import ReactionChoice
    from sim.ui.words.underway import underway

    def line(cells: str) -> str:
        return "#" + cells.ljust(32, ".") + "#"

    rows = "\n".join(["#" * 34, line("........b"), line("..a......_"), line(""), "#" * 34])
    path = write_scenario(tmp_path, "pit", fighters("pit", rows))
    written = [[x, 2] for x in range(4, 10)] + [[11, 2, "jump"]] + [[x, 2] for x in range(12, 26)]
    cut_short = 0
    for move in ({"path": written}, {"to": [25, 2]}):
        for seed in range(8):
            session = Session(load(path), seed)
            battle = session.battle
            if battle.pending.unit != "ana":
                session.submit(parse({"unit": "grok", "action": "end_turn"}))
            session.submit(parse({"unit": "ana", "action": "sprint", **move}))
            assert isinstance(battle.pending, AwaitingReaction), f"{move} seed {seed}"
            shown = underway(battle)
            assert shown is not None and shown.move is not None
            while isinstance(battle.pending, AwaitingReaction):
                session.submit(ReactionChoice(battle.pending.unit, "none"))
            end = battle.world.need("ana", Position).cell
            assert end == shown.move.end, f"{move} seed {seed}"
            cut_short += end != Pos(25, 2)
    assert cut_short, "no seed rolled a Sprint too short for the path"


# --- Assist (R-X21): the ally, then the enemy, clicked on the board -----------------------------

TRIO = fighters(
    "UI assist",
    """
#########
#.......#
#..ab...#
#..c....#
#########
""",
    grok="""
[[units]]
id = "bram"
team = "blue"
template = "human_fighter"
at = "c"
policy = "ask"
""",
)


def test_assist_picks_the_ally_then_the_enemy_with_its_cost_or_refusal(
    tmp_path: Path, shots: Path
) -> None:
    """R-X21 in the client: the bar offers Assist with its cost; bram clicks his ally ana (an
    enemy clicked first is refused with the reason), then grok; the decision is the script's."""
    app = make_app(write_scenario(tmp_path, "trio", TRIO))
    p = Player(app, shots)
    seat_for(p, "bram")
    app.frame()
    entry = next(e for e in app.renderer.bar.entries if e.name == "assist")
    assert (entry.ok, entry.label) == (True, "B")
    assert entry.detail == "Bonus Action: 1 Bonus Action"
    p.button("action", "assist")
    assert app.view.targeting == "assist" and app.view.ally is None
    ana, grok = at(app, "ana"), at(app, "grok")
    assert app.scene.aims(app.session, app.view) == (ana,), "only ana can be the ally"
    p.hover(ana)
    p.shot("assist_ally")
    p.click_cell(grok)
    assert app.view.status == "refused: grok is not on bram's side; Assist helps an ally (R-X21)"
    assert app.view.ally is None
    p.click_cell(ana)
    assert app.view.ally == "ana"
    assert app.view.status == "assist ana: click the enemy ana is helped against (Esc cancels)"
    assert app.scene.aims(app.session, app.view) == (grok,)
    p.hover(grok)
    p.shot("assist_enemy")
    p.click_cell(grok)
    assert to_json(app.session.battle.decisions[-1]) == {
        "unit": "bram", "action": "assist", "ally": "ana", "enemy": "grok"
    }  # fmt: skip
    answer_everything(p, "none")  # grok, next to bram, may Interrupt it (R-R7); he lets it be
    assert conditions(app.world, "ana").creature(Condition.ASSISTED) == "grok"
    assert app.view.targeting is None and app.view.ally is None


def test_assist_without_an_ally_in_reach_says_why(tmp_path: Path, shots: Path) -> None:
    """R-X21: ana has bram in sight but not in reach: the bar says so, in words."""
    app = make_app(write_scenario(tmp_path, "trio", TRIO.replace("#..c....#", "#......c#")))
    p = Player(app, shots)
    seat_for(p, "ana")
    app.frame()
    entry = next(e for e in app.renderer.bar.entries if e.name == "assist")
    assert not entry.ok
    assert entry.detail == "bram at (7,3) is out of ana's melee reach (R-X21, R-A4)"


def test_a_reaction_on_its_own_turn_can_be_answered_slowed(duel: Path, shots: Path) -> None:
    """R-B7 in the client: the mover steps out of its enemy's reach; the enemy's Attack of
    Opportunity comes on the mover's own turn, so its prompt also offers each defence slowed,
    paid with a half-action instead of a Bonus Action. Between turns none is offered."""
    app = make_app(duel)
    p = Player(app, shots)
    p.sit_down()
    mover = acting(app)
    enemy = next(u for u in ("ana", "grok") if u != mover)
    start = app.world.need(mover, Position).cell
    step = 1 if start.x > app.world.need(enemy, Position).cell.x else -1
    p.click_twice(Pos(start.x + 2 * step, start.y))
    assert [to_json(d)["action"] for d in app.session.battle.decisions] == ["step"]
    for _ in range(6):
        if app.view.handover is not None:
            p.sit_down()
        pending = app.session.battle.pending
        assert isinstance(pending, AwaitingReaction)
        if pending.unit == enemy:
            assert "attack slowed" not in prompt_options(app.session.battle)  # not its turn
            p.button("option", "attack")
            continue
        assert pending.kind == "defence"
        offered = prompt_options(app.session.battle)
        assert "dodge slowed" in offered, offered
        p.shot("slowed_option")
        p.button("option", "dodge slowed")
        break
    assert to_json(app.session.battle.decisions[-1]) == {
        "unit": mover, "reaction": "dodge", "slow": True
    }  # fmt: skip
    paid = [e for e in app.session.battle.log if e.kind == "spent" and e.unit == mover]
    assert [(e.action, e.tier, e.half, e.bonus) for e in paid][-1] == ("dodge", "half", 1, 0)


def test_an_assist_can_be_held_ready_for_a_prepare_trigger(tmp_path: Path, shots: Path) -> None:
    """R-X21 with R-P1: ana, whose ally bram is out of her reach now, prepares an Assist for
    when grok ends its turn: the ally and the enemy are clicked as usual, and the Assist
    becomes Prepare's "then", checked again when the trigger comes."""
    app = make_app(write_scenario(tmp_path, "trio", TRIO.replace("#..c....#", "#......c#")))
    p = Player(app, shots)
    seat_for(p, "ana")
    p.key(pygame.K_w)  # Prepare: choose the trigger
    p.key(pygame.K_1 + orders.listed(app).index("ends:grok"))
    assert app.view.preparing == {"trigger": "ends_turn", "watch": "grok"}
    p.button("action", "assist")
    p.click_cell(at(app, "bram"))
    assert app.view.ally == "bram", app.view.status
    p.click_cell(at(app, "grok"))
    assert to_json(app.session.battle.decisions[-1]) == {
        "unit": "ana", "action": "prepare", "trigger": "ends_turn", "watch": "grok",
        "then": {"action": "assist", "ally": "bram", "enemy": "grok"},
    }  # fmt: skip


POOLSIDE = fighters(
    "UI pool",
    """
##########
#........#
#.aWWW...#
#..WWW..b#
##########
""",
    grok='[legend]\nW = { kind = "open", water = 2.0 }\n',
)


def test_dive_from_the_bar_swims_submerged_and_the_token_is_drawn_under_water(
    tmp_path: Path, shots: Path
) -> None:
    """R-M8 Decision (diving): the bar offers "dive" beside "swim"; with it chosen the reach
    map is the dive's (only water at least as deep as ana is tall), the hovered path says
    "Swim submerged", and a click commits a Swim with "submerged". The submerged token gets a
    "v" badge and is drawn under a blue wash with waves."""
    app = make_app(write_scenario(tmp_path, "pool", POOLSIDE))
    p = Player(app, shots)
    p.sit_down()
    unit = acting(app)
    assert unit == "ana"
    p.button("action", "dive")
    assert app.view.move_only == "dive"
    reach = app.planner.reach(app.session.battle, app.session.version, unit, "dive")
    assert set(reach) == {Pos(x, y) for x in (3, 4) for y in (2, 3)}  # 3 m of Swim
    p.hover(Pos(4, 2))
    plan = app.scene.plan(app.session, app.view)
    assert plan is not None and plan.action == "swim" and plan.submerged
    p.shot("dive_path")
    p.click_cell(Pos(4, 2))
    last = to_json(app.session.battle.decisions[-1])
    assert last == {"unit": "ana", "action": "swim", "path": [[3, 2], [4, 2]], "submerged": True}
    assert conditions(app.world, "ana").has("submerged")
    path = p.shot("submerged")
    assert path.exists()


# --- items by name, not by id ---------------------------------------------------------------


def catch_window(held: list[str]) -> App:
    """ana throws her dagger at bo, who holds `held` (both hands full) and asks his player;
    he declines a defence, and the Catch window opens (R-R6: dropping a held item frees a
    hand). Loaded dice: initiative 8, 7, 6, then ana's Hit Roll die 5."""
    from sim.content.scenario import loads
    from sim.core.dice import LoadedDice
    from tests.movers import creature

    units = [
        creature("ana", "blue", "a", held=["dagger"]),
        creature("bo", "red", "b", held=held, carried=["healing_potion"] * 2, policy="ask"),
        creature("cy", "red", "c"),
    ]
    text = '\nname = "Catch"\n\n[map]\nrows = """\n.a..b.\n.....c\n"""\n\n' + "\n".join(units)
    scenario = loads(text, "catch.toml")
    battle = scenario.begin(LoadedDice([8, 7, 6, 5, 1, 1, 1]))
    battle.submit(parse({"unit": "ana", "action": "throw", "target": "bo", "item": "dagger"}))
    battle.submit(parse({"unit": "bo", "reaction": "none"}))
    session = Session(scenario, 0, battle)
    session.autosave = None
    return App(session, (1280, 800))


def drawn_text(app: App) -> list[str]:
    """Every piece of text the next frame draws."""
    said: list[str] = []
    fonts = app.renderer.fonts
    draw = fonts.draw

    def record(target: pygame.Surface, text: str, *args: object, **kw: object) -> pygame.Rect:
        said.append(text)
        return draw(target, text, *args, **kw)  # type: ignore[arg-type]

    fonts.draw = record  # type: ignore[method-assign]
    try:
        app.frame()
    finally:
        fonts.draw = draw  # type: ignore[method-assign]
    return said


@pytest.mark.parametrize(
    ("held", "labels", "holds"),
    [
        (
            ["longsword", "heater"],
            ["catch, dropping the longsword", "catch, dropping the heater shield"],
            "holds: longsword, heater shield",
        ),
        (
            ["dagger", "dagger"],
            ["catch, dropping the first dagger", "catch, dropping the second dagger"],
            "holds: first dagger, second dagger",
        ),
    ],
)
def test_the_catch_prompt_and_the_sidebar_name_items_not_their_ids(
    shots: Path, held: list[str], labels: list[str], holds: str
) -> None:
    """R-R6: the Catch options read "catch, dropping the heater shield", not "catch, dropping
    bo.heater", and two daggers are told apart in words; the option sends the engine's value
    ("catch, dropping bo.dagger2") all the same. The sidebar says what bo holds and carries
    by name."""
    app = catch_window(held)
    p = Player(app, shots)
    p.sit_down()
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingReaction) and pending.unit == "bo"
    second = "bo.dagger2" if held == ["dagger", "dagger"] else f"bo.{held[1]}"
    values = [f"catch, dropping bo.{held[0]}", f"catch, dropping {second}"]
    assert pending.options == (*values, "none")
    text = drawn_text(app)
    assert [f"[{n}]  {label}" for n, label in enumerate(labels, start=1)] == [
        t for t in text if t.startswith(("[1]  catch", "[2]  catch"))
    ]
    assert not any("bo." in t for t in text), [t for t in text if "bo." in t]
    p.button("unit", "bo")
    about = app.scene.unit_lines(app.session, app.view, "bo")
    assert holds in about and "carries: healing potion ×2" in about
    p.button("option", values[1])
    answered = [e for e in app.session.battle.log if e.kind == "reaction_answered"][-1]
    assert event_json(answered)["choice"] == values[1]
    p.shot("caught")


def test_the_item_list_names_items_and_tells_alike_ones_apart_by_where_they_are() -> None:
    """The item picker (Draw, Drop, Throw...) labels items by name; daggers in hand, carried
    and on the ground say where each is, and two carried ones which is which."""
    from sim.content.scenario import loads
    from sim.core.dice import LoadedDice
    from sim.ui.model.actionbar import item_choice_labels, item_choices
    from tests.movers import creature

    ana = creature(
        "ana", "blue", "a", held=["dagger"], carried=["dagger", "dagger", "healing_potion"],
        armour="mail",
    )  # fmt: skip
    text = (
        '\nname = "Items"\n\n[map]\nrows = """\n.a..b.\n"""\n\n'
        + "\n".join([ana, creature("bo", "red", "b")])
        + '\n\n[[items]]\nkind = "dagger"\nat = [2, 0]\n'
    )
    scenario = loads(text, "items.toml")
    battle = scenario.begin(LoadedDice([8, 7]))
    items = item_choices(battle, "ana")
    assert item_choice_labels(battle, "ana", items) == {
        "ana.dagger": "dagger, in hand",
        "ana.dagger2": "first dagger, carried",
        "ana.dagger3": "second dagger, carried",
        "ana.healing_potion": "healing potion",
        "dagger1": "dagger, on the ground",
    }
    assert "ana.mail" not in items  # worn armour: no item action takes it (issue #15)
