"""What an action aimed at a creature is likely to do, in words (no pygame): the hit chance
against each defence the target can still afford and the damage expected, the chance to win a
contest, and where a shove would leave its target. Every number comes from `sim.play.odds`, which
works it out exactly from the dice; the words here only round it."""

from __future__ import annotations

from dataclasses import dataclass

from sim.core.actions import Attack, Refusal
from sim.core.creature import incapacitated, unseen_by
from sim.core.world import World
from sim.play import odds
from sim.play.odds import Landing
from sim.play.rulebook import RULEBOOK
from sim.rules.combat.attack import plan_attack, weapon_kind
from sim.rules.combat.grapple import holder_of
from sim.rules.combat.reactions import NONE

# The actions aimed at a creature whose outcome `forecast` can put a number on: those whose
# registry entry gives their odds.
ODDS_ACTIONS = tuple(kind.name for kind, mechanic in RULEBOOK.items() if mechanic.odds)

DEFENCE_WORDS = {NONE: "no defence", "dodge": "Dodge", "parry": "Parry", "block": "Block"}
SURE = 1e-9  # float noise: a chance this close to 0 or 1 is that


def percent(chance: float) -> str:
    """A chance as a whole percentage; one that can happen but rounds to 0 reads "<1 %", one
    that can fail but rounds to 100 reads ">99 %", so a rounded number never claims a sure
    thing that is not.

    >>> percent(0.724), percent(0.0), percent(0.004), percent(0.996), percent(1.0)
    ('72 %', '0 %', '<1 %', '>99 %', '100 %')
    """
    if chance <= SURE:
        return "0 %"
    if chance >= 1 - SURE:
        return "100 %"
    whole = round(chance * 100)
    if whole == 0:
        return "<1 %"
    if whole == 100:
        return ">99 %"
    return f"{whole} %"


@dataclass(frozen=True, slots=True)
class Forecast:
    """The lines a hover tip shows for an action aimed at a creature, and for a shove where
    its target may land (shortest push first; the tip numbers them as the board does)."""

    lines: tuple[str, ...]
    landings: tuple[Landing, ...] = ()
    note: bool = False  # the first line is a note on the weapon (shown dim), not odds


def forecast(world: World, actor: str, action: str, target: str) -> Forecast | None:
    """The odds of `actor` taking `action` (one of ODDS_ACTIONS) against `target` now, or
    None for an action it cannot aim there (the caller shows the refusal instead)."""
    if action == "attack":
        return _attack(world, actor, target)
    if action == "trip":
        return _trip(world, actor, target)
    if action == "shove":
        return _shove(world, actor, target)
    if action == "disarm":
        chance = odds.disarm_chance(world, actor, target)
        return Forecast((f"{percent(chance)} to disarm (Hit Roll against FCS Roll)",))
    if action == "feint":
        chance = odds.feint_chance(world, actor, target)
        return Forecast((f"{percent(chance)} to feint (Deception against FCS Save)",))
    if action == "grapple":
        chance = odds.grapple_chance(world, actor, target)
        return Forecast((f"{percent(chance)} to grapple (STR + Athletics contest)",))
    return None


def no_defence_reason(world: World, actor: str, target: str) -> str:
    """Why `target` has only "no defence" against `actor` (R-A2, R-X8, R-R1..R-R3)."""
    if incapacitated(world, target):
        return f"{target} is incapacitated: no defence"
    if target in unseen_by(world, actor):
        return f"{target} cannot see {actor}: no defence"
    return f"{target} can afford no defence now"


def _defence_lines(
    world: World, actor: str, target: str, shown: list[tuple[str, str]]
) -> list[str]:
    """One line per defence (`shown`: the defence and what happens against it)."""
    out = [f"vs {DEFENCE_WORDS.get(d, d)}: {words}" for d, words in shown]
    if len(shown) == 1:
        out.append(no_defence_reason(world, actor, target))
    return out


