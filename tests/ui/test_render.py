"""`sim render` draws every shipped scenario to a PNG without a window, with overlays."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import first_fast

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pygame

from sim.cli.main import main
from sim.content.scenario import load
from sim.core.creature import creatures, team_of
from sim.ui.model.planner import teams

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_render_writes_a_png_for_every_shipped_scenario(scenario: Path, tmp_path: Path) -> None:
    out = tmp_path / f"{scenario.stem}.png"
    assert main(["render", str(scenario), "--out", str(out), "--seed", "1"]) == 0
    picture = pygame.image.load(str(out))
    assert picture.get_size() == (1280, 800)


def test_every_shipped_scenario_is_rendered() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {"skirmish", "river_crossing", "cliff_fort", "chasm", "brawl", "spells"} <= names


@pytest.mark.parametrize("scenario", first_fast(SCENARIOS), ids=lambda p: p.stem)
def test_render_draws_the_overlays_on_every_shipped_scenario(
    scenario: Path, tmp_path: Path
) -> None:
    """The reach overlay of the first unit and the threat overlay of the other side change the
    picture; the threat overlay alone changes it too."""
    loaded = load(scenario)
    world = loaded.world
    unit = creatures(world)[0]
    enemy = next(t for t in teams(world) if t != team_of(world, unit))
    shots = {}
    for name, extra in (
        ("plain", []),
        ("reach", ["--overlay", f"reach:{unit}"]),
        ("threat", ["--overlay", f"threat:{enemy}"]),
        ("both", ["--overlay", f"reach:{unit}", "--overlay", f"threat:{enemy}"]),
    ):
        out = tmp_path / f"{scenario.stem}_{name}.png"
        assert main(["render", str(scenario), "--out", str(out), "--seed", "1", *extra]) == 0
        shots[name] = pygame.image.tobytes(pygame.image.load(str(out)), "RGB")
    assert shots["reach"] != shots["plain"]
    assert shots["threat"] != shots["plain"]
    assert shots["both"] not in (shots["reach"], shots["threat"])


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


def test_the_client_helpers_doctests() -> None:
    """sim/ui is left out of pytest's doctest collection (it imports pygame); run its small
    helpers' examples here."""
    import doctest

    import sim.ui.draw.render
    import sim.ui.draw.terrain
    import sim.ui.draw.tokens
    import sim.ui.model.actionbar
    import sim.ui.model.intent
    import sim.ui.model.menu
    import sim.ui.words.wording

    for module in (
        sim.ui.model.actionbar, sim.ui.model.intent, sim.ui.model.menu, sim.ui.draw.render,
        sim.ui.draw.terrain, sim.ui.draw.tokens, sim.ui.words.wording,
    ):  # fmt: skip
        failed, _ = doctest.testmod(module)
        assert failed == 0, module.__name__
