"""What the screen shows, as answers (no pygame): the game questions a frame asks, each kept
while the state and the view it depends on stay the same. Who the seat sees and where; the
reach map, the hovered path and the threats; what a click on a creature or a cell would do and
its odds; the action bar's buttons (the core's legal decisions); the lists, the reaction prompt,
the log and the battle's outcome. The panels (sim/ui/draw/board.py, sidebar.py, tips.py,
prompts.py, barpanel.py) only draw these answers; the input handlers (sim/ui/input/) act on the same
ones, so what the screen says is what a click does."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from sim.core.actions import Attack, Cost, Refusal
from sim.core.components import (
    Body,
    Budget,
    Conditions,
    Gear,
    Hands,
    Health,
    Policy,
    Position,
    Size,
    Stats,
    Team,
)
from sim.core.creature import cells_of, conditions, incapacitated, side, team_of
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.world import World
from sim.play.decisions import to_json
from sim.play.engine import AwaitingAction, AwaitingReaction
from sim.rules.combat.attack import plan_attack
from sim.rules.combat.casting import known
from sim.rules.combat.items import item_name, item_names
from sim.rules.combat.prepare import Prepared
from sim.rules.objectives import Reach
from sim.rules.reach.fields import TERRAIN
from sim.rules.reach.reachmap import ReachCell, ReachMap
from sim.rules.reach.sight import distance_half, line_of_sight
from sim.rules.reach.threat import reach_cells, threatened
from sim.ui.look import palette as pal
from sim.ui.model.actionbar import (
    ABILITY_ACTIONS,
    ActionBar,
    Entry,
    ability_choices,
    build,
    item_choice_labels,
    judge,
    option_label,
    prepare_triggers,
    prompt_help,
    prompt_options,
    trigger_words,
    unmarkable,
)
from sim.ui.model.intent import (
    Verdict,
    acting_unit,
    aim_needs,
    cell_choice,
    item_verdict_of,
    listed_items,
    target_choice,
    target_verdict,
    verdict_words,
)
from sim.ui.model.planner import (
    PathPlan,
    Planner,
    hidden_from,
    teams,
    threat_map,
    visible,
    who_can_hit,
)
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.forecast import ODDS_ACTIONS, Forecast, contest_words, forecast
from sim.ui.words.logbook import lines
from sim.ui.words.outcome import summary as outcome_summary
from sim.ui.words.underway import Underway, underway
from sim.ui.words.wording import condition_words, item_words

T = TypeVar("T")
# What a creature's threats are made of (`threat.threatened`, `incapacitated`, who is seen),
# besides its reach (`threat.reach_cells`: what it holds) and the terrain.
THREAT_READS = (Team, Position, Conditions, Health, Stats, Hands, Body)
Row = tuple[str, str, bool, str]  # a list's line: value, label, ok, detail


def turn_unit(session: Session) -> str | None:
    """The creature whose turn waits for an action (not for a reaction), if any."""
    pending = session.battle.pending
    return pending.unit if isinstance(pending, AwaitingAction) else None


def plan_secret(world: World, view: View) -> Callable[[str], bool]:
    """Whose prepared plans the screen must not tell (in the log, the sidebar, the board): the
    creatures of every side but the seated one."""
    return lambda unit: not view.sees_plan_of(team_of(world, unit))


def unit_at(world: World, cell: Pos, side: str | None) -> str | None:
    """The creature `side` sees standing in `cell`, if any (the first in scenario order)."""

    def where() -> dict[Pos, str]:
        found: dict[Pos, str] = {}
        for unit in visible(world, side):
            for here in cells_of(world, unit):  # a large creature on each of its cells (R-Z1)
                found.setdefault(here, unit)
        return found

    kept = world.memo(("ui.unit_at", side), where, reads=(Team, Stats, Conditions, Position, Size))
    return kept.get(cell)


ReachTiles = tuple[list[int], list[int], list[str]]  # x, y and action of each cell shown
NO_REACH: ReachTiles = ([], [], [])


def _tiles(found: Mapping[Pos, ReachCell]) -> ReachTiles:
    """Each cell of a reach map with its action's name, in the map's order: read off its arrays
    rather than cell by cell (a map of a thousand cells is read after every change)."""
    if not isinstance(found, ReachMap):
        return [p.x for p in found], [p.y for p in found], [r.action for r in found.values()]
    xs, ys, _, index = found.arrays()
    names = [offer.name for offer in found.offers]
    return xs.tolist(), ys.tolist(), [names[i] for i in index.tolist()]


class Memo:
    """Answers kept under a name while their key stays the same: the questions a frame asks
    change with the state and the view, not with the frame."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[tuple[object, ...], Any]] = {}

    def get(self, name: str, key: tuple[object, ...], make: Callable[[], T]) -> T:
        kept = self._kept.get(name)
        if kept is not None and kept[0] == key:
            return kept[1]  # type: ignore[no-any-return]
        value = make()
        self._kept[name] = (key, value)
        return value

    def clear(self) -> None:
        self._kept.clear()


