"""Saves are replays: scenario with its hash, rules version, seed and decisions; written
atomically; a damaged or foreign file is refused with a message naming the file and the fault,
and the previous save survives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.content.scenario import load
from sim.core.events import to_json as event_json
from sim.formats.replay import (
    FORMAT,
    ReplayError,
    autosave_path,
    begin,
    dumps,
    load_save,
    loads,
    read,
    record,
    replay,
    write,
)
from sim.play.decisions import parse, to_json
from sim.play.engine import ReactionChoice, SetPolicy

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"
# A save of format version 1, written by the simulator before "auto" became the default policy
# (only its scenario path made relative): ana draws next to bo, who interrupted under "always".
OLD_SAVE = Path(__file__).resolve().parent / "saves" / "draw.v1.json"


def played(seed: int = 1):  # type: ignore[no-untyped-def]
    scenario = load(SKIRMISH)
    battle = begin(scenario, seed)
    first = battle.pending.unit  # type: ignore[union-attr]
    battle.submit(parse({"unit": first, "policy": "never", "defence": "dodge"}))
    battle.submit(parse({"unit": first, "action": "aim"}))
    battle.submit(parse({"unit": first, "action": "end_turn"}))
    return scenario, battle


def test_round_trip_replays_the_same_log(tmp_path: Path) -> None:
    scenario, battle = played()
    path = tmp_path / "game.json"
    write(path, record(battle, scenario, 1))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT and data["version"] == 2
    assert data["default_policy"] == "auto"
    assert data["scenario"]["sha256"] == scenario.digest
    assert data["rules_version"] == scenario.world.rules.version
    assert data["seed"] == 1
    save, _, again = load_save(path)
    assert [event_json(e) for e in again.log] == [event_json(e) for e in battle.log]
    assert [to_json(d) for d in save.decisions] == [to_json(d) for d in battle.decisions]
    assert again.world == battle.world


def test_policy_and_reaction_lines_round_trip() -> None:
    for decision in (SetPolicy("ana", "ask", "parry"), ReactionChoice("ana", "dodge")):
        assert parse(to_json(decision)) == decision


def test_a_refused_decision_is_kept_and_replays_the_same() -> None:
    scenario, battle = played()
    battle.submit(parse({"unit": "nobody", "action": "aim"}))
    _, again = replay(loads(dumps(record(battle, scenario, 1))), scenario)
    assert len(again.decisions) == len(battle.decisions)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{ not json", "damaged save: not valid JSON at line 1"),
        ('{"format": "something-else"}', "not a sim save"),
        ("[1, 2]", "not a sim save"),
        ('{"format": "sim-save", "version": 99}', "save format version 99"),
        ('{"format": "sim-save", "version": 1, "decisions": []}', '"scenario" is missing'),
    ],
)
def test_damaged_or_foreign_files_say_what_and_where(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReplayError) as caught:
        read(path)
    assert str(path) in str(caught.value)
    assert message in str(caught.value)


def test_a_bad_decision_names_its_number(tmp_path: Path) -> None:
    scenario, battle = played()
    data = json.loads(dumps(record(battle, scenario, 1)))
    data["decisions"][1] = {"unit": "ana", "action": "fly"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReplayError, match=r'decision #2 .*unknown action "fly"'):
        read(path)


def test_binary_garbage_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ReplayError, match="not UTF-8"):
        read(path)


def test_a_changed_scenario_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "my_map.toml"
    copy.write_text(SKIRMISH.read_text(encoding="utf-8"), encoding="utf-8")
    scenario = load(copy)
    battle = begin(scenario, 1)
    path = tmp_path / "game.json"
    write(path, record(battle, scenario, 1))
    copy.write_text(SKIRMISH.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    with pytest.raises(ReplayError, match="has changed since the save"):
        load_save(path)


def test_a_diverging_replay_is_refused(tmp_path: Path) -> None:
    scenario, battle = played()
    data = json.loads(dumps(record(battle, scenario, 1)))
    data["events"] += 1
    with pytest.raises(ReplayError, match="came out differently"):
        replay(loads(json.dumps(data)), scenario)


def test_a_failed_write_keeps_the_previous_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario, battle = played()
    path = tmp_path / "game.json"
    write(path, record(battle, scenario, 1))
    before = path.read_text(encoding="utf-8")

    def broken(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("sim.formats.replay.os.replace", broken)
    with pytest.raises(ReplayError, match="cannot save: No space left"):
        write(path, record(begin(scenario, 2), scenario, 2))
    assert path.read_text(encoding="utf-8") == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


def test_autosave_path_is_in_the_user_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SIM_SAVE_DIR", str(tmp_path))
    game = "20261203-075732"
    assert autosave_path(SKIRMISH, game) == tmp_path / f"skirmish.{game}.autosave.json"
    monkeypatch.delenv("SIM_SAVE_DIR")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert (
        autosave_path(SKIRMISH, game)
        == tmp_path / "state" / "sim" / "saves" / f"skirmish.{game}.autosave.json"
    )


def test_a_save_from_before_auto_replays_exactly_under_always() -> None:
    """Version 1 saves began under the old default: the replay matches the saved log (its
    length and sha256 are checked), bo's Interrupt of the Draw included."""
    save, _, battle = load_save(OLD_SAVE)
    assert save.default_policy == battle.default_policy == "always"
    answer = next(e for e in battle.log if e.kind == "reaction_answered")
    assert event_json(answer) == {
        "type": "reaction_answered", "unit": "bo", "window": "interrupt",
        "trigger": "ana starts a Draw next to bo", "options": ["interrupt", "none"],
        "choice": "interrupt", "by": "policy",
    }  # fmt: skip
    assert any(e.kind == "action_lost" for e in battle.log)
    again = json.loads(dumps(record(battle, load(OLD_SAVE.parent / "draw.toml"), save.seed)))
    assert (again["version"], again["default_policy"]) == (2, "always")  # a continued game


def test_the_same_decisions_under_auto_leave_the_draw_alone(tmp_path: Path) -> None:
    """A new save begins under "auto" and says so; replayed, it stays under "auto"."""
    old = read(OLD_SAVE)
    scenario = load(OLD_SAVE.parent / "draw.toml")
    battle = begin(scenario, old.seed)
    for decision in old.decisions:
        battle.submit(decision)
    assert not any(e.kind == "action_lost" for e in battle.log)
    path = tmp_path / "new.json"
    write(path, record(battle, scenario, old.seed))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["version"], data["default_policy"]) == (2, "auto")
    save, _, again = load_save(path)
    assert save.default_policy == again.default_policy == "auto"
    assert [event_json(e) for e in again.log] == [event_json(e) for e in battle.log]


def test_a_save_whose_default_policy_is_not_one_is_refused() -> None:
    data = json.loads(OLD_SAVE.read_text(encoding="utf-8"))
    data["version"] = 2
    for value, shown in (("sometimes", '"sometimes"'), (None, "null")):
        data["default_policy"] = value
        with pytest.raises(ReplayError) as refused:
            loads(json.dumps(data), "x.json")
        assert str(refused.value) == (
            'x.json: damaged save: "default_policy" must be one of auto, ask, always, never, '
            f"not {shown}"
        )
