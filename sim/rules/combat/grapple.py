"""Grapple (R-G1..R-G4, R-X13): a 1½ Action STR Contest against a creature in reach, with a free
hand; a winning grappler holds the target, a losing one has only spent the cost. The held
creature is "grappled" (value: the grappler's id), the holder "grappling" (value: the held
one's id); neither takes a Movement Action. Once a turn the held creature may break free with a
Full Action (the same contest); at the start of its turn the grappler sustains the grapple with
a new contest for 2 Bonus Actions; the grappler lets go for free at any time; the grapple ends
when the two are moved apart or the grappler is Incapacitated.

**Decisions**: in every grapple contest the grappler adds Athletics and the held (or defending)
creature the better of Athletics and Acrobatics, both to a STR roll (R-C2, R-G1); an
Incapacitated creature does not resist (its total is 0, nothing rolled); a grapple that fails
does nothing beyond its spent cost: the defender, who did not try to grapple, is never made the
grappler (R-G1); a creature is in one grapple at a time; a grappler sustains whenever it can pay
(to let go instead it uses `release`, also outside its turn).
"""

from __future__ import annotations

from collections.abc import Iterator

from sim.core import events as ev
from sim.core.actions import BreakFree, Grapple, Refusal, Release
from sim.core.components import Budget, Conditions, Hands, Position, Stats, Team
from sim.core.condition import Condition
from sim.core.creature import conditions, has, incapacitated, is_creature
from sim.core.dice import Dice
from sim.core.numbers import Tier
from sim.core.purpose import RollKind
from sim.core.roster import roster
from sim.core.world import World
from sim.rules.budget import several
from sim.rules.candidates import Scene
from sim.rules.combat.checks import Check, acting_wins, roll_check
from sim.rules.combat.sizes import size_modifier, too_large
from sim.rules.reach.target import in_reach
from sim.rules.reach.threat import reaches

GRAPPLING = Condition.GRAPPLING
GRAPPLED = Condition.GRAPPLED
TRIED = Condition.BREAK_FREE_TRIED


def holder_of(world: World, unit: str) -> str | None:
    """Who holds `unit` Grappled, if anyone."""
    return conditions(world, unit).creature(GRAPPLED) or None


def held_by(world: World, unit: str) -> str | None:
    """Whom `unit` holds Grappled, if anyone."""
    return conditions(world, unit).creature(GRAPPLING) or None


def _in_grapple(world: World, unit: str) -> str | None:
    """Why `unit` is already in a grapple, or None (**Decision** one grapple at a time)."""
    holder = holder_of(world, unit)
    if holder is not None:
        return f"{unit} is grappled by {holder}"
    held = held_by(world, unit)
    if held is not None:
        return f"{unit} is already grappling {held}"
    return None


# --- the contest (R-G1) ------------------------------------------------------------------------


def _skill(world: World, unit: str, *, holder: bool) -> str:
    """R-G1: the grappler adds Athletics; the other may add Acrobatics instead (the better)."""
    if holder:
        return "athletics"
    stats = world.need(unit, Stats)
    return max(("athletics", "acrobatics"), key=lambda s: (stats.skill(s), s == "athletics"))


def _roll(
    world: World,
    dice: Dice,
    unit: str,
    purpose: str,
    *,
    tag: RollKind,
    holder: bool,
    modifier: int = 0,
) -> Check | None:
    """The unit's STR + skill roll; an Incapacitated creature does not resist (None)."""
    if not holder and incapacitated(world, unit):
        return None
    skill = _skill(world, unit, holder=holder)
    words = f"{purpose}: STR + {skill.title()}"
    return roll_check(world, dice, unit, "str", words, tag=tag, skill=skill, modifier=modifier)


