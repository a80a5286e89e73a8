"""Issue #33: the README and docs/commands.md tell the truth. Every link points inside the
repository, at a file that is there and a heading it has; every command block tagged as an
example (```sh example) is run as written, from a copy of the checkout's scenarios and docs,
and does what the text around it says (each command's check below quotes that text); a
tagged command without a check, or a check without its command, fails."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import first_fast

TOP = Path(__file__).resolve().parents[1]
DOCS = (TOP / "README.md", *sorted((TOP / "docs").glob("*.md")))
EXAMPLED = (TOP / "README.md", TOP / "docs" / "commands.md")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```(.*)$")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, no punctuation, spaces as "-"."""
    words = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return words.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    return {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


def outside_fences(text: str) -> str:
    """The text with its code blocks left out (a link in one is an example, not a link)."""
    kept, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
        elif not inside:
            kept.append(line)
    return "\n".join(kept)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_link_points_inside_the_repository_at_something_there(doc: Path) -> None:
    problems = []
    for target in LINK.findall(outside_fences(doc.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        where = (doc.parent / file).resolve() if file else doc
        if not where.is_relative_to(TOP):
            problems.append(f"{target}: outside the repository")
        elif not where.exists():
            problems.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            problems.append(f"{target}: no heading #{anchor} in {where.name}")
    assert problems == [], f"{doc.name}: {problems}"


# --- the examples ----------------------------------------------------------------------------


def examples(doc: Path) -> list[tuple[str, str | None]]:
    """Each command of the blocks tagged ```sh example, with the plain block right after its
    block (its output as the text shows it), if any."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    found: list[tuple[str, str | None]] = []
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened or opened.group(1).split() != ["sh", "example"]:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if FENCE.match(lines[j]))
        commands = [re.sub(r"\s+#.*$", "", line).strip() for line in lines[i + 1 : end]]
        j = end + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        output = None
        if j < len(lines) and lines[j] == "```":
            close = next(k for k in range(j + 1, len(lines)) if lines[k] == "```")
            output = "\n".join(lines[j + 1 : close]) + "\n"
        found += [(command, output) for command in commands if command]
        i = end + 1
    return found


Check = Callable[[subprocess.CompletedProcess[str], str, str | None, Path], None]


def records(done: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in done.stdout.splitlines()]


def bram_aims(done: subprocess.CompletedProcess[str], text: str, _: str | None, __: Path) -> None:
    """README: "With seed 6 bram wins the initiative, so his Aim is taken: the log ends with
    `{...aiming...}`"."""
    said = re.search(r"the log ends with\s+`(\{[^`]*\})`", text)
    assert said is not None and done.returncode == 0, done.stderr
    assert records(done)[-1] == json.loads(said.group(1))


def ai_plays_both(
    done: subprocess.CompletedProcess[str], _: str, __: str | None, ___: Path
) -> None:
    """README: "the AI plays both sides ... a whole battle, each AI decision printed with its
    reason before its events, and ends with `battle_ended`"."""
    assert done.returncode == 0, done.stderr
    log = records(done)
    deciders = {str(r["unit"]) for r in log if r["type"] == "decided"}
    assert {"ana", "grok"} <= deciders or {"bram", "vex"} <= deciders
    assert all(r.get("why") for r in log if r["type"] == "decided")
    assert log[-1]["type"] == "battle_ended"


def batch_summary(
    done: subprocess.CompletedProcess[str], _: str, shown: str | None, cwd: Path
) -> None:
    """README and commands.md show the summary this batch prints, and it draws the chart."""
    assert done.returncode == 0, done.stderr
    assert shown is not None and done.stdout == shown
    assert (cwd / "skirmish-balance.png").stat().st_size > 0


def cliff_climb(done: subprocess.CompletedProcess[str], _: str, __: str | None, ___: Path) -> None:
    """commands.md: "a Climb of the 10 m tower that hangs part-way at 8 m and goes on next
    turn; a step off the 3 m cliff that falls, damages and lands prone"."""
    assert done.returncode == 0, done.stderr
    log = records(done)
    assert [r["elevation"] for r in log if r["type"] == "climbed"] == [8.0, 0.0]
    assert any(r["type"] == "fell" and r["metres"] == 3.0 for r in log)
    assert not [r for r in log if r["type"] == "refused"]


def chasm_jump(done: subprocess.CompletedProcess[str], _: str, __: str | None, ___: Path) -> None:
    """commands.md: "running jumps folded into Runs across the pit ...; a jump too long,
    refused with the cell and why, and then a Run to the far side, refused with what it
    allows and what the cheapest path costs" (so it is run with --keep-going)."""
    assert done.returncode == 0, done.stderr
    log = records(done)
    assert len([r for r in log if r["type"] == "jumped"]) == 2
    jump, run = (str(r["reason"]) for r in log if r["type"] == "refused")
    assert jump.startswith("(9,2): a jump of 4 m")
    assert run.startswith("run: 9 m allowed (Speed 9), the cheapest path to (10,1) costs")


def lia_runs(done: subprocess.CompletedProcess[str], _: str, __: str | None, ___: Path) -> None:
    """commands.md (`sim reach`): one JSON object, every cell the unit reaches with the
    action asked for, its path and the budget left."""
    assert done.returncode == 0, done.stderr
    (report,) = records(done)
    assert report["unit"] == "lia" and report["cells"]
    assert all(cell["action"] == "run" and cell["path"] for cell in report["cells"])  # type: ignore[attr-defined]


def skirmish_ok(
    done: subprocess.CompletedProcess[str], _: str, shown: str | None, __: Path
) -> None:
    """commands.md (`sim check`): a file without problems prints `FILE: ok`, exit 0."""
    assert done.returncode == 0 and done.stdout == shown


CHECKS: dict[str, Check] = {
    'echo \'{"unit": "bram", "action": "aim"}\' | sim run scenarios/skirmish.toml '
    "--seed 6 --script -": bram_aims,
    "sim run scenarios/skirmish.toml --seed 5 --ai blue=normal,red=hard": ai_plays_both,
    "sim batch scenarios/skirmish.toml --games 20 --plot skirmish-balance.png": batch_summary,
    "sim run scenarios/cliff_fort.toml --script docs/examples/cliff_climb.jsonl": cliff_climb,
    "sim run scenarios/chasm.toml --script docs/examples/chasm_jump.jsonl --keep-going": (
        chasm_jump
    ),
    "sim reach scenarios/chasm.toml --unit lia --action run": lia_runs,
    "sim check scenarios/skirmish.toml": skirmish_ok,
}

RUN = [(doc, command, shown) for doc in EXAMPLED for command, shown in examples(doc)]


def test_every_example_has_a_check_and_every_check_an_example() -> None:
    assert sorted({command for _, command, _ in RUN}) == sorted(CHECKS)


@pytest.mark.parametrize(
    ("doc", "command", "shown"),
    first_fast(RUN, several=True),
    ids=[f"{d.name}: {c[:50]}" for d, c, _ in RUN],
)
def test_an_example_does_what_the_text_says(
    doc: Path, command: str, shown: str | None, tmp_path: Path
) -> None:
    """The command as written, run by a shell in a folder with the checkout's scenarios and
    docs, `sim` being this checkout's."""
    (tmp_path / "scenarios").symlink_to(TOP / "scenarios")
    (tmp_path / "docs").symlink_to(TOP / "docs")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "sim").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sim "$@"\n')
    (bin_dir / "sim").chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(TOP),
        "SIM_SAVE_DIR": str(tmp_path / "saves"),
        "SDL_VIDEODRIVER": "dummy",
    }
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command}"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    CHECKS[command](done, doc.read_text(encoding="utf-8"), shown, tmp_path)
