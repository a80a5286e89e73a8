"""The architecture's rules that are not imports: the import rules (layers, no pygame outside
the client, no randomness outside the dice) are import-linter contracts in pyproject.toml, which
`.ci/run` checks with `lint-imports` and the first test here checks too."""

import os
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parents[1]
UI = TOP / "sim" / "ui"
LINT = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"


def test_the_import_contracts_are_kept() -> None:
    """pyproject.toml's [tool.importlinter] contracts: the layers of sim/, the client's own
    layers, no pygame outside sim/ui, no `random` outside sim/core/dice.py."""
    out = subprocess.run(
        [sys.executable, "-c", LINT, "--no-cache"],
        capture_output=True,
        text=True,
        cwd=TOP,
        env={**os.environ, "PYTHONPATH": str(TOP)},  # this tree's sim, whatever is installed
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def test_every_package_says_what_it_is() -> None:
    """Each package of sim/ opens with a docstring of what it holds (docs/architecture.md)."""
    import ast

    for init in sorted((TOP / "sim").rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 10, init


def test_no_client_logic_branches_on_display_text() -> None:
    """Issue #15: what a click would do is a Verdict (`ok` and `words`); code asks `ok`,
    never whether the words start with "refused"."""
    offenders = [
        f"{path.relative_to(UI)}:{number}"
        for path in UI.rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "decision(" in line and '.startswith("refused")' in line
    ]
    assert offenders == []


def test_no_event_class_is_a_kind_of_another() -> None:
    """`apply` matches events by class, the most frequent first: that order is free only while
    no event class subclasses another (a subclass would be caught by its parent's case)."""
    from sim.core import events as ev

    kinds = [k for k in vars(ev).values() if isinstance(k, type) and issubclass(k, ev.Event)]
    assert len(kinds) > 40
    for kind in kinds:
        if kind is not ev.Event:
            assert kind.__bases__ == (ev.Event,), kind.__name__


def test_the_layers_diagram_is_drawn_from_the_code() -> None:
    """docs/architecture.md's diagram is what docs/layers.py draws from the imports today."""
    out = subprocess.run(
        [sys.executable, str(TOP / "docs" / "layers.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=TOP,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr


# The words events and refusals carry for people (issue #28): code that must know what a roll,
# an attack or a damage was for asks the event's tag (sim/core/purpose.py, `Damaged.dealer`).
# ("trigger" is not among them: a Prepare's trigger is a decision's value, "enters_area".)
DISPLAY_TEXT = {"purpose", "reason", "source"}
# What matching text looks like: str methods that search it or take it apart, and `re`.
TEXT_MATCHERS = {
    "startswith",
    "endswith",
    "split",
    "rsplit",
    "partition",
    "rpartition",
    "find",
    "rfind",
    "index",
    "rindex",
    "count",
    "removeprefix",
    "removesuffix",
}
REGEX = {"match", "search", "fullmatch", "findall", "finditer", "sub", "subn", "split"}


def display_text_matched(source: str) -> list[int]:
    """The lines of `source` that compare, search or take apart display text: a `purpose`,
    `reason` or `source` attribute in a comparison or an `in`, as the receiver of a str method
    that searches it, or as an argument of a `re` function."""
    import ast

    def shown(node: ast.expr) -> bool:
        return isinstance(node, ast.Attribute) and node.attr in DISPLAY_TEXT

    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(
            shown(side) for side in (node.left, *node.comparators)
        ):
            lines.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method, receiver = node.func.attr, node.func.value
            regex = isinstance(receiver, ast.Name) and receiver.id == "re" and method in REGEX
            if (method in TEXT_MATCHERS and shown(receiver)) or (
                regex and any(shown(arg) for arg in node.args)
            ):
                lines.append(node.lineno)
    return lines


def test_display_text_matched_finds_each_way_of_matching() -> None:
    """The check below, on the ways of matching it must catch and the uses it must allow."""
    caught = [
        '"hit roll" in e.purpose',
        'e.purpose.startswith("sprint")',
        'event.purpose in ("melee attack", "ranged attack")',
        'e.source.split("\'s ", 1)',
        'result.reason == "no path"',
        're.search("R-X8", event.reason)',
        'Damaged(**d).source.endswith("fall")',
        '"fall" != e.source',
    ]
    for line in caught:
        assert display_text_matched(line) == [1], line
    allowed = [
        'f"{e.unit} rolls for {e.purpose}"',
        'e.purpose.replace("_", " ")',
        "e.tag is RollKind.HIT",
        'e.choice.startswith("catch")',
    ]
    for line in allowed:
        assert display_text_matched(line) == [], line


def test_no_code_decides_by_matching_event_text() -> None:
    """Issue #28: no module of sim/ decides what an event or a refusal was by its words."""
    offenders = [
        f"{path.relative_to(TOP)}:{number}"
        for path in sorted((TOP / "sim").rglob("*.py"))
        for number in display_text_matched(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
