"""The map editor's model (sim/content/mapedit.py): edits, undo, and saving that keeps the file's
layout and gives back exactly the world the edits made."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from sim.content import mapedit as me
from sim.content.scenario import loads
from sim.core.geometry import Pos
from sim.core.grid import Kind

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "scenarios").glob("*.toml"))


def _same(a: me.MapState, b: me.MapState) -> bool:
    """Equal but for which file table each unit and goal came from."""

    def plain(s: me.MapState) -> me.MapState:
        return replace(
            s,
            units=tuple(replace(u, key=0, overrides=dict(u.overrides)) for u in s.units),
            goals=tuple(replace(g, key=0) for g in s.goals),
        )

    return plain(a) == plain(b)


def _reopen(source: me.Source, state: me.MapState) -> me.MapState:
    return me.open_text(me.render(source, state), source.path).state


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_loading_then_saving_a_shipped_scenario_leaves_it_byte_identical(
    path: Path, tmp_path: Path
) -> None:
    source = me.open_file(path)
    out = tmp_path / path.name
    me.save(out, me.render(source, source.state))
    assert out.read_bytes() == path.read_bytes()


def test_an_edit_keeps_the_comments_and_layout_it_did_not_touch() -> None:
    text = (ROOT / "scenarios" / "cliff_fort.toml").read_text()
    source = me.open_text(text, "cliff_fort.toml")
    state = me.paint(source.state, [Pos(6, 4)], me.set_kind(Kind.FIRE))
    out = me.render(source, state)
    assert "# the old watchtower" in out
    assert "# Heights in metres: a 1.5 m ledge (L) below the cliff" in out
    changed = [a for a, b in zip(text.split("\n"), out.split("\n"), strict=True) if a != b]
    assert changed == ["#....|....CCCC...#"]  # the one row, and nothing else
    assert "#....|^...CCCC...#" in out


def test_raising_a_cell_writes_a_heights_row_and_a_level_for_half_metres() -> None:
    source = me.open_file(ROOT / "scenarios" / "brawl.toml")
    cell = Pos(2, 2)
    state = me.paint(source.state, [cell], me.shift("height", 3))  # 1.5 m
    world = loads(me.render(source, state)).world
    assert world.grid.ground_half(cell) == 3
    assert world.grid.cell(cell).height == 1.5


def test_moving_a_unit_off_its_marker_writes_its_cell_and_puts_ground_under_the_marker() -> None:
    source = me.open_file(ROOT / "scenarios" / "cliff_fort.toml")
    ana = source.state.unit("ana")
    assert ana is not None
    state = me.move_unit(source.state, "ana", Pos(4, 4))
    out = me.render(source, state)
    assert "at = [4, 4]" in out
    scenario = loads(out)
    assert scenario.world.grid.same_as(loads(source.text).world.grid)
    assert _same(me.open_text(out).state, state)


def test_undo_and_redo_walk_the_edits_and_a_new_edit_drops_the_redo() -> None:
    source = me.open_text(me.new_text(6, 5))
    history = me.History(source.state)
    a = me.paint(
        history.state, me.rectangle(history.state, Pos(1, 1), Pos(2, 2)), me.set_kind(Kind.WALL)
    )
    assert history.push(a)
    b = me.place_unit(history.state, "orc_brute", "red", Pos(4, 3))
    assert history.push(b)
    assert not history.push(history.state)  # nothing changed: nothing to undo
    assert history.undo() and history.state == a
    assert history.undo() and history.state == source.state
    assert not history.undo()
    assert history.redo() and history.state == a
    c = me.set_info(history.state, name="Other")
    history.push(c)
    assert not history.redo()
    assert history.undo() and history.state == a


def test_flood_fill_takes_the_joined_cells_of_the_same_terrain_only() -> None:
    source = me.open_text(me.new_text(7, 5))
    state = me.paint(source.state, [Pos(3, y) for y in range(5)], me.set_kind(Kind.WALL))
    left = me.flood(state, Pos(1, 1))
    assert set(left) == {Pos(x, y) for x in (1, 2) for y in (1, 2, 3)}


def test_heights_go_in_half_metre_steps_and_never_below_zero() -> None:
    source = me.open_text(me.new_text(4, 4))
    cell = [Pos(1, 1)]
    state = me.paint(source.state, cell, me.shift("water", 1))
    assert state.at(Pos(1, 1)).water == 1
    state = me.paint(state, cell, me.shift("water", -5))
    assert state.at(Pos(1, 1)).water == 0


def test_a_new_map_with_two_teams_saves_to_a_file_sim_check_accepts(tmp_path: Path) -> None:
    source = me.open_text(me.new_text(8, 6), str(tmp_path / "new.toml"))
    state = me.place_unit(source.state, "human_fighter", "blue", Pos(1, 1))
    assert me.check(source, state) == []
    assert me.check(source, source.state)[0].message == (
        "the scenario needs at least one [[units]] table"
    )
    state = me.place_unit(state, "orc_brute", "red", Pos(6, 4))
    state = me.set_unit(state, "brute1", overrides={"held": ["spear"], "skills": {"athletics": 2}})
    out = me.render(source, state)
    me.save(tmp_path / "new.toml", out)
    scenario = loads((tmp_path / "new.toml").read_text())
    assert [c for c in scenario.world.entities() if "." not in c] == ["fighter1", "brute1"]
    assert "[[units]]" in out and "[units.skills]" not in out  # one table per unit


def test_problems_name_the_cells_they_concern() -> None:
    source = me.open_text(me.new_text(6, 5))
    state = me.place_unit(source.state, "human_fighter", "blue", Pos(2, 2))
    state = me.paint(state, [Pos(2, 2)], me.set_kind(Kind.WALL))
    problems = me.check(source, state)
    assert [p.message for p in problems] == ["unit 'fighter1' stands in wall at (2,2)"]
    assert me.problem_cells(source, state, problems) == {Pos(2, 2)}


def test_a_file_whose_map_cannot_be_drawn_is_refused_with_sim_checks_words() -> None:
    with pytest.raises(me.EditError, match=r"broken.toml:5: row 0, column 1: 'x' is not in"):
        me.open_text('name = "b"\n\n[map]\nrows = """\n.x.\n"""\n', "broken.toml")


# --- the property test -----------------------------------------------------------------------

TEMPLATES = ["human_fighter", "orc_brute", "elf_skirmisher", "halfling_medic", None]


def _random_scenario(rng: random.Random) -> str:
    """A map drawn the ways the format allows: legend entries, markers, heights and depths rows
    with levels, units placed by marker or by cell, items and objectives."""
    width, height = rng.randint(3, 9), rng.randint(3, 7)
    legend_chars = "ABCDE"
    entries = {}
    for char in legend_chars[: rng.randint(0, 5)]:
        entry = {"kind": rng.choice(["open", "difficult", "cover", "fire", "wall", "pit"])}
        for key in ("height", "water", "obstacle"):
            if rng.random() < 0.4:
                entry[key] = rng.randint(0, 6) / 2
        if rng.random() < 0.3:
            entry["climbable"] = True
        entries[char] = entry
    alphabet = list(".#,_^%~") + list(entries)
    rows = [[rng.choice(alphabet) for _ in range(width)] for _ in range(height)]
    free = [Pos(x, y) for y in range(height) for x in range(width)]
    rng.shuffle(free)
    units = []
    for n in range(rng.randint(1, 4)):
        pos = free.pop()
        marker = "abcd"[n] if rng.random() < 0.5 else None
        if marker:
            rows[pos.y][pos.x] = marker
        units.append((f"u{n}", rng.choice(["blue", "red"]), rng.choice(TEMPLATES), pos, marker))
    goal_marker = rng.random() < 0.3 and len(free) > 2
    if goal_marker:
        for _ in range(2):
            pos = free.pop()
            rows[pos.y][pos.x] = "g"
    item_marker = rng.random() < 0.4 and free
    if item_marker:
        pos = free.pop()
        rows[pos.y][pos.x] = "r"
    lines = [f'name = "Random {rng.randint(0, 999)}"', f"seed = {rng.randint(0, 99)}", ""]
    if rng.random() < 0.25:  # rows as a list of strings, which saving must keep
        lines += ["[map]", "rows = [", *(f'    "{"".join(r)}",' for r in rows), "]"]
    else:
        lines += ["[map]", 'rows = """', *("".join(r) for r in rows), '"""']
    levels = rng.random() < 0.5
    for key in ("heights", "depths"):
        if rng.random() < 0.4:
            chars = ".0123h" if levels else ".0123"
            lines += [f'{key} = """']
            lines += ["".join(rng.choice(chars) for _ in range(width)) for _ in range(height)]
            lines += ['"""']
    if levels:
        lines += ["", "[map.levels]", "h = 0.5"]
    if entries:
        lines += ["", "[legend]"]
        for char, entry in entries.items():
            inner = ", ".join(
                f"{k} = {str(v).lower() if isinstance(v, bool) else repr(v)}"
                for k, v in entry.items()
            )
            inner = inner.replace("'", '"')
            lines.append(f'"{char}" = {{ {inner} }}  # legend {char}')
    for uid, team, template, pos, marker in units:
        lines += ["", "[[units]]", f'id = "{uid}"', f'team = "{team}"']
        if template:
            lines.append(f'template = "{template}"')
        else:
            lines += [
                'race = "human"',
                'str = "d6+1"',
                'agi = "d6+1"',
                'fcs = "d6+1"',
                'res = "d6+1"',
            ]
        lines.append(f'at = "{marker}"' if marker else f"at = [{pos.x}, {pos.y}]")
        if rng.random() < 0.3:
            lines.append("hp = 5  # wounded")
    if item_marker:
        lines += ["", "[[items]]", 'kind = "rock"', 'at = "r"']
    if goal_marker:
        lines += ["", "[[objectives]]", 'kind = "reach"', f'team = "{units[0][1]}"', 'at = "g"']
    if rng.random() < 0.3:
        lines += ["", "[[objectives]]", 'kind = "survive"', f'team = "{units[0][1]}"', "rounds = 3"]
    return "\n".join(lines) + "\n"


