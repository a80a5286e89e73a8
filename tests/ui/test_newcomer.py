"""Issue #33, a newcomer's first hour: what hid an answer or misled. A refusal said while the
mouse rests on the action bar stays in sight; a struck-through button chooses nothing; the
menu's Load is greyed when it cannot load; the replay viewer offers nothing it cannot do; the
threat legend says whose reach it shows; the sidebar's seat line is wrapped, not cut; nobody's
reach is drawn once the battle is over; Step cells do not look like difficult ground; a tip
keeps off the path and the results it is about; a foe that cannot attack is not warned of; and
"can be hit by" agrees with a tip that offers an attack. Driven headless with posted events, as
tests/ui/test_client.py (screenshots go to $SIM_SHOTS when it is set)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.content.scenario import load
from sim.core.components import Budget
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.formats.replay import load_save
from sim.play.decisions import parse
from sim.play.engine import AwaitingAction, BattleOver
from sim.ui.draw.overlay import Overlays
from sim.ui.draw.terrain import TerrainLayer
from sim.ui.draw.text import Fonts
from sim.ui.input.app import App
from sim.ui.input.viewer import Viewer, open_save
from sim.ui.look import palette as pal
from sim.ui.model.session import Session
from tests.ui import test_client as client
from tests.ui.test_client import DUEL, Player, at, make_app, seed_where, write_scenario

shots = client.shots
TOP = Path(__file__).resolve().parents[2]
SKIRMISH = TOP / "scenarios" / "skirmish.toml"
BRAM_FIRST = 6  # the skirmish's seed where bram (blue's archer) acts first


def bram_first(shots: Path, size: tuple[int, int] = (1280, 800)) -> tuple[App, Player]:
    app = App(Session(load(SKIRMISH), BRAM_FIRST), size)
    p = Player(app, shots)
    p.sit_down()
    assert app.session.battle.pending == AwaitingAction("bram")
    return app, p


def button(app: App, kind: str, value: str) -> pygame.Rect:
    app.frame()
    return next(r for r, k, v in app.renderer.hits.items if (k, v) == (kind, value))


def test_a_refusal_said_while_the_mouse_rests_on_the_bar_stays_in_sight(shots: Path) -> None:
    """The mouse on the Attack button shows that button's words; Z and F9 then say why they
    do nothing, and that is what the status line shows, not the button's words (which hid
    them); on the next button the mouse goes to, its words again."""
    app, p = bram_first(shots)
    p.move_mouse(button(app, "action", "attack").center)
    app.frame()
    assert app.renderer.bar_status.startswith("attack: ")
    p.key(pygame.K_z)
    app.frame()
    assert app.renderer.bar_status == "cannot undo: nothing to undo"
    p.shot("undo_refused_over_the_bar")
    p.key(pygame.K_F9)
    app.frame()
    assert app.renderer.bar_status.startswith("cannot load: no quick save of this scenario yet")
    p.move_mouse(button(app, "action", "aim").center)
    app.frame()
    assert app.renderer.bar_status.startswith("aim: ")


def test_a_struck_through_button_chooses_nothing(shots: Path) -> None:
    """bram has no water deep enough to dive in, nothing to jump, no face to climb: each of
    those buttons is struck through, and a click on it says why and leaves the board as it
    was (a click once set the board to "click a cell" for it)."""
    app, p = bram_first(shots)
    for name in ("dive", "climb", "jump", "crawl"):
        entry = next(e for e in app.renderer.bar.entries if e.name == name)
        assert not entry.ok, name
        p.button("action", name)
        assert app.view.move_only is None, name
        assert app.view.status == f"{name}: {entry.detail}"
    p.button("action", "walk")
    assert app.view.move_only == "walk"
    p.button("action", "walk")  # toggled off again
    assert app.view.move_only is None


def test_the_menus_load_is_greyed_when_the_quick_save_cannot_be_loaded(shots: Path) -> None:
    """F5 at the start, then a Sprint (its distance is rolled): the quick save is from before
    a roll, so the menu's Load line is greyed with undo's reason, as F9 refuses it."""
    app, p = bram_first(shots)
    p.key(pygame.K_F5)
    load_line = next(line for line in app.menu.lines() if line.value == "load")
    assert load_line.ok
    app.submit(parse({"unit": "bram", "action": "sprint", "to": [6, 5]}))
    load_line = next(line for line in app.menu.lines() if line.value == "load")
    assert not load_line.ok
    assert load_line.detail.startswith("dice were rolled in this battle since that save")
    p.key(pygame.K_ESCAPE)
    p.key(pygame.K_ESCAPE)
    assert app.view.menu == "main"
    p.shot("load_greyed")
    p.button("menu", "load")
    assert app.view.status.startswith("Load the quick save: dice were rolled")
    assert app.view.menu == "main"


def finished_save(tmp_path: Path) -> Path:
    """A whole AI battle of the skirmish, saved."""
    from sim.ai.seats import play, players
    from sim.formats.replay import write

    session = Session(load(SKIRMISH), 5)
    session.autosave = None
    play(session.battle, players({"blue": "easy", "red": "easy"}, 5), round_cap=30)
    assert isinstance(session.battle.pending, BattleOver)
    path = tmp_path / "done.save.json"
    write(path, session.save())
    return path


def test_the_replay_viewer_offers_nothing_it_cannot_do(tmp_path: Path, shots: Path) -> None:
    """At the end of a replay: the battle-over panel has no Play again (N did nothing there),
    the bar has only the overlay toggles and help, no action buttons, and nobody's reach is
    drawn."""
    viewer = Viewer(open_save(finished_save(tmp_path)), (1280, 800))
    p = Player(viewer, shots)
    p.key(pygame.K_END)
    viewer.frame()
    hits = {(k, v) for _, k, v in viewer.renderer.hits.items}
    assert ("over", "again") not in hits
    assert not [v for k, v in hits if k == "action"]
    assert sorted(v for k, v in hits if k == "toggle") == ["help", "own", "reach", "threat"]
    assert viewer.scene.reach_tiles(viewer.session, viewer.view)[0] == []
    p.shot("replay_end")


def test_nobodys_reach_is_drawn_once_the_battle_is_over(tmp_path: Path, shots: Path) -> None:
    """The game's last decision: the battle is over and every creature is seen; selecting a
    downed one or a standing one draws no reach and no own reach."""
    saved, scenario, battle = load_save(finished_save(tmp_path))
    session = Session(scenario, saved.seed, battle)
    session.autosave = None
    app = App(session, (1280, 800))
    assert app.view.omniscient
    world = app.world
    for unit in ("ana", "bram", "grok", "vex"):
        app.view.selected = unit
        app.view.show_own = True
        assert app.scene.reach_tiles(app.session, app.view) == ([], [], []), unit
        assert app.scene.own_reach(app.session, unit) == (), unit
    assert world.turn.over
    Player(app, shots).shot("over_no_reach")


def test_the_threat_legend_says_whose_reach_it_shows(tmp_path: Path, shots: Path) -> None:
    """Blue at the screen: "enemies reach". Everyone's view (the AI plays both sides, or a
    replay): it shows every side's, and says so."""
    app, p = bram_first(shots)
    p.key(pygame.K_t)
    app.frame()
    assert app.renderer.legend[-1] == "enemies reach (count)"
    both = App(Session(load(SKIRMISH), BRAM_FIRST), (1280, 800), ai={"blue": "easy", "red": "easy"})
    both.view.show_threat = True
    both.frame()
    assert both.renderer.legend[-1] == "blue, red reach (count)"


