"""How well a side stands after a look-ahead: what is left, the foes' reply, the objectives."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sim.ai.context import KILL, attack_count, chebyshev, foe_odds
from sim.core import actions as a
from sim.core.abilities import Condition as Given
from sim.core.abilities import Damage
from sim.core.actions import Refusal
from sim.core.components import Position
from sim.core.condition import Condition
from sim.core.creature import conditions, creatures, hp, incapacitated, team_of
from sim.core.numbers import Tier
from sim.core.world import World
from sim.play.engine import (
    Battle,
    BattleOver,
)
from sim.play.odds import (
    AttackOdds,
    attack_odds,
)
from sim.play.rulebook import RULEBOOK
from sim.rules.budget import refilled
from sim.rules.combat.attack import plan_attack
from sim.rules.combat.casting import known
from sim.rules.combat.reactions import (
    NONE,
    bonus_left,
)
from sim.rules.objectives import Reach
from sim.rules.reach.reachmap import reach_map

WIN = 100.0  # a battle won, in hit points' worth, as `hard` weighs a look-ahead
COUNTER = 0.5  # the share of its own next strike `hard` counts (the foes move first)
GOAL_STEP = 1.0  # a cell nearer an objective, in hit points' worth
GOAL_HELD = 8  # the cells more an objective whose every cell is barred counts as away
GOAL_NEXT = WIN / 2  # a foe that can take its objective in its next turn (it may not)
GOAL_SCAN = 16  # farther than this many cells, no move of one turn reaches an objective
BLEED_TURNS = 2  # the turns of Bleeding `smoulder` counts (it lasts until Aid stops it)


def prospect(battle: Battle, team: str) -> float:
    """How well `team` stands at the end of one of its creatures' turns, in hit points'
    worth, as `hard` weighs a look-ahead: WIN for a battle won (less for lost); else
    `standing`, less what the foes can be expected to deal in the reply they make before the
    creature's next turn, plus a share of what `team` can deal back, and the way to the
    objectives."""
    pending = battle.pending
    world = battle.world
    if isinstance(pending, BattleOver):
        return (WIN if team in pending.winners else -WIN) + standing(world, team)
    value = standing(world, team)
    ours: list[str] = []
    theirs: list[str] = []
    for unit in creatures(world):
        if not incapacitated(world, unit):
            (ours if team_of(world, unit) == team else theirs).append(unit)
    value -= _replies(world, theirs, ours, fresh=False)
    value += COUNTER * _replies(world, ours, theirs, fresh=True)
    for objective in battle.objectives:
        if isinstance(objective, Reach):
            sign = -1.0 if objective.team == team else 1.0
            value += sign * GOAL_STEP * _way(world, objective, ours if sign < 0 else theirs)
            if sign > 0 and _within_reach(world, objective, theirs):
                value -= GOAL_NEXT
    return value


def _within_reach(world: World, objective: Reach, side: list[str]) -> bool:
    """Whether one of `side` can end a move on a free cell of the objective in its next turn
    (R-M5: none ends where another creature stands), with a fresh turn's budget (R-B2)."""
    taken = {world.need(u, Position).cell for u in creatures(world)}
    free = [g for g in objective.cells if g not in taken]
    for unit in side:
        here = world.need(unit, Position).cell
        if not free or min(chebyshev(here, g) for g in free) > GOAL_SCAN:
            continue
        cells = reach_map(world, unit, budget=refilled(world.rules))
        if any(g in cells for g in free):
            return True
    return False


def _way(world: World, objective: Reach, side: list[str]) -> float:
    """How many cells the nearest of `side` stands from an objective cell it can end a move
    on: one a creature of another team stands on is barred (R-M5), and with every cell barred
    the way is GOAL_HELD cells longer."""
    if not side:
        return 0.0
    barred = {
        world.need(u, Position).cell
        for u in creatures(world)
        if team_of(world, u) != objective.team and not incapacitated(world, u)
    }
    open_cells = [g for g in objective.cells if g not in barred]
    cells = open_cells or list(objective.cells)
    gap = min(chebyshev(world.need(u, Position).cell, g) for u in side for g in cells)
    return float(gap + (0 if open_cells else GOAL_HELD))


def _replies(world: World, side: list[str], targets: list[str], *, fresh: bool) -> float:
    """What `side` can be expected to win in its next turns against `targets`: each creature
    strikes the one it hurts most (`_shots`), and the strikes on one target are added up as
    they would land: the first few meet a defence, as many as the target has Bonus Actions
    for (R-B2; `fresh`: the targets' turns come first and refill them), the rest none; then
    the damage expected, no more than the target's hit points, and KILL with the chance they
    take it down. Each foe counted alone, two foes beside a creature that had spent its
    Bonus Actions on a Sprint looked no worse than one far off, and `hard` ran up to them.
    Where the strikes may take down every one of `targets`, WIN more with that chance (R-C6,
    each target's fall taken as independent of the others'): a fork that stops a turn short of
    the battle's end must count it as one that reaches it does, or a turn that defers the risk
    looks better than one that meets it."""
    shots: dict[str, list[tuple[float, float, float, int]]] = {}
    for unit in side:
        found = _shots(world, unit, targets)
        if found is not None:
            target, weight, defended, bare, per_hit = found
            shots.setdefault(target, []).extend([(weight, defended, bare, per_hit)] * 2)
    total = 0.0
    # The chance that every one of `targets` goes down: the battle won by `side` (R-C6).
    every = 1.0 if targets and len(shots) == len(targets) else 0.0
    for target, strikes in shots.items():
        left = lasting(world, target)
        guards = refilled(world.rules).bonus if fresh else bonus_left(world, target)
        # The chance of each total of damage dealt, up to what takes the target down.
        chances = np.zeros(left + 1)
        chances[0] = 1.0
        expected = 0.0
        for index, (weight, defended, bare, per_hit) in enumerate(strikes):
            hit = weight * (defended if index < guards else bare)
            expected += hit * per_hit
            moved = np.zeros(left + 1)
            for dealt, chance in enumerate(chances):
                moved[min(left, dealt + per_hit)] += chance * hit
                moved[dealt] += chance * (1.0 - hit)
            chances = moved
        down = float(chances[left]) if left > 0 else 0.0
        total += min(expected, float(left)) + KILL * down
        every *= down
    return total + WIN * every