def _random_edit(
    rng: random.Random, source: me.Source, state: me.MapState
) -> tuple[str, me.MapState]:
    cell = Pos(rng.randrange(state.width), rng.randrange(state.height))
    other = Pos(rng.randrange(state.width), rng.randrange(state.height))
    what, change = rng.choice(
        [
            ("kind", me.set_kind(rng.choice(list(Kind)))),
            ("height", me.shift("height", rng.choice([-1, 1, 2, 5]))),
            ("water", me.shift("water", rng.choice([-1, 1, 3]))),
            ("obstacle", me.shift("obstacle", rng.choice([-1, 1]))),
            ("climbable", me.set_climbable(rng.random() < 0.5)),
            ("height", me.set_level("height", rng.randint(0, 40))),
        ]
    )
    kind = rng.choice(
        ["brush", "rectangle", "flood", "place", "move", "delete", "unit", "info", "goal"]
    )
    if kind in ("brush", "rectangle", "flood"):
        kind = f"{kind} {what}"
    if kind.startswith("brush"):
        return kind, me.paint(
            state, me.brush(state, cell, rng.randint(0, 1)), change, source.locker(state)
        )
    if kind.startswith("rectangle"):
        return kind, me.paint(state, me.rectangle(state, cell, other), change, source.locker(state))
    if kind.startswith("flood"):
        return kind, me.paint(state, me.flood(state, cell), change, source.locker(state))
    if kind == "place":
        return kind, me.place_unit(
            state, rng.choice(TEMPLATES[:4]), rng.choice(["blue", "red"]), cell
        )
    if not state.units:
        kind = "info"
    unit = rng.choice(state.units) if state.units else None
    if unit is None or kind == "info":
        return "info", me.set_info(
            state,
            name=f"Map {rng.randint(0, 99)}",
            description=rng.choice(["", 'A "quoted" fight', "two\nlines"]),
            seed=rng.choice([None, rng.randint(0, 2**40)]),
        )
    if kind == "move":
        return kind, me.move_unit(state, unit.id, cell)
    if kind == "delete":
        return kind, me.delete_unit(state, unit.id)
    if kind == "unit":
        overrides = dict(unit.overrides)
        key = rng.choice(["hp", "held", "skills", "policy", "prone"])
        if key in overrides and rng.random() < 0.5:
            del overrides[key]
        else:
            overrides[key] = {
                "hp": rng.randint(1, 20),
                "held": ["dagger"],
                "skills": {"stealth": rng.randint(0, 5)},
                "policy": "never",
                "prone": True,
            }[key]
        return kind, me.set_unit(
            state, unit.id, team=rng.choice(["blue", "red", "green"]), overrides=overrides
        )
    if state.goals and rng.random() < 0.4:
        return kind, me.remove_goal(state, rng.randrange(len(state.goals)))
    return kind, me.add_goal(state, "reach", unit.team, None, cell)


