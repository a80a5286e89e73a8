"""Climbing (R-M7): up or down a climbable face by up to the AGI die size in metres, hanging
part-way when the face is higher than that, with both hands busy; a creature with a climb speed
climbs that many metres and keeps its hands free (R-Z5)."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass

from sim.core import events as ev
from sim.core.actions import Climb, Refusal
from sim.core.components import Body, Hands, Position, Stats
from sim.core.condition import Condition
from sim.core.creature import conditions, incapacitated
from sim.core.dice import Dice
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.rules.candidates import Scene
from sim.rules.combat.reactions import Ask, Reply
from sim.rules.movement.footing import mover, standing_at
from sim.rules.movement.movement import bank_problem, opportunities

Resolution = Generator[ev.Event | Ask, Reply | None, None]


@dataclass(frozen=True, slots=True)
class ClimbPlan:
    start: Pos
    end: Pos  # the cell the creature is in afterwards
    elevation: float  # metres above that cell's ground (0: standing on it)
    face: Pos | None  # the higher cell whose face it hangs on, if it stops part-way
    metres: float


def allowance_half(world: World, unit: str) -> int:
    """R-M7: up to the AGI die size in metres, in half-metres; R-Z5: a climb speed instead."""
    climb = world.need(unit, Body).climb
    return 2 * (climb or world.need(unit, Stats).attribute("agi").die)


def plan_climb(world: World, action: Climb) -> ClimbPlan | Refusal:
    unit = action.actor
    grid = world.grid
    held = conditions(world, unit)
    if held.has(Condition.GRAPPLED) or held.has(Condition.GRAPPLING):
        return Refusal(f"{unit} is in a grapple and can take no Movement Action (R-G2, R-G4)")
    if held.has(Condition.PRONE):
        return Refusal(f"{unit} is prone; it moves only by Crawl until it stands up (R-M10)")
    target = action.to if action.to is not None else (action.path[-1] if action.path else None)
    if target is None or (action.path and len(action.path) != 1):
        return Refusal('a climb needs one cell to climb to: "to": [x, y] (R-M7)')
    where = world.need(unit, Position)
    here = where.cell
    limit = allowance_half(world, unit)
    face = held.cell(Condition.HANGING)
    if face is not None:
        # Hanging part-way: on up to the top, or back down to the ground below.
        rise = grid.ground_half(face) - grid.ground_half(here)
        at = round(where.elevation * 2)
        if target == face:
            return _finish(world, unit, here, face, rise - at, limit, up=True, face=face, at=at)
        if target == here:
            down = at - _surface(world, unit, here)
            return _finish(world, unit, here, here, down, limit, up=False, face=face, at=at)
        return Refusal(
            f"{target}: hanging on the face of {face}, {unit} can climb up to {face} "
            f"or down to {here} (R-M7)"
        )
    if not here.is_adjacent(target):
        return Refusal(f"{target}: a climb goes to a neighbouring cell's face (R-M7)")
    if not grid.inside(target) or grid.kind(target) in (Kind.WALL, Kind.PIT):
        return Refusal(f"{target}: nothing there to climb to (R-M7)")
    rise = grid.ground_half(target) - grid.ground_half(here)
    if held.has(Condition.SWIMMING):
        return _out_of_water(world, unit, here, target, rise, limit)
    if rise > 0:
        if not grid.climbable(target):
            return Refusal(f"{target}: the {rise / 2:g} m face up to it cannot be climbed (R-M7)")
        return _finish(world, unit, here, target, rise, limit, up=True, face=target, at=0)
    if rise < 0:
        if not grid.climbable(here):
            return Refusal(
                f"{target}: the {-rise / 2:g} m face down from {here} cannot be climbed (R-M7)"
            )
        down = -rise - _surface(world, unit, target)
        return _finish(world, unit, here, target, down, limit, up=False, face=here, at=-rise)
    return Refusal(f"{target}: level ground; walk there instead (R-M7)")


def _surface(world: World, unit: str, cell: Pos) -> int:
    """Half-metres of water a climb down into `cell` ends on: at least waist-deep, the climber
    ends swimming at the surface (R-M8, R-M9); else it stands on the ground."""
    water = world.grid.water_half(cell)
    return water if water >= mover(world, unit).waist_half else 0


def _out_of_water(
    world: World, unit: str, here: Pos, target: Pos, rise: int, limit: int
) -> ClimbPlan | Refusal:
    """R-M8: a swimmer may begin a Climb from the water next to a climbable face; it climbs
    from the water's surface, not from the bottom. Where it cannot, the refusal says what can
    get it out there (a Step) or that nothing can, never the Climb again."""
    grid = world.grid
    surface = grid.water_half(here)  # above this cell's ground
    if rise > surface and grid.climbable(target):
        return _finish(
            world, unit, here, target, rise - surface, limit, up=True, face=target, at=surface
        )
    problem = bank_problem(world, mover(world, unit), here, target)
    if problem is None:
        return Refusal(
            f"{target}: low enough above the water to step out onto; Step out there (one "
            "straight step) (R-M8)"
        )
    return Refusal(problem)


def _finish(
    world: World,
    unit: str,
    here: Pos,
    target: Pos,
    vertical: int,
    limit: int,
    *,
    up: bool,
    face: Pos,
    at: int,
) -> ClimbPlan | Refusal:
    """Where a climb of `vertical` half-metres ends with `limit` to spend; `at` is the current
    height above the lower cell."""
    low = here if up else target
    end = target if vertical <= limit else low
    # R-M5: a creature hanging on a face holds the cell below it, so it cannot hang down into
    # a cell where another stands either.
    other = standing_at(world, unit).get(end)
    if other is not None and end != here:
        return Refusal(f"{end}: {other} is standing there (R-M5)")
    if vertical <= limit:
        return ClimbPlan(here, target, 0.0, None, vertical / 2)
    elevation = at + limit if up else at - limit
    return ClimbPlan(here, low, elevation / 2, face, limit / 2)


def check_climb(world: World, action: Climb) -> Refusal | None:
    plan = plan_climb(world, action)
    return plan if isinstance(plan, Refusal) else None


def resolve_climb(world: World, action: Climb, dice: Dice) -> Resolution:
    plan = plan_climb(world, action)
    assert isinstance(plan, ClimbPlan)
    unit = action.actor
    held = conditions(world, unit)
    # R-M7: both hands are busy; every Climb, also one that goes on from hanging, begins by
    # stowing what they hold, for free, so nothing drawn while hanging is carried up. R-Z5: a
    # creature with a climb speed keeps its hands free and its items held.
    if not world.need(unit, Body).climb:
        for item in world.need(unit, Hands).items():
            yield ev.ItemStowed(unit, item)
    # R-R4: a Climb is a Movement Action; an enemy whose reach it leaves attacks first.
    up = world.need(unit, Position).elevation
    yield from opportunities(
        world, dice, unit, plan.start, plan.end, up_here=up, up_there=plan.elevation
    )
    if incapacitated(world, unit):
        yield ev.MoveCutShort(unit, plan.start, f"{unit} was downed leaving {plan.start}")
        return
    if held.has(Condition.SUBMERGED):
        yield ev.ConditionLost(unit, Condition.SUBMERGED, "surfaced to climb out (R-M8)")
    if held.has(Condition.SWIMMING):
        yield ev.ConditionLost(unit, Condition.SWIMMING, "climbed out of the water (R-M8)")
    yield ev.Climbed(unit, plan.start, plan.end, plan.elevation, plan.metres)
    if plan.face is not None:
        yield ev.ConditionGained(unit, Condition.HANGING, plan.face)
    elif held.has(Condition.HANGING):
        yield ev.ConditionLost(unit, Condition.HANGING, "reached the end of the climb")
    if plan.face is None and _surface(world, unit, plan.end) and not held.has(Condition.SWIMMING):
        yield ev.ConditionGained(unit, Condition.SWIMMING, 1)  # R-M8: down into the water


def climb_candidates(scene: Scene, subject: None) -> Iterator[Climb]:
    """A Climb to each neighbouring cell, and, hanging on a face, back down to the cell below.
    The reach map holds only climbs that reach the top or the bottom; one that stops part-way,
    hanging, ends where it began and is listed by the cell it climbs towards."""
    for cell in (*scene.here.neighbours(), scene.here):
        yield Climb(scene.unit, to=cell)