def _shots(
    world: World, foe: str, targets: list[str]
) -> tuple[str, float, float, float, int] | None:
    """The one of `targets` that `foe` hurts most on its next turn, with two strikes where it
    can attack it from where it stands (in reach, or in range of the bow in its hands), each
    counted as `weight` of a strike where it must come to it (as `threat` counts them, with
    its melee weapon): (target, weight, chance to hit a target that defends as well as it
    can, chance to hit one that cannot, damage of a hit)."""
    here = world.need(foe, Position).cell
    best: tuple[str, float, float, float, int] | None = None
    worth = 0.0
    bolts = _bolts(world, foe)
    for target in targets:
        plan = plan_attack(world, a.Attack(foe, target=target))
        if isinstance(plan, Refusal):
            weight = attack_count(False, chebyshev(here, world.need(target, Position).cell))
            odds = foe_odds(world, foe, target) if weight else ()
        else:
            weight = 2.0
            odds = attack_odds(world, foe, target, weapon=plan.weapon, melee=plan.melee)
        if odds:
            worst, bare = defended(odds)
            value = weight * (worst.damage + bare.damage)
            if best is None or value > worth:
                best, worth = (target, weight / 2, worst.hit, bare.hit, worst.per_hit), value
        hits: tuple[float, float] | None = None  # a spell's Hit Roll: alike for every bolt
        for kind, name, casts, per_hit in bolts:
            if RULEBOOK[kind].check(world, kind(foe, ability=name, target=target)) is not None:
                continue  # out of range or sight, or not to be aimed at it (R-X20, R-A5)
            if hits is None:
                guarded, open_ = defended(attack_odds(world, foe, target, weapon=None, melee=False))
                hits = guarded.hit, open_.hit
            value = casts * (hits[0] + hits[1]) * per_hit
            if best is None or value > worth:
                best, worth = (target, casts / 2, hits[0], hits[1], per_hit), value
    return best


def defended(odds: Sequence[AttackOdds]) -> tuple[AttackOdds, AttackOdds]:
    """Of one attack's odds, those against the target's best defence (the least damage, and
    of those the least chance to hit: a hit its armour takes whole still counts for a spell's
    own damage) and those against none (the same where it must meet a defence)."""
    worst = min(odds, key=lambda o: (o.damage, o.hit))
    return worst, next((o for o in odds if o.defence == NONE), worst)


def _bolts(world: World, foe: str) -> list[tuple[type[a.AbilityAction], str, float, int]]:
    """The spells and abilities `foe` knows that strike one creature with a Hit Roll (a
    firebolt), each with the action that takes it (a Cast or a Use), how many it casts a turn
    (two of a ½ Action, R-X20) and the hit points a hit takes, its Burning stacks included
    (R-K4: k stacks burn k, then k - 1 ...).
    The foes' casters count among their replies as their blows do: counting their blows alone,
    `hard` saw nothing to fear from the shaman and the mage beyond their maces and staves."""
    out: list[tuple[type[a.AbilityAction], str, float, int]] = []
    for name in known(world, foe):
        spell = world.catalog.abilities.get(name)
        if spell is None or not spell.attack or spell.target not in ("enemy", "creature"):
            continue
        taken = 0.0
        for effect in spell.effects:
            if isinstance(effect, Damage):
                taken += effect.amount.mean
            elif isinstance(effect, Given) and effect.name is Condition.BURNING:
                taken += burns(effect.value)
        casts = 2.0 if spell.tier is Tier.HALF else 1.0
        kind = a.Cast if spell.kind == "spell" else a.Use
        out.append((kind, name, casts, round(taken)))
    return out


def standing(world: World, team: str) -> float:
    """How well `team` stands: its creatures' hit points less its foes', with KILL for every
    creature out of the fight; a creature's hit points less what its Burning and Bleeding
    will still take (`smoulder`), and one they will take down counted down."""
    value = 0.0
    for unit in creatures(world):
        sign = 1.0 if team_of(world, unit) == team else -1.0
        left = lasting(world, unit)
        down = incapacitated(world, unit) or left == 0
        value += sign * (left - (KILL if down else 0.0))
    return value


def lasting(world: World, unit: str) -> int:
    """The hit points `unit` keeps once its Burning and Bleeding have burnt and bled
    (`smoulder`), at least 0."""
    return max(hp(world, unit) - smoulder(world, unit), 0)


def smoulder(world: World, unit: str) -> int:
    """The damage `unit`'s Burning and Bleeding stacks will still deal: k stacks of Burning
    burn k, then k - 1 ... (R-K4); Bleeding does not fade (R-K5) and is counted for
    BLEED_TURNS turns. Counted as hit points already lost: a firebolt's 2 stacks burn 3, more
    than its 1d4, and forks that ended before they burnt saw nothing of them, so `hard` took
    the foes' firebolts for weaker than they are and its own for weaker than a blow."""
    held = conditions(world, unit)
    return burns(held.count(Condition.BURNING)) + held.count(Condition.BLEEDING) * BLEED_TURNS


def burns(stacks: int) -> int:
    """What `stacks` of Burning burn in all: k, then k - 1 ... (R-K4)."""
    return stacks * (stacks + 1) // 2
