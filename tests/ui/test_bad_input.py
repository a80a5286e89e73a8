"""Issue #10: bad input never crashes and never loses anything. Each defect of the issue, fed to
the command or loader that met it, gives a clear message (file:line where there is one) and
changes nothing; no traceback."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sim.cli.main import main
from sim.content.scenario import ScenarioError, load
from sim.content.scenario import loads as load_scenario
from sim.core.components import Gear
from sim.core.geometry import Pos
from sim.formats.replay import ReplayError, begin, dumps, load_save, loads, record
from sim.play.decisions import DecisionError, parse
from sim.rules.movement.footing import Gait, mover
from sim.rules.movement.jump import jump_reach
from sim.rules.reach import pathfinder as pf
from sim.rules.reach.fields import distance_field

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"
TEXT = SKIRMISH.read_text(encoding="utf-8")
ANA = 'template = "human_fighter"'  # ana's template line, the first in the file (line 23)


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(text, "bad.toml")
    return str(caught.value).splitlines()


def with_ana(extra: str) -> str:
    """The skirmish with `extra` added to ana's [[units]] table (after line 23)."""
    return TEXT.replace(ANA, f"{ANA}\n{extra}", 1)


# --- 1: deeply nested TOML -----------------------------------------------------------------


def test_deeply_nested_toml_is_a_problem_on_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.toml"
    lines = TEXT.count("\n")
    path.write_text(TEXT + "x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out == f"{path}:{lines + 1}: not valid TOML: arrays or tables nested too deep\n"
    tables = TEXT + "y = " + "{ a = " * 3000 + "1" + " }" * 3000 + "\n"
    assert problems(tables) == [
        f"bad.toml:{lines + 1}: not valid TOML: arrays or tables nested too deep"
    ]


# --- 2 and 3: every number of a scenario has a range ------------------------------------------


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("height = 1e308", "legend 'Q': height must be at most 1000 m, not 1e+308"),
        ("water = 1e308", "legend 'Q': water must be at most 1000 m, not 1e+308"),
        ("obstacle = inf", "legend 'Q': obstacle must be 0 or more in half-metre steps, not inf"),
        ("height = nan", "legend 'Q': height must be 0 or more in half-metre steps, not nan"),
        ("height = 1000.5", "legend 'Q': height must be at most 1000 m, not 1000.5"),
    ],
)
def test_a_huge_or_non_finite_height_is_a_problem_not_an_overflow(extra: str, message: str) -> None:
    """Item 2: 1e308 passes isfinite and overflowed `int(value * 2)` before the range check."""
    text = TEXT.replace("[legend]", f'[legend]\n"Q" = {{ kind = "open", {extra} }}')
    assert problems(text) == [f"bad.toml:18: {message}"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('agi = "d8+100000"', "AGI Bonus must be at most 50, not 100000"),
        ('agi = "d8+200000000"', "AGI Bonus must be at most 50, not 200000000"),
        (
            'str = "d8+' + "9" * 5000 + '"',
            "STR Bonus must be at most 50, not a number of 5000 digits",
        ),
        ('fcs = "d' + "9" * 5000 + '+1"', "FCS die d1000000000 is not one of d4, d6, d8, d10, d12"),
        ("hp = 1001", "hp must be a whole number from 1 to 1000, not 1001"),
        ("skills = { athletics = 99999999999 }", "skill athletics must be a level 0-20"),
    ],
)
def test_unit_numbers_out_of_their_range_are_problems_on_their_lines(
    extra: str, message: str
) -> None:
    """Item 3: attribute Bonuses, hp and skill levels have documented upper bounds."""
    found = problems(with_ana(extra))
    assert len(found) == 1 and found[0].startswith(f"bad.toml:24: {message}"), found


