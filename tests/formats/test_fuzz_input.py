"""Issue #10, kept true: the shipped scenarios, script lines and saves, mutated at random (byte
flips, deleted and duplicated lines, wrong types, huge and non-finite numbers, deep nesting,
unicode), through the commands a player runs. Every outcome is success or a clear error: never
a traceback, never more than a few seconds, never more than a few hundred MB.

Each test counts its outcomes (accepted, and each kind of clear error), prints the summary, and
checks that a fair share of the mutated inputs got past the first parse step, so the test is
not only feeding the JSON and TOML parsers. The run in CI is short and always the same
(derandomized); `SIM_FUZZ_EXAMPLES=2000 python -m pytest tests/formats/test_fuzz_input.py` runs a
longer, random one (README, "Development").
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import resource
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cli.main import main
from sim.content.scenario import load
from sim.core.components import Budget
from sim.core.dice import SeededDice
from sim.formats.replay import dumps, record
from sim.play.decisions import DecisionError, parse
from sim.rules.reach import pathfinder

TOP = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((TOP / "scenarios").glob("*.toml"))
# The example scripts and the scenarios they play on (docs/commands.md).
SCRIPTS = [
    ("chasm.toml", "chasm_jump.jsonl"),
    ("cliff_fort.toml", "cliff_climb.jsonl"),
    ("river_crossing.toml", "river_swim.jsonl"),
]

LONG = "SIM_FUZZ_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("SIM_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,  # each command is timed below, against SECONDS
    derandomize=not LONG,  # CI runs the same inputs every time
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SECONDS = 5.0  # the most any one command may take on a mutated input
MEGABYTES = 400  # the most the process may grow over a whole fuzz test

# --- mutations ----------------------------------------------------------------------------

NUMBERS = [
    "1e308",
    "-1e308",
    "nan",
    "inf",
    "-inf",
    "NaN",
    "Infinity",
    "-Infinity",
    "9" * 30,
    "9" * 5000,
    "-1",
    "0",
    "0.5",
    "1e-300",
    "2147483648",
    "100000",
]
WRONG_TYPES = ["[]", "{}", "true", '"x"', "7", '[1, "a"]', '""', "3.25"]
NUMBER = re.compile(r"(?<![\d.])-?\d+(?:\.\d+)?(?![\d.])")
# A quoted string (not the quotes of a TOML multi-line string), a number, true or false.
VALUE = re.compile(r'(?<!")"[^"\n]*"(?!")|(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])|\btrue\b|\bfalse\b')

Mutation = tuple[Any, ...]
AT = st.integers(0, 10**6)
MUTATION = st.one_of(
    st.tuples(st.just("flip"), AT, st.integers(0, 7)),
    st.tuples(st.just("delete"), AT),
    st.tuples(st.just("duplicate"), AT),
    st.tuples(st.just("number"), AT, st.sampled_from(NUMBERS)),
    st.tuples(st.just("type"), AT, st.sampled_from(WRONG_TYPES)),
    st.tuples(st.just("nest"), AT, st.sampled_from([3, 60, 900, 5000, 100_000]), st.booleans()),
    # Unicode anywhere, or (True) inside a string, escaped as the format needs.
    st.tuples(st.just("unicode"), AT, st.text(min_size=1, max_size=6), st.booleans()),
)
# JSON spells the non-finite numbers its own way (Python's json reads these).
JSON_SPELLING = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
STRING = re.compile(r'(?<!")"[^"\n]*"(?!")')
MUTATIONS = st.lists(MUTATION, min_size=1, max_size=3)


def _replace(text: str, pattern: re.Pattern[str], at: int, new: str) -> str:
    found = list(pattern.finditer(text))
    if not found:
        return text
    match = found[at % len(found)]
    return text[: match.start()] + new + text[match.end() :]


def _nested(depth: int, tables: bool, toml: bool) -> str:
    if not tables:
        return "[" * depth + "]" * depth
    opener = "{a = " if toml else '{"a": '
    return opener * depth + "1" + "}" * depth


def mutate(text: str, mutations: list[Mutation], toml: bool) -> bytes:
    """`text` with each mutation applied in turn, as the bytes of a file."""
    for kind, at, *how in mutations:
        lines = text.splitlines(keepends=True)
        if kind == "delete" and lines:
            del lines[at % len(lines)]
            text = "".join(lines)
        elif kind == "duplicate" and lines:
            line = at % len(lines)
            lines.insert(line, lines[line])
            text = "".join(lines)
        elif kind == "number":
            number = how[0] if toml else JSON_SPELLING.get(how[0], how[0])
            text = _replace(text, NUMBER, at, number)
        elif kind == "type":
            text = _replace(text, VALUE, at, how[0])
        elif kind == "nest":
            text = _replace(text, VALUE, at, _nested(how[0], how[1], toml))
        elif kind == "unicode" and how[1]:
            inside = json.dumps(how[0], ensure_ascii=False)[1:-1]
            strings = list(STRING.finditer(text))
            if strings:
                where = strings[at % len(strings)].start() + 1
                text = text[:where] + inside + text[where:]
        elif kind == "unicode":
            where = at % (len(text) + 1)
            text = text[:where] + how[0] + text[where:]
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    for kind, at, *how in mutations:
        if kind == "flip" and data:
            data[at % len(data)] ^= 1 << how[0]
    return bytes(data)


# --- running the commands -----------------------------------------------------------------


@contextlib.contextmanager
def workspace() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="sim-fuzz-") as folder:
        yield Path(folder)


def command(argv: list[str]) -> tuple[int, str, str]:
    """`sim ARGV` in this process: its exit code, standard output and standard error. Any
    exception escaping `main` fails the test (that would be a traceback); so does a command
    that takes longer than SECONDS."""
    out, err = io.StringIO(), io.StringIO()
    began = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    took = time.perf_counter() - began
    assert took < SECONDS, f"sim {' '.join(argv)[:200]} took {took:.1f} s"
    return code, out.getvalue(), err.getvalue()


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fuzz(outcomes: Counter[str], check: Callable[[list[Mutation]], None]) -> Callable[[], None]:
    """Run `check` on FUZZ's examples; the process may not grow by more than MEGABYTES."""

    @FUZZ
    @given(MUTATIONS)
    def run(mutations: list[Mutation]) -> None:
        check(mutations)

    def wrapped() -> None:
        pathfinder.warm_up()  # compiled (or loaded from the cache) before anything is timed
        before = peak_mb()
        run()
        grown = peak_mb() - before
        outcomes["(examples)"] = EXAMPLES
        assert grown < MEGABYTES, f"the process grew by {grown:.0f} MB"

    return wrapped


