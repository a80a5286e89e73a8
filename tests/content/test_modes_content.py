"""Movement modes in content (R-Z5): `fly`, `swim` and `climb` on races, templates and units,
checked with the file and line; listed by `sim check`; kept by a Tiled export and import."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.cli.main import main
from sim.content.scenario import ScenarioError, load, loads
from sim.content.tiled import to_scenario, write_tmx
from sim.core.components import Body

SCENARIO = """\
name = "wings"
[map]
rows = \"\"\"
.....
.a_b.
.....
\"\"\"
[templates.griffin]
based_on = "orc_brute"
fly = 12

[races.merfolk]
speed = 6
height = 1.7
swim = 8

[[units]]
id = "ana"
team = "blue"
template = "griffin"
at = "a"

[[units]]
id = "bob"
team = "red"
template = "orc_brute"
race = "merfolk"
climb = 4
at = "b"
"""


def test_R_Z5_races_templates_and_units_give_the_speeds() -> None:
    world = loads(SCENARIO).world
    assert world.need("ana", Body).modes == (("fly", 12),)
    assert world.need("bob", Body).modes == (("swim", 8), ("climb", 4))


def test_R_Z5_a_unit_s_speed_replaces_its_template_s() -> None:
    text = SCENARIO.replace('template = "griffin"\nat', 'template = "griffin"\nfly = 0\nat')
    assert loads(text).world.need("ana", Body).modes == ()


@pytest.mark.parametrize(
    ("old", "new", "line", "said"),
    [
        ("fly = 12", "fly = 12.5", 10, "templates.griffin: fly must be a speed in whole metres"),
        ("swim = 8", "swim = -1", 15, "races.merfolk: swim must be a speed in whole metres"),
        ("climb = 4", "climb = 51", 28, "climb must be a speed in whole metres"),
        ("climb = 4", 'climb = "4"', 28, "climb must be a speed in whole metres"),
    ],
)
def test_R_Z5_a_speed_that_is_not_whole_metres_0_to_50_is_named_with_its_line(
    old: str, new: str, line: int, said: str
) -> None:
    with pytest.raises(ScenarioError) as caught:
        loads(SCENARIO.replace(old, new), "wings.toml")
    message = str(caught.value)
    assert f"wings.toml:{line}: {said} from 0 to 50, not " in message
    assert message.endswith("(R-Z5)")


def test_R_Z5_only_a_flier_may_begin_over_a_pit() -> None:
    text = SCENARIO.replace(".a_b.", ".._b.").replace('at = "a"', "at = [2, 1]")
    assert loads(text).world.need("ana", Body).fly == 12
    walker = text.replace('template = "griffin"', 'template = "orc_brute"')
    with pytest.raises(ScenarioError, match=r"unit 'ana' stands in pit at \(2,1\)"):
        loads(walker)


def test_R_Z5_sim_check_lists_the_speeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "wings.toml"
    path.write_text(SCENARIO)
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"templates: griffin ({path}:8, based on orc_brute, fly 12 m)" in out
    assert f"races: merfolk ({path}:12, swim 8 m)" in out
    assert "movement modes: ana fly 12 m, bob swim 8 m, climb 4 m" in out


def test_R_Z5_a_tiled_export_and_import_keeps_the_speeds(tmp_path: Path) -> None:
    path = tmp_path / "wings.toml"
    path.write_text(SCENARIO)
    write_tmx(path, tmp_path / "wings.tmx")
    text, warnings = to_scenario(tmp_path / "wings.tmx")
    assert warnings == []
    before, after = load(path), loads(text)
    assert after.world == before.world
    assert after.world.need("bob", Body).modes == (("swim", 8), ("climb", 4))