@pytest.mark.slow
def test_load_edit_save_load_gives_the_world_the_edits_made() -> None:
    """Random generated maps, random edits: what the saved file loads as (by the editor, and
    by the engine's loader when `sim check` finds no problem) is the edited state."""
    rng = random.Random(14)
    applied: Counter[str] = Counter()
    loaded_by_engine = 0
    for _ in range(250):
        text = _random_scenario(rng)
        source = me.open_text(text, "random.toml")
        assert me.render(source, source.state) == text
        state = source.state
        for _ in range(rng.randint(1, 6)):
            kind, state = _random_edit(rng, source, state)
            applied[kind] += 1
        out = me.render(source, state)
        assert _same(me.open_text(out).state, state), out
        if not me.check(source, state):
            loaded_by_engine += 1
            world = loads(out).world
            for pos in world.grid.cells():
                t = state.at(pos)
                assert world.grid.kind(pos) == t.kind
                assert world.grid.ground_half(pos) == t.height
                assert world.grid.water_half(pos) == t.water
                assert world.grid.obstacle_half(pos) == t.obstacle
                assert world.grid.climbable(pos) == t.climbable
    print(f"edits applied: {dict(sorted(applied.items()))}; {loaded_by_engine} maps loaded clean")
    assert min(applied.values()) >= 10, applied
    assert len(applied) == 3 * 5 + 6  # each paint of each property, and the other edits
    assert loaded_by_engine >= 20


