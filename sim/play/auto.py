"""The standing reaction policy "auto": each window weighed by the exact odds against the
defences its Bonus Actions would keep for the coming enemy turns (R-R1..R-R8).

Everything is counted in one currency, hit points expected: the damage a defence prevents, an
Attack of Opportunity deals, an Interrupt's strike deals and the action it stops would have done,
against what the Bonus Actions it costs would save if kept for the defences against the enemies
that can reach the creature before its next turn. The weights are in sim/data/ai.toml, [auto].
Every answer carries its reason in words for the log. Rules may not read this module (it reads
the odds of the play layer); the engine asks it for a creature whose policy is "auto".
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from sim.core.actions import (
    AbilityAction,
    Action,
    Attack,
    Grapple,
    Shove,
    Throw,
    Toss,
    Trip,
)
from sim.core.catalog import Weapon
from sim.core.components import Health, Item, Policy, Position
from sim.core.condition import Condition
from sim.core.creature import after_armour, has, incapacitated, item_kind, speed, team_of
from sim.core.datafiles import data_text
from sim.core.world import World
from sim.play.odds import (
    attack_odds,
    attribute_total,
    catch_toss_chance,
    defense_total,
    hit_total,
)
from sim.rules.combat.attack import AttackPlan, plan_attack, weapon_kind
from sim.rules.combat.reactions import (
    NONE,
    Ask,
    bonus_left,
    held_shield,
    held_weapon,
    parry_weapons,
    reaction_price,
)
from sim.rules.objectives import Objective, Reach
from sim.rules.reach.sight import creature_distance_half
from sim.rules.reach.threat import enemies, reach_cells

AUTO = "auto"
AI_FILE = "ai.toml"  # under sim/data


@dataclass(frozen=True, slots=True)
class AutoWeights:
    """[auto] of sim/data/ai.toml: what the policy weighs, in HP (the file says why each)."""

    attacks_per_threat: int
    later: float
    reach_walks: float
    margin: float
    down: float
    hurt_share: float
    prone: float
    catch_toss: float
    minor: frozenset[str]
    worth: dict[str, float]


def parse_weights(raw: dict[str, Any]) -> AutoWeights:
    """The [auto] table read into weights; a missing key raises KeyError naming it."""
    worth = dict(raw["worth"])
    minor = frozenset(worth.pop("minor"))
    return AutoWeights(
        attacks_per_threat=int(raw["attacks_per_threat"]),
        later=float(raw["later"]),
        reach_walks=float(raw["reach_walks"]),
        margin=float(raw["margin"]),
        down=float(raw["down"]),
        hurt_share=float(raw["hurt_share"]),
        prone=float(raw["prone"]),
        catch_toss=float(raw["catch_toss"]),
        minor=minor,
        worth={name: float(value) for name, value in worth.items()},
    )


@cache
def weights() -> AutoWeights:
    """The shipped weights, read once."""
    text = data_text(AI_FILE)
    return parse_weights(tomllib.loads(text)["auto"])


@dataclass(frozen=True, slots=True)
class AutoAnswer:
    """The option "auto" chose for a window, and why in words (for the log)."""

    choice: str
    reason: str


@dataclass(frozen=True, slots=True)
class Threat:
    """One attack expected on the creature before its next turn: by `enemy`, and the HP its
    best defence paid with Bonus Actions (`defence`) would save against it."""

    enemy: str
    defence: str
    saved: float


def _pct(chance: float) -> str:
    return f"{chance * 100:.0f} %"


def _title(option: str) -> str:
    return option.replace("_", " ").title()


def downs(world: World, unit: str, per_hit: int) -> bool:
    """Whether a hit of `per_hit` damage takes `unit` down (R-C6, R-K2)."""
    health = world.get(unit, Health)
    return health is not None and health.hp - per_hit <= world.rules.hit_points.incapacitated_at


def downs_worth(world: World, unit: str, per_hit: int, w: AutoWeights) -> float:
    """What a hit of `per_hit` damage on `unit` is worth: the damage, and `down` when it would
    take the creature down."""
    return per_hit + (w.down if downs(world, unit, per_hit) else 0.0)


def _defences(world: World, unit: str) -> tuple[str, ...]:
    """The defences `unit` could choose were its Bonus Actions there (R-R1..R-R3): a Parry
    against any attack, a ranged one too, with a held weapon (R-R2)."""
    if incapacitated(world, unit):
        return ()
    out = [] if has(world, unit, Condition.PRONE) else ["dodge"]
    if parry_weapons(world, unit):
        out.append("parry")
    if held_shield(world, unit) is not None:
        out.append("block")
    return tuple(out)


def coming(world: World, unit: str) -> tuple[str, ...]:
    """The enemies that act before `unit`'s next turn, the one acting now first (R-T2, R-T3):
    all of them while it is `unit`'s own turn."""
    turn = world.turn
    order = turn.order
    foes = set(enemies(world, unit))
    out: list[str] = []
    for step in range(len(order)):
        other = order[(turn.index + step) % len(order)]
        if other == unit and step > 0:
            break
        if other in foes:
            out.append(other)
    return tuple(out)