def test_the_largest_bonus_and_skills_load_and_give_a_reach_map(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """At the top of every range a unit still loads, and `sim reach` answers (it ran for
    minutes at d8+100000, and took 9 GB at d8+200000000)."""
    path = tmp_path / "strong.toml"
    strong = 'agi = "d12+50"\nstr = "d12+50"\nskills = { athletics = 20, acrobatics = 20 }'
    path.write_text(with_ana(strong), encoding="utf-8")
    assert main(["reach", str(path), "--unit", "ana", "--seed", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["unit"] == "ana" and report["cells"]


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ("seed = 1", "seed = -1", 4, "`seed` must be a whole number from 0 to"),
        ("seed = 1", "seed = 9223372036854775808", 4, "`seed` must be a whole number from 0 to"),
    ],
)
def test_scenario_wide_numbers_have_ranges(old: str, new: str, line: int, message: str) -> None:
    found = problems(TEXT.replace(old, new, 1))
    assert len(found) == 1 and found[0].startswith(f"bad.toml:{line}: {message}")


def test_a_survive_objective_has_a_most_rounds() -> None:
    text = TEXT + '\n[[objectives]]\nkind = "survive"\nteam = "blue"\nrounds = 10001\n'
    found = problems(text)
    assert found == [
        f"bad.toml:{TEXT.count(chr(10)) + 5}: survive needs `rounds`, "
        "a whole number from 1 to 10000"
    ]


def test_a_map_larger_than_the_range_is_one_problem() -> None:
    rows = "\n".join(["." * 1025] * 2)
    text = f'name = "wide"\n[map]\nrows = """\n{rows}\n"""\n[[units]]\nid = "a"\nteam = "x"\n'
    # One problem for the map, not one a row; the unit is checked all the same (issue #33).
    assert problems(text) == [
        "bad.toml:3: the map is 1025 cells across and 2 down; at most 1024 each way",
        "bad.toml:7: unit 'a' needs a template or race, str, agi, fcs, res",
        'bad.toml:7: `at` must be a map marker like "a" or a cell like [3, 4], not nothing',
    ]


def test_the_reach_search_needs_memory_for_the_window_not_the_budget() -> None:
    """Item 3: a budget of ten million metres on the skirmish map costs no more than the map:
    the search's states are the window's cells times the run-ups a jump in it can use (the
    old search allocated window cells x budget: 65 MiB at 100 m, 214 MiB at 150 m)."""
    world = load(SKIRMISH).world
    m = mover(world, "ana")
    start = Pos(2, 2)
    small = distance_field(world, m, Gait.STRIDE, start, 60, jump_reach(world, "ana", m))
    huge = distance_field(world, m, Gait.STRIDE, start, 20_000_000, jump_reach(world, "ana", m))
    cells = world.grid.width * world.grid.height
    assert huge.window.shape == (world.grid.height, world.grid.width)
    levels = huge.states.size // cells
    longest = max(world.grid.width, world.grid.height) * 3  # diagonal half-metres
    assert huge.states.size == cells * levels and levels <= longest + 1
    # Every cell the small budget reaches, the huge one reaches at the same least cost.
    for cell, cost in small.ends():
        assert huge.cost(cell) == cost
    path = huge.path_to(max(huge.ends(), key=lambda end: end[1])[0])
    assert path


def test_runup_levels_stop_at_the_longest_jump_the_window_holds() -> None:
    """A jump cap of a million half-metres (a huge AGI Bonus) on a 5 x 4 window: no jump there
    is longer than 5 diagonal cells, so no more run-up levels than that are told apart."""
    params = np.zeros(pf.PARAMS)
    params[[pf.M_ORTHOGONAL, pf.M_DIAGONAL, pf.M_JUMPS, pf.M_LIMIT]] = (2, 3, 1, 10**7)
    params[[pf.M_STANDING_LENGTH, pf.M_LENGTH_CAP]] = (2, 10**6)
    assert pf.runup_levels(params, 4, 5) == 5 * 3 + 1


# --- 4: deeply nested JSON in a script line ---------------------------------------------------


DEEP_LINE = "[" * 100_000 + "]" * 100_000
DEEP_REASON = "line 1 is not JSON this simulator reads: lists or objects nested too deep"


def test_sim_run_refuses_a_deeply_nested_script_line_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "deep.jsonl"
    script.write_text(
        DEEP_LINE + "\n" + '{"unit": "x", "action": "aim", "n": ' + "1" * 5000 + "}\n",
        encoding="utf-8",
    )
    assert main(["run", str(SKIRMISH), "--seed", "1", "--script", str(script), "--keep-going"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    refusals = [r for r in records if r["type"] == "refused"]
    assert refusals == [
        {"type": "refused", "line": 1, "unit": None, "action": None, "reason": DEEP_REASON},
        {
            "type": "refused",
            "line": 2,
            "unit": None,
            "action": None,
            "reason": "line 2 is not JSON this simulator reads: a number has too many digits",
        },
    ]


def test_sim_reach_and_render_refuse_a_deeply_nested_script_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "deep.jsonl"
    script.write_text(DEEP_LINE + "\n", encoding="utf-8")
    args = ["--seed", "1", "--script", str(script)]
    assert main(["reach", str(SKIRMISH), "--unit", "ana", *args]) == 0
    assert json.loads(capsys.readouterr().out)["unit"] == "ana"
    out = tmp_path / "x.png"
    assert main(["render", str(SKIRMISH), "--out", str(out), *args]) == 2
    assert capsys.readouterr().err == (
        "sim render: script line 1: not JSON this simulator reads: "
        "lists or objects nested too deep\n"
    )
    assert not out.exists()


# --- 5 and 6: Prepare -------------------------------------------------------------------------


def chain(depth: int) -> dict[str, Any]:
    then: dict[str, Any] = {"action": "aim"}
    for _ in range(depth):
        then = {"action": "prepare", "trigger": "ends_turn", "watch": "grok", "then": then}
    return {"unit": "ana", **then}


def test_a_prepared_action_cannot_be_a_prepare_however_deep() -> None:
    """Item 5 (R-P1: Prepare is the first action of a turn, and a prepared action never is)."""
    for depth in (2, 600, 5000):
        with pytest.raises(DecisionError) as caught:
            parse(chain(depth))
        assert str(caught.value) == (
            'the prepared action cannot itself be a Prepare ("then" is prepare)'
        )
    assert parse(chain(1)).name == "prepare"  # type: ignore[union-attr]


@pytest.mark.parametrize("metres", [math.nan, math.inf, -math.inf, 1e308, 10**400, -1, 1001])
def test_prepare_metres_must_be_finite_and_in_range(metres: float) -> None:
    """Item 6: NaN, infinity and 1e308 were accepted and crashed the engine when an enemy
    moved (`round(plan.metres * 2)`)."""
    line = {"unit": "ana", "action": "prepare", "trigger": "enemy_within", "metres": metres}
    with pytest.raises(DecisionError) as caught:
        parse({**line, "then": {"action": "aim"}})
    assert str(caught.value) == '"metres" must be a number from 0 to 1000'


def test_cells_in_a_decision_have_a_range() -> None:
    with pytest.raises(DecisionError) as caught:
        parse({"unit": "ana", "action": "walk", "to": [10**30, 0]})
    assert str(caught.value) == (
        '"to" cells have x and y from -1000000 to 1000000, not [1000000000000000000000000000000, 0]'
    )


# --- 7 and 8: saves ---------------------------------------------------------------------------


def a_save(tmp_path: Path) -> dict[str, Any]:
    scenario = load(SKIRMISH)
    battle = begin(scenario, 1)
    data: dict[str, Any] = json.loads(dumps(record(battle, scenario, 1)))
    return data


def write_save(tmp_path: Path, data: dict[str, Any] | str) -> Path:
    path = tmp_path / "game.json"
    text = data if isinstance(data, str) else json.dumps(data)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_save_with_a_too_long_scenario_path_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = a_save(tmp_path)
    data["scenario"]["path"] = "/" + "a" * 5000 + ".toml"
    path = write_save(tmp_path, data)
    with pytest.raises(ReplayError) as caught:
        load_save(path)
    assert str(caught.value).startswith(f"{path}: cannot replay: /aaaa")
    assert len(str(caught.value)) < 600  # the path is cut short in the message
    assert "cannot be looked up (File name too long)" in str(caught.value)
    assert main(["play", "--load", str(path), "--text"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"sim play: {path}: cannot replay: ") and "Traceback" not in err


def test_a_save_with_a_nul_in_its_scenario_path_is_refused(tmp_path: Path) -> None:
    data = a_save(tmp_path)
    data["scenario"]["path"] = "/tmp/a\u0000b.toml"
    path = write_save(tmp_path, data)
    with pytest.raises(ReplayError) as caught:
        load_save(path)
    assert (
        str(caught.value) == f"{path}: cannot replay: the scenario /tmp/a\\x00b.toml is not found"
    )


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda text: "[" * 100_000 + "]" * 100_000, "lists or objects nested too deep"),
        (lambda text: text.replace('"seed": 1', '"seed": ' + "7" * 5000), "too many digits"),
        (lambda text: text.replace('"seed": 1', '"seed": -5'), '"seed" must be from 0 to'),
    ],
)
def test_a_save_with_deep_json_or_huge_numbers_is_refused(
    tmp_path: Path, damage: Any, message: str
) -> None:
    text = json.dumps(a_save(tmp_path))
    with pytest.raises(ReplayError) as caught:
        loads(damage(text), "game.json")
    assert str(caught.value).startswith("game.json: damaged save: ")
    assert message in str(caught.value)


def test_a_save_holding_a_prepare_chain_or_nan_metres_is_refused(tmp_path: Path) -> None:
    data = a_save(tmp_path)
    data["decisions"] = [chain(600)]
    with pytest.raises(ReplayError) as caught:
        loads(json.dumps(data), "game.json")
    assert str(caught.value).startswith('game.json: decision #1 ({"unit": "ana", "action"')
    assert str(caught.value).endswith(
        'the prepared action cannot itself be a Prepare ("then" is prepare)'
    )
    nan = {"unit": "ana", "action": "prepare", "trigger": "enemy_within", "metres": math.nan}
    data["decisions"] = [{**nan, "then": {"action": "aim"}}]
    with pytest.raises(ReplayError) as caught:
        loads(json.dumps(data), "game.json")
    assert str(caught.value).endswith('"metres" must be a number from 0 to 1000')


# --- 9 and 10: sim render ---------------------------------------------------------------------


def test_render_refuses_an_item_as_a_reach_overlay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.png"
    args = ["render", str(SKIRMISH), "--out", str(out), "--overlay", "reach:ana.longsword"]
    assert main(args) == 2
    assert capsys.readouterr().err == (
        "sim render: --overlay reach:ana.longsword: there is no unit 'ana.longsword'\n"
    )
    assert not out.exists()


@pytest.mark.parametrize("size", ["0x0", "1x1", "60000x60000", "4097x800", "319x800"])
def test_render_refuses_a_size_out_of_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], size: str
) -> None:
    out = tmp_path / "x.png"
    assert main(["render", str(SKIRMISH), "--out", str(out), "--size", size]) == 2
    assert capsys.readouterr().err == (
        f"sim render: --size must be from 320x200 to 4096x4096 pixels, not {size}\n"
    )
    assert not out.exists()