def contest(
    world: World,
    dice: Dice,
    acting: str,
    other: str,
    purpose: str,
    *,
    tag: RollKind,
    acting_holds: bool,
) -> tuple[bool, list[ev.Event]]:
    """One grapple contest (R-G1, R-C4): whether the acting side wins, and the events (its
    rolls, then the outcome). `acting_holds`: the acting creature is (or would be) the
    grappler, which adds Athletics; the other side adds the better of Athletics and
    Acrobatics — and the other way round when the held creature acts."""
    out: list[ev.Event] = []
    totals = []
    # R-Z4: sizes weigh on the acting side's roll (-5 against a larger, +5 a smaller).
    sized = size_modifier(world, acting, other)
    for unit, holder, modifier in (
        (acting, acting_holds, sized),
        (other, not acting_holds, 0),
    ):
        check = _roll(world, dice, unit, purpose, tag=tag, holder=holder, modifier=modifier)
        if check is not None:
            out.append(check.rolled)
        totals.append(check.total if check is not None else 0)
    won = acting_wins(totals[0], totals[1])
    out.append(
        ev.ContestResolved(
            f"{purpose} (STR Contest, R-G1)",
            acting,
            totals[0],
            other,
            totals[1],
            acting if won else other,
            tag=tag,
        )
    )
    return won, out


def hold(holder: str, held: str) -> list[ev.Event]:
    return [ev.ConditionGained(holder, GRAPPLING, held), ev.ConditionGained(held, GRAPPLED, holder)]


def let_go(world: World, holder: str, held: str, reason: str) -> list[ev.Event]:
    """Both sides of a grapple end (only the conditions still there)."""
    out: list[ev.Event] = []
    if held_by(world, holder) == held:
        out.append(ev.ConditionLost(holder, GRAPPLING, reason))
    if holder_of(world, held) == holder:
        out.append(ev.ConditionLost(held, GRAPPLED, reason))
    return out


# --- Grapple (R-G1, R-X13) ---------------------------------------------------------------------


def check_grapple(world: World, action: Grapple) -> Refusal | None:
    actor, target = action.actor, action.target
    problem = in_reach(world, actor, target, "grapple", "R-G1")
    if problem is not None:
        return problem
    large = too_large(world, actor, target, "grapple")
    if large is not None:
        return large
    here, there = world.need(actor, Position).cell, world.need(target, Position).cell
    if not reaches(world, actor, here, there, armed=False):
        return Refusal(
            f"{target} at {there} is out of {actor}'s grip: a grapple is hands-on (R-G1)"
        )
    for unit in (actor, target):
        busy = _in_grapple(world, unit)
        if busy is not None:
            return Refusal(f"{busy}; a creature is in one grapple at a time (R-G1)")
    need = world.rules.grapple.free_hands
    hands = world.need(actor, Hands)
    if hands.free < need:
        held = " and ".join(hands.items())
        return Refusal(f"{actor} needs a free hand to grapple but holds {held} (R-G1)")
    return None


def resolve_grapple(world: World, action: Grapple, dice: Dice) -> list[ev.Event]:
    actor, target = action.actor, action.target
    won, out = contest(
        world, dice, actor, target, "grapple", tag=RollKind.GRAPPLE, acting_holds=True
    )
    # R-G1: a lost contest does nothing beyond the spent cost; the defender holds no one.
    return out + hold(actor, target) if won else out


# --- Break free (R-G2) -------------------------------------------------------------------------


def check_break_free(world: World, action: BreakFree) -> Refusal | None:
    actor = action.actor
    if holder_of(world, actor) is None:
        return Refusal(f"{actor} is not grappled; there is nothing to break free from (R-G2)")
    if has(world, actor, TRIED):
        return Refusal(f"{actor} has already tried to break free this turn (R-G2: once per turn)")
    return None


def resolve_break_free(world: World, action: BreakFree, dice: Dice) -> list[ev.Event]:
    actor = action.actor
    holder = holder_of(world, actor)
    assert holder is not None
    out: list[ev.Event] = [ev.ConditionGained(actor, TRIED, world.turn.round)]
    won, rolled = contest(
        world, dice, actor, holder, "break free", tag=RollKind.BREAK_FREE, acting_holds=False
    )
    out += rolled
    if won:
        out += let_go(world, holder, actor, f"{actor} broke free (R-G2)")
    return out


