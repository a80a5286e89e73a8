"""The conditions a creature can have (R-K and the actions' effects), and what each one holds."""

from __future__ import annotations

import enum

from sim.core.geometry import Pos


class Condition(enum.StrEnum):
    """Every condition by its name in logs, saves and the state file: the one list the rules,
    the client and docs/commands.md share (a test checks the docs against it)."""

    AIMING = "aiming"  # the bonus (R-X1)
    BRACED = "braced"  # R-X3
    EVADING = "evading"  # R-X9
    GUARDING = "guarding"  # the round (R-X14)
    GUARD_USED = "guard_used"  # the round its free Parry or Block was used (R-X14)
    PRONE = "prone"  # R-M10
    SWIMMING = "swimming"  # R-M8
    SUBMERGED = "submerged"  # R-M8
    HANGING = "hanging"  # the cell of the face it hangs on (R-M7)
    QUICKENED = "quickened"  # turns left (R-K3)
    SLOWED = "slowed"  # turns left (R-K3)
    BURNING = "burning"  # stacks (R-K4)
    BLEEDING = "bleeding"  # stacks (R-K5)
    INCAPACITATED = "incapacitated"  # R-K2
    FEINTED = "feinted"  # the bonus on its next melee Hit Roll, whatever its target (R-X10)
    ASSISTED = "assisted"  # the enemy its next Hit Roll gains +2 against (R-X21)
    ASSISTED_BY = "assisted_by"  # the assister (R-X21)
    ASSISTING = "assisting"  # the allies it assisted this turn (R-X21)
    UNSEEN = "unseen"  # the opponents that do not see it (R-X8)
    GRAPPLING = "grappling"  # the creature it holds (R-G1)
    GRAPPLED = "grappled"  # its grappler (R-G1)
    BREAK_FREE_TRIED = "break_free_tried"  # the round (R-G2)
    DISENGAGED = "disengaged"  # R-R5

    @property
    def holds(self) -> type:
        """What its value is: a count (`int`: stacks, turns, a round, a bonus, or 1), a
        creature (`str`), creatures (`tuple`) or a cell (`Pos`)."""
        return _HOLDS.get(self, int)

    def fits(self, value: Value) -> bool:
        """Whether `value` is what this condition holds."""
        if isinstance(value, Pos):  # a NamedTuple, so also a tuple
            return self.holds is Pos
        return isinstance(value, self.holds)


_HOLDS: dict[Condition, type] = {
    Condition.ASSISTED: str,
    Condition.ASSISTED_BY: str,
    Condition.GRAPPLING: str,
    Condition.GRAPPLED: str,
    Condition.ASSISTING: tuple,
    Condition.UNSEEN: tuple,
    Condition.HANGING: Pos,
}

# A condition's value: see `Condition.holds`.
Value = int | str | tuple[str, ...] | Pos


def written(value: Value) -> int | str:
    """A value as logs and the state file write it: creatures comma-separated, a cell "x,y".

    >>> written(("ana", "bo")), written(Pos(3, 1)), written(2), written("grok")
    ('ana,bo', '3,1', 2, 'grok')
    """
    if isinstance(value, Pos):  # a NamedTuple: before the tuple of creatures
        return f"{value.x},{value.y}"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return value
