"""What a roll, a check, a contest or an attack is for: the tags its events carry for code.

An event's `purpose` is words for the log ("hit roll: melee attack on bob"); code that must know
what a roll was for asks the event's `tag` instead, so that the words can change freely. Tags
are never written into the event log (`events.to_json` leaves them out), and nothing reads events
back from JSON: a replay makes them again by re-running the decisions.
"""

from __future__ import annotations

import enum


class RollKind(enum.Enum):
    """What a Rolled die, a CheckResolved or a ContestResolved is for."""

    HIT = "hit"  # a Hit Roll, of any attack (R-A1)
    DEFENSE = "defense"  # the RES Roll of a Defense Roll (R-A2)
    DODGE = "dodge"  # the defences added to a Defense Roll (R-A2)
    PARRY = "parry"
    BLOCK = "block"
    SPRINT = "sprint"  # Sprint's distance (R-M1)
    INITIATIVE = "initiative"  # R-T1
    INITIATIVE_TIE_BREAK = "initiative_tie_break"  # R-T1's seeded draw among ties
    CAST = "cast"  # a caster's FCS Check that the targets save against (R-X20)
    SAVE = "save"  # a target's Save against a spell (R-C2)
    EFFECT = "effect"  # one die of a spell's damage or healing
    CATCH = "catch"  # catching a thrown or tossed item (R-R6)
    SHOVE = "shove"  # the shover's side of the contest (R-X15)
    RESIST_SHOVE = "resist_shove"  # the shoved creature's side
    KEEP_FEET = "keep_feet"  # a Save against being knocked Prone (R-X15, R-X19)
    FEINT = "feint"  # the feinter's Deception check (R-X10)
    SEE_THROUGH_FEINT = "see_through_feint"  # the target's FCS Save against it
    HIDE = "hide"  # the hider's Stealth check (R-X8)
    SPOT = "spot"  # a watcher's Perception check against it
    FIRST_AID = "first_aid"  # R-X12
    GRAPPLE = "grapple"  # the contests of a grapple (R-G1, R-G2, R-G3)
    BREAK_FREE = "break_free"
    SUSTAIN_GRAPPLE = "sustain_grapple"
    HOLD_ON = "hold_on"  # the disarmed creature's roll to keep its weapon (R-X5)


class AttackKind(enum.Enum):
    """Which attack an AttackResolved settles: what its Hit Roll was made for."""

    MELEE = "melee"  # the Attack action (R-A1)
    RANGED = "ranged"
    OPPORTUNITY = "opportunity"  # an Attack of Opportunity (R-R4)
    INTERRUPT = "interrupt"  # R-R7
    TRIP = "trip"  # R-X19
    DISARM = "disarm"  # R-X5
    THROW = "throw"  # R-X17
    SPELL = "spell"  # a spell with a Hit Roll (R-X20)
