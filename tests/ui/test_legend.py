"""Issue #15, overlays a player can tell apart: the overlay palette stays distinct for
protanopia, deuteranopia and tritanopia (Machado et al. 2009), swim cells are not blue on the
water's blue, the threat's frame is not the sprint band and leaves the reach letter clear, a
legend on screen says what the letters and patterns mean, and on the cliff fort no label
covers another label or a token."""

from __future__ import annotations

import doctest
import itertools
import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

import sim.ui.look.vision
from sim.ui.look import palette as pal
from sim.ui.look.vision import SIMULATIONS, distance
from tests.ui import test_client as client
from tests.ui.test_client import Player, make_app

shots = client.shots

VISIONS = ("normal", *SIMULATIONS)
# ΔE*76 of 15 is well past "noticeable at a glance" (about 2.3 is just noticeable).
LEAST = 15.0
CLIFF_FORT = Path(__file__).resolve().parents[2] / "scenarios" / "cliff_fort.toml"
HARBOUR = CLIFF_FORT.with_name("harbour.toml")


def test_the_simulation_confuses_what_each_deficiency_confuses() -> None:
    """The matrices do what they are for: red and green come close for protanopia and
    deuteranopia (not for tritanopia), blue and green for tritanopia; black and white stay
    apart for everyone."""
    red, green, blue = (220, 40, 40), (40, 160, 40), (40, 90, 220)
    assert distance(red, green) > 80
    for vision in ("protanopia", "deuteranopia"):
        assert distance(red, green, vision) < distance(red, green) / 2, vision
    assert distance(red, green, "tritanopia") > 60
    assert distance(blue, green, "tritanopia") < distance(blue, green) / 2
    for vision in VISIONS:
        assert distance(pal.BLACK, pal.WHITE, vision) > 95
    failed, tried = doctest.testmod(sim.ui.look.vision)
    assert failed == 0 and tried > 0


def test_every_pair_of_overlay_colours_stays_distinct_for_every_vision() -> None:
    """The colours the board shows at once (each reach action's, the threat's, the own
    reach's): every pair at least ΔE*76 15 apart, with normal vision and as simulated for
    each deficiency."""
    close = [
        (round(distance(pal.OVERLAY_COLOURS[a], pal.OVERLAY_COLOURS[b], vision), 1), vision, a, b)
        for vision in VISIONS
        for a, b in itertools.combinations(pal.OVERLAY_COLOURS, 2)
        if distance(pal.OVERLAY_COLOURS[a], pal.OVERLAY_COLOURS[b], vision) < LEAST
    ]
    assert close == []
    assert set(pal.MOVE_STYLES) <= set(pal.OVERLAY_COLOURS)
    letters = [style.letter for style in pal.MOVE_STYLES.values()]
    assert len(set(letters)) == len(letters)  # and each its own letter


def test_swim_cells_are_not_blue_on_blue() -> None:
    for vision in VISIONS:
        assert distance(pal.MOVE_STYLES["swim"].colour, pal.WATER, vision) > 40, vision


def test_the_threat_frame_leaves_the_reach_letter_clear_and_is_not_the_sprint_band() -> None:
    """At a cell size that shows letters, the threat tile is clear where the reach letter is
    and in the middle; the sprint tile covers both."""
    app = make_app(CLIFF_FORT)
    overlays = app.renderer.overlays
    c = 48
    threat, sprint = overlays.threat_tile(1, c), overlays.reach_tile("sprint", c)
    for spot in ((6, 8), (c // 2, c // 2)):
        assert threat.get_at(spot).a == 0, spot
        assert sprint.get_at(spot).a > 0, spot
    assert threat.get_at((c // 2, 2)).a > 200  # the frame itself is opaque


def test_the_legend_names_the_overlays_shown(shots: Path) -> None:
    """Harbour, bram on the quay by the water: the sidebar's legend lists each reach letter
    shown with its action (the swim's "~" too), and with threats and the own reach on, what
    those are."""
    app = make_app(HARBOUR, seed=5)
    p = Player(app, shots)
    if app.view.handover is not None:
        p.sit_down()
    app.frame()
    assert "S step" in app.renderer.legend and "~ swim" in app.renderer.legend
    assert "enemies reach (count)" not in app.renderer.legend
    p.key(pygame.K_t)
    p.key(pygame.K_y)
    app.frame()
    assert app.renderer.legend[-2:] == ["enemies reach (count)", "your reach"]
    p.shot("harbour_legend")


def test_no_label_covers_another_label_or_a_token(shots: Path) -> None:
    """Cliff fort, as the issue found it: every ledge label placed on the board is clear of
    every other one, of every token and of the cells' own labels beside it; most ledges
    still get theirs."""
    app = make_app(CLIFF_FORT, seed=5)
    p = Player(app, shots)
    if app.view.handover is not None:
        p.sit_down()
    for zoom in (0, 3):
        for _ in range(zoom):
            p.post(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0)
        app.frame()
        terrain = app.renderer.terrain
        assert terrain._placed is not None
        placed = [rect for _, rect in terrain._placed[1]]
        assert len(placed) >= len(terrain.runs) // 2, (len(placed), len(terrain.runs))
        for a, b in itertools.combinations(placed, 2):
            assert not a.colliderect(b), (a, b)
        for label in placed:
            assert label.collidelist(app.renderer.token_rects) < 0, label
        camera = app.camera
        for _, run in terrain.runs:
            for edge in run:
                for cell_label in terrain._cell_labels(edge, camera):
                    assert cell_label.collidelist(placed) < 0, cell_label
        p.shot(f"cliff_fort_labels_zoom{zoom}")
