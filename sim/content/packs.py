"""A scenario's own content: templates, races, equipment and abilities in its own tables or in
content packs it names (issue #32), checked as the shipped files are, every problem with its
file and line.

A scenario may hold `[templates.NAME]`, `[races.NAME]`, `[weapons.NAME]`, `[shields.NAME]`,
`[armour.NAME]`, `[items.NAME]` and `[abilities.NAME]` tables, and `content = ["monsters.toml"]`
naming files beside it (never outside its folder) that hold the same tables. Each entry has the
keys of the shipped files (sim/data/*.toml, and rules.toml's [races]), and may say
`based_on = "orc_brute"` (the keys of another entry of its section, its own replacing them) and
`replaces = true` (it takes the place of a shipped entry of that name; without it such a name is
a problem). The entries make the battle's own catalog: the shipped one is never changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.content import tomlspan
from sim.content.tomlspan import Problem, Spans
from sim.core import abilities as ab
from sim.core import catalog as cat
from sim.core.catalog import Catalog, Report
from sim.core.files import Unreadable, read_bytes, read_text, write_atomically
from sim.core.limits import limits
from sim.core.numbers import Rules

# An entry based on one based on another...: checked by recursion, so never deeper than this.
MAX_DEPTH = 32
# The order they are checked in: what a template names is known before the templates.
SECTIONS = ("races", "weapons", "shields", "armour", "items", "abilities", "templates")
OWN_KEYS = ("based_on", "replaces")
# Weapons, shields, armour and items share one set of names: a unit's `held` names any of them.
EQUIPMENT = "equipment"

# Checks a template's merged table against the battle's catalog so far, telling `report` its
# problems; True when it has none. The scenario loader's, which checks units the same way.
TemplateCheck = Callable[[str, dict[str, Any], Catalog, frozenset[tuple[str, str]], Report], bool]
# Makes an entry of its name and merged table, telling `report` its problems; None when it has
# problems.
Reader = Callable[[str, dict[str, Any], Report], Any]


def namespace(section: str) -> str:
    """The names a section's entries share: the four equipment sections share one."""
    return EQUIPMENT if section in cat.EQUIPMENT_SECTIONS else section


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a scenario's own content and where it is written."""

    section: str
    name: str
    file: str  # the file as messages name it
    line: int
    based_on: str | None = None
    replaces: bool = False

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class Pack:
    """A content pack a scenario names: its path as written there, and its sha256."""

    path: str
    sha256: str


@dataclass(frozen=True)
class Content:
    """What a scenario's content makes: the battle's catalog, the entries that are its own,
    the packs read, and the entries with problems by (namespace, name), which what names them
    passes over: their own problems are listed."""

    catalog: Catalog
    entries: tuple[Entry, ...] = ()
    packs: tuple[Pack, ...] = ()
    broken: frozenset[tuple[str, str]] = frozenset()


@dataclass(frozen=True, slots=True)
class _File:
    label: str  # as messages name it; "" for the scenario's own (ScenarioError names it)
    spans: Spans
    tables: dict[str, Any]