def test_the_seat_line_is_wrapped_when_the_ai_plays_both_sides(shots: Path) -> None:
    """At 1280x800 "Round 1 · seat: everyone · BLUE: AI normal · RED: AI hard" is wider than
    the sidebar: it is wrapped onto two lines, each of which fits, not cut. The bar shows no
    live buttons for the AI's creature."""
    app = App(
        Session(load(SKIRMISH), BRAM_FIRST), (1280, 800), ai={"blue": "normal", "red": "hard"}
    )
    p = Player(app, shots)
    app.frame()
    lines = app.renderer.sidebar.seat_lines
    assert " ".join(lines) == "Round 1 · seat: everyone · BLUE: AI normal · RED: AI hard"
    width = app.renderer.layout(app.surface.get_size()).sidebar.width - app.renderer.m.px(20)
    fonts = app.renderer.fonts
    assert len(lines) == 2 and all(
        fonts.width(line, app.renderer.m.font) <= width for line in lines
    )
    assert not [e for e in app.renderer.bar.entries if e.ok]
    p.shot("ai_both_sides")


def test_step_cells_are_not_dotted_like_difficult_ground() -> None:
    """The Step overlay's marks are crosses; difficult ground's are dots: less than a third of
    the marked pixels of one are marked in the other."""
    pygame.init()
    c = 48
    fonts = Fonts()
    step = Overlays(fonts).reach_tile("step", c)
    grid = load(SKIRMISH).world.grid
    ground = TerrainLayer(grid, fonts).tile(c, int(Kind.DIFFICULT), 0, 0, 0, False)
    inked = {(x, y) for x in range(c) for y in range(c) if step.get_at((x, y)).a > 140}
    base = ground.get_at((0, 0))
    dots = {(x, y) for x in range(c) for y in range(c) if ground.get_at((x, y)) != base}
    assert inked and dots
    assert len(inked & dots) < len(inked) / 3
    assert pal.MOVE_STYLES["step"].pattern != "dots"


