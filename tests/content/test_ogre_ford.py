"""Issue #32's shipped example, scenarios/ogre_ford.toml with its pack
scenarios/packs/river_monsters.toml: `sim check` lists the pack's content with sizes and
movement modes; with loaded dice a bat swarm flies over the ravine and the channel (R-Z5 fly),
the river beast's Swim covers its swim speed (R-Z5 swim), the 2x2 ogre stands on the cairn
(R-Z1) and the swarm's screech works as its pack says; and the AI plays every creature's mode."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from sim.ai.seats import play as ai_play
from sim.ai.seats import players, take_seats
from sim.cli.main import main
from sim.content.scenario import load
from sim.core import events as ev
from sim.core.actions import EndTurn
from sim.core.components import Position
from sim.core.creature import cells_of
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.formats.replay import begin as seeded
from sim.rules.objectives import Reach
from sim.rules.reach.reachmap import reach_map
from sim.tools.batch import Taken, game_seed
from tests.content.test_shipped_scenarios import SCENARIOS, begin, play
from tests.helpers import conditions_of, hp

FORD = SCENARIOS / "ogre_ford.toml"
# Initiative with no ties (AGI die results in file order: ana, bram, lia, pip, grum, flit,
# flap, maw): flit 12, flap 9, maw 8, grum 7, pip 6, bram 5, ana 4, lia 3.
FLIT_FIRST = [1, 2, 1, 3, 3, 8, 5, 5]


def test_sim_check_lists_the_packs_content_with_sizes_and_modes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(FORD)]) == 0
    pack = f"{SCENARIOS}/packs/river_monsters.toml"
    assert capsys.readouterr().out.splitlines() == [
        f"{FORD}: ok",
        f"  templates: river_ogre ({pack}:67, based on orc_brute, size 2 (2×2)), "
        f"bat_swarm ({pack}:75, fly 12 m), river_beast ({pack}:85, swim 10 m)",
        f"  races: ogrekin ({pack}:7, size 2 (2×2)), bat ({pack}:12, fly 12 m), "
        f"rivermaw ({pack}:17, swim 10 m)",
        f"  weapons: maul ({pack}:24), fangs ({pack}:30), jaws ({pack}:36)",
        f"  armour: river_scales ({pack}:43)",
        f"  items: ogre_brew ({pack}:49)",
        f"  abilities: screech ({pack}:56)",
        "  movement modes: flit fly 12 m, flap fly 12 m, maw swim 10 m",
        "  large creatures: grum size 2 (2×2)",
    ]


def test_the_scenarios_doc_shows_what_sim_check_lists(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/scenarios.md's "A shipped example: Ogre ford" quotes `sim check` as it is."""
    doc = (SCENARIOS.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    section = doc[doc.index("## A shipped example: Ogre ford") :]
    shown = re.search(r"```\n(scenarios/ogre_ford.toml: ok\n.*?)```", section, re.DOTALL)
    assert shown is not None
    monkeypatch.chdir(SCENARIOS.parent)
    assert main(["check", "scenarios/ogre_ford.toml"]) == 0
    assert capsys.readouterr().out == shown.group(1)


def test_R_Z5_the_bat_swarm_runs_12_m_over_the_ravine_and_the_channel() -> None:
    """flit begins above the ravine (a pit) and Runs its fly speed, 12 m, west over the 2 m
    channel to the adventurers' bank: no fall, no swim, every metre at its plain cost."""
    b = begin("ogre_ford.toml", FLIT_FIRST)
    grid = b.world.grid
    assert grid.kind(b.world.need("flit", Position).cell) is Kind.PIT
    moved = [e for e in play(b, unit="flit", action="run", to=[5, 1]) if e["type"] == "moved"]
    assert [tuple(e["end"]) for e in moved] == [(x, 1) for x in range(16, 4, -1)]
    assert all(e["cost"] == 2 for e in moved)  # 1 m each, wading water and channel alike
    assert sum(grid.water_half(Pos(*e["end"])) == 4 for e in moved) == 4  # the 2 m channel
    assert b.world.need("flit", Position).cell == Pos(5, 1)
    assert conditions_of(b, "flit") == {}


def test_R_Z5_the_river_beast_swims_its_10_m_where_speed_3_would_be_1_m() -> None:
    """maw (Speed 4, swim 10) in the channel: its Swim reaches (14,1), 4.5 m away along three
    diagonals, where R-M8's Speed/3 would give it 1 m; it stays in the water it can swim."""
    b = begin("ogre_ford.toml", FLIT_FIRST)
    play(b, unit="flit", action="end_turn")
    play(b, unit="flap", action="end_turn")
    swims = {c for c, offer in reach_map(b.world, "maw").items() if offer.action == "swim"}
    assert Pos(14, 1) in swims
    assert all(b.world.grid.water_half(c) >= 2 for c in swims)
    play(b, unit="maw", action="swim", to=[14, 1])
    assert b.world.need("maw", Position).cell == Pos(14, 1)


def test_R_Z1_the_ogre_stands_on_the_cairn_blue_must_reach() -> None:
    """The cairn is one cell, (18,6), under the ogre's 2x2 footprint: blue takes it only once
    grum has moved off it or is down."""
    scenario = load(FORD)
    (cairn,) = [o for o in scenario.objectives if isinstance(o, Reach)]
    assert cairn.team == "blue" and set(cairn.cells) == {Pos(18, 6)}
    assert set(cells_of(scenario.world, "grum")) == {Pos(18, 6), Pos(19, 6), Pos(18, 7),
                                                     Pos(19, 7)}  # fmt: skip


def test_the_swarms_screech_hurts_and_slows_as_its_pack_says() -> None:
    """screech (the pack's ability): flit's FCS Check 8 + 6 = 14 against ana's FCS Save
    1 + 7 = 8; she takes the 1d4 (3) crushing and is Slowed for a turn end."""
    b = begin("ogre_ford.toml", [*FLIT_FIRST, 8, 1, 3])
    play(b, unit="flit", action="run", to=[5, 1])  # 2 m from ana at (3,2)
    play(b, unit="flit", action="end_turn")
    while b.pending.unit != "flit":  # type: ignore[union-attr]
        play(b, unit=b.pending.unit, action="end_turn")  # type: ignore[union-attr]
    events = play(b, unit="flit", action="use", ability="screech", target="ana")
    assert [(e["unit"], e["total"]) for e in events if e["type"] == "rolled"] == [
        ("flit", 14),
        ("ana", 8),
        ("flit", 3),
    ]
    assert hp(b, "ana") == 12 - 3
    assert conditions_of(b, "ana") == {"slowed": 1}


@pytest.mark.slow
def test_the_ai_flies_the_bats_swims_the_beast_and_fights_with_the_ogre() -> None:
    """Three games AI `normal` against `normal`, as `sim batch` seeds them: the bats' moves go
    over the ravine and the channel, the beast Swims, the ogre attacks."""
    scenario = load(FORD)
    grid = scenario.world.grid
    over: Counter[str] = Counter()
    chosen: Counter[tuple[str, str]] = Counter()
    for index in range(3):
        seed = game_seed(0, index)
        battle = seeded(scenario, seed)
        seated = players({"blue": "normal", "red": "normal"}, seed)
        take_seats(battle, seated)
        taken = Taken()
        ai_play(battle, seated, report=taken)
        for event in battle.log:
            if isinstance(event, ev.Moved) and (
                grid.kind(event.end) is Kind.PIT or grid.water_half(event.end) >= 4
            ):
                over[event.unit] += 1
        chosen.update((a.actor, a.name) for a in taken.actions if not isinstance(a, EndTurn))
    assert over["flit"] + over["flap"] >= 10
    assert chosen["maw", "swim"] >= 2 and over["maw"] >= 2
    assert chosen["grum", "attack"] >= 3
