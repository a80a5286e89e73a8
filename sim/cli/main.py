"""The command line: `sim play`, `sim run`, `sim batch`, `sim check`."""

from __future__ import annotations

import argparse
import atexit
import csv
import gc
import io
import json
import math
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from sim.ai.levels import LEVELS, ROUND_CAP
from sim.content.packs import describe, modes_words, size_words
from sim.content.scenario import MAX_SEED, Scenario, ScenarioError, load, loads
from sim.content.tilederror import TiledError
from sim.core import events as ev
from sim.core.actions import Refusal
from sim.core.components import Body, Budget, Position, Size
from sim.core.creature import creatures, team_of
from sim.core.dice import Dice, DiceExhausted, LoadedDice, SeededDice, fresh_seed
from sim.core.files import Unreadable, read_text, too_large, write_atomically
from sim.core.geometry import Pos
from sim.core.limits import limits
from sim.play.decisions import DecisionError, parse, to_json
from sim.play.engine import Accepted, Battle, Outcome
from sim.rules.reach import pathfinder
from sim.rules.reach.opportunity import foreseen

# What only some commands use is imported where they use it: `sim run` of a script and the
# window's first frame do not wait for the AI, the terminal board, Tiled's importer, the batch
# runner and their libraries (issue #30: a short `sim run` within 0.5 s).
if TYPE_CHECKING:
    from sim.ai.choice import Choice
    from sim.ai.chooser import AI
    from sim.content.tilepalette import TilePalette
    from sim.formats.replay import Save, Unfinished
    from sim.rules.reach.reachmap import Hang
    from sim.tools import batch as batches
    from sim.ui.model.session import Session

# At exit Python's collector walks every object still alive, numba's compiler included (most of
# a process that searched): 0.2 s CPU of each `sim run` and `sim play` (issue #30). Frozen, they
# are left to the process's end, which returns the memory at once; modules are still cleared
# and their objects released by count, so files close and autosaves finish as before.
atexit.register(gc.freeze)

DEFAULT_SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "skirmish.toml"
# `sim render --size`: the client's panels need this much room; a larger picture is only
# memory (4096 x 4096 is 64 MiB of pixels).
PICTURE_MIN = (320, 200)
PICTURE_MAX = 4096
# `sim batch --keep-only`: sim.tools.batch.KEEP, written out so that building the parser does not
# import the batch runner (tests/cli/test_cli.py holds them equal).
KEEP_ONLY = ("losses", "all")
# `sim reach --action`: the Movement Actions of sim.rules.reach.reachmap.ORDER, and `--ui-scale`'s
# bounds, sim.ui.look.metrics's MIN_SCALE and MAX_SCALE, written out for the same reason: only
# `sim reach` makes a reach map, only the client draws (tests/cli/test_cli.py holds them equal).
MOVES = ("step", "walk", "jump", "run", "crawl", "swim", "climb", "sprint")
MIN_SCALE, MAX_SCALE = 0.75, 2.5


class UsageError(Exception):
    """A wrong command-line argument; the message says which and why."""


def _seed_value(text: str) -> int:
    """A `--seed`: the range a save can hold, so every game played can be saved and loaded."""
    words = f"must be a whole number from 0 to {MAX_SEED}"
    shown = text if len(text) <= 40 else text[:37] + "..."  # a pasted megabyte stays short
    try:
        seed = int(text)
    except ValueError:  # not a number, or more digits than Python converts
        raise argparse.ArgumentTypeError(f"{words}, not {shown!r}") from None
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{words}, not {shown}")
    return seed


def _seed(sub: argparse.ArgumentParser, default: str = "the scenario's, else random") -> None:
    sub.add_argument(
        "--seed",
        type=_seed_value,
        metavar="N",
        help=f"dice seed, 0 to 2**63-1 (default: {default})",
    )


def _script(sub: argparse.ArgumentParser, what: str = "play these decisions first") -> None:
    sub.add_argument("--script", help=f"{what} (JSON lines)")


