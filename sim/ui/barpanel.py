"""The action bar's panel: the toggles, a button for every action with its cost (greyed with
the reason on hover when it cannot be taken), the last decision's result and the status line.
What the buttons offer comes from sim/ui/actionbar.py (the core's legal decisions); this module
only lays them out and draws them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from sim.creature import team_of
from sim.engine import AwaitingAction
from sim.ui import palette as pal
from sim.ui.actionbar import AREA_HELP, LABELS, ActionBar, Entry, trigger_words
from sim.ui.forecast import contest_words
from sim.ui.intent import acting_unit, aim_needs, aim_words, assist_step
from sim.ui.session import Session
from sim.ui.text import Fonts
from sim.ui.view import View
from sim.ui.wording import named_items, rule_ids

if TYPE_CHECKING:
    from sim.ui.render import Hits

TOGGLES = (
    ("reach", "Reach [R]"),
    ("threat", "Threats [T]"),
    ("own", "My reach [Y]"),
    ("disengage", "Disengage [G]"),
    ("slow", "Slow [S]"),
    ("quicken", "Quicken [Q]"),
    ("undo", "Undo [Z]"),
    ("undo_turn", "Undo turn [Sh+Z]"),
    ("save", "Save [F5]"),
    ("load", "Load [F9]"),
    ("help", "Help [F1]"),
)


class BarPanel:
    """The bar at the bottom of the window, its buttons flowed into rows for the width."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self.bar = ActionBar()
        self.height = 3 * pal.BAR_ROW_HEIGHT + 30
        self._bar_font = pal.FONT_SMALL + 1
        self._bar_row = pal.BAR_ROW_HEIGHT
        self._measured: tuple[object, ...] | None = None
        self._contest: tuple[tuple[object, ...], str] | None = None
        self.status = ""  # the last frame's status line under the bar
        self.details: tuple[str, ...] = ()  # the status line's rule ids, shown dim

    def entries(self, session: Session, view: View) -> list[Entry]:
        actor = acting_unit(session)
        world = session.battle.world
        pending = session.battle.pending
        foreign = actor is not None and not view.sits_for(team_of(world, actor))
        if not isinstance(pending, AwaitingAction) or foreign or view.replaying:
            actor = None
        side = view.eyes
        return self.bar.update(
            session.battle,
            session.version,
            actor,
            view.slow,
            view.quicken,
            side,
            view.preparing is not None,
        )

    def measure(self, size: tuple[int, int], session: Session, view: View) -> None:
        """Flow the bar's buttons into rows for this width, so the board knows its height."""
        w = size[0] - min(pal.SIDEBAR_WIDTH, max(220, size[0] // 4))
        f = self.fonts
        entries = self.entries(session, view)
        key = (size, id(entries))  # the bar keeps its list while nothing changed
        if key == self._measured:
            return
        self._measured = key
        # Normal buttons, or compact ones when a small window would give the bar too much.
        for fs, row_h in ((pal.FONT_SMALL + 1, pal.BAR_ROW_HEIGHT), (pal.FONT_SMALL - 2, 19)):
            widths = [f.width(label, fs) + 14 for _, label in TOGGLES]
            rows = self._rows(widths, w)
            widths = [self._button_width(e.name, fs) for e in entries]
            rows += self._rows(widths, w)
            self._bar_font, self._bar_row = fs, row_h
            self.height = rows * row_h + 54  # and the last result and status lines
            if self.height <= size[1] * 0.4:
                break

    def _button_width(self, name: str, size: int) -> int:
        """An action button's width: its name and room for the widest cost any button shows,
        so no button moves when a cost changes ("free" to "free+1B") or the action becomes
        unavailable: every button keeps its place for a given window and font."""
        f = self.fonts
        slot = max(f.width(label, size) for label in LABELS)
        return f.width(name.replace("_", " "), size) + slot + 20

    @staticmethod
    def _rows(widths: list[int], width: int) -> int:
        rows, x = 1, 6
        for item in widths:
            if x + item > width - 6 and x > 6:
                rows, x = rows + 1, 6
            x += item + 4
        return rows

    def draw(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        session: Session,
        view: View,
        hits: Hits,
    ) -> None:
        """The toggles, the action buttons, the Last line and the status line."""
        pygame.draw.rect(surface, pal.PANEL, rect)
        pygame.draw.line(surface, pal.PANEL_EDGE, rect.topleft, rect.topright, 2)
        f = self.fonts
        size = self._bar_font
        row_h = self._bar_row
        room = rect.bottom - 44  # the last result and the status line below the buttons
        hidden = 0  # buttons with no room left (a tiny window)
        x, y = rect.x + 6, rect.y + 5
        on = {
            "reach": view.show_reach, "threat": view.show_threat, "own": view.show_own,
            "disengage": view.disengage, "slow": view.slow, "quicken": view.quicken,
            "help": view.help,
        }  # fmt: skip
        for key, label in TOGGLES:
            width = f.width(label, size) + 14
            if x + width > rect.right - 6 and x > rect.x + 6:
                x, y = rect.x + 6, y + row_h
            box = pygame.Rect(x, y, width, row_h - 4)
            if box.bottom > room:
                hidden += 1
                continue
            active = on.get(key, False)
            pygame.draw.rect(surface, pal.SKY if active else pal.PANEL_LIGHT, box, border_radius=3)
            pygame.draw.rect(
                surface,
                pal.TEXT if active else pal.PANEL_EDGE,
                box,
                2 if active else 1,
                border_radius=3,
            )
            f.draw(surface, label, (x + 7, y + 3), size, pal.BLACK if active else pal.TEXT)
            hits.add(box, "toggle", key)
            x += width + 4
        x, y = rect.x + 6, y + row_h
        entries = self.entries(session, view)
        hovered: Entry | None = None
        for item in entries:
            label = item.name.replace("_", " ")
            cost = item.label
            width = self._button_width(item.name, size)
            if x + width > rect.right - 6 and x > rect.x + 6:
                x, y = rect.x + 6, y + row_h
            box = pygame.Rect(x, y, width, row_h - 4)
            if box.bottom > room:
                hidden += 1
                x += width + 4
                continue
            chosen = item.name in (view.move_only, view.targeting, view.picking, view.choosing) or (
                item.name == "prepare" and (view.preparing is not None or view.marking is not None)
            )
            if item.ok:
                pygame.draw.rect(
                    surface, pal.YELLOW if chosen else pal.PANEL_LIGHT, box, border_radius=3
                )
                pygame.draw.rect(surface, pal.TEXT, box, 1, border_radius=3)
                ink = pal.BLACK if chosen else pal.TEXT
                f.draw(surface, label, (x + 6, y + 3), size, ink)
                f.draw(
                    surface,
                    cost,
                    (box.right - 6, y + 3),
                    size,
                    pal.BLACK if chosen else pal.ORANGE,
                    bold=True,
                    anchor="topright",
                )
            else:
                pygame.draw.rect(surface, pal.PANEL, box, border_radius=3)
                pygame.draw.rect(surface, pal.PANEL_EDGE, box, 1, border_radius=3)
                r = f.draw(surface, label, (x + 6, y + 3), size, pal.TEXT_DIM)
                pygame.draw.line(
                    surface, pal.TEXT_DIM, (r.left, r.centery), (r.right, r.centery), 1
                )
                f.draw(surface, cost, (box.right - 6, y + 3), size, pal.TEXT_DIM, anchor="topright")
            hits.add(box, "action", item.name)
            if box.collidepoint(view.mouse):
                hovered = item
            x += width + 4
        status = view.status
        if hovered is not None:
            status = f"{hovered.name.replace('_', ' ')}: {hovered.detail}"
            chance = self.contest_words(session, hovered) if hovered.ok else ""
            if chance:  # first, so a narrow bar cuts the cost words, not the odds
                status = f"{hovered.name.replace('_', ' ')}: {chance}; {hovered.detail}"
        elif view.targeting:
            what = f"{view.targeting} {view.ability}" if view.ability else view.targeting
            aim = aim_words(aim_needs(session.battle.world, view))
            if view.targeting == "assist":
                aim = assist_step(view)
            status = f"{what}: click {aim} (Esc cancels)"
            if view.preparing is not None:
                status = f"Prepare {trigger_words(view.preparing)}: {status}"
        elif view.marking is not None and not status:
            status = AREA_HELP
        elif view.preparing is not None and not status.startswith("refused"):
            status = (
                f"Prepare {trigger_words(view.preparing)}: choose the action to hold ready"
                " (Esc cancels)"
            )
        if hidden:
            status = f"({hidden} buttons need a taller window) {status}"
        status, ids = rule_ids(named_items(status, session.battle.world))
        self.status = status
        self.details = ids
        details = 0
        if ids:  # the rule ids, dim at the right end of the status line
            details = self.fonts.width("rules: " + ", ".join(ids), pal.FONT_SMALL) + 12
            f.draw(
                surface,
                "rules: " + ", ".join(ids),
                (rect.right - 6, rect.bottom - 20),
                pal.FONT_SMALL,
                pal.TEXT_DIM,
                anchor="topright",
            )
        if view.last:
            f.draw(
                surface,
                f.fit(f"Last: {view.last}", pal.FONT_SMALL, rect.width - 12),
                (rect.x + 6, rect.bottom - 42),
                pal.FONT_SMALL,
                pal.YELLOW,
            )
        if status:
            f.draw(
                surface,
                f.fit(status, pal.FONT, rect.width - 12 - details),
                (rect.x + 6, rect.bottom - 22),
                pal.FONT,
                pal.TEXT if hovered is None or hovered.ok else pal.TEXT_BAD,
            )

    def contest_words(self, session: Session, hovered: Entry) -> str:
        """The chance of a contest aimed at no creature (break free, hide) for the bar."""
        actor = acting_unit(session)
        if actor is None:
            return ""
        world = session.battle.world
        key = (session.version, actor, hovered.name)
        if self._contest is None or self._contest[0] != key:
            self._contest = (key, contest_words(world, actor, hovered.name))
        return self._contest[1]
