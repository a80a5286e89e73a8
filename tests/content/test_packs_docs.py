"""docs/scenarios.md's "Your own content": its den and pack load, `sim check` prints what the
page says, and every table's example is a valid entry of a scenario's own (issue #32)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content.packs import SECTIONS
from sim.content.scenario import loads

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
OWN = DOC[DOC.index("## Your own content") :]
EXAMPLES = re.findall(r"```toml\n(.*?)```", OWN, re.DOTALL)


def test_the_den_and_its_pack_load_and_sim_check_lists_what_the_page_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    den, pack = EXAMPLES[0], EXAMPLES[1]
    assert den.startswith("# ogre_den.toml") and pack.startswith("# monsters.toml")
    (tmp_path / "ogre_den.toml").write_text(den, encoding="utf-8")
    (tmp_path / "monsters.toml").write_text(pack, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "ogre_den.toml"]) == 0
    shown = re.search(r"```\n(ogre_den.toml: ok\n.*?)```", OWN, re.DOTALL)
    assert shown is not None
    assert capsys.readouterr().out == shown.group(1)


def test_every_table_has_an_example_that_loads() -> None:
    """Each `### [section.NAME]` heading is followed by an example of that section, which a
    scenario may hold as its own."""
    base = 'name = "t"\n[map]\nrows = "#a#"\n[[units]]\nid = "a"\nteam = "b"\n'
    base += 'template = "human_fighter"\nat = "a"\n'
    headings = re.findall(r"^### `\[(\w+)\.NAME\]`", OWN, re.MULTILINE)
    assert sorted(headings) == sorted(SECTIONS)
    for section in headings:
        part = OWN.split(f"### `[{section}.NAME]`")[1].split("\n### ")[0]
        example = re.search(r"```toml\n(.*?)```", part, re.DOTALL)
        assert example is not None, section
        assert example.group(1).startswith(f"[{section}."), section
        scenario = loads(base + example.group(1), "doc.toml")
        assert [e.section for e in scenario.content] == [section]