def _parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="sim", description="Tactical combat simulator.")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a scenario (the default one without an argument)")
    play.add_argument(
        "scenario", nargs="?", help=f"scenario file (default: {DEFAULT_SCENARIO.name})"
    )
    _seed(play)
    play.add_argument("--load", metavar="SAVE", help="resume a saved game (a save is a replay)")
    play.add_argument(
        "--continue",
        dest="resume",
        action="store_true",
        help="continue the last unfinished game of the scenario, from its autosave",
    )
    play.add_argument(
        "--text",
        action="store_true",
        help="play in the terminal, no window (commands at a prompt; `help` lists them)",
    )
    play.add_argument(
        "--ai",
        metavar="TEAM[=LEVEL],...",
        help="sides the AI plays, e.g. red or red=hard (levels: "
        + ", ".join(LEVELS)
        + "; normal without one); I in the window hands a side over or back",
    )
    _ui_scale_option(play)

    watch = sub.add_parser(
        "replay", help="play a save back in the window (saves of sim play and sim batch --keep)"
    )
    watch.add_argument("save", help="the save file")
    _ui_scale_option(watch)

    picture = sub.add_parser("render", help="draw the client's view to a PNG, without a window")
    picture.add_argument("scenario", help="scenario file")
    picture.add_argument("--out", required=True, help="the PNG file to write")
    picture.add_argument(
        "--overlay",
        action="append",
        default=[],
        metavar="KIND:WHAT",
        help="reach:UNIT (where UNIT can move) or threat:TEAM (cells TEAM threatens); repeatable",
    )
    _script(picture)
    _seed(picture, "the scenario's, else 0")
    picture.add_argument("--hover", metavar="X,Y", help="draw the path to this cell, as if hovered")
    picture.add_argument("--size", default="1280x800", help="picture size, e.g. 1920x1080")

    run = sub.add_parser("run", help="play a scenario headless from a script of decisions")
    run.add_argument("scenario", help="scenario file")
    _seed(run)
    run.add_argument("--script", help="decisions as JSON lines ('-' for standard input)")
    run.add_argument("--dice", help="use these die results in order instead, e.g. 4,6,1")
    run.add_argument("--state", help="write the final state as JSON to this file")
    run.add_argument(
        "--ai",
        metavar="TEAM[=LEVEL],...",
        help="hand sides to the AI, e.g. red or blue=normal,red=hard (levels: "
        + ", ".join(LEVELS)
        + "; normal without one); the script plays the others",
    )
    run.add_argument(
        "--round-cap",
        type=int,
        default=ROUND_CAP,
        metavar="N",
        help=f"with --ai: stop when round N+1 begins and no side has won (default {ROUND_CAP})",
    )
    run.add_argument(
        "--keep-going",
        action="store_true",
        help="play on past a refused line (exit status 0); without it the run stops there, "
        "exit status 1",
    )

    reach = sub.add_parser("reach", help="print where a unit can move this action, as JSON")
    reach.add_argument("scenario", help="scenario file")
    reach.add_argument("--unit", required=True, help="the unit's id")
    reach.add_argument("--action", choices=MOVES, help="only this Movement Action")
    reach.add_argument(
        "--submerged",
        action="store_true",
        help="a Swim is a dive: only water at least as deep as the unit is tall (R-M8)",
    )
    _seed(reach)
    _script(reach)

    _batch_parser(sub)

    check = sub.add_parser("check", help="validate scenario files")
    check.add_argument("scenarios", nargs="+", help="scenario files")

    edit = sub.add_parser("edit", help="the map editor: paint a map, place units, play-test")
    edit.add_argument(
        "scenario",
        nargs="?",
        help="scenario file (.toml) or Tiled map (.tmx); without one, a new map",
    )
    edit.add_argument(
        "--new", metavar="WxH", help="start a new map of W by H cells (default 20x12)"
    )
    edit.add_argument("--out", metavar="FILE", help="save to FILE (default: the file opened)")
    edit.add_argument(
        "--kinds",
        metavar="KINDS",
        help="a Tiled map's kinds file, read and saved (default: MAP.kinds.toml beside the map)",
    )
    _ui_scale_option(edit)

    imp = sub.add_parser("import-tiled", help="turn a Tiled map (.tmx) into a scenario file")
    imp.add_argument("tmx", help="Tiled map (.tmx)")
    imp.add_argument(
        "--kinds",
        metavar="KINDS",
        help="what the map's tiles are: a kinds file (default: MAP.kinds.toml beside the map, "
        "when there is one; docs/tiled.md)",
    )
    imp.add_argument("--out", required=True, metavar="SCENARIO", help="scenario file to write")
    exp = sub.add_parser("export-tiled", help="write a scenario as a Tiled map (.tmx)")
    exp.add_argument("scenario", help="scenario file")
    exp.add_argument("--out", required=True, metavar="MAP", help="Tiled map to write (.tmx)")
    return top


def _ui_scale_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ui-scale",
        metavar="FACTOR",
        help=f"size of text, panels and buttons, {MIN_SCALE:g} to {MAX_SCALE:g} (default: from "
        "the window's size, 1 at 1280x800); the Esc menu's Settings change it while playing",
    )


