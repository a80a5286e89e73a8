"""The shipped scenarios show what they were made for: the brawl plays a throw that is caught,
a shove into the harbour and a grapple held and fought (R-X17, R-R6, R-X15, R-M9, R-G1, R-G2);
the river's depths, the fort's ledges and the chasm's pit shape the reach maps (R-M3, R-M6,
R-M9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.content.scenario import load
from sim.core.components import Position
from sim.core.events import to_json
from sim.core.geometry import Pos
from sim.play.decisions import parse
from sim.play.engine import Accepted, Battle
from sim.rules.reach.reachmap import reach_map
from tests.helpers import shipped

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


class FourDice:
    """Loaded dice: the given results first, then 4 on every die (a d4 can roll it too)."""

    def __init__(self, first: list[int]) -> None:
        self.first = list(first)

    def roll(self, sides: int) -> int:
        return self.first.pop(0) if self.first else min(4, sides)

    def describe(self) -> str:
        return "test dice"


def begin(name: str, first: list[int]) -> Battle:
    scenario = load(SCENARIOS / name)
    return scenario.begin(FourDice(first))


def play(b: Battle, **decision: Any) -> list[dict[str, Any]]:
    outcome = b.submit(parse(decision))
    assert isinstance(outcome, Accepted), f"{decision} refused: {outcome}"
    return [to_json(e) for e in outcome.events]


def end_turns(b: Battle, *units: str) -> None:
    for unit in units:
        play(b, unit=unit, action="end_turn")


def test_the_brawl_plays_a_caught_throw_a_shove_into_the_harbour_and_a_grapple() -> None:
    """R-X17, R-R6: ana throws a dagger at rat, who takes the hit undefended and catches it;
    R-X15, R-M9: bram shoves rat off the pier into 2 m of water, where it swims;
    R-G1, R-G2: bram grapples vex, who fails to break free."""
    # Initiative scores 10 down to 5 in this order: each die shows its score less the shipped
    # template's AGI Bonus (R-T1), whatever balancing made them.
    order = ("ana", "bram", "rat", "mira", "vex", "grok")
    score = dict(zip(order, range(10, 4, -1), strict=True))
    template = {"ana": "human_fighter", "bram": "human_fighter", "mira": "halfling_medic",
                "grok": "orc_brute", "vex": "orc_raider", "rat": "goblin_sneak"}  # fmt: skip
    in_file = ("ana", "bram", "mira", "grok", "vex", "rat")
    b = begin("brawl.toml", [score[u] - shipped(template[u], "agi")[1] for u in in_file])
    assert b.world.turn.order == order
    play(b, unit="rat", policy="ask")
    play(b, unit="ana", action="draw", item="dagger")
    play(b, unit="ana", action="throw", item="dagger", target="rat")
    play(b, unit="rat", reaction="none")
    caught = play(b, unit="rat", reaction="catch")
    assert {"type": "item_caught", "unit": "rat", "item": "ana.dagger"} in caught
    end_turns(b, "ana")
    play(b, unit="bram", action="run", to=[9, 5])
    end_turns(b, "bram", "rat", "mira", "vex", "grok", "ana")
    # Neither rat nor vex, next to bram, Interrupts his Shove and Grapple (R-R7).
    play(b, unit="rat", policy="never")
    play(b, unit="vex", policy="never")
    shoved = play(b, unit="bram", action="shove", target="rat")
    assert {"type": "pushed", "unit": "rat", "start": [9, 6], "end": [9, 7], "by": "bram"} in shoved
    assert {
        "type": "condition_gained",
        "unit": "rat",
        "condition": "swimming",
        "value": 1,
    } in shoved
    end_turns(b, "bram", "rat", "mira", "vex", "grok", "ana")
    held = play(b, unit="bram", action="grapple", target="vex")
    assert {
        "type": "condition_gained",
        "unit": "vex",
        "condition": "grappled",
        "value": "bram",
    } in held
    end_turns(b, "bram", "rat", "mira")
    fought = play(b, unit="vex", action="break_free")
    contest = next(e for e in fought if e["type"] == "contest_resolved")
    assert contest["winner"] == "bram"
    assert b.world.need("vex", Position).cell == Pos(10, 4)


def test_the_river_is_waded_where_shallow_and_swum_in_the_channel() -> None:
    """R-M9: 2 m of water is over everyone's head: no Walk or Run offers it; ana can wade into
    the 1 m water as difficult ground."""
    b = begin("river_crossing.toml", [8, 1, 1, 1, 1])  # ana first
    world = b.world
    cells = reach_map(world, "ana")
    channel = [Pos(x, y) for y in range(world.grid.height) for x in range(world.grid.width)
               if world.grid.water_half(Pos(x, y)) == 4]  # fmt: skip
    assert channel and not any(c in cells for c in channel)
    wading = [c for c in cells if world.grid.water_half(c) == 2]
    assert wading, "the 1 m water should be reachable by wading"


def test_the_fort_ledge_needs_a_jump_or_a_climb_and_the_stair_is_walked() -> None:
    """R-M3: the 1.5 m ledge is not offered to a Walk; the stair's 0.5 m steps are."""
    b = begin("cliff_fort.toml", [1, 1, 8, 1, 1])  # bram first
    world = b.world
    walk = {c.cell for c in reach_map(world, "bram").values() if c.action in ("walk", "step")}
    assert Pos(3, 5) in walk  # along the stair's foot
    ledge = {p for p in world.grid.cells() if world.grid.ground_half(p) == 3}
    assert ledge and not (ledge & walk)


def test_the_chasm_is_crossed_by_a_jump_folded_into_a_run() -> None:
    """R-M6: ana's Run reaches the far side of the 1 m wide end of the chasm with a jump."""
    b = begin("chasm.toml", [8, 1, 1, 1, 1])  # ana first
    far = reach_map(b.world, "ana")[Pos(9, 1)]
    assert far.action == "run"
    assert any(jumped for _, jumped in far.path)
