"""Attacks of Opportunity decided in one place, `opportunity.provoked` (R-R4, R-R5, R-R8, R-X8,
R-K2, R-M8 Decision), and everything that shows or weighs them agreeing with it.

1. The compiled twin `provoked_along` (what the AI weighs, issue #11) is the sum over
   `provocations` of the path the reach map shows, term for term in the same order: on every
   shipped map with creatures set down among their foes, and on random maps (hypothesis) with
   foes that do not see the mover, cannot pay, are down, hold a reach weapon, lie prone, swim
   under water, and a mover that has disengaged or dived.
2. On the same random maps the engine opens an Attack of Opportunity window for exactly the
   provocations `provocations` lists for the move before it is made (what the client's tips,
   its "!" marks and `sim reach` show) whose enemy can pay, in the same order.
3. Examples of each condition of the rule.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.content.scenario import load
from sim.core import actions as a
from sim.core import events as ev
from sim.core.components import Budget, Position
from sim.core.condition import Condition
from sim.core.creature import conditions, creatures, has, team_of
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.formats.replay import begin
from sim.play.apply import apply
from sim.play.engine import Accepted, Battle
from sim.play.legal import legal_decisions
from sim.rules.combat.shove import push
from sim.rules.movement.climb import ClimbPlan, plan_climb
from sim.rules.movement.footing import standing_at
from sim.rules.movement.movement import MovePlan, plan_move
from sim.rules.reach.fields import Field
from sim.rules.reach.opportunity import (
    Provocation,
    foreseen,
    held_by,
    provocations,
    provoked_along,
    provoking_cells,
    submerged_during,
    watchers,
)
from sim.rules.reach.reachmap import reach_map
from sim.rules.reach.threat import zone
from tests.helpers import accepted, give
from tests.movers import begin as begin_on
from tests.movers import creature, legend

SCENARIOS = sorted((Path(__file__).resolve().parents[3] / "scenarios").glob("*.toml"))


def _near_a_foe(world: World, unit: str, rng: random.Random) -> Pos | None:
    """An open cell next to one of `unit`'s foes, where moves away provoke."""
    taken = standing_at(world, unit)
    foes = [u for u in creatures(world) if team_of(world, u) != team_of(world, unit)]
    spots = [
        cell
        for foe in foes
        for cell in world.need(foe, Position).cell.neighbours()
        if world.grid.inside(cell)
        and world.grid.kind(cell) not in (Kind.WALL, Kind.PIT)
        and world.grid.water_half(cell) == 0
        and cell not in taken
    ]
    return rng.choice(spots) if spots else None


def test_on_shipped_maps_the_compiled_sum_is_the_sum_over_the_provocations_of_the_path() -> None:
    rng = random.Random(11)
    compared = provoking = 0
    for path in SCENARIOS:
        world = begin(load(path), 0).world
        for unit in creatures(world):
            for _ in range(2):
                spot = _near_a_foe(world, unit, rng)
                if spot is None:
                    continue
                world.set(unit, Position(spot))
                # Distinct weights per foe, so that a provocation counted for the wrong foe
                # (or twice, or left out) changes the sum.
                weights = {foe: rng.uniform(1, 9) for foe in watchers(world, unit)}
                planes: dict[int, tuple[Field, np.ndarray]] = {}
                for cell, offered in reach_map(world, unit).items():
                    field = offered.route
                    if not isinstance(field, Field):
                        continue
                    if id(field) not in planes:
                        asked = field.ground.can_end
                        planes[id(field)] = (
                            field,
                            provoked_along(world, unit, field, weights.__getitem__, asked),
                        )
                    plane = planes[id(field)][1]
                    route = tuple(p for p, _ in offered.path)
                    expected = sum(weights[p.enemy] for p in provocations(world, unit, route))
                    got = plane[field.window.local(cell)]
                    assert got == expected, (path.name, unit, spot, cell)
                    compared += 1
                    provoking += expected > 0
    print(f"compared {compared} paths, {provoking} of them provoking")
    assert compared > 1000 and provoking > 200


# --- random maps -------------------------------------------------------------------------------

# Terrain a random map is drawn from: mostly open, some of everything that changes reach or who
# sees whom: difficult ground, walls, shallow and deep water (deeper than a human is tall),
# ledges the foes reach across or not.
TERRAIN: dict[str, dict[str, Any]] = {
    ".": {},
    ",": {"kind": "difficult"},
    "#": {"kind": "wall"},
    "~": {"water": 1.0},
    "W": {"water": 2.5},
    "L": {"height": 1.5},
    "H": {"height": 3.0},
}
GROUND = ".......,#~WWLH"
FOES = ("bo", "cy", "di")


