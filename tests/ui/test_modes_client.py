"""Movement modes in the client (R-Z5): a flier's token has wings and a "W" badge, a
swimmer's a "~"; the unit panel says "moves: fly 12 m"; the terminal picture marks ^ and ~."""

from __future__ import annotations

from pathlib import Path

from sim.cli.textview import render
from sim.content.scenario import load
from sim.core.geometry import Pos
from sim.ui.look import palette as pal
from tests.ui.test_client import Player, make_app, shots, write_scenario

__all__ = ["shots"]  # the fixture where the screenshot goes

WINGS = """\
name = "wings"
[map]
rows = \"\"\"
..........
.a.____.b.
...~~~....
..........
\"\"\"
[templates.griffin]
based_on = "orc_brute"
fly = 12

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
swim = 6
at = "a"

[[units]]
id = "grok"
team = "red"
template = "griffin"
at = "b"
"""


def test_R_Z5_a_flier_shows_wings_and_the_panel_says_how_it_moves(
    tmp_path: Path, shots: Path
) -> None:
    app = make_app(write_scenario(tmp_path, "wings", WINGS))
    player = Player(app, shots)
    player.sit_down()
    player.shot("wings")
    assert "moves: fly 12 m" in app.scene.unit_lines(app.session, app.view, "grok")
    assert "moves: swim 6 m" in app.scene.unit_lines(app.session, app.view, "ana")
    screen = app.surface
    c = app.camera.cell
    cx, cy = app.camera.centre(Pos(8, 1))
    # A wing reaches out of the token's circle (radius 0.36 of the cell) on either side.
    for side in (-1, 1):
        x, y = round(cx + side * c * 0.62), round(cy - c * 0.2)
        assert screen.get_at((x, y))[:3] == pal.WHITE, (side, screen.get_at((x, y)))
    ax, ay = app.camera.centre(Pos(1, 1))
    assert screen.get_at((round(ax + c * 0.62), round(ay - c * 0.2)))[:3] != pal.WHITE


def test_R_Z5_the_terminal_picture_marks_fliers_and_swimmers(tmp_path: Path) -> None:
    text = render(load(write_scenario(tmp_path, "wings", WINGS)).world)
    assert "HP 12/12  H2 B2  ~ moves: swim 6 m" in text
    assert "HP 14/14  H2 B2  ^ moves: fly 12 m" in text
