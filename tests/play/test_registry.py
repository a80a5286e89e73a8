"""The registry of actions (sim/play/rulebook.py) and the one JSON form of an action
(sim/core/codec.py): names, fields, the codec of scripts and saves and the event log all come from
the action types; nothing else lists them."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import pytest

from sim.ai.evaluators import EVALUATORS
from sim.content.scenario import load
from sim.core import actions as a
from sim.core import codec
from sim.core import events as ev
from sim.core.actions import Swim
from sim.core.components import Conditions
from sim.core.condition import Condition
from sim.core.geometry import Pos
from sim.formats.replay import begin
from sim.play.decisions import ALL_ACTION_NAMES, FIELDS, PARSERS, DecisionError, parse, to_json
from sim.play.engine import AwaitingAction
from sim.play.legal import legal_decisions
from sim.play.rulebook import ACTIONS, LISTED, RULEBOOK
from sim.rules.candidates import Over, Scene, Unless
from sim.rules.combat.casting import known
from sim.ui.look.palette import CONDITION_ICONS
from sim.ui.model.actionbar import ABILITY_ACTIONS, BAR_NAMES, needs
from sim.ui.words.wording import condition_words
from tests.helpers import accepted, battle, scenario_text
from tests.movers import creature


def _concrete(kind: type[a.Action]) -> list[type[a.Action]]:
    out = [kind] if "name" in vars(kind) and kind is not a.Action else []
    for sub in kind.__subclasses__():
        # dataclass(slots=True) makes a new class; the one it replaced may linger here.
        if vars(a).get(sub.__name__) is sub:
            out += _concrete(sub)
    return out


def test_every_action_type_has_a_mechanic_and_a_name_and_nothing_else_lists_them() -> None:
    """Each action type of sim/core/actions.py is in the registry with its mechanic; the names, the
    fields, the parsers and the client's buttons are the registry's."""
    assert set(_concrete(a.Action)) == set(RULEBOOK)
    assert ALL_ACTION_NAMES == tuple(ACTIONS) == tuple(kind.name for kind in RULEBOOK)
    assert set(PARSERS) == set(FIELDS) == set(ALL_ACTION_NAMES)
    assert [n for n in BAR_NAMES if n != "dive"] == list(ALL_ACTION_NAMES)
    assert ABILITY_ACTIONS == {"cast": "spell", "use": "ability"}
    assert FIELDS["toss"] == {"item", "to", "target"}
    assert FIELDS["cast"] == {"spell", "target", "to"}
    assert FIELDS["prepare"] == {"trigger", "metres", "cells", "watch", "then"}
    assert FIELDS["end_turn"] == set()
    assert needs("assist") == ("ally", "enemy") and needs("throw") == ("item", "target")
    # R-X5: a Disarm's item is the target's weapon, picked after the target (test_ui_disarm.py).
    assert FIELDS["disarm"] == {"item", "target"} and needs("disarm") == ("target",)


# Lines of a script or save in the shape they have always been written: the codec keeps it.
LINES = [
    {"unit": "ana", "action": "walk", "path": [[1, 2], [2, 2, "jump"]], "slow": True},
    {"unit": "ana", "action": "swim", "to": [3, 3], "submerged": True, "quicken": True},
    {"unit": "ana", "action": "cast", "spell": "firebolt", "to": [1, 2], "target": "grok"},
    {"unit": "ana", "action": "use", "ability": "battle_focus"},
    {"unit": "ana", "action": "toss", "item": "rock", "target": "bram", "to": [4, 4]},
    {"unit": "ana", "action": "disarm", "item": "grok.axe", "target": "grok"},
    {"unit": "ana", "action": "administer", "item": "healing_potion", "target": "bram"},
    {"unit": "ana", "action": "throw", "item": "dagger", "target": "grok"},
    {"unit": "ana", "action": "attack", "target": "grok", "weapon": "longsword"},
    {"unit": "ana", "action": "assist", "ally": "bram", "enemy": "grok"},
    {"unit": "ana", "action": "draw", "item": "longsword"},
    {
        "unit": "ana",
        "action": "prepare",
        "trigger": "enters_area",
        "metres": 1.5,
        "cells": [[1, 1], [2, 1]],
        "watch": "grok",
        "then": {"action": "walk", "to": [5, 5], "slow": True},
    },
    {"unit": "ana", "action": "end_turn"},
]


@pytest.mark.parametrize("line", LINES, ids=lambda line: str(line["action"]))
def test_a_line_reads_and_writes_back_byte_for_byte(line: dict[str, object]) -> None:
    assert json.dumps(to_json(parse(line))) == json.dumps(line)


def test_each_field_refused_with_its_words() -> None:
    """The codec's messages name the field and what it holds, as the parsers' did."""
    cases = [
        ({"action": "attack"}, 'needs "target": the id of a creature, e.g. "grok"'),
        ({"action": "draw"}, 'needs "item": the id or kind of an item, e.g. "healing_potion"'),
        ({"action": "cast"}, 'needs "spell": the name of a spell, e.g. "firebolt"'),
        ({"action": "use"}, 'needs "ability": the name of a ability, e.g. "battle_focus"'),
        ({"action": "attack", "target": "g", "weapon": 3}, '"weapon" must be the id or kind'),
        ({"action": "toss", "item": "rock", "target": ""}, '"target" must be the id of a'),
        ({"action": "swim", "submerged": 1}, '"submerged" must be true (swim under the surface)'),
        ({"action": "cast", "spell": "x", "to": [1, 2, "jump"]}, '"to" is a cell [x, y], not'),
        ({"action": "walk", "path": 3}, '"path" must be a list of cells like [[3, 4], [4, 4]]'),
        ({"action": "prepare", "trigger": "ends_turn"}, 'needs "then": the prepared action'),
        ({"action": "prepare", "trigger": "x", "metres": -1}, '"metres" must be a number'),
        ({"action": "prepare", "trigger": "x", "watch": None}, '"watch" must be the id of a'),
        ({"action": "aim", "target": "g"}, "unknown field(s) for aim: target"),
        ({"action": "fly"}, 'unknown action "fly"'),
    ]
    for fields, words in cases:
        with pytest.raises(DecisionError) as error:
            parse({"unit": "ana", **fields})
        assert words in str(error.value), fields
        assert "not built" not in str(error.value)


def test_R_M8_the_dive_is_saved_and_an_older_swim_loads_as_a_surface_swim() -> None:
    """Saves are replays: the dive is written as "submerged": true; a swim line without the
    field (every save made before diving existed) is a swim at the surface."""
    dive = parse({"unit": "ana", "action": "swim", "path": [[2, 1]], "submerged": True})
    assert isinstance(dive, Swim) and dive.submerged
    assert to_json(dive) == {
        "unit": "ana",
        "action": "swim",
        "path": [[2, 1]],
        "submerged": True,
    }
    old = parse({"unit": "ana", "action": "swim", "path": [[2, 1]]})
    assert isinstance(old, Swim) and not old.submerged
    assert "submerged" not in to_json(old)
    with pytest.raises(DecisionError, match='"submerged" must be true'):
        parse({"unit": "ana", "action": "swim", "path": [[2, 1]], "submerged": "yes"})


def test_a_new_action_is_one_class_its_codec_comes_from_its_fields() -> None:
    """A made-up action type with a target and a cell: read and written with no table."""

    @dataclass(frozen=True, slots=True)
    class Chant(a.Action):
        target: str = field(default="", metadata=a.spec("text", a.CREATURE, required=True))
        to: Pos | None = field(default=None, metadata=a.spec("cell"))
        name: ClassVar[str] = "chant"

    assert codec.keys(Chant) == {"target", "to"}
    chant = codec.decode(Chant, "ana", {"target": "grok", "to": [1, 2]}, False, True, _no_then)
    assert chant == Chant("ana", "grok", Pos(1, 2), quicken=True)
    assert codec.encode(chant) == {
        "unit": "ana",
        "action": "chant",
        "target": "grok",
        "to": [1, 2],
        "quicken": True,
    }
    with pytest.raises(DecisionError, match='needs "target"'):
        codec.decode(Chant, "ana", {}, False, False, _no_then)


def _no_then(unit: str, obj: dict[str, object]) -> a.Action:
    raise AssertionError("no prepared action here")


def test_the_event_log_writes_a_prepared_action_as_a_script_does() -> None:
    """R-P1: the plan's `then` in `plan_made` is the `then` the script gave, in the one form."""
    units = (creature("ana", "blue", "a"), creature("bob", "red", "b"))
    b = battle(scenario_text("\n.a......b.\n", "\n".join(units)), [8, 7])
    then = {"action": "attack", "target": "bob", "slow": True}
    events = accepted(b, unit="ana", action="prepare", trigger="ends_turn", watch="bob", then=then)
    made = next(e for e in events if e["type"] == "plan_made")
    assert made["then"] == then


