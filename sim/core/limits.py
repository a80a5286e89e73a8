"""The limits every file the simulator reads is held to, from sim/data/limits.toml."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import cache
from typing import TypeVar

from sim.core.datafiles import data_text

LIMITS_FILE = "sim/data/limits.toml"
T = TypeVar("T")


class LimitsError(ValueError):
    """A limits file that cannot be used: the message names the section and the key."""


@dataclass(frozen=True, slots=True)
class FileLimits:
    """[files]: the bytes each kind of file may have."""

    scenario: int
    save: int
    script: int
    tiled_map: int
    tiled_tileset: int
    tiled_template: int
    tile_kinds: int
    tile_image: int
    hints: int
    content_pack: int
    content_all: int


@dataclass(frozen=True, slots=True)
class MapLimits:
    """[map]: the cells of a map, its units, and the content packs and entries it names."""

    side: int
    units: int
    content_packs: int
    content_entries: int


@dataclass(frozen=True, slots=True)
class TiledLimits:
    """[tiled]: what a Tiled map may declare."""

    tile_pixels: int
    layers: int
    tilesets: int
    tiles: int
    objects: int
    cells: int
    xml_depth: int
    xml_elements: int
    xml_markup_bytes: int
    text_chars: int
    image_pixels: int


@dataclass(frozen=True, slots=True)
class ProblemLimits:
    """[problems]: how many problems of one file are listed."""

    shown: int


@dataclass(frozen=True, slots=True)
class Limits:
    files: FileLimits
    map: MapLimits
    tiled: TiledLimits
    problems: ProblemLimits


def _section(kind: type[T], raw: object, name: str) -> T:
    """The dataclass `kind` from the table `name`: every field a whole number of at least 1,
    none missing and none unknown."""
    if not isinstance(raw, dict):
        raise LimitsError(f"{LIMITS_FILE}: [{name}] is missing")
    names = [f.name for f in fields(kind)]  # type: ignore[arg-type]
    unknown = sorted(set(raw) - set(names))
    if unknown:
        raise LimitsError(f"{LIMITS_FILE}: [{name}] {unknown[0]} is not a limit")
    values: dict[str, int] = {}
    for key in names:
        value = raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise LimitsError(f"{LIMITS_FILE}: [{name}] {key} must be a whole number of 1 or more")
        values[key] = value
    return kind(**values)


def parse_limits(raw: dict[str, object]) -> Limits:
    """The limits from their TOML data; LimitsError names a missing, unknown or wrong key."""
    sections = {f.name: f for f in fields(Limits)}
    unknown = sorted(set(raw) - set(sections))
    if unknown:
        raise LimitsError(f"{LIMITS_FILE}: [{unknown[0]}] is not a section of the limits")
    return Limits(
        files=_section(FileLimits, raw.get("files"), "files"),
        map=_section(MapLimits, raw.get("map"), "map"),
        tiled=_section(TiledLimits, raw.get("tiled"), "tiled"),
        problems=_section(ProblemLimits, raw.get("problems"), "problems"),
    )


@cache
def limits() -> Limits:
    """The shipped limits (read once; the value is immutable)."""
    text = data_text("limits.toml")
    return parse_limits(tomllib.loads(text))


def first_problems(lines: Sequence[str], shown: int | None = None) -> list[str]:
    """The first `shown` lines (the limit's number by default), and `… and N more` for the
    rest: a file with 200,000 problems is told in a screenful, not in megabytes.

    >>> first_problems(["a", "b", "c", "d"], 2)
    ['a', 'b', '… and 2 more']
    """
    keep = limits().problems.shown if shown is None else shown
    if len(lines) <= keep:
        return list(lines)
    return [*lines[:keep], f"… and {len(lines) - keep:,} more"]