def _attack(world: World, actor: str, target: str) -> Forecast | None:
    plan = plan_attack(world, Attack(actor, target))
    if isinstance(plan, Refusal):
        return None
    kind = weapon_kind(world, plan.weapon)
    found = odds.attack_odds(world, actor, target, weapon=plan.weapon, melee=plan.melee)
    how = "melee" if plan.melee else "ranged"
    head = f"{kind.name if kind else 'fist'} ({how}): {found[0].per_hit} damage a hit after armour"
    shown = [(o.defence, f"{percent(o.hit)} to hit, {o.damage:.1f} damage expected") for o in found]
    return Forecast((head, *_defence_lines(world, actor, target, shown)), note=True)


def _trip(world: World, actor: str, target: str) -> Forecast | None:
    plan = plan_attack(world, Attack(actor, target))
    if isinstance(plan, Refusal) or not plan.melee:
        return None
    factor = odds.trip_factor(world, plan.weapon)
    found = odds.trip_odds(world, actor, target, factor=factor)
    head = f"trip: a Hit Roll, then {target}'s AGI Save against it"
    air = odds.air_fall(world, target)
    if air:
        head += f"; Prone, {target} {air} (R-Z5)"
    shown = [(o.defence, f"{percent(o.hit)} to hit, {percent(o.prone)} Prone") for o in found]
    return Forecast((head, *_defence_lines(world, actor, target, shown)))


def _shove(world: World, actor: str, target: str) -> Forecast:
    summary = odds.shove_odds(world, actor, target)
    landings = odds.shove_landings(world, actor, target)
    prone = sum(landing.prone for landing in landings)
    lines = [
        f"{percent(summary.win)} to win the shove (STR contest)",
        f"{percent(prone)} that {target} ends Prone",
    ]
    varies = len(landings) > 1
    for number, landing in enumerate(landings, 1):
        lines.append(landing_words(number, landing, varies))
    return Forecast(tuple(lines), landings)


def landing_words(number: int, landing: Landing, varies: bool) -> str:
    """A landing in words: its number on the board, the push lengths, where it ends, what
    happens on the way, and (when the distance varies) its chance.

    >>> from sim.core.geometry import Pos
    >>> spot = Landing((1, 2), (Pos(3, 2),), "stopped by a wall", 0.3, 0.1)
    >>> landing_words(1, spot, True)
    '[1] 1-2 m to (3,2), stopped by a wall: 30 %'
    >>> landing_words(1, spot, False)
    'pushed 1-2 m to (3,2), stopped by a wall'
    >>> landing_words(2, Landing((3,), (), "falls 2 m off the face", 0.1, 0.1), True)
    '[2] 3 m: not moved, falls 2 m off the face: 10 %'
    """
    lengths = landing.metres
    metres = f"{lengths[0]}" if len(lengths) == 1 else f"{lengths[0]}-{lengths[-1]}"
    words = f"{metres} m to {landing.cells[-1]}" if landing.cells else f"{metres} m: not moved"
    if landing.happens:
        words += f", {landing.happens}"
    if not varies:
        return f"pushed {words}"
    return f"[{number}] {words}: {percent(landing.chance)}"


def contest_words(world: World, actor: str, action: str) -> str:
    """The odds of an action aimed at no creature that is still a contest (R-G2 break free,
    R-X8 hide), in words; "" for any other action or when there is no one to contest."""
    if action == "break_free":
        holder = holder_of(world, actor)
        if holder is None:
            return ""
        return f"{percent(odds.break_free_chance(world, actor, holder))} to break free of {holder}"
    if action == "hide":
        found = odds.hide_odds(world, actor)
        if not found.each:
            return ""
        if len(found.each) == 1:
            who, chance = found.each[0]
            return f"{percent(chance)} to hide from {who}"
        each = ", ".join(f"{who} {percent(chance)}" for who, chance in found.each)
        return f"{percent(found.every)} to hide from all ({each})"
    return ""