@dataclass(frozen=True)
class Case:
    battle: Battle

    def __repr__(self) -> str:  # what hypothesis prints for a failing example
        world = self.battle.world
        layers = world.grid.layers
        shown = [f"{name}=\n{layers[name]}" for name in ("kind", "height", "water")]
        units = {
            uid: (world.need(uid, Position).cell, conditions(world, uid).names())
            for uid in creatures(world)
        }
        return "Case(" + "\n".join(shown) + f"\nunits={units})"


def _near(cells: list[tuple[int, int]], at: tuple[int, int]) -> list[tuple[int, int]]:
    return [c for c in cells if c != at and max(abs(c[0] - at[0]), abs(c[1] - at[1])) <= 2]


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """ana (blue, to act) with one to three foes around her and perhaps an ally on a small
    random map, in random states: foes she is hidden from, without a Bonus Action, down, prone,
    holding a spear, under water; ana disengaged, swimming or under water."""
    w, h = draw(st.integers(4, 9)), draw(st.integers(3, 7))
    rows = [[draw(st.sampled_from(GROUND)) for _ in range(w)] for _ in range(h)]
    cells = [(x, y) for y in range(h) for x in range(w)]
    ana_at = draw(st.sampled_from(cells))
    around = _near(cells, ana_at)
    foes = FOES[: draw(st.integers(1, min(len(FOES), len(around))))]
    placed = draw(
        st.lists(st.sampled_from(around), min_size=len(foes), max_size=len(foes), unique=True)
    )
    spots = [ana_at, *placed]
    uids = ["ana", *foes]
    rest = [c for c in cells if c not in spots]
    ally: bool = draw(st.booleans())
    if rest and ally:
        uids.append("ed")
        spots.append(draw(st.sampled_from(rest)))
    grounds: dict[str, dict[str, Any]] = {}
    units = []
    for uid, (x, y), marker in zip(uids, spots, "abcde", strict=False):
        rows[y][x] = marker
        grounds[marker] = TERRAIN[draw(st.sampled_from(".W~,L"))]
        keys: dict[str, Any] = {}
        if uid in FOES:
            keys["held"] = draw(st.sampled_from([[], [], ["spear"]]))
            keys["prone"] = draw(st.sampled_from([False, False, True]))
        team = "red" if uid in FOES else "blue"
        units.append(creature(uid, team, marker, **keys))
    extra = legend(**{k: v for k, v in TERRAIN.items() if k.isalpha()}, **grounds)
    b = begin_on("\n".join("".join(r) for r in rows), *units, extra=extra, dice=(6,) * 40)
    world = b.world
    for uid in uids:
        deep = world.grid.water_half(world.need(uid, Position).cell) >= 5
        if deep and draw(st.booleans()):
            if not has(world, uid, Condition.SWIMMING):
                give(b, uid, "swimming")
            give(b, uid, "submerged")
    for foe in foes:
        state = draw(st.sampled_from(["", "", "", "no bonus", "down"]))
        if state == "no bonus":
            budget = world.need(foe, Budget)
            world.set(foe, Budget(half=budget.half, bonus=0))
        elif state == "down":
            give(b, foe, "incapacitated")
    hidden = tuple(f for f in foes if draw(st.sampled_from([False, False, True])))
    if hidden:
        give(b, "ana", "unseen", hidden)
    if draw(st.sampled_from([False, False, False, True])):
        give(b, "ana", "disengaged")
    return Case(b)


RANDOM = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)


@RANDOM
@given(cases())
def test_on_random_maps_the_compiled_twin_is_the_sum_over_the_provocations(case: Case) -> None:
    """R-R4 and the conditions of who may react: `provoked_along` (a plane per field, as the AI
    weighs moves) equals the sum over `provocations` of each path, with every foe weighed by a
    distinct power of two (a foe counted wrongly, twice or not at all changes the sum)."""
    world = case.battle.world
    weights = {foe: float(2**i) for i, foe in enumerate(FOES)}
    planes: dict[int, np.ndarray] = {}
    for cell, offered in reach_map(world, "ana").items():
        field = offered.route
        if not isinstance(field, Field) or offered.hang is not None:
            continue
        if id(field) not in planes:
            asked = field.ground.can_end
            planes[id(field)] = provoked_along(world, "ana", field, weights.__getitem__, asked)
        route = tuple(p for p, _ in offered.path)
        expected = sum(weights[p.enemy] for p in provocations(world, "ana", route))
        assert planes[id(field)][field.window.local(cell)] == expected, (cell, offered.action)


@dataclass(frozen=True, slots=True)
class Hanging:
    """Where a Climb's plan leaves the climber, as `foreseen` reads a reach map's `Hang`."""

    cell: Pos
    height: float


