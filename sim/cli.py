"""The command line: `sim play`, `sim run`, `sim check`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from sim import events as ev
from sim.actions import Refusal
from sim.decisions import DecisionError, parse
from sim.dice import Dice, DiceExhausted, LoadedDice, SeededDice, fresh_seed
from sim.engine import Accepted, Battle
from sim.scenario import Scenario, ScenarioError, load
from sim.state import snapshot
from sim.textview import render

DEFAULT_SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "skirmish.toml"


class UsageError(Exception):
    """A wrong command-line argument; the message says which and why."""


def _parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="sim", description="Tactical combat simulator.")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a scenario (the default one without an argument)")
    play.add_argument(
        "scenario", nargs="?", help=f"scenario file (default: {DEFAULT_SCENARIO.name})"
    )
    play.add_argument("--seed", type=int, help="dice seed (default: the scenario's, else random)")

    run = sub.add_parser("run", help="play a scenario headless from a script of decisions")
    run.add_argument("scenario", help="scenario file")
    run.add_argument("--seed", type=int, help="dice seed (default: the scenario's, else random)")
    run.add_argument("--script", help="decisions as JSON lines ('-' for standard input)")
    run.add_argument("--dice", help="use these die results in order instead, e.g. 4,6,1")
    run.add_argument("--state", help="write the final state as JSON to this file")

    check = sub.add_parser("check", help="validate scenario files")
    check.add_argument("scenarios", nargs="+", help="scenario files")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "check":
            return _check(args.scenarios)
        if args.command == "run":
            return _run(args)
        return _play(args)
    except UsageError as error:
        print(f"sim {args.command}: {error}", file=sys.stderr)
        return 2
    except ScenarioError as error:
        print(str(error), file=sys.stderr)
        return 1


def _check(paths: list[str]) -> int:
    failed = False
    for path in paths:
        try:
            load(path)
        except ScenarioError as error:
            failed = True
            print(str(error))
        else:
            print(f"{path}: ok")
    return 1 if failed else 0


def _dice(args: argparse.Namespace, scenario: Scenario) -> tuple[Dice, int | None]:
    if getattr(args, "dice", None):
        try:
            results = [int(part) for part in args.dice.split(",") if part.strip()]
        except ValueError:
            raise UsageError(
                f"--dice must be whole numbers separated by commas, not {args.dice!r}"
            ) from None
        if any(r < 1 for r in results):
            raise UsageError("--dice results must be 1 or more")
        return LoadedDice(results), None
    seed = args.seed if args.seed is not None else scenario.seed
    if seed is None:
        seed = fresh_seed()
    return SeededDice(seed), seed


def _emit(out: IO[str], record: dict[str, Any]) -> None:
    out.write(json.dumps(record, ensure_ascii=False) + "\n")


def _script_lines(path: str | None) -> list[str]:
    if path is None:
        return []
    if path == "-":
        return sys.stdin.read().splitlines()
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read the script {path}: {error}") from None


def _run(args: argparse.Namespace) -> int:
    scenario = load(args.scenario)
    lines = _script_lines(args.script)
    dice, seed = _dice(args, scenario)
    out = sys.stdout
    status = 0
    battle: Battle | None = None
    try:
        battle = Battle.begin(
            scenario.world,
            dice,
            scenario=scenario.name,
            seed=seed,
            objectives=scenario.objectives,
        )
        for event in battle.log:
            _emit(out, ev.to_json(event))
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            _play_line(battle, number, line, out)
    except DiceExhausted as error:
        print(f"sim run: --dice ran out: {error}", file=sys.stderr)
        status = 1
    if args.state:
        world = battle.world if battle is not None else scenario.world
        _write_state(args.state, snapshot(world))
    return status


def _play_line(battle: Battle, number: int, line: str, out: IO[str]) -> None:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as error:
        _emit(out, _refused(number, None, None, f"line {number} is not JSON: {error.msg}"))
        return
    unit = obj.get("unit") if isinstance(obj, dict) else None
    name = obj.get("action") if isinstance(obj, dict) else None
    try:
        decision = parse(obj)
    except DecisionError as error:
        _emit(out, _refused(number, unit, name, str(error)))
        return
    result = battle.submit(decision)
    if isinstance(result, Refusal):
        _emit(out, _refused(number, unit, name, result.reason))
    elif isinstance(result, Accepted):
        for event in result.events:
            _emit(out, ev.to_json(event))


def _refused(line: int, unit: Any, action: Any, reason: str) -> dict[str, Any]:
    return {"type": "refused", "line": line, "unit": unit, "action": action, "reason": reason}


def _write_state(path: str, state: dict[str, Any]) -> None:
    target = Path(path)
    temporary = target.with_name(target.name + ".tmp")
    try:
        temporary.write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")
        temporary.replace(target)
    except OSError as error:
        raise UsageError(f"cannot write the state to {path}: {error.strerror}") from None


def _play(args: argparse.Namespace) -> int:
    path = args.scenario or str(DEFAULT_SCENARIO)
    if not Path(path).exists():
        raise UsageError(f"no scenario file at {path}")
    scenario = load(path)
    dice, seed = _dice(args, scenario)
    battle = Battle.begin(
        scenario.world, dice, scenario=scenario.name, seed=seed, objectives=scenario.objectives
    )
    print(f"{scenario.name} (seed {seed})")
    print(render(battle.world))
    return 0
