"""Every number of the rules is read typed (R-U1..R-G4 and the rest, sim/data/rules.toml): one
frozen dataclass a section, checked once when the rules load, with the file and the key named
when a number is missing, of the wrong kind or unknown; and no code asks for one by its name."""

from __future__ import annotations

import ast
import tomllib
from dataclasses import FrozenInstanceError, fields, is_dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any, get_origin, get_type_hints

import pytest

from sim.core.catalog import ARMOUR_CLASSES
from sim.core.numbers import Rules, RulesError, default_rules, parse_rules

SIM = Path(__file__).resolve().parents[2] / "sim"


def _shipped() -> dict[str, Any]:
    text = resources.files("sim").joinpath("data/rules.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _refused(raw: dict[str, Any]) -> str:
    with pytest.raises(RulesError) as error:
        parse_rules(raw, "house.toml")
    return str(error.value)


def _sections(rules: Rules) -> dict[str, Any]:
    """The sections of numbers by their names in the data file: [grid], [movement]..."""
    values = {f.name: getattr(rules, f.name) for f in fields(rules)}
    return {name: value for name, value in values.items() if is_dataclass(value)}


def test_every_number_of_the_data_file_is_a_typed_field_of_its_section() -> None:
    """Each key of each section of numbers in rules.toml is the field of that name, with the
    data's value: nothing of the file is left unread, nothing read from elsewhere."""
    raw, rules = _shipped(), default_rules()
    sections = _sections(rules)
    assert len(sections) == 17
    for name, section in sections.items():
        data = raw[name]
        read = {f.name: getattr(section, f.name) for f in fields(section)}
        assert read == data, name
        hints = get_type_hints(type(section))
        for key, value in read.items():
            assert type(value) is (get_origin(hints[key]) or hints[key]), (name, key, value)


def test_numbers_are_whole_where_the_rules_count_and_decimal_where_they_measure() -> None:
    """R-B5: donning heavy armour takes 20 turns, doffing half; R-M9: the waist is at half the
    height; R-R6: the catch DC and damage go with a weight in kg, so they are decimals."""
    rules = default_rules()
    assert rules.extended.don_turns["heavy"] == 20
    assert rules.extended.doff_divisor == 2
    assert rules.movement.waist_fraction == 0.5
    assert type(rules.reactions.interrupt_bonus) is int
    assert type(rules.actions.catch_toss_base) is float


def test_armour_of_every_class_the_catalogue_knows_has_its_turns_to_don() -> None:
    """R-B5: a table of the rules keyed by the catalogue's armour classes, all of them."""
    assert set(default_rules().extended.don_turns) == set(ARMOUR_CLASSES)


def test_a_number_of_the_wrong_kind_is_refused_when_the_rules_load() -> None:
    raw = _shipped()
    movement = raw["movement"]
    raw["movement"] = {**movement, "step_metres": 0.5}
    assert _refused(raw) == "house.toml: [movement] step_metres must be a whole number, not 0.5"
    raw["movement"] = {**movement, "step_metres": True}
    assert _refused(raw) == "house.toml: [movement] step_metres must be a whole number, not True"
    raw["movement"] = {**movement, "waist_fraction": "half"}
    assert _refused(raw) == "house.toml: [movement] waist_fraction must be a number, not 'half'"
    raw["movement"] = movement
    raw["extended"] = {
        **raw["extended"],
        "don_turns": {**raw["extended"]["don_turns"], "heavy": 2.5},
    }
    assert _refused(raw) == (
        "house.toml: [extended.don_turns] heavy must be a whole number, not 2.5"
    )


def test_a_missing_or_unknown_number_or_section_is_refused_naming_it() -> None:
    raw = _shipped()
    reactions = raw["reactions"]
    raw["reactions"] = {k: v for k, v in reactions.items() if k != "interrupt_bonus"}
    assert _refused(raw) == "house.toml: [reactions] has no interrupt_bonus"
    raw["reactions"] = {**reactions, "interupt_bonus": 2}  # a typo in a house rule
    assert _refused(raw) == "house.toml: [reactions] interupt_bonus is not a number of the rules"
    raw["reactions"] = reactions
    raw["races"] = {**raw["races"], "gnome": {"speed": 7}}
    assert _refused(raw) == "house.toml: [races.gnome] has no height"
    del raw["races"]["gnome"]
    del raw["toss"]
    assert _refused(raw) == "house.toml: [toss] is missing"
    raw["tosses"] = {"max_weight_divisor": 2}
    assert _refused(raw) == "house.toml: [tosses] is not a section of the rules"


def test_a_house_rule_is_a_copy_with_one_section_replaced() -> None:
    """The rules are immutable; a changed number is a new value, the shipped one untouched."""
    rules = default_rules()
    with pytest.raises(FrozenInstanceError):
        rules.reactions.interrupt_bonus = 3  # type: ignore[misc]
    house = replace(rules, reactions=replace(rules.reactions, interrupt_bonus=3))
    assert house.reactions.interrupt_bonus == 3 and house != rules
    assert rules.reactions.interrupt_bonus == 2 and house.attack is rules.attack


# --- no code asks for a number by its name ---------------------------------------------------


def _number_names() -> set[str]:
    """The keys of the sections of numbers, as string literals only a lookup would write them:
    not the one-word ones (min, max, count, seconds), common words elsewhere, nor the keys of
    tables keyed by data (races, the armour classes of don_turns)."""
    rules = default_rules()
    names = {f.name for s in _sections(rules).values() for f in fields(s)}
    return {name for name in names if "_" in name}


def _on_rules(node: ast.expr) -> bool:
    """`rules`, `world.rules`, `world.rules.extended`...: an expression reaching the rules."""
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        if isinstance(node, ast.Attribute) and node.attr == "rules":
            return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return isinstance(node, ast.Name) and node.id == "rules"


def _string_lookups(source: str) -> dict[int, str]:
    """Where `source` names a number of the rules by a string, by line: a literal that is a
    key of a section of numbers (however it is then used), a string subscript or call on the
    rules, or a getattr of them."""
    names = _number_names()
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and node.value in names:
            found[node.lineno] = repr(node.value)
        elif isinstance(node, ast.Subscript) and _on_rules(node.value):
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                found[node.lineno] = ast.unparse(node)
        elif isinstance(node, ast.Call):
            args = node.args
            texts = [a for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if isinstance(node.func, ast.Name) and node.func.id == "getattr" and args:
                if _on_rules(args[0]):
                    found[node.lineno] = ast.unparse(node)
            elif isinstance(node.func, ast.Attribute) and _on_rules(node.func) and texts:
                found[node.lineno] = ast.unparse(node)
    return found


def test_the_search_finds_each_way_of_asking_by_name() -> None:
    """The check below, shown the ways code asked for numbers before they were typed."""
    asked = """
world.rules.integer("reactions", "interrupt_bonus")
num = rules.integer
share("standing_jump_length_divisor")
per_kg = "throw_item_damage_per_kg"
rules.raw["attack"]
world.rules.races.get("human")
getattr(world.rules.movement, name)
"""
    assert sorted(_string_lookups(asked)) == [2, 4, 5, 6, 7, 8]
    typed = "world.rules.reactions.interrupt_bonus\nworld.rules.extended.don_turns[kind]"
    assert _string_lookups(typed) == {}


@pytest.mark.slow
def test_no_module_under_sim_asks_for_a_rules_number_by_a_string() -> None:
    """Every number is reached as a typed field (`world.rules.reactions.interrupt_bonus`), so
    mypy catches a misspelt name and nothing is looked up by string while a battle runs."""
    found = {
        str(path.relative_to(SIM)): lookups
        for path in sorted(SIM.rglob("*.py"))
        if (lookups := _string_lookups(path.read_text("utf-8")))
    }
    assert found == {}