def report(name: str, outcomes: Counter[str], capsys: pytest.CaptureFixture[str]) -> None:
    summary = ", ".join(f"{kind}: {n}" for kind, n in sorted(outcomes.items()))
    with capsys.disabled():
        print(f"\n{name} outcomes: {summary}")


def share(outcomes: Counter[str], *kinds: str) -> float:
    total = sum(n for kind, n in outcomes.items() if not kind.startswith("("))
    return sum(outcomes[k] for k in kinds) / max(total, 1)


# --- scenarios ----------------------------------------------------------------------------

PROBLEM_LINE = re.compile(r"^(.+):(\d+): (.+)$")


def _scenario_kind(message: str) -> str:
    if message.startswith("not valid TOML"):
        return "refused: not TOML"
    if message.startswith("not UTF-8"):
        return "refused: not UTF-8"
    return "refused: a problem in the scenario"


@pytest.mark.slow
def test_mutated_scenarios_load_or_are_refused_with_file_and_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`sim check`, then (when it passes) `sim run` and `sim reach` for the first unit."""
    outcomes: Counter[str] = Counter()

    def check(mutations: list[Mutation]) -> None:
        source = SCENARIOS[mutations[0][1] % len(SCENARIOS)]
        with workspace() as folder:
            path = folder / source.name
            path.write_bytes(mutate(source.read_text(encoding="utf-8"), mutations, toml=True))
            code, out, err = command(["check", str(path)])
            if code == 0:
                assert out == f"{path}: ok\n"
                outcomes["accepted"] += 1
                world = load(path).world
                unit = next(e for e in world.entities() if world.has(e, Budget))
                assert command(["run", str(path), "--seed", "3"])[0] == 0
                reach = command(["reach", str(path), "--unit", unit, "--seed", "3"])
                assert reach[0] == 0 and json.loads(reach[1])["unit"] == unit
                return
            assert code == 1 and not err
            problems = out.splitlines()
            assert problems
            for problem in problems:
                found = PROBLEM_LINE.match(problem)
                assert found is not None and found.group(1) == str(path), problem
                assert "Traceback" not in problem and "<" not in found.group(3)[:1]
            message = PROBLEM_LINE.match(problems[0]).group(3)  # type: ignore[union-attr]
            outcomes[_scenario_kind(message)] += 1

    fuzz(outcomes, check)()
    report("scenario", outcomes, capsys)
    # Some loaded and were played; at least a third got past the TOML parser.
    assert outcomes["accepted"] > 0, outcomes
    assert share(outcomes, "accepted", "refused: a problem in the scenario") >= 0.3, outcomes


# --- script lines -------------------------------------------------------------------------


def _line_kind(line: str) -> str:
    """Why a refused script line was refused: not JSON, not a decision, or the engine said
    no (parsed here the way `sim run` parses it)."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return "refused: not JSON"
    try:
        parse(obj)
    except DecisionError:
        return "refused: not a decision"
    return "refused by the rules"


