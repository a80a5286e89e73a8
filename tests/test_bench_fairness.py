"""bench/fairness.py (issue #35): each shipped scenario played as `sim batch --fairness` plays
it, judged fair, or uneven as its description says (and by how much), or neither; the table of
docs/fairness.md; a scenario it does not ship refused by name."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from sim.content.scenario import load
from sim.tools.batch import wilson
from tests.helpers import bench_module

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return bench_module("fairness")


def summary(blue: int, red: int, n: int, verdict: str) -> dict[str, Any]:
    def side(wins: int) -> dict[str, Any]:
        return {"wins": wins, "win_rate": wins / n, "wilson_95": list(wilson(wins, n))}

    return {"fairness": {"sides": {"blue": side(blue), "red": side(red)}, "verdict": verdict}}


@pytest.mark.parametrize(
    ("description", "blue", "verdict", "judgement", "passes"),
    [
        ("An even fight.", 200, "fair", "fair", True),
        (
            "An even fight.",
            300,
            "favours blue",
            "NOT FAIR (favours blue), and its description does not say so",
            False,
        ),
        (
            "Hold the gate. Deliberately uneven: blue wins about 80 %.",
            300,  # 75 %: within 10 points of what is said
            "favours blue",
            "uneven as its description says (blue wins about 80%)",
            True,
        ),
        (
            "Hold the gate. Deliberately uneven: blue wins about 80 %.",
            260,  # 65 %: 15 points short of it
            "favours blue",
            "NOT AS DESCRIBED: the description says blue wins about 80%",
            False,
        ),
    ],
)
def test_a_scenario_is_fair_or_as_uneven_as_its_description_says(
    bench: ModuleType, description: str, blue: int, verdict: str, judgement: str, passes: bool
) -> None:
    scenario = load(str(ROOT / "scenarios" / "chasm.toml"))
    claim = bench.claim(description)
    result = bench.Result("chasm", scenario, summary(blue, 400 - blue, 400, verdict), claim, 1.0)
    assert (result.judgement(), result.passes) == (judgement, passes)


def test_the_bench_writes_a_row_a_scenario_and_fails_one_it_cannot_call_fair(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two games of the chasm tell nothing (the intervals are far wider than 35-65 %), and its
    description claims no unevenness: the table has its row and the bench fails on it."""
    out = tmp_path / "fairness.md"
    code = bench.main(["--games", "2", "--only", "chasm", "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 1
    assert "neither fair nor as described: chasm" in printed
    text = out.read_text(encoding="utf-8")
    assert "Written by `python bench/fairness.py --games 2 --workers 1 --seed 0`" in text
    [row] = [line for line in text.splitlines() if line.startswith("| chasm ")]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[:2] == ["chasm (The chasm)", "2"]
    assert cells[-1].startswith("NOT FAIR (")
    assert cells[-1].endswith("), and its description does not say so")
    assert f"- **chasm**: {load(str(ROOT / 'scenarios' / 'chasm.toml')).description}" in text


def test_a_scenario_not_shipped_is_refused_by_name(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.main(["--only", "atlantis", "--out", str(tmp_path / "f.md")]) == 2
    assert capsys.readouterr().err == "bench/fairness.py: no shipped scenario atlantis\n"
    assert not (tmp_path / "f.md").exists()
