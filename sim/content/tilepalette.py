"""The map editor's tile palette: a Tiled map's tiles, what each is made, and the terrain they make.

`sim edit MAP.tmx` opens a map whose tiles nothing names yet with a guess for each (issue #31);
the maker clicks a tile and gives it a kind. What each tile is made is kept in the editor's
state (MapState.tile_kinds), so undo takes a choice back with the cells it changed; a cell the
maker painted by hand keeps its paint when its tile is given another kind. Saving writes the
scenario and the map's kinds file (the choices added to the file as it was, its comments kept).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from sim.content import mapedit as me
from sim.content import tilekinds as tk
from sim.content import tmx
from sim.content.tileart import TileArt
from sim.content.tiled import Imported, TileUse, compose, import_map
from sim.content.tilederror import TiledError
from sim.core.files import Unreadable, read_text
from sim.core.geometry import Pos
from sim.core.limits import limits

Key = tuple[str, int]  # a tile: its tileset's label and its id


@dataclass
class TilePalette:
    imported: Imported
    base_text: str  # the kinds file as it was ("" when there was none)
    art: TileArt
    uses: list[TileUse] = field(init=False)  # by tileset, then id
    keys: dict[Key, int] = field(init=False)  # each tile's gid
    _rows: tuple[object, me.Rows] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        found = [u for u in self.imported.uses.values() if u.tileset is not None]
        self.uses = sorted(found, key=lambda u: (u.need.tileset, u.tile))
        self.keys = {(u.need.tileset, u.tile): u.gid for u in self.uses}

    @property
    def kinds_path(self) -> Path:
        return self.imported.kinds_path

    def initial(self) -> tuple[tuple[Key, tk.Entry], ...]:
        """What each tile is made as the map opens: by the kinds file, its own properties, or
        a guess."""
        return tuple(((u.need.tileset, u.tile), u.entry) for u in self.uses if u.entry is not None)

    def guessed(self) -> list[TileUse]:
        return [u for u in self.uses if u.guessed]

    def entry(self, state: me.MapState, key: Key) -> tk.Entry | None:
        return dict(state.tile_kinds).get(key)

    def rows(self, choices: tuple[tuple[Key, tk.Entry], ...]) -> me.Rows:
        """The terrain the tiles make with these choices (the last one kept)."""
        if self._rows is None or self._rows[0] != choices:
            entries = {self.keys[key]: entry for key, entry in choices if key in self.keys}
            self._rows = (choices, compose(self.imported.tiled, entries)[0])
        return self._rows[1]

    def assign(self, state: me.MapState, key: Key, entry: tk.Entry) -> me.MapState:
        """`state` with the tile `key` made `entry`: each cell the tiles decide takes its new
        terrain, and a cell painted by hand (not what the tiles made of it) keeps its paint."""
        choices = tuple((k, entry if k == key else e) for k, e in state.tile_kinds)
        if key not in dict(state.tile_kinds):
            choices = (*choices, (key, entry))
        before, after = self.rows(state.tile_kinds), self.rows(choices)
        terrain = []
        for y, row in enumerate(state.terrain):
            old, new = before[y], after[y]
            if row == old:
                terrain.append(new)
            elif old == new:
                terrain.append(row)
            else:
                terrain.append(tuple(new[x] if t == old[x] else t for x, t in enumerate(row)))
        return replace(state, terrain=tuple(terrain), tile_kinds=choices)

    def top_tile(self, cell: Pos) -> Key | None:
        """The tile drawn on top at `cell` (the one that decides it, when it has a kind)."""
        tiled = self.imported.tiled
        index = cell.y * tiled.width + cell.x
        for layer in reversed(tiled.layers):
            if isinstance(layer, tmx.TileLayer) and layer.gids[index]:
                use = self.imported.uses.get(layer.gids[index] & ~tmx.GID_FLAGS)
                if use is not None and use.tileset is not None:
                    return (use.need.tileset, use.tile)
        return None

    def cells(self, key: Key) -> list[Pos]:
        """Where the tile is drawn, in any layer."""
        gid = self.keys.get(key)
        tiled = self.imported.tiled
        drawn = np.zeros(tiled.width * tiled.height, dtype=bool)
        mask = np.uint32(~tmx.GID_FLAGS & 0xFFFFFFFF)
        for layer in tiled.layers:
            if isinstance(layer, tmx.TileLayer) and gid is not None:
                drawn |= (np.frombuffer(layer.gids, dtype=np.uint32) & mask) == gid
        return [Pos(i % tiled.width, i // tiled.width) for i in np.flatnonzero(drawn).tolist()]

    def kinds_text(self, state: me.MapState) -> str | None:
        """The kinds file to save: as it was, with an id entry for each tile that was guessed
        or given another kind in the editor; None when there is nothing to write (a map whose
        tiles carry our schema, untouched)."""
        # What named each tile as the map opened, unless it was a guess (to be written).
        named = {(u.need.tileset, u.tile): u.entry for u in self.uses if not u.guessed}
        changed = {
            key: entry for key, entry in state.tile_kinds if key not in named or named[key] != entry
        }
        if not changed:
            return None
        header = "" if self.base_text.strip() else _header(self.imported.tiled.path.name)
        return tk.set_entries(header + self.base_text, changed)


def _header(name: str) -> str:
    return (
        f"# Tile kinds for {name}, saved by the map editor (sim edit): what each tile is on the\n"
        "# battlefield. See docs/tiled.md.\n\n"
    )


def open_palette(path: str | Path, kinds: str | Path | None = None) -> TilePalette:
    """A Tiled map opened for the editor: a tile nothing names gets a guess. Raises TiledError
    (the kinds file's own problems, and the map's)."""
    imported = import_map(path, kinds, guess=True)
    base = ""
    if imported.kinds_path.is_file():
        try:
            base = read_text(imported.kinds_path, limits().files.tile_kinds, "a kinds file")
        except Unreadable as error:
            raise TiledError(f"{imported.kinds_path}: {error}") from None
    return TilePalette(imported, base, TileArt(imported.tiled.path))