def _ui_scale(text: str | None) -> float | None:
    """A `--ui-scale`: a number in the scale's bounds (None: not given)."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--ui-scale takes a number such as 1.25, not {text!r}") from None
    from sim.ui.look.metrics import scale_refusal

    refused = scale_refusal(value) if math.isfinite(value) else "it must be a finite number"
    if refused is not None:
        raise UsageError(f"--ui-scale {text}: {refused}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _main(args)
    except BrokenPipeError:
        # The reader went away (`sim run ... | head`): stop quietly, like other Unix tools.
        # Point stdout at devnull so the flush at exit does not fail again (Python docs, signal).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _main(args: argparse.Namespace) -> int:
    try:
        if hasattr(args, "ui_scale"):  # the window's commands: refused before anything opens
            args.ui_scale = _ui_scale(args.ui_scale)
        if args.command == "check":
            return _check(args.scenarios)
        if args.command == "run":
            return _run(args)
        if args.command == "reach":
            return _reach(args)
        if args.command == "render":
            return _render(args)
        if args.command == "batch":
            return _batch(args)
        if args.command == "edit":
            return _edit(args)
        if args.command in ("import-tiled", "export-tiled"):
            return _tiled(args)
        if args.command == "replay":
            return _replay(args)
        return _play(args)
    except UsageError as error:
        print(f"sim {args.command}: {error}", file=sys.stderr)
        return 2
    except ScenarioError as error:
        print(str(error), file=sys.stderr)
        return 1
    except TiledError as error:
        print(str(error), file=sys.stderr)
        return 1


def _check(paths: list[str]) -> int:
    failed = False
    for path in paths:
        try:
            if not _exists(path):
                raise UsageError(f"no scenario file at {path}")
            scenario = _scenario(path)  # a .tmx map is checked as `sim play` would import it
        except (ScenarioError, TiledError, UsageError) as error:
            failed = True
            print(str(error))  # the first screenful of problems (ScenarioError cuts the rest)
        else:
            print(f"{path}: ok")
            catalog = scenario.world.catalog
            for line in describe(scenario.content, path, catalog):  # its own content (#32)
                print(f"  {line}")
            moving = [
                f"{uid} {modes_words(dict(body.modes))}"
                for uid, body in scenario.world.each(Body)
                if body.modes
            ]
            if moving:  # R-Z5
                print(f"  movement modes: {', '.join(moving)}")
            large = [
                f"{uid} {size_words(size.side)}"
                for uid, size in scenario.world.each(Size)
                if size.side > 1
            ]
            if large:  # R-Z1
                print(f"  large creatures: {', '.join(large)}")
    return 1 if failed else 0


def _dice(args: argparse.Namespace, scenario: Scenario) -> tuple[Dice, int | None]:
    if getattr(args, "dice", None) is not None:
        if args.seed is not None:
            raise UsageError("give --seed or --dice, not both")
        try:
            results = [int(part) for part in args.dice.split(",") if part.strip()]
        except ValueError:
            raise UsageError(
                f"--dice must be whole numbers separated by commas, not {args.dice!r}"
            ) from None
        if not results:
            raise UsageError("--dice needs at least one result, e.g. --dice 4,6,1")
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
    limit = limits().files.script
    what = "a script"
    if path == "-":
        text = sys.stdin.read(limit + 1)  # a pipe has no size to check first
        if len(text) > limit:
            raise UsageError(f"the script on standard input: {too_large(0, limit, what, True)}")
        return text.splitlines()
    try:
        return read_text(path, limit, what).splitlines()
    except Unreadable as error:
        reason = str(error).removeprefix("cannot read the file: ")
        raise UsageError(f"cannot read the script {path}: {reason}") from None


def _scenario(path: str) -> Scenario:
    if not _exists(path):
        raise UsageError(f"no scenario file at {path}")
    if path.lower().endswith(".tmx"):  # a Tiled map, imported on the fly (docs/tiled.md)
        from sim.content.tiled import load_tmx

        scenario, warnings = load_tmx(path)  # a TiledError is reported by _main
        for warning in warnings:
            print(f"warning: {warning}", file=sys.stderr)
        return scenario
    return load(path)


def _exists(path: str) -> bool:
    """Whether `path` names something; a name the system refuses (too long) is read, and
    refused with the reason, by whoever opens it."""
    try:
        return Path(path).exists()
    except OSError:
        return True


def _seats(args: argparse.Namespace, scenario: Scenario, seed: int | None) -> dict[str, AI]:
    """The AI players `--ai` asks for (none without it)."""
    if args.ai is None:
        return {}
    if args.round_cap < 1:
        raise UsageError(f"--round-cap must be 1 or more, not {args.round_cap}")
    from sim.ai.seats import players

    return players(_levels(args, scenario), seed or 0)


def _ai_turns(battle: Battle, seated: dict[str, AI], cap: int, out: IO[str]) -> None:
    """Let the AI sides decide until the battle waits for a side the script plays; each
    decision is printed (`decided`, with its reason) before its events."""

    def report(unit: str, choice: Choice, outcome: Outcome) -> None:
        line = {"type": "decided", "unit": unit, "ai": seated[team_of(battle.world, unit)].level}
        _emit(out, line | {"decision": to_json(choice.decision), "why": choice.why})
        if isinstance(outcome, Accepted):
            for event in outcome.events:
                _emit(out, ev.to_json(event))

    if not seated:
        return
    from sim.ai.seats import play

    if play(battle, seated, round_cap=cap, report=report) == "capped":
        reason = f"round cap {cap} reached with no side winning"
        _emit(out, {"type": "stopped", "round": battle.world.turn.round, "reason": reason})


def _run(args: argparse.Namespace) -> int:
    scenario = _scenario(args.scenario)
    lines = _script_lines(args.script)
    dice, seed = _dice(args, scenario)
    seated = _seats(args, scenario, seed)
    out = sys.stdout
    status = 0
    battle: Battle | None = None
    number = 0
    try:
        battle = scenario.begin(dice, seed)
        for event in battle.log:
            _emit(out, ev.to_json(event))
        if seated:
            from sim.ai.seats import take_seats

            for event in take_seats(battle, seated):
                _emit(out, ev.to_json(event))
        _ai_turns(battle, seated, args.round_cap, out)
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            if not _play_line(battle, number, line, out) and not args.keep_going:
                print(
                    f"sim run: script line {number} was refused (its reason is in the log); "
                    "the run stops there (--keep-going plays on past refused lines)",
                    file=sys.stderr,
                )
                status = 1
                break
            _ai_turns(battle, seated, args.round_cap, out)
    except DiceExhausted as error:
        where = f" at script line {number}" if number else " while starting the battle"
        print(f"sim run: --dice{where}: {error}", file=sys.stderr)
        status = 1
    if args.state:
        world = battle.world if battle is not None else scenario.world
        from sim.formats.state import snapshot

        _write_state(args.state, snapshot(world, battle))
    return status


def _play_line(battle: Battle, number: int, line: str, out: IO[str]) -> bool:
    """Play one script line, printing its events or its `refused` record; whether it was
    accepted."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as error:
        _emit(out, _refused(number, None, None, f"line {number} is not JSON: {error.msg}"))
        return False
    except RecursionError:
        reason = f"line {number} is not JSON this simulator reads: lists or objects nested too deep"
        _emit(out, _refused(number, None, None, reason))
        return False
    except ValueError:  # a number of more digits than Python converts (int_max_str_digits)
        reason = f"line {number} is not JSON this simulator reads: a number has too many digits"
        _emit(out, _refused(number, None, None, reason))
        return False
    # Echoed back only when they are names: anything else may be huge or nested deep.
    unit = obj.get("unit") if isinstance(obj, dict) else None
    name = obj.get("action") if isinstance(obj, dict) else None
    unit = unit if isinstance(unit, str) else None
    name = name if isinstance(name, str) else None
    try:
        decision = parse(obj)
    except DecisionError as error:
        _emit(out, _refused(number, unit, name, str(error)))
        return False
    result = battle.submit(decision)
    if isinstance(result, Refusal):
        _emit(out, _refused(number, unit, name, result.reason))
        return False
    if isinstance(result, Accepted):
        for event in result.events:
            _emit(out, ev.to_json(event))
    return True