def test_the_commands_doc_lists_every_condition_of_the_one_list() -> None:
    """docs/commands.md's paragraph on conditions names exactly sim/core/condition.py's."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text("utf-8")
    start = doc.index("Conditions in `condition_gained`")
    paragraph = doc[start : doc.index("\n\n", start)]
    named = set(re.findall(r"`([a-z_]+)`", paragraph)) - {"condition_gained", "condition_lost"}
    assert named == {c.value for c in Condition}


def test_a_condition_holds_a_typed_value_and_logs_write_it_as_before() -> None:
    """Who a creature is unseen by, the face it hangs on, a grappler: typed values, written
    comma-separated or "x,y" in the log and the state file as they always were (R-X8, R-M7)."""
    held = Conditions().set(Condition.UNSEEN, ("bob", "cy")).set(Condition.HANGING, Pos(3, 1))
    held = held.set(Condition.GRAPPLED, "grok").set(Condition.BURNING, 2)
    assert held.creatures(Condition.UNSEEN) == ("bob", "cy")
    assert held.cell(Condition.HANGING) == Pos(3, 1)
    assert held.creature(Condition.GRAPPLED) == "grok" and held.count(Condition.BURNING) == 2
    assert held.has(Condition.BURNING) and not held.has(Condition.PRONE)
    assert held.count(Condition.PRONE) == 0 and held.creature(Condition.FEINTED) == ""
    logged = ev.to_json(ev.ConditionGained("ana", Condition.UNSEEN, ("bob", "cy")))
    assert json.dumps(logged) == (
        '{"type": "condition_gained", "unit": "ana", "condition": "unseen", "value": "bob,cy"}'
    )
    assert ev.to_json(ev.ConditionGained("ana", Condition.HANGING, Pos(3, 1)))["value"] == "3,1"
    with pytest.raises(TypeError, match="unseen holds a tuple"):
        held.set(Condition.UNSEEN, "bob,cy")


def test_the_client_names_only_conditions_of_the_one_list() -> None:
    """The client's badges and words for conditions are keyed by sim/core/condition.py's names
    (a Prepare's badge aside: it is no condition, R-P1)."""
    names = {c.value for c in Condition}
    assert set(CONDITION_ICONS) - {"prepared"} <= names
    sample = {int: 2, str: "grok", tuple: ("bob", "cy"), Pos: Pos(3, 1)}
    for condition in Condition:
        words = condition_words(condition, sample[condition.holds])
        assert "('" not in words and "Pos(" not in words, words  # no Python reprs
    assert condition_words(Condition.UNSEEN, ("bob",)) == "unseen by bob"


# --- issue #28: an action's candidates, its AI evaluator and its docs row come from its entry ---


def test_every_action_type_has_a_candidates_generator_and_a_place_in_the_listing() -> None:
    """Each entry says how its candidates are found: by a generator, or over the reach map for
    a Movement Action (the listing's own); LISTED orders every type once."""
    for kind, mechanic in RULEBOOK.items():
        assert mechanic.candidates, kind.name
        for found in mechanic.candidates:
            if found.over is Over.REACH:
                assert found.make is None and kind.movement, kind.name
            else:
                assert found.make is not None, kind.name
    assert sorted(LISTED, key=str) == sorted(RULEBOOK, key=str)
    assert len(set(LISTED)) == len(LISTED)


def _turns(path: Path, decisions: int = 40) -> Iterator[Scene]:
    """The scene of each turn's decision of seeded random play on the scenario (good until the
    next is asked for: the battle goes on)."""
    battle = begin(load(path), 7)
    rng = random.Random(path.stem)
    for _ in range(decisions):
        listed = legal_decisions(battle)
        if not listed:
            break
        pending = battle.pending
        if isinstance(pending, AwaitingAction):
            yield Scene(battle.world, pending.unit)
        assert not isinstance(battle.submit(rng.choice(listed).decision), a.Refusal)


def _scenes() -> Iterator[Scene]:
    """Each shipped scenario's turns of random play, then two allies beside a foe (Assist)."""
    for path in sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml")):
        yield from _turns(path)
    units = (creature("ana", "blue", "a"), creature("bo", "blue", "b"), creature("g", "red", "g"))
    b = battle(scenario_text("\n.ab.\n..g.\n", "\n".join(units)), [8, 7, 6])
    pending = b.pending
    assert isinstance(pending, AwaitingAction)
    yield Scene(b.world, pending.unit)


@pytest.mark.slow
def test_each_generator_makes_candidates_of_its_own_type_only() -> None:
    """At each turn of random play on every shipped scenario (and beside a foe with an ally),
    each entry's generators make only actions of its type, and each type's make some."""
    subjects: dict[Over, Callable[[Scene], Iterable[object]]] = {
        Over.HELD: lambda s: s.held,
        Over.CARRIED: lambda s: s.carried,
        Over.CREATURE: lambda s: s.others(),
        Over.CLOSE: lambda s: s.others(),
        Over.WEAPON: lambda s: [(o, i) for o in s.others() for i in s.held],
        Over.MISSILE: lambda s: [(o, i) for o in s.others() for i in s.held],
        Over.ABILITY: lambda s: known(s.world, s.unit),
    }
    made: set[type[a.Action]] = set()
    for scene in _scenes():
        for kind, mechanic in RULEBOOK.items():
            for found in mechanic.candidates:
                if found.make is None:
                    continue
                for subject in subjects.get(found.over, lambda s: (None,))(scene):
                    for candidate in found.make(scene, subject):
                        action = candidate.action if isinstance(candidate, Unless) else candidate
                        assert type(action) is kind, (kind.name, action)
                        made.add(kind)
    generated = {kind for kind, m in RULEBOOK.items() if any(f.make for f in m.candidates)}
    assert generated - made == set()


def test_every_evaluator_an_entry_names_is_the_ais_and_the_ai_has_no_other() -> None:
    """The AI weighs a decision by the evaluator its type's entry names (sim/ai/evaluators
    EVALUATORS); an entry naming none is worth nothing to it."""
    named = {m.evaluator for m in RULEBOOK.values() if m.evaluator is not None}
    assert named == set(EVALUATORS)


def test_every_action_has_a_row_in_the_commands_doc() -> None:
    """docs/commands.md's table of actions has one row per action of the registry, in its
    order or not, and no row for anything else."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text("utf-8")
    start = doc.index("| action | cost | fields | what it does |")
    table = doc[start : doc.index("\n\n", start)]
    rows = re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE)
    assert sorted(rows) == sorted(ACTIONS)