def test_render_refuses_a_directory_or_an_unwritable_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", str(SKIRMISH), "--out", str(tmp_path), "--size", "320x200"]) == 2
    assert capsys.readouterr().err == (
        f"sim render: --out {tmp_path} is a directory; give the PNG file to write\n"
    )
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    out = blocker / "x.png"
    assert main(["render", str(SKIRMISH), "--out", str(out), "--size", "320x200"]) == 2
    assert capsys.readouterr().err.startswith(f"sim render: cannot write the picture to {out}: ")


def test_the_window_reports_a_save_it_cannot_load_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Items 7 and 8 in the window (F9 and the load dialog both call `saving.load`)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SIM_SAVE_DIR", str(tmp_path / "saves"))
    from sim.ui.input import saving
    from sim.ui.input.app import App
    from sim.ui.model.session import Session

    session = Session(load(SKIRMISH), 1)
    session.autosave = None
    app = App(session, (640, 400))
    before = list(app.session.battle.decisions)
    long_path = a_save(tmp_path)
    long_path["scenario"]["path"] = "/" + "a" * 5000 + ".toml"
    prepared = a_save(tmp_path)
    prepared["decisions"] = [chain(600)]
    for data, message in [
        (long_path, "cannot be looked up (File name too long)"),
        ("[" * 100_000 + "]" * 100_000, "damaged save: lists or objects nested too deep"),
        (prepared, "the prepared action cannot itself be a Prepare"),
    ]:
        path = write_save(tmp_path, data)
        saving.load(app, path)
        assert message in app.view.status and str(path) in app.view.status
        assert app.session.battle.decisions == before


