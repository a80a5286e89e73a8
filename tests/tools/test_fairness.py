"""`sim batch --fairness` (issue #35): every seed played under each seating of the AI levels on
the sides (swapped, for two), each side's win rate with its Wilson interval apart from the
levels', in the summary, the JSON, the CSV and the chart; and the map of where fights were
decided (`--heatmap`, and the chart's lower panels)."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content.scenario import load
from sim.tools import batch, fairness
from sim.tools.batch import GameRecord, Plan, game_seed
from tests.tools.test_batch import DUEL, record

EASY_NORMAL = (("blue", "easy"), ("red", "normal"))
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main(["batch", *(str(a) for a in argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_each_seed_is_played_with_the_levels_swapped_and_its_own_dice(duel: Path) -> None:
    """Three seeds, blue easy and red normal: games 0-2 as asked, games 3-5 the same seeds with
    the levels swapped; each is the game a plain batch of that seating plays with that seed."""
    the_plan = Plan(load(duel), EASY_NORMAL, seed=9)
    games = fairness.play(the_plan, 3)
    assert [g.index for g in games] == [0, 1, 2, 3, 4, 5]
    assert [g.seed for g in games] == [game_seed(9, i) for i in (0, 1, 2, 0, 1, 2)]
    swapped = replace(the_plan, levels=(("blue", "normal"), ("red", "easy")))
    assert games[4] == replace(batch.play_game(swapped, 1), index=4)
    assert games[1] == batch.play_game(the_plan, 1)
    assert [fairness.seating_of(the_plan, 3, g) for g in games] == [the_plan.levels] * 3 + [
        swapped.levels
    ] * 3


def test_the_same_level_on_both_sides_plays_each_seed_once(duel: Path) -> None:
    """Swapping `normal` for `normal` would play the same game again (the battle is
    deterministic), so there is one seating and one game a seed."""
    the_plan = Plan(load(duel), (("blue", "normal"), ("red", "normal")))
    games = fairness.play(the_plan, 2)
    assert [g.index for g in games] == [0, 1]
    summary = fairness.summarize(the_plan, games, 2)
    fair = summary["fairness"]
    assert fair["seatings"] == [{"blue": "normal", "red": "normal"}] and fair["levels"] == {}
    assert fairness.lines(fair)[0].startswith("fairness (all sides normal, 2 games): blue ")
    assert summary["sides"]["blue"]["ai"] == "normal"


def paired_games() -> list[GameRecord]:
    """Four seeds, blue easy and red normal, then swapped: blue wins seeds 0-2 as easy and
    seeds 0 and 1 as normal; red wins seed 3 as normal; seed 2 as normal is drawn and seed 3
    as easy capped."""
    won = [("blue",), ("blue",), ("blue",), ("red",), ("blue",), ("blue",), (), ()]
    how = ["won"] * 6 + ["draw", "capped"]
    return [record(i, how[i], won[i], 4, 3) for i in range(8)]


def test_the_side_s_advantage_is_apart_from_the_level_s() -> None:
    """Over the eight games blue won 5 (62.5 %, printed 62 %) whatever its level; easy won 3
    (blue 3 as easy, red none as easy) and normal 3 (blue 2, red 1)."""
    the_plan = Plan(load(str(Path(__file__).parents[2] / "scenarios" / "skirmish.toml")),
                    EASY_NORMAL)  # fmt: skip
    summary = fairness.summarize(the_plan, paired_games(), 4)
    fair = summary["fairness"]
    blue, red = fair["sides"]["blue"], fair["sides"]["red"]
    assert (blue["wins"], blue["win_rate"], blue["wilson_95"]) == (5, 5 / 8, [*batch.wilson(5, 8)])
    assert blue["by_level"] == {
        "easy": {"games": 4, "wins": 3, "win_rate": 0.75},
        "normal": {"games": 4, "wins": 2, "win_rate": 0.5},
    }
    assert (red["wins"], red["by_level"]["normal"]["wins"], red["by_level"]["easy"]["wins"]) == (
        1,
        1,
        0,
    )
    assert fair["levels"] == {
        "easy": {"wins": 3, "win_rate": 3 / 8, "wilson_95": [*batch.wilson(3, 8)]},
        "normal": {"wins": 3, "win_rate": 3 / 8, "wilson_95": [*batch.wilson(3, 8)]},
    }
    assert fair["by_seating"] == [
        {"levels": {"blue": "easy", "red": "normal"}, "games": 4,
         "wins": {"blue": 3, "red": 1}, "draws": 0, "capped": 0},
        {"levels": {"blue": "normal", "red": "easy"}, "games": 4,
         "wins": {"blue": 2, "red": 0}, "draws": 1, "capped": 1},
    ]  # fmt: skip
    assert (fair["share"], fair["fair_rate"], fair["fair_interval"]) == (
        0.5,
        [0.4, 0.6],
        [0.35, 0.65],
    )
    assert fair["verdict"] == "favours blue"
    assert fairness.lines(fair) == [
        "fairness (each level on each side, 8 games): blue 62 % (31-86 %), red 12 % (2-47 %): "
        "favours blue",
        "levels apart from sides: easy 38 % (14-69 %), normal 38 % (14-69 %)",
    ]
    assert summary["sides"]["blue"]["ai"] == "easy/normal"
    assert summary["sides"]["red"]["ai"] == "normal/easy"


@pytest.mark.parametrize(
    ("blue", "red", "n", "verdict"),
    [
        (200, 200, 400, "fair"),
        (236, 164, 400, "fair"),  # 59 %: its interval 54-64 % is inside 35-65 %
        (250, 150, 400, "favours blue"),  # 62.5 %
        (10, 10, 20, "too few games to tell"),  # 50 %, but the interval is 30-70 %
        (150, 150, 400, "uneven: blue wins under 40 %"),  # a quarter drawn: 37.5 % each
        (0, 0, 0, "no games played"),
    ],
)
def test_the_verdict(blue: int, red: int, n: int, verdict: str) -> None:
    sides = {
        team: {
            "win_rate": wins / n if n else None,
            "wilson_95": list(batch.wilson(wins, n)),
            "fair": fairness._fair(wins, n, 0.5),
        }
        for team, wins in (("blue", blue), ("red", red))
    }
    assert fairness.verdict(sides, 0.5) == verdict


@pytest.mark.slow
def test_sim_batch_fairness_prints_writes_and_draws_it(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, table, chart, heat = (tmp_path / n for n in ("r.json", "g.csv", "s.png", "h.png"))
    code, printed, err = run(
        capsys, duel, "--games", "2", "--workers", "1", "--seed", "3", "--fairness",
        "--ai", "blue=easy", "--out", out, "--csv", table, "--plot", chart, "--heatmap", heat,
    )  # fmt: skip
    assert (code, err) == (0, "")
    summary = json.loads(out.read_text(encoding="utf-8"))
    fair = summary["fairness"]
    assert summary["games"] == summary["played"] == fair["played"] == 4 and fair["seeds"] == 2
    assert "Goblin duel: 4 games (seed 3, round cap 30; blue easy/normal, red normal/easy)" in (
        printed
    )
    for line in fairness.lines(fair):
        assert f"\n  {line}\n" in printed
    assert printed.index("  draws ") < printed.index("  fairness (each level on each side, 4 ")
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert [(r["game"], r["seed"], r["ai"]) for r in rows] == [
        ("0", str(game_seed(3, 0)), "blue=easy red=normal"),
        ("1", str(game_seed(3, 1)), "blue=easy red=normal"),
        ("2", str(game_seed(3, 0)), "blue=normal red=easy"),
        ("3", str(game_seed(3, 1)), "blue=normal red=easy"),
    ]
    assert list(rows[0])[:4] == ["game", "seed", "ai", "result"]
    for team, side in fair["sides"].items():
        assert side["wins"] == sum(r["winner"] == team for r in rows)
    # Where it was fought: the JSON's cells add up to the units' damage, game for game.
    for team in ("blue", "red"):
        taken = sum(n for *_, n in summary["cells"][team]["taken"])
        units = [u for u in summary["units"].values() if u["team"] == team]
        assert taken == pytest.approx(sum(u["mean_damage_taken"] for u in units) * 4)
    assert chart.read_bytes()[:8] == heat.read_bytes()[:8] == PNG


def test_heatmap_without_fairness_and_a_bad_file_name_refused_first(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    heat = tmp_path / "h.png"
    code, printed, _ = run(capsys, duel, "--games", "1", "--workers", "1", "--heatmap", heat)
    assert code == 0 and heat.read_bytes()[:8] == PNG
    assert "fairness" not in printed
    monkeypatch.setattr(batch, "play_game", lambda *_: pytest.fail("a game was played"))
    code, out, err = run(capsys, duel, "--games", "1", "--heatmap", tmp_path / "h.jpg")
    assert (code, out) == (2, "")
    assert err == f"sim batch: --heatmap {tmp_path / 'h.jpg'}: give a file name ending in .png\n"
