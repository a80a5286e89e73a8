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