def _refused(line: int, unit: Any, action: Any, reason: str) -> dict[str, Any]:
    return {"type": "refused", "line": line, "unit": unit, "action": action, "reason": reason}


def _write_state(path: str, state: dict[str, Any]) -> None:
    """Atomically, keeping the mode of the file it replaces (a new one gets the umask's)."""
    try:
        write_atomically(path, json.dumps(state, indent=2) + "\n")
    except OSError as error:
        raise UsageError(f"cannot write the state to {path}: {error.strerror}") from None


def _hangs(hang: Hang | None) -> dict[str, object] | None:
    """A climb that stops part-way (R-M7): where its climber hangs, how high, on which face."""
    if hang is None:
        return None
    return {
        "cell": [hang.cell.x, hang.cell.y],
        "height": hang.height,
        "face": [hang.face.x, hang.face.y],
    }


def _reach(args: argparse.Namespace) -> int:
    from sim.rules.reach.reachmap import ORDER, reach_map

    if args.submerged and args.action not in (None, "swim"):
        raise UsageError(
            f"--submerged is a dive, and only a Swim dives (R-M8): not with --action "
            f"{args.action}; give --action swim, or no --action"
        )
    scenario = _scenario(args.scenario)
    lines = _script_lines(args.script)
    dice, seed = _dice(args, scenario)
    battle = scenario.begin(dice, seed)
    quiet = io.StringIO()
    for number, line in enumerate(lines, start=1):
        if line.strip():
            _play_line(battle, number, line, quiet)
    world = battle.world
    if not world.exists(args.unit) or not world.has(args.unit, Budget):
        raise UsageError(f"there is no unit {args.unit!r} in {args.scenario}")
    only = tuple(k for k in ORDER if args.action in (None, k.name))
    kinds = {k.name: k for k in ORDER}
    cells = reach_map(world, args.unit, only, submerged=args.submerged)
    budget = world.need(args.unit, Budget)
    start = world.need(args.unit, Position).cell
    report = {
        "unit": args.unit,
        "from": [start.x, start.y],
        "budget": {"half": budget.half, "bonus": budget.bonus},
        "cells": [
            {
                "cell": [c.cell.x, c.cell.y],
                "action": c.action,
                "metres": c.metres,
                "path": [[p.x, p.y, "jump"] if jumped else [p.x, p.y] for p, jumped in c.path],
                "budget_after": {"half": c.half_left, "bonus": c.bonus_left},
                "hangs": _hangs(c.hang),
                "provokes": [
                    {"cell": [p.cell.x, p.cell.y], "enemy": p.enemy, "can_react": p.can_react}
                    for p in foreseen(
                        world,
                        args.unit,
                        kinds[c.action],
                        tuple(q for q, _ in c.path),
                        dive=args.submerged,
                        hang=c.hang,
                    )
                ],
            }
            for c in cells.values()
        ],
    }
    print(json.dumps(report, ensure_ascii=False))
    return 0


