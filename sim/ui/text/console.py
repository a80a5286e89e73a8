"""The terminal's game: a prompt that reads commands (sim/ui/text/commands.py) and prints the
board (sim/ui/text/board.py), the log and the prompts. It keeps the window's rules through the
same model: who has the screen and the handover between sides (hotseat), the AI's seats,
undo and loads (rewind), the same tips, and the decisions the window's clicks would make. It
reads lines from a terminal, with Tab completion (readline), or from any other input, such as a
script, echoing each command after its prompt."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from sim.ai.levels import LEVELS
from sim.core.actions import Cost, Refusal
from sim.core.components import Item, Policy, Position
from sim.core.creature import creatures, team_of
from sim.core.geometry import Pos
from sim.formats.replay import ReplayError
from sim.play.engine import (
    DEFENCES,
    REACTION_POLICIES,
    AwaitingAction,
    AwaitingReaction,
    BattleOver,
    Decision,
    Outcome,
    ReactionChoice,
    SetPolicy,
)
from sim.rules.combat.items import item_name
from sim.ui.look import palette as pal
from sim.ui.model import hotseat, rewind
from sim.ui.model import tiplines as tl
from sim.ui.model.actionbar import answer_for, judge
from sim.ui.model.intent import disengage_first
from sim.ui.model.mode import Free, Targeting
from sim.ui.model.scene import Scene, log_said, unit_at
from sim.ui.model.seating import Seating, side_policies
from sim.ui.model.session import Session
from sim.ui.model.view import TOGGLES, View
from sim.ui.text import board
from sim.ui.text import commands as cmd

CLEAR = "\x1b[2J\x1b[3J\x1b[H"  # a new screen, the scrollback too: the other side's is hidden
TONE_INK = {tl.TEXT: None, tl.BAD: pal.TEXT_BAD, tl.DIM: pal.TEXT_DIM, tl.WARN: pal.YELLOW}
# The tips' words that speak of the mouse and the window's keys, as the terminal says them.
MOUSE_WORDS = (("click: ", ""), ("; Backspace removes", ""), (" (Esc cancels)", ""))
MOUSE_ONLY = ("click to select it",)  # a tip's line with nothing to say in the terminal
WINDOW_KEYS = re.compile(r" \[[A-Z](?: [^\]]*)?\]")  # the window's key hints: "[P]", "[C cast]"
# What may be typed on the handover screen, before the side takes the seat.
AT_HANDOVER = ("help", "save", "load", "ai", "quit", "colour")
# The commands that only show something: they may be typed during a reaction prompt.
SHOWING = ("help", "board", "look", "odds", "info", "log", "reach", "threat", "own", "colour")


def wants_colour(out: IO[str]) -> bool:
    """Colour only for a terminal that has it (NO_COLOR and TERM=dumb turn it off)."""
    isatty = getattr(out, "isatty", None)
    return bool(
        isatty
        and isatty()
        and "NO_COLOR" not in os.environ
        and os.environ.get("TERM", "") != "dumb"
    )


class Console:
    """One game at the terminal. `read(prompt)` returns the next line (EOFError at the end of
    the input); `out` is where the screen goes."""

    def __init__(
        self,
        session: Session,
        read: Callable[[str], str],
        out: IO[str],
        *,
        ai: dict[str, str] | None = None,
        colour: bool = False,
        clear: bool = False,
    ) -> None:
        """`ai`: the sides the AI plays, with their levels; `colour`: ANSI colours repeat the
        board's letters; `clear`: clear the terminal at each handover (a real terminal)."""
        self.session = session
        self.read = read
        self.out = out
        self.colour = colour
        self.clear = clear
        self.view = View()
        self.scene = Scene()
        self.seating = Seating(ai, session.seed)
        self.turn_key: hotseat.TurnKey | None = None
        self.seen: dict[str | None, int] = {}  # per side: the log's events it has been shown
        self.base = 0  # where a side that has not looked yet starts reading the log
        self.over_shown = False
        self.running = True
        self.changed = False  # the screen is drawn again after the command

    # --- the loop ----------------------------------------------------------------------------
    def run(self) -> int:
        """Play until `quit` or the end of the input; the game is autosaved as it closes. Exit
        status 1 when the last autosave failed (the message says so)."""
        self.seating.seat_on(self.session)
        self.sync()
        self.say(
            f"{self.session.scenario.name} (seed {self.session.seed}); `help` lists the commands"
        )
        self.advance(first=True)
        while self.running:
            try:
                line = self.read(self.prompt())
            except EOFError:
                self.say("")
                break
            except KeyboardInterrupt:
                self.say("^C (quit leaves; the game is autosaved as it closes)")
                continue
            self.do(line)
            if self.running:
                self.advance()
        message, kept = self.session.close()
        if message:
            self.say(message if kept else f"sim play: {message}")
        return 0 if kept else 1

    def advance(self, first: bool = False) -> None:
        """After each command: the AI's decisions while it is to play, then the screen the
        battle waits on (the handover, the board, the battle's outcome)."""
        played = self.play_ai()
        if isinstance(self.session.battle.pending, BattleOver):
            if not self.over_shown:
                self.over_shown = True
                self.screen()
                self.say("The battle is over:")
                for line in self.scene.outcome(self.session):
                    self.say(f"  {line}")
                self.say("`again` plays it again, `load` loads a save, `quit` leaves")
            return
        if self.view.handover is not None:
            if played or first or self.changed:
                self.handover()
            self.changed = False
            return
        if played or first or self.changed:
            self.screen()
        self.changed = False

    def play_ai(self) -> bool:
        """The AI's decisions, one after another while the battle waits for a side it plays,
        each reason and its events as the side at the screen may read them."""
        played = False
        while self.seating.waiting(self.session.battle) is not None:
            made = self.seating.decide(self.session)
            assert made is not None
            played = True
            self.sync()
            self.news()
        return played

    def sync(self) -> None:
        self.turn_key = hotseat.follow(self.session, self.view, self.seating.seated, self.turn_key)

    def prompt(self) -> str:
        view = self.view
        pending = self.session.battle.pending
        if isinstance(pending, BattleOver):
            return "battle over> "
        if view.handover is not None:
            return f"{view.handover.upper()}: press Enter to take the seat> "
        side = (view.side or "all").upper()
        if isinstance(pending, AwaitingReaction):
            return f"{side} {pending.unit} reacts (1-{len(self.scene.reaction(self.session))})> "
        return f"{side} {pending.unit}> "

    # --- what is shown ---------------------------------------------------------------------
    def say(self, text: str = "", tone: str = tl.TEXT) -> None:
        ink = TONE_INK.get(tone)
        if self.colour and ink is not None and text:
            text = board.paint(board.Glyph(text, ink), True)
        print(text, file=self.out, flush=True)

    def news(self) -> None:
        """The log's lines the side at the screen has not been shown yet."""
        side = self.view.side
        log = self.session.battle.log
        start = min(self.seen.get(side, self.base), len(log))
        for line in log_said(self.session, self.view, start):
            self.say(f"  {line}")
        self.seen[side] = len(log)

    def handover(self) -> None:
        """The screen between sides: the board is hidden until the side takes the seat."""
        side = self.view.handover
        assert side is not None
        if self.clear:
            print(CLEAR, end="", file=self.out, flush=True)
        pending = self.session.battle.pending
        why = "to react" if isinstance(pending, AwaitingReaction) else "to play"
        self.say(f"=== {side.upper()} {why}: hand over the terminal; Enter takes the seat ===")

    def take_seat(self) -> None:
        if not hotseat.take_seat(self.session, self.view):
            return
        self.say(f"{(self.view.side or '').upper()} has the screen; since it last looked:")
        self.news()
        self.changed = True

    def screen(self) -> None:
        """The board with its overlays and key, the creatures, the budget and toggles, a
        reaction prompt, and the hovered cell's tip."""
        session, view, scene = self.session, self.view, self.scene
        world = session.battle.world
        turn = world.turn
        plan = scene.plan(session, view)
        shown = board.overlays(scene, session, view, plan)
        rows = board.cells(world, scene, session, view, shown)
        pending = session.battle.pending
        who = "" if isinstance(pending, BattleOver) else f", {pending.unit} to act"
        if isinstance(pending, AwaitingReaction):
            who = f", {pending.unit} to react"
        eyes = f" — {view.side.upper()} sees" if view.side else ""
        self.say(f"{session.scenario.name}: round {turn.round}{who}{eyes}")
        for line in board.draw(rows, self.colour):
            self.say(line)
        for line in board.key_lines(world, shown, rows):
            self.say(line, tl.DIM)
        marks = board.letters(world)
        team = board.team_marks(world)
        for unit, line in scene.initiative(session, view):
            now = ">" if not isinstance(pending, BattleOver) and pending.unit == unit else " "
            hidden = scene.hidden(session, view, unit)
            mark = "??" if hidden else marks[unit] + team[team_of(world, unit)]
            extra = "" if hidden else board.roster_words(world, unit)
            self.say(f" {now}{mark} {line}{extra}")
        for line in scene.goal_lines(session):
            self.say(line, tl.DIM)
        self.status()
        self.reaction_prompt()

    def status(self) -> None:
        view = self.view
        unit = self.acting()
        if unit is None:
            return
        budget = self.scene.unit_lines(self.session, view, unit)[1]
        on = [n for n in ("slow", "quicken", "disengage") if getattr(view, n)]
        toggles = f"; on for the next action: {', '.join(on)}" if on else ""
        self.say(f"{unit}'s turn; {budget}{toggles}")

    def reaction_prompt(self) -> None:
        pending = self.session.battle.pending
        if not isinstance(pending, AwaitingReaction) or not self.mine(pending.unit):
            return
        self.say(f"{pending.unit}: {pending.trigger}. React?", tl.WARN)
        for i, (_, label, what) in enumerate(self.scene.reaction(self.session), 1):
            self.say(f"  {i} {label}: {what}")

    # --- who is who --------------------------------------------------------------------------
    def mine(self, unit: str) -> bool:
        return self.view.sits_for(team_of(self.session.battle.world, unit))

    def acting(self) -> str | None:
        """The creature of the side at the screen whose action the battle waits for."""
        pending = self.session.battle.pending
        if isinstance(pending, AwaitingAction) and self.mine(pending.unit):
            return pending.unit
        return None

    # --- commands ----------------------------------------------------------------------------
    def do(self, line: str) -> None:
        """One command line."""
        words = line.split()
        view = self.view
        pending = self.session.battle.pending
        if not words:
            if view.handover is not None:
                self.take_seat()
            else:
                self.changed = True
            return
        head = cmd.ALIASES.get(words[0].lower(), words[0].lower())
        args = words[1:]
        if view.handover is not None and head not in AT_HANDOVER:
            self.refuse(f"{view.handover.upper()} has not taken the seat: press Enter first")
            return
        if isinstance(pending, AwaitingReaction) and self.mine(pending.unit):
            chosen = cmd.option(self.scene, self.session, line)
            if chosen is not None:
                self.submit(answer_for(pending, chosen))
                return
            if head not in SHOWING and head not in ("save", "load", "undo", "quit"):
                options = ", ".join(
                    f"{i} {label}"
                    for i, (_, label, _) in enumerate(self.scene.reaction(self.session), 1)
                )
                self.refuse(f"answer {pending.unit}'s reaction first: {options}")
                return
        handler = getattr(self, f"do_{head}", None)
        if handler is not None:
            handler(args)
        elif head in cmd.MOVE_NAMES:
            self.move(head, args)
        elif head in cmd.ACTIONS or head == "end_turn":
            self.action(head, args)
        else:
            self.refuse(f"unknown command {words[0]!r}: `help` lists the commands")

    def refuse(self, words: str) -> None:
        """A command that changes nothing, and why."""
        self.view.refuse(words)
        self.say(words, tl.BAD)

    def do_help(self, args: Sequence[str]) -> None:
        if args:
            name = cmd.ALIASES.get(args[0], args[0])
            if name in cmd.COMMANDS:
                self.say(cmd.COMMANDS[name])
            elif name in cmd.MOVE_NAMES:
                self.say(f"{name} X,Y [via X,Y ...]: move there by {name}, along the cheapest way")
            elif name in cmd.ACTIONS:
                self.say(f"{name}: {self.entry_words(name)}")
            else:
                self.refuse(f"no command {args[0]!r}")
            return
        self.say("Commands (Tab completes; a creature by its id or its letter on the board):")
        for words in cmd.COMMANDS.values():
            self.say(f"  {words}")
        self.say("  MOVE X,Y [via X,Y ...]: " + ", ".join(cmd.MOVE_NAMES) + " (the reach letters)")
        self.say(
            "  ACTION [CREATURE | X,Y | ITEM | SPELL ...]: attack grok, shove grok, draw "
            "longsword, cast firebolt grok, assist ana grok, prepare within:3 then attack grok"
        )
        self.say("  in a reaction prompt: the option's number or name (dodge, none, parry slowed)")

    def entry_words(self, name: str) -> str:
        entry = next(
            (e for e in self.scene.entries(self.session, self.view) if e.name == name), None
        )
        if entry is None:
            return "no creature of yours is acting"
        return entry.detail if entry.ok else f"refused now: {entry.detail}"

    def do_board(self, args: Sequence[str]) -> None:
        self.changed = True

    def do_quit(self, args: Sequence[str]) -> None:
        self.running = False

    def do_colour(self, args: Sequence[str]) -> None:
        self.colour = self.switch("colour", self.colour, args)

    def switch(self, name: str, now: bool, args: Sequence[str]) -> bool:
        if not args:
            return not now
        if args[0] not in cmd.SWITCHES or len(args) > 1:
            self.refuse(f"{name} takes on or off, not {' '.join(args)!r}")
            return now
        return args[0] == "on"

    def do_reach(self, args: Sequence[str]) -> None:
        self.toggle_view("reach", "show_reach", args)

    def do_own(self, args: Sequence[str]) -> None:
        self.toggle_view("own", "show_own", args)

    def do_slow(self, args: Sequence[str]) -> None:
        self.toggle_view("slow", "slow", args)

    def do_quicken(self, args: Sequence[str]) -> None:
        self.toggle_view("quicken", "quicken", args)

    def do_disengage(self, args: Sequence[str]) -> None:
        self.toggle_view("disengage", "disengage", args)

    def toggle_view(self, name: str, field: str, args: Sequence[str]) -> None:
        assert name in TOGGLES
        now = bool(getattr(self.view, field))
        wanted = self.switch(name, now, args)
        if wanted != now:
            self.view.toggle(name)
        self.say(f"{name}: {'on' if getattr(self.view, field) else 'off'}")
        if name in ("reach", "own"):
            self.changed = True

    def do_threat(self, args: Sequence[str]) -> None:
        world = self.session.battle.world
        teams = list(dict.fromkeys(team_of(world, u) for u in creatures(world)))
        view = self.view
        if args and args[0] not in cmd.SWITCHES:
            unknown = [t for t in args if t not in teams]
            if unknown:
                self.refuse(f"no team {unknown[0]!r}: teams are {', '.join(teams)}")
                return
            view.threat_teams = tuple(args)
            view.show_threat = True
        else:
            view.show_threat = self.switch("threat", view.show_threat, args)
            view.threat_teams = None
        if view.show_threat:
            shown = view.threat_teams or tuple(t for t in teams if t != view.side)
            self.say(f"threat of {', '.join(t.upper() for t in shown)}: on")
        else:
            self.say("threat: off")
        self.changed = True

    def do_select(self, args: Sequence[str]) -> None:
        unit = self.named(args)
        if unit is not None:
            self.view.selected = unit
            self.view.clear_plan()
            self.view.hover = None
            self.changed = True

    def named(self, args: Sequence[str]) -> str | None:
        if len(args) != 1:
            self.refuse("name one creature, by its id or its letter on the board")
            return None
        unit = cmd.creature(self.session.battle.world, self.view.eyes, args[0])
        if unit is None:
            self.refuse(f"no creature in sight called {args[0]!r}")
        return unit

    def do_info(self, args: Sequence[str]) -> None:
        unit = self.named(args) if args else (self.view.selected or self.acting())
        if unit is None:
            if not args:
                self.refuse("info CREATURE: which one?")
            return
        self.say(f"{unit}:")
        for line in self.scene.unit_lines(self.session, self.view, unit):
            self.say("  " + WINDOW_KEYS.sub("", line))

    def do_log(self, args: Sequence[str]) -> None:
        count = 20
        if args:
            if not args[0].isdigit() or len(args) > 1:
                self.refuse(f"log takes a number of lines, not {' '.join(args)!r}")
                return
            count = int(args[0])
        for line in self.scene.log_lines(self.session, self.view)[-count:] if count else []:
            self.say(f"  {line}")

    def do_actions(self, args: Sequence[str]) -> None:
        unit = self.acting()
        if unit is None:
            self.refuse("no creature of yours is acting")
            return
        self.say(f"{unit}'s actions (+ can be taken now, - cannot):")
        for entry in self.scene.entries(self.session, self.view):
            mark = "+" if entry.ok else "-"
            self.say(
                f"  {mark} {entry.name:<14} {entry.label:<5} {entry.detail}",
                tl.TEXT if entry.ok else tl.DIM,
            )

    def do_look(self, args: Sequence[str]) -> None:
        world = self.session.battle.world
        view = self.view
        if len(args) != 1:
            self.refuse("look X,Y or look CREATURE")
            return
        where = cmd.cell(args[0])
        if where is None:
            unit = cmd.creature(world, view.eyes, args[0])
            if unit is None:
                self.refuse(f"{args[0]!r} is neither a cell x,y nor a creature in sight")
                return
            where = world.need(unit, Position).cell
        if not world.grid.inside(where):
            self.refuse(f"{where} is off the map ({world.grid.width} x {world.grid.height})")
            return
        view.hover = where
        view.waypoints = []
        self.screen()
        self.tip(where)

    def tip(self, where: Pos) -> None:
        """What a click on `where` would do, in the window's tip's words."""
        session, view, scene = self.session, self.view, self.scene
        world = session.battle.world
        self.say(f"{where}: {self.ground_words(where)}")
        plan = scene.plan(session, view)
        lines: list[tl.Line] = []
        if plan is not None:
            lines = tl.path_lines(scene, session, view, plan)
        else:
            lines = tl.enemy_lines(scene, session, view, where) + tl.odds_lines(
                scene, session, view
            )
            unit = unit_at(world, where, view.eyes)
            if unit is not None and not lines:
                lines = [
                    (WINDOW_KEYS.sub("", x), tl.TEXT) for x in scene.unit_lines(session, view, unit)
                ]
        foes = scene.hover_info(session, view)
        lines.append(("can be hit there by: " + (", ".join(foes) or "nobody"), tl.DIM))
        self.tip_lines(lines)

    def tip_lines(self, lines: Sequence[tl.Line]) -> None:
        """A tip's lines, in the terminal's words (no clicks, no Esc)."""
        for words, tone in lines:
            if words in MOUSE_ONLY:
                continue
            for mouse, typed in MOUSE_WORDS:
                words = words.replace(mouse, typed)
            self.say(f"  {words}", tone)

    def ground_words(self, where: Pos) -> str:
        world = self.session.battle.world
        grid = world.grid
        parts = [grid.kind(where).name.lower()]
        if grid.ground_half(where):
            parts.append(f"ground {grid.ground_half(where) / 2:g} m")
        if grid.water_half(where):
            parts.append(f"water {grid.water_half(where) / 2:g} m deep")
        if grid.obstacle_half(where):
            parts.append(f"a {grid.obstacle_half(where) / 2:g} m obstacle")
        if grid.climbable(where):
            parts.append("climbable")
        lying = [
            item_name(world, i)
            for i, pos in world.each(Position)
            if pos.cell == where and world.has(i, Item)
        ]
        if lying:
            parts.append("on the ground: " + ", ".join(lying))
        return ", ".join(parts)

    def do_odds(self, args: Sequence[str]) -> None:
        if len(args) != 2 or args[0] not in cmd.ACTIONS:
            self.refuse("odds ACTION CREATURE, e.g. odds trip grok")
            return
        world = self.session.battle.world
        unit = cmd.creature(world, self.view.eyes, args[1])
        if unit is None or self.acting() is None:
            self.refuse(
                "no creature of yours is acting"
                if unit
                else f"no creature in sight called {args[1]!r}"
            )
            return
        view = self.view
        view.selected = self.acting()
        view.mode = Targeting(args[0])
        view.hover = world.need(unit, Position).cell
        try:
            lines = tl.target_lines(self.scene, self.session, view, view.hover)
            lines += tl.odds_lines(self.scene, self.session, view)
        finally:
            view.mode = Free()
        self.tip_lines(lines[1:])  # not "choose a creature": it is chosen

    # --- decisions ---------------------------------------------------------------------------
    def submit(self, decision: Decision) -> Outcome:
        """A decision of the side at the screen: refused (the reason; nothing changes), or
        taken, its events in the log's words."""
        battle = self.session.battle
        result: Cost | Refusal | None = None  # a policy is always taken
        if isinstance(decision, ReactionChoice):
            result = battle.check_answer(decision)
        elif not isinstance(decision, SetPolicy):
            result = judge(battle, decision)
        if isinstance(result, Refusal):
            self.refuse(f"refused: {result.reason}")
            return result
        outcome = self.session.submit(decision)
        if isinstance(outcome, Refusal):
            self.refuse(f"refused: {outcome.reason}")
            return outcome
        self.news()
        self.after_change()
        return outcome

    def after_change(self) -> None:
        view = self.view
        view.hover = None
        view.waypoints = []
        view.disengage = False
        self.sync()
        self.changed = True

    def move(self, name: str, args: Sequence[str]) -> None:
        view = self.view
        kept = (view.hover, list(view.waypoints), view.move_only)
        if not self.moved(name, args):
            # A refused move changes nothing, the board's path and reach map included.
            view.hover, view.waypoints, view.move_only = kept
        view.move_only = None

    def moved(self, name: str, args: Sequence[str]) -> bool:
        """Move the acting creature by `name` (GO: the cheapest way) to the cell `args` name;
        whether it moved (if not, the reason is said)."""
        unit = self.acting()
        if unit is None:
            self.refuse("it is not your creature's turn")
            return False
        view = self.view
        view.selected = unit
        view.move_only = None if name == cmd.GO else name
        problem = cmd.move_target(view, args)
        if problem:
            self.refuse(problem)
            return False
        assert view.hover is not None
        world = self.session.battle.world
        if not world.grid.inside(view.hover):
            self.refuse(f"{view.hover} is off the map ({world.grid.width} x {world.grid.height})")
            return False
        plan = self.scene.plan(self.session, view)
        if plan is None:
            there = unit_at(world, view.hover, view.eyes)
            self.refuse(
                f"{there} stands at {view.hover}"
                if there and there != unit
                else f"{unit} is there already"
            )
            return False
        decision = plan.decision(view.slow, view.quicken)
        if decision is None:
            self.refuse(f"cannot move there: {plan.refusal}")
            return False
        if not view.disengage:
            return not isinstance(self.submit(decision), Refusal)
        first = disengage_first(self.session, unit)
        if isinstance(first, str):
            self.refuse(first)
            return False
        keep = len(self.session.battle.decisions)
        self.session.submit(first)
        result = judge(self.session.battle, decision)
        if isinstance(result, Refusal):
            self.session.rewind(keep)  # the move cannot follow: the Disengage is taken back
            self.refuse(f"refused after Disengage: {result.reason}")
            return False
        return not isinstance(self.submit(decision), Refusal)

    def do_go(self, args: Sequence[str]) -> None:
        self.move(cmd.GO, args)

    def action(self, name: str, args: Sequence[str]) -> None:
        unit = self.acting()
        if unit is None:
            self.refuse("it is not your creature's turn")
            return
        self.view.selected = unit
        decision = cmd.action_decision(self.session, self.view, unit, name, args)
        if isinstance(decision, str):
            self.refuse(decision)
            return
        self.submit(decision)

    def do_reactions(self, args: Sequence[str]) -> None:
        side = self.view.side
        if side is None or len(args) != 1 or args[0] not in ("ask", "auto"):
            self.refuse("reactions ask | reactions auto (for the side at the screen)")
            return
        for decision in side_policies(self.session.battle.world, side, args[0] == "ask"):
            self.session.submit(decision)
        self.say(
            f"{side.upper()}: reactions " + ("asked" if args[0] == "ask" else "automatic (auto)")
        )

    def do_policy(self, args: Sequence[str]) -> None:
        world = self.session.battle.world
        unit = self.named(args[:1]) if args else None
        if unit is None:
            if not args:
                self.refuse("policy CREATURE [REACTIONS] [DEFENCE]")
            return
        if not self.mine(unit):
            self.refuse(f"{unit} is not of your side")
            return
        policy = world.get(unit, Policy) or Policy()
        reactions, defence = policy.reactions, policy.defence
        for word in args[1:]:
            if word in REACTION_POLICIES:
                reactions = word
            elif word in DEFENCES:
                defence = word
            else:
                self.refuse(
                    f"{word!r} is no policy ({', '.join(REACTION_POLICIES)}) nor defence "
                    f"({', '.join(DEFENCES)})"
                )
                return
        if len(args) > 1:
            self.submit(SetPolicy(unit, reactions, defence))
        self.say(f"{unit}: reactions {reactions}, defence {defence}")

    def do_undo(self, args: Sequence[str]) -> None:
        turn = list(args) == ["turn"]
        if args and not turn:
            self.refuse("undo, or undo turn")
            return
        refused = rewind.rewind_refusal(self.session, self.view, self.acting())
        if refused is None:
            if turn:
                refused = rewind.undo_turn(self.session) or None
            else:
                waiting = lambda: self.seating.waiting(self.session.battle) is not None  # noqa: E731
                refused = rewind.undo_step(self.session, waiting) or None
        if refused is not None:
            self.refuse(f"cannot undo: {refused}")
            return
        self.say("back to the start of the turn" if turn else "undone")
        self.after_change()
        self.seen = {side: min(at, len(self.session.battle.log)) for side, at in self.seen.items()}

    def do_save(self, args: Sequence[str]) -> None:
        if len(args) > 1:
            self.refuse("save [FILE]")
            return
        target = Path(args[0]) if args else rewind.quick_save(self.session)
        try:
            self.session.save_to(target)
        except ReplayError as error:
            self.refuse(str(error))
            return
        self.say(f"saved to {target}")

    def do_load(self, args: Sequence[str]) -> None:
        if len(args) > 1:
            self.refuse("load [FILE]")
            return
        refused = rewind.load_refusal(self.session, self.view, self.acting())
        if refused is not None:
            self.refuse(f"cannot load: {refused}")
            return
        path = Path(args[0]) if args else rewind.quick_save(self.session)
        if not args and not path.is_file():
            self.refuse("cannot load: no quick save of this scenario yet: `save` makes one")
            return
        found = rewind.loaded(self.session, path)
        if isinstance(found, str):
            self.refuse(found)
            return
        self.session = found
        self.scene.reset()
        self.view = View()
        self.turn_key = None
        self.seating.seat_on(found)
        self.sync()
        self.seen = {}
        self.base = len(found.battle.log)
        self.over_shown = False
        self.say(f"loaded {path}")
        self.changed = True

    def do_ai(self, args: Sequence[str]) -> None:
        world = self.session.battle.world
        teams = list(dict.fromkeys(team_of(world, u) for u in creatures(world)))
        if args and args[0] == "off":
            if len(args) != 2 or args[1] not in self.seating.seated:
                playing = ", ".join(self.seating.seated) or "none"
                self.refuse(f"ai off TEAM: the AI plays {playing}")
                return
            self.seating.hand_back(self.session, args[1])
            self.say(f"{args[1].upper()} is played by its player again")
            self.sync()
            self.changed = True
            return
        level = args[0] if args else "normal"
        if level not in LEVELS or len(args) > 1:
            self.refuse(
                f"ai [LEVEL] (levels: {', '.join(LEVELS)}) or ai off TEAM "
                f"(teams: {', '.join(teams)})"
            )
            return
        side = self.view.handover or self.view.side
        if side is None or isinstance(self.session.battle.pending, BattleOver):
            self.refuse("no side at the screen to hand to the AI")
            return
        self.seating.hand_over(self.session, side, level)
        self.say(f"{side.upper()} is played by the AI ({level}); `ai off {side}` takes it back")
        self.sync()
        self.changed = True

    def do_again(self, args: Sequence[str]) -> None:
        old = self.session
        if not isinstance(old.battle.pending, BattleOver):
            self.refuse("the battle goes on: `again` plays a finished one again")
            return
        old.close()
        self.session = Session(old.scenario, old.seed + 1)
        self.scene.reset()
        self.view = View()
        self.turn_key = None
        self.seating.seat_on(self.session)
        self.sync()
        self.seen = {}
        self.base = 0
        self.over_shown = False
        self.say(f"a new battle of {old.scenario.name} (seed {old.seed + 1})")
        self.changed = True