# --- a --seed a save cannot hold ---------------------------------------------------------------


@pytest.mark.parametrize("seed", ["-1", str(2**63), "99999999999999999999999"])
@pytest.mark.parametrize("command", ["play", "run", "render", "reach"])
def test_every_command_refuses_a_seed_a_save_cannot_hold(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    seed: str,
) -> None:
    """A save holds a seed from 0 to 2^63 - 1: a game begun with another could be autosaved but
    never loaded again, so `--seed` takes the same range, and nothing is written."""
    monkeypatch.setenv("SIM_SAVE_DIR", str(tmp_path / "saves"))
    extra = {
        "play": ["--text"],
        "run": ["--state", str(tmp_path / "state.json")],
        "render": ["--out", str(tmp_path / "x.png")],
        "reach": ["--unit", "ana"],
    }[command]
    with pytest.raises(SystemExit) as stopped:
        main([command, str(SKIRMISH), "--seed", seed, *extra])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(
        f"sim {command}: error: argument --seed: must be a whole number from 0 to "
        f"9223372036854775807, not {seed}\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_largest_seed_a_save_holds_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(SKIRMISH), "--seed", str(2**63 - 1)]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["seed"] == 2**63 - 1


# --- held and carried lists: bounded, one line, linear -------------------------------------


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("held = " + json.dumps(["dagger"] * 8000), "held must name at most 100 items, not 8000"),
        (
            "carried = " + json.dumps(["dagger"] * 101),
            "carried must name at most 100 items, not 101",
        ),
        (
            "held = " + json.dumps(["dagger"] * 100),
            "'ana' cannot hold dagger: only 0 hand(s) free (R-C7)",
        ),
    ],
)
def test_held_and_carried_lists_are_bounded_with_one_problem_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str, message: str
) -> None:
    """A list of thousands of items was checked item by item (8,000 held daggers printed 8,000
    lines). Past 100 names it is one problem on its line; within it, the hands' problem (R-C7)
    is said once, at the first item that does not fit."""
    path = tmp_path / "many.toml"
    path.write_text(with_ana(extra), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"{path}:24: {message}"]