@dataclass
class _Gatherer:
    rules: Rules
    base: Catalog
    scenario: str  # the scenario's own file, as messages name it
    problems: list[Problem] = field(default_factory=list)
    entries: dict[tuple[str, str], tuple[Entry, _File, dict[str, Any]]] = field(
        default_factory=dict
    )
    merged: dict[tuple[str, str], dict[str, Any] | None] = field(default_factory=dict)
    resolving: list[tuple[str, str]] = field(default_factory=list)
    broken: set[tuple[str, str]] = field(default_factory=set)
    results: dict[tuple[str, str], Any] = field(default_factory=dict)
    listed: dict[str, str] = field(default_factory=dict)  # `known`'s, by section
    counted: int = 0  # entries read, with problems or not

    def problem(self, file: _File, path: tomlspan.Path, message: str) -> None:
        self.problems.append(Problem(file.spans.line(path), message, file.label))

    # --- what the files define ----------------------------------------------------------------

    def shipped(self, section: str) -> dict[str, dict[str, Any]]:
        """The base catalog's entries of `section` as tables (the rules' races as theirs)."""
        if section == "races":
            races = {**self.rules.races, **self.base.races}
            return {
                name: {
                    "speed": r.speed,
                    "height": r.height,
                    "size": r.size,
                    **{k: getattr(r, k) for k in cat.MODE_KEYS if getattr(r, k)},  # R-Z5
                }
                for name, r in races.items()
            }
        return self.base.tables.get(section, {})

    def shipped_names(self, section: str) -> set[str]:
        if section == "races":
            return set(self.rules.races) | set(self.base.races)
        if section == "templates":
            return set(self.base.templates)
        if section == "abilities":
            return set(self.base.abilities)
        return set(self.base.equipment)

    def collect(self, file: _File) -> bool:
        """Define the file's entries; False, with a problem, once the scenario and its packs
        have more than the limit's."""
        most = limits().map.content_entries
        for section in SECTIONS:
            tables = file.tables.get(section)
            if tables is None:
                continue
            if not isinstance(tables, dict):
                self.problem(file, (section,), f"{section} must be tables like [{section}.NAME]")
                continue
            for name, table in tables.items():
                if self.counted >= most:
                    self.problem(
                        file,
                        (section, name),
                        f"more than {most:,} entries in the scenario and its packs; the rest "
                        "were not read",
                    )
                    return False
                self.counted += 1
                self.define(file, section, name, table)
        return True

    def define(self, file: _File, section: str, name: str, table: Any) -> None:
        where = f"{section}.{name}"
        path: tomlspan.Path = (section, name)
        if not ab.NAME.match(name):
            self.problem(
                file, path, f"{where}: a name is lower-case letters, digits and _, from a letter"
            )
            return
        if not isinstance(table, dict):
            self.problem(file, path, f"{where} must be a table")
            return
        key = (namespace(section), name)
        word = cat.ENTRY_WORDS[section]
        if key in self.entries:
            other = self.entries[key][0]
            self.problem(
                file,
                path,
                f"{where}: {name!r} is already defined, as {other.section}.{name} at {other.where}",
            )
            return
        replaces = table.get("replaces", False)
        shipped = name in self.shipped_names(section)
        if not isinstance(replaces, bool):
            self.problem(file, (*path, "replaces"), f"{where}: replaces must be true or false")
            replaces = False
            self.broken.add(key)
        elif shipped and not replaces:
            self.problem(
                file,
                path,
                f"{where}: a shipped {word} is called {name!r}: choose another name, or say "
                "replaces = true to replace it",
            )
            self.broken.add(key)
        elif replaces and not shipped:
            self.problem(
                file,
                (*path, "replaces"),
                f"{where}: replaces = true, but no shipped {word} is called {name!r}",
            )
            self.broken.add(key)
        based_on = table.get("based_on")
        entry = Entry(
            section,
            name,
            file.label or self.scenario,
            file.spans.line(path),
            based_on if isinstance(based_on, str) else None,
            replaces,
        )
        self.entries[key] = (entry, file, table)

    def known(self, section: str) -> str:
        """The names of `section`'s entries, shipped and the scenario's own, for a message (the
        first few: a pack may define thousands)."""
        if section not in self.listed:
            own = {e.name for e, _, _ in self.entries.values() if e.section == section}
            self.listed[section] = known_names(sorted(set(self.shipped(section)) | own))
        return self.listed[section]

    # --- based_on ---------------------------------------------------------------------------

    def resolve(self, key: tuple[str, str]) -> dict[str, Any] | None:
        """The entry's keys with those of what it is based on; None when its `based_on` has a
        problem (reported once)."""
        if key in self.merged:
            return self.merged[key]
        entry, file, table = self.entries[key]
        own = {k: v for k, v in table.items() if k not in OWN_KEYS}
        where = f"{entry.section}.{entry.name}"
        path: tomlspan.Path = (entry.section, entry.name, "based_on")
        base_name = table.get("based_on")
        merged: dict[str, Any] | None = own
        if base_name is not None:
            merged = None
            word = cat.ENTRY_WORDS[entry.section]
            base_key = (key[0], base_name) if isinstance(base_name, str) else None
            shipped = self.shipped(entry.section)
            if base_key is None:
                self.problem(file, path, f"{where}: based_on must be the name of a {word}")
            elif base_key in self.resolving:
                ring = [k[1] for k in self.resolving[self.resolving.index(base_key) :]]
                ring += [entry.name, base_name]
                self.problem(
                    file, path, f"{where}: based_on goes round in a circle: {' -> '.join(ring)}"
                )
            elif base_key in self.entries and base_name != entry.name:
                other = self.entries[base_key][0]
                if other.section != entry.section:
                    self.problem(
                        file,
                        path,
                        f"{where}: based_on {base_name!r} is {_a(cat.ENTRY_WORDS[other.section])}, "
                        f"not {_a(word)}",
                    )
                elif len(self.resolving) >= MAX_DEPTH:
                    self.problem(
                        file,
                        path,
                        f"{where}: based_on goes more than {MAX_DEPTH} entries deep",
                    )
                else:
                    self.resolving.append(key)
                    found = self.resolve(base_key)
                    self.resolving.pop()
                    if found is not None:
                        merged = {**found, **own}
            elif base_name in shipped:
                merged = {**shipped[base_name], **own}
            else:
                self.problem(
                    file,
                    path,
                    f"{where}: based_on {base_name!r} is not a known {word} "
                    f"(known: {self.known(entry.section)})",
                )
        self.merged[key] = merged
        if merged is None:
            self.broken.add(key)
        return merged

    # --- checking each entry -------------------------------------------------------------------

    def reporter(self, key: tuple[str, str], only_own: bool) -> Report:
        """`report` for an entry: each problem on its key's line, named `section.name: ...`;
        `only_own`: the entry's base has problems of its own, so only the keys it sets itself
        are checked (the inherited ones are reported at the base)."""
        entry, file, table = self.entries[key]
        path = (entry.section, entry.name)

        def report(name: str, message: str) -> None:
            if only_own and name not in table:
                return
            self.problem(file, (*path, name) if name else path, f"{'.'.join(path)}: {message}")

        return report

    def check(self, key: tuple[str, str], read: Reader) -> Any:
        """The entry as `read` makes it, or None when it has problems (reported); the entry it
        is based on is checked first."""
        if key in self.results:
            return self.results[key]
        self.results[key] = None
        entry = self.entries[key][0]
        merged = self.resolve(key)
        if merged is None:
            return None
        base = (key[0], entry.based_on or "")
        only_own = False
        if base in self.entries and base[1] != entry.name:
            self.check(base, read)
            only_own = base in self.broken
        failed = False
        report = self.reporter(key, only_own)

        def counted(name: str, message: str) -> None:
            nonlocal failed
            failed = True
            report(name, message)

        found = read(entry.name, merged, counted)
        if failed or found is None or only_own or key in self.broken:
            self.broken.add(key)
            return None
        self.results[key] = found
        return found


