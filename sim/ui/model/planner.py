"""What the client shows before a move is committed (no pygame): the reach map, the hovered
path with waypoints, its cheapest action, metres, budget left and the provocations on the way,
the cells enemies threaten and who can hit a cell, and which creatures a side may see."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from sim.core import actions as a
from sim.core.actions import Cost, Refusal
from sim.core.components import Budget, Conditions, Position, Stats, Team
from sim.core.condition import Condition
from sim.core.creature import cells_of, conditions, creatures, incapacitated, team_of
from sim.core.geometry import Pos, footprint
from sim.core.grid import Kind
from sim.core.world import World
from sim.play.engine import Battle
from sim.rules.budget import given_back
from sim.rules.movement.climb import ClimbPlan, plan_climb
from sim.rules.movement.footing import Gait, mover, terrain_view
from sim.rules.movement.jump import jump_reach
from sim.rules.movement.movement import allowance, plan_move
from sim.rules.reach.fields import distance_field
from sim.rules.reach.opportunity import Provocation, foreseen
from sim.rules.reach.reachmap import ORDER, Hang, ReachCell, reach_map
from sim.rules.reach.threat import reaches, threatened

MOVES: dict[str, type[a.Movement]] = {kind.name: kind for kind in ORDER}
# The client's name for a Swim under the surface (R-M8 Decision: diving), offered beside the
# Movement Actions; the decision it makes is a Swim with "submerged".
DIVE = "dive"


# --- sight -------------------------------------------------------------------------------------


def unseen_names(world: World, unit: str) -> tuple[str, ...]:
    """Who does not see `unit`: the "unseen" condition's creatures ("all" when it names none)."""
    held = conditions(world, unit)
    if not held.has(Condition.UNSEEN):
        return ()
    return held.creatures(Condition.UNSEEN) or ("all",)


def hidden_from(world: World, unit: str, side: str | None) -> bool:
    """Whether a creature is hidden from the player of `side` (None: sees everything)."""
    if side is None or team_of(world, unit) == side:
        return False
    names = unseen_names(world, unit)
    if not names:
        return False
    if "all" in names or side in names:
        return True
    members = [c for c in creatures(world) if team_of(world, c) == side]
    return bool(members) and all(m in names for m in members)


def visible(world: World, side: str | None) -> tuple[str, ...]:
    """The creatures the player of `side` sees, kept until a team or a condition changes (every
    frame asks it, a hover several times)."""
    return world.memo(
        ("ui.visible", side),
        lambda: tuple(c for c in creatures(world) if not hidden_from(world, c, side)),
        reads=(Team, Stats, Conditions),
    )


# --- threats -----------------------------------------------------------------------------------


def threat_map(world: World, teams: tuple[str, ...], side: str | None) -> dict[Pos, list[str]]:
    """Every cell creatures of `teams` threaten, with who (those `side` can see)."""
    out: dict[Pos, list[str]] = {}
    for unit in visible(world, side):
        if team_of(world, unit) in teams and not incapacitated(world, unit):
            for cell in threatened(world, unit):
                if world.grid.kind(cell) is not Kind.WALL:  # nobody stands in a wall
                    out.setdefault(cell, []).append(unit)
    return out


def who_can_hit(
    world: World, cell: Pos, side: str | None, *, wide: int = 1, mover: str | None = None
) -> tuple[str, ...]:
    """The creatures (that `side` sees) whose melee reach covers a creature `wide` cells wide
    whose top-left is `cell` (R-Z3: any of its cells), other than `mover` (the creature that
    would stand there) and those on its cells."""
    spot = footprint(cell, wide)
    out = []
    for unit in visible(world, side):
        if unit == mover or incapacitated(world, unit):
            continue
        if any(here in spot for here in cells_of(world, unit)):
            continue
        at = world.need(unit, Position).cell
        if reaches(world, unit, at, cell, target_side=wide):
            out.append(unit)
    return tuple(out)


def teams(world: World) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t.name for _, t in world.each(Team)))


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PathPlan:
    """A path the player is looking at, and what committing it would do."""

    unit: str
    cells: tuple[Pos, ...]  # after the start
    jumps: tuple[int, ...]
    action: str | None  # the cheapest Movement Action that accepts it
    cost: Cost | None
    metres: float
    half_left: int
    bonus_left: int
    provocations: tuple[Provocation, ...]
    refusal: str = ""
    submerged: bool = False  # a dive: a Swim under the surface (R-M8)
    hang: Hang | None = None  # a Climb that stops part-way: where it leaves the climber (R-M7)

    def decision(self, slow: bool = False, quicken: bool = False) -> a.Movement | None:
        if self.action is None:
            return None
        kind = MOVES[self.action]
        move = kind(self.unit, self.cells, None, self.jumps, slow=slow, quicken=quicken)
        return (
            replace(move, submerged=True) if isinstance(move, a.Swim) and self.submerged else move
        )


