"""The map editor window with large creatures (issue #32, R-Z1), driven headless by posted
events: a 2x2 template is placed only where its footprint fits, with the reason on the status
line when not; a click on any of its cells selects it; a drag onto a wall is refused; its token
is drawn over its footprint."""

from __future__ import annotations

from pathlib import Path

import pygame

from sim.content import mapedit as me
from sim.core.geometry import Pos
from sim.ui.input.editor import Editor
from tests.content.test_sizes_content import BRUTE, ROOM
from tests.helpers import scenario_text
from tests.movers import creature
from tests.ui.test_editor import _click, _drag, _key


def test_R_Z1_the_editor_places_and_moves_a_2x2_brute_only_where_it_fits(tmp_path: Path) -> None:
    path = tmp_path / "room.toml"
    text = scenario_text(ROOM, creature("ana", "blue", "a"), BRUTE)
    ed = Editor(me.open_text(text, str(path)), (1280, 800), save_to=str(path))
    _key(ed, pygame.K_u)
    ed.template = ed.templates.index("brute")
    _click(ed, Pos(4, 0))
    assert [u.id for u in ed.state.units] == ["ana"]
    assert ed.message == (
        "Cannot place it there: brute1 is size 2: its 2x2 cells from (4,0) would stand on wall "
        "at (5,1) (R-Z1)"
    )
    _click(ed, Pos(6, 2))
    assert [(u.id, u.cell) for u in ed.state.units] == [("ana", Pos(3, 3)), ("brute1", Pos(6, 2))]
    ed.selected = None
    _click(ed, Pos(7, 3))  # its bottom-right cell: it is selected, nothing new is placed
    assert ed.selected == "brute1" and len(ed.state.units) == 2
    _drag(ed, Pos(7, 3), Pos(4, 0))  # its top-left to (4,0): a cell on the wall
    assert ed.state.unit("brute1").cell == Pos(6, 2)
    assert ed.message.startswith("Cannot place it there: brute1 is size 2")
    _drag(ed, Pos(6, 2), Pos(5, 2))
    assert ed.state.unit("brute1").cell == Pos(5, 2)
    assert ed.checked()[0] == []
    shot = ed.frame()
    pygame.image.save(shot, str(tmp_path / "editor.png"))
    # The token is drawn round the middle of its four cells: a quarter cell into its
    # bottom-right cell (6,3) is the token, where a one-cell token at (5,2) would not reach.
    quarter = ed.camera.cell // 4
    x, y = ed.camera.screen(Pos(6, 3))
    fx, fy = ed.camera.screen(Pos(2, 1))
    assert shot.get_at((x + quarter, y + quarter)) != shot.get_at((fx + quarter, fy + quarter))