def test_a_tip_keeps_off_the_path_and_the_results_it_is_about(shots: Path) -> None:
    """bram's 10 m Sprint along row 4: the tip covers no cell of the path (it once lay across
    it). After an attack, the hit or miss marker over its target stays clear of the tip of an
    attack on it."""
    app, p = bram_first(shots, (1600, 1000))
    start = at(app, "bram")
    # A cell only a Sprint reaches (nearer ones a Run reaches, hopping through the ford's mud:
    # a jump's metres are paid one for one, R-M6).
    end = Pos(start.x + 9, start.y - 1)
    p.hover(end)
    tip = app.renderer.tip
    assert tip is not None and tip[0][0].startswith("Sprint")
    plan = app.scene.plan(app.session, app.view)
    assert plan is not None
    cells = [start, *plan.cells]
    covered = [c for c in cells if tip[1].colliderect(pygame.Rect(*app.camera.screen(c),
               app.camera.cell, app.camera.cell))]  # fmt: skip
    assert covered == [], covered
    p.shot("sprint_tip_off_the_path")
    result = app.submit(parse({"unit": "bram", "action": "attack", "target": "grok"}))
    assert not hasattr(result, "reason"), result
    assert app.view.markers
    p.hover(at(app, "grok"))
    tip = app.renderer.tip
    assert tip is not None
    assert tip[1].collidelist(app.renderer.tips.marker_rects) == -1
    p.shot("attack_tip_off_the_marker")


def test_a_foe_without_a_bonus_action_is_not_warned_of(tmp_path: Path, shots: Path) -> None:
    """grok (first) spends both Bonus Actions on Steps that keep him beside ana; on her turn
    ana's walk away from him: the tip says grok cannot attack, without the "!" (it warned
    "grok may attack (no Bonus Action left)"), and no warning triangle is drawn."""
    path = write_scenario(tmp_path, "duel", DUEL)
    app = make_app(path, seed_where(path, "grok"))
    p = Player(app, shots)
    for line in (
        {"unit": "grok", "action": "step", "path": [[4, 1]]},
        {"unit": "grok", "action": "step", "path": [[4, 2]]},
        {"unit": "grok", "action": "end_turn"},
    ):
        assert not hasattr(app.session.submit(parse(line)), "reason"), line
    app.sync()
    p.sit_down()
    assert app.session.battle.pending == AwaitingAction("ana")
    assert app.world.need("grok", Budget).bonus == 0
    p.hover(Pos(1, 2))
    rows = app.renderer.tip[0] if app.renderer.tip else ()
    assert "leaving (3,2): grok cannot attack (no Bonus Action left)" in rows, rows
    assert not any(row.startswith("!") for row in rows)
    p.shot("harmless_provocation")


