"""Line numbers for keys of a TOML file, so loaders can say `file:line: message`."""

from __future__ import annotations

import re

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
