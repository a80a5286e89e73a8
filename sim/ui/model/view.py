"""What the client is showing (no pygame): whose eyes, the selection, hover, waypoints, toggles,
and the mode a click is in (one value, sim/ui/model/mode.py). The renderer draws it; the app changes
it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sim.core.geometry import Pos
from sim.play.engine import Decision
from sim.ui.model.markers import Marker
from sim.ui.model.mode import Choosing, Free, Marking, Mode, Picking, Targeting

# The toggles that only flip, by name: the View's field each flips.
FLAGS = {"reach": "show_reach", "threat": "show_threat", "own": "show_own",
         "disengage": "disengage", "help": "help"}  # fmt: skip
TOGGLES = (*FLAGS, "slow", "quicken")


@dataclass(frozen=True, slots=True)
class Confirm:
    """A decision held back until a second click on `cell` (or Enter): `why` it waits, in
    words (sim/ui/model/risk.py)."""

    decision: Decision
    why: str
    cell: Pos | None = None


@dataclass
class View:
    side: str | None = None  # the side sitting at the screen; None sees everything
    selected: str | None = None
    hover: Pos | None = None
    mouse: tuple[int, int] = (-1, -1)
    waypoints: list[Pos] = field(default_factory=list)
    show_reach: bool = True
    show_threat: bool = False
    show_own: bool = False
    threat_teams: tuple[str, ...] | None = None  # None: every side but `side`
    disengage: bool = False
    slow: bool = False
    quicken: bool = False
    move_only: str | None = None  # restrict the reach map to one Movement Action
    mode: Mode = field(default_factory=Free)  # what the next click chooses (sim/ui/model/mode.py)
    # Prepare's trigger fields: the next action chosen is held ready instead of taken. Not a
    # mode: it spans the modes its action is chosen in (a list, then a target), like a toggle.
    preparing: dict[str, Any] | None = None
    help: bool = False
    handover: str | None = None  # the side asked to sit down; the board is hidden
    status: str = ""
    refusal: str = ""  # the last refusal said on the status line (`refuse`)
    log_offset: int = 0
    bar_hover: str | None = None  # the action button under the mouse
    dragging: bool = False
    omniscient: bool = False  # `sim render`: no hotseat, every creature shown
    offer: str = ""  # the handover screen's offer to continue an unfinished game ("": none)
    ai: dict[str, str] = field(default_factory=dict)  # sides the AI plays: team -> level
    markers: list[Marker] = field(default_factory=list)  # results on the board, short-lived
    last: str = ""  # the last decision's result in a line, beside the action bar
    hint: str = ""  # a first-battle hint for the sidebar ("" once taken up)
    replaying: bool = False  # the replay viewer: nothing is decided, the bar only shows
    menu: str | None = None  # the Esc menu open: "main" or "settings"
    confirm: Confirm | None = None  # a click held back for a second one (or Enter)
    # The reacting side's view of what its answer did, shown before the handover (lines).
    aftermath: list[str] = field(default_factory=list)

    @property
    def eyes(self) -> str | None:
        """Whose sight the screen shows: the seated side, or None (everything) when omniscient."""
        return None if self.omniscient else self.side

    def sits_for(self, team: str) -> bool:
        """Whether the screen plays for creatures of `team` (every team when omniscient)."""
        return self.omniscient or team == self.side

    def sees_plan_of(self, team: str) -> bool:
        """Whether the screen may show what a creature of `team` prepared (its trigger, action
        and marked area): in hotseat that is its side's secret; the other side only sees that
        it holds an action, as at a table."""
        return self.sits_for(team)

    def refuse(self, words: str) -> None:
        """Say on the status line why a decision or a choice was refused."""
        self.status = self.refusal = words

    @property
    def shows_refusal(self) -> bool:
        """Whether the status line still says the last refusal."""
        return bool(self.status) and self.status == self.refusal

    def toggle(self, name: str) -> None:
        """Flip an overlay ("reach", "threat", "own"), help, or a toggle of the next action
        ("disengage", "slow", "quicken"; Slow and Quicken exclude each other, R-B6)."""
        if name in FLAGS:
            setattr(self, FLAGS[name], not getattr(self, FLAGS[name]))
        elif name == "slow":
            self.slow = not self.slow
            self.quicken = self.quicken and not self.slow
        elif name == "quicken":
            self.quicken = not self.quicken
            self.slow = self.slow and not self.quicken

    def clear_plan(self) -> None:
        self.waypoints.clear()
        self.mode = Free()
        self.preparing = None
        self.confirm = None

    # --- the mode's parts, read-only (the mode is changed as a whole) ---------------------------
    @property
    def targeting(self) -> str | None:
        """The action waiting for a target creature or cell, if any."""
        return self.mode.action if isinstance(self.mode, Targeting) else None

    @property
    def item(self) -> str | None:
        """The item chosen for the action being targeted, if it needs one."""
        return self.mode.item if isinstance(self.mode, Targeting) else None

    @property
    def ability(self) -> str | None:
        """The spell or ability chosen for the action being targeted."""
        return self.mode.ability if isinstance(self.mode, Targeting) else None

    @property
    def ally(self) -> str | None:
        """Assist (R-X21): the ally clicked first; the enemy is clicked next."""
        return self.mode.ally if isinstance(self.mode, Targeting) else None

    @property
    def picking(self) -> str | None:
        """The action whose item is being picked from a list."""
        return self.mode.action if isinstance(self.mode, Picking) else None

    @property
    def owner(self) -> str | None:
        """Whose weapons the item list shows (a Disarm's target), or None: the acting
        creature's own items."""
        return self.mode.target if isinstance(self.mode, Picking) else None

    @property
    def choosing(self) -> str | None:
        """ "cast" / "use": a spell or ability is being chosen; "prepare": a trigger."""
        return self.mode.action if isinstance(self.mode, Choosing) else None

    @property
    def marking(self) -> list[Pos] | None:
        """Prepare's "enters_area": the cells marked so far (None: not marking)."""
        return list(self.mode.cells) if isinstance(self.mode, Marking) else None
