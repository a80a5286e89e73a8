"""The map editor's unit palette offers a scenario's own templates and its packs' (issue #32)."""

from __future__ import annotations

from pathlib import Path

import pygame

from sim.content import mapedit as me
from sim.content.scenario import load
from sim.core.components import Body
from sim.core.geometry import Pos
from sim.ui.input.editor import Editor
from tests.content.test_packs import SCENARIO, write


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
