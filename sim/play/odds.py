"""Exact odds of attacks and contests, worked out from the dice distributions without sampling.

Every total the engine rolls is a sum of dice times small factors plus a constant (R-C2), so its
distribution is a discrete convolution of uniform dice. An attack hits when the Hit Roll is
greater than the Defense Roll (R-A3); a contest goes to the acting side only on a higher total
and a save succeeds on a tie (R-C4). The terms read the same helpers the engine rolls with
(`hit_bonus`, `parry_attribute`, `parry_rating`, `block_rating`, `defence_options`), so a
change to a rule's numbers reaches the odds too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from sim.core import events as ev
from sim.core.actions import Attack, Disarm, Feint, Grapple, Refusal, Shove, Trip
from sim.core.components import AttackWindow, Stats
from sim.core.condition import Condition
from sim.core.creature import after_armour, conditions, has, incapacitated, lying, unseen_by
from sim.core.geometry import Pos
from sim.core.world import World
from sim.play.apply import apply
from sim.rules.combat.assist import assist_bonus
from sim.rules.combat.attack import hit_bonus, plan_attack, weapon_kind
from sim.rules.combat.hide import in_plain_sight, seeing_foes
from sim.rules.combat.reactions import (
    NONE,
    Ask,
    block_rating,
    defence_options,
    parry_attribute,
    parry_rating,
)
from sim.rules.combat.shove import push
from sim.rules.combat.sizes import size_modifier
from sim.rules.movement.flight import falls_if_downed, over_pit
from sim.rules.movement.prone import knocked_down, knocked_off

Probs = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Distribution:
    """The chance of every whole total from `low` up: `probs[i]` is P(total == low + i)."""

    low: int
    probs: Probs

    @staticmethod
    def constant(value: int) -> Distribution:
        return Distribution(value, np.ones(1))

    @staticmethod
    def die(size: int, times: int = 1) -> Distribution:
        """One roll of a d`size`, multiplied by `times` (Brace's doubled RES Roll, R-X3)."""
        probs = np.zeros((size - 1) * times + 1)
        probs[::times] = 1.0 / size
        return Distribution(times, probs)

    def __add__(self, other: Distribution | int) -> Distribution:
        if isinstance(other, int):
            return Distribution(self.low + other, self.probs)
        return Distribution(self.low + other.low, np.convolve(self.probs, other.probs))

    @property
    def high(self) -> int:
        return self.low + len(self.probs) - 1

    def mean(self) -> float:
        return float(np.dot(self.probs, np.arange(self.low, self.high + 1)))

    def cdf_below(self, value: int) -> float:
        """P(total < value)."""
        upto = min(max(value - self.low, 0), len(self.probs))
        return float(self.probs[:upto].sum())

    def below_each(self, low: int, high: int) -> Probs:
        """P(total < v) for every v in low..high."""
        cumulative = np.concatenate(([0.0], np.cumsum(self.probs)))
        # minimum/maximum rather than np.clip, whose checks cost more than the sum (issue #11)
        index = np.minimum(np.maximum(np.arange(low, high + 1) - self.low, 0), len(self.probs))
        return cumulative[index]

    def beats(self, other: Distribution) -> float:
        """P(self > other): the acting side's chance in a contest, or a hit (R-A3, R-C4)."""
        return float(np.dot(self.probs, other.below_each(self.low, self.high)))


# --- totals the engine rolls ---------------------------------------------------------------------


def attribute_total(world: World, unit: str, attribute: str, *, added: int = 0) -> Distribution:
    """R-C2: the attribute's die + its Bonus + `added` (skill levels, modifiers)."""
    score = world.need(unit, Stats).attribute(attribute)
    return Distribution.die(score.die) + (score.bonus + added)


def skill_total(world: World, unit: str, skill: str) -> Distribution:
    """R-C3: the governing attribute's die + its Bonus + the skill level."""
    stats = world.need(unit, Stats)
    return attribute_total(world, unit, world.rules.skills[skill], added=stats.skill(skill))


def hit_total(
    world: World, attacker: str, target: str, *, melee: bool, factor: int = 1
) -> Distribution:
    """R-A1: the Hit Roll of `attacker`'s next attack in its window, with Aim (R-X1, ranged),
    a Feint (R-X10, melee, whatever the target) and an Assist against this target (R-X21) as
    `hit_roll` adds them. Shared: callers must not change its chances."""
    return _hit(*_hit_terms(world, attacker, target, melee=melee, factor=factor))


def _hit_terms(
    world: World, attacker: str, target: str, *, melee: bool, factor: int = 1
) -> tuple[int, int]:
    """`hit_total` as numbers: the FCS die and the modifier added to it."""
    count = (world.get(attacker, AttackWindow) or AttackWindow()).count + 1
    modifier = hit_bonus(world, attacker, count, factor)
    held = conditions(world, attacker)
    if not melee and held.has(Condition.AIMING):
        modifier += held.count(Condition.AIMING)
    if melee and held.has(Condition.FEINTED):
        modifier += held.count(Condition.FEINTED)
    modifier += assist_bonus(world, attacker, target)[0]
    fcs = world.need(attacker, Stats).attribute("fcs")
    return fcs.die, modifier


def defense_total(world: World, unit: str, choice: str) -> Distribution:
    """R-A2: the RES Roll (doubled by Brace, R-X3) plus the chosen reaction, as `defense_roll`
    rolls it; 0 for an Incapacitated defender. Shared: callers must not change its chances."""
    return _defense(_defense_terms(world, unit, choice))


def _defense_terms(world: World, unit: str, choice: str) -> tuple[int, ...]:
    """`defense_total` as numbers: () for the 0 of an Incapacitated defender, else the RES die
    and its factor, then for a reaction its die, that die's factor and what is added."""
    if incapacitated(world, unit):
        return ()
    stats = world.need(unit, Stats)
    braced = 2 if has(world, unit, Condition.BRACED) else 1
    res = stats.attribute("res")
    if choice == "dodge":
        agi = stats.attribute("agi")
        bonus = agi.bonus * (2 if has(world, unit, Condition.EVADING) else 1)  # R-X9
        return (res.die, braced, agi.die, 1, bonus)
    if choice == "parry":
        attribute = stats.attribute(parry_attribute(stats))
        return (res.die, braced, attribute.die, 1, attribute.bonus + parry_rating(world, unit))
    if choice == "block":
        added = res.bonus * braced + block_rating(world, unit)
        return (res.die, braced, res.die, braced, added)
    return (res.die, braced)


# The same few totals are rolled against each other by every creature's every decision, so
# their distributions and chances are kept by the numbers they are made of (issue #30): what
# the world decides is read afresh each time, only the arithmetic is shared.
@lru_cache(maxsize=1024)
def _hit(die: int, modifier: int) -> Distribution:
    return _shared(Distribution.die(die) + modifier)


@lru_cache(maxsize=1024)
def _defense(terms: tuple[int, ...]) -> Distribution:
    if not terms:
        return _shared(Distribution.constant(0))
    total = Distribution.die(terms[0], terms[1])
    if len(terms) > 2:
        total = total + Distribution.die(terms[2], terms[3]) + terms[4]
    return _shared(total)


@lru_cache(maxsize=4096)
def _hit_chance(hit: tuple[int, int], defense: tuple[int, ...]) -> float:
    """P(Hit Roll > Defense Roll) (R-A3) of the totals `_hit_terms` and `_defense_terms` give."""
    return _hit(*hit).beats(_defense(defense))


def _shared(total: Distribution) -> Distribution:
    """`total`, its chances made read-only: it is kept and handed to every caller."""
    total.probs.flags.writeable = False
    return total


# --- attacks --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """One defence the target may choose against an attack: the chance that the attack hits,
    and the damage expected from it after armour (R-A3)."""

    defence: str
    hit: float
    damage: float
    per_hit: int


def defences(world: World, attacker: str, target: str) -> tuple[str, ...]:
    """The defences `target` can still choose now against any attack of `attacker`'s, melee or
    not (a Parry too, R-R2), "none" last; only "none" against an unseen attacker (R-X8) or for
    an Incapacitated target (R-A2)."""
    if incapacitated(world, target) or target in unseen_by(world, attacker):
        return (NONE,)
    return (*defence_options(world, target), NONE)


def attack_odds(
    world: World,
    attacker: str,
    target: str,
    *,
    weapon: str | None,
    melee: bool,
    factor: int = 1,
) -> tuple[AttackOdds, ...]:
    """The chance to hit and expected damage against each defence the target can afford."""
    hit = _hit_terms(world, attacker, target, melee=melee, factor=factor)
    kind = weapon_kind(world, weapon)
    wd = kind.wd if kind else world.rules.attack.unarmed_wd
    per_hit = after_armour(world, target, wd)
    out = []
    for choice in defences(world, attacker, target):
        chance = _hit_chance(hit, _defense_terms(world, target, choice))
        out.append(AttackOdds(choice, chance, chance * per_hit, per_hit))
    return tuple(out)


def hit_and_fail(hit: Distribution, defense: Distribution, save: Distribution) -> float:
    """P(the attack hits and the save made against its Hit Roll fails): a trip's AGI Save
    (R-X19), or a Catch's AGI + FCS Save (R-R6). A save that ties succeeds (R-C4)."""
    hits = defense.below_each(hit.low, hit.high)  # P(defense < h)
    fails = save.below_each(hit.low, hit.high)  # P(save < h)
    return float(np.dot(hit.probs, hits * fails))


# --- contests -------------------------------------------------------------------------------------


def contest(acting: Distribution, other: Distribution) -> float:
    """R-C4: the acting side's chance to win (a tie goes to the other)."""
    return acting.beats(other)


def save_chance(save: Distribution, against: int | Distribution) -> float:
    """R-C4: the chance that a save equals or beats `against`."""
    if isinstance(against, int):
        return 1.0 - save.cdf_below(against)
    return 1.0 - against.beats(save)


def grapple_total(world: World, unit: str, *, holder: bool) -> Distribution:
    """R-G1: STR + Athletics for the (would-be) grappler; the other adds the better of Athletics
    and Acrobatics; an Incapacitated creature does not resist (0), as `grapple._roll` rolls."""
    if not holder and incapacitated(world, unit):
        return Distribution.constant(0)
    stats = world.need(unit, Stats)
    skill = "athletics" if holder else max(("athletics", "acrobatics"), key=stats.skill)
    return attribute_total(world, unit, "str", added=stats.skill(skill))


def grapple_chance(world: World, actor: str, target: str) -> float:
    """R-G1: the chance that `actor` wins the contest and holds `target`."""
    sized = size_modifier(world, actor, target)  # R-Z4
    return contest(
        grapple_total(world, actor, holder=True) + sized,
        grapple_total(world, target, holder=False),
    )


def break_free_chance(world: World, held: str, holder: str) -> float:
    """R-G2: the held creature's chance to win the same contest and break free."""
    sized = size_modifier(world, held, holder)  # R-Z4
    return contest(
        grapple_total(world, held, holder=False) + sized,
        grapple_total(world, holder, holder=True),
    )


def feint_chance(world: World, actor: str, target: str) -> float:
    """R-X10: a Deception check against the target's FCS Save."""
    return contest(skill_total(world, actor, "deception"), attribute_total(world, target, "fcs"))


def hide_chance(world: World, actor: str, watcher: str) -> float:
    """R-X8: the Stealth check beats this watcher's Perception check."""
    return contest(skill_total(world, actor, "stealth"), skill_total(world, watcher, "perception"))


def disarm_chance(world: World, actor: str, target: str) -> float:
    """R-X5: the actor's Hit Roll against the target's FCS Roll + Bonus (0 when it is
    Incapacitated), as `disarm.resolve_disarm` rolls them."""
    mine = hit_total(world, actor, target, melee=True)
    if incapacitated(world, target):
        return contest(mine, Distribution.constant(0))
    return contest(mine, attribute_total(world, target, "fcs"))


def save_total(world: World, unit: str, attribute: str, *, evade: bool = True) -> Distribution:
    """A Save (R-C2); Evade doubles the AGI Bonus of the first AGI Save (R-X9)."""
    score = world.need(unit, Stats).attribute(attribute)
    evading = evade and attribute == "agi" and has(world, unit, Condition.EVADING)
    return attribute_total(world, unit, attribute, added=score.bonus if evading else 0)


@dataclass(frozen=True, slots=True)
class ShoveOdds:
    """R-X15: the chance to win the STR Contest, of the target then falling Prone on flat
    ground, and of each distance it is pushed (metres: chance)."""

    win: float
    prone: float
    pushed: tuple[tuple[int, float], ...]


def _shove_rolls(world: World, actor: str, target: str) -> tuple[list[int], Probs, Probs]:
    """R-X15, by the shover's die result: the metres it pushes, the chance of that result and
    a won contest, and of that and the target then failing its STR Save."""
    mine = attribute_total(world, actor, "str", added=size_modifier(world, actor, target))
    theirs = attribute_total(world, target, "str")
    wins = theirs.below_each(mine.low, mine.high)
    falls = save_total(world, target, "str").below_each(mine.low, mine.high)
    rules = world.rules
    least = rules.actions.shove_min_push_metres
    divisor = rules.actions.shove_push_divisor
    # The die result of index i is i + 1: mine.low is 1 + the Bonus.
    metres = [max(least, (index + 1) // divisor) for index in range(len(mine.probs))]
    won = mine.probs * wins
    return metres, won, won * falls


def shove_odds(world: World, actor: str, target: str) -> ShoveOdds:
    """R-X15, as `shove.resolve_shove` rolls it; `prone` assumes the push ends on open ground
    (a fall or water puts the target down or afloat by itself; `shove_landings` follows it)."""
    metres, won, fell = _shove_rolls(world, actor, target)
    pushed: dict[int, float] = {}
    for length, chance in zip(metres, won, strict=True):
        pushed[length] = pushed.get(length, 0.0) + float(chance)
    return ShoveOdds(float(won.sum()), float(fell.sum()), tuple(sorted(pushed.items())))


@dataclass(frozen=True, slots=True)
class Landing:
    """R-X15: one place a won shove leaves its target: the push lengths that end there
    (metres), the cells it enters on the way (none when it is stopped at once), what happens
    on the way in words ("" when it simply runs its length; for several lengths, what stops
    the longer ones), the chance of winning with such a push, and of the target then being
    Prone (a fall off a ledge, or the failed STR Save)."""

    metres: tuple[int, ...]
    cells: tuple[Pos, ...]
    happens: str
    chance: float
    prone: float


def _push_outcome(
    world: World, actor: str, target: str, metres: int
) -> tuple[tuple[Pos, ...], str, bool, bool]:
    """Play the engine's push of `metres` on a copy of the world: the cells entered, what
    happened in words, whether the target is Prone after it, and whether a failed save would
    then put it down (it keeps no save when a fall or the water already decided it)."""
    copy = world.copy()
    hanging = has(copy, target, Condition.HANGING)
    moves = (
        knocked_off(copy, target, f"shoved off the face by {actor} (R-M4)")
        if hanging
        else push(copy, actor, target, metres)
    )
    cells: list[Pos] = []
    said: list[str] = []
    for event in moves:
        if isinstance(event, Ask):
            continue  # a push asks no one (R-R4: being pushed never provokes)
        apply(copy, event)  # the push reads where the target is after each cell
        match event:
            case ev.Pushed(end=end):
                cells.append(end)
            case ev.MoveCutShort(reason=reason):
                said.append(reason.removeprefix("the push "))
            case ev.Fell(metres=drop):
                said.append(f"falls {drop:g} m" + (" off the face" if hanging else ""))
            case ev.ConditionGained(condition=Condition.SWIMMING):
                said.append("ends in deep water, swimming")
            case ev.ConditionGained(condition=Condition.BURNING):
                if "through fire" not in said:
                    said.append("through fire")
    if incapacitated(copy, target):
        said.append("falls unconscious")
    air = air_fall(copy, target)
    if air and not lying(copy, target):
        said.append(f"if the save fails, {air}")  # R-Z5: pushed over a pit or deep water
    down = has(copy, target, Condition.PRONE)
    decided = (
        hanging or down or incapacitated(copy, target) or has(copy, target, Condition.SWIMMING)
    )
    falls = not decided and any(
        isinstance(e, ev.ConditionGained) and e.condition == Condition.PRONE
        for e in knocked_down(copy, target)
    )
    return tuple(cells), ", ".join(said), down, falls


def shove_landings(world: World, actor: str, target: str) -> tuple[Landing, ...]:
    """R-X15: where a won shove can leave `target`, shortest push first, with the chance of
    each and of its ending Prone, by playing the engine's own push (R-M4 falls, R-M9 water,
    R-K4 fire, walls and creatures that stop it) for every push length the die can give."""
    metres, won, fell = _shove_rolls(world, actor, target)
    found: dict[tuple[Pos, ...], Landing] = {}
    for length in sorted(set(metres)):
        chance = float(sum(c for m, c in zip(metres, won, strict=True) if m == length))
        failed = float(sum(c for m, c in zip(metres, fell, strict=True) if m == length))
        if chance == 0:
            continue
        cells, happens, down, falls = _push_outcome(world, actor, target, length)
        prone = chance if down else (failed if falls else 0.0)
        kept = found.get(cells)
        if kept is not None:  # a longer push that ends in the same place (stopped, or fallen)
            found[cells] = Landing(
                (*kept.metres, length),
                cells,
                happens or kept.happens,
                kept.chance + chance,
                kept.prone + prone,
            )
        else:
            found[cells] = Landing((length,), cells, happens, chance, prone)
    return tuple(found.values())


def air_fall(world: World, unit: str) -> str:
    """R-Z5: what going down (Prone, Grappled, Incapacitated) does to `unit` where it is now, in
    words: a flier in the air over a pit "falls 3 m into the pit", over deep water "falls into
    the water, swimming"; "" for any other creature, or one already down."""
    if lying(world, unit) or has(world, unit, Condition.SWIMMING):
        return ""
    if not falls_if_downed(world, unit):
        return ""
    if over_pit(world, unit):  # R-Z2: any cell of a large flier's footprint
        return f"falls {world.rules.movement.flier_fall_metres} m into the pit"
    return "falls into the water, swimming"


@dataclass(frozen=True, slots=True)
class TripOdds:
    """R-X19 against one defence: the chance to hit, and to hit and knock the target Prone."""

    defence: str
    hit: float
    prone: float


def trip_odds(world: World, actor: str, target: str, *, factor: int = 1) -> tuple[TripOdds, ...]:
    """R-X19: a melee attack whose Hit Roll the target then saves against with AGI; a Dodge
    with Evade uses the Evade up before the save (R-X9)."""
    hit = hit_total(world, actor, target, melee=True, factor=factor)
    hit = hit + size_modifier(world, actor, target)  # R-Z4
    out = []
    for choice in defences(world, actor, target):
        defense = defense_total(world, target, choice)
        chance = hit.beats(defense)
        if incapacitated(world, target) or has(world, target, Condition.PRONE):
            prone = 0.0
        else:
            save = save_total(world, target, "agi", evade=choice != "dodge")
            prone = hit_and_fail(hit, defense, save)
        out.append(TripOdds(choice, chance, prone))
    return tuple(out)


def trip_factor(world: World, weapon: str | None) -> int:
    """R-X19: a `trip` weapon doubles the FCS Bonus of a trip's Hit Roll, as `resolve_trip`
    reads it."""
    kind = weapon_kind(world, weapon)
    return world.rules.actions.trip_weapon_fcs_factor if kind and kind.trip else 1


@dataclass(frozen=True, slots=True)
class HideOdds:
    """R-X8: for each opponent that still sees the hider, the chance its Stealth check beats
    that one's Perception check (0 for one it is in plain sight of: it is not rolled against),
    and the chance of beating every one of them with the one Stealth check."""

    each: tuple[tuple[str, float], ...]
    every: float


def hide_odds(world: World, actor: str) -> HideOdds:
    """R-X8, as `hide.resolve_hide` rolls it: one Stealth check against each watcher's
    Perception check; a tie goes to the watcher (R-C4)."""
    stealth = skill_total(world, actor, "stealth")
    each: list[tuple[str, float]] = []
    every = stealth.probs.copy()
    for watcher in seeing_foes(world, actor):
        if in_plain_sight(world, actor, watcher):
            each.append((watcher, 0.0))
            every[:] = 0.0
            continue
        spots = skill_total(world, watcher, "perception").below_each(stealth.low, stealth.high)
        each.append((watcher, float(np.dot(stealth.probs, spots))))
        every *= spots
    return HideOdds(tuple(each), float(every.sum()))


def catch_thrown_chance(world: World, thrower: str, catcher: str) -> float:
    """R-R6: the chance that a thrown item that hit an undefended `catcher` is caught: an
    AGI + FCS Save against the Hit Roll, given that the Hit Roll beat its Defense Roll."""
    hit = hit_total(world, thrower, catcher, melee=False)
    defense = defense_total(world, catcher, NONE)
    save = attribute_total(world, catcher, "agi") + attribute_total(world, catcher, "fcs")
    hits = hit.beats(defense)
    if hits == 0:
        return 0.0
    return (hits - hit_and_fail(hit, defense, save)) / hits


def catch_toss_chance(world: World, catcher: str, weight: float) -> float:
    """R-R6: an FCS Check against the base plus the item's weight; a tie succeeds."""
    against = world.rules.actions.catch_toss_base + weight
    check = attribute_total(world, catcher, "fcs")
    values = np.arange(check.low, check.high + 1)
    return float(check.probs[values >= against].sum())


# --- an action's chance, the registry's `Mechanic.odds` (sim/play/rulebook.py) ------------------
# What the action is for, its target defending as well as it can: what a hover tip puts first and
# what an evaluator of that kind of decision can weigh.


def attack_chance(world: World, action: Attack) -> float:
    """R-X2: the chance to hit with the weapon the attack is planned with (0 when refused)."""
    plan = plan_attack(world, action)
    if isinstance(plan, Refusal):
        return 0.0
    found = attack_odds(world, action.actor, action.target, weapon=plan.weapon, melee=plan.melee)
    return min(o.hit for o in found)


def trip_chance(world: World, action: Trip) -> float:
    """R-X19: the chance to knock the target Prone, with the weapon named or planned."""
    weapon = action.weapon
    if weapon is None:
        plan = plan_attack(world, Attack(action.actor, action.target))
        weapon = None if isinstance(plan, Refusal) else plan.weapon
    factor = trip_factor(world, weapon)
    return min(o.prone for o in trip_odds(world, action.actor, action.target, factor=factor))


def shove_chance(world: World, action: Shove) -> float:
    """R-X15: the chance to win the contest and push the target."""
    return shove_odds(world, action.actor, action.target).win


def disarm_action_chance(world: World, action: Disarm) -> float:
    return disarm_chance(world, action.actor, action.target)


def feint_action_chance(world: World, action: Feint) -> float:
    return feint_chance(world, action.actor, action.target)


def grapple_action_chance(world: World, action: Grapple) -> float:
    return grapple_chance(world, action.actor, action.target)