# --- Release (R-G4) ----------------------------------------------------------------------------


def check_release(world: World, action: Release) -> Refusal | None:
    if held_by(world, action.actor) is None:
        return Refusal(f"{action.actor} is grappling no one; there is nothing to let go (R-G4)")
    return None


def resolve_release(world: World, action: Release, dice: Dice) -> list[ev.Event]:
    held = held_by(world, action.actor)
    assert held is not None
    return let_go(world, action.actor, held, f"{action.actor} let go (R-G4)")


# --- the start of the grappler's turn (R-G3, R-T2) ---------------------------------------------


def sustain_grapple(world: World, unit: str, dice: Dice) -> list[ev.Event]:
    """R-G3: a new contest paid with 2 Bonus Actions; losing, or lacking 2 B, ends it."""
    held = held_by(world, unit)
    if held is None:
        return []
    cost = world.rules.grapple.sustain_bonus
    if world.need(unit, Budget).bonus < cost:
        return let_go(world, unit, held, f"{unit} lacks {cost} Bonus Actions to sustain it (R-G3)")
    # The log names the price as paid: 2 Bonus Actions ("bonus_x2"), not the Bonus tier's 1 B.
    paid = several(Tier.BONUS, cost)
    out: list[ev.Event] = [ev.Spent(unit, "sustain_grapple", paid, 0, cost, None, False)]
    won, rolled = contest(
        world, dice, unit, held, "sustain grapple", tag=RollKind.SUSTAIN_GRAPPLE, acting_holds=True
    )
    out += rolled
    if not won:
        out += let_go(world, unit, held, f"{held} won the contest to sustain it (R-G3)")
    return out


# --- what ends a grapple by itself (R-G4) ------------------------------------------------------


def _together(world: World, holder: str, held: str) -> bool:
    a = world.need(holder, Position).cell
    b = world.need(held, Position).cell
    return a == b or reaches(world, holder, a, b, armed=False)  # a grip, not a weapon's reach


def grapples(world: World) -> tuple[tuple[str, str], ...]:
    """Every whole grapple, (holder, held), in scenario order. Kept until a condition changes
    (World.memo): the engine asks after every change, and a step changes only a place."""

    def whole() -> tuple[tuple[str, str], ...]:
        out: list[tuple[str, str]] = []
        for unit in roster(world, "grappling", _grappling, (Conditions, Team, Stats)):
            held = held_by(world, unit)
            if held is not None and holder_of(world, held) == unit:
                out.append((unit, held))
        return tuple(out)

    return world.memo("grapples", whole, reads=(Conditions, Team, Stats))


def _grappling(world: World, entity: str) -> bool:
    """A creature that holds another Grappled: the few `grapples` looks at (issue #30)."""
    return is_creature(world, entity) and conditions(world, entity).has(GRAPPLING)


def loosened(world: World) -> list[ev.Event]:
    """Grapples that no longer hold (R-G4): the two were moved apart, or the grappler is
    Incapacitated. The engine runs this after every change. Only whole grapples count (both
    conditions naming each other): a grapple is begun and ended one condition at a time."""
    out: list[ev.Event] = []
    for unit, held in grapples(world):
        if incapacitated(world, unit):
            out += let_go(world, unit, held, f"{unit} is incapacitated (R-G4)")
        elif not _together(world, unit, held):
            out += let_go(world, unit, held, f"{unit} and {held} were moved apart (R-G4)")
    return out


def grapple_candidates(scene: Scene, other: str) -> Iterator[Grapple]:
    """Anyone in sight and reach, allies too."""
    if scene.near(other):
        yield Grapple(scene.unit, target=other)
