"""bench/balance.py: `--only` plays the scenarios and duels it names, one duel as A:B, and
refuses a name that is neither, saying what it knows."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import bench_module


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return bench_module("balance")


def test_only_one_duel_named_as_a_pair_either_way_round(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "balance.md"
    bench.main(["--only", "orc_brute:human_archer", "--games", "2", "--workers", "1",
                "--out", str(out)])  # fmt: skip
    printed = capsys.readouterr().out
    played = [line.split(":")[0] for line in printed.splitlines() if " games in " in line]
    assert played == ["human_archer v orc_brute"]
    assert "| human_archer v orc_brute | 2 |" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["chasmm", "human_archer:dragon", "human_archer"])
def test_only_refuses_a_name_it_does_not_know(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    out = tmp_path / "balance.md"
    assert bench.main(["--only", name, "--games", "2", "--out", str(out)]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"--only {name}: no such scenario or duel; scenarios: brawl, chasm")
    assert "'duels'; or a duel as A:B of human_fighter, human_archer" in said
    assert not out.exists()