def _a(word: str) -> str:
    return word if word == "armour" else f"an {word}" if word[0] in "aeiou" else f"a {word}"


def gather(
    raw: dict[str, Any],
    spans: Spans,
    label: str,
    folder: Path,
    rules: Rules,
    base: Catalog,
    check_template: TemplateCheck,
) -> tuple[Content, list[Problem]]:
    """The content of a parsed scenario (`raw`, its `spans`, named `label` in messages, in
    `folder`) and of the packs it names, on the `base` catalog; and every problem found.
    A scenario's `items` that is a list is its items on the ground, not content."""
    g = _Gatherer(rules, base, label)
    own = {
        s: raw[s] for s in SECTIONS if s in raw and not (s == "items" and isinstance(raw[s], list))
    }
    files = [_File("", spans, own)]
    packs: list[Pack] = []
    for written, text in _read_packs(g, raw.get("content"), spans, folder):
        shown = str(folder / written) if str(folder) != "." else written
        pack_spans = Spans(text)
        file = _File(shown, pack_spans, {})
        packs.append(Pack(written, hashlib.sha256(text.encode("utf-8")).hexdigest()))
        try:
            tables = tomlspan.parse(text)
        except tomlspan.TomlProblem as error:
            g.problems.append(Problem(error.line, error.message, shown))
            continue
        for key, value in tables.items():
            if key not in SECTIONS:
                expected = ", ".join(sorted(SECTIONS))
                g.problem(file, (key,), f"unknown key {key!r} (expected one of {expected})")
            elif key == "items" and isinstance(value, list):
                g.problem(
                    file,
                    (key,),
                    "a content pack's items are kinds of item, [items.NAME] tables; items on "
                    "the ground are the scenario's [[items]]",
                )
        kept = {k: v for k, v in tables.items() if k in SECTIONS}
        if isinstance(kept.get("items"), list):  # reported above
            del kept["items"]
        files.append(_File(shown, pack_spans, kept))
    for file in files:
        if not g.collect(file):
            break
    catalog = _catalog(g, check_template)
    entries = tuple(entry for entry, _, _ in g.entries.values())
    content = Content(catalog, entries, tuple(packs), frozenset(g.broken))
    return content, g.problems