def _render(args: argparse.Namespace) -> int:
    """`sim render`: the client's view to a PNG (pygame is loaded only here, not by the core)."""
    from sim.ui.input.picture import PictureError, render_png

    scenario = _scenario(args.scenario)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size must look like 1280x800, not {args.size!r}") from None
    (low_w, low_h), high = PICTURE_MIN, PICTURE_MAX
    if not (low_w <= width <= high and low_h <= height <= high):
        raise UsageError(
            f"--size must be from {low_w}x{low_h} to {high}x{high} pixels, not {args.size}"
        )
    try:
        is_dir = Path(args.out).is_dir()
    except OSError:
        is_dir = False  # writing it says why not
    if is_dir:
        raise UsageError(f"--out {args.out} is a directory; give the PNG file to write")
    # The picture's format follows the name (pygame writes Targa for any other ending), and a
    # mistyped folder is more likely than one meant to be made: neither is guessed.
    if Path(args.out).suffix.lower() != ".png":
        raise UsageError(f"--out {args.out}: give a file name ending in .png (a PNG is written)")
    folder = Path(args.out).parent
    if not _exists(str(folder)):
        raise UsageError(f"--out {args.out}: there is no directory {folder}; make it first")
    hover = None
    if args.hover:
        try:
            hx, hy = (int(v) for v in args.hover.split(","))
        except ValueError:
            raise UsageError(f"--hover must look like 3,4, not {args.hover!r}") from None
        hover = Pos(hx, hy)
    seed = args.seed if args.seed is not None else (scenario.seed or 0)
    try:
        problems = render_png(
            scenario,
            args.out,
            seed=seed,
            overlays=args.overlay,
            script=_script_lines(args.script),
            hover=hover,
            size=(width, height),
        )
    except PictureError as error:
        raise UsageError(str(error)) from None
    for problem in problems:
        print(f"sim render: {problem}", file=sys.stderr)
    print(args.out)
    return 0


def _play(args: argparse.Namespace) -> int:
    if args.load and args.resume:
        raise UsageError("give --load SAVE or --continue, not both")
    if args.load:
        return _resume(args)
    scenario = _scenario(args.scenario or str(DEFAULT_SCENARIO))
    levels = _levels(args, scenario)  # a wrong --ai is refused before anything starts
    if args.resume:
        return _continue(args, scenario)
    dice, seed = _dice(args, scenario)
    assert seed is not None  # `sim play` takes no --dice: its seed is always known
    if not args.text and not _display_ok():
        return 1  # before the battle's text: it would say a game starts that never does
    from sim.ui.model.session import Session

    if args.text:
        _offer(scenario, args.scenario)
        return _terminal(Session(scenario, seed), ai=levels)
    # The window's session begins afresh on the scenario, which `begin` leaves as loaded.
    battle = scenario.begin(dice, seed)
    print(f"{scenario.name} (seed {seed})")
    from sim.cli.textview import render

    print(render(battle.world))
    offer = _offer(scenario, args.scenario)
    return _window(Session(scenario, seed), offer, ai=levels, scale=args.ui_scale)


def _offer(scenario: Scenario, named: str | None) -> Unfinished | None:
    """A new game of a scenario that has an unfinished one autosaved: say how to continue it
    (the new game gets an autosave of its own, so the old one stays); the window offers it
    too, on its first handover screen."""
    from sim.formats.replay import unfinished_games

    games = unfinished_games(scenario)
    if not games:
        return None
    which = f" {named}" if named else ""
    print(
        f"An unfinished game of this scenario was autosaved ({games[0].describe()}): continue it "
        f"with `sim play{which} --continue`. This new game is autosaved to a file of its own."
    )
    return games[0]


def _continue(args: argparse.Namespace, scenario: Scenario) -> int:
    """`sim play [SCENARIO] --continue`: the most recently saved unfinished game of the scenario."""
    from sim.formats.replay import ReplayError, replay, unfinished_games

    if args.seed is not None:
        raise UsageError("--continue takes the seed of the game it continues; leave out --seed")
    games = unfinished_games(scenario)
    if not games:
        which = f" {args.scenario}" if args.scenario else ""
        print(
            f"sim play: no unfinished game of {scenario.path} was autosaved; "
            f"`sim play{which}` starts a new one",
            file=sys.stderr,
        )
        return 1
    last = games[0]
    try:
        _, battle = replay(last.save, scenario, where=str(last.path))
    except ReplayError as error:
        print(f"sim play: {error}", file=sys.stderr)
        return 1
    print(f"Continuing {last.path} ({last.describe()})")
    from sim.ui.model.session import Session

    levels = _saved_levels(args, scenario, last.save)
    session = Session(scenario, last.save.seed, battle, autosave=last.path)
    if args.text:
        return _terminal(session, ai=levels)
    return _window(session, ai=levels, scale=args.ui_scale)


def _resume(args: argparse.Namespace) -> int:
    """`sim play --load SAVE`: replay the save, then open the window on it. A game loaded from
    its autosave goes on autosaving there; one loaded from another save is autosaved anew."""
    from sim.formats.replay import ReplayError, is_autosave, load_save

    try:
        save, scenario, battle = load_save(args.load)
    except ReplayError as error:
        print(f"sim play: {error}", file=sys.stderr)
        return 1
    from sim.ui.model.session import Session

    own = Path(args.load) if is_autosave(args.load) else None
    if args.text:
        print(f"{scenario.name} (seed {save.seed}, {len(save.decisions)} decisions replayed)")
    levels = _saved_levels(args, scenario, save)
    session = Session(scenario, save.seed, battle, autosave=own)
    if args.text:
        return _terminal(session, ai=levels)
    return _window(session, ai=levels, scale=args.ui_scale)


def _replay(args: argparse.Namespace) -> int:
    """`sim replay SAVE`: the replay viewer on a save (a bad save is reported, exit status 1,
    before any window is asked for)."""
    from sim.formats.replay import ReplayError
    from sim.ui.input.viewer import open_save, watch

    try:
        tape = open_save(args.save)
    except ReplayError as error:
        print(f"sim replay: {error}", file=sys.stderr)
        return 1
    if not _display_ok("replay"):
        return 1
    return watch(tape, scale=args.ui_scale)