class Scene:
    """The answers for one window's battle; `planner` keeps its reach maps and paths."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget every answer: another battle is shown (a load, a new game)."""
        self.planner = Planner()
        self.bar = ActionBar()
        self.memo = Memo()
        self._forecasts: dict[tuple[object, ...], Forecast | None] = {}
        self._threats_kept: tuple[tuple[object, ...], npt.NDArray[np.int32], dict[Pos, int]] | None
        self._threats_kept = None
        self._reach_src: object = None
        self._reach_tiles: ReachTiles = NO_REACH
        self._reach_made: ReachTiles = NO_REACH
        self._reach_cells: dict[Pos, str] = {}

    # --- the action bar ----------------------------------------------------------------------
    def entries(self, session: Session, view: View) -> list[Entry]:
        """The bar's buttons for the acting creature the seat plays (none in the replay
        viewer, on the other side's turn, on a side the AI plays or while a reaction waits):
        from the core's legal decisions, kept while the battle and the toggles stay the same."""
        actor = acting_unit(session)
        world = session.battle.world
        pending = session.battle.pending
        foreign = actor is not None and (
            not view.sits_for(team_of(world, actor)) or team_of(world, actor) in view.ai
        )
        if not isinstance(pending, AwaitingAction) or foreign or view.replaying:
            actor = None
        return self.bar.update(
            session.battle,
            session.version,
            actor,
            view.slow,
            view.quicken,
            view.eyes,
            view.preparing is not None,
        )

    # --- who is seen, and where --------------------------------------------------------------
    def hidden(self, session: Session, view: View, unit: str) -> bool:
        """Whether `unit` is hidden from the seat."""
        return hidden_from(session.battle.world, unit, view.eyes)

    def shown(self, session: Session, view: View) -> list[tuple[str, pal.TeamStyle]]:
        """The creatures the seat sees, with their side's look."""

        def make() -> list[tuple[str, pal.TeamStyle]]:
            world = session.battle.world
            order = teams(world)
            return [
                (u, pal.team_style(team_of(world, u), order)) for u in visible(world, view.eyes)
            ]

        return self.memo.get("shown", (session.version, view.eyes), make)

    # --- moves and threats -------------------------------------------------------------------
    def threat_sides(self, session: Session, view: View) -> tuple[str, ...]:
        """The teams whose threat the overlay shows: those chosen (`sim render --overlay
        threat:TEAM`), else every side but the seated one (every side when none is)."""
        world = session.battle.world
        chosen = view.threat_teams
        if chosen is None:
            chosen = tuple(t for t in teams(world) if t != view.side) if view.side else teams(world)
        return chosen

    def threat_legend(self, session: Session, view: View) -> str:
        """The threat overlay's legend: "enemies reach" only when it shows exactly the seated
        side's enemies; else whose reach it is ("red reaches", "blue, red reach").

        Counts are of creatures, so a cell two of them reach shows 2."""
        chosen = self.threat_sides(session, view)
        enemies = tuple(t for t in teams(session.battle.world) if t != view.side)
        if view.side is not None and set(chosen) == set(enemies):
            return "enemies reach (count)"
        verb = "reaches" if len(chosen) == 1 else "reach"
        return f"{', '.join(chosen)} {verb} (count)"

    def threats(self, session: Session, view: View) -> dict[Pos, int]:
        """How many enemies (of the chosen teams, that the seat can see) threaten each cell."""
        world = session.battle.world
        chosen = self.threat_sides(session, view)
        side = view.eyes
        return self.memo.get(
            "threats", (session.version, chosen, side), lambda: self._threats(world, chosen, side)
        )

    def _threats(self, world: World, chosen: tuple[str, ...], side: str | None) -> dict[Pos, int]:
        """The threat counts, kept while all that makes them stays the same, whatever else
        changes: the terrain and, of each creature of the chosen teams the seat sees, its state
        but its budget. A move of one of the seat's creatures, or an undo, leaves the enemies'
        threats as they were (`threat.threatened` reads the attacker alone and the ground)."""
        grid = world.grid
        facts = tuple(
            (unit, *(world.get(unit, kind) for kind in THREAT_READS), reach_cells(world, unit))
            for unit in visible(world, side)
            if team_of(world, unit) in chosen
        )
        key = (chosen, side, grid.width, grid.height, facts)
        terrain = grid.stacked(TERRAIN)
        kept = self._threats_kept
        if kept is not None and kept[0] == key and np.array_equal(kept[1], terrain):
            return kept[2]
        counts = {p: len(u) for p, u in threat_map(world, chosen, side).items()}
        self._threats_kept = (key, terrain.copy(), counts)
        return counts

    def own_reach(self, session: Session, unit: str) -> tuple[Pos, ...]:
        """The cells `unit` threatens (the "My reach" overlay): none while it is down or once
        the battle is over."""
        world = session.battle.world
        if world.turn.over or incapacitated(world, unit):
            return ()
        return self.memo.get("own", (session.version, unit), lambda: threatened(world, unit))

    def hover_info(
        self, session: Session, view: View, *, mover: str | None = None
    ) -> tuple[str, ...]:
        """Who could hit a creature of ours in the hovered cell: the enemies (of the selected
        creature's side, else of the seat's) whose melee reach covers it, not our allies.
        `mover`: that creature, ending a move with its top-left there (R-Z3: a large one is
        reached at any of its cells); else one a cell wide."""
        world = session.battle.world
        hover = view.hover
        if hover is None or not world.grid.inside(hover):
            return ()
        eyes = view.eyes
        ours = (
            team_of(world, view.selected)
            if view.selected and world.exists(view.selected)
            else view.side
        )

        wide = side(world, mover) if mover is not None else 1

        def foes() -> tuple[str, ...]:
            found = who_can_hit(world, hover, eyes, wide=wide, mover=mover)
            return tuple(u for u in found if team_of(world, u) != ours)

        return self.memo.get("hover", (session.version, hover, eyes, ours, mover), foes)

    def cell_hitters(self, session: Session, view: View) -> str:
        """The hovered cell's "can be hit by" line: with a creature the seat sees standing
        there, which of its foes could attack it from where they stand, in melee or at range
        ("grok can be hit by: ana, bram (ranged)"), so it agrees with a tip offering to attack
        it; on an empty cell, whose melee reach would cover one of ours there."""
        world = session.battle.world
        hover = view.hover
        if hover is None or not world.grid.inside(hover):
            return ""
        there = unit_at(world, hover, view.eyes)
        if there is None:
            who = self.hover_info(session, view)
            return "can be hit by: " + (", ".join(who) if who else "nobody")
        own = team_of(world, there)
        key = (session.version, hover, view.eyes, there)

        def foes() -> tuple[str, ...]:
            out = []
            for unit in visible(world, view.eyes):
                if team_of(world, unit) == own or incapacitated(world, unit):
                    continue
                plan = plan_attack(world, Attack(unit, there))
                if not isinstance(plan, Refusal):
                    out.append(unit if plan.melee else f"{unit} (ranged)")
            return tuple(out)

        who = self.memo.get("hitters", key, foes)
        return f"{there} can be hit by: " + (", ".join(who) if who else "nobody")

    def plan(self, session: Session, view: View) -> PathPlan | None:
        """The path the hovered cell offers the selected creature and what committing it
        would do; None where a click does not move (a creature there, another mode)."""
        unit = view.selected
        world = session.battle.world
        if (
            unit is None
            or view.hover is None
            or view.targeting
            or view.marking is not None
            or not world.grid.inside(view.hover)
        ):
            return None
        if turn_unit(session) != unit or not view.sits_for(team_of(world, unit)):
            return None
        there = unit_at(world, view.hover, view.eyes)
        if there is not None and not (there == unit and self.climbs_down(session, view)):
            # A click on a creature attacks or selects it, never moves there
            # (`FreeHandler.on_cell`): no path is offered into its cell, even one the engine
            # would take (a downed creature's), so the tip says what the click does. Its own
            # cell is the one exception: hanging on a face, a Climb goes back down (R-M7).
            return None
        return self.planner.plan(
            session.battle,
            session.version,
            unit,
            view.hover,
            tuple(view.waypoints),
            view.move_only,
            view.slow,
            view.quicken,
            view.disengage,
        )

    def climbs_down(self, session: Session, view: View) -> bool:
        """Whether the selected creature, on its turn and hanging on a face, can climb back
        down where it is (R-M7): its own cell is then in its reach map, shown or not."""
        unit = view.selected
        world = session.battle.world
        if unit is None or turn_unit(session) != unit or not world.has(unit, Position):
            return False
        here = world.need(unit, Position)
        if not here.elevation:
            return False
        reach = self.planner.reach(session.battle, session.version, unit, view.move_only)
        return here.cell in reach

    def reach_cells(self, session: Session, view: View) -> dict[Pos, str]:
        """The reach map shown: each cell the selected creature can end a move in, with the
        cheapest Movement Action (only on its turn, for its own side's seat)."""
        shown = self.reach_tiles(session, view)
        if shown is not self._reach_made:
            self._reach_made = shown
            xs, ys, actions = shown
            self._reach_cells = dict(zip(map(Pos, xs, ys), actions, strict=True))
        return self._reach_cells

    def reach_tiles(self, session: Session, view: View) -> ReachTiles:
        """`reach_cells` as lists: each cell's x, y and action, in row order; what the board and
        the legend read, without a cell made for each (a thousand after every change)."""
        unit = view.selected
        if unit is None or not view.show_reach:
            return NO_REACH
        world = session.battle.world
        # Nobody moves once the battle is over, nor while down (R-C6): no reach to draw.
        if world.turn.over or not world.has(unit, Position) or incapacitated(world, unit):
            return NO_REACH
        if not view.omniscient and (
            turn_unit(session) != unit or team_of(world, unit) != view.side
        ):
            return NO_REACH
        found = self.planner.reach(session.battle, session.version, unit, view.move_only)
        if found is not self._reach_src:
            self._reach_src = found
            self._reach_tiles = _tiles(found)
        return self._reach_tiles

    # --- aims and odds -----------------------------------------------------------------------
    def aim_key(self, session: Session, view: View) -> tuple[object, ...]:
        """What the answers about the action being targeted depend on."""
        return (
            session.version, view.targeting, view.item, view.ability, view.slow, view.quicken,
            view.side, view.omniscient, view.selected, repr(view.preparing), view.ally,
        )  # fmt: skip

    def aims(self, session: Session, view: View) -> tuple[Pos, ...]:
        """Cells of the creatures the action being targeted could be aimed at now."""
        return self.memo.get("aims", self.aim_key(session, view), lambda: _aim_cells(session, view))

    def area(self, session: Session, view: View) -> tuple[Pos, ...]:
        """The cells an area spell aimed at the hovered cell would reach."""
        if view.targeting not in ABILITY_ACTIONS or view.hover is None:
            return ()
        world = session.battle.world
        ability = world.catalog.abilities.get(view.ability or "")
        if ability is None or ability.target not in ("area", "cell"):
            return ()
        centre = view.hover
        if not world.grid.inside(centre):
            return ()
        key = (session.version, centre, ability.radius_half)
        return self.memo.get("area", key, lambda: _area_cells(world, centre, ability.radius_half))

    def aim_result(self, session: Session, view: View, hover: Pos) -> Verdict | None:
        """What a click on `hover` would do with the action being targeted, in words (the
        creature or cell named first); None where a click there names nothing."""
        world = session.battle.world
        aim = aim_needs(world, view)
        unit = unit_at(world, hover, view.eyes)
        if "target" in aim and unit is not None and view.selected:
            found = target_verdict(session, view, unit)
            return Verdict(found.ok, f"{unit}: {found.words}")
        if "to" in aim:
            decision = cell_choice(view, hover)
            if decision is None:
                return None
            if isinstance(decision, str):
                return Verdict(False, f"{hover}: refused: {decision}")
            result = judge(session.battle, decision)
            return Verdict(isinstance(result, Cost), f"{hover}: {verdict_words(result)}")
        return None

    def attack_verdict(self, session: Session, view: View, actor: str, unit: str) -> Cost | Refusal:
        """What an attack by `actor` on `unit` would cost now, or why it is refused."""
        decision = build(actor, "attack", view.slow, view.quicken, target=unit)
        return judge(session.battle, decision)

    def odds_aim(self, session: Session, view: View) -> tuple[str, str, str] | None:
        """The (actor, action, target) whose odds the hovered cell shows: the action being
        targeted (one of ODDS_ACTIONS), or with the acting creature selected and nothing
        chosen, an attack on the hovered enemy; only when the engine would take it now."""
        world = session.battle.world
        hover = view.hover
        if hover is None or not world.grid.inside(hover) or view.preparing is not None:
            return None
        unit = unit_at(world, hover, view.eyes)
        if unit is None:
            return None
        if view.targeting:
            actor, action = view.selected, view.targeting
            if actor is None or action not in ODDS_ACTIONS:
                return None
            decision = target_choice(view, unit)
        else:
            actor, action = turn_unit(session), "attack"
            if view.choosing or view.picking or view.marking is not None:
                return None
            if actor is None or view.selected != actor or unit == actor:
                return None
            if team_of(world, unit) == team_of(world, actor):
                return None
            decision = build(actor, action, view.slow, view.quicken, target=unit)
        if decision is None or not view.sits_for(team_of(world, actor)):
            return None
        if isinstance(judge(session.battle, decision), Refusal):
            return None
        return actor, action, unit

    def forecast(self, session: Session, view: View) -> Forecast | None:
        """The odds the hover shows (sim.play.odds, in words), kept per battle version and
        (actor, action, target): moving the mouse back and forth asks the dice once."""
        key = (*self.aim_key(session, view), view.hover, view.choosing, view.picking,
               view.marking is not None)  # fmt: skip
        aim = self.memo.get("odds_aim", key, lambda: self.odds_aim(session, view))
        if aim is None:
            return None
        found = (session.version, *aim)
        if found not in self._forecasts:
            if any(k[0] != session.version for k in self._forecasts):
                self._forecasts.clear()
            self._forecasts[found] = forecast(session.battle.world, *aim)
        return self._forecasts[found]

    def contest(self, session: Session, action: str) -> str:
        """The acting creature's chance in a contest aimed at no creature (break free, hide),
        in words ("" when none is acting or the action has no such chance)."""
        actor = acting_unit(session)
        if actor is None:
            return ""
        world = session.battle.world
        key = (session.version, actor, action)
        return self.memo.get("contest", key, lambda: contest_words(world, actor, action))

    # --- areas, and what happens during a reaction -------------------------------------------
    def mark_problem(self, session: Session, cell: Pos) -> str | None:
        """Why `cell` cannot be marked for Prepare's area, or None when it can."""
        return unmarkable(session.battle.world, cell)

    def marked_areas(self, session: Session, view: View) -> list[tuple[tuple[Pos, ...], str]]:
        """Areas marked for Prepare's "enters_area" trigger, with their labels: the one being
        marked or just chosen, and the plans waiting for it that the seat may know of (its own
        side's: the other side sees that a creature holds an action, not where it watches)."""
        world = session.battle.world
        out: list[tuple[tuple[Pos, ...], str]] = []
        for unit, plan in world.each(Prepared):
            if (
                plan.trigger == "enters_area"
                and plan.cells
                and not plan.by
                and view.sees_plan_of(team_of(world, unit))
            ):
                out.append((tuple(plan.cells), f"{unit} watches this area"))
        if view.marking:
            n = len(view.marking)
            out.append((tuple(view.marking), f"marking: {n} cell{'s' if n != 1 else ''}"))
        elif view.preparing is not None and view.preparing.get("cells"):
            cells = tuple(Pos(x, y) for x, y in view.preparing["cells"])
            out.append((cells, "the area to watch"))
        return out

    def underway_shown(self, session: Session, view: View) -> Underway | None:
        """While the seat answers a reaction prompt: the move or attack it is about."""
        pending = session.battle.pending
        world = session.battle.world
        if not isinstance(pending, AwaitingReaction) or not view.sits_for(
            team_of(world, pending.unit)
        ):
            return None
        found = self.memo.get("underway", (session.version,), lambda: underway(session.battle))
        if found is None:
            return None
        side = view.eyes
        move = found.move
        if move is not None and hidden_from(world, move.unit, side):
            move = None
        aims = tuple(
            a
            for a in found.aims
            if not hidden_from(world, a.actor, side)
            and (a.target is None or not hidden_from(world, a.target, side))
        )
        return Underway(move, aims) if move is not None or aims else None

    @staticmethod
    def aim_ends(world: World, happening: Underway) -> list[tuple[Pos, Pos, str]]:
        """Each action aimed under way: from the actor's cell to its target's (or the cell
        aimed at), with its label."""
        out = []
        for aim in happening.aims:
            end = world.need(aim.target, Position).cell if aim.target else aim.cell
            if end is not None:
                start = world.need(aim.actor, Position).cell
                out.append((start, end, f"{aim.actor}: {aim.what}"))
        return out

    def reaction(self, session: Session) -> list[tuple[str, str, str]]:
        """The reaction prompt's options: (option, its label, what it does and costs)."""
        pending = session.battle.pending
        if not isinstance(pending, AwaitingReaction):
            return []
        world = session.battle.world

        def make() -> list[tuple[str, str, str]]:
            return [
                (o, option_label(world, pending, o), prompt_help(world, pending, o))
                for o in prompt_options(session.battle)
            ]

        return self.memo.get("reaction", (session.version,), make)

    # --- lists over the board ----------------------------------------------------------------
    def item_rows(self, session: Session, view: View) -> list[Row]:
        """The item list of the action being picked for: each item, whether picking it is
        taken now and in words what it would do."""

        def make() -> list[Row]:
            unit = view.owner or view.selected  # whose items: a Disarm's target's (R-X5)
            rows = []
            items = listed_items(session, view)
            labels = item_choice_labels(session.battle, unit, items) if unit else {}
            for item in items:
                result = item_verdict_of(session, view, item)
                rows.append((item, labels[item], result.ok, result.words))
            return rows

        key = (session.version, view.picking, view.owner, view.selected, view.slow, view.quicken,
               view.eyes)  # fmt: skip
        return self.memo.get("items", key, make)

    def choice_rows(self, session: Session, view: View) -> list[Row]:
        """The spells or abilities the acting creature knows, or Prepare's triggers."""
        unit = view.selected or ""

        def make() -> list[Row]:
            side = view.eyes
            if view.choosing == "prepare":
                choices = [c for c, _ in prepare_triggers(session.battle, unit, side)]
            else:
                choices = ability_choices(
                    session.battle, unit, view.choosing or "cast", view.slow, view.quicken, side
                )
            held = view.preparing is not None
            return [(c.value, c.label, c.ok or held, c.detail) for c in choices]

        key = (session.version, view.choosing, unit, view.slow, view.quicken, view.eyes,
               view.preparing is not None)  # fmt: skip
        return self.memo.get("choices", key, make)

    def outcome(self, session: Session) -> list[str]:
        """The battle-over panel's lines: who won, the rounds, each creature's damage."""
        return self.memo.get("over", (session.version,), lambda: outcome_summary(session.battle))

    # --- the sidebar -------------------------------------------------------------------------
    def goal_lines(self, session: Session) -> list[str]:
        """How the battle is won, in words."""
        out = []
        for objective in session.battle.objectives:
            if isinstance(objective, Reach):
                cells = ", ".join(str(c) for c in objective.cells[:3])
                out.append(f"Goal: {objective.team} wins by reaching {cells} (flag)")
            else:
                out.append(f"Goal: {objective.team} wins by holding out {objective.rounds} rounds")
        out.append(
            "or by leaving no other side standing" if out else "Goal: be the last side standing"
        )
        return out

    def initiative(self, session: Session, view: View) -> list[tuple[str, str]]:
        """The initiative order's lines: (creature, its line; "unseen" for one hidden from the
        seat)."""
        world = session.battle.world
        out = []
        for unit in world.turn.order:
            if hidden_from(world, unit, view.eyes):
                out.append((unit, "??? (unseen)"))
                continue
            hp = world.need(unit, Health)
            down = " down" if incapacitated(world, unit) else ""
            ready = " (prepared)" if world.has(unit, Prepared) else ""
            out.append((unit, f"{unit}  HP {hp.hp}/{hp.max_hp}{down}{ready}"))
        return out

    def unit_lines(self, session: Session, view: View, unit: str) -> list[str]:
        """The sidebar's lines about the selected creature; a prepared plan in full only for
        its own side's seat (the other side sees that it holds an action)."""
        world = session.battle.world
        hp = world.need(unit, Health)
        pos = world.need(unit, Position)
        budget = world.get(unit, Budget)
        rows = [
            f"{team_of(world, unit)} · HP {hp.hp}/{hp.max_hp} · at {pos.cell}"
            + (f" up {pos.elevation:g} m" if pos.elevation else "")
        ]
        wide = side(world, unit)
        if wide > 1:  # R-Z1: `at` is its top-left
            rows.append(f"size {wide} ({wide}×{wide})")
        if budget is not None:
            rows.append(f"budget: {budget.half} half, {budget.bonus} bonus")
        held = [
            words for k, v in conditions(world, unit).entries if (words := condition_words(k, v))
        ]
        rows.append("conditions: " + (", ".join(held) or "none"))
        body = world.get(unit, Body)
        if body is not None and body.modes:  # R-Z5
            rows.append("moves: " + ", ".join(f"{mode} {metres} m" for mode, metres in body.modes))
        hands = world.get(unit, Hands)
        gear = world.get(unit, Gear)
        if hands is not None:
            # Items by name (a Catch's "dropping the first dagger" names them alike).
            holds = item_names(world, hands.items())
            rows.append("holds: " + (", ".join(holds.values()) or "nothing"))
        if gear is not None and gear.carried:
            carried = Counter(item_name(world, item) for item in gear.carried)
            rows.append(
                "carries: "
                + ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in carried.items())
            )
        spells = known(world, unit)
        if spells:
            rows.append("knows: " + ", ".join(spells) + " [C cast / U use]")
        plan = world.get(unit, Prepared)
        if plan is not None and not view.sees_plan_of(team_of(world, unit)):
            rows.append("prepared: holds an action ready (what for is hidden from you)")
        elif plan is not None:
            words = trigger_words(
                {"trigger": plan.trigger, "metres": plan.metres, "watch": plan.watch,
                 "cells": plan.cells}
            )  # fmt: skip
            then = to_json(plan.then)
            target = then.get("target") or then.get("spell") or then.get("ability") or ""
            rows.append(f"prepared: {then.get('action')} {target} {words}".replace("  ", " "))
        policy = world.get(unit, Policy) or Policy()
        rows.append(f"reactions: {policy.reactions} [P] · defence: {policy.defence} [O]")
        return rows

    def log_lines(self, session: Session, view: View) -> list[str]:
        """The last 200 lines of the log as the seat may read them (plans of the other side
        hidden)."""
        key = (session.version, view.side, view.omniscient)
        return self.memo.get("log", key, lambda: log_said(session, view)[-200:])


