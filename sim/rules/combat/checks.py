"""Rolls, checks, saves and contests (R-C2, R-C3, R-C4).

An "X Roll" is one roll of X's die with nothing added. An "X Roll + Bonus", an X Save, an X Check
and an X Contest are X's die plus X's Bonus, plus the named skill's level and modifiers (R-C2).
A skill check rolls the skill's governing attribute (R-C3). In a contest or a save the higher
total wins, and a tie goes to the one who is not acting: the defender, the saver (R-C4).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.core import events as ev
from sim.core.components import Stats
from sim.core.dice import Dice
from sim.core.purpose import RollKind
from sim.core.world import World


@dataclass(frozen=True, slots=True)
class Check:
    """A rolled total and the roll event that explains it."""

    total: int
    rolled: ev.Rolled


def attribute_roll(
    world: World, dice: Dice, unit: str, attribute: str, purpose: str, *, tag: RollKind
) -> Check:
    """R-C2 "X Roll": one roll of the attribute's die, nothing added. `purpose` words the roll
    for the log, `tag` says what it is for to code."""
    die = world.need(unit, Stats).attribute(attribute).die
    result = dice.roll(die)
    return Check(result, ev.Rolled(unit, purpose, die, result, 0, result, tag=tag))


def roll_check(
    world: World,
    dice: Dice,
    unit: str,
    attribute: str,
    purpose: str,
    *,
    tag: RollKind,
    skill: str | None = None,
    modifier: int = 0,
) -> Check:
    """R-C2: the attribute's die + its Bonus + the named skill's level + modifiers.

    Any skill may be named (R-G1 lets a defender add Acrobatics to a STR Contest); use
    `skill_check` for the usual case of a skill with its governing attribute (R-C3).
    """
    stats = world.need(unit, Stats)
    if skill is not None and skill not in world.rules.skills:
        raise KeyError(f"unknown skill {skill!r}")
    score = stats.attribute(attribute)
    result = dice.roll(score.die)
    added = score.bonus + (stats.skill(skill) if skill else 0) + modifier
    rolled = ev.Rolled(unit, purpose, score.die, result, added, result + added, tag=tag)
    return Check(result + added, rolled)


def skill_check(
    world: World,
    dice: Dice,
    unit: str,
    skill: str,
    purpose: str,
    *,
    tag: RollKind,
    modifier: int = 0,
) -> Check:
    """R-C3: the governing attribute's die + its Bonus + the skill level (+ modifiers)."""
    attribute = world.rules.skills[skill]
    return roll_check(
        world, dice, unit, attribute, purpose, tag=tag, skill=skill, modifier=modifier
    )


def acting_wins(acting: int, other: int) -> bool:
    """R-C4: the acting side wins a contest only with the higher total; ties go to the other.

    >>> acting_wins(15, 14), acting_wins(15, 15), acting_wins(14, 15)
    (True, False, False)
    """
    return acting > other


def saved(save: int, against: int) -> bool:
    """R-C4: a save succeeds when it equals or beats the total it is made against.

    >>> saved(12, 12), saved(11, 12)
    (True, False)
    """
    return not acting_wins(against, save)