def _levels(args: argparse.Namespace, scenario: Scenario) -> dict[str, str]:
    """The sides `--ai` hands to the AI, with their levels (none without it)."""
    if args.ai is None:
        return {}
    world = scenario.world
    try:
        from sim.ai.seats import seats

        return seats(args.ai, sorted({team_of(world, unit) for unit in creatures(world)}))
    except ValueError as error:
        raise UsageError(str(error)) from None


def _saved_levels(args: argparse.Namespace, scenario: Scenario, save: Save) -> dict[str, str]:
    """The sides the AI plays in a game taken up from a save: those `--ai` gives, else those
    it played when saved (said, so a player knows who plays what)."""
    given = _levels(args, scenario)
    if args.ai is not None or not save.ai:
        return given
    kept = dict(save.ai)
    sides = ", ".join(f"{team.upper()} ({level})" for team, level in kept.items())
    print(f"The AI plays {sides}, as when the game was saved; --ai chooses otherwise.")
    return kept


def _display_ok(command: str = "play") -> bool:
    """Whether a window can open; if not, says so (and what to do instead)."""
    from sim.ui.input.app import display_problem

    problem = display_problem()
    if problem is not None:
        print(f"sim {command}: {problem}", file=sys.stderr)
    return problem is None


def _terminal(session: Session, ai: dict[str, str] | None = None) -> int:
    """`sim play --text`: the game in the terminal (sim/ui/text), which imports no pygame."""
    from sim.ui.text.console import play as play_text

    return play_text(session, ai=ai)


def _window(
    session: Session,
    offer: Unfinished | None = None,
    ai: dict[str, str] | None = None,
    scale: float | None = None,
) -> int:
    """Open the client; the reach engine is loaded (or compiled, on a first start: seconds)
    behind the frames once the first one shows, the board's overlays searching interpreted
    meanwhile, and the window and the terminal say so when it compiles: a window that froze
    on its first overlay would look hung, and one that opened only after the compile would
    look like nothing happened."""
    from sim.ui.input.app import play
    from sim.ui.input.viewer import nested

    # Before anything slow and before any save is touched: without a display SDL would "open"
    # an invisible stand-in window and the command would seem to hang.
    if not _display_ok():
        return 1
    return play(
        session,
        offer=offer,
        ai=ai,
        scale=scale,
        replayer=nested,
        prepare=(_compiling, pathfinder.warm_up_behind()),
    )


def _compiling() -> str | None:
    """The window's words while the reach engine compiles, None when its cache has it."""
    if not pathfinder.cold():
        return None
    return "Preparing the reach engine: compiling it once after installing or updating..."


# --- sim edit ---------------------------------------------------------------------------------


def _edit(args: argparse.Namespace) -> int:
    """`sim edit [SCENARIO | --new WxH] [--out FILE]`; with neither, a new map of the size
    `--new` suggests (NEW_MAP)."""
    from sim.content import mapedit
    from sim.content.tiled import scenario_text

    if args.scenario is not None and args.new is not None:
        raise UsageError("give a scenario file to edit, or --new WxH for a new map, not both")
    if args.kinds is not None and not (args.scenario or "").lower().endswith(".tmx"):
        raise UsageError("--kinds names what a Tiled map's tiles are: give a .tmx map with it")
    palette = None
    try:
        if args.scenario is None:
            size = args.new if args.new is not None else NEW_MAP
            found = re.fullmatch(r"(\d+)x(\d+)", size.strip().lower())
            if found is None or not all(1 <= int(n) <= 1024 for n in found.groups()):
                raise UsageError(f"--new takes a size like 20x12 (1 to 1024 each), not {size!r}")
            out = args.out or _free_name("new_map.toml")
            source = mapedit.open_text(
                mapedit.new_text(int(found.group(1)), int(found.group(2))), out
            )
        elif args.scenario.lower().endswith(".tmx"):
            palette = _palette(args.scenario, args.kinds)
            if palette is None:
                return 1
            out = args.out or str(Path(args.scenario).with_suffix(".toml"))
            source = mapedit.open_text(scenario_text(palette.imported), out)
        else:
            source = mapedit.open_file(args.scenario)
            out = args.out or args.scenario
    except mapedit.EditError as error:
        print(f"sim edit: cannot edit it:\n{error}", file=sys.stderr)
        return 1
    from sim.ui.input.app import NO_WINDOW, display_problem

    problem = display_problem()
    if problem is not None:
        # The client's advice (`sim play --text`) has no editor counterpart.
        print(f"sim edit: {problem.replace(NO_WINDOW, 'the editor needs one')}", file=sys.stderr)
        return 1
    from sim.ui.input.editor import edit

    return edit(source, out, scale=args.ui_scale, palette=palette)


def _palette(path: str, kinds: str | None) -> TilePalette | None:
    """A Tiled map opened for the editor, its tiles with what names them (a guess for a tile
    nothing names); None (the problems printed) when it cannot be opened."""
    from sim.content.tilepalette import open_palette

    try:
        palette = open_palette(path, kinds)
    except TiledError as error:
        print(error, file=sys.stderr)
        return None
    for warning in palette.imported.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return palette