def _catalog(g: _Gatherer, check_template: TemplateCheck) -> Catalog:
    """The base catalog with every entry that has no problem added or put in its place."""
    equipment = dict(g.base.equipment)
    abilities = dict(g.base.abilities)
    races = dict(g.base.races)
    tables = {section: dict(g.base.tables.get(section, {})) for section in SECTIONS}
    readers: dict[str, Reader] = {"races": cat.race, "abilities": ab.entry, **cat.READERS}
    for section in SECTIONS[:-1]:  # templates come last: they name the others
        for key, (entry, _, _) in g.entries.items():
            if entry.section != section:
                continue
            found = g.check(key, readers[section])
            if found is None:
                continue
            if section == "races":
                races[entry.name] = found
            elif section == "abilities":
                abilities[entry.name] = found
            else:
                equipment[entry.name] = found
                for other in cat.EQUIPMENT_SECTIONS:
                    tables[other].pop(entry.name, None)
            tables[section][entry.name] = g.merged[key] or {}
    so_far = Catalog(equipment, dict(g.base.templates), abilities, races, tables)
    broken = frozenset(g.broken)  # what the templates name: checked by now

    def template(name: str, table: dict[str, Any], report: Report) -> dict[str, Any] | None:
        return table if check_template(name, table, so_far, broken, report) else None

    templates = dict(g.base.templates)
    for key, (entry, _, _) in g.entries.items():
        if entry.section == "templates":
            found = g.check(key, template)
            if found is not None:
                templates[entry.name] = found
                tables["templates"][entry.name] = found
    return Catalog(equipment, templates, abilities, races, tables)


def _read_packs(g: _Gatherer, value: Any, spans: Spans, folder: Path) -> list[tuple[str, str]]:
    """The packs `content` names, as (path as written, text); each that cannot be read is a
    problem on the `content` line: a path outside the scenario's folder (or a link leading
    out of it), one named twice, a file too large, not a regular file, or not UTF-8."""
    file = _File("", spans, {})
    if value is None:
        return []
    most = limits().map.content_packs
    if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
        g.problem(file, ("content",), 'content must be a list of file names like ["monsters.toml"]')
        return []
    if len(value) > most:
        g.problem(file, ("content",), f"content names {len(value):,} packs; at most {most:,}")
        return []
    found: list[tuple[str, str]] = []
    seen: set[Path] = set()
    room = limits().files.content_all  # bytes the packs not yet read may have
    for written in value:
        where = f"content pack {written!r}"
        target = _inside(folder, written)
        if target is None:
            g.problem(
                file,
                ("content",),
                f"{where} is outside the scenario's folder; a pack must be in it or below it, "
                "named by a path relative to it",
            )
            continue
        if target in seen:
            g.problem(file, ("content",), f"{where} is named twice")
            continue
        seen.add(target)
        own = limits().files.content_pack
        what = "a content pack"
        if room < own:
            what = f"this pack (all of a scenario's share {limits().files.content_all:,})"
        try:
            text = read_text(target, min(own, room), what)
        except Unreadable as error:
            g.problem(file, ("content",), f"{where}: {error}")
            continue
        room -= len(text.encode("utf-8"))
        found.append((written, text))
    return found


def known_names(names: list[str]) -> str:
    """Names for a message that lists what is known, the first NAMES_SHOWN of them: a pack
    may define thousands, and each problem that lists them would hold them all.

    >>> known_names(["a", "b"])
    'a, b'
    >>> known_names([str(n) for n in range(25)]).endswith("19, … and 5 more")
    True
    """
    if len(names) <= NAMES_SHOWN:
        return ", ".join(names)
    return f"{', '.join(names[:NAMES_SHOWN])}, … and {len(names) - NAMES_SHOWN:,} more"


SHOWN = ("templates", "races", "weapons", "shields", "armour", "items", "abilities")
NAMES_SHOWN = 20  # entries listed of one section; the rest are counted


def modes_words(table: dict[str, Any]) -> str:
    """A race's or a template's movement modes in words, "fly 12 m, swim 4 m" (R-Z5); "" for
    none.

    >>> modes_words({"fly": 12, "climb": 0, "swim": 4})
    'fly 12 m, swim 4 m'
    """
    return ", ".join(f"{k} {table[k]} m" for k in cat.MODE_KEYS if table.get(k))


