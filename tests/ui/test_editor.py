"""The map editor window (sim/ui/input/editor.py), driven headless by posted events."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest

from sim.content import mapedit as me
from sim.content.scenario import load
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.tools import fairness
from sim.ui.input.editor import Editor, balance_lines

ROOT = Path(__file__).resolve().parents[2]


def _key(editor: Editor, key: int, mod: int = 0, char: str = "") -> None:
    editor.handle(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=char))


def _click(editor: Editor, cell: Pos, button: int = 1) -> None:
    x, y = editor.camera.centre(cell)
    editor.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=button))
    editor.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=button))


def _drag(editor: Editor, a: Pos, b: Pos) -> None:
    ax, ay = editor.camera.centre(a)
    bx, by = editor.camera.centre(b)
    editor.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(ax, ay), button=1))
    editor.handle(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(bx, by), rel=(0, 0), buttons=(1, 0, 0))
    )
    editor.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(bx, by), button=1))


def _type(editor: Editor, text: str) -> None:
    _key(editor, pygame.K_RETURN)
    for char in text:
        _key(editor, 0, char=char)
    _key(editor, pygame.K_RETURN)


@pytest.fixture
def new_map(tmp_path: Path) -> Editor:
    source = me.open_text(me.new_text(12, 8), str(tmp_path / "new.toml"))
    return Editor(source, (1280, 800), save_to=str(tmp_path / "new.toml"))


def test_a_designer_makes_a_map_places_two_teams_and_saves_it(
    new_map: Editor, tmp_path: Path
) -> None:
    ed = new_map
    _key(ed, pygame.K_3)  # wall
    _key(ed, pygame.K_x)  # rectangle
    _drag(ed, Pos(5, 1), Pos(5, 6))
    assert all(ed.state.at(Pos(5, y)).kind is Kind.WALL for y in range(1, 7))
    _key(ed, pygame.K_2)  # difficult, flood fill from (1, 1): the left room only
    _key(ed, pygame.K_f)
    _click(ed, Pos(1, 1))
    assert ed.state.at(Pos(4, 6)).kind is Kind.DIFFICULT
    assert ed.state.at(Pos(8, 3)).kind is Kind.OPEN  # the wall splits the rooms
    _key(ed, pygame.K_z, pygame.KMOD_CTRL)
    assert ed.state.at(Pos(4, 6)).kind is Kind.OPEN
    _key(ed, pygame.K_y, pygame.KMOD_CTRL)
    assert ed.state.at(Pos(4, 6)).kind is Kind.DIFFICULT
    _key(ed, pygame.K_e)  # raise height by half a metre, brush
    _key(ed, pygame.K_b)
    _click(ed, Pos(9, 2))
    _click(ed, Pos(9, 2))
    assert ed.state.at(Pos(9, 2)).height == 2
    _key(ed, pygame.K_u)  # units: the template list's human_fighter for blue
    _click(ed, Pos(2, 2))
    _key(ed, pygame.K_TAB, pygame.KMOD_SHIFT)  # team red
    _click(ed, Pos(9, 5))
    assert [(u.id, u.team) for u in ed.state.units] == [("fighter1", "blue"), ("fighter2", "red")]
    _type(ed, "hp = 7")  # the selected unit's override
    assert ed.state.unit("fighter2").overrides == {"hp": 7}
    _drag(ed, Pos(9, 5), Pos(10, 6))
    assert ed.state.unit("fighter2").cell == Pos(10, 6)
    problems, _, _ = ed.checked()
    assert problems == []
    ed.handle(pygame.event.Event(pygame.QUIT))  # unsaved: it asks first
    assert ed.running
    assert ed.asking == "The map has unsaved changes. Quit without saving? Y / N (Ctrl+S saves)"
    _key(ed, pygame.K_n)
    assert ed.running and ed.message == "Still editing"
    _key(ed, pygame.K_s, pygame.KMOD_CTRL)
    scenario = load(tmp_path / "new.toml")
    assert scenario.world.grid.ground_half(Pos(9, 2)) == 2
    ed.handle(pygame.event.Event(pygame.QUIT))  # saved: it closes
    assert not ed.running


def test_a_brush_stroke_is_one_edit_and_raises_each_cell_once(new_map: Editor) -> None:
    ed = new_map
    _key(ed, pygame.K_e)
    _key(ed, pygame.K_b)
    path = [Pos(2, 2), Pos(3, 2), Pos(4, 2), Pos(3, 2), Pos(2, 2), Pos(2, 3)]
    x, y = ed.camera.centre(path[0])
    ed.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
    for cell in path[1:]:
        x, y = ed.camera.centre(cell)
        ed.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(1, 0, 0)))
        ed.frame()  # mid-stroke frames redraw only the painted chunks
    ed.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1))
    raised = {Pos(x, y) for y in range(8) for x in range(12) if ed.state.at(Pos(x, y)).height}
    assert raised == {Pos(2, 2), Pos(3, 2), Pos(4, 2), Pos(2, 3)}
    assert {ed.state.at(p).height for p in raised} == {1}
    assert ed.history.undo() and ed.state.at(Pos(2, 2)).height == 0
    assert not ed.history.undo()


def test_problems_are_listed_and_highlighted_and_saving_asks_first(
    new_map: Editor, tmp_path: Path
) -> None:
    ed = new_map
    _key(ed, pygame.K_u)
    _click(ed, Pos(2, 2))
    _key(ed, pygame.K_3)
    _key(ed, pygame.K_b)
    _click(ed, Pos(2, 2))  # a unit's cell: the click selects it, it does not paint
    assert ed.state.at(Pos(2, 2)).kind is Kind.OPEN
    ed.edit(me.paint(ed.state, [Pos(2, 2)], me.set_kind(Kind.WALL)))
    problems, cells, _ = ed.checked()
    assert [p.message for p in problems] == ["unit 'fighter1' stands in wall at (2,2)"]
    assert cells == {Pos(2, 2)}
    _key(ed, pygame.K_s, pygame.KMOD_CTRL)
    assert ed.asking == "The map has 1 problem. Save anyway? Y / N"
    _key(ed, pygame.K_n)
    assert not (tmp_path / "new.toml").exists()
    _key(ed, pygame.K_s, pygame.KMOD_CTRL)
    _key(ed, pygame.K_y)
    assert "stands in wall" not in (tmp_path / "new.toml").read_text()  # the file, not a message
    assert "fighter1" in (tmp_path / "new.toml").read_text()


@pytest.mark.slow
def test_play_test_and_back_leaves_the_map_unchanged_and_balance_runs_in_the_background(
    tmp_path: Path,
) -> None:
    source = me.open_file(ROOT / "scenarios" / "brawl.toml")
    ed = Editor(source, (1280, 800), save_to=str(tmp_path / "brawl.toml"))
    before = ed.state
    _key(ed, pygame.K_p)
    assert ed.playtest is not None
    ed.frame()
    ed.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    ed.frame()
    ed.handle(pygame.event.Event(pygame.QUIT))
    assert ed.playtest is None and ed.running and ed.state is before
    ed.start_balance(games=4, workers=1)
    ed.edit(me.set_info(ed.state, name="Still editing"))  # while it runs
    assert ed.state.name == "Still editing"
    deadline = time.monotonic() + 120
    while ed.balance.summary is None and not ed.balance.error and time.monotonic() < deadline:
        ed.frame()
        time.sleep(0.05)
    assert ed.balance.error == ""
    assert ed.balance.done == 4
    summary = ed.balance.summary
    assert sum(s["wins"] for s in summary["sides"].values()) <= 4
    words = balance_lines(summary)
    assert words[2].startswith(f"draws {summary['draws']}, ")
    assert f"stopped by the round cap {summary['capped']}," in words[2]
    # The line of `sim batch --fairness` (issue #35): both sides at normal, so one game a seed.
    fair = summary["fairness"]
    assert words[3:] == fairness.lines(fair) and len(words) == 4
    assert words[3].startswith("fairness (all sides normal, 4 games): blue ")
    assert words[3].endswith(": " + fair["verdict"])
    wins = sum(s["wins"] for s in summary["sides"].values())
    assert wins + summary["draws"] + summary["capped"] == 4  # every game said, none lost
    ed.show_threat = True
    ed.selected = "ana"
    ed.show_reach = True
    shot = ed.frame()
    pygame.image.save(shot, str(tmp_path / "editor.png"))


def test_typed_fields_set_the_name_seed_and_objectives_and_bad_ones_say_why(
    new_map: Editor, tmp_path: Path
) -> None:
    ed = new_map
    _key(ed, pygame.K_u)
    _click(ed, Pos(2, 2))
    _key(ed, pygame.K_ESCAPE)  # no unit selected: the map's own fields
    _type(ed, 'name = "The ford"')
    _type(ed, "seed = 7")
    _type(ed, 'objective = { kind = "survive", team = "blue", rounds = 5 }')
    assert (ed.state.name, ed.state.seed) == ("The ford", 7)
    assert [(g.kind, g.team, g.rounds) for g in ed.state.goals] == [("survive", "blue", 5)]
    _type(ed, "seed = many")
    assert ed.message == 'many is not a TOML value (strings need quotes: "spear")'
    _type(ed, "colour = 3")
    assert ed.message == (
        "unknown field 'colour' (name, description, seed, objective, objective N, objectives)"
    )
    _type(ed, 'objective = { kind = "reach", team = "blue", at = [9, 4] }')
    _type(ed, "objective 3 =")
    assert ed.message == "there is no objective 3 (the panel numbers them)"
    _type(ed, "objective 2 =")
    assert [g.kind for g in ed.state.goals] == ["survive"]
    _key(ed, pygame.K_s, pygame.KMOD_CTRL)
    scenario = load(tmp_path / "new.toml")
    assert (scenario.name, scenario.seed, len(scenario.objectives)) == ("The ford", 7, 1)
    reopened = Editor(me.open_file(tmp_path / "new.toml"), (1280, 800))
    assert reopened.state.name == "The ford" and reopened.state.unit("fighter1") is not None
    _type(reopened, "objectives = []")
    assert reopened.state.goals == ()


def test_a_play_test_against_the_ai_seats_the_last_team(tmp_path: Path) -> None:
    source = me.open_file(ROOT / "scenarios" / "brawl.toml")
    ed = Editor(source, (1280, 800), save_to=str(tmp_path / "brawl.toml"))
    _key(ed, pygame.K_a)
    teams = list(dict.fromkeys(u.team for u in ed.state.units))
    assert list(ed.playtest.seats.seated) == [teams[-1]]
    _key(ed, pygame.K_F10)
    assert ed.playtest is None


def test_a_map_with_problems_cannot_be_play_tested_and_says_so(new_map: Editor) -> None:
    _key(new_map, pygame.K_p)
    assert new_map.playtest is None
    assert new_map.message == "Cannot play-test: 1 problem (see the list)"
    _key(new_map, pygame.K_g)
    assert new_map.balance is None
    assert new_map.message == "Cannot check balance: 1 problem (see the list)"


def test_painting_redraws_exactly_what_a_fresh_editor_draws(tmp_path: Path) -> None:
    """The editor repaints only the chunks an edit touched; the picture must be the one a new
    editor on the edited map draws (ledges and climbable faces included)."""
    source = me.open_text(me.new_text(40, 20), str(tmp_path / "m.toml"))
    ed = Editor(source, (1100, 700))
    ed.frame()
    state = me.paint(
        ed.state, me.rectangle(ed.state, Pos(14, 3), Pos(20, 9)), me.shift("height", 4)
    )
    state = me.paint(state, [Pos(14, y) for y in range(3, 10)], me.set_climbable(True))
    state = me.paint(state, [Pos(33, 15)], me.set_kind(Kind.FIRE))
    ed.edit(state)
    edited = pygame.image.tobytes(ed.frame(), "RGB")
    fresh = Editor(me.open_text(me.render(source, state), str(tmp_path / "m.toml")), (1100, 700))
    fresh.saved_state = ed.saved_state
    assert pygame.image.tobytes(fresh.frame(), "RGB") == edited


def test_the_window_loop_takes_posted_events_until_the_window_closes(tmp_path: Path) -> None:
    """`sim edit`'s own loop (Editor.run) on a window, fed through pygame's event queue."""
    source = me.open_text(me.new_text(10, 6), str(tmp_path / "w.toml"))
    ed = Editor(source, (1000, 640), window=True, save_to=str(tmp_path / "w.toml"))
    x, y = ed.camera.centre(Pos(3, 3))
    for event in (
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_5, mod=0, unicode="5"),  # fire
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1),
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=pygame.KMOD_CTRL, unicode=""),
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_y, mod=0, unicode="y"),  # save anyway
        pygame.event.Event(pygame.QUIT),
    ):
        pygame.event.post(event)
    ed.run()
    assert not ed.running
    saved = me.open_file(tmp_path / "w.toml").state
    assert saved.at(Pos(3, 3)).kind is Kind.FIRE
    assert "#..^.....#" in (tmp_path / "w.toml").read_text()


def test_arrows_pan_the_map_and_home_fits_it_again(new_map: Editor) -> None:
    ed = new_map
    fitted = (ed.camera.x, ed.camera.y)
    _key(ed, pygame.K_LEFT)
    _key(ed, pygame.K_UP)
    assert (ed.camera.x, ed.camera.y) == (fitted[0] + 60, fitted[1] + 60)
    _key(ed, pygame.K_HOME)
    assert (ed.camera.x, ed.camera.y) == fitted


def test_reach_and_threat_overlays_follow_the_map_as_painted(tmp_path: Path) -> None:
    from sim.rules.budget import refilled
    from sim.rules.reach.reachmap import reach_map

    source = me.open_file(ROOT / "scenarios" / "skirmish.toml")
    ed = Editor(source, (1280, 800))
    ed.selected = "ana"
    plain = pygame.image.tobytes(ed.frame(), "RGB")
    _key(ed, pygame.K_r)
    _key(ed, pygame.K_t)
    with_overlays = pygame.image.tobytes(ed.frame(), "RGB")
    assert with_overlays != plain
    _, _, scenario = ed.checked()
    assert scenario is not None
    reach = ed._reach(scenario, "ana")
    ana = ed.state.unit("ana")
    assert ana is not None
    assert len(reach) > 10 and reach == {
        p: r.action
        for p, r in reach_map(scenario.world, "ana", budget=refilled(scenario.world.rules)).items()
    }
    # A wall ring round ana: the reach shrinks to nothing beyond it, drawn from the new check.
    ring = [p for p in me.brush(ed.state, ana.cell, 1) if p != ana.cell]
    ed.edit(me.paint(ed.state, ring, me.set_kind(Kind.WALL)))
    ed.frame()
    _, _, walled = ed.checked()
    assert walled is not None
    assert set(ed._reach(walled, "ana")) <= {ana.cell}


def test_undo_and_redo_say_what_they_did_and_ctrl_q_quits(new_map: Editor) -> None:
    """Issue #33: Ctrl+Z said nothing and there was no quit key. Undo says what the edit it
    took back changed and how many are left, redo what it made again, each says when there
    is nothing to do; Ctrl+Q quits, asking first when edits are unsaved."""
    ed = new_map
    _key(ed, pygame.K_z, pygame.KMOD_CTRL)
    assert ed.message == "Nothing to undo"
    _key(ed, pygame.K_3)  # wall, a rectangle of 3 cells
    _key(ed, pygame.K_x)
    _drag(ed, Pos(5, 1), Pos(5, 3))
    _key(ed, pygame.K_u)
    _click(ed, Pos(2, 2))
    _key(ed, pygame.K_z, pygame.KMOD_CTRL)
    assert ed.message == "Undone: unit fighter1; 1 edit left to undo (Ctrl+Y redoes)"
    _key(ed, pygame.K_z, pygame.KMOD_CTRL)
    assert ed.message == "Undone: 3 cells; 0 edits left to undo (Ctrl+Y redoes)"
    _key(ed, pygame.K_y, pygame.KMOD_CTRL)
    assert ed.message == "Redone: 3 cells"
    _key(ed, pygame.K_y, pygame.KMOD_CTRL)
    _key(ed, pygame.K_y, pygame.KMOD_CTRL)
    assert ed.message == "Nothing to redo"
    _key(ed, pygame.K_q, pygame.KMOD_CTRL)
    assert ed.running
    assert ed.asking == "The map has unsaved changes. Quit without saving? Y / N (Ctrl+S saves)"
    _key(ed, pygame.K_y)
    assert not ed.running