def test_sim_edit_refuses_what_it_cannot_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sim.cli.main import main

    assert main(["edit", "a.toml", "--new", "8x6"]) == 2
    assert "give a scenario file to edit, or --new WxH for a new map, not both" in (
        capsys.readouterr().err
    )
    assert main(["edit", "--new", "0x5"]) == 2
    assert "--new takes a size like 20x12 (1 to 1024 each), not '0x5'" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "b"\n\n[map]\nrows = """\n.x.\n"""\n')
    assert main(["edit", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:5: row 0, column 1: 'x' is not in the legend" in err


def test_sim_edit_without_a_file_opens_a_new_map_under_a_free_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sim edit` alone opens a new 20x12 map, as `--new 20x12` does; it is saved to
    new_map.toml, or new_map-2.toml when an earlier new map is there (never over it)."""
    from sim.cli.main import main
    from sim.ui.input import app, editor

    opened: list[tuple[me.Source, str | None]] = []
    monkeypatch.setattr(app, "display_problem", lambda: None)
    monkeypatch.setattr(editor, "edit", lambda source, out, **_: opened.append((source, out)) or 0)
    monkeypatch.chdir(tmp_path)
    assert main(["edit"]) == 0
    (tmp_path / "new_map.toml").write_text("an earlier map", encoding="utf-8")
    assert main(["edit"]) == 0
    assert main(["edit", "--new", "8x6"]) == 0
    outs = [out for _, out in opened]
    assert outs == ["new_map.toml", "new_map-2.toml", "new_map-2.toml"]
    sizes = [(source.state.width, source.state.height) for source, _ in opened]
    assert sizes == [(20, 12), (20, 12), (8, 6)]
    assert (tmp_path / "new_map.toml").read_text(encoding="utf-8") == "an earlier map"


@pytest.mark.slow
def test_sim_edit_without_a_display_says_so_and_writes_nothing(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    gone = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "XDG_RUNTIME_DIR")
    env = {k: v for k, v in os.environ.items() if k not in gone}
    env["PYTHONPATH"] = str(ROOT)
    out = tmp_path / "m.toml"
    done = subprocess.run(
        [sys.executable, "-m", "sim", "edit", "--new", "8x6", "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("sim edit: no display found")
    assert done.stderr.endswith("so no window can open; the editor needs one\n")
    assert done.stderr.count("\n") == 1, done.stderr  # SDL's own lines are kept off it
    assert not out.exists()


def test_a_saved_map_gets_the_umask_mode_or_keeps_the_one_it_replaces(tmp_path: Path) -> None:
    """A new map is readable as any new file is (mkstemp alone made it 0600, hidden from the
    rest of a team); a map saved over keeps the mode its owner gave it."""
    import os
    import stat

    mask = os.umask(0o022)
    try:
        new = tmp_path / "new.toml"
        me.save(new, 'name = "x"\n')
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        new.chmod(0o640)
        me.save(new, 'name = "y"\n')
        assert stat.S_IMODE(new.stat().st_mode) == 0o640
        assert new.read_text(encoding="utf-8") == 'name = "y"\n'
    finally:
        os.umask(mask)