def _attack_of(
    world: World, enemy: str, unit: str, w: AutoWeights
) -> tuple[str | None, bool] | None:
    """How `enemy` could attack `unit` in its coming turn (weapon, melee): in melee after
    `reach_walks` Walks (R-M1, R-A4), else with a held ranged weapon in range (R-C7); None
    when it cannot."""
    apart = creature_distance_half(world, enemy, unit) / 2
    walk = speed(world, enemy) / world.rules.movement.walk_speed_divisor
    if apart <= walk * w.reach_walks + 1.5 * reach_cells(world, enemy):
        return held_weapon(world, enemy, melee=True), True
    ranged = held_weapon(world, enemy, melee=False)
    kind = weapon_kind(world, ranged)
    if kind is not None and kind.ranged is not None and apart <= kind.ranged:
        return ranged, False
    return None


def _wd(world: World, weapon: str | None) -> int:
    """The Weapon Damage of `weapon` (R-A3); a bare hand's without one."""
    kind = weapon_kind(world, weapon)
    return kind.wd if kind is not None else world.rules.attack.unarmed_wd


def _thrown_wd(world: World, item: str | None) -> int:
    """`_wd` of a thrown item as the Throw names it (R-X17): an item, or its kind ("dagger":
    the dagger it carries, already out of its hand when the defence window opens)."""
    if item is not None and not world.has(item, Item):
        kind = world.catalog.get(item)
        return kind.wd if isinstance(kind, Weapon) else world.rules.attack.unarmed_wd
    return _wd(world, item)


def threats(world: World, unit: str, *, besides: str = "") -> tuple[Threat, ...]:
    """The attacks expected on `unit` before its next turn, the most a defence saves first:
    `attacks_per_threat` from each enemy that can reach it (`besides`: one leaving it, left
    out), each worth `later` of what its best defence would save. A Parry or Block that Guard
    pays (R-X14) needs no Bonus Action: a threat it meets counts only what a paid defence
    saves beyond it."""
    w = weights()
    guard = has(world, unit, Condition.GUARDING)
    out: list[Threat] = []
    for enemy in coming(world, unit):
        if enemy == besides:
            continue
        attack = _attack_of(world, enemy, unit, w)
        if attack is None:
            continue
        weapon, melee = attack
        hit = hit_total(world, enemy, unit, melee=melee)
        value = downs_worth(world, unit, after_armour(world, unit, _wd(world, weapon)), w)
        bare = hit.beats(defense_total(world, unit, NONE))
        saved = {
            d: (bare - hit.beats(defense_total(world, unit, d))) * value
            for d in _defences(world, unit)
        }
        if not saved:
            continue
        best = max(saved, key=lambda d: saved[d])
        free = max((saved[d] for d in ("parry", "block") if guard and d in saved), default=0.0)
        if saved[best] - free > 0:
            worth = (saved[best] - free) * w.later
            out.extend(Threat(enemy, best, worth) for _ in range(w.attacks_per_threat))
    return tuple(sorted(out, key=lambda t: -t.saved))