NEW_MAP = "20x12"  # `sim edit` with no file: a new map of this size


def _free_name(name: str) -> str:
    """`name`, or with -2, -3... before its ending when a file of that name is there: a new
    map saved without --out never replaces an earlier one."""
    path = Path(name)
    number = 1
    while _exists(str(path)):
        number += 1
        path = Path(f"{Path(name).stem}-{number}{Path(name).suffix}")
    return str(path)


def _from_tiled(path: str, kinds: str | None = None, out: str | None = None) -> str | None:
    """A Tiled map as scenario text, its warnings printed; None (problems printed) when it
    cannot be imported."""
    from sim.content.tiled import TiledError, to_scenario

    try:
        text, warnings = to_scenario(path, kinds, out)
    except TiledError as error:
        print(error, file=sys.stderr)
        return None
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return text


def _tiled(args: argparse.Namespace) -> int:
    from sim.content import mapedit
    from sim.content.tiled import as_scenario, carry_packs, write_tmx

    if args.command == "import-tiled":
        text = _from_tiled(args.tmx, args.kinds, args.out)
        if text is None:
            return 1
        try:
            # Refused before anything is written: --out stays as it was.
            scenario = loads(text, args.tmx)
            # Its content packs, beside the map, go beside the scenario too (issue #32).
            carry_packs(
                [pack.path for pack in scenario.packs], Path(args.tmx).parent, Path(args.out).parent
            )
        except (ScenarioError, mapedit.EditError) as error:
            if isinstance(error, ScenarioError):
                print("\n".join(as_scenario(args.tmx, error.problems)), file=sys.stderr)
            else:
                print(error, file=sys.stderr)
            print(f"nothing was written to {args.out}", file=sys.stderr)
            return 1
        try:
            mapedit.save(args.out, text)
        except OSError as error:
            print(f"{args.out}: cannot write it: {error.strerror or error}", file=sys.stderr)
            return 1
        print(f"wrote {args.out}")
        return 0
    try:
        write_tmx(args.scenario, args.out)
    except ScenarioError as error:
        print(error, file=sys.stderr)
        return 1
    except mapedit.EditError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"wrote {args.out} (tile images in {Path(args.out).parent / 'sim_tiles'})")
    return 0


# --- sim batch --------------------------------------------------------------------------------


def _positive(what: str) -> Any:
    """An argparse type: a whole number, 1 or more; the error names the option."""

    def parse_positive(text: str) -> int:
        shown = text if len(text) <= 40 else text[:37] + "..."
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be a whole number, 1 or more, not {shown!r}"
            ) from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{what} must be 1 or more, not {value}")
        return value

    return parse_positive


