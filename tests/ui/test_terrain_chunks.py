"""The ground's chunks and edge layers (sim/ui/draw/terrain.py), drawn fast for a zoom step
(issue #30), are the pictures the slow way draws: each cell its look's tile with the grid
over it, and each ledge at a small size the same pixels `_draw_edge` puts down."""

from __future__ import annotations

import os

import numpy as np
import pygame
import pytest

from sim.content.scenario import loads
from sim.core.grid import Grid
from sim.ui.draw import terrain
from sim.ui.draw.camera import Camera
from sim.ui.draw.terrain import CHUNK, LEDGE_HALF, Chunks, TerrainLayer
from sim.ui.draw.text import Fonts
from tests.helpers import scenario_text

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

# Raised blocks (ledges all round), difficult ground, water and walls, over two chunks across.
ROWS = "\n".join(
    "".join(
        "#" if (x * 7 + y * 3) % 23 == 0 else "h" if (x // 5 + y // 4) % 3 == 1 else ",~."[x % 3]
        for x in range(CHUNK + 7)
    )
    for y in range(CHUNK + 3)
)
UNITS = '[[units]]\nid = "ana"\nteam = "blue"\ntemplate = "human_fighter"\nat = [2, 2]\n'
LEGEND = '[legend]\n"h" = { kind = "open", height = 1.5 }\n'


@pytest.fixture(scope="module")
def grid() -> Grid:
    pygame.display.init()
    return loads(scenario_text(ROWS, UNITS, LEGEND), "chunks.toml").world.grid


@pytest.mark.parametrize("c", [4, 7, 12, 30])
def test_a_chunk_is_its_cells_tiles_under_the_grid(grid: Grid, c: int) -> None:
    layer = TerrainLayer(grid, Fonts())
    for cx, cy in ((0, 0), (1, 1)):
        picture = pygame.surfarray.array3d(layer.chunk(cx, cy, c))
        x0, y0 = cx * CHUNK, cy * CHUNK
        w, h = min(grid.width - x0, CHUNK), min(grid.height - y0, CHUNK)
        assert picture.shape == (w * c, h * c, 3)
        line = tuple(picture[0, 0])
        for y in range(y0, y0 + h):
            for x in range(x0, x0 + w):
                tile = layer.tile(
                    c,
                    int(grid.layers["kind"][y, x]),
                    int(grid.layers["height"][y, x]),
                    int(grid.layers["water"][y, x]),
                    int(grid.layers["obstacle"][y, x]),
                    bool(grid.layers["climbable"][y, x]),
                )
                cell = picture[(x - x0) * c : (x - x0 + 1) * c, (y - y0) * c : (y - y0 + 1) * c]
                expected = pygame.surfarray.array3d(tile)
                assert (cell[1:, 1:] == expected[1:, 1:]).all(), (x, y)
                assert (cell[0, :] == line).all() and (cell[:, 0] == line).all()  # the grid


@pytest.mark.parametrize("c", [3, 5, 7, 8, 9])
def test_a_small_ledge_layer_has_the_pixels_draw_edge_gives(grid: Grid, c: int) -> None:
    layer = TerrainLayer(grid, Fonts())
    ledges = [e for e in layer.edges if abs(e.diff) >= LEDGE_HALF]
    assert ledges, "the map has ledges to draw"
    fast, slow = pygame.Surface((400, 400)), pygame.Surface((400, 400))
    margin = 11
    layer._fill_ledges(fast, layer.edges, -margin, -margin, c)
    for edge in layer.edges:
        layer._draw_edge(slow, edge, edge.x * c + margin, edge.y * c + margin, c)
    a, b = pygame.surfarray.array3d(fast), pygame.surfarray.array3d(slow)
    print(f"c={c}: {len(ledges)} ledges, {int((b != 0).any(axis=2).sum())} pixels drawn")
    assert np.array_equal(a, b)
    assert (b != 0).any()


def test_zooming_back_to_sizes_just_left_draws_no_chunk_again(
    grid: Grid, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #30: a zoom in and back out finds each size's chunks drawn (the caches keep
    KEPT_SCREENS screens' worth of pixels, not a count of the last size's chunks)."""
    monkeypatch.setattr(terrain, "MAX_CHUNKS", 2)  # the map's 4 chunks a size overflow it
    layer = TerrainLayer(grid, Fonts())
    made: list[int] = []
    make = layer._make_chunk
    monkeypatch.setattr(layer, "_make_chunk", lambda cx, cy, c: made.append(c) or make(cx, cy, c))
    target = pygame.Surface((2000, 2000))
    sizes = [6, 7, 8, 10, 12]
    for c in sizes:
        layer.draw(target, Camera(c), target.get_rect())
    assert made == [c for c in sizes for _ in range(4)]  # each size's 4 chunks, once
    for c in reversed(sizes):
        layer.draw(target, Camera(c), target.get_rect())
    assert len(made) == 4 * len(sizes)


def test_the_chunk_cache_lets_go_of_the_least_recently_used_past_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(terrain, "MAX_CHUNKS", 1)
    pygame.display.init()
    kept = Chunks()
    for key in ((0, 0, 10), (1, 0, 10), (2, 0, 10)):
        kept.put(key, pygame.Surface((10, 10)), budget=250)
        kept.get((0, 0, 10))  # the first is used again each time
    assert list(kept) == [(2, 0, 10), (0, 0, 10)] and kept.pixels == 200
    kept.put((3, 0, 10), None, budget=250)  # a chunk without edges holds no pixels
    assert list(kept) == [(2, 0, 10), (0, 0, 10), (3, 0, 10)] and kept.pixels == 200
    kept.discard((2, 0, 10))
    assert kept.pixels == 100 and (2, 0, 10) not in kept
