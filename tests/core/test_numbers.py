"""Every number of the rules is read typed (R-U1..R-G4 and the rest, sim/data/rules.toml): a
whole number or a decimal, checked when the rules load, with the file and the key named."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from sim.core.numbers import RulesError, default_rules, parse_rules

SIM = Path(__file__).resolve().parents[2] / "sim"
# `rules.integer(...)`, `rules.decimal(...)`, and the local names some modules give the first.
CALL = re.compile(r'\b(integer|decimal|num|number)\(\s*"([a-z_.]+)",\s*"([a-z_]+)"\s*\)')


def _shipped() -> dict[str, object]:
    text = resources.files("sim").joinpath("data/rules.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def test_every_number_the_code_reads_is_in_the_rules_with_its_type() -> None:
    """Each `rules.integer(section, key)` and `rules.decimal(...)` in sim/ names a number of
    rules.toml of that type, so none fails while a battle runs."""
    rules = default_rules()
    calls = {m.groups() for f in SIM.rglob("*.py") for m in CALL.finditer(f.read_text("utf-8"))}
    assert len(calls) > 45
    for kind, section, key in sorted(calls):
        if kind == "decimal":
            assert isinstance(rules.decimal(section, key), float), (section, key)
        else:
            assert isinstance(rules.integer(section, key), int), (section, key)


def test_a_sub_table_is_read_by_its_dotted_section() -> None:
    """R-B5: donning heavy armour takes 20 turns; doffing takes half."""
    rules = default_rules()
    assert rules.integer("extended.don_turns", "heavy") == 20
    assert rules.integer("extended.doff_divisor", "value") == 2
    assert rules.decimal("movement", "waist_fraction") == 0.5


def test_a_number_of_the_wrong_kind_is_refused_naming_the_file_and_key() -> None:
    rules = default_rules()
    with pytest.raises(RulesError) as error:
        rules.integer("movement", "waist_fraction")
    assert str(error.value) == (
        "sim/data/rules.toml: [movement] waist_fraction must be a whole number, not 0.5"
    )
    with pytest.raises(RulesError, match=r"\[movement\] has no leap_metres"):
        rules.integer("movement", "leap_metres")


def test_rules_with_a_word_where_a_number_belongs_do_not_load() -> None:
    raw = _shipped()
    movement = raw["movement"]
    assert isinstance(movement, dict)
    raw["movement"] = {**movement, "step_metres": "two"}
    with pytest.raises(RulesError) as error:
        parse_rules(raw, "house.toml")
    assert str(error.value) == "house.toml: [movement] step_metres must be a number, not 'two'"
    raw["movement"] = {**movement, "step_metres": True}
    with pytest.raises(RulesError, match=r"\[movement\] step_metres must be a number, not True"):
        parse_rules(raw, "house.toml")