@pytest.mark.slow
def test_mutated_script_lines_play_or_are_refused_with_their_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`sim run` on a mutated example script: every line is played or refused, by number."""
    outcomes: Counter[str] = Counter()

    def check(mutations: list[Mutation]) -> None:
        scenario, script = SCRIPTS[mutations[0][1] % len(SCRIPTS)]
        text = (TOP / "docs" / "examples" / script).read_text(encoding="utf-8")
        with workspace() as folder:
            path = folder / script
            path.write_bytes(mutate(text, mutations, toml=False))
            argv = ["run", str(TOP / "scenarios" / scenario), "--script", str(path), "--keep-going"]
            code, out, err = command(argv)
            if code == 2:  # the whole file unreadable (a byte flip out of UTF-8)
                assert err.startswith(f"sim run: cannot read the script {path}: not UTF-8")
                outcomes["refused: not UTF-8"] += 1
                return
            assert code == 0 and not err
            lines = path.read_text(encoding="utf-8").splitlines()
            records = [json.loads(record) for record in out.splitlines()]
            refused = {r["line"]: r for r in records if r["type"] == "refused"}
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                if number not in refused:
                    outcomes["accepted"] += 1
                    continue
                reason = refused[number]["reason"]
                assert isinstance(reason, str) and reason and "Traceback" not in reason
                outcomes[_line_kind(line)] += 1
            unit = "ana"
            reach = command(["reach", argv[1], "--unit", unit, "--script", str(path)])
            assert reach[0] == 0 and json.loads(reach[1])["unit"] == unit

    fuzz(outcomes, check)()
    report("script line", outcomes, capsys)
    assert share(outcomes, "accepted") >= 0.3, outcomes
    assert outcomes["refused: not a decision"] > 0 and outcomes["refused by the rules"] > 0
    assert share(outcomes, "refused: not JSON", "refused: not UTF-8") < 0.5, outcomes


# --- saves --------------------------------------------------------------------------------


def _save_of(scenario: str, script: str) -> str:
    """The save of an example script played on its scenario (seed 3)."""
    loaded = load(TOP / "scenarios" / scenario)
    battle = loaded.begin(SeededDice(3), 3)
    for line in (TOP / "docs" / "examples" / script).read_text(encoding="utf-8").splitlines():
        battle.submit(parse(json.loads(line)))
    data = json.loads(dumps(record(battle, loaded, 3)))
    # Laid out a field and a decision a line (the loader reads any layout of the JSON), so a
    # deleted or duplicated line is mostly a missing field or a changed list of decisions
    # rather than broken JSON.
    decisions = data.pop("decisions")
    fields = [f"{json.dumps(key)}: {json.dumps(value)}," for key, value in data.items()]
    listed = ",\n".join(json.dumps(decision) for decision in decisions)
    return "{\n" + "\n".join(fields) + '\n"decisions": [\n' + listed + "\n]}\n"


SAVE_KINDS = [
    ("damaged save: not valid JSON", "refused: not JSON"),
    ("damaged save: not UTF-8", "refused: not UTF-8"),
    ("damaged save: lists or objects", "refused: not JSON"),
    ("damaged save: a number has", "refused: not JSON"),
    ("not a sim save", "refused: not a save"),
    ("save format version", "refused: not a save"),
    ("damaged save:", "refused: a field missing or wrong"),
    ("scenario: damaged save:", "refused: a field missing or wrong"),
    ("decision #", "refused: a decision"),
    ("cannot replay", "refused: scenario missing or changed"),
    ("saved under rules version", "refused: other rules"),
    ("the replay came out differently", "refused: replays differently"),
]


def test_mutated_saves_resume_or_are_refused_naming_the_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`sim play --load SAVE --text` on a mutated save of each example script."""
    saves = [_save_of(scenario, script) for scenario, script in SCRIPTS]
    outcomes: Counter[str] = Counter()

    def check(mutations: list[Mutation]) -> None:
        text = saves[mutations[0][1] % len(saves)]
        with workspace() as folder:
            path = folder / "game.json"
            path.write_bytes(mutate(text, mutations, toml=False))
            code, out, err = command(["play", "--load", str(path), "--text"])
            if code == 0:
                outcomes["accepted"] += 1
                return
            assert code == 1 and not out
            prefix = f"sim play: {path}: "
            assert err.startswith(prefix) and err.endswith("\n") and err.count("\n") == 1, err
            message = err[len(prefix) :]
            # An exception from the engine on replay would be a crash under another name.
            assert "fails on replay" not in message, message
            kind = next((k for start, k in SAVE_KINDS if message.startswith(start)), None)
            if kind is None and message.startswith("decision #"):
                kind = "refused: a decision"
            assert kind is not None, message
            outcomes[kind] += 1

    fuzz(outcomes, check)()
    report("save", outcomes, capsys)
    assert outcomes["accepted"] > 0, outcomes
    first_step = share(outcomes, "refused: not JSON", "refused: not UTF-8", "refused: not a save")
    # The rest got to the fields, decisions or the replay. The share moves with the save's
    # text (byte flips land elsewhere when the log changes): 0.65-0.70 seen at 40 examples.
    assert first_step < 0.8, outcomes