class Planner:
    """Reach maps and paths for one battle, computed once per state and selection."""

    def __init__(self) -> None:
        self._reach_key: tuple[object, ...] | None = None
        self._reach: Mapping[Pos, ReachCell] = {}
        self._plan_key: tuple[object, ...] | None = None
        self._plan: PathPlan | None = None
        self._fields: dict[tuple[object, ...], object] = {}
        # What a Movement Action of each kind costs this state, once the engine has taken one
        # path of the reach map by it: (kind, slow, quicken, dive) -> Cost.
        self._priced: dict[tuple[object, ...], Cost] = {}

    def reach(
        self, battle: Battle, version: int, unit: str, only: str | None
    ) -> Mapping[Pos, ReachCell]:
        key = (version, unit, only)
        if key != self._reach_key:
            dive = only == DIVE
            kinds = (a.Swim,) if dive else tuple(k for k in ORDER if only in (None, k.name))
            world = battle.world
            try:
                self._reach = (
                    # R-B5: during an Extended Action a move is paid from the turn given back.
                    reach_map(
                        world, unit, kinds, submerged=dive, budget=given_back(world, a.Walk(unit))
                    )
                    if world.has(unit, Budget)
                    else {}
                )
            except Exception:  # a core bug must not take the client down: no overlay instead
                self._reach = {}
            self._reach_key = key
            self._fields = {}
            self._priced = {}
        return self._reach

    def plan(
        self,
        battle: Battle,
        version: int,
        unit: str,
        target: Pos,
        waypoints: tuple[Pos, ...],
        only: str | None,
        slow: bool,
        quicken: bool,
        disengage: bool = False,
    ) -> PathPlan | None:
        """The path to `target` through the waypoints, and what committing it would do
        (`disengage`: after a Disengage taken first)."""
        key = (version, unit, target, waypoints, only, slow, quicken, disengage)
        if key == self._plan_key:
            return self._plan
        self._plan_key = key
        reach = self.reach(battle, version, unit, only)
        steps = self._steps(battle.world, reach, unit, target, waypoints)
        if steps is None and only is not None and not waypoints:
            self._plan = self._why_not(battle, unit, target, only, slow, quicken)
        elif steps is None or isinstance(steps, PathPlan):
            self._plan = steps
        else:
            found = reach.get(target) if not waypoints else None
            hint = found.action if found is not None else None
            self._plan = self._judge(
                battle, unit, steps, hint, only, slow, quicken, found, disengage
            )
        return self._plan

    def _steps(
        self,
        world: World,
        reach: Mapping[Pos, ReachCell],
        unit: str,
        target: Pos,
        waypoints: tuple[Pos, ...],
    ) -> list[tuple[Pos, bool]] | PathPlan | None:
        """The cells from the unit to `target` through the waypoints (the reach map's path for
        the first leg when it has one); a refused plan when a later leg has no path."""
        start = world.need(unit, Position).cell
        if target == start:
            # Hanging on a face, its own cell is in the reach map: a Climb back down (R-M7).
            found = reach.get(target) if not waypoints else None
            return list(found.path) if found is not None else None
        steps: list[tuple[Pos, bool]] = []
        here = start
        for i, stop in enumerate((*waypoints, target)):
            if stop == here:
                continue
            leg: tuple[tuple[Pos, bool], ...] | None
            if i == 0 and stop in reach:
                leg = reach[stop].path
            else:
                leg = self._leg(world, unit, here, stop)
                if leg is None:
                    if not waypoints:
                        return None
                    return self._refused(unit, steps, f"no path from {here} to {stop}")
            steps.extend(leg)
            here = stop
        return steps or None

    def _judge(
        self,
        battle: Battle,
        unit: str,
        steps: list[tuple[Pos, bool]],
        hint: str | None,
        only: str | None,
        slow: bool,
        quicken: bool,
        found: ReachCell | None = None,
        disengage: bool = False,
    ) -> PathPlan:
        """The cheapest Movement Action (the reach map's `hint` first) that takes the path.

        The path to a cell of the reach map, by the action the map found for it, is put to the
        engine's check once per kind and state: the reach map and the move check agree
        (tests/rules/reach/test_reach_property.py; `sim.play.legal` lists moves on the same ground),
        so the next cells of that kind take its cost and the map's metres without a check per hover.
        A Climb, whose checks read the face it is aimed at, is checked every time."""
        world = battle.world
        cells = tuple(p for p, _ in steps)
        jumps = tuple(i for i, (_, jumped) in enumerate(steps) if jumped)
        dive = only == DIVE
        kinds = [MOVES[hint]] if hint else []
        kinds += [k for k in ORDER if only in (None, k.name) and k not in kinds]
        if dive:
            kinds = [a.Swim]
        first_refusal = ""
        for kind in kinds:
            action = kind(unit, cells, None, jumps, slow=slow, quicken=quicken)
            if isinstance(action, a.Swim) and dive:
                action = replace(action, submerged=True)
            mapped = found is not None and found.action == kind.name and kind is not a.Climb
            priced = (kind, slow, quicken, dive)
            kept = self._priced.get(priced) if mapped else None
            if kept is not None and found is not None:
                return self._plan_of(
                    world, unit, cells, jumps, kind, kept, found.metres, dive, None, disengage
                )
            cost = battle.check(action)
            if isinstance(cost, Refusal):
                # The rules name the Movement Action in most refusals now (R-M1: "walk: 3 m
                # allowed ..."); it is said once.
                said = cost.reason
                if not said.startswith(f"{kind.name}:"):
                    said = f"{kind.name}: {said}"
                first_refusal = first_refusal or said
                continue
            if mapped:
                self._priced[priced] = cost
            hang: Hang | None = None
            if isinstance(action, a.Climb):
                # R-M7: a Climb is planned by the climb rules; one that does not reach the
                # end of the face this action hangs part-way, in the cell below it.
                climbed = plan_climb(world, action)
                metres = climbed.metres if isinstance(climbed, ClimbPlan) else 0.0
                if isinstance(climbed, ClimbPlan) and climbed.face is not None:
                    hang = Hang(climbed.end, climbed.elevation, climbed.face)
            else:
                planned = plan_move(world, action)
                metres = planned.cost / 2 if not isinstance(planned, Refusal) else 0.0
            return self._plan_of(
                world, unit, cells, jumps, kind, cost, metres, dive, hang, disengage
            )
        if only == "climb" and len(cells) > 1:
            first_refusal = (
                "climb: a climb goes up or down one face to a neighbouring cell; "
                "stand next to the face first (R-M7)"
            )
        return self._refused(unit, steps, first_refusal or "no Movement Action can take this path")

    def _plan_of(
        self,
        world: World,
        unit: str,
        cells: tuple[Pos, ...],
        jumps: tuple[int, ...],
        kind: type[a.Movement],
        cost: Cost,
        metres: float,
        dive: bool,
        hang: Hang | None = None,
        disengage: bool = False,
    ) -> PathPlan:
        """The plan of a move `kind` takes at `cost`; a climb that stops part-way (`hang`)
        leaves its first cell from up the face (R-M7), which is what may provoke; after a
        Disengage (`disengage`) nothing does (R-R5)."""
        budget = given_back(world, kind(unit)) or world.need(unit, Budget)
        return PathPlan(
            unit,
            cells,
            jumps,
            kind.name,
            cost,
            metres,
            budget.half - cost.half,
            budget.bonus - cost.bonus,
            foreseen(world, unit, kind, cells, dive=dive, hang=hang, disengaged=disengage or None),
            submerged=dive,
            hang=hang,
        )

    def _why_not(
        self, battle: Battle, unit: str, target: Pos, only: str, slow: bool, quicken: bool
    ) -> PathPlan | None:
        """With one Movement Action chosen, a cell it has no path to: the engine's reason for
        refusing that action there (a climb to a face that is not beside the climber, say), so
        a click never does nothing without a word."""
        if target == battle.world.need(unit, Position).cell:
            return None
        kind = a.Swim if only == DIVE else MOVES[only]
        action = kind(unit, (), target, (), slow=slow, quicken=quicken)
        if isinstance(action, a.Swim) and only == DIVE:
            action = replace(action, submerged=True)
        cost = battle.check(action)
        if not isinstance(cost, Refusal):
            return None
        return PathPlan(unit, (target,), (), None, None, 0.0, 0, 0, (), f"{only}: {cost.reason}")

    def _refused(self, unit: str, steps: list[tuple[Pos, bool]], reason: str) -> PathPlan:
        cells = tuple(p for p, _ in steps)
        jumps = tuple(i for i, (_, j) in enumerate(steps) if j)
        return PathPlan(unit, cells, jumps, None, None, 0.0, 0, 0, (), reason)

    def _leg(
        self, world: World, unit: str, here: Pos, stop: Pos
    ) -> tuple[tuple[Pos, bool], ...] | None:
        """The cheapest striding path between two cells (for legs after a waypoint)."""
        key = (unit, here)
        field = self._fields.get(key)
        if field is None:
            m = mover(world, unit)
            limit = allowance(world, unit, a.Sprint)
            view = terrain_view(world, unit)  # a large creature's footprint (R-Z2)
            jr = jump_reach(world, unit, m)
            field = distance_field(view, m, Gait.STRIDE, here, limit, jr)
            self._fields[key] = field
        try:
            if field.cost(stop) is None:  # type: ignore[attr-defined]
                return None
            return field.path_to(stop)  # type: ignore[attr-defined, no-any-return]
        except (ValueError, IndexError):
            return None
