"""The reactions hint's note beside the saves (sim/ui/input/hints.py) is read within its limit:
a damaged, oversized or odd note shows the hint again, never stops the client."""

from __future__ import annotations

from pathlib import Path

from sim.ui.input.hints import Hints


def test_the_note_is_read_and_a_damaged_one_shows_the_hint_again(tmp_path: Path) -> None:
    note = tmp_path / ".hints"
    assert Hints(note).due  # no note yet
    note.write_text("reactions\n", encoding="utf-8")
    assert not Hints(note).due
    note.write_bytes(b"reactions\n\xff\xfe")  # not UTF-8: it raised UnicodeDecodeError before
    assert Hints(note).due
    note.write_text("reactions\n" + "x" * 5000, encoding="utf-8")  # past the 4096-byte limit
    assert Hints(note).due
    assert Hints(tmp_path).due  # a folder