def _foreseen(world: World, action: a.Movement) -> list[tuple[str, Pos]]:
    """The provocations `foreseen` gives for `action` before it is made (what the tips, their
    "!" marks and `sim reach` show), along the path the move's own plan takes, of foes that can
    pay: the windows the engine should open, in order."""
    unit = action.actor
    planned: ClimbPlan | MovePlan | a.Refusal
    if isinstance(action, a.Climb):
        planned = plan_climb(world, action)
        assert isinstance(planned, ClimbPlan)
        hang = Hanging(planned.end, planned.elevation)
        found = foreseen(world, unit, a.Climb, (planned.end,), hang=hang)
    else:
        planned = plan_move(world, action)
        assert isinstance(planned, MovePlan)
        dive = isinstance(action, a.Swim) and action.submerged
        path = tuple(leg.end for leg in planned.legs)
        found = foreseen(world, unit, type(action), path, dive=dive)
    return [(p.enemy, p.cell) for p in found if p.can_react]


@RANDOM
@given(cases(), st.integers(0, 10**6))
def test_on_random_maps_the_engine_asks_what_the_tips_foresee(case: Case, pick: int) -> None:
    """R-R4, R-R8: for one of ana's legal moves, the Attack of Opportunity windows the engine
    opens (the foes' policy declines each, so the move goes on to its end) are the ones
    foreseen, enemy by enemy and cell by cell."""
    b = case.battle
    decisions = [legal.decision for legal in legal_decisions(b, slowed=False)]
    moves = [m for m in decisions if isinstance(m, a.Movement)]
    if not moves:
        return
    action = moves[pick % len(moves)]
    foreseen = _foreseen(b.world, action)
    outcome = b.submit(action)
    assert isinstance(outcome, Accepted), outcome
    asked = [
        (e.unit, e.trigger)
        for e in outcome.events
        if isinstance(e, ev.ReactionAnswered) and e.window == "attack_of_opportunity"
    ]
    cut = any(isinstance(e, ev.MoveCutShort) for e in outcome.events)
    wanted = [(enemy, f"ana is leaving {enemy}'s reach at {cell}") for enemy, cell in foreseen]
    assert asked == (wanted[: len(asked)] if cut else wanted), (action, asked, wanted)


# --- examples of each condition ----------------------------------------------------------------

DUEL = """
.......
..ao...
.......
"""


def duel(*more: str, **orc: Any) -> Battle:
    """ana (to act) beside an orc; both decline every reaction, so a move's windows are logged
    and the move goes on."""
    return begin_on(DUEL, creature("ana", "blue", "a"), creature("orc", "red", "o", **orc), *more)


def windows(events: list[dict[str, Any]]) -> list[str]:
    """Who was asked for an Attack of Opportunity, in order."""
    return [
        e["unit"]
        for e in events
        if e["type"] == "reaction_answered" and e["window"] == "attack_of_opportunity"
    ]


AWAY = (Pos(1, 1), Pos(0, 1))  # west, out of the orc's reach on the second cell


def test_R_R4_leaving_the_reach_provokes_and_the_engine_asks_the_enemy_shown() -> None:
    """R-R4: the first leg leaves the orc's reach: the tip shows it, the engine asks it."""
    b = duel()
    assert provocations(b.world, "ana", AWAY) == (Provocation(0, Pos(2, 1), "orc", True),)
    assert windows(accepted(b, unit="ana", action="walk", path=[[1, 1], [0, 1]])) == ["orc"]


def test_R_R8_an_enemy_without_the_bonus_action_is_shown_but_not_asked() -> None:
    """R-R8: without a Bonus Action the orc cannot react: the tip shows it dimmed, and the
    engine opens no window."""
    b = duel()
    b.world.set("orc", Budget(half=2, bonus=0))
    assert provocations(b.world, "ana", AWAY) == (Provocation(0, Pos(2, 1), "orc", False),)
    assert windows(accepted(b, unit="ana", action="walk", path=[[1, 1], [0, 1]])) == []


def test_R_X8_an_enemy_that_does_not_see_the_mover_provokes_nothing() -> None:
    """R-X8: ana is Unseen by the orc, so leaving its reach provokes nothing (the tip said the
    orc may attack, the engine did not ask it, before one function decided both)."""
    b = duel()
    give(b, "ana", "unseen", ("orc",))
    assert provocations(b.world, "ana", AWAY) == ()
    assert held_by(b.world, "ana") == ()
    assert windows(accepted(b, unit="ana", action="walk", path=[[1, 1], [0, 1]])) == []


def test_R_K2_a_downed_enemy_provokes_nothing() -> None:
    b = duel()
    give(b, "orc", "incapacitated")
    assert provocations(b.world, "ana", AWAY) == ()
    assert provoking_cells(b.world, "ana") == frozenset()