def test_naming_many_carried_items_takes_linear_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """100 carried daggers are ana.dagger, ana.dagger2 ... ana.dagger100, as before, but found
    without looking at every earlier name again for each (20,000 took 58 s)."""
    from sim.core.world import World

    looks = 0
    exists = World.exists

    def counted(self: World, entity: str) -> bool:
        nonlocal looks
        looks += 1
        return exists(self, entity)

    monkeypatch.setattr(World, "exists", counted)
    scenario = load_scenario(with_ana("carried = " + json.dumps(["dagger"] * 100)), "many.toml")
    gear = scenario.world.need("ana", Gear)
    assert gear.carried == ("ana.dagger", *(f"ana.dagger{n}" for n in range(2, 101)))
    assert looks < 1000  # each earlier name looked at again would be about 5,000


def test_an_abilities_list_repeating_names_is_one_problem_per_name() -> None:
    """R-X20: 3,000 copies of a known and an unknown name were 5,999 identical lines."""
    extra = "abilities = " + json.dumps(["mend"] * 3000 + ["zap"] * 3000)
    found = problems(with_ana(extra))
    assert found[0] == "bad.toml:24: ability 'mend' is listed twice"
    assert found[1].startswith("bad.toml:24: unknown ability 'zap' in abilities (known: ")
    assert len(found) == 2