def size_words(side: int) -> str:
    """A large creature's size as `sim check` and the sidebar say it (R-Z1).

    >>> size_words(2)
    'size 2 (2×2)'
    """
    return f"size {side} ({side}×{side})"


def describe(
    entries: tuple[Entry, ...], scenario: str, catalog: Catalog | None = None
) -> list[str]:
    """A line for each section of a scenario's own content, as `sim check` lists it:
    `templates: ogre (monsters.toml:3, based on orc_brute), ...`; `scenario` names the
    scenario's own file; from `catalog` (the battle's), a race's or a template's movement
    modes (R-Z5) and size (R-Z1) too: `griffin (monsters.toml:9, fly 12 m)`,
    `ogrekin (monsters.toml:2, size 2 (2×2))`."""
    lines = []
    for section in SHOWN:
        found = [e for e in entries if e.section == section]
        if not found:
            continue
        words = []
        for entry in found[:NAMES_SHOWN]:
            notes = [f"{entry.file or scenario}:{entry.line}"]
            if entry.based_on is not None:
                notes.append(f"based on {entry.based_on}")
            if entry.replaces:
                notes.append("replaces the shipped one")
            if catalog is not None and section in ("templates", "races"):
                template = catalog.templates.get(entry.name, {}) if section == "templates" else {}
                race = (
                    catalog.races.get(entry.name)
                    if section == "races"
                    else catalog.races.get(str(template.get("race", "")))
                )
                # A template's own keys replace its race's, as a unit's replace its template's.
                table = {k: getattr(race, k) for k in cat.MODE_KEYS} if race is not None else {}
                table |= {k: template[k] for k in cat.MODE_KEYS if k in template}
                if modes_words(table):
                    notes.append(modes_words(table))
                side = template.get("size", race.size if race is not None else 1)
                if isinstance(side, int) and side > 1:  # R-Z1
                    notes.append(size_words(side))
            words.append(f"{entry.name} ({', '.join(notes)})")
        if len(found) > NAMES_SHOWN:
            words.append(f"… and {len(found) - NAMES_SHOWN:,} more")
        lines.append(f"{section}: {', '.join(words)}")
    return lines


class PackError(Exception):
    """Content packs that cannot be copied where a scenario's copy needs them."""


def carry(paths: list[str], origin: Path, destination: Path) -> list[Path]:
    """Copy the content packs `paths` (as a scenario names them) from beside a file in `origin`
    to the same places beside one in `destination` (Tiled export and import write the scenario
    elsewhere): the files written. A pack already there with the same bytes is left as it is.
    Every pack is checked before any is written; PackError says what stops it: a pack missing
    or refused (outside the folder, too large, not a regular file), or a different file in its
    place, which is never overwritten."""
    most = limits().files.content_pack
    todo: list[tuple[Path, bytes]] = []
    try:
        same = origin.resolve() == destination.resolve()
    except (OSError, RuntimeError) as error:
        raise PackError(f"{destination}: cannot be looked up ({error})") from None
    if same:
        return []
    for written in paths:
        source = _inside(origin, written)
        target = _inside(destination, written)
        if source is None or target is None:
            raise PackError(f"content pack {written!r} is outside the scenario's folder")
        try:
            data = read_bytes(source, most, "a content pack")
        except Unreadable as error:
            raise PackError(f"{source}: {error}") from None
        try:
            there = read_bytes(target, most, "a content pack") if target.exists() else None
        except (Unreadable, OSError) as error:
            raise PackError(f"{target} is in the way and cannot be read: {error}") from None
        if there is not None and there != data:
            raise PackError(
                f"{target} is already there and differs from {source}; it was not overwritten "
                "(move it, or write the map elsewhere)"
            )
        if there is None:
            todo.append((target, data))
    written_now: list[Path] = []
    for target, data in todo:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, data.decode("utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise PackError(f"{target}: cannot write it: {error}") from None
        written_now.append(target)
    return written_now


def _inside(folder: Path, written: str) -> Path | None:
    """Where the pack `written` is beside a scenario in `folder`, or None when that is outside
    the folder (an absolute path, `..` or a link leading out)."""
    try:
        root = folder.resolve()
        if Path(written).is_absolute():
            return None
        target = (folder / written).resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    return target if target.is_relative_to(root) else None