def _cores() -> int:
    """The cores this process may run on (a container's or taskset's limit, not the host's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _batch_parser(sub: Any) -> None:
    batch = sub.add_parser(
        "batch", help="play a scenario many times, AI against AI, and sum up who wins"
    )
    batch.add_argument("scenario", help="scenario file")
    batch.add_argument(
        "--games", type=_positive("--games"), default=100, metavar="N", help="games (default 100)"
    )
    batch.add_argument(
        "--ai",
        metavar="TEAM[=LEVEL],...",
        help="the AI level of each side, e.g. blue=hard,red=normal (levels: "
        + ", ".join(LEVELS)
        + "); a side not named plays at normal",
    )
    batch.add_argument(
        "--workers",
        type=_positive("--workers"),
        metavar="K",
        help=f"processes playing games at once (default: one per core, here {_cores()})",
    )
    batch.add_argument(
        "--seed",
        type=_seed_value,
        default=0,
        metavar="S",
        help="base seed, 0 to 2**63-1; each game's seed is derived from it and the game's "
        "number (default 0)",
    )
    batch.add_argument(
        "--round-cap",
        type=_positive("--round-cap"),
        default=ROUND_CAP,
        metavar="R",
        help=f"a game still undecided when round R+1 begins is stopped as capped, never won "
        f"(default {ROUND_CAP})",
    )
    batch.add_argument("--out", metavar="FILE.json", help="write the summary as JSON")
    batch.add_argument("--csv", metavar="FILE.csv", help="write one row per game")
    batch.add_argument(
        "--plot",
        metavar="FILE.png",
        help="draw win rates, battle lengths, survival, what each side chose, the fairness "
        "(with --fairness) and where fights were decided",
    )
    batch.add_argument(
        "--heatmap",
        metavar="FILE.png",
        help="draw the map with where each side's creatures went down, dealt and took damage "
        "and ended their turns, over all games",
    )
    batch.add_argument(
        "--fairness",
        action="store_true",
        help="play every seed again with the sides' AI levels swapped (once when they are the "
        "same) and report each side's win rate apart from the levels'",
    )
    batch.add_argument(
        "--keep", metavar="DIR", help="save the chosen games here, for `sim play --load`"
    )
    batch.add_argument(
        "--keep-only",
        choices=KEEP_ONLY,
        metavar="{losses,all}",
        help="with --keep: the games the scenario's first side did not win (the default), or all",
    )
    batch.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play the games on a Ray cluster at ADDRESS (without one: $RAY_ADDRESS); "
        "'local' starts Ray on this machine; needs pip install -e '.[cluster]'",
    )


def _batch(args: argparse.Namespace) -> int:
    """`sim batch`: every argument is checked before the first game is played."""
    if args.keep_only is not None and args.keep is None:
        raise UsageError("--keep-only says which games --keep saves; give --keep DIR too")
    for option, suffix in (
        ("--out", ".json"),
        ("--csv", ".csv"),
        ("--plot", ".png"),
        ("--heatmap", ".png"),
    ):
        _writable(option, getattr(args, option[2:]), suffix)
    if args.keep is not None and _exists(args.keep) and not Path(args.keep).is_dir():
        raise UsageError(f"--keep {args.keep} is a file; give the directory to save games in")
    from sim.tools import batch as batches
    from sim.tools import fairness

    scenario = _scenario(args.scenario)
    teams = sorted({team_of(scenario.world, unit) for unit in creatures(scenario.world)})
    named = _levels(args, scenario)
    pool: batches.PoolFactory = batches.local_pool
    if args.ray is not None:
        from sim.tools.cluster import ClusterError, ray_pool

        try:
            pool = ray_pool(args.ray or os.environ.get("RAY_ADDRESS", ""))
        except ClusterError as error:
            raise UsageError(str(error)) from None
    if args.plot is not None or args.heatmap is not None:
        from sim.tools.chart import ChartError, check_plotting

        try:
            check_plotting()
        except ChartError as error:
            raise UsageError(str(error)) from None
    plan = batches.Plan(
        scenario,
        tuple((team, named.get(team, "normal")) for team in teams),
        seed=args.seed,
        round_cap=args.round_cap,
        keep=(args.keep_only or "losses") if args.keep is not None else None,
    )
    workers = args.workers or _cores()
    try:
        games = _play_batch(plan, args.games, workers, pool, fair=args.fairness)
    except batches.PoolError as error:  # a cluster that cannot be reached, say
        raise UsageError(str(error)) from None
    saved = _keep_games(plan, games, args.keep)
    if args.fairness:
        summary = fairness.summarize(plan, games, args.games, saved)
        table = fairness.table(summary, plan, games)
        said = fairness.summary_text(summary)
    else:
        summary = batches.summarize(plan, games, saved)
        table = batches.rows(summary, games)
        said = batches.describe(summary)
    if args.out is not None:
        _write_text(args.out, json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    if args.csv is not None:
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(table)
        _write_text(args.csv, text.getvalue())
    if args.plot is not None:
        from sim.tools.chart import draw

        draw(summary, games, args.plot, scenario)
    if args.heatmap is not None:
        from sim.tools import heatmap

        heatmap.draw(summary, scenario, args.heatmap)
    print(said)
    if saved and args.keep is not None:
        print(f"  kept {len(saved)} game{'s' if len(saved) != 1 else ''} in {args.keep}")
    return 1 if summary["crashed"] else 0


def _writable(option: str, path: str | None, suffix: str) -> None:
    """Refuse an output file that cannot be written before any game is played."""
    if path is None:
        return
    if Path(path).suffix.lower() != suffix:
        raise UsageError(f"{option} {path}: give a file name ending in {suffix}")
    if _exists(path) and Path(path).is_dir():
        raise UsageError(f"{option} {path} is a directory; give the file to write")
    folder = Path(path).parent
    if not _exists(str(folder)):
        raise UsageError(f"{option} {path}: there is no directory {folder}; make it first")


def _write_text(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def _play_batch(
    plan: batches.Plan, games: int, workers: int, pool: batches.PoolFactory, *, fair: bool = False
) -> list[batches.GameRecord]:
    """The games (with `fair`, each seed under every seating of the levels: sim.tools.fairness),
    with a progress bar on standard error when it is a terminal."""
    from tqdm import tqdm

    from sim.tools import batch as batches
    from sim.tools import fairness

    # No monitor thread (it watches for stalled loops; the bar is moved by hand): with no other
    # thread running, the workers can be forked from this process (batch.local_pool).
    tqdm.monitor_interval = 0
    total = games * len(fairness.seatings(plan.levels)) if fair else games
    with tqdm(total=total, unit="game", file=sys.stderr, disable=not sys.stderr.isatty()) as bar:
        if fair:
            return fairness.play(
                plan, games, workers=workers, pool=pool, on_game=lambda _: bar.update()
            )
        return batches.run(plan, games, workers=workers, pool=pool, on_game=lambda _: bar.update())


def _keep_games(
    plan: batches.Plan, games: list[batches.GameRecord], folder: str | None
) -> dict[int, str]:
    """Write the games to keep (and every crashed one) as saves; their paths by game number.
    Crashed games go to --keep DIR, else to the save directory, so each can be looked at."""
    from dataclasses import replace

    from sim.formats.replay import ReplayError, save_dir, write
    from sim.tools import batch as batches

    saved: dict[int, str] = {}
    where = str(Path(plan.scenario.path).resolve())  # a worker elsewhere resolved its own
    for game in games:
        if game.save is None:
            continue
        target = Path(folder) if folder is not None else save_dir()
        path = target / batches.kept_name(plan.scenario, game)
        try:
            write(path, replace(game.save, scenario_path=where))
        except ReplayError as error:
            print(f"sim batch: {error}", file=sys.stderr)
            continue
        saved[game.index] = str(path)
    return saved