def test_R_R5_after_a_disengage_nothing_provokes_and_a_planned_one_is_foreseen() -> None:
    """R-R5: a move after a Disengage provokes nothing, whether it is taken already (the
    condition) or planned (`disengaged=True`, the client's Disengage toggle)."""
    b = duel()
    assert provocations(b.world, "ana", AWAY, disengaged=True) == ()
    assert held_by(b.world, "ana") == ("orc",)
    accepted(b, unit="ana", action="disengage")
    assert provocations(b.world, "ana", AWAY) == ()
    assert watchers(b.world, "ana") == ()
    assert windows(accepted(b, unit="ana", action="walk", path=[[1, 1], [0, 1]])) == []


PUSH = """
..o....
..ab...
"""


def test_R_X15_being_pushed_never_provokes() -> None:
    """R-X15, R-R4: a push out of the reach of bo (who pushes) and of the orc asks no one (it is
    no Movement Action, and only a Movement Action asks `provoked`); walked, the same cells
    provoke both."""
    b = begin_on(
        PUSH,
        creature("ana", "blue", "a"),
        creature("orc", "red", "o"),
        creature("bo", "red", "b"),
    )
    world = b.world
    assert [p.enemy for p in provocations(world, "ana", AWAY)] == ["bo", "orc"]
    pushed = []
    for item in push(world, "bo", "ana", 2):
        pushed.append(item)
        if isinstance(item, ev.Event):
            apply(world, item)  # the push reads where ana is after each cell
    assert [e.end for e in pushed if isinstance(e, ev.Pushed)] == list(AWAY)
    assert [p for p in pushed if not isinstance(p, ev.Event)] == []


BANK = """
o.....
aC....
"""
BANK_LEGEND = legend(a={"water": 2.5}, C={"height": 5.0, "climbable": True})


def bank(*, under: bool) -> Battle:
    """ana swimming in deep water (under its surface if `under`) below a climbable face, an orc
    on the bank beside her whose reach the face's top is out of."""
    b = begin_on(BANK, creature("ana", "blue", "a"), creature("orc", "red", "o"), extra=BANK_LEGEND)
    give(b, "ana", "swimming")
    if under:
        give(b, "ana", "submerged")
    return b


def test_R_M8_a_climb_out_from_under_the_water_provokes_no_one_on_the_bank() -> None:
    """R-M8 Decision, R-R4: a Climb leaves its cell before it surfaces, so from under the water
    it provokes nobody on the bank; from the surface it provokes the orc. What the client
    foresees (`submerged_during`) is what the engine asks."""
    for under, asked in ((True, []), (False, ["orc"])):
        b = bank(under=under)
        during = submerged_during(b.world, "ana", a.Climb, False)
        found = provocations(b.world, "ana", (Pos(1, 1),), submerged=during)
        assert [p.enemy for p in found] == asked
        assert windows(accepted(b, unit="ana", action="climb", to=[1, 1])) == asked


POOL = """
o....
aWW..
"""
POOL_LEGEND = legend(a={"water": 2.5}, W={"water": 2.5})
EAST = (Pos(1, 1), Pos(2, 1))


def test_R_M8_a_dive_provokes_no_one_outside_its_water() -> None:
    """R-M8 Decision: swimming east at the surface leaves the orc's reach on the second leg;
    diving (a Swim with "submerged", `submerged_during`), the orc on the bank cannot see it."""
    for dive, asked in ((True, []), (False, ["orc"])):
        b = begin_on(
            POOL, creature("ana", "blue", "a"), creature("orc", "red", "o"), extra=POOL_LEGEND
        )
        give(b, "ana", "swimming")
        under = submerged_during(b.world, "ana", a.Swim, dive)
        assert under == dive
        found = provocations(b.world, "ana", EAST, submerged=under)
        assert [(p.enemy, p.leg) for p in found] == [(e, 1) for e in asked]
        path = [[1, 1], [2, 1]]
        assert windows(accepted(b, unit="ana", action="swim", path=path, submerged=dive)) == asked


SHORE = """
.a...
oWW..
"""


def test_R_M8_a_foe_under_the_water_provokes_nothing_from_the_shore() -> None:
    """R-M8 Decision: the orc is submerged, ana walks along the shore out of its reach: neither
    sees the other, so nothing is provoked; at the surface it would be."""
    for under, asked in ((True, []), (False, ["orc"])):
        b = begin_on(
            SHORE,
            creature("ana", "blue", "a"),
            creature("orc", "red", "o"),
            extra=legend(o={"water": 2.5}, W={"water": 2.5}),
        )
        give(b, "orc", "swimming")
        if under:
            give(b, "orc", "submerged")
        world = b.world
        assert list(watchers(world, "ana")) == asked
        assert provoking_cells(world, "ana") == (zone(world, "orc") if asked else frozenset())
        assert [p.enemy for p in provocations(world, "ana", (Pos(2, 0), Pos(3, 0)))] == asked
        path = [[2, 0], [3, 0]]
        assert windows(accepted(b, unit="ana", action="walk", path=path)) == asked
