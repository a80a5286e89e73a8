"""bench/ai.py (issue #29): each pairing's win rate with its interval against its goal, each
level's decision time against its goals, its choices by kind, whether `hard` chose every kind it
was offered, and a level this tree does not have named rather than crashed on."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from sim.tools.batch import Chosen
from tests.helpers import bench_module

# Two goblins 3 m apart: a few rounds, so a game of `hard` takes about a second.
DUEL = """name = "Goblin duel"
[map]
rows = \"\"\"
######
#a..b#
######
\"\"\"
[[units]]
id = "ana"
team = "blue"
template = "goblin_sneak"
at = "a"
[[units]]
id = "grok"
team = "red"
template = "goblin_sneak"
at = "b"
"""
# The pairings of the issue with a level no tree has, as `classic` was before issue #29's AI.
GOALS = {("normal", "grandmaster"): 0.65, ("hard", "normal"): 0.65, ("normal", "random"): 0.95}


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return bench_module("ai")


def result(
    bench: ModuleType,
    strong: str,
    weak: str,
    won: bool,
    *,
    side: str = "blue",
    times: tuple[tuple[str, tuple[float, ...]], ...] = (),
    chosen: tuple[tuple[str, Chosen], ...] = (),
    offered: tuple[tuple[str, tuple[str, ...]], ...] = (),
) -> object:
    game = bench.Game("scenarios/duel.toml", strong, weak, side, 0, 30)
    return bench.Result(game, won, False, 4, times, chosen, offered)


def test_a_pairing_s_win_rate_is_judged_against_its_goal(bench: ModuleType) -> None:
    """19 of 20 is 95 %: normal's goal against random is met, but its interval reaches below
    95 %, which the line says; 12 of 20 is below hard's 65 % against normal."""
    paths = [Path("scenarios/duel.toml")]
    verdicts = bench.Verdicts()
    won = [
        result(bench, "normal", "random", i < 19, side=("blue", "red")[i % 2]) for i in range(20)
    ]
    lines = bench.tournament("normal", "random", won, paths, verdicts)
    assert lines[0] == "normal vs random (20 games)"
    assert lines[2].split()[:5] == ["duel", "19/20", "76%-99%", "10/10", "9/10"]
    assert lines[-1] == (
        "  normal wins 95% (95 % interval 76%-99%); goal >= 95%: met"
        " (its interval reaches below the goal: more games would tell)"
    )
    lost = [result(bench, "hard", "normal", i < 12) for i in range(20)]
    assert bench.tournament("hard", "normal", lost, paths, verdicts)[-1].endswith("NOT met")
    assert [(goal, met) for goal, _, met in verdicts.rows] == [
        ("normal vs random wins >= 95%", True),
        ("hard vs normal wins >= 65%", False),
    ]
    assert verdicts.failed


def test_each_level_s_decision_time_is_judged_against_its_goals(bench: ModuleType) -> None:
    """Every level's decisions of every game count, whichever side it played; the p99 is a
    time that occurred (nearest rank)."""
    normal = tuple(0.001 * (i + 1) for i in range(100))  # 1 to 100 ms: median 50.5, p99 99
    hard = (0.05, 0.08, 0.9)
    results = [
        result(bench, "hard", "normal", True, times=(("hard", hard), ("normal", normal[:50]))),
        result(bench, "normal", "random", True, times=(("normal", normal[50:]), ("random", ()))),
    ]
    verdicts = bench.Verdicts()
    lines = bench.speed(results, verdicts)
    assert lines[1] == (
        "  normal      100 decisions: median 50.5 ms, p99 99 ms"
        "  (goals: median <= 10 ms NOT met, p99 <= 100 ms met)"
    )
    assert lines[2] == (
        "  hard          3 decisions: median 80.0 ms, p99 900 ms"
        "  (goals: median <= 100 ms met, p99 <= 1000 ms met)"
    )
    assert len(lines) == 3  # random made no decision: no line
    assert [met for _, _, met in verdicts.rows] == [False, True, True, True]