def reader(stream: IO[str], out: IO[str], complete: Console | None = None) -> Callable[[str], str]:
    """How the console reads a line: from a terminal with line editing and Tab completion
    (readline), else from `stream`, echoing each line after its prompt so that a scripted
    game reads as it was played."""
    if complete is not None and stream is sys.stdin and stream.isatty():
        try:
            import readline
        except ImportError:  # no readline here: plain input, no completion
            return input
        readline.set_completer_delims(" \t\n")
        readline.parse_and_bind("tab: complete")

        def completer(text: str, state: int) -> str | None:
            line = readline.get_line_buffer()[: readline.get_begidx()]
            options = [
                o for o in candidates(complete, line.split()) if o.lower().startswith(text.lower())
            ]
            return options[state] if state < len(options) else None

        readline.set_completer(completer)
        return input

    def read(prompt: str) -> str:
        try:
            line = stream.readline()
        except (OSError, ValueError):  # closed or unreadable: the game ends as at its end
            line = ""
        if not line:
            raise EOFError
        print(prompt + line.rstrip("\n"), file=out, flush=True)
        return line

    return read


def candidates(console: Console, words: Sequence[str]) -> list[str]:
    """What Tab offers after `words` in the console's game now."""
    return cmd.completions(console.session, console.view, console.scene, console.acting(), words)


def play(
    session: Session,
    ai: dict[str, str] | None = None,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    """`sim play --text`: play `session`'s game in the terminal until `quit` or the end of the
    input (standard input and output by default); the exit status (1: the last autosave
    failed)."""
    source = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    terminal = wants_colour(out) or (out.isatty() and source.isatty())
    console = Console(session, input, out, ai=ai, colour=wants_colour(out), clear=terminal)
    console.read = reader(source, out, console)
    return console.run()
