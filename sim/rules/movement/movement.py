"""Movement Actions (R-M1..R-M10, R-U2..R-U4): Step, Walk, Run, Sprint, Crawl, Swim and Jump,
checked step by step with the first failing cell and why, then resolved cell by cell."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace

from sim.core import events as ev
from sim.core.actions import Climb, Crawl, Jump, Movement, Refusal, Run, Sprint, Step, Swim, Walk
from sim.core.components import Body, Budget, Gear, Item, Position, Stats
from sim.core.condition import Condition
from sim.core.creature import conditions, has, incapacitated, side, speed, worn_armour
from sim.core.dice import Dice
from sim.core.geometry import Pos, footprint, half_metres, is_diagonal
from sim.core.grid import Kind
from sim.core.purpose import AttackKind, RollKind
from sim.core.world import World
from sim.rules.combat.attack import strike
from sim.rules.combat.health import damage
from sim.rules.combat.reactions import NONE, Ask, Reply, held_weapon, reaction_spent
from sim.rules.movement.diving import too_shallow_to_dive
from sim.rules.movement.footing import (
    Gait,
    Mover,
    is_difficult,
    is_fall,
    mover,
    standing_at,
    step_cost,
    step_problem,
    terrain_view,
    water_problem,
)
from sim.rules.movement.jump import JumpReach, heights, jump_reach, lengths, plan_jump
from sim.rules.reach.fields import distance_field, field_to
from sim.rules.reach.opportunity import provoked

Resolution = Generator[ev.Event | Ask, Reply | None, None]

GAITS: dict[type[Movement], Gait] = {
    Step: Gait.STEP,
    Walk: Gait.STRIDE,
    Run: Gait.STRIDE,
    Sprint: Gait.STRIDE,
    Crawl: Gait.CRAWL,
    Swim: Gait.SWIM,
    Jump: Gait.STRIDE,
}


# How many of its allowance a refused destination move searches for the cheapest path there,
# to say what it costs: not a rule, only how far a refusal looks (`_unreachable`).
SEARCHED_ALLOWANCES = 4


def allowance(world: World, unit: str, kind: type[Movement], roll: int | None = None) -> int:
    """Half-metres one Movement Action allows (R-M1, R-M8, R-U4). For Sprint, `roll` is the AGI
    Roll (None: the most it could be). It reads attributes, skills and Speed (the body, less
    the worn armour's penalty)."""
    numbers = world.rules.movement
    if kind is Step:
        return half_metres(numbers.step_metres)
    # What every kind's metres are worked out from, read once per creature: a reach map asks
    # five kinds (issue #31: each worked out Speed after armour and the skills again).
    pace = world.memo(("pace", unit), lambda: _pace(world, unit), reads=(Stats, Body, Gear, Item))
    if kind is Walk:
        return half_metres(pace.fast / numbers.walk_speed_divisor)
    if kind is Run:
        return half_metres(pace.fast + pace.athletics)
    if kind is Sprint:
        rolled = pace.agi_die if roll is None else roll
        return half_metres(pace.fast + pace.athletics + rolled + pace.agi_bonus)
    if kind is Crawl:
        return half_metres(pace.agi_die / numbers.crawl_die_divisor)
    if kind is Swim:
        if pace.swim:
            return half_metres(pace.swim)
        return half_metres(pace.speed / numbers.swim_speed_divisor)
    raise ValueError(kind)


@dataclass(frozen=True, slots=True)
class _Pace:
    """A creature's numbers that its Movement Actions' metres are worked out from."""

    fast: int  # R-Z5: the fly speed of a flier's Walk, Run and Sprint, else Speed after armour
    speed: int  # Speed after armour (R-C5, R-C7)
    swim: int  # R-Z5: a swim speed replaces Speed/3 for a Swim
    athletics: int
    agi_die: int
    agi_bonus: int


def _pace(world: World, unit: str) -> _Pace:
    stats = world.need(unit, Stats)
    agi = stats.attribute("agi")
    body = world.need(unit, Body)
    fast = speed(world, unit)
    return _Pace(body.fly or fast, fast, body.swim, stats.skill("athletics"), agi.die, agi.bonus)


def allowance_words(world: World, unit: str, kind: type[Movement]) -> str:
    """How `allowance` works out one Movement Action's metres, for a refusal (R-M1, R-M8): the
    Speed after armour (R-C5, R-C7), the divisor, Athletics, a Sprint's AGI Roll at most; ""
    for a Step's fixed metres."""
    numbers = world.rules.movement
    stats = world.need(unit, Stats)
    agi = stats.attribute("agi")
    body = world.need(unit, Body)
    fast = speed(world, unit)
    armour = worn_armour(world, unit)
    slowed = ""
    if kind is Swim and body.swim:
        return f"swim speed {body.swim}, R-Z5"
    if body.fly and kind in (Walk, Run, Sprint):
        fast = body.fly  # R-Z5: its fly speed, as given: no armour penalty
        athletics = stats.skill("athletics")
        runs = f"fly speed {fast}" + (f" + Athletics {athletics}" if athletics else "")
        if kind is Walk:
            return f"fly speed {fast} / {numbers.walk_speed_divisor}, R-Z5"
        if kind is Run:
            return f"{runs}, R-Z5"
        return f"{runs} + AGI Roll up to {agi.die} + AGI Bonus {agi.bonus}, R-Z5"
    if armour is not None and armour.speed_penalty:
        base = world.need(unit, Body).speed
        name = armour.name.replace("_", " ")
        slowed = f", {name} taking {armour.speed_penalty} off its Speed {base}"
    athletics = stats.skill("athletics")
    runs = f"Speed {fast}" + (f" + Athletics {athletics}" if athletics else "")
    if kind is Step:
        return ""  # a fixed number of metres (R-M1)
    if kind is Walk:
        return f"Speed {fast} / {numbers.walk_speed_divisor}{slowed}"
    if kind is Run:
        return runs + slowed
    if kind is Sprint:
        return f"{runs} + AGI Roll up to {agi.die} + AGI Bonus {agi.bonus}{slowed}"
    if kind is Crawl:
        return f"AGI die {agi.die} / {numbers.crawl_die_divisor}"
    if kind is Swim:
        return f"Speed {fast} / {numbers.swim_speed_divisor}{slowed}"
    raise ValueError(kind)


def _roughness(world: World, m: Mover, legs: tuple[Leg, ...]) -> str:
    """Why a path costs more than its length, for a refusal: the difficult cells of the steps
    that cost double (R-M2; waist-deep water is difficult, R-M9), "" when none did (a jump's
    own metres never do, R-M6, nor a swimmer's, R-M8)."""
    rough: list[Pos] = []
    for leg in legs:
        length = m.diagonal if is_diagonal(leg.start, leg.end) else m.orthogonal
        if leg.how == "jump" or leg.cost <= length:
            continue
        for cell in (leg.start, leg.end):
            if cell not in rough and is_difficult(world, m, cell):
                rough.append(cell)
    if not rough:
        return ""
    water = [c for c in rough if world.grid.kind(c) is not Kind.DIFFICULT]
    ground = [c for c in rough if c not in water]
    said = []
    for cells, what in ((ground, "difficult"), (water, f"waist-deep water for {m.unit}")):
        if cells:
            names = ", ".join(map(str, cells[:-1])) + (" and " if len(cells) > 1 else "")
            verb = "is" if len(cells) == 1 else "are"
            said.append(f"{names}{cells[-1]} {verb} {what}")
    return ": " + "; ".join(said)


def over_allowance(
    world: World, m: Mover, kind: type[Movement], legs: tuple[Leg, ...], limit: int, path: str
) -> str:
    """A Walk, Run, Sprint... whose `path` ("this path", "the cheapest path to (6,4)") costs
    more than it allows: the allowance and how it is worked out, what the path costs and why
    (its difficult cells), and where the metres run out (R-M1 or R-M8, R-M2, R-B4).

    e.g. "walk: 3 m allowed (Speed 9 / 3), this path costs 4 m: (3,2) is difficult; the
    metres run out at (4,2) (R-M1, R-M2)"."""
    cost = sum(leg.cost for leg in legs)
    rough = _roughness(world, m, legs)
    most = " at most" if kind is Sprint else ""
    worded = allowance_words(world, m.unit, kind)
    how = f" ({worded})" if worded else ""
    rule = "R-M8" if kind in (Crawl, Swim) else "R-M1"
    return (
        f"{kind.name}: {limit / 2:g} m allowed{most}{how}, {path} costs {cost / 2:g} m{rough}; "
        f"the metres run out at {_first_over(legs, limit)} "
        + (f"({rule}, R-M2)" if rough else f"({rule})")
    )


def jumps_allowed(kind: type[Movement]) -> bool:
    """R-M6: a Jump can be folded into a Walk, Run or Sprint."""
    return kind in (Walk, Run, Sprint)


# --- the plan of a move --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Leg:
    """One part of a move: a step to a neighbour, a jump along a line, or a fall off a ledge."""

    start: Pos
    end: Pos
    cost: int
    how: str  # "step", "jump" or "fall"
    grab: bool = False


@dataclass(frozen=True, slots=True)
class MovePlan:
    legs: tuple[Leg, ...]
    cost: int
    limit: int


def condition_problem(world: World, unit: str, kind: type[Movement]) -> str | None:
    """What the creature's state forbids (R-M7, R-M8, R-M10, R-G2, R-G4)."""
    held = conditions(world, unit)
    if not held.entries and kind is not Crawl and kind is not Jump:
        # No condition at all (most creatures, most turns): only a Crawl (not prone) and a
        # flier's Jump are refused below. Issue #31: a reach map asks this of eight kinds.
        return None
    if held.has(Condition.GRAPPLED):
        return f"{unit} is grappled and can take no Movement Action (R-G2)"
    if held.has(Condition.GRAPPLING):
        return f"{unit} is grappling and can take no Movement Action; let go first (R-G4)"
    if held.has(Condition.HANGING) and kind is not Jump and kind is not Climb:
        return f"{unit} is hanging mid-climb; only Climb or Jump can move it (R-M7)"
    if held.has(Condition.SWIMMING) and kind not in (Swim, Step, Climb):
        return (
            f"{unit} is swimming; it must keep swimming, Step out where its feet touch the "
            "bottom or onto a bank no higher than half its height above the water, or Climb "
            "a climbable bank beside it (R-M8)"
        )
    if held.has(Condition.PRONE) and kind is not Crawl:
        return f"{unit} is prone; it moves only by Crawl until it stands up (R-M8, R-M10)"
    if kind is Crawl and not held.has(Condition.PRONE):
        return f"{unit} must be prone to crawl (R-M8)"
    if kind is Jump and world.need(unit, Body).fly and not held.has(Condition.HANGING):
        return (
            f"{unit} flies: a Step, Walk, Run or Sprint carries it over pits, water and "
            "ledges; it does not jump (R-Z5)"
        )
    return None


def _swim_out_problem(world: World, m: Mover, a: Pos, path: tuple[Pos, ...]) -> str | None:
    """R-M8: a swimmer gets up or out with a Step: 1 m to get up, then 1 m of movement."""
    grid = world.grid
    if not path:
        if grid.water_half(a) >= m.height_half:
            return (
                f"{a}: {m.unit}'s feet do not touch the bottom here; swim to shallower water or "
                "step out onto a bank beside it (R-M8)"
            )
        return None
    if len(path) > 1 or not a.is_adjacent(path[0]) or (a.x != path[0].x and a.y != path[0].y):
        return f"{path[-1]}: out of the water a swimmer moves only 1 m (one straight step) (R-M8)"
    b = path[0]
    if not grid.inside(b):
        return f"{b}: off the map (R-U1)"
    kind = grid.kind(b)
    if kind is Kind.WALL:
        return f"{b}: a wall (R-U1)"
    if kind is Kind.PIT:
        return f"{b}: a pit; a swimmer cannot step out into it (R-M8)"
    water = water_problem(world, m, Gait.STRIDE, b)
    if water:
        return water
    other = standing_at(world, m.unit).get(b)
    if other is not None:
        return f"{b}: {other} is standing there; a move cannot end on it (R-M5)"
    if grid.water_half(b) >= m.waist_half and grid.water_half(a) >= m.height_half:
        return f"{b}: still deep water; swim there instead (R-M8)"
    return bank_problem(world, m, a, b)


def bank_problem(world: World, m: Mover, a: Pos, b: Pos) -> str | None:
    """R-M8 Decision: a place to climb out is no higher above the water's surface than half the
    swimmer's height (R-M3 measured from the surface, not from the bottom). A higher bank is
    climbed if its face can be, else the swimmer must find another way out; the refusal says
    which, so that it never sends the player back to the action that refused it."""
    grid = world.grid
    surface = grid.ground_half(a) + grid.water_half(a)
    rise = max(grid.ground_half(b) - surface, 0)
    obstacle = grid.obstacle_half(b)
    high = rise + obstacle
    if high <= m.leap_half:
        return None
    what = "an obstacle" if rise == 0 else "the bank and its obstacle" if obstacle else "the bank"
    where = f"{b}: {what} {high / 2:g} m above the water; a swimmer steps out at most " + (
        f"{m.leap_half / 2:.2g} m up"
    )
    if rise > 0 and grid.climbable(b):
        return f"{where}; climb it from the water (R-M8, R-M7)"
    return f"{where}, and it cannot be climbed; swim to a lower bank or shallower water (R-M8)"


def _explicit(
    world: World,
    action: Movement,
    m: Mover,
    gait: Gait,
    jr: JumpReach | None,
    start: Pos,
    word: str,
) -> tuple[Leg, ...] | str:
    """The legs of `action`'s path; `word` names the action taken in refusals ("Run")."""
    legs: list[Leg] = []
    here = start
    spent = 0
    covered = 0  # R-M6: run-up is metres covered, not movement spent (difficult ground)
    path = action.path
    for index, cell in enumerate(path):
        forced_jump = index in action.jumps
        adjacent = here.is_adjacent(cell)
        if cell == here:
            return f"{cell}: the path repeats a cell (R-U1)"
        if adjacent and not forced_jump:
            last = index == len(path) - 1
            problem = step_problem(world, m, gait, here, cell, allow_fall=last, action=word)
            if problem:
                return problem
            cost = step_cost(world, m, gait, here, cell)
            falls = gait is not Gait.SWIM and not m.flying(gait) and is_fall(world, m, here, cell)
            how = "fall" if falls else "step"
            legs.append(Leg(here, cell, cost, how))
        else:
            if jr is None:
                return f"{cell}: not next to {here}; a {word} cannot jump (R-M6)"
            plan = plan_jump(world, m, jr, here, cell, covered)
            if isinstance(plan, str):
                return plan
            if plan.runup_needed > covered:
                mud = (
                    f" (difficult ground gives only the {covered / 2:g} m covered, not the "
                    f"{spent / 2:g} m it cost)"
                    if spent > covered
                    else ""
                )
                return (
                    f"{cell}: this jump needs {plan.runup_needed / 2:g} m of run-up; "
                    f"{m.unit} has run {covered / 2:g} m{mud} (R-M6)"
                )
            # R-M6 Decision: the jump's own metres are paid one for one, in the air; difficult
            # ground where it takes off or lands does not double them.
            legs.append(Leg(here, cell, plan.length, "jump", plan.grabs_ledge))
        spent += legs[-1].cost
        covered += _covers(m, here, cell)
        here = cell
    return tuple(legs)


def traced(
    world: World,
    m: Mover,
    jr: JumpReach | None,
    start: Pos,
    route: tuple[tuple[Pos, bool, int], ...],
) -> tuple[Leg, ...]:
    """The legs of a path the search found (`Field.route_to`), without putting each step to
    the rules again as a written path is (`_explicit`): the search allowed every step and
    priced it, and never steps off a drop higher than the mover, so none is a fall (R-M4; a
    swimmer's step never is one either). Each jump is planned and priced as a written one is,
    for its length, cost and ledge. The same legs as
    `_explicit` gives the same path (tests/rules/reach/test_reach_property.py compares them on
    random maps); issue #11: the check of a move to a cell was mostly this second look."""
    legs: list[Leg] = []
    here = start
    covered = 0  # R-M6: run-up is metres covered, as `_explicit` counts it
    for cell, jumped, cost in route:
        if jumped:
            if jr is None:  # pragma: no cover - a search without jumps finds none
                raise AssertionError(f"{here} to {cell}: a jump where jumps are not allowed")
            plan = plan_jump(world, m, jr, here, cell, covered)
            if isinstance(plan, str):  # pragma: no cover - the search and the rules agree
                raise AssertionError(f"{here} to {cell}: {plan}")
            legs.append(Leg(here, cell, plan.length, "jump", plan.grabs_ledge))
        else:
            legs.append(Leg(here, cell, cost, "step"))
        covered += _covers(m, here, cell)
        here = cell
    return tuple(legs)


def _covers(m: Mover, a: Pos, b: Pos) -> int:
    """Half-metres of ground a leg from `a` to `b` in a straight line covers (R-M6's run-up):
    its length, whatever difficult ground made it cost."""
    per = m.diagonal if is_diagonal(a, b) else m.orthogonal
    return per * max(abs(b.x - a.x), abs(b.y - a.y))


def plan_move(world: World, action: Movement) -> MovePlan | Refusal:
    """The legs of a move and their cost, or the first cell where it fails and why (pure).
    Planned once for the check and the resolution (issue #11): the budget the check spends
    between them is the one thing a plan never reads, so it alone does not make the world
    plan again; anything else written in between (an Interrupt that downs the mover) does."""
    # A large creature's move is planned on the map its footprint meets (R-Z2).
    view = terrain_view(world, action.actor)
    return world.memo(("plan", action), lambda: _plan(view, action), ignores=(Budget,))


def _plan(world: World, action: Movement) -> MovePlan | Refusal:
    unit = action.actor
    kind = type(action)
    problem = condition_problem(world, unit, kind)
    if problem:
        return Refusal(problem)
    m = mover(world, unit)
    gait = GAITS[kind]
    word = kind.name.title()  # the action taken, for refusals: "Run", not its gait's "Walk"
    start = world.need(unit, Position).cell
    if action.path and action.path[0] == start:
        # A path may name the start cell too; the move begins after it.
        action = replace(
            action, path=action.path[1:], jumps=tuple(i - 1 for i in action.jumps if i > 0)
        )
    if kind is Jump:
        target = action.to if action.to is not None else (action.path[-1] if action.path else None)
        if target is None or (action.path and len(action.path) != 1):
            return Refusal('a jump needs one landing cell: "to": [x, y] (R-M6)')
        return standing_jump(world, m, start, target)
    swimming = has(world, unit, Condition.SWIMMING)
    if isinstance(action, Step) and swimming and not m.flies:
        if action.to is not None and action.path:
            return Refusal('give either "path" or "to", not both (R-M1)')
        out_path = (action.to,) if action.to is not None else action.path
        legs_or = _swim_out_problem(world, m, start, out_path)
        if legs_or:
            return Refusal(legs_or)
        # R-M8 with R-M2: the metre after getting up costs double when the cell it goes to is
        # difficult ground ("if that cell is difficult"; the water it got up in is paid for by
        # the metre of getting up). The Step out is still one straight metre.
        legs = tuple(
            Leg(
                start,
                c,
                m.orthogonal * (m.difficult_factor if is_difficult(world, m, c) else 1),
                "step",
            )
            for c in out_path
        )
        factor = max((leg.cost // m.orthogonal for leg in legs), default=1)
        limit = half_metres(world.rules.movement.swim_exit_move_metres) * factor
        return MovePlan(legs, sum(leg.cost for leg in legs), limit)
    limit = allowance(world, unit, kind)
    # R-Z5: no jumps in flight.
    jr = jump_reach(world, unit, m) if jumps_allowed(kind) and not m.flies else None
    if action.to is not None and action.path:
        return Refusal('give either "path" or "to", not both (R-M1)')
    diving = isinstance(action, Swim) and action.submerged
    if diving:
        # R-M8 Decision: a dive stays in water at least as deep as the swimmer is tall; the
        # destination search sees shallower water as too shallow to swim.
        shallow = too_shallow_to_dive(world, m.height_half, action.path)
        if shallow is not None:
            return Refusal(_shallow(world, m, shallow))
        m = replace(m, waist_half=m.height_half)
    if action.to is not None:
        if action.to == start:
            return Refusal(f"{unit} is already at {start} (R-M1)")
        if not world.grid.inside(action.to):
            return Refusal(f"{action.to}: off the map (R-U1)")
        if diving and too_shallow_to_dive(world, m.height_half, (action.to,)) is not None:
            return Refusal(_shallow(world, m, action.to))  # as the same dive given by `path`
        water = water_problem(world, m, gait, action.to)
        if water is not None:  # over the head: say to swim, as a `path` there would (R-M9)
            return Refusal(water)
        field = field_to(world, m, gait, start, limit, jr, action.to)
        cost = field.cost(action.to)
        if cost is None or not field.can_end(action.to):
            return Refusal(_unreachable(world, action, m, gait, jr, start))
        legs_or_problem: tuple[Leg, ...] | str = traced(
            world, m, jr, start, field.route_to(action.to)
        )
    else:
        if not action.path:
            return Refusal(f'a {kind.name} needs a "path" of cells or a destination "to" (R-M1)')
        legs_or_problem = _explicit(world, action, m, gait, jr, start, word)
    if isinstance(legs_or_problem, str):
        return Refusal(legs_or_problem)
    legs = legs_or_problem
    cost = sum(leg.cost for leg in legs)
    end = legs[-1].end
    other = standing_at(world, unit).get(end)
    if other is not None and kind is not Crawl:
        return Refusal(f"{end}: {other} is standing there; a move cannot end on it (R-M5)")
    if cost > limit:
        return Refusal(over_allowance(world, m, kind, legs, limit, "this path"))
    return MovePlan(legs, cost, limit)


def _shallow(world: World, m: Mover, cell: Pos) -> str:
    depth = world.grid.water_half(cell) / 2
    return (
        f"{cell}: water {depth:g} m deep is shallower than {m.unit} is tall "
        f"({m.height_half / 2:g} m); a swimmer dives only in water at least that deep (R-M8)"
    )


def _first_over(legs: tuple[Leg, ...], limit: int) -> Pos:
    spent = 0
    for leg in legs:
        spent += leg.cost
        if spent > limit:
            return leg.end
    return legs[-1].end


def _unreachable(
    world: World,
    action: Movement,
    m: Mover,
    gait: Gait,
    jr: JumpReach | None,
    start: Pos,
) -> str:
    """Why a move to `action.to` is refused when its search found no way to end there within
    the allowance: someone stands there (R-M5), no path at all, or what the cheapest one
    costs against what the action allows."""
    to = action.to
    assert to is not None
    other = standing_at(world, action.actor).get(to)
    if other is not None:
        return f"{to}: {other} is standing there; a move cannot end on it (R-M5)"
    if isinstance(action, Swim) and action.submerged:
        # The deep water may be cut off by shallower water the dive cannot pass (R-M8).
        return (
            f"{to}: no path a dive can take gets there this action (it stays in water at least "
            f"as deep as {action.actor} is tall) (R-M8)"
        )
    kind = type(action)
    # Only a refused move searches further, as far as a few of the action's allowance, to say
    # what the cheapest path there costs against what the action allows (a search of the whole
    # of a large map would keep a player waiting for the words).
    limit = allowance(world, action.actor, kind)
    further = max(limit, m.orthogonal) * SEARCHED_ALLOWANCES
    field = distance_field(world, m, gait, start, further, jr)
    worded = allowance_words(world, action.actor, kind)
    allowed = f"{kind.name}: {limit / 2:g} m allowed" + (f" ({worded})" if worded else "")
    rule = "R-M8" if kind in (Crawl, Swim) else "R-M1"
    if field.cost(to) is None or not field.can_end(to):
        return (
            f"{allowed}; no path a {kind.name.title()} can take gets to {to} within "
            f"{further / 2:g} m ({rule})"
        )
    legs = traced(world, m, jr, start, field.route_to(to))
    return over_allowance(world, m, kind, legs, limit, f"the cheapest path to {to}")


def standing_jump(world: World, m: Mover, start: Pos, target: Pos) -> MovePlan | Refusal:
    """R-M6: a Jump on its own is a standing jump (no run-up), from `start` to `target`, by
    a mover whose conditions let it jump (`condition_problem`)."""
    jr = jump_reach(world, m.unit, m)
    # R-M4, R-M7: a creature hanging on a face jumps from the height it has climbed to.
    lift = round(world.need(m.unit, Position).elevation * 2)
    plan = plan_jump(world, m, jr, start, target, lift=lift)
    if isinstance(plan, str):
        return Refusal(plan)
    if plan.runup_needed > 0:
        up = f", {plan.height / 2:g} m up" if plan.height else ""
        high = f"; {heights(jr, m.unit, 0, plan.ledge)}" if plan.height else ""
        return Refusal(
            f"{target}: this jump ({plan.length / 2:g} m long{up}) needs a run-up of "
            f"{plan.runup_needed / 2:g} m; {lengths(jr, m.unit, 0)}{high}: fold the jump into "
            "a Walk, Run or Sprint for the run-up (R-M6)"
        )
    leg = Leg(start, target, plan.length, "jump", plan.grabs_ledge)
    return MovePlan((leg,), plan.length, plan.length)


def check_move(world: World, action: Movement) -> Refusal | None:
    plan = plan_move(world, action)
    return plan if isinstance(plan, Refusal) else None


# --- resolving -----------------------------------------------------------------------------


def resolve_move(world: World, action: Movement, dice: Dice) -> Resolution:
    """Move leg by leg. Before each leg leaves an enemy's reach, that enemy may make an Attack
    of Opportunity (R-R4); a mover it downs stops there."""
    plan = plan_move(world, action)
    assert not isinstance(plan, Refusal)
    unit = action.actor
    limit = plan.limit
    if isinstance(action, Sprint):
        agi = world.need(unit, Stats).attribute("agi")
        roll = dice.roll(agi.die)
        limit = allowance(world, unit, Sprint, roll)
        yield ev.Rolled(
            unit,
            "sprint distance (AGI Roll + Bonus)",
            agi.die,
            roll,
            agi.bonus,
            roll + agi.bonus,
            tag=RollKind.SPRINT,
        )
    m = mover(world, unit)
    reach = side(world, unit)  # R-Z2: fire in any cell the footprint enters burns it
    spent = 0
    fire_stacks = world.rules.conditions.fire_terrain_stacks
    if isinstance(action, Step) and has(world, unit, Condition.SWIMMING):
        if has(world, unit, Condition.SUBMERGED):
            yield ev.ConditionLost(unit, Condition.SUBMERGED, "surfaced to step out (R-M8)")
        yield ev.ConditionLost(unit, Condition.SWIMMING, "got up out of the water (R-M8)")
    if isinstance(action, Swim) and not has(world, unit, Condition.SWIMMING):
        yield ev.ConditionGained(unit, Condition.SWIMMING, 1)
    if isinstance(action, Swim) and action.submerged != has(world, unit, Condition.SUBMERGED):
        # R-M8 Decision: diving, or surfacing with a Swim without the choice, before moving.
        if action.submerged:
            yield ev.ConditionGained(unit, Condition.SUBMERGED, 1)
        else:
            yield ev.ConditionLost(unit, Condition.SUBMERGED, "swam up to the surface (R-M8)")
    up = world.need(unit, Position).elevation
    if has(world, unit, Condition.HANGING):
        # R-M7: a Jump is the only Movement Action that leaves a face; it no longer hangs.
        yield ev.ConditionLost(unit, Condition.HANGING, "jumped off the face")
    stop = last_stop(world, unit, plan.legs, limit)
    for index, leg in enumerate(plan.legs):
        if index == stop:
            yield ev.MoveCutShort(unit, leg.start, f"the sprint allowed {limit / 2:g} m")
            return
        yield from opportunities(world, dice, unit, leg.start, leg.end, up_here=up)
        if incapacitated(world, unit):
            yield ev.MoveCutShort(unit, leg.start, f"{unit} was downed leaving {leg.start}")
            return
        spent += leg.cost
        if leg.how == "jump":
            yield ev.Jumped(unit, leg.start, leg.end, leg.cost, leg.grab)
        else:
            yield ev.Moved(unit, leg.start, leg.end, leg.cost)
        if any(world.grid.kind(c) is Kind.FIRE for c in footprint(leg.end, reach)):
            stacks = conditions(world, unit).count(Condition.BURNING) + fire_stacks
            yield ev.ConditionGained(unit, Condition.BURNING, stacks)  # R-K4
        if leg.how == "fall" or (up and is_fall(world, m, leg.start, leg.end, up)):
            # R-M4: off a ledge, or off a face from the height it hung at (R-M7).
            yield from fall(terrain_view(world, unit), m, unit, leg.start, leg.end, up)
        up = 0.0


def last_stop(world: World, unit: str, legs: tuple[Leg, ...], limit: int) -> int:
    """How many legs a move makes within `limit` (a Sprint's rolled allowance, R-M1): all of
    them when it is enough, else as many as end where the mover may stand (R-M5: not on
    another standing creature, an ally it was passing through included)."""
    if sum(leg.cost for leg in legs) <= limit:
        return len(legs)
    taken = standing_at(world, unit)
    spent = 0
    stop = 0
    for index, leg in enumerate(legs):
        spent += leg.cost
        if spent > limit:
            break
        if leg.end not in taken:
            stop = index + 1
    return stop


def opportunities(
    world: World,
    dice: Dice,
    unit: str,
    here: Pos,
    there: Pos,
    *,
    up_here: float = 0.0,
    up_there: float = 0.0,
) -> Generator[ev.Event | Ask, Reply | None, None]:
    """R-R4: each enemy whose reach `unit` is about to leave may attack it first, as
    `opportunity.provoked` decides, if it can pay for it (R-R8); a mover it downs is attacked
    no more. `up_here` and `up_there`: metres above the ground of `here` and `there` (hanging
    on a face, R-M7: reach is measured in three dimensions)."""
    for provocation in provoked(world, unit, (there,), start=here, up=up_here, end_up=up_there):
        if not provocation.can_react:
            continue
        enemy = provocation.enemy
        answer = yield Ask(
            enemy,
            "attack_of_opportunity",
            f"{unit} is leaving {enemy}'s reach at {here}",
            ("attack", NONE),
            source=unit,
        )
        if answer is None or answer.choice != "attack":
            continue
        yield reaction_spent(world, enemy, "attack_of_opportunity", "attack", slow=answer.slow)
        weapon = held_weapon(world, enemy, melee=True)
        yield from strike(
            world,
            dice,
            enemy,
            unit,
            weapon=weapon,
            melee=True,
            purpose="attack of opportunity",
            tag=AttackKind.OPPORTUNITY,
        )
        if incapacitated(world, unit):
            return


def fall(world: World, m: Mover, unit: str, a: Pos, b: Pos, up: float = 0.0) -> list[ev.Event]:
    """R-M4: a creature that falls lands Prone and takes 2 crushing damage per full metre of the
    drop above its height; `up`: metres above `a`'s ground it fell from (hanging on a face,
    R-M7). **Decision** landing in water at least waist-deep: no damage, and the creature
    swims."""
    grid = world.grid
    drop = (grid.ground_half(a) - grid.ground_half(b)) / 2 + up
    out: list[ev.Event] = []
    per = world.rules.movement.fall_damage_per_metre
    height = world.need(unit, Body).height
    full = int(drop - height) if drop > height else 0
    out.append(ev.Fell(unit, b, drop))
    if grid.water_half(b) >= m.waist_half:
        if not has(world, unit, Condition.SWIMMING):
            out.append(ev.ConditionGained(unit, Condition.SWIMMING, 1))
        return out
    if full * per > 0:
        out += damage(world, unit, full * per, "crushing", "fall", dealer=None)
    if not has(world, unit, Condition.PRONE):
        out.append(ev.ConditionGained(unit, Condition.PRONE, 1))
    return out