def test_choices_by_kind_per_level_and_the_kinds_hard_never_chose(bench: ModuleType) -> None:
    """hard was offered attack, aim, feint and dodge and chose attack 3 times and dodge once:
    never Aim or Feint. normal's choices are added up over the games and sides it played."""
    results = [
        result(
            bench, "hard", "normal", True,
            chosen=(("hard", Chosen("blue", "attack", 3)), ("hard", Chosen("blue", "dodge", 1)),
                    ("normal", Chosen("red", "attack", 1))),
            offered=(("hard", ("attack", "aim", "dodge")),),
        ),
        result(
            bench, "normal", "random", True,
            chosen=(("normal", Chosen("blue", "attack_of_opportunity", 1)),
                    ("random", Chosen("red", "walk", 999)), ("random", Chosen("red", "aim", 1))),
            offered=(("hard", ("feint",)),),
        ),
    ]  # fmt: skip
    lines = bench.shares(results)
    assert lines[1:] == [
        "  random     1000 choices: walk 100%, aim <1%",  # chosen, if rarely: not "0%"
        "  normal        2 choices: attack 50%, attack of opportunity 50%",
        "  hard          4 choices: attack 75%, dodge 25%",
    ]
    verdicts = bench.Verdicts()
    assert bench.every_kind(results, verdicts, {}) == [
        "hard chose 2 of the 4 kinds of action and reaction it was offered at least once;"
        " goal: every one: NOT met",
        "  never chosen (offered in): aim (1 of 2 games), feint (1 of 2 games)",
    ]
    assert verdicts.rows == [("hard chooses every kind it is offered", "2 of 4", False)]
    # A kind the AI lists as never worth choosing is not asked of it, but named apart.
    verdicts = bench.Verdicts()
    assert bench.every_kind(results, verdicts, {"feint": "why", "aim": "why", "drop": "why"}) == [
        "hard chose 2 of the 2 kinds of action and reaction it was offered at least once;"
        " goal: every one: met",
        "  also offered, never worth choosing by the AI's own list: aim, feint",
    ]
    assert verdicts.rows == [("hard chooses every kind it is offered", "2 of 2", True)]


def test_a_long_list_of_kinds_wraps_between_kinds(bench: ModuleType) -> None:
    kinds = [f"attack of opportunity {i}%" for i in range(12)]
    head = "  hard   9 choices: "
    lines = bench._wrapped(kinds, head)
    assert len(lines) > 1 and all(len(line) <= bench.WIDTH for line in lines)
    assert " ".join(line[len(head) :] for line in lines) == ", ".join(kinds)


def test_a_pairing_with_a_level_this_tree_lacks_is_named_not_played(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Asked for, it is an argument error; among the default pairings, it is left out (and
    its goal is not met) while the others are played."""
    assert bench.main(["--pairing", "normal-grandmaster"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("bench/ai.py: unknown AI level grandmaster (")
    assert err.endswith("): cannot play normal-grandmaster\n")
    assert "normal" in err.split("(")[1]  # the AI's own words list the levels it has
    with pytest.raises(SystemExit):
        bench.main(["--pairing", "normal"])
    assert "STRONG-WEAK" in capsys.readouterr().err


@pytest.mark.slow
def test_the_bench_plays_the_default_pairings_on_a_tiny_map(
    bench: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """One game from each side of each pairing, capped at 2 rounds: every section is printed,
    and the missing level's pairing is named in the report and its goal not met."""
    monkeypatch.setattr(bench, "GOALS", GOALS)
    duel = tmp_path / "duel.toml"
    duel.write_text(DUEL, encoding="utf-8")
    code = bench.main(["--only", str(duel), "--games", "1", "--round-cap", "2"])
    out = capsys.readouterr().out
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith("bench/ai.py: unknown AI level grandmaster (")
    assert first.endswith("): not playing normal-grandmaster")
    assert "\nhard vs normal (2 games, " in out and "\nnormal vs random (2 games, " in out
    assert "  hard wins " in out and "goal >= 65%: " in out
    assert "\n  normal " in out.split("Decision CPU time")[1]
    assert "Choices by kind" in out
    assert "hard chose " in out and " kinds of action and reaction it was offered" in out
    closing = out.split("Goals of issue #29\n")[1].splitlines()
    assert closing[-1].split() == [
        "normal", "vs", "grandmaster", "wins", ">=", "65%", "not", "played", "NOT", "met"
    ]  # fmt: skip
    assert any(line.split()[:3] == ["hard", "p99", "<="] for line in closing)


def test_fresh_seeds_for_a_figure_after_tuning(bench: ModuleType) -> None:
    """`--first-seed 20` plays seeds 20..20+N-1 from each side, not the 0..N-1 tuned on."""
    played = list(bench.games([Path("duel.toml")], "tactical", "classic", 2, 30, 20))
    assert [(g.strong_side, g.seed) for g in played] == [
        ("blue", 20), ("blue", 21), ("red", 20), ("red", 21)
    ]  # fmt: skip
    assert [g.seed for g in bench.games([Path("duel.toml")], "a", "b", 2, 30)] == [0, 1, 0, 1]
