"""What a hover tip says (no pygame): for a path, the Movement Action, metres, budget left and
each place it provokes; for an enemy, what a click does and the odds; for the action being
targeted, what choosing the hovered cell would do; while Prepare's area is marked, what a click
marks. Each line has a tone the client shows it in (its colour in the window). The window's
tips (sim/ui/draw/tips.py) and the terminal (sim/ui/text/) show the same lines."""

from __future__ import annotations

from sim.core.actions import Cost, Disengage, Refusal
from sim.core.components import ExtendedAction, Health, Position
from sim.core.creature import creatures, incapacitated, team_of
from sim.core.geometry import Pos
from sim.core.world import World
from sim.rules.budget import price
from sim.rules.reach.reachmap import Hang
from sim.ui.model.actionbar import build, cost_label
from sim.ui.model.intent import aim_needs, aim_words, assist_step
from sim.ui.model.planner import PathPlan
from sim.ui.model.risk import warning
from sim.ui.model.scene import Scene, turn_unit, unit_at
from sim.ui.model.session import Session
from sim.ui.model.view import View

# The tones of a tip's lines: plain, a refusal or danger, a detail, a caution.
TEXT, BAD, DIM, WARN = "text", "bad", "dim", "warn"
Line = tuple[str, str]  # (words, tone)


def odds_lines(scene: Scene, session: Session, view: View) -> list[Line]:
    """The forecast for the hovered creature (sim.play.odds in words); a first line that is a
    note on the weapon, not odds, is a detail."""
    found = scene.forecast(session, view)
    if found is None:
        return []
    return [(line, DIM if i == 0 and found.note else TEXT) for i, line in enumerate(found.lines)]


def enemy_lines(scene: Scene, session: Session, view: View, hover: Pos) -> list[Line]:
    """With the acting creature selected and nothing chosen: what a click on the enemy in
    `hover` does (an attack and its cost; `odds_lines` follow), or why it cannot attack."""
    world = session.battle.world
    actor = turn_unit(session)
    if actor is None or view.selected != actor or not view.sits_for(team_of(world, actor)):
        return []
    unit = unit_at(world, hover, view.eyes)
    if unit is None or team_of(world, unit) == team_of(world, actor):
        return []
    hp = world.need(unit, Health)
    down = incapacitated(world, unit)
    rows: list[Line] = [(f"{unit}  HP {hp.hp}/{hp.max_hp}{', down' if down else ''}", TEXT)]
    if down:
        # R-C6: at 0 HP or less it is Incapacitated whatever the number; R-K2: Aid brings
        # it back at 1 HP however far below 0 it went, so a further hit changes nothing.
        rows.append(("it is out of the fight: a hit only lowers its HP", DIM))
    if view.preparing is not None:
        rows.append(("choose the action to hold ready in the bar", DIM))
        rows.append(("click to select it", DIM))
        return rows
    result = scene.attack_verdict(session, view, actor, unit)
    if isinstance(result, Refusal):
        rows.append(("cannot attack:", BAD))
        rows.append((result.reason, BAD))
        rows.append(("click to select it", DIM))
    else:
        rows.append((f"click: attack {unit} ({cost_label(result)})", TEXT))
        why = attack_caution(session, view, unit)
        # Every attack rolls: said, though a player expects it; one that cannot even deal
        # damage is said as a caution (sim/ui/model/risk.py).
        rows.append((why, WARN) if why else ("rolls dice: no undo goes back past it", DIM))
    return rows


def attack_caution(session: Session, view: View, unit: str) -> str:
    """Why the acting creature's attack on `unit` waits for a second click in the window
    (`risk.warning`: it can deal no damage), or ""."""
    actor = turn_unit(session)
    if actor is None:
        return ""
    attack = build(actor, "attack", view.slow, view.quicken, target=unit)
    return "" if isinstance(attack, str) else warning(session.battle.world, attack)


def path_caution(session: Session, view: View, plan: PathPlan) -> str:
    """Why the hovered move waits for a second click in the window (`risk.warning`: its
    result is rolled), or ""; a move held ready for Prepare rolls nothing now."""
    decision = plan.decision(view.slow, view.quicken)
    if decision is None or view.preparing is not None:
        return ""
    return warning(session.battle.world, decision, plan.provocations)


def target_lines(scene: Scene, session: Session, view: View, hover: Pos) -> list[Line]:
    """What clicking `hover` would do with the action being targeted, as the click does
    (`odds_lines` follow)."""
    world = session.battle.world
    what = view.targeting or ""
    if view.ability:
        what += f" {view.ability}"
    aim = aim_needs(world, view)
    words = assist_step(view) if view.targeting == "assist" else aim_words(aim)
    rows: list[Line] = [(f"{what}: choose {words} (Esc cancels)", TEXT)]
    result = scene.aim_result(session, view, hover)
    if result is not None:
        rows.append((result.words, TEXT if result.ok else BAD))
    return rows


