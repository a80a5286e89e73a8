"""`sim render` draws every shipped scenario to a PNG without a window, with overlays."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pygame

from sim.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_render_writes_a_png_for_every_shipped_scenario(scenario: Path, tmp_path: Path) -> None:
    out = tmp_path / f"{scenario.stem}.png"
    assert main(["render", str(scenario), "--out", str(out), "--seed", "1"]) == 0
    picture = pygame.image.load(str(out))
    assert picture.get_size() == (1280, 800)


def test_render_with_overlays_and_a_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "moves.jsonl"
    script.write_text('{"unit": "bram", "action": "aim"}\n', encoding="utf-8")
    out = tmp_path / "map.png"
    scenario = str(ROOT / "scenarios" / "skirmish.toml")
    args = ["render", scenario, "--out", str(out), "--overlay", "reach:bram"]
    args += [
        "--overlay",
        "threat:red",
        "--script",
        str(script),
        "--hover",
        "6,3",
        "--size",
        "1920x1080",
    ]
    assert main(args) == 0
    assert pygame.image.load(str(out)).get_size() == (1920, 1080)


def test_render_names_a_wrong_overlay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = str(ROOT / "scenarios" / "skirmish.toml")
    out = str(tmp_path / "x.png")
    assert main(["render", scenario, "--out", out, "--overlay", "reach:nobody"]) == 2
    assert "there is no unit 'nobody'" in capsys.readouterr().err
