"""The hover tips over the board: what a click on the hovered cell does (the path and its cost,
an attack and its odds, the action being targeted, marking Prepare's area), each in a box beside
the cell that covers neither it nor the creatures it is about. The words come from the scene's
answers (sim/ui/model/scene.py); this module places and draws them."""

from __future__ import annotations

import pygame

from sim.core.actions import Cost, Disengage, Refusal
from sim.core.components import ExtendedAction, Health, Position
from sim.core.creature import creatures, incapacitated, team_of
from sim.core.geometry import Pos
from sim.core.world import World
from sim.rules.budget import price
from sim.rules.reach.reachmap import Hang
from sim.ui.draw.camera import Camera
from sim.ui.draw.panel import Panel, cell_rect
from sim.ui.draw.text import Fonts
from sim.ui.look import palette as pal
from sim.ui.look.metrics import Metrics
from sim.ui.model.actionbar import build, cost_label
from sim.ui.model.intent import aim_needs, aim_words, assist_step
from sim.ui.model.planner import PathPlan
from sim.ui.model.risk import warning
from sim.ui.model.scene import Scene, turn_unit, unit_at
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.wording import named_items, rule_ids


class Tips(Panel):
    """The tip of the last frame (its lines and box) is kept for the tests and the app."""

    def __init__(self, fonts: Fonts, metrics: Metrics, scene: Scene) -> None:
        super().__init__(fonts, metrics, scene)
        self.tip: tuple[tuple[str, ...], pygame.Rect] | None = None
        self.token_rects: list[pygame.Rect] = []  # the creatures' cells this frame
        # Where results show on the board this frame (a hit, a miss, damage): a tip keeps off
        # them, as it keeps off what it describes.
        self.marker_rects: list[pygame.Rect] = []
        self.world: World | None = None  # the battle's world, for the tips' item names

    def odds_rows(self, session: Session, view: View) -> list[tuple[str, pal.RGB]]:
        """The forecast's lines for a tip, wrapped to its width."""
        found = self.scene.forecast(session, view)
        if found is None:
            return []
        rows: list[tuple[str, pal.RGB]] = []
        for i, line in enumerate(found.lines):
            colour = pal.TEXT_DIM if i == 0 and found.note else pal.TEXT
            rows += [(part, colour) for part in self.fonts.wrap(line, self.m.font, self.m.px(380))]
        return rows

    def cell_tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        session: Session,
        view: View,
        hover: Pos,
    ) -> None:
        """The tip beside a hovered cell no path ends in: what a click does with the action
        being targeted or, with the acting creature selected, on an enemy (an attack)."""
        world = session.battle.world
        avoid: tuple[pygame.Rect, ...] = ()
        if view.targeting:
            key = (*self.scene.aim_key(session, view), hover)
            rows = self.memo.get("target_tip", key, lambda: self._target_rows(session, view, hover))
            if view.selected and world.has(view.selected, Position):
                avoid = (cell_rect(camera, world.need(view.selected, Position).cell),)
        else:
            actor = turn_unit(session)
            if actor is None or view.selected != actor:
                return
            key = (session.version, hover, actor, view.side, view.omniscient,
                   view.preparing is not None, view.slow, view.quicken, view.confirm)  # fmt: skip
            rows = self.memo.get("enemy_tip", key, lambda: self._enemy_rows(session, view, hover))
        odds = self.scene.forecast(session, view)
        if odds is not None:  # keep the places a shove may land in sight
            avoid += tuple(cell_rect(camera, c) for landing in odds.landings for c in landing.cells)
        if rows:
            self.box(surface, board, cell_rect(camera, hover), rows, avoid)

    def _enemy_rows(self, session: Session, view: View, hover: Pos) -> list[tuple[str, pal.RGB]]:
        world = session.battle.world
        actor = turn_unit(session)
        assert actor is not None
        if not view.sits_for(team_of(world, actor)):
            return []
        unit = unit_at(world, hover, view.eyes)
        if unit is None or team_of(world, unit) == team_of(world, actor):
            return []
        hp = world.need(unit, Health)
        down = incapacitated(world, unit)
        rows: list[tuple[str, pal.RGB]] = [
            (f"{unit}  HP {hp.hp}/{hp.max_hp}{', down' if down else ''}", pal.TEXT)
        ]
        if down:
            # R-C6: at 0 HP or less it is Incapacitated whatever the number; R-K2: Aid brings
            # it back at 1 HP however far below 0 it went, so a further hit changes nothing.
            rows.append(("it is out of the fight: a hit only lowers its HP", pal.TEXT_DIM))
        if view.preparing is not None:
            rows.append(("choose the action to hold ready in the bar", pal.TEXT_DIM))
            rows.append(("click to select it", pal.TEXT_DIM))
            return rows
        result = self.scene.attack_verdict(session, view, actor, unit)
        if isinstance(result, Refusal):
            rows.append(("cannot attack:", pal.TEXT_BAD))
            rows += [
                (line, pal.TEXT_BAD)
                for line in self.fonts.wrap(result.reason, self.m.font, self.m.px(340))
            ]
            rows.append(("click to select it", pal.TEXT_DIM))
        else:
            rows.append((f"click: attack {unit} ({cost_label(result)})", pal.TEXT))
            rows += self.odds_rows(session, view)
            attack = build(actor, "attack", view.slow, view.quicken, target=unit)
            why = warning(world, attack) if not isinstance(attack, str) else ""
            rows += self.confirm_rows(view, why, attack)
            if not why:  # every attack rolls: said, though it is what a player expects
                rows.append(("rolls dice: no undo goes back past it", pal.TEXT_DIM))
        return rows

    def confirm_rows(
        self, view: View, why: str, decision: object | None
    ) -> list[tuple[str, pal.RGB]]:
        """A decision that waits for a second click (sim/ui/model/risk.py): why, and what the
        next click does; none for one that goes at once."""
        if not why:
            return []
        rows = [(line, pal.YELLOW) for line in self.fonts.wrap(why, self.m.font, self.m.px(380))]
        held = view.confirm is not None and view.confirm.decision == decision
        if held:
            return [*rows, ("click again or press Enter to go ahead (Esc: not)", pal.YELLOW)]
        return [*rows, ("a click asks once more before it goes", pal.TEXT_DIM)]

    def _target_rows(self, session: Session, view: View, hover: Pos) -> list[tuple[str, pal.RGB]]:
        """What clicking `hover` would do with the action being targeted, as the click does."""

        world = session.battle.world
        what = view.targeting or ""
        if view.ability:
            what += f" {view.ability}"
        aim = aim_needs(world, view)
        words = assist_step(view) if view.targeting == "assist" else aim_words(aim)
        rows: list[tuple[str, pal.RGB]] = [(f"{what}: choose {words} (Esc cancels)", pal.TEXT)]
        result = self.scene.aim_result(session, view, hover)
        if result is not None:
            ink = pal.TEXT if result.ok else pal.TEXT_BAD
            rows += [
                (line, ink) for line in self.fonts.wrap(result.words, self.m.font, self.m.px(380))
            ]
        return rows + self.odds_rows(session, view)

    def path_tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        plan: PathPlan,
        session: Session,
        view: View,
    ) -> None:
        rows: list[tuple[str, pal.RGB]] = []
        if plan.action is None:
            rows.append(("cannot move there", pal.TEXT_BAD))
            for line in self.fonts.wrap(plan.refusal, self.m.font, self.m.px(360)):
                rows.append((line, pal.TEXT_BAD))
        else:
            head = (
                f"{plan.action.title()}{' submerged' if plan.submerged else ''} {plan.metres:g} m"
            )
            if plan.jumps:
                head += f", {len(plan.jumps)} jump{'s' if len(plan.jumps) > 1 else ''} (dashed)"
            rows.append((head, pal.TEXT))
            if plan.hang is not None:
                rows.append((hang_words(session.battle.world, plan.hang), pal.YELLOW))
            extended = session.battle.world.get(plan.unit, ExtendedAction)
            if extended is not None:  # R-B5: the move is paid from the turn it gives back
                what = extended.action.replace("_", " ")
                rows.append((f"breaks off its {what} (an Extended Action)", pal.YELLOW))
            # R-R5: the Disengage taken first is paid before the move, at its own price.
            first = price(session.battle.world, Disengage(plan.unit)) if view.disengage else None
            disengage = first.bonus if isinstance(first, Cost) else 0
            bonus_left = plan.bonus_left - disengage
            rows.append((f"left after: {plan.half_left} half, {bonus_left} bonus", pal.TEXT))
            if view.disengage and not plan.provocations:
                rows.append((f"Disengage first ({disengage} bonus): provokes nobody", pal.TEXT))
            for prov in plan.provocations:
                # R-R4, R-R8: only a foe with a Bonus Action left can take the attack; one
                # without is said to be harmless, not warned of.
                cell, enemy = prov.cell, prov.enemy
                if prov.can_react:
                    rows.append((f"! leaving {cell}: {enemy} may attack", pal.TEXT_BAD))
                else:
                    words = f"leaving {cell}: {enemy} cannot attack (no Bonus Action left)"
                    rows.append((words, pal.TEXT_DIM))
            world = session.battle.world
            end = plan.cells[-1] if plan.cells else None
            if end is not None and end == view.hover and plan.unit in creatures(world):
                own = team_of(world, plan.unit)
                enemies = [
                    u for u in self.scene.hover_info(session, view) if team_of(world, u) != own
                ]
                if enemies:
                    rows.append((f"ends in reach of: {', '.join(enemies)}", pal.TEXT_DIM))
            if view.waypoints:
                rows.append((f"{len(view.waypoints)} waypoint(s); Backspace removes", pal.TEXT_DIM))
            if view.preparing is not None:
                rows.append(("held ready, not taken now", pal.YELLOW))
            else:
                decision = plan.decision(view.slow, view.quicken)
                why = warning(session.battle.world, decision, plan.provocations) if decision else ""
                rows += self.confirm_rows(view, why, decision)
        end = plan.cells[-1] if plan.cells else view.hover
        assert end is not None
        world = session.battle.world
        # The whole path stays in sight, not only its ends: the tip describes it.
        keep = [world.need(plan.unit, Position).cell, *plan.cells, *view.waypoints,
                *(p.cell for p in plan.provocations)]  # fmt: skip
        avoid = tuple(cell_rect(camera, cell) for cell in dict.fromkeys(keep) if cell != end)
        self.box(surface, board, cell_rect(camera, end), rows, avoid)

    def mark_tip(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        camera: Camera,
        session: Session,
        view: View,
        hover: Pos,
    ) -> None:
        """What a click does while Prepare's area is being marked."""
        marked = view.marking or []
        if hover in marked:
            head = f"click: unmark {hover}"
        elif (problem := self.scene.mark_problem(session, hover)) is not None:
            head = problem
        else:
            head = f"click: mark {hover}"
        rows: list[tuple[str, pal.RGB]] = [
            (head, pal.TEXT),
            (f"{len(marked)} marked; Enter when done, Esc cancels", pal.TEXT_DIM),
        ]
        self.box(surface, board, cell_rect(camera, hover), rows)

    def box(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        cell: pygame.Rect,
        rows: list[tuple[str, pal.RGB]],
        avoid: tuple[pygame.Rect, ...] = (),
    ) -> None:
        """A box of text beside the hovered `cell`, on the board, in the first place around it
        that covers neither the cell nor the `avoid` rectangles (the mover, the cells where it
        would provoke)."""
        # Rule ids go to a details row of their own, under the words.
        ids: list[str] = []
        plain = []
        world = self.world
        for text, colour in rows:
            words, found = rule_ids(named_items(text, world) if world is not None else text)
            plain.append((words, colour))
            ids += [i for i in found if i not in ids]
        rows = plain + ([(f"rules: {', '.join(ids)}", pal.TEXT_DIM)] if ids else [])
        size = self.m.font
        step = self.fonts.font(size).get_height()
        gap, pad = self.m.px(6), self.m.px(5)
        width = max(self.fonts.width(t, size) for t, _ in rows) + 2 * gap
        height = len(rows) * step + 2 * pad
        r = cell
        tries = [
            (r.right + gap, r.top),
            (r.left - width - gap, r.top),
            (r.right + gap, r.bottom - height),
            (r.left - width - gap, r.bottom - height),
            (r.left, r.bottom + gap),
            (r.left, r.top - height - gap),
            (r.right - width, r.bottom + gap),
            (r.right - width, r.top - height - gap),
        ]
        boxes = [pygame.Rect(x, y, width, height) for x, y in tries]
        inside = [b for b in boxes if board.contains(b)] or boxes
        kept = [*avoid, *self.marker_rects]

        def covers(b: pygame.Rect) -> tuple[int, int, int]:
            # Never the hovered cell; then as little as can be of what the tip is about (the
            # path, the mover, the results shown), then of the creatures; else the first try.
            return (
                b.colliderect(cell),
                len(b.collidelistall(kept)),
                len(b.collidelistall(self.token_rects)),
            )

        box = min(inside, key=covers).clamp(board)
        self.tip = (tuple(text for text, _ in rows), box)
        pygame.draw.rect(surface, pal.PANEL, box)
        pygame.draw.rect(surface, pal.PANEL_EDGE, box, 1)
        for i, (text, colour) in enumerate(rows):
            self.fonts.draw(surface, text, (box.x + gap, box.y + pad + i * step), size, colour)


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