def path_lines(scene: Scene, session: Session, view: View, plan: PathPlan) -> list[Line]:
    """A hovered path: the Movement Action that takes it and its metres, where a Climb leaves
    the climber, budget left, each place leaving provokes and who could hit its end; or why no
    Movement Action takes it."""
    world = session.battle.world
    if plan.action is None:
        return [("cannot move there", BAD), (plan.refusal, BAD)]
    head = f"{plan.action.title()}{' submerged' if plan.submerged else ''} {plan.metres:g} m"
    if plan.jumps:
        head += f", {len(plan.jumps)} jump{'s' if len(plan.jumps) > 1 else ''} (dashed)"
    rows: list[Line] = [(head, TEXT)]
    if plan.hang is not None:
        rows.append((hang_words(world, plan.hang), WARN))
    extended = world.get(plan.unit, ExtendedAction)
    if extended is not None:  # R-B5: the move is paid from the turn it gives back
        what = extended.action.replace("_", " ")
        rows.append((f"breaks off its {what} (an Extended Action)", WARN))
    # R-R5: the Disengage taken first is paid before the move, at its own price.
    first = price(world, Disengage(plan.unit)) if view.disengage else None
    disengage = first.bonus if isinstance(first, Cost) else 0
    bonus_left = plan.bonus_left - disengage
    rows.append((f"left after: {plan.half_left} half, {bonus_left} bonus", TEXT))
    if view.disengage and not plan.provocations:
        rows.append((f"Disengage first ({disengage} bonus): provokes nobody", TEXT))
    for prov in plan.provocations:
        # R-R4, R-R8: only a foe with a Bonus Action left can take the attack; one without is
        # said to be unable to, not warned of.
        if prov.can_react:
            rows.append((f"! leaving {prov.cell}: {prov.enemy} may attack", BAD))
        else:
            words = f"leaving {prov.cell}: {prov.enemy} cannot attack (no Bonus Action left)"
            rows.append((words, DIM))
    end = plan.cells[-1] if plan.cells else None
    if end is not None and end == view.hover and plan.unit in creatures(world):
        own = team_of(world, plan.unit)
        reached = scene.hover_info(session, view, mover=plan.unit)
        enemies = [u for u in reached if team_of(world, u) != own]
        if enemies:
            rows.append((f"ends in reach of: {', '.join(enemies)}", DIM))
    if view.waypoints:
        rows.append((f"{len(view.waypoints)} waypoint(s); Backspace removes", DIM))
    if view.preparing is not None:
        rows.append(("held ready, not taken now", WARN))
    why = path_caution(session, view, plan)
    if why:
        rows.append((why, WARN))
    return rows


def mark_lines(scene: Scene, session: Session, view: View, hover: Pos) -> list[Line]:
    """What a click does while Prepare's area is being marked."""
    marked = view.marking or []
    if hover in marked:
        head = f"click: unmark {hover}"
    elif (problem := scene.mark_problem(session, hover)) is not None:
        head = problem
    else:
        head = f"click: mark {hover}"
    return [(head, TEXT), (f"{len(marked)} marked; Enter when done, Esc cancels", DIM)]


def hang_words(world: World, hang: Hang) -> str:
    """Where a Climb that stops part-way leaves its climber (R-M7), in words."""
    grid = world.grid
    face = abs(grid.ground_half(hang.face) - grid.ground_half(hang.cell)) / 2
    up = grid.ground_half(hang.face) > grid.ground_half(hang.cell)
    way = "the top" if up else "the ground"
    return (
        f"stops part-way: hangs {hang.height:g} m up the {face:g} m face, "
        f"{abs(face - hang.height) if up else hang.height:g} m short of {way}; "
        "climb on with another Climb"
    )


def mover_cells(world: World, plan: PathPlan, waypoints: tuple[Pos, ...] = ()) -> list[Pos]:
    """The cells a path tip must not cover: the mover's, the whole path with its waypoints,
    and each where leaving provokes (the tip describes them all); the end, where the tip is
    placed beside, is not among them."""
    cells = [world.need(plan.unit, Position).cell, *plan.cells, *waypoints]
    cells += [p.cell for p in plan.provocations]
    end = plan.cells[-1] if plan.cells else None
    return [cell for cell in dict.fromkeys(cells) if cell != end]
