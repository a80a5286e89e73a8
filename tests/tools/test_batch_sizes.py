"""`sim batch` with a large creature (issue #32, R-Z1): a 2x2 ogre played by the AI on one
side, in games shared out to worker processes exactly as in this process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content.scenario import load
from sim.core.creature import side
from sim.tools import batch
from sim.tools.batch import Plan

# The ogre (size 2, a longsword) against two goblins across the field.
OGRE = """name = "Ogre"
[map]
rows = \"\"\"
..........
.o........
..........
..........
.......ab.
..........
\"\"\"
[[units]]
id = "ogre"
team = "red"
race = "human"
str = "d10+8"
agi = "d6+4"
fcs = "d6+4"
res = "d10+8"
size = 2
held = ["longsword"]
at = "o"
[[units]]
id = "ana"
team = "blue"
template = "goblin_sneak"
at = "a"
[[units]]
id = "bob"
team = "blue"
template = "goblin_sneak"
at = "b"
"""


@pytest.mark.slow
def test_sim_batch_plays_a_large_creature_in_worker_processes_as_in_this_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-Z1 in `sim batch`: two games with two workers end without a crash, the ogre acting in
    them (red chose actions), and the games are the ones one process plays."""
    path = tmp_path / "ogre.toml"
    path.write_text(OGRE, encoding="utf-8")
    assert side(load(path).world, "ogre") == 2
    out = tmp_path / "summary.json"
    code = main(["batch", str(path), "--games", "2", "--workers", "2", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    summary = json.loads(out.read_text(encoding="utf-8"))
    assert (summary["played"], summary["crashed"], summary["capped"]) == (2, 0, 0)
    assert summary["action_kinds"]["red"]["choices"] > 0
    the_plan = Plan(load(path), (("blue", "normal"), ("red", "normal")))
    alone = batch.run(the_plan, 2, workers=1)
    assert batch.summarize(the_plan, alone) | {"scenario": summary["scenario"]} == summary
