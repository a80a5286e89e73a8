"""Issue #29: the AI's weights, search efforts and levels come from sim/data/ai.toml; a level
is a policy, a weight set and a search effort, and a wrong key is refused by name."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import pytest

from sim.ai.chooser import AI
from sim.ai.levels import LEVELS
from sim.ai.weights import book, parse


def _data() -> dict[str, Any]:
    text = resources.files("sim").joinpath("data/ai.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def test_the_levels_are_the_data_files_and_each_makes_an_ai() -> None:
    assert tuple(book().levels) == LEVELS  # the names the parser lists are the levels there are
    assert LEVELS[:4] == ("random", "easy", "normal", "hard") and "classic" in LEVELS
    for name in LEVELS:
        assert AI(name).settings.name == name
    hard = book().levels["hard"]
    assert hard.search is not None and hard.search.seeds > 0 and hard.search.guide in LEVELS
    assert book().levels["normal"].search is None  # normal is hard without the look-ahead
    # Issue #29: `normal` plays the whole action economy, `tactical`'s weights; `classic` keeps
    # the weights `normal` had before, the baseline bench/ai.py measures it against.
    assert book().levels["normal"].weights is book().weights["tactical"]
    assert book().levels["classic"].weights is book().weights["classic"]
    assert book().levels["tactical"].weights is book().weights["tactical"]


def test_a_weight_set_takes_its_bases_weights_and_overrides_some() -> None:
    data = _data()
    data["weights"]["bold"] = {"base": "classic", "trade": 0.1}
    parsed = parse(data)
    assert parsed.weights["bold"].trade == 0.1
    assert parsed.weights["bold"].focus == parsed.weights["classic"].focus


def test_an_unknown_weight_or_policy_is_refused_by_name() -> None:
    data = _data()
    data["weights"]["classic"]["bravery"] = 1.0
    with pytest.raises(ValueError, match="bravery"):
        parse(data)
    data = _data()
    data["levels"]["odd"] = {"policy": "psychic"}
    with pytest.raises(ValueError, match="psychic"):
        parse(data)