def test_can_be_hit_by_agrees_with_a_tip_that_offers_an_attack(shots: Path) -> None:
    """bram hovers grok across the ford: the tip offers "click: attack grok" (his bow), and the
    sidebar's line about grok's cell names bram as able to hit it, at range (it said
    "can be hit by: nobody", counting only melee reach)."""
    app, p = bram_first(shots)
    p.hover(at(app, "grok"))
    rows = app.renderer.tip[0] if app.renderer.tip else ()
    assert any(row.startswith("click: attack grok") for row in rows), rows
    assert app.scene.cell_hitters(app.session, app.view) == "grok can be hit by: bram (ranged)"
    p.hover(Pos(3, 4))  # an empty cell: whose melee reach covers one of ours there
    assert app.scene.cell_hitters(app.session, app.view) == "can be hit by: nobody"
    p.shot("can_be_hit_by")


# --- traps that cost a player the game -----------------------------------------------------

ARCHER = """
name = "archer"
seed = 3

[map]
rows = \"\"\"
########
#......#
#..ab..#
#......#
########
\"\"\"

[[units]]
id = "bram"
team = "blue"
template = "human_archer"
at = "a"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
"""
SPRINT_WHY = "a Sprint rolls its distance (AGI Roll + Bonus), and its roll cannot be undone"


def test_a_sprint_says_it_rolls_and_waits_for_a_second_click(shots: Path) -> None:
    """bram's 9.5 m Sprint: the tip says its distance is rolled and no undo takes that back,
    and that a click asks once more. The first click decides nothing and says so; the tip then
    says a second click (or Enter) goes; Esc drops it. Armed again, Enter makes the Sprint,
    and Z refuses to take it back, as the tip said."""
    app, p = bram_first(shots, (1600, 1000))
    end = Pos(at(app, "bram").x + 9, at(app, "bram").y - 1)  # only a Sprint reaches it
    p.hover(end)
    rows = app.renderer.tip[0] if app.renderer.tip else ()
    assert rows[0] == "Sprint 9.5 m, 4 jumps (dashed)"
    assert SPRINT_WHY in " ".join(rows) and rows[-1] == "a click asks once more before it goes"
    p.shot("sprint_tip_warns")
    p.click_cell(end)
    assert app.session.battle.decisions == [] and app.view.confirm is not None
    assert app.view.status == (
        f"{SPRINT_WHY}: click again or press Enter to go ahead (Esc cancels)"
    )
    rows = app.renderer.tip[0] if app.renderer.tip else ()
    assert rows[-1] == "click again or press Enter to go ahead (Esc: not)"
    p.shot("sprint_waits")
    p.key(pygame.K_ESCAPE)
    assert app.view.confirm is None and app.view.status == "held back: nothing was decided"
    assert app.view.selected == "bram"  # Esc took back the click, not the selection
    p.click_cell(end)
    p.key(pygame.K_RETURN)
    assert [d.name for d in app.session.battle.decisions] == ["sprint"]  # type: ignore[union-attr]
    assert at(app, "bram") == end
    p.key(pygame.K_z)
    assert (
        app.view.status == "cannot undo: the last decision rolled dice; undo stops at a dice roll"
    )


def test_a_walk_nobody_can_attack_goes_at_once(shots: Path) -> None:
    """A Walk that rolls nothing and leaves no foe's reach needs no second click."""
    app, p = bram_first(shots)
    here = at(app, "bram")
    p.button("action", "walk")
    p.click_cell(Pos(here.x + 1, here.y + 1))
    assert [d.name for d in app.session.battle.decisions] == ["walk"]  # type: ignore[union-attr]
    assert app.view.confirm is None