# --- values in messages are shown as the JSON a script or save holds ---------------------------


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (
            '{"unit": "ana", "action": "walk", "to": [true, 1]}',
            '"to" is a cell [x, y], not [true, 1]',
        ),
        (
            '{"unit": "ana", "action": "walk", "to": [NaN, 1]}',
            '"to" is a cell [x, y], not [NaN, 1]',
        ),
        (
            '{"unit": "ana", "action": "walk", "path": [[1, null]]}',
            '"path" cells are [x, y] (or [x, y, "jump"] for a cell entered by a jump), '
            "not [1, null]",
        ),
        (
            '{"unit": "ana", "action": "prepare", "trigger": "enters_area", "cells": [[4, 2], '
            '[false, 2]], "then": {"action": "aim"}}',
            '"cells" is the area the plan watches, a list of cells [x, y]; [false, 2] is not a '
            "cell",
        ),
        ('{"unit": "ana", "action": "fly"}', 'unknown action "fly"'),
    ],
)
def test_a_bad_cell_or_name_is_shown_as_json_not_python(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, reason: str
) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text(line + "\n", encoding="utf-8")
    assert main(["run", str(SKIRMISH), "--seed", "1", "--script", str(script), "--keep-going"]) == 0
    refused = [json.loads(out) for out in capsys.readouterr().out.splitlines()][-1]
    assert refused["type"] == "refused" and refused["reason"] == reason


def test_a_save_refusal_shows_the_decision_as_json(tmp_path: Path) -> None:
    data = a_save(tmp_path)
    data["decisions"] = [
        {"unit": "ana", "action": "end_turn"},
        {"unit": "ana", "action": "walk", "to": [True, 1]},
    ]
    with pytest.raises(ReplayError) as caught:
        loads(json.dumps(data), "game.json")
    assert str(caught.value) == (
        'game.json: decision #2 ({"unit": "ana", "action": "walk", "to": [true, 1]}): '
        '"to" is a cell [x, y], not [true, 1]'
    )


def test_an_engine_failure_on_replay_is_told_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save the engine fails on (an engine changed since) names the decision as JSON and says
    what happened, not a Python repr of the exception."""
    from sim.play.engine import Battle

    data = a_save(tmp_path)
    data["decisions"] = [{"unit": "ana", "action": "end_turn"}]
    data["events"], data["log_sha256"] = -1, ""
    path = write_save(tmp_path, data)

    def broken(self: Battle, decision: object) -> None:
        raise KeyError("'ana' has no Health")

    monkeypatch.setattr(Battle, "submit", broken)
    with pytest.raises(ReplayError) as caught:
        load_save(path)
    assert str(caught.value) == (
        f'{path}: decision #1 ({{"unit": "ana", "action": "end_turn"}}) fails on replay: the '
        "engine stopped on it ('ana' has no Health); it changed since the save"
    )


def test_render_writes_only_png_names_into_existing_directories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--out o.txt` wrote a Targa image under a name the docs promise is a PNG, and a missing
    directory was made silently: both are refused, nothing written."""
    base = ["render", str(SKIRMISH), "--size", "320x200", "--out"]
    out = tmp_path / "o.txt"
    assert main([*base, str(out)]) == 2
    assert capsys.readouterr().err == (
        f"sim render: --out {out}: give a file name ending in .png (a PNG is written)\n"
    )
    missing = tmp_path / "maps" / "o.png"
    assert main([*base, str(missing)]) == 2
    assert capsys.readouterr().err == (
        f"sim render: --out {missing}: there is no directory {tmp_path / 'maps'}; make it first\n"
    )
    assert list(tmp_path.iterdir()) == []
    upper = tmp_path / "O.PNG"
    assert main([*base, str(upper)]) == 0
    assert upper.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
