"""The error of a Tiled map that cannot be imported, apart from the importer (sim/content/tmx.py)
so that a command catches it without loading the importer's XML machinery."""

from __future__ import annotations


class TiledError(Exception):
    """A Tiled map that cannot be imported, with every problem found (one a line)."""
