"""The first battle's reactions hint: shown until a player once has reactions asked (P), and
remembered in a file beside the saves so that it is not shown again."""

from __future__ import annotations

from pathlib import Path

from sim.core.components import Policy
from sim.core.creature import creatures, team_of
from sim.core.files import Unreadable, read_text
from sim.core.limits import limits
from sim.core.world import World
from sim.ui.model.view import View

HINTS_FILE = ".hints"  # beside the saves: the hints a player has taken up, one a line
REACTION_HINT_KEY = "reactions"
REACTION_HINT = (
    "Reactions are automatic: each creature answers attacks and moves by its policy "
    "('auto': it weighs the odds, and the log says why). Select one of yours and press P to "
    "be asked instead."
)


class Hints:
    """Until a player has once made reactions asked (P), the sidebar says that they are
    automatic: with the default policy a new player never sees a reaction prompt."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.due = not self.seen()  # the reactions hint has not been taken up (P) yet

    def seen(self) -> bool:
        try:
            text = read_text(self.path, limits().files.hints, "the hints file")
        except Unreadable:  # missing, damaged or not a file: the hint shows again
            return False
        return REACTION_HINT_KEY in text.split()

    def taken_up(self) -> None:
        """Remember that the reactions hint was taken up (a failure only shows it again)."""
        self.due = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(REACTION_HINT_KEY + "\n", encoding="utf-8")
        except OSError:
            pass

    def show(self, world: World, view: View) -> None:
        """The reactions hint shows while it is due and a creature of the seated side answers
        reactions by itself (a side already asked needs no telling)."""
        automatic = view.side is not None and any(
            (world.get(u, Policy) or Policy()).reactions != "ask"
            for u in creatures(world)
            if team_of(world, u) == view.side
        )
        view.hint = REACTION_HINT if self.due and automatic else ""
