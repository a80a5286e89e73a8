"""What is drawn over the board and asks for an answer: the handover screen, the reaction
prompt (placed where it covers least of what it is about), the numbered lists (items, spells
and abilities, Prepare's triggers, the Esc menu), the battle-over panel and the help."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from sim.core.components import Budget, Position
from sim.core.creature import team_of
from sim.play.engine import AwaitingAction, AwaitingReaction
from sim.ui.draw.camera import Camera
from sim.ui.draw.panel import Panel, cell_rect
from sim.ui.draw.tokens import draw_shape
from sim.ui.look import palette as pal
from sim.ui.look.metrics import Metrics
from sim.ui.model.menu import Line as MenuLine
from sim.ui.model.planner import teams
from sim.ui.model.session import Session
from sim.ui.model.view import View
from sim.ui.words.underway import Underway

HELP = (
    ("click a creature", "select it (yours: plan its move)"),
    ("hover a cell", "cheapest path, metres, budget left, provocations (!)"),
    ("click a cell", "commit the move shown; one whose roll no undo takes back asks twice"),
    ("shift+click", "add a waypoint (Backspace removes the last)"),
    ("click an enemy", "attack it with the acting creature (the tip says if it can)"),
    ("hover a target", "odds: % to hit per defence it can afford, damage; a contest's %"),
    ("bar buttons", "take an action; struck-through ones say why not when hovered"),
    ("A", "attack: then click a target (crosshairs mark who can be hit)"),
    ("C / U", "cast a spell / use an ability: pick it, then its target or cell"),
    ("W", "Skip / Prepare: pick a trigger, then the action to hold ready"),
    ("W, then an area", "click cells to mark them (again: unmark), Enter when done"),
    ("1 … 9", "pick from an open list, or answer a reaction"),
    ("right click / Esc", "cancel a list, a target choice, waypoints, selection"),
    ("Esc (nothing to cancel)", "the menu: save, save and quit, load, new game, settings"),
    ("right or middle drag, arrows", "pan"),
    ("wheel, + / -", "zoom; Home fits the map"),
    ("E", "end the turn"),
    ("Tab", "select the next creature of your side"),
    ("R / T / Y", "reach map / enemy threats / selected creature's reach"),
    ("G / S / Q", "Disengage / Slow / Quicken toggles"),
    ("P / O", "reaction policy / preferred defence of the selected creature"),
    ("Z / Shift+Z", "undo one decision / undo the turn: never past a dice roll"),
    ("F5 / F9", "save / load the quick save: F9 too never goes back past a dice roll"),
    ("", "(a roll stays rolled until the battle is over; then F9 loads any save)"),
    ("PageUp / PageDown", "scroll the log"),
    ("Enter", "go ahead with a click that asked twice; take over after a handover;"),
    ("", "after a reaction, pass the screen on; confirm a marked area"),
    ("I", "hand the side at the screen to the AI; during an AI turn, take that side back"),
    ("Space", "during AI turns: play them out without the pause"),
    ("N", "after the battle: play the scenario again (the next seed)"),
    ("F1 or ?", "this help"),
)
# The replay viewer's (sim/ui/input/viewer.py): it moves along the tape and only looks.
REPLAY_HELP = (
    ("Right / Left", "one decision forward / back (forward shows its results)"),
    ("Shift+Right / Left", "one turn forward / back"),
    ("Down / Up", "one round forward / back"),
    ("Home / End", "the start / the end of the save"),
    ("Space", "play / pause, one decision at a time"),
    ("[ / ]", "slower / faster"),
    ("G, a number, Enter", "to the start of that turn (Esc forgets the number)"),
    ("click a creature", "select it: its reach and its lines in the sidebar"),
    ("hover a cell", "what is there and who can hit a creature there"),
    ("R / T / Y", "reach map / enemy threats / selected creature's reach"),
    ("wheel, + / -", "zoom"),
    ("right or middle drag", "pan"),
    ("PageUp / PageDown", "scroll the log"),
    ("Esc", "the menu: back to the game (or close), the UI scale"),
    ("F1 or ?", "this help"),
)
MAP_KEY = (
    "Map: dots = difficult ground, bricks = wall, crossed box = pit, zigzag = fire,",
    "hatching = cover, ripples = water (~depth m), hN = ground height in m, a thick",
    "line with ticks = ledge (ticks on the low side), a ladder = climbable face,",
    "a brown block = low obstacle (obN), a small crate = an item on the ground,",
    "a flag = a goal cell. Reach letters: S step, W walk, R run, X sprint, J jump,",
    "L climb, C crawl, ~ swim; threatened cells: a red-and-black striped frame and the",
    "enemy count (the sidebar's legend names those shown). Over a creature for a moment:",
    "hit / miss / -damage / +healing / down; 'Last:' above the status sums up the last action.",
    "Black-and-white dashed boxes = an area marked for Prepare (only its side sees it);",
    "badge R = holds a prepared action. During a reaction prompt: a white path to a",
    "boxed, labelled cell = the move under way; a dashed arrow = the attack or aim.",
    "A token under a blue wash with waves and badge v = submerged (the dive button",
    "swims under the surface, out of sight of everyone not in that water). A hovered shove:",
    "a dashed line to the cells it may push to, taped black and white, numbered as in the tip.",
)


class Prompts(Panel):
    """The dialogs, prompts and lists over the board."""

    def menu(
        self, surface: pygame.Surface, board: pygame.Rect, title: str, rows: list[MenuLine]
    ) -> None:
        """The Esc menu (or one of its pages) over the board: numbered lines, each saying
        what it does or why it cannot be chosen now."""
        listed = [(line.value, line.label, line.ok, line.detail) for line in rows]
        self._list_panel(surface, board, title, listed, "menu", "")

    def dialog(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        width: int,
        height: int,
    ) -> pygame.Rect:
        """A dialog box over the shaded board; over the whole shaded window when the board is
        too short for it (a large UI scale leaves a small window little board)."""
        px = self.m.px
        area = board if height <= board.height - px(20) else surface.get_rect()
        box = pygame.Rect(0, 0, min(width, area.width - px(20)), min(height, area.height - px(20)))
        box.center = area.center
        shade = pygame.Surface(area.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surface.blit(shade, area.topleft)
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=6)
        pygame.draw.rect(surface, pal.PANEL_EDGE, box, 2, border_radius=6)
        return box

    def handover(self, surface: pygame.Surface, session: Session, view: View) -> None:
        px = self.m.px
        world = session.battle.world
        rect = surface.get_rect()
        surface.fill(pal.PANEL)
        side = view.handover or ""
        style = pal.team_style(side, teams(world))
        draw_shape(surface, style, (rect.centerx, rect.centery - px(110)), px(40), pal.WHITE, 3)
        f = self.fonts
        f.draw(
            surface,
            f"Pass the screen to {side.upper()}",
            (rect.centerx, rect.centery - px(40)),
            px(pal.FONT_BIG + 8),
            bold=True,
            anchor="center",
        )
        pending = session.battle.pending
        if isinstance(pending, AwaitingReaction):
            line = f"{pending.unit} may react: {pending.trigger}"
            current = world.turn.current
            if current and team_of(world, current) != side:
                line += f". Then the screen goes back to {team_of(world, current).upper()}."
        elif isinstance(pending, AwaitingAction):
            line = f"{pending.unit}'s turn (round {world.turn.round})"
        else:
            line = ""
        for i, text in enumerate(f.wrap(line, px(pal.FONT + 4), rect.width - px(80))):
            f.draw(
                surface,
                text,
                (rect.centerx, rect.centery + px(10) + i * px(24)),
                px(pal.FONT + 4),
                anchor="center",
            )
        button = pygame.Rect(0, 0, px(320), px(48))
        button.center = (rect.centerx, rect.centery + px(100))
        # In the colour of the side taking the screen, with the ink that reads best on it.
        pygame.draw.rect(surface, style.colour, button, border_radius=6)
        pygame.draw.rect(surface, pal.WHITE, button, 2, border_radius=6)
        f.draw(
            surface,
            f"{side.upper()} is ready  [Enter]",
            button.center,
            px(pal.FONT + 4),
            pal.ink_on(style.colour),
            bold=True,
            anchor="center",
        )
        self.hits.add(button, "handover", side)
        f.draw(
            surface,
            "The board stays hidden until the other side has the screen.",
            (rect.centerx, button.bottom + px(30)),
            self.m.font,
            pal.TEXT_DIM,
            anchor="center",
        )
        for i, text in enumerate(f.wrap(view.offer, px(pal.FONT + 2), rect.width - px(80))):
            f.draw(
                surface,
                text,
                (rect.centerx, button.bottom + px(70) + i * px(22)),
                px(pal.FONT + 2),
                pal.YELLOW,
                anchor="center",
            )

    def reaction(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        session: Session,
        view: View,
        pending: AwaitingReaction,
        camera: Camera,
    ) -> None:
        """The reaction prompt, placed where it covers least of what it asks about (the board
        stays unshaded, so the situation stays in view): who may react to what, what the board
        shows of it, each option with what it does and costs, and the Bonus Actions left."""
        px = self.m.px
        world = session.battle.world
        f = self.fonts
        listed = self.scene.reaction(session)
        helps = [help_ for _, _, help_ in listed]
        happening = self.scene.underway_shown(session, view)
        shown = happening.words() if happening is not None else []
        left = world.get(pending.unit, Budget)
        bonus = f"{pending.unit} has {left.bonus if left else 0} Bonus Action(s) left"
        if left is not None and world.turn.current == pending.unit:
            # On its own turn a reaction may be slowed and paid with half-actions (R-B7).
            bonus = (
                f"{pending.unit} has {left.half} half-action(s), {left.bonus} Bonus Action(s) left"
            )
        line_h = px(15)

        def high(size: int) -> int:
            return f.font(size).get_height()

        def measure(width: int) -> tuple[list[str], list[str], list[list[str]], int]:
            """The prompt's lines at `width`, wrapped in full when the board has the room,
            else one line each, else the options' names alone; and its height."""
            inner = width - px(32)
            laid: tuple[list[str], list[str], list[list[str]], int] | None = None
            for level in range(3):
                if level == 0:
                    trigger = f.wrap(pending.trigger, px(pal.FONT + 2), inner)
                    said = [part for text in shown for part in f.wrap(text, self.m.font, inner)]
                    wrapped = [f.wrap(h, px(pal.FONT_SMALL + 1), inner - px(46))[:3] for h in helps]
                elif level == 1:
                    trigger = f.wrap(pending.trigger, px(pal.FONT + 2), inner)[:2]
                    said = [f.fit(text, self.m.font, inner) for text in shown]
                    wrapped = [[f.fit(h, px(pal.FONT_SMALL + 1), inner - px(46))] for h in helps]
                else:
                    trigger = [f.fit(pending.trigger, px(pal.FONT + 2), inner)]
                    said, wrapped = [], [[] for _ in helps]
                height = (
                    px(12) + high(px(pal.FONT + 6)) + px(4) + high(px(pal.FONT + 2)) * len(trigger)
                )
                height += high(self.m.font) * len(said) + px(2) + high(self.m.font) + px(8)
                height += sum(px(32) + line_h * len(w) for w in wrapped) + px(4)
                laid = (trigger, said, wrapped, height)
                if height <= board.height - px(20):
                    break
            assert laid is not None
            return laid

        avoid = self._underway_rect(session, camera, pending, happening)

        def lay_out() -> tuple[pygame.Rect, tuple[list[str], list[str], list[list[str]], int]]:
            box = self._prompt_place(board, lambda width: measure(width)[-1], avoid, self.m)
            return box, measure(box.width)

        # Wrapping and placing take several text measurements: once per state and view, not
        # once per frame.
        key = (session.version, view.eyes, tuple(board), tuple(avoid))
        box, (trigger, said, wrapped, _) = self.memo.get("prompt", key, lay_out)
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=6)
        pygame.draw.rect(surface, pal.PANEL_EDGE, box, 2, border_radius=6)
        y = box.y + px(12)
        y = f.draw(
            surface,
            f"Reaction: {pending.unit}",
            (box.x + px(16), y),
            px(pal.FONT + 6),
            pal.YELLOW,
            bold=True,
        ).bottom + px(4)
        for line in trigger:
            y = f.draw(surface, line, (box.x + px(16), y), px(pal.FONT + 2)).bottom
        for line in said:
            y = f.draw(surface, line, (box.x + px(16), y), self.m.font, pal.TEXT_DIM).bottom
        y = f.draw(
            surface, bonus, (box.x + px(16), y + px(2)), self.m.font, pal.TEXT_DIM
        ).bottom + px(8)
        for number, ((option, label, _), lines_) in enumerate(
            zip(listed, wrapped, strict=True), start=1
        ):
            button = pygame.Rect(
                box.x + px(16), y, box.width - px(32), px(26) + line_h * len(lines_)
            )
            pygame.draw.rect(surface, pal.PANEL_LIGHT, button, border_radius=4)
            pygame.draw.rect(surface, pal.TEXT, button, 1, border_radius=4)
            name = f"[{number}]  {label}"
            f.draw(
                surface,
                name,
                (button.x + px(10), button.y + px(4)),
                px(pal.FONT + 2),
                bold=True,
            )
            ly = button.y + px(24)
            for line in lines_:
                f.draw(
                    surface,
                    line,
                    (button.x + px(36), ly),
                    px(pal.FONT_SMALL + 1),
                    pal.TEXT_DIM,
                )
                ly += line_h
            self.hits.add(button, "option", option)
            y = button.bottom + px(6)

    @staticmethod
    def _prompt_place(
        board: pygame.Rect, height: Callable[[int], int], avoid: pygame.Rect, m: Metrics
    ) -> pygame.Rect:
        """Where the reaction prompt goes: low in the middle, else high, else in a narrower
        column beside what it is about; the first place that covers none of `avoid`, or the
        one that covers least. `height(width)`: how tall the prompt is at that width."""
        edge = m.px(10)
        wide = min(m.px(620), board.width - 2 * edge)
        places = []
        for high in (False, True):
            box = pygame.Rect(0, 0, wide, min(height(wide), board.height - 2 * edge))
            box.centerx = board.centerx
            if high:
                box.top = board.top + edge
            else:
                box.bottom = board.bottom - edge
            places.append(box)
        room = {"right": board.right - edge - avoid.right, "left": avoid.left - board.left - edge}
        for side, free in room.items():
            width = min(wide, free)
            if width < m.px(340):
                continue
            box = pygame.Rect(0, 0, width, min(height(width), board.height - 2 * edge))
            box.bottom = board.bottom - edge
            if side == "right":
                box.right = board.right - edge
            else:
                box.left = board.left + edge
            places.append(box)

        def covered(box: pygame.Rect) -> int:
            part = box.clip(avoid)
            return part.width * part.height

        return min(places, key=covered)  # the first of those that cover least

    def _underway_rect(
        self,
        session: Session,
        camera: Camera,
        pending: AwaitingReaction,
        happening: Underway | None,
    ) -> pygame.Rect:
        """The screen area of what a reaction prompt is about: the asked creature, and the
        cells of the move or the aim under way (with room for their labels)."""
        world = session.battle.world
        cells = [world.need(pending.unit, Position).cell]
        if happening is not None:
            if happening.move is not None:
                cells += [happening.move.here, *happening.move.ahead]
            for aim in happening.aims:
                cells.append(world.need(aim.actor, Position).cell)
                if aim.target:
                    cells.append(world.need(aim.target, Position).cell)
                elif aim.cell is not None:
                    cells.append(aim.cell)
        rects = [cell_rect(camera, cell) for cell in cells]
        return rects[0].unionall(rects[1:]).inflate(camera.cell // 2, camera.cell)

    def _list_panel(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        title: str,
        rows: list[tuple[str, str, bool, str]],
        kind: str,
        empty: str,
    ) -> None:
        """A numbered list over the board: each row (value, label, ok, detail) is a button that
        its number key also picks; a row that cannot be taken now is struck through and says
        why, so nothing is told by colour alone."""
        px = self.m.px
        f = self.fonts
        width = min(px(640), board.width - px(20))
        inner = width - px(72)
        wrapped = [
            f.wrap(detail, px(pal.FONT_SMALL + 1), inner)[:3] if detail else []
            for *_, detail in rows
        ]
        line_h = px(15)
        height = (
            px(70) + sum(px(34) + line_h * len(w) for w in wrapped) + (px(30) if not rows else 0)
        )
        box = self.dialog(surface, board, width, height)
        y = f.draw(
            surface,
            f.fit(title, px(pal.FONT + 4), box.width - px(32), bold=True),
            (box.x + px(16), box.y + px(14)),
            px(pal.FONT + 4),
            pal.YELLOW,
            bold=True,
        ).bottom + px(8)
        if not rows:
            f.draw(surface, empty, (box.x + px(16), y), self.m.font, pal.TEXT_DIM)
        for number, ((value, label, ok, _), lines_) in enumerate(
            zip(rows, wrapped, strict=True), 1
        ):
            h = px(28) + line_h * len(lines_)
            if y + h > box.bottom - px(6):
                f.draw(
                    surface,
                    "… (more: make the window taller)",
                    (box.x + px(16), y),
                    self.m.font_small,
                    pal.TEXT_DIM,
                )
                break
            button = pygame.Rect(box.x + px(16), y, box.width - px(32), h)
            pygame.draw.rect(surface, pal.PANEL_LIGHT if ok else pal.PANEL, button, border_radius=4)
            pygame.draw.rect(
                surface, pal.TEXT if ok else pal.PANEL_EDGE, button, 1, border_radius=4
            )
            key = f"[{number}]  " if number <= 9 else "     "
            r = f.draw(
                surface,
                f.fit(key + label, px(pal.FONT + 1), button.width - px(16), bold=ok),
                (button.x + px(8), button.y + px(5)),
                px(pal.FONT + 1),
                pal.TEXT if ok else pal.TEXT_DIM,
                bold=ok,
            )
            if not ok:
                pygame.draw.line(
                    surface, pal.TEXT_DIM, (r.left + px(34), r.centery), (r.right, r.centery), 1
                )
            ly = button.y + px(24)
            for line in lines_:
                f.draw(
                    surface,
                    line,
                    (button.x + px(28), ly),
                    px(pal.FONT_SMALL + 1),
                    pal.TEXT_DIM if ok else pal.TEXT_BAD,
                )
                ly += line_h
            self.hits.add(button, kind, value)
            y += h + px(6)

    def item_list(
        self, surface: pygame.Surface, board: pygame.Rect, session: Session, view: View
    ) -> None:

        rows = self.scene.item_rows(session, view)
        owner = view.owner
        which = f"which of {owner}'s weapons?" if owner else "which item?"
        self._list_panel(
            surface,
            board,
            f"{view.picking}: {which} (number key or click; Esc cancels)",
            rows,
            "item",
            f"{owner} holds no weapon" if owner else "no items held, carried or within reach",
        )

    def choice_list(
        self, surface: pygame.Surface, board: pygame.Rect, session: Session, view: View
    ) -> None:
        """The spells or abilities the acting creature knows, or Prepare's triggers."""
        unit = view.selected or ""

        rows = self.scene.choice_rows(session, view)
        if view.choosing == "prepare":
            title = f"Prepare ({unit} skips now): act when…"
            empty = "no trigger to offer"
        elif view.choosing == "cast":
            title = f"Cast: which spell does {unit} cast?"
            empty = f"{unit} knows no spells"
        else:
            title = f"Use: which ability does {unit} use?"
            empty = f"{unit} knows no abilities"
        self._list_panel(surface, board, title + "  (Esc cancels)", rows, "choice", empty)

    def battle_over(
        self, surface: pygame.Surface, board: pygame.Rect, session: Session, again: bool = True
    ) -> None:
        """The battle-over panel at the top of the board (the board stays in view below it):
        who won, the rounds, each creature's damage dealt and taken, and Play again (`again`;
        not in the replay viewer, where no game is played)."""
        px = self.m.px
        f = self.fonts
        lines = self.scene.outcome(session)
        if not lines:
            return
        head, rest = lines[0], lines[1:]
        button_room = px(50) if again else px(10)
        height = px(60) + px(22) * len(rest) + button_room
        box = pygame.Rect(
            0, 0, min(px(660), board.width - px(20)), min(height, board.height - px(20))
        )
        box.midtop = (board.centerx, board.y + px(10))
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=6)
        pygame.draw.rect(surface, pal.YELLOW, box, 3, border_radius=6)
        f.draw(
            surface,
            f"Battle over — {head}",
            (box.centerx, box.y + px(26)),
            px(pal.FONT_BIG - 6),
            bold=True,
            anchor="center",
        )
        y = box.y + px(52)
        for line in rest:
            if y + px(22) > box.bottom - button_room + px(4):
                break
            f.draw(
                surface,
                f.fit(line, self.m.font, box.width - px(30)),
                (box.x + px(16), y),
                self.m.font,
            )
            y += px(22)
        if not again:
            return
        button = pygame.Rect(0, 0, px(240), px(34))
        button.midbottom = (box.centerx, box.bottom - px(8))
        pygame.draw.rect(surface, pal.YELLOW, button, border_radius=5)
        pygame.draw.rect(surface, pal.WHITE, button, 2, border_radius=5)
        f.draw(
            surface,
            "Play again  [N]",
            button.center,
            px(pal.FONT + 2),
            pal.BLACK,
            bold=True,
            anchor="center",
        )
        self.hits.add(button, "over", "again")

    def aftermath(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        session: Session,
        lines: list[str],
        side: str,
    ) -> None:
        """The panel the side that answered a reaction reads before the handover: what its
        answer did (the result in a line, then the log's lines), at the top of the board
        (which stays in view below it), and the button that passes the screen to `side`."""
        px = self.m.px
        f = self.fonts
        width = min(px(700), board.width - px(20))
        wrapped = [part for line in lines for part in f.wrap(line, self.m.font, width - px(32))]
        step = f.font(self.m.font).get_height() + px(3)
        height = min(px(56) + step * len(wrapped) + px(56), board.height - px(20))
        box = pygame.Rect(0, 0, width, height)
        box.midtop = (board.centerx, board.y + px(10))
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=6)
        pygame.draw.rect(surface, pal.YELLOW, box, 3, border_radius=6)
        f.draw(
            surface,
            "What your reaction did",
            (box.centerx, box.y + px(22)),
            px(pal.FONT + 4),
            bold=True,
            anchor="center",
        )
        y = box.y + px(44)
        for i, line in enumerate(wrapped):
            if y + step > box.bottom - px(50):
                break
            f.draw(surface, line, (box.x + px(16), y), self.m.font, pal.TEXT if i else pal.YELLOW)
            y += step
        style = pal.team_style(side, teams(session.battle.world))
        button = pygame.Rect(0, 0, px(340), px(36))
        button.midbottom = (box.centerx, box.bottom - px(8))
        pygame.draw.rect(surface, style.colour, button, border_radius=5)
        pygame.draw.rect(surface, pal.WHITE, button, 2, border_radius=5)
        f.draw(
            surface,
            f"Pass the screen to {side.upper()}  [Enter]",
            button.center,
            px(pal.FONT + 2),
            pal.ink_on(style.colour),
            bold=True,
            anchor="center",
        )
        self.hits.add(button, "aftermath", side)

    def help(
        self,
        surface: pygame.Surface,
        board: pygame.Rect,
        keys: tuple[tuple[str, str], ...] = HELP,
    ) -> None:
        """The keys and the mouse (`keys`: the game's, or the replay viewer's), then the map's
        key where the window is tall enough."""
        px = self.m.px
        rows = len(keys) + len(MAP_KEY) + 1
        box = self.dialog(surface, board, px(760), px(70) + px(22) * rows)
        with_key = (box.height - px(60)) // rows >= px(13)  # a short window: the keys come first
        if not with_key:
            rows = len(keys) + 2
        # Rows shrink to fit a short window (to 10 px, the least that reads); lines that still
        # do not fit are left out whole.
        step = max(10, min(px(22), (box.height - px(60)) // rows))
        size = max(10, min(px(pal.FONT + 2), step + 1))
        self.floored(
            box.bottom - px(6), lambda: self._help_lines(surface, box, keys, step, size, with_key)
        )

    def _help_lines(
        self,
        surface: pygame.Surface,
        box: pygame.Rect,
        keys: tuple[tuple[str, str], ...],
        step: int,
        size: int,
        with_key: bool,
    ) -> None:
        px = self.m.px
        f = self.fonts
        f.draw(
            surface,
            "Keys and mouse",
            (box.x + px(18), box.y + px(14)),
            px(pal.FONT + 8),
            pal.YELLOW,
            bold=True,
        )
        y = box.y + px(50)
        split = min(px(270), box.width // 3)
        for key, what in keys:
            f.draw(
                surface,
                f.fit(key, size, split - px(24), bold=True),
                (box.x + px(18), y),
                size,
                pal.TEXT,
                bold=True,
            )
            f.draw(
                surface,
                f.fit(what, size, box.width - split - px(24)),
                (box.x + split, y),
                size,
                pal.TEXT_DIM,
            )
            y += step
        y += step // 2
        if not with_key:
            note = "(a taller window also shows the map key)"
            f.draw(
                surface,
                f.fit(note, size, box.width - px(36)),
                (box.x + px(18), y),
                size,
                pal.TEXT_DIM,
            )
            return
        for line in MAP_KEY:
            f.draw(
                surface, f.fit(line, size, box.width - px(36)), (box.x + px(18), y), size, pal.TEXT
            )
            y += step
