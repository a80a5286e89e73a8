"""The map editor's unit palette offers a scenario's own templates and its packs' (issue #32)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from sim.content import mapedit as me
from sim.content.scenario import load
from sim.core.components import Body
from sim.core.geometry import Pos
from sim.ui.input.editor import Editor
from tests.content.test_packs import SCENARIO, write

ROOT = Path(__file__).resolve().parents[2]


def test_a_packs_ogre_is_picked_from_the_palette_placed_and_saved(tmp_path: Path) -> None:
    path = write(tmp_path)
    ed = Editor(me.open_file(path), (1280, 800), save_to=str(path))
    assert ed.templates[:2] == ["ogre", "dwarf_guard"]
    ed.frame()  # draws the panel, and with it the palette's rows to click
    rect, index = ed._template_rects[0]
    summary = ed.template_palette[index].summary()
    assert summary.startswith("ogre (monsters.toml): ogrekin STR d12+4")
    ed.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))
    ed.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=rect.center, button=1))
    assert ed.shape == "unit"
    x, y = ed.camera.centre(Pos(4, 1))
    ed.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
    ed.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1))
    placed = ed.state.units[-1]
    assert (placed.template, placed.cell) == ("ogre", Pos(4, 1))
    problems, _, _ = ed.checked()
    assert problems == []
    ed.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=pygame.KMOD_CTRL, unicode=""))
    saved = load(path)
    assert saved.world.need(placed.id, Body).race == "ogrekin"
    assert path.read_text().startswith(SCENARIO.split("[[units]]")[0])


def test_fliers_have_wings_in_the_editor_as_in_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-Z5 in the editor: Ogre ford's bat swarms fly (their pack's template says so) and are
    drawn with the game's wings round their tokens; nobody else has wings, and the frame
    differs only round the bats' cells when they would not fly."""
    path = ROOT / "scenarios" / "ogre_ford.toml"
    ed = Editor(me.open_file(path), (1280, 800))
    flying = {u.id for u in ed.state.units if me.unit_flies(ed.source, u)}
    assert flying == {"flit", "flap"}
    winged = pygame.surfarray.array3d(ed.frame()).copy()
    monkeypatch.setattr(me, "unit_flies", lambda source, unit: False)
    plain = pygame.surfarray.array3d(ed.frame())
    xs, ys = (winged != plain).any(axis=2).nonzero()
    assert xs.size
    bats = [u.cell for u in ed.state.units if u.id in flying]
    c = ed.camera.cell
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        assert any(
            abs(x - ed.camera.centre(cell)[0]) <= c and abs(y - ed.camera.centre(cell)[1]) <= c
            for cell in bats
        ), (x, y)
