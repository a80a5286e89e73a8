"""The two bans of DESIGN: the core never loads pygame, and nothing but sim.dice is random."""

import subprocess
import sys
from pathlib import Path

CORE = [
    p.stem
    for p in Path(__file__).resolve().parent.parent.joinpath("sim").glob("*.py")
    if p.stem not in ("__main__",)
]


def test_core_modules_do_not_load_pygame() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {CORE!r}:\n"
        "    importlib.import_module('sim.' + name if name != '__init__' else 'sim')\n"
        "print('pygame' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_only_the_dice_module_imports_random() -> None:
    offenders = []
    for path in Path(__file__).resolve().parent.parent.joinpath("sim").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != "dice.py" and ("import random" in text or "from random" in text):
            offenders.append(path.name)
    assert offenders == []


UI = Path(__file__).resolve().parent.parent / "sim" / "ui"
# The client's modules with no pygame: what they decide and say is testable without a window.
UI_WITHOUT_PYGAME = (
    "actionbar", "intent", "markers", "menu", "outcome", "tape", "vision", "wording", "view",
    "session", "planner", "logbook", "forecast", "underway",
)  # fmt: skip


def test_the_renderer_does_not_import_the_app() -> None:
    """Issue #15: drawing and input do not import each other; the questions both ask (what a
    click would decide) live in sim/ui/intent.py."""
    import ast

    for name in ("render", "barpanel", "overlay", "terrain", "tokens", "text"):
        tree = ast.parse((UI / f"{name}.py").read_text(encoding="utf-8"))
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        }
        assert "sim.ui.app" not in imported, name


def test_the_client_logic_modules_do_not_load_pygame() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {UI_WITHOUT_PYGAME!r}:\n"
        "    importlib.import_module('sim.ui.' + name)\n"
        "print('pygame' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_no_client_logic_branches_on_display_text() -> None:
    """Issue #15: what a click would do is a Verdict (`ok` and `words`); code asks `ok`,
    never whether the words start with "refused"."""
    offenders = [
        f"{path.name}:{number}"
        for path in UI.glob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "decision(" in line and '.startswith("refused")' in line
    ]
    assert offenders == []


def test_no_event_class_is_a_kind_of_another() -> None:
    """`apply` matches events by class, the most frequent first: that order is free only while
    no event class subclasses another (a subclass would be caught by its parent's case)."""
    from sim import events as ev

    kinds = [k for k in vars(ev).values() if isinstance(k, type) and issubclass(k, ev.Event)]
    assert len(kinds) > 40
    for kind in kinds:
        if kind is not ev.Event:
            assert kind.__bases__ == (ev.Event,), kind.__name__
