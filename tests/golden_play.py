"""The battles whose logs the golden-log test keeps: scripted and AI play, fixed seeds."""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Callable
from pathlib import Path

from sim.ai import seats as ai
from sim.content.scenario import Scenario, load, loads
from sim.core.events import to_json
from sim.formats.replay import begin
from sim.play.engine import AwaitingAction, Battle, BattleOver

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"


def _bench_engine() -> object:
    """bench/engine.py, whose scripted policy and generated maps the bench measures: the golden
    logs must cover exactly what the speed work changes."""
    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "bench" / "engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def scripted(scenario: Scenario, seed: int, round_cap: int = 40) -> Battle:
    bench = _bench_engine()
    battle = begin(scenario, seed)
    while not isinstance(battle.pending, BattleOver) and battle.world.turn.round <= round_cap:
        pending = battle.pending
        assert isinstance(pending, AwaitingAction), pending
        battle.submit(bench.choose(battle, pending.unit))  # type: ignore[attr-defined]
    return battle


def ai_game(scenario: Scenario, seed: int, levels: dict[str, str], round_cap: int) -> Battle:
    battle = begin(scenario, seed)
    ai.take_seats(battle, levels)
    ai.play(battle, ai.players(levels, seed), round_cap=round_cap)
    return battle


def _generated(index: int) -> Scenario:
    bench = _bench_engine()
    return loads(bench.generated_map(index), f"<bench map {index}>")  # type: ignore[attr-defined]


def _shipped(name: str) -> Scenario:
    return load(ROOT / "scenarios" / f"{name}.toml")


def _teams(scenario: Scenario) -> list[str]:
    from sim.core.creature import creatures, team_of

    return sorted({team_of(scenario.world, u) for u in creatures(scenario.world)})


def _random_game(name: str, seed: int) -> Callable[[], Battle]:
    def run() -> Battle:
        scenario = _shipped(name)
        return ai_game(scenario, seed, {t: "random" for t in _teams(scenario)}, round_cap=6)

    return run


GAMES: dict[str, Callable[[], Battle]] = {
    "scripted_generated_1": lambda: scripted(_generated(1), 0),
    "scripted_generated_2": lambda: scripted(_generated(2), 7),
    "scripted_skirmish": lambda: scripted(_shipped("skirmish"), 3),
    "normal_skirmish": lambda: ai_game(
        _shipped("skirmish"), 5, {"blue": "normal", "red": "normal"}, round_cap=10
    ),
    # `classic` is `normal` as it was before issue #29 (sim/data/ai.toml): its log is the one
    # normal_skirmish had then, and stays so when normal changes.
    "classic_skirmish": lambda: ai_game(
        _shipped("skirmish"), 5, {"blue": "classic", "red": "classic"}, round_cap=10
    ),
    "hard_vs_normal_skirmish": lambda: ai_game(
        _shipped("skirmish"), 11, {"blue": "hard", "red": "normal"}, round_cap=3
    ),
    # Seed 17: each random game has attacks that deal damage within its 6 rounds, which
    # tests/core/test_purpose.py reads (seed 13's river and skirmish games had none once a
    # jump's metres were paid one for one, issue #34, and the random moves went elsewhere).
    **{
        f"random_{p.stem}": _random_game(p.stem, 17)
        for p in sorted((ROOT / "scenarios").glob("*.toml"))
    },
}


@functools.cache
def played(name: str) -> Battle:
    """The golden game `name`, played once per process: the log test and the tag test
    (tests/play/test_golden_logs.py) read the same battle, which neither changes."""
    return GAMES[name]()


def lines(battle: Battle) -> list[str]:
    """The battle's log, one event per line as JSON (the form saves and `sim run` use)."""
    return [json.dumps(to_json(event), sort_keys=True) for event in battle.log]


def write() -> None:
    """Record every golden log from the code as it is now (run only when the logs are meant
    to change, e.g. after the shipped data changes)."""
    import gzip

    GOLDEN.mkdir(exist_ok=True)
    for name, game in GAMES.items():
        text = "\n".join(lines(game())) + "\n"
        (GOLDEN / f"{name}.jsonl.gz").write_bytes(gzip.compress(text.encode(), mtime=0))
        print(name, text.count("\n"), "events")


if __name__ == "__main__":
    write()
