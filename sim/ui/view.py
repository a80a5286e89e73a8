"""What the client is showing (no pygame): whose eyes, the selection, hover, waypoints, toggles,
and the modes a click can be in. The renderer draws it; the app changes it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sim.geometry import Pos
from sim.ui.markers import Marker


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
    targeting: str | None = None  # an action waiting for a target creature or cell
    item: str | None = None  # the item chosen for `targeting`, if it needs one too
    picking: str | None = None  # an action whose item is being picked from a list
    choosing: str | None = None  # "cast" / "use": a spell or ability is being chosen;
    # "prepare": a trigger is being chosen
    ability: str | None = None  # the spell or ability chosen for `targeting`
    ally: str | None = None  # Assist (R-X21): the ally clicked first; the enemy is clicked next
    preparing: dict[str, Any] | None = None  # Prepare's trigger fields: the next action
    # chosen is held ready instead of taken
    marking: list[Pos] | None = None  # Prepare's "enters_area": the cells marked so far
    help: bool = False
    handover: str | None = None  # the side asked to sit down; the board is hidden
    status: str = ""
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

    def clear_plan(self) -> None:
        self.waypoints.clear()
        self.targeting = None
        self.item = None
        self.picking = None
        self.choosing = None
        self.ability = None
        self.ally = None
        self.preparing = None
        self.marking = None
