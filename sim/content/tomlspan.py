"""TOML read with its line numbers: the key and table lines, and the line of a syntax error,
so loaders can say `file:line: message`."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\" ]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_\-]+)\s*=")

Path = tuple[str | int, ...]


class Spans:
    """Where each table and key starts: `line(("units", 2, "template"))` -> 14.

    >>> s = Spans('a = 1\\n[[units]]\\nid = "x"\\n[[units]]\\nid = "y"\\n')
    >>> s.line(("units", 1, "id")), s.line(("units", 0)), s.line(("a",))
    (5, 2, 1)
    """

    def __init__(self, text: str) -> None:
        self.lines: dict[Path, int] = {}
        self._counts: dict[str, int] = {}
        table: Path = ()
        in_string: str | None = None
        for number, line in enumerate(text.split("\n"), start=1):
            if in_string is not None:
                if in_string in line:
                    in_string = None
                continue
            header = _HEADER.match(line)
            if header:
                table = self._table(header.group(1) == "[[", header.group(2))
                self.lines.setdefault(table, number)
                continue
            key = _KEY.match(line)
            if key:
                name = key.group(1).strip("\"'")
                self.lines.setdefault((*table, name), number)
                rest = line[key.end() :]
                for quote in ('"""', "'''"):
                    if rest.count(quote) == 1:
                        in_string = quote

    def _table(self, is_array: bool, dotted: str) -> Path:
        parts = [p.strip().strip("\"'") for p in dotted.split(".")]
        path: list[str | int] = []
        for i, part in enumerate(parts):
            path.append(part)
            prefix = ".".join(parts[: i + 1])
            last = i == len(parts) - 1
            if is_array and last:
                self._counts[prefix] = self._counts.get(prefix, 0) + 1
                path.append(self._counts[prefix] - 1)
            elif prefix in self._counts:
                path.append(self._counts[prefix] - 1)
        return tuple(path)

    def line(self, path: Path) -> int:
        """The line of `path`, or of its nearest enclosing table or key that was found."""
        probe = tuple(path)
        while probe:
            if probe in self.lines:
                return self.lines[probe]
            probe = probe[:-1]
        return 1


class TomlProblem(Exception):
    """A file that is not TOML: the line of the error and what is wrong there."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(f"{line}: {message}")


def parse(text: str) -> dict[str, Any]:
    """`tomllib.loads`, or TomlProblem with the line of the first error (`not valid TOML: ...`)."""
    try:
        return _loads(text)
    except RecursionError:
        # tomllib parses nested arrays and inline tables by recursion (issue #10).
        raise TomlProblem(
            _deepest_line(text), "not valid TOML: arrays or tables nested too deep"
        ) from None
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"\(at line (\d+), column \d+\)", str(error))
        # Without a line, "(at end of document)": something unclosed runs to the end.
        line = int(found.group(1)) if found else len(text.rstrip().split("\n"))
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(error))
        if not found and "end of document" in str(error):
            message += " (at the end of the file)"
        raise TomlProblem(line, f"not valid TOML: {message}") from None


def _loads(text: str) -> dict[str, Any]:
    """`tomllib.loads`, with a number too long for int() reported as a TOML error."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except ValueError:
        # int() refuses numbers of thousands of digits (sys.get_int_max_str_digits()).
        long = re.search(r"[0-9][0-9_]{4299,}", text)
        line = text.count("\n", 0, long.start()) + 1 if long else 1
        raise tomllib.TOMLDecodeError(
            f"a number has too many digits (at line {line}, column 1)"
        ) from None


def _deepest_line(text: str) -> int:
    """The line where brackets and braces nest deepest (outside strings, roughly): where a
    too-deep nesting is."""
    depth, deepest, line, at = 0, -1, 1, 1
    for char in text:
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, line
        elif char in "]}":
            depth -= 1
    return at


@dataclass(frozen=True, slots=True)
class Problem:
    """A problem of a scenario: its line, what is wrong, and the file when it is not the
    scenario's own (a content pack it names, issue #32)."""

    line: int
    message: str
    file: str = ""