def kept(world: World, found: tuple[Threat, ...], bonus: int) -> float:
    """What `bonus` Bonus Actions kept for defences save against `found` (R-R1..R-R3)."""
    each = world.rules.reactions.defence_bonus
    return sum(t.saved for t in found[: bonus // each]) if each > 0 else 0.0


def _lost(
    world: World, unit: str, found: tuple[Threat, ...], spent: int
) -> tuple[float, Threat | None]:
    """What spending `spent` Bonus Actions now costs in defences later, and the first threat
    that would go undefended."""
    have = bonus_left(world, unit)
    cost = kept(world, found, have) - kept(world, found, max(0, have - spent))
    each = world.rules.reactions.defence_bonus
    first = max(0, have - spent) // each if each > 0 else 0
    return cost, found[first] if cost > 0 and first < len(found) else None


def _for(threat: Threat | None) -> str:
    return f" for a {_title(threat.defence)} against {threat.enemy}" if threat else ""


# --- what an action would do -----------------------------------------------------------------


def doing(action: Action | None) -> str:
    """An action in a few words for a reason: "Draw", "ranged attack", "firebolt"."""
    if action is None:
        return "action"
    if isinstance(action, AbilityAction):
        return action.ability.replace("_", " ")
    return action.name.replace("_", " ").title() if not isinstance(action, Attack) else "attack"


def _attack_plan(world: World, action: Action, source: str) -> AttackPlan | None:
    if isinstance(action, Attack) and action.actor == source:
        plan = plan_attack(world, action)
        return plan if isinstance(plan, AttackPlan) else None
    return None


def stopping(
    world: World, unit: str, action: Action, w: AutoWeights, objectives: tuple[Objective, ...] = ()
) -> tuple[float, str]:
    """What stopping `action` with an Interrupt is worth (R-R7), and the action in words: an
    attack its expected damage on its target (which defends as well as it can), with `down`
    when that one of `unit`'s side is badly hurt and a ranged one `ranged_attack` more; a
    Shove of the creature that bars a cell its side wins by reaching (R-M5) `objective`; any
    other action its worth in ai.toml."""
    if isinstance(action, Shove) and _takes_objective(world, action, objectives):
        words = f"{doing(action)} of {action.target} off its objective"
        return w.worth.get("objective", w.worth["default"]), words
    if isinstance(action, Attack):
        plan = _attack_plan(world, action, action.actor)
        if plan is None:
            return 0.0, "attack"
        words = "melee attack" if plan.melee else "ranged attack"
        found = attack_odds(
            world, action.actor, action.target, weapon=plan.weapon, melee=plan.melee
        )
        worth = min(o.damage for o in found)
        ranged = 0.0 if plan.melee else w.worth.get("ranged_attack", w.worth["default"])
        health = world.get(action.target, Health)
        ours = team_of(world, action.target) == team_of(world, unit)
        if ours and health is not None:
            hurt = health.hp <= health.max_hp * w.hurt_share or downs(
                world, action.target, found[0].per_hit
            )
            if hurt:
                worth += w.down * min(o.hit for o in found)
                return worth + ranged, f"{words} on {action.target} (badly hurt)"
        return worth + ranged, f"{words} on {action.target}"
    if isinstance(action, Throw):
        return w.worth.get("ranged_attack", 0.0), "throw"
    if isinstance(action, AbilityAction):
        return w.worth.get("ability", 0.0), doing(action)
    if isinstance(action, Grapple):
        return w.worth.get("grapple", 0.0), f"Grapple on {action.target}"
    return w.worth.get(action.name, w.worth.get("default", 0.0)), doing(action)


def _takes_objective(world: World, action: Shove, objectives: tuple[Objective, ...]) -> bool:
    """Whether `action` shoves the creature off a cell that bars it (R-M5) and that its actor's
    side wins by reaching (a Reach objective): the battle rather than a few hit points is at
    stake. (A move onto such a cell opens no Interrupt window: R-R7 spares movement.)"""
    if not objectives:
        return False
    team = team_of(world, action.actor)
    there = world.get(action.target, Position)
    return there is not None and any(
        isinstance(o, Reach) and o.team == team and there.cell in o.cells for o in objectives
    )


# --- the windows -----------------------------------------------------------------------------


def answer_defence(world: World, ask: Ask, action: Action | None) -> AutoAnswer:
    """R-R1..R-R3: the defence that saves the most against this Hit Roll (known: `ask.roll`),
    when that is worth more than what its Bonus Action would save later; the creature's
    preferred defence (Policy.defence) when it has one."""
    w = weights()
    unit, source, roll = ask.unit, ask.source, ask.roll
    policy = world.get(unit, Policy) or Policy()
    options = [o for o in ask.options if o != NONE]
    if policy.defence == NONE:
        return AutoAnswer(NONE, f"{unit} does not defend: its preferred defence is none")
    if policy.defence in options:
        options = [policy.defence]
    plan = _attack_plan(world, action, source) if action is not None else None
    if isinstance(action, Throw) and action.actor == source:
        wd = _thrown_wd(world, action.item)
    elif isinstance(action, AbilityAction) and action.actor == source:
        wd = 0
    else:
        wd = _wd(world, plan.weapon if plan else held_weapon(world, source, melee=True))
    # A spell's strike (R-X20) is weighed by its worth: its damage is the ability's own.
    value = downs_worth(world, unit, after_armour(world, unit, wd), w) if wd else 0.0
    if isinstance(action, AbilityAction) and action.actor == source:
        value = w.worth.get("ability", 0.0)
    if (
        isinstance(action, Trip)
        and action.actor == source
        and not has(world, unit, Condition.PRONE)
    ):
        value += w.prone
    if value == 0:
        return AutoAnswer(NONE, f"{unit} does not defend: {source}'s blow cannot hurt it")
    bare = defense_total(world, unit, NONE).cdf_below(roll)
    if bare == 0:
        return AutoAnswer(NONE, f"{unit} does not defend: {source}'s Hit Roll {roll} misses anyway")
    found = threats(world, unit)
    best: tuple[float, str, float, float, Threat | None] | None = None
    for option in options:
        chance = defense_total(world, unit, option).cdf_below(roll)
        gain = (bare - chance) * value
        paid = reaction_price(world, unit, "defence", option, slow=False).bonus
        cost, threat = _lost(world, unit, found, paid)
        if best is None or gain - cost > best[0]:
            best = (gain - cost, option, chance, gain, threat)
    assert best is not None
    net, option, chance, gain, threat = best
    if chance >= bare:
        return AutoAnswer(NONE, f"{unit} does not defend: nothing stops {source}'s Hit Roll {roll}")
    if net <= w.margin:
        return AutoAnswer(
            NONE,
            f"{unit} keeps its Bonus Action{_for(threat)}: a {_title(option)} saves {gain:.1f} HP",
        )
    verb = {"dodge": "dodges", "parry": "parries", "block": "blocks"}.get(option, option)
    # Plain words: the client's font has no arrow glyph.
    said = f"hit chance {_pct(bare)} down to {_pct(chance)}"
    return AutoAnswer(option, f"{unit} {verb} {source}'s Hit Roll {roll}: {said}")


def answer_interrupt(
    world: World, ask: Ask, action: Action | None, objectives: tuple[Objective, ...] = ()
) -> AutoAnswer:
    """R-R7: interrupt when the strike's chance times what it deals and what it stops (the
    `stopping` worth) pays for the 2 Bonus Actions' defences later; never an action of the
    `minor` list (a free Draw, an Aim, a Consume)."""
    w = weights()
    unit, source = ask.unit, ask.source
    cost_bonus = world.rules.reactions.interrupt_bonus
    found = threats(world, unit)
    cost, threat = _lost(world, unit, found, cost_bonus)
    if action is None or action.name in w.minor:
        return AutoAnswer(
            NONE,
            f"{unit} keeps its Bonus Actions{_for(threat or (found[0] if found else None))}: "
            f"{source}'s {doing(action)} is not worth interrupting",
        )
    worth, words = stopping(world, unit, action, w, objectives)
    weapon = held_weapon(world, unit, melee=True)
    odds = [
        o
        for o in attack_odds(world, unit, source, weapon=weapon, melee=True)
        if o.defence in ("dodge", NONE)
    ]  # R-R7: the interrupted may only Dodge
    hit = min(o.hit for o in odds)
    value = hit * (worth + downs_worth(world, source, odds[0].per_hit, w))
    if value - cost <= w.margin:
        return AutoAnswer(
            NONE,
            f"{unit} keeps its Bonus Actions{_for(threat)}: stopping {source}'s {words} "
            f"is worth {value:.1f} HP",
        )
    return AutoAnswer("interrupt", f"{unit} interrupts {source}'s {words}: {_pct(hit)} to stop it")


def answer_opportunity(world: World, ask: Ask) -> AutoAnswer:
    """R-R4: attack the leaving creature when the damage expected (the mover defending as
    well as it can, `down` when it would drop) pays for the Bonus Action's defence later; the
    mover, leaving, is not counted among those that will attack."""
    w = weights()
    unit, mover = ask.unit, ask.source
    weapon = held_weapon(world, unit, melee=True)
    odds = attack_odds(world, unit, mover, weapon=weapon, melee=True)
    worst = min(odds, key=lambda o: o.damage)
    value = worst.damage + (w.down * worst.hit if downs(world, mover, worst.per_hit) else 0.0)
    found = threats(world, unit, besides=mover)
    cost, threat = _lost(world, unit, found, world.rules.reactions.opportunity_bonus)
    if value - cost <= w.margin:
        return AutoAnswer(
            NONE, f"{unit} lets {mover} go{_for(threat)}: the attack is worth {value:.1f} HP"
        )
    return AutoAnswer(
        "attack", f"{unit} attacks {mover} as it leaves: {_pct(worst.hit)} to hit, {value:.1f} HP"
    )


def answer_catch(world: World, ask: Ask, action: Action | None) -> AutoAnswer:
    """R-R6: catch with a free hand (never dropping what it holds) an item an ally tosses when
    the FCS Check's chance times `catch_toss`, less the damage of a failed catch, pays for the
    Bonus Action; a thrown one when the AGI + FCS Save's chance against the Hit Roll times the
    damage it saves does."""
    w = weights()
    unit, source = ask.unit, ask.source
    if "catch" not in ask.options:
        return AutoAnswer(NONE, f"{unit} does not catch: it would drop what it holds")
    found = threats(world, unit)
    cost, threat = _lost(world, unit, found, world.rules.reactions.catch_bonus)
    what = "toss" if isinstance(action, Toss) else "throw"
    if isinstance(action, Toss):
        if team_of(world, source) != team_of(world, unit):
            return AutoAnswer(NONE, f"{unit} does not catch what an enemy tosses")
        # The item named by its id or its kind (R-X18), already in the air.
        kind = item_kind(world, action.item) if world.exists(action.item) else action.item
        weight = world.catalog.weight(kind)
        chance = catch_toss_chance(world, unit, weight)
        per_kg = world.rules.actions.catch_toss_damage_per_kg
        hurt = after_armour(world, unit, int(weight * per_kg))  # a failed catch (R-R6)
        value = chance * w.catch_toss - (1 - chance) * hurt
        if chance == 0:
            return AutoAnswer(NONE, f"{unit} lets {source}'s toss fall: it cannot catch it")
    else:
        item = action.item if isinstance(action, Throw) else None
        save = attribute_total(world, unit, "agi") + attribute_total(world, unit, "fcs")
        chance = 1.0 - save.cdf_below(ask.roll)
        wd = _wd(world, item)
        value = chance * downs_worth(world, unit, after_armour(world, unit, wd), w)
    if value - cost <= w.margin:
        return AutoAnswer(
            NONE, f"{unit} keeps its Bonus Action{_for(threat)}: a Catch is worth {value:.1f} HP"
        )
    return AutoAnswer("catch", f"{unit} catches {source}'s {what}: worth {value:.1f} HP")


def auto_answer(
    world: World, ask: Ask, action: Action | None, objectives: tuple[Objective, ...] = ()
) -> AutoAnswer:
    """The policy "auto"'s answer to `ask`, opened while `action` resolves (the engine's
    `resolving`), in a battle of `objectives`."""
    if ask.kind == "defence":
        return answer_defence(world, ask, action)
    if ask.kind == "interrupt":
        return answer_interrupt(world, ask, action, objectives)
    if ask.kind == "attack_of_opportunity":
        return answer_opportunity(world, ask)
    if ask.kind == "catch":
        return answer_catch(world, ask, action)
    return AutoAnswer(NONE, f"{ask.unit} does not react to a {ask.kind} window it does not know")
