"""bench/engine.py's baseline plays with this tree's numbers in the rules data file its own
loader can read: the keys both trees have take this tree's values, the baseline keeps the
keys this tree dropped (issue #34 dropped `feint_turn_ends`) and never sees ones it added."""

from __future__ import annotations

import tomllib
from types import ModuleType

from tests.helpers import bench_module


def _bench() -> ModuleType:
    return bench_module("engine")


def test_the_baseline_reads_its_own_keys_at_this_trees_numbers() -> None:
    theirs = "# the baseline\n[actions]\nfeint_bonus = 5\nfeint_turn_ends = 2\n[grid]\nsize = 1\n"
    ours = "[actions]\nfeint_bonus = 6\nnew_number = 3\n[grid]\nsize = 2\n"
    merged = _bench()._numbers(theirs, ours)
    assert tomllib.loads(merged) == {
        "actions": {"feint_bonus": 6, "feint_turn_ends": 2},
        "grid": {"size": 2},
    }
    assert merged.startswith("# the baseline\n")  # its comments and layout are kept


def test_a_key_of_another_shape_keeps_the_baselines() -> None:
    """cee8779, bench/engine.py's default baseline, has `[extended.doff_divisor] value = 2`
    where this tree has `doff_divisor = 2` under [extended]: the merge failed on it
    ("dictionary keys changed during iteration") and the bench stopped before measuring."""
    theirs = (
        "[extended]\nturns = 1\n[extended.doff_divisor]\nvalue = 2\n[extended.don]\nlight = 5\n"
    )
    ours = "[extended]\nturns = 3\ndoff_divisor = 4\n[extended.don]\nlight = 6\n"
    merged = _bench()._numbers(theirs, ours)
    assert tomllib.loads(merged) == {
        "extended": {"turns": 3, "doff_divisor": {"value": 2}, "don": {"light": 6}}
    }
    flipped = _bench()._numbers(ours, theirs)
    assert tomllib.loads(flipped) == {
        "extended": {"turns": 1, "doff_divisor": 4, "don": {"light": 5}}
    }