def test_an_archers_punch_that_deals_nothing_waits_for_a_second_click(
    tmp_path: Path, shots: Path
) -> None:
    """bram, the archer, beside grok: a click on grok would punch with a fist, 0 damage after
    grok's armour, for a half-action. The tip says so; the click waits; Enter makes it."""
    path = write_scenario(tmp_path, "archer", ARCHER)
    app = make_app(path, seed_where(path, "bram"))
    p = Player(app, shots)
    p.sit_down()
    p.hover(at(app, "grok"))
    rows = " ".join(app.renderer.tip[0] if app.renderer.tip else ())
    why = "bram's fist deals 0 damage a hit to grok after armour: the attack only spends its cost"
    assert why in rows and "a click asks once more before it goes" in rows
    p.shot("punch_tip_warns")
    p.click_cell(at(app, "grok"))
    assert app.session.battle.decisions == []
    assert app.view.status.startswith(why)
    p.key(pygame.K_RETURN)
    assert [d.name for d in app.session.battle.decisions] == ["attack"]  # type: ignore[union-attr]


def test_a_move_a_foe_may_attack_waits_for_a_second_click(tmp_path: Path, shots: Path) -> None:
    """ana walks away from grok, who has his Bonus Actions: his Attack of Opportunity would be
    rolled. The tip warns and says a click asks once more; the first click waits."""
    path = write_scenario(tmp_path, "duel", DUEL)
    app = make_app(path, seed_where(path, "ana"))
    p = Player(app, shots)
    p.sit_down()
    p.button("action", "walk")
    p.hover(Pos(1, 3))
    rows = app.renderer.tip[0] if app.renderer.tip else ()
    why = "the move leaves grok's reach: grok may attack, and its roll cannot be undone"
    assert "! leaving (3,2): grok may attack" in rows and why in " ".join(rows)
    p.click_cell(Pos(1, 3))
    assert app.session.battle.decisions == [] and app.view.confirm is not None
    p.click_cell(Pos(1, 3))
    assert app.view.handover == "red"  # grok's prompt: the walk went ahead


def test_the_reacting_side_sees_what_its_answer_did_before_the_handover(
    tmp_path: Path, shots: Path
) -> None:
    """ana (her defences now "always", P) walks away from grok, who asks his player: red sits
    down for grok's prompt and takes the Attack of Opportunity. Before the screen goes back to
    blue, red's board stays in view with a panel of what the answer did (the attack's rolls
    and result); Enter passes the screen, and only then does the handover screen show."""
    path = write_scenario(tmp_path, "duel", DUEL)
    app = make_app(path, seed_where(path, "ana"))
    p = Player(app, shots)
    p.sit_down()
    p.key(pygame.K_p)
    assert app.view.status == "ana: reactions always, defence best"
    p.button("action", "walk")
    p.click_twice(Pos(1, 3))
    assert p.sit_down() == "red"
    p.button("option", "attack")
    view = app.view
    assert view.handover == "blue" and view.side == "red"
    said = view.aftermath
    assert said[0].startswith("grok: attack of opportunity — grok makes an Attack of Opportunity")
    assert any(line.startswith("grok's attack of opportunity on ana: Hit Roll") for line in said)
    assert any(line.startswith("grok rolls d") for line in said)
    app.frame()
    hits = [v for _, k, v in app.renderer.hits.items if k == "aftermath"]
    assert hits == ["blue"]  # the panel's button; the board is drawn, not the handover screen
    assert not [v for _, k, v in app.renderer.hits.items if k == "handover"]
    p.shot("what_the_answer_did")
    p.button("aftermath", "blue")
    assert not view.aftermath and view.handover == "blue"
    app.frame()
    assert [v for _, k, v in app.renderer.hits.items if k == "handover"] == ["blue"]
    p.shot("then_the_handover")