def log_said(session: Session, view: View, start: int = 0) -> list[str]:
    """The log's lines from event `start` on, as the seat may read them (plans of the other
    side hidden), each AI's reason before the events of its decision."""
    secret = plan_secret(session.battle.world, view)
    names = item_words(session.battle.world)
    log, out = session.battle.log, []
    for at in sorted(a for a in session.notes if start <= a <= len(log)):
        out += lines(log[start:at], secret, names)
        out.append(session.notes[at])
        start = at
    return out + lines(log[start:], secret, names)


def _area_cells(world: World, centre: Pos, radius_half: int) -> tuple[Pos, ...]:
    """The open cells within `radius_half` of `centre` that a line from it reaches."""
    r = radius_half // 2 + 1
    out = []
    for y in range(centre.y - r, centre.y + r + 1):
        for x in range(centre.x - r, centre.x + r + 1):
            cell = Pos(x, y)
            if (
                world.grid.inside(cell)
                and distance_half(world.rules, centre, cell) <= radius_half
                and world.grid.kind(cell) is not Kind.WALL
                and line_of_sight(world.grid, centre, cell) is None
            ):
                out.append(cell)
    return tuple(out)


def _aim_cells(session: Session, view: View) -> tuple[Pos, ...]:
    """Cells of the creatures the action being targeted could be aimed at now."""

    world = session.battle.world
    if "target" not in aim_needs(world, view):
        return ()
    ability = world.catalog.abilities.get(view.ability or "")
    on_self = ability is not None and ability.target in ("ally", "creature")
    return tuple(
        world.need(unit, Position).cell
        for unit in visible(world, view.eyes)
        if (unit != view.selected or on_self) and target_verdict(session, view, unit).ok
    )
