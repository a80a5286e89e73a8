"""What the evaluators read of one creature's turn: threat and menace maps, reach, foes' damage."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from sim.ai.weights import Weights, book
from sim.core import actions as a
from sim.core.actions import Refusal
from sim.core.catalog import Weapon
from sim.core.components import Body, Budget, Hands, Position
from sim.core.creature import cells_of, creatures, hp, incapacitated, side, team_of
from sim.core.dice import SeededDice
from sim.core.geometry import Pos, footprint
from sim.core.grid import Kind
from sim.core.world import World
from sim.play.apply import apply
from sim.play.legal import Legal, MoveGroup
from sim.play.odds import (
    AttackOdds,
    attack_odds,
)
from sim.play.rulebook import RULEBOOK
from sim.rules.combat.attack import plan_attack, shot_problem, weapon_kind
from sim.rules.combat.reactions import Ask, held_weapon
from sim.rules.objectives import Objective, Reach, Survive
from sim.rules.reach.fields import INF, Field, Window, window_around
from sim.rules.reach.opportunity import provoked_along, provoking_cells
from sim.rules.reach.reachmap import ReachMap, reach_map, search_of
from sim.rules.reach.threat import (
    enemies,
    gaps,
    reach_cells,
    reached_plane,
    reaches,
    reaching_from,
    reaching_plane,
)

T = TypeVar("T")

KILL = book().kill  # a foe taken out of the fight, in hit points beyond its damage


class Context:
    """What every evaluation of one creature's decision needs, worked out once."""

    def __init__(
        self,
        world: World,
        unit: str,
        objectives: tuple[Objective, ...] = (),
        weights: Weights | None = None,
        moves: tuple[MoveGroup, ...] = (),
        listed_moves: tuple[Legal, ...] = (),
    ) -> None:
        self.world = world
        # The weight set the evaluators count by: the level `normal`'s unless told.
        self.w = weights if weights is not None else _normal()
        self.unit = unit
        self.team = team_of(world, unit)
        self.here = world.need(unit, Position).cell
        self.foes = [f for f in enemies(world, unit) if not incapacitated(world, f)]
        self.budget = world.need(unit, Budget)
        # The moves listed this turn, for an evaluator that weighs what a move after it would
        # be worth (a Disengage): by groups, and the moves listed one by one.
        self.moves = moves
        self.listed_moves = listed_moves
        self._fleeing: bool | None = None  # move.fleeing's answer, worked out once
        self._paths: dict[Pos, tuple[Pos, ...]] = {}
        self._threat: dict[Pos, float] = {}
        self._attack_value: dict[tuple[str, Pos, int], tuple[float, str]] = {}
        self.maps: dict[type[a.Movement], ReachMap] = {}
        self._foe_damage: dict[str, float] = {}
        self._odds: dict[tuple[str, str, str | None, bool], tuple[AttackOdds, ...]] = {}
        self._own_damage: dict[str, float] = {}
        self._menace: dict[Pos, float] = {}
        self._strike: dict[tuple[Pos, int], tuple[float, str]] = {}
        self._strike_cells: list[Pos] | None = None  # where it could strike a foe from
        self._reached: frozenset[Pos] | None = None
        self._shoots: bool | None = None
        self._best_strike: float | None = None
        self._from = np.zeros((0, 2), dtype=np.int64)  # what nearest_foe measures from
        self._nearest: dict[Pos, int] = {}  # nearest_foe's answers
        self._nearest_reached: dict[type[a.Movement], int] = {}
        self._provoked: dict[type[a.Movement], npt.NDArray[np.float64]] = {}
        self._provoked_rows: dict[type[a.Movement], tuple[Window, list[list[float]]] | None] = {}
        self._provoked_grid: dict[
            type[a.Movement], tuple[Window, npt.NDArray[np.float64]] | None
        ] = {}
        self._nearest_plane: npt.NDArray[np.int64] | None = None
        self._lifted: bool | None = None
        self._move_planes: MovePlanes | None = None
        self._sheltered: npt.NDArray[np.float64] | None = None  # `sheltered` of the window
        self._kept: dict[Hashable, object] = {}
        # `threat` and `menace` of every cell around, worked out at once when first asked.
        self.window = window_around(world, self.here, PLANE_RADIUS)
        self._threats: npt.NDArray[np.float64] | None = None
        self._menaces: npt.NDArray[np.float64] | None = None
        self.goals = [
            cell
            for objective in objectives
            if isinstance(objective, Reach) and objective.team == self.team
            for cell in objective.cells
        ]
        # The foes win when the next round begins (they survive it): a Bonus Action kept now
        # defends nothing that matters.
        self.last_round = any(
            isinstance(objective, Survive)
            and objective.team != self.team
            and world.turn.round >= objective.rounds
            for objective in objectives
        )
        # Cells the foes win by reaching: worth standing on or beside, and a foe near one is
        # the first to stop.
        self.guarded = [
            cell
            for objective in objectives
            if isinstance(objective, Reach) and objective.team != self.team
            for cell in objective.cells
        ]
        if self.guarded:
            # One warden is enough (standing on the cell bars it): the nearest of the side;
            # the others hunt.
            def near(u: str) -> int:
                return min(chebyshev(world.need(u, Position).cell, g) for g in self.guarded)

            mates = [
                u
                for u in creatures(world)
                if team_of(world, u) == self.team and not incapacitated(world, u)
            ]
            self.warden = min(mates, key=lambda u: (near(u), u)) == unit
        else:
            self.warden = False

    def kept(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, worked out once per context for `key`: what an evaluator weighs alike for
        each of its candidates (a Feint's best blow, whichever foe it feints)."""
        if key not in self._kept:
            self._kept[key] = make()
        return self._kept[key]  # type: ignore[return-value]

    # --- shared measures ---
    def hit_value(self, target: str, weapon: str | None, melee: bool) -> tuple[float, float, float]:
        return best_defence(self.odds(self.unit, target, weapon, melee), hp(self.world, target))

    def odds(
        self, attacker: str, target: str, weapon: str | None, melee: bool
    ) -> tuple[AttackOdds, ...]:
        """`attack_odds` of one attack in this world, worked out once: they read the two
        creatures' conditions, budgets and gear, never where they stand, so they serve an
        attack from any cell a move would end in (`strike`: hundreds of cells, issue #30)."""
        key = (attacker, target, weapon, melee)
        found = self._odds.get(key)
        if found is None:
            found = self._odds[key] = attack_odds(
                self.world, attacker, target, weapon=weapon, melee=melee
            )
        return found

    def threat(self, cell: Pos) -> float:
        """Damage the foes can be expected to deal to this creature standing in `cell`: a foe
        that reaches it from where it stands counts two attacks, one that can come close
        counts one."""
        if self.window.holds(cell):
            if self._threats is None:
                self._threats = self._weighed(
                    lambda foe, there: reached_plane(
                        self.world, foe, there, self.window, side(self.world, self.unit)
                    ),
                    self.foe_damage,
                )
            return float(self._threats[self.window.local(cell)])
        if cell not in self._threat:
            self._threat[cell] = self.threat_at(cell)
        return self._threat[cell]

    def threat_at(self, cell: Pos) -> float:
        """`threat` of one cell, worked out on its own (a cell beyond `window`)."""
        total = 0.0
        for foe in self.foes:
            there = self.world.need(foe, Position).cell
            # R-Z3: a large creature is reached at any cell of its footprint from `cell`.
            reached = reaches(self.world, foe, there, cell, target_side=side(self.world, self.unit))
            weight = attack_count(reached, chebyshev(cell, there))
            if weight:
                total += weight * self.foe_damage(foe)
        return total

    def _weighed(
        self,
        reaching: Callable[[str, Pos], npt.NDArray[np.bool_]],
        damage: Callable[[str], float],
    ) -> npt.NDArray[np.float64]:
        """`threat` or `menace` of every cell of `window` at once (issue #11): for each foe in
        turn, `attack_count` of its plane of reach (`reaching(foe, its cell)`) times its `damage`,
        added up in the same order as the sum of one cell (adding the 0 of a foe far off
        changes nothing)."""
        total = np.zeros(self.window.shape, dtype=np.float64)
        for foe in self.foes:
            there = self.world.need(foe, Position).cell
            near = gaps(self.window, there) <= CLOSE
            weight = np.where(
                reaching(foe, there), REACHING_ATTACKS, np.where(near, CLOSE_ATTACKS, 0.0)
            )
            total = total + weight * damage(foe)
        return total

    def strike(self, cell: Pos, half: int) -> tuple[float, str]:
        """The best that `half` ½ Actions of attacks from `cell` on one foe can deal it (each
        ½ Action an attack, at most two), and that foe ("" for none)."""
        key = (cell, half)
        if key in self._strike:
            return self._strike[key]
        best, target = 0.0, ""
        if half > 0:
            moved: World | None = None  # the world with the creature at `cell`, made once
            for foe in self.foes:
                there = self.world.need(foe, Position).cell
                if not reaches(self.world, self.unit, cell, there):
                    continue
                if moved is None:
                    moved = self.world
                    if cell != self.here:
                        moved = self.world.copy()
                        moved.set(self.unit, Position(cell))
                # The weapon the attack would use: valued unarmed (weapon None), a strike
                # from the end cell dealt nothing through armour, and no move set one up.
                plan = plan_attack(moved, a.Attack(self.unit, target=foe))
                if isinstance(plan, Refusal):
                    continue
                # The odds of the moved world are this one's (`odds`): only the place differs.
                _, dealt, kill = self.hit_value(foe, plan.weapon, plan.melee)
                value = dealt * min(half, 2) + KILL * kill
                if value > best:
                    best, target = value, foe
        self._strike[key] = (best, target)
        return best, target

    def menace(self, cell: Pos) -> float:
        """Damage this creature can be expected to deal the foes from `cell` in its next turn,
        weighed as `threat` weighs theirs: two attacks on a foe it reaches from there, one on
        a foe close by."""
        if self.window.holds(cell):
            if self._menaces is None:
                self._menaces = self._weighed(
                    lambda foe, there: reaching_plane(
                        self.world, self.unit, there, self.window, side(self.world, foe)
                    ),
                    self.own_damage,
                )
            return float(self._menaces[self.window.local(cell)])
        if cell not in self._menace:
            self._menace[cell] = self.menace_at(cell)
        return self._menace[cell]

    def menace_at(self, cell: Pos) -> float:
        """`menace` of one cell, worked out on its own (a cell beyond `window`)."""
        total = 0.0
        for foe in self.foes:
            there = self.world.need(foe, Position).cell
            wide = side(self.world, foe)  # R-Z3: any cell of a large foe
            weight = attack_count(
                reaches(self.world, self.unit, cell, there, target_side=wide),
                chebyshev(cell, there),
            )
            if weight:
                total += weight * self.own_damage(foe)
        return total

    def shoots(self) -> bool:
        """Whether it can shoot a foe from where it stands (a ranged attack the rules allow)."""
        if self._shoots is None:
            self._shoots = False
            for foe in self.foes:
                plan = plan_attack(self.world, a.Attack(self.unit, target=foe))
                if not isinstance(plan, Refusal) and not plan.melee:
                    self._shoots = True
                    break
        return self._shoots

    def sheltered(self, cell: Pos) -> float:
        """The damage of one blow of each foe close by that could strike this creature in
        `cell` only from ground it must climb up to first (R-A4, R-M7): a ledge."""
        if self._sheltered is not None and self.window.holds(cell):
            return float(self._sheltered[self.window.local(cell)])
        return self.sheltered_at(cell)

    def sheltered_plane(self) -> npt.NDArray[np.float64]:
        """`sheltered` of every cell of `window`, worked out once (issue #30: the move
        evaluator asks it of hundreds of cells, each of every foe): only a cell close to a foe
        and higher than its ground can be, and each foe's damage is added in the foes' order,
        as one cell's sum adds it."""
        if self._sheltered is None:
            win = self.window
            heights = self.world.grid.layers["height"]
            total = np.zeros(win.shape, dtype=np.float64)
            for foe in self.foes:
                there = self.world.need(foe, Position).cell
                y0, y1 = max(win.y0, there.y - CLOSE), min(win.y1, there.y + CLOSE + 1)
                x0, x1 = max(win.x0, there.x - CLOSE), min(win.x1, there.x + CLOSE + 1)
                level = heights[there.y, there.x]
                for y, x in np.argwhere(heights[y0:y1, x0:x1] > level).tolist():
                    if self.climbs(foe, Pos(x0 + x, y0 + y)):
                        total[y0 + y - win.y0, x0 + x - win.x0] += self.foe_damage(foe)
            self._sheltered = total
        return self._sheltered

    def sheltered_at(self, cell: Pos) -> float:
        """`sheltered` of one cell, worked out on its own: a cell beyond `window`, or any
        before the move evaluator asks for the plane (a stance asks only where it stands)."""
        total = 0.0
        for foe in self.foes:
            if self.climbs(foe, cell):
                total += self.foe_damage(foe)
        return total

    def climbs(self, foe: str, cell: Pos) -> bool:
        """Whether `foe`, close by, could strike this creature in `cell` only from ground it
        must climb up to first (`sheltered`)."""
        grid = self.world.grid
        there = self.world.need(foe, Position).cell
        if chebyshev(cell, there) > CLOSE:
            return False
        level = grid.ground_half(there)
        if grid.ground_half(cell) <= level:
            return False  # no higher than the foe: it strikes up or across as ever
        # A rise above half its height needs a Jump (R-M3), one above its height a Climb
        # (R-M6, R-M7): a 1 Action on a face it may hang from, not a step.
        tall = self.world.need(foe, Body).height
        spots = reaching_from(self.world, foe, cell)
        return all((grid.ground_half(spot) - level) / 2 > tall for spot in spots)

    def downed(self, unit: str, left: float) -> float:
        """The chance that `unit` of its side, with `left` hit points, goes down before its
        next turn to one blow of a foe that can strike it (`attack_count` blows of each, each
        met by its best defence): a blow that deals at least what is left."""
        world = self.world
        cell = world.need(unit, Position).cell
        standing = 1.0
        for foe in self.foes:
            there = world.need(foe, Position).cell
            reached = reaches(world, foe, there, cell, target_side=side(world, unit))
            weight = attack_count(reached, chebyshev(cell, there))
            if not weight:
                continue
            odds = min(foe_odds(world, foe, unit), key=lambda o: o.damage)
            if odds.per_hit >= left:
                standing *= (1.0 - odds.hit) ** weight
        return 1.0 - standing

    def rescue(self, unit: str, healed: float) -> float:
        """What `healed` hit points given to `unit` of its side are worth beyond themselves:
        `heal_rescue` of a creature taken out of the fight (KILL) for each share of the chance
        of its going down before its next turn (`downed`) that they take away."""
        if not self.w.heal_rescue or healed <= 0:
            return 0.0
        left = hp(self.world, unit)
        saved = self.downed(unit, left) - self.downed(unit, left + healed)
        return self.w.heal_rescue * KILL * saved

    def blow(self, item: str | None, *, here: bool) -> float:
        """What one attack with `item` (None: its fists; a ranged weapon shot, any other
        swung) deals the foe it hurts most, that foe defending as well as it can; `here`: only
        a foe it can attack from where it stands, in reach of a swing or in range and sight of
        a shot (R-A4, R-A5). 0 for an item that is no weapon."""
        world = self.world
        kind = weapon_kind(world, item)
        if item is not None and kind is None:
            return 0.0
        melee = kind is None or kind.ranged is None
        best = 0.0
        for foe in self.foes:
            if here and not self._reaches_with(foe, kind):
                continue
            odds = attack_odds(world, self.unit, foe, weapon=item, melee=melee)
            best = max(best, min(o.damage for o in odds))
        return best

    def _reaches_with(self, foe: str, kind: Weapon | None) -> bool:
        """Whether an attack with a weapon of `kind` (None: fists) reaches `foe` from here."""
        world = self.world
        there = world.need(foe, Position)
        wide = side(world, foe)
        if kind is None or kind.ranged is None:
            return reaches(
                world, self.unit, self.here, there.cell, up=there.elevation, target_side=wide
            )
        return shot_problem(world, self.unit, foe, kind) is None

    def best_strike(self) -> float:
        """What one attack from where it stands can win at best: what an action that spends
        a ½ Action gives up. `strike` of one ½ Action weighs the blow an unnamed attack makes,
        which in reach is the melee one (an archer's fists beside a foe, 0 through armour), so
        each shot of a ranged weapon it holds is weighed too: an archer beside the orc brute
        tripped it every turn (83 %, no damage) as if it gave up nothing, rather than shoot
        (2.8 damage expected), and the brute stood up every turn."""
        if self._best_strike is None:
            best = self.strike(self.here, 1)[0]
            hands = self.world.get(self.unit, Hands)
            for item in hands.items() if hands is not None else ():
                kind = weapon_kind(self.world, item)
                if kind is None or kind.ranged is None:
                    continue
                for foe in self.foes:
                    plan = plan_attack(self.world, a.Attack(self.unit, target=foe, weapon=item))
                    if isinstance(plan, Refusal) or plan.melee:
                        continue
                    _, dealt, kill = self.hit_value(foe, plan.weapon, False)
                    best = max(best, dealt + KILL * kill)
            self._best_strike = best
        return self._best_strike

    def threat_after(self, decision: a.Action) -> float:
        """`threat` where it stands once a sure action (a Brace, an Evade) has had its
        effect: the same foes' damage against the defences it would then have."""
        changed = after(self.world, decision)
        # One cell of a world made for one question: its sum, not a window's plane (the same
        # number: tests/ai/test_planes.py).
        return Context(changed, self.unit, weights=self.w).threat_at(self.here)

    def coming_threat(self) -> float:
        """`threat` where it stands less the blows of the foes below a ledge that must climb
        up to it first (`sheltered`): the blows that can come this turn, as a stance weighs
        them when `stance_stake`."""
        return self.threat(self.here) - CLOSE_ATTACKS * self.sheltered(self.here)

    def coming_threat_after(self, decision: a.Action) -> float:
        """`coming_threat` once a sure action has had its effect (`threat_after`)."""
        changed = after(self.world, decision)
        fresh = Context(changed, self.unit, weights=self.w)
        return fresh.threat_at(self.here) - CLOSE_ATTACKS * fresh.sheltered_at(self.here)

    def own_damage(self, foe: str) -> float:
        """What one melee attack of this creature on `foe` is expected to deal, `foe`
        defending as well as it can, worked out once."""
        if foe not in self._own_damage:
            weapon = melee_weapon(self.world, self.unit, foe)
            self._own_damage[foe] = least_damage(self.odds(self.unit, foe, weapon, True))
        return self._own_damage[foe]

    def lifted(self) -> bool:
        """Whether it hangs on a face (R-M7): it leaves its first cell from a height."""
        if self._lifted is None:
            self._lifted = self.world.need(self.unit, Position).elevation != 0
        return self._lifted

    def move_planes(self) -> MovePlanes:
        """`threat`, `menace` and `nearest_foe` of every cell of `window` as planes, and where
        a foe is close enough that `strike` may find one to strike, worked out once: the move
        evaluator reads them for each of hundreds of candidate cells."""
        if self._move_planes is None:
            self.threat(self.here)  # the planes, made once
            self.menace(self.here)
            self.nearest_foe(self.here)
            assert self._threats is not None and self._menaces is not None
            assert self._nearest_plane is not None
            # `reaches` is False beyond the reach of the creature's footprint to the foe's
            # (R-A4, R-Z3): a bound over every foe's size, so a cell past it strikes no one.
            world = self.world
            bound = reach_cells(world, self.unit) + side(world, self.unit)
            bound += max((side(world, foe) for foe in self.foes), default=1)
            close = np.zeros(self.window.shape, dtype=np.bool_)
            for foe in self.foes:
                close |= gaps(self.window, world.need(foe, Position).cell) <= bound
            local = self.window.local(self.here)
            self._move_planes = MovePlanes(
                self.window.x0,
                self.window.y0,
                float(self._threats[local]),
                float(self._menaces[local]),
                int(self._nearest_plane[local]),
                self._threats,
                self._menaces,
                self._nearest_plane,
                close,
            )
        return self._move_planes

    def reached(self) -> frozenset[Pos]:
        """`provoking_cells`, worked out once: only leaving one of these can provoke (R-R4)."""
        if self._reached is None:
            self._reached = provoking_cells(self.world, self.unit)
        return self._reached

    def nearest_reached(self, kind: type[a.Movement], field: Field) -> int:
        """The least cost, by `kind`'s search, of a cell some foe reaches (`reached`),
        worked out once per Movement Action; INF if it gets to none."""
        if kind not in self._nearest_reached:
            costs = (field.cost(q) for q in self.reached())
            self._nearest_reached[kind] = min((c for c in costs if c is not None), default=INF)
        return self._nearest_reached[kind]

    def foe_damage(self, foe: str) -> float:
        """`foe_damage` of `foe` on this creature, worked out once."""
        if foe not in self._foe_damage:
            weapon = melee_weapon(self.world, foe, self.unit)
            self._foe_damage[foe] = least_damage(self.odds(foe, self.unit, weapon, True))
        return self._foe_damage[foe]

    def reach_map(self, kind: type[a.Movement]) -> ReachMap:
        """The reach map of one Movement Action, made once (not once per candidate cell)."""
        found = self.maps.get(kind)
        if found is None:
            found = self.maps[kind] = reach_map(self.world, self.unit, only=(kind,))
        return found

    def provoked_rows(self, kind: type[a.Movement]) -> tuple[Window, list[list[float]]] | None:
        """For every cell of the search `kind`'s reach map reads its cells off (rows [y][x] of
        the window given with them), what a move of a creature on the ground there provokes,
        as `provoked_damage` weighs it: nothing where no move of the kind ends or where it
        costs no more than the nearest cell a foe reaches (the path passes no such cell), else
        `provoked_on`. None when the map's cells were not all found by one search (a Jump's
        each have a path of their own). Worked out once per Movement Action (issue #30: a turn
        weighs hundreds of cells)."""
        if kind not in self._provoked_rows:
            grid = self.provoked_grid(kind)
            self._provoked_rows[kind] = None if grid is None else (grid[0], grid[1].tolist())
        return self._provoked_rows[kind]

    def provoked_grid(
        self, kind: type[a.Movement]
    ) -> tuple[Window, npt.NDArray[np.float64]] | None:
        """`provoked_rows` as an array [y, x] of its window (not to be changed). Read off the
        search itself (`search_of`), not a reach map made of it (issue #30: the listing has
        made the search already, the map would be made again)."""
        if kind in self._provoked_grid:
            return self._provoked_grid[kind]
        found = search_of(self.world, self.unit, kind)
        grid: tuple[Window, npt.NDArray[np.float64]] | None = None
        if found is not None:
            field, limit = found
            win = field.window
            # The cells the map offers (`pf.offer`): a move may end there within the limit.
            ok = (field.dist <= limit) & field.ground.can_end
            ok[win.local(field.start)] = False
            if self.here not in self.reached():
                ok &= field.dist > self.nearest_reached(kind, field)
            out = np.zeros(win.shape, dtype=np.float64)
            ys, xs = np.nonzero(ok)
            if len(ys):
                out[ys, xs] = self._provoked_plane(kind, field)[ys, xs]
            grid = (win, out)
        self._provoked_grid[kind] = grid
        return grid

    def _provoked_plane(self, kind: type[a.Movement], field: Field) -> npt.NDArray[np.float64]:
        """`provoked_on`'s plane over `field`'s window, worked out when first asked."""
        plane = self._provoked.get(kind)
        if plane is None:
            asked = field.ground.can_end.copy()
            if self.here not in self.reached():
                asked &= field.dist > self.nearest_reached(kind, field)
            plane = provoked_along(self.world, self.unit, field, self.foe_damage, asked)
            self._provoked[kind] = plane
        return plane

    def provoked_on(self, kind: type[a.Movement], field: Field, cell: Pos) -> float:
        """`provoked_along` by `kind`'s field to `cell` of a creature on the ground, each
        provocation weighed by `foe_damage` (whether the foe can pay for it or not), worked out
        for every cell of the field at once when first asked: the cells past the shortcut of
        `provoked_damage` (costing more than the nearest cell a foe reaches), or every cell when the
        creature stands in a foe's reach."""
        return float(self._provoked_plane(kind, field)[field.window.local(cell)])

    def nearest_foe(self, cell: Pos) -> int:
        """How many cells `cell` is from the nearest cell this creature could strike a foe
        from (R-A4, heights included). The foe's own cell is no measure: a swimmer beside a
        quay, or a climber below a ledge, stands next to a foe it cannot reach and would never
        move to get out or up."""
        known = self._nearest.get(cell)
        if known is not None:
            return known
        if self._strike_cells is None:
            self._strike_cells = self._strikes()
            # Where to measure from, as an array: every candidate move asks (issue #11).
            spots = self._strike_cells or [self.world.need(f, Position).cell for f in self.foes]
            self._from = np.array([(s.x, s.y) for s in spots], dtype=np.int64).reshape(-1, 2)
        if self.window.holds(cell):
            if self._nearest_plane is None:
                # Every cell around at once: the least gap to any spot, cell by cell, every
                # spot in one broadcast (issue #30: a plane a spot cost more than the sums).
                win = self.window
                plane = np.zeros(win.shape, dtype=np.int64)
                if len(self._from):
                    xs = np.abs(np.arange(win.x0, win.x1)[None, :] - self._from[:, :1])
                    ys = np.abs(np.arange(win.y0, win.y1)[None, :] - self._from[:, 1:])
                    plane = np.maximum(xs[:, None, :], ys[:, :, None]).min(axis=0)
                self._nearest_plane = plane
            return int(self._nearest_plane[self.window.local(cell)])
        found = self.nearest_foe_at(cell)
        self._nearest[cell] = found
        return found

    def nearest_foe_at(self, cell: Pos) -> int:
        """`nearest_foe` of one cell, worked out on its own (a cell beyond `window`)."""
        self.nearest_foe(self.here)  # where to measure from, made once
        apart = np.abs(self._from - (cell.x, cell.y)).max(axis=1)
        return int(apart.min()) if len(apart) else 0

    def _strikes(self) -> list[Pos]:
        """`strike_spots` of this creature and its foes."""
        return strike_spots(self.world, self.unit, self.foes)


@dataclass(frozen=True, slots=True)
class MovePlanes:
    """`Context.move_planes`: the window's corner (x0, y0), the values of the creature's own
    cell, and the planes as arrays [y, x] of the window (a caller weighs many cells at once;
    rows of Python numbers cost more to make than the few single cells read from them)."""

    x0: int
    y0: int
    threat_here: float
    menace_here: float
    nearest_here: int
    threat_plane: npt.NDArray[np.float64]
    menace_plane: npt.NDArray[np.float64]
    nearest_plane: npt.NDArray[np.int64]
    close_plane: npt.NDArray[np.bool_]


def hit_value(
    world: World, unit: str, target: str, weapon: str | None, melee: bool
) -> tuple[float, float, float]:
    """(chance to hit, expected damage, kill chance) of one attack of `unit` now, against the
    defence that serves the target best (it is assumed to choose well)."""
    return best_defence(
        attack_odds(world, unit, target, weapon=weapon, melee=melee), hp(world, target)
    )


def best_defence(odds: tuple[AttackOdds, ...], left: int) -> tuple[float, float, float]:
    """`hit_value` of an attack's `odds` on a target with `left` hit points."""
    worst = min(odds, key=lambda o: o.hit)
    kill = worst.hit if worst.per_hit >= left else 0.0
    return worst.hit, worst.damage, kill


REACHING_ATTACKS, CLOSE_ATTACKS, CLOSE = 2.0, 0.7, 4
# Cells around a creature whose threat and menace are worked out at once: further than any
# Movement Action of the shipped creatures goes; a cell beyond is weighed on its own.
PLANE_RADIUS = 32


def attack_count(reaching: bool, gap: int) -> float:
    """How many attacks `threat` and `menace` count between two creatures: two when one
    reaches the other where they stand, 0.7 when they are close (it can come in), else none."""
    if reaching:
        return REACHING_ATTACKS
    return CLOSE_ATTACKS if gap <= CLOSE else 0.0


def chebyshev(p: Pos, q: Pos) -> int:
    return max(abs(p.x - q.x), abs(p.y - q.y))


def foe_odds(world: World, foe: str, unit: str) -> tuple[AttackOdds, ...]:
    """The odds of one melee attack of `foe` on `unit`, with the weapon it would use: the
    melee weapon in its hands when `unit` is out of its reach now (a threat from a cell it
    would come to was counted unarmed, nothing through armour)."""
    return attack_odds(world, foe, unit, weapon=melee_weapon(world, foe, unit), melee=True)


def melee_weapon(world: World, foe: str, unit: str) -> str | None:
    """The weapon `foe_odds` weighs `foe`'s melee attack on `unit` with."""
    plan = plan_attack(world, a.Attack(foe, target=unit))
    if isinstance(plan, Refusal) or not plan.melee:
        return held_weapon(world, foe, melee=True)
    return plan.weapon


def foe_damage(world: World, foe: str, unit: str) -> float:
    """What one attack of `foe` on `unit` is expected to deal, `unit` defending as well as it
    can."""
    return least_damage(foe_odds(world, foe, unit))


def least_damage(odds: tuple[AttackOdds, ...]) -> float:
    """`foe_damage` of an attack's `odds`: the defence that spares the most."""
    return min(o.damage for o in odds)


def strike_spots(world: World, unit: str, foes: Sequence[str]) -> list[Pos]:
    """Every open cell no other creature stands in from which `unit` reaches a foe where it
    stands (R-A4, heights included). R-Z3: for a large creature, or a large foe, every
    top-left from which its footprint, clear of walls and of the others', reaches any cell of
    the foe's: where its Position would be."""
    grid = world.grid
    mine = side(world, unit)
    taken = {
        cell
        for u in creatures(world)
        if u != unit and not incapacitated(world, u)
        for cell in cells_of(world, u)
    }

    def open_(spot: Pos) -> bool:
        return all(
            grid.inside(cell) and cell not in taken and grid.kind(cell) != Kind.WALL
            for cell in footprint(spot, mine)
        )

    out: list[Pos] = []
    for foe in foes:
        target = world.need(foe, Position).cell
        theirs = side(world, foe)
        if mine == 1 and theirs == 1:
            out += [s for s in reaching_from(world, unit, target) if open_(s)]
            continue
        cells = reach_cells(world, unit)
        out += [
            at
            for y in range(target.y - cells - mine + 1, target.y + theirs + cells)
            for x in range(target.x - cells - mine + 1, target.x + theirs + cells)
            if open_(at := Pos(x, y)) and reaches(world, unit, at, target, target_side=theirs)
        ]
    return out


def after(world: World, decision: a.Action) -> World:
    """A copy of `world` with `decision`'s effects applied, for an action without dice (a
    stance, an Aim): what it changes, read off the rules rather than guessed."""
    changed = world.copy()
    for event in RULEBOOK[type(decision)].resolve(changed, decision, SeededDice(0)):
        if not isinstance(event, Ask):
            apply(changed, event)
    return changed


def _normal() -> Weights:
    """The weight set of the level `normal` (sim/data/ai.toml)."""
    weights = book().levels["normal"].weights
    assert weights is not None, "the level normal ranks by a weight set"
    return weights
