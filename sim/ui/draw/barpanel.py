"""The action bar's panel: the toggles, a button for every action with its cost (greyed with
the reason on hover when it cannot be taken), the last decision's result and the status line.
What the buttons offer comes from sim/ui/model/actionbar.py (the core's legal decisions); this
module only lays them out and draws them."""

from __future__ import annotations

from typing import Any

import pygame

from sim.ui.draw.panel import Hits
from sim.ui.draw.text import Fonts
from sim.ui.look import palette as pal
from sim.ui.look.metrics import Metrics
from sim.ui.model.actionbar import LABELS, ActionBar, Entry, trigger_words
from sim.ui.model.intent import aim_needs, aim_words, assist_step
from sim.ui.model.scene import Scene
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.status import say
from sim.ui.words.wording import named_items, rule_ids

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
LOOKING = ("reach", "threat", "own", "help")  # the toggles that only change what is shown


class BarPanel:
    """The bar at the bottom of the window, its buttons flowed into rows for the width."""

    def __init__(self, fonts: Fonts, metrics: Metrics, scene: Scene) -> None:
        self.fonts = fonts
        self.m = metrics
        self.scene = scene
        self.height = 3 * metrics.bar_row + metrics.px(30)
        self._bar_font = self.m.px(pal.FONT_SMALL + 1)
        self._bar_row = metrics.bar_row
        self._measured: tuple[object, ...] | None = None
        self._toggles: tuple[tuple[str, str], ...] = TOGGLES
        self._widths: dict[tuple[str, int], int] = {}  # a button's width at a font size
        self._slots: dict[int, int] = {}  # the widest cost at a font size
        self._buttons: dict[tuple[Any, ...], pygame.Surface] = {}  # pictures by look
        self.status = ""  # the last frame's status line under the bar
        # The button the mouse rests on, and what the status line said when it came there: a
        # message said since (a refused Z or F9) is shown over the button's words until the
        # mouse goes to another button.
        self._resting: tuple[str, str] | None = None
        self.details: tuple[str, ...] = ()  # the status line's rule ids, shown dim

    def entries(self, session: Session, view: View) -> list[Entry]:
        """The buttons the scene answers for this state and view; none in the replay viewer,
        where nothing is decided (its bar is the overlay toggles and help)."""
        if view.replaying:
            return []
        return self.scene.entries(session, view)

    @property
    def bar(self) -> ActionBar:
        return self.scene.bar

    def measure(self, size: tuple[int, int], session: Session, view: View) -> None:
        """Flow the bar's buttons into rows for this width, so the board knows its height."""
        w = size[0] - self.m.sidebar_width(size[0])
        entries = self.entries(session, view)
        self._toggles = self.toggles(view)
        key = (size, id(entries), self.m, self._toggles)  # the list is kept while nothing changed
        if key == self._measured:
            return
        self._measured = key
        # Normal buttons, or compact ones when a small window would give the bar too much;
        # when even those need more rows than the bar may have (a large UI scale in a small
        # window), smaller ones still, down to the compact size at scale 1, so no button is
        # left out. The bar may have the window but for the board's least height (`most`).
        m = self.m
        most = max(m.px(60), size[1] - m.px(160))
        tries = [(m.px(pal.FONT_SMALL + 1), m.bar_row), (m.px(pal.FONT_SMALL - 2), m.px(19))]
        floor = pal.FONT_SMALL - 2
        shrink = 0.9
        font, row = tries[-1]
        while font * shrink >= floor:
            font, row = int(font * shrink), int(row * shrink)
            tries.append((font, row))

        def height(at: int) -> int:
            fs, row_h = tries[at]
            return self._rows_for(entries, fs, w) * row_h + self.footer

        at = next((i for i in (0, 1) if height(i) <= size[1] * 0.4), None)
        if at is None:
            at = next((i for i in range(1, len(tries)) if height(i) <= most), len(tries) - 1)
        chosen = (*tries[at], height(at))
        self._bar_font, self._bar_row, self.height = chosen

    def toggles(self, view: View) -> tuple[tuple[str, str], ...]:
        """The toggle buttons shown: in the replay viewer only those that work there (the
        overlays and the help), not Slow, Undo, Save or Load, which would do nothing."""
        if view.replaying:
            return tuple((key, label) for key, label in TOGGLES if key in LOOKING)
        return TOGGLES

    def _rows_for(self, entries: list[Entry], size: int, width: int) -> int:
        """The rows the toggles and then the action buttons take at this font size."""
        f, m = self.fonts, self.m
        rows = self._rows([f.width(label, size) + m.px(14) for _, label in self._toggles], width)
        return rows + self._rows([self._button_width(e.name, size) for e in entries], width)

    def _button_width(self, name: str, size: int) -> int:
        """An action button's width: its name and room for the widest cost any button shows,
        so no button moves when a cost changes ("free" to "free+1B") or the action becomes
        unavailable: every button keeps its place for a given window and font."""
        found = self._widths.get((name, size))
        if found is None:
            f = self.fonts
            slot = self._slots.get(size)
            if slot is None:
                slot = self._slots[size] = max(f.width(label, size) for label in LABELS)
            found = f.width(name.replace("_", " "), size) + slot + self.m.px(20)
            self._widths[(name, size)] = found
        return found

    @property
    def footer(self) -> int:
        """The height under the buttons: the Last line and the status line, each a line of
        their font with a little room."""
        m, f = self.m, self.fonts
        return f.font(m.font_small).get_height() + f.font(m.font).get_height() + m.px(24)

    def _rows(self, widths: list[int], width: int) -> int:
        gap, edge = self.m.px(4), self.m.px(6)
        rows, x = 1, edge
        for item in widths:
            if x + item > width - edge and x > edge:
                rows, x = rows + 1, edge
            x += item + gap
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
        f, m = self.fonts, self.m
        size = self._bar_font
        row_h = self._bar_row
        edge, gap, pad, inset = m.px(6), m.px(4), m.px(3), m.px(7)
        status_y = rect.bottom - m.px(4) - f.font(m.font).get_height()
        last_y = status_y - m.px(4) - f.font(m.font_small).get_height()
        room = last_y - m.px(2)  # the last result and the status line below the buttons
        hidden = 0  # buttons with no room left (a tiny window)
        x, y = rect.x + edge, rect.y + m.px(5)
        on = {
            "reach": view.show_reach, "threat": view.show_threat, "own": view.show_own,
            "disengage": view.disengage, "slow": view.slow, "quicken": view.quicken,
            "help": view.help,
        }  # fmt: skip
        for key, label in self.toggles(view):
            width = f.width(label, size) + m.px(14)
            if x + width > rect.right - edge and x > rect.x + edge:
                x, y = rect.x + edge, y + row_h
            box = pygame.Rect(x, y, width, row_h - gap)
            if box.bottom > room:
                hidden += 1
                continue
            active = on.get(key, False)
            # Kept by its look, as the action buttons are (rounded boxes are slow to draw).
            look: tuple[Any, ...] = ("toggle", label, active, box.size, size, inset, pad)
            picture = self._buttons.get(look)
            if picture is None:
                if len(self._buttons) > 400:
                    self._buttons.clear()
                self._toggle(surface, box, label, active, size, inset, pad)
                self._buttons[look] = surface.subsurface(box).copy()
            else:
                surface.blit(picture, box)
            hits.add(box, "toggle", key)
            x += width + gap
        x, y = rect.x + edge, y + row_h
        entries = self.entries(session, view)
        hovered: Entry | None = None
        for item in entries:
            label = item.name.replace("_", " ")
            cost = item.label
            width = self._button_width(item.name, size)
            if x + width > rect.right - edge and x > rect.x + edge:
                x, y = rect.x + edge, y + row_h
            box = pygame.Rect(x, y, width, row_h - gap)
            if box.bottom > room:
                hidden += 1
                x += width + gap
                continue
            chosen = item.name in (view.move_only, view.targeting, view.picking, view.choosing) or (
                item.name == "prepare" and (view.preparing is not None or view.marking is not None)
            )
            # A button's picture is kept by its look: after a change most buttons look as they
            # did, and rounded boxes are slow to draw.
            look = (label, cost, item.ok, chosen, box.size, size, edge, pad)
            picture = self._buttons.get(look)
            if picture is None:
                if len(self._buttons) > 400:
                    self._buttons.clear()
                self._button(surface, box, look)
                self._buttons[look] = surface.subsurface(box).copy()
            else:
                surface.blit(picture, box)
            hits.add(box, "action", item.name)
            if box.collidepoint(view.mouse):
                hovered = item
            x += width + gap
        status = view.status
        if hovered is None:
            self._resting = None
        elif self._resting is None or self._resting[0] != hovered.name:
            self._resting = (hovered.name, view.status)
        nothing_new = hovered is not None and self._resting == (hovered.name, view.status)
        if hovered is not None and nothing_new:
            action = hovered.name.replace("_", " ")
            status = say("action_refused", action=action, why=hovered.detail)
            chance = self.contest_words(session, hovered) if hovered.ok else ""
            if chance:  # first, so a narrow bar cuts the cost words, not the odds
                status = say("button_odds", action=action, chance=chance, detail=hovered.detail)
        elif hovered is not None:
            pass  # a message said while the mouse rests on the button: it stays in sight
        elif view.targeting:
            what = f"{view.targeting} {view.ability}" if view.ability else view.targeting
            aim = aim_words(aim_needs(session.battle.world, view))
            if view.targeting == "assist":
                aim = assist_step(view)
            status = say("click_target", action=what, what=aim)
            if view.preparing is not None:
                status = say("prepare_held", trigger=trigger_words(view.preparing), then=status)
        elif view.marking is not None and not status:
            status = say("area_help")
        elif view.preparing is not None and not view.shows_refusal:
            status = say("prepare_trigger", trigger=trigger_words(view.preparing))
        if hidden:
            status = say("hidden_buttons", n=hidden, status=status)
        status, ids = rule_ids(named_items(status, session.battle.world))
        self.status = status
        self.details = ids
        details = 0
        if ids:  # the rule ids, dim at the right end of the status line
            details = f.width("rules: " + ", ".join(ids), m.font_small) + m.px(12)
            f.draw(
                surface,
                "rules: " + ", ".join(ids),
                (rect.right - edge, status_y + m.px(2)),
                self.m.px(pal.FONT_SMALL),
                pal.TEXT_DIM,
                anchor="topright",
            )
        if view.last:
            f.draw(
                surface,
                f.fit(f"Last: {view.last}", m.font_small, rect.width - 2 * edge),
                (rect.x + edge, last_y),
                self.m.px(pal.FONT_SMALL),
                pal.YELLOW,
            )
        if status:
            f.draw(
                surface,
                f.fit(status, m.font, rect.width - 2 * edge - details),
                (rect.x + edge, status_y),
                self.m.px(pal.FONT),
                pal.TEXT if hovered is None or hovered.ok else pal.TEXT_BAD,
            )

    def _toggle(
        self,
        surface: pygame.Surface,
        box: pygame.Rect,
        label: str,
        active: bool,
        size: int,
        inset: int,
        pad: int,
    ) -> None:
        """A toggle drawn in `box`, on the bar's ground: lit while it is on."""
        pygame.draw.rect(surface, pal.SKY if active else pal.PANEL_LIGHT, box, border_radius=3)
        pygame.draw.rect(
            surface,
            pal.TEXT if active else pal.PANEL_EDGE,
            box,
            2 if active else 1,
            border_radius=3,
        )
        x, y = box.topleft
        self.fonts.draw(
            surface, label, (x + inset, y + pad), size, pal.BLACK if active else pal.TEXT
        )

    def _button(self, surface: pygame.Surface, box: pygame.Rect, look: tuple[Any, ...]) -> None:
        """An action button drawn in `box`, on the bar's ground."""
        label, cost, ok, chosen, _, size, edge, pad = look
        f = self.fonts
        x, y = box.topleft
        if ok:
            pygame.draw.rect(
                surface, pal.YELLOW if chosen else pal.PANEL_LIGHT, box, border_radius=3
            )
            pygame.draw.rect(surface, pal.TEXT, box, 1, border_radius=3)
            ink = pal.BLACK if chosen else pal.TEXT
            f.draw(surface, label, (x + edge, y + pad), size, ink)
            f.draw(
                surface,
                cost,
                (box.right - edge, y + pad),
                size,
                pal.BLACK if chosen else pal.ORANGE,
                bold=True,
                anchor="topright",
            )
        else:
            pygame.draw.rect(surface, pal.PANEL, box, border_radius=3)
            pygame.draw.rect(surface, pal.PANEL_EDGE, box, 1, border_radius=3)
            r = f.draw(surface, label, (x + edge, y + pad), size, pal.TEXT_DIM)
            pygame.draw.line(surface, pal.TEXT_DIM, (r.left, r.centery), (r.right, r.centery), 1)
            f.draw(
                surface, cost, (box.right - edge, y + pad), size, pal.TEXT_DIM, anchor="topright"
            )

    def contest_words(self, session: Session, hovered: Entry) -> str:
        """The chance of a contest aimed at no creature (break free, hide) for the bar."""
        return self.scene.contest(session, hovered.name)