def test_an_automatic_reaction_is_said_in_the_log_and_on_the_board(shots: Path) -> None:
    """bram shoots at grok, whose policy is the default "auto": what auto decided and why is
    a line of the log (ending "(auto)"), a word over grok on the board (his reaction, or
    "holds back"), and the reason in the Last line beside the bar."""
    from sim.core.events import ReactionAnswered
    from sim.ui.model.markers import REACTED

    app, p = bram_first(shots)
    result = app.submit(parse({"unit": "bram", "action": "attack", "target": "grok"}))
    answered = [e for e in getattr(result, "events", ()) if isinstance(e, ReactionAnswered)]
    assert answered and answered[0].unit == "grok" and answered[0].reason
    reason = answered[0].reason
    assert f"{reason} (auto)" in app.scene.log_lines(app.session, app.view)
    said = [m for m in app.view.markers if m.unit == "grok" and m.kind == REACTED]
    assert [m.text for m in said] == [
        {"none": "holds back"}.get(answered[0].choice, answered[0].choice)
    ]
    assert reason in app.view.last
    p.shot("auto_reaction")


# --- saves ----------------------------------------------------------------------------------


def test_a_quick_load_goes_on_in_the_sittings_own_autosave(
    tmp_path: Path, shots: Path, private_saves: Path
) -> None:
    """A duel in the window: turns pass (the sitting's autosave is written), F5, two more
    turns, F9: the game loaded goes on in the same autosave file, and after another turn
    there is still one autosave of this sitting beside the quick save (a load used to
    start a second)."""
    path = write_scenario(tmp_path, "duel", DUEL)
    app = make_app(path, seed_where(path, "ana"))
    p = Player(app, shots)

    def end_turn() -> None:
        if app.view.handover is not None:
            p.sit_down()
        p.key(pygame.K_e)

    end_turn()
    end_turn()
    first = app.session.autosave
    assert first is not None and first.is_file()
    p.sit_down()
    p.key(pygame.K_F5)
    end_turn()
    end_turn()
    p.sit_down()
    p.key(pygame.K_F9)
    assert app.view.status.startswith("loaded ")
    assert app.session.autosave == first
    if app.view.handover is not None:
        p.sit_down()
    end_turn()
    autosaves = sorted(q.name for q in private_saves.glob("*.autosave.json"))
    assert autosaves == [first.name]


def test_the_replay_page_says_who_won_in_how_many_rounds_or_that_it_is_unfinished(
    tmp_path: Path, shots: Path, private_saves: Path
) -> None:
    """The menu's Watch a replay lists each save with what it holds: a finished game's winner
    and rounds, an unfinished one's round and decisions, an unreadable file as such."""
    from sim.formats.replay import read, write

    private_saves.mkdir(parents=True, exist_ok=True)
    done = finished_save(tmp_path)
    (private_saves / "done.save.json").write_bytes(done.read_bytes())
    going = Session(load(SKIRMISH), BRAM_FIRST)
    going.autosave = None
    for unit in ("bram", "grok", "ana", "vex", "bram"):
        going.submit(parse({"unit": unit, "action": "end_turn"}))
    write(private_saves / "going.save.json", going.save())
    (private_saves / "broken.json").write_text("{not json", encoding="utf-8")
    app = App(Session(load(SKIRMISH), BRAM_FIRST), (1280, 800), replayer=lambda path, host: host)
    p = Player(app, shots)
    p.sit_down()
    app.view.menu = "replays"
    labels = {line.value: line.label for line in app.menu.lines()}
    saved = read(done)
    won = f"{saved.winners[0].upper()} won after {saved.rounds} rounds"
    assert saved.over and saved.rounds > 1
    assert labels["watch:done.save.json"].startswith(f"done.save.json: {won} · ")
    assert labels["watch:going.save.json"].startswith(
        "going.save.json: unfinished, round 2, 5 decisions · "
    )
    assert labels["watch:broken.json"].startswith("broken.json: cannot be read · ")
    p.shot("replay_page")
