"""Attacks (R-A1..R-A5, R-X2): the Hit Roll in its window, the Defense Roll with the defender's
reaction (R-R1..R-R3, R-X14), damage after armour, and the Attack action, melee or ranged."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass
from functools import partial

from sim.core import events as ev
from sim.core.actions import Attack, Refusal
from sim.core.catalog import Weapon
from sim.core.components import AttackWindow, Hands, Position, Stats
from sim.core.condition import Condition
from sim.core.creature import (
    after_armour,
    conditions,
    has,
    incapacitated,
    item_kind,
    side,
    team_of,
    unseen_by,
)
from sim.core.dice import Dice
from sim.core.placement import near
from sim.core.purpose import AttackKind, RollKind
from sim.core.world import World
from sim.rules.candidates import Scene, Unless
from sim.rules.combat.assist import assist_bonus
from sim.rules.combat.health import damage
from sim.rules.combat.items import find
from sim.rules.combat.reactions import (
    NONE,
    Ask,
    Reply,
    block_rating,
    can_react,
    defence_options,
    held_weapon,
    parry_attribute,
    parry_rating,
    reaction_spent,
)
from sim.rules.reach.sight import creature_distance_half, creature_line
from sim.rules.reach.target import singled_out
from sim.rules.reach.threat import out_of_reach, reaches

Resolution = Generator[ev.Event | Ask, Reply | None, None]


@dataclass(frozen=True, slots=True)
class Strike:
    """How an attack went."""

    hit: bool
    hit_roll: int
    defense_roll: int
    defence: str = NONE  # the defence reaction the target used (R-R1..R-R3), or "none"


def weapon_kind(world: World, item: str | None) -> Weapon | None:
    if item is None:
        return None
    kind = world.catalog.get(item_kind(world, item))
    return kind if isinstance(kind, Weapon) else None


def hit_bonus(world: World, attacker: str, count: int, factor: int = 1) -> int:
    """R-A1: the FCS Bonus (times `factor`, e.g. a trip weapon's 2) on the first attack of a
    window, half of it (rounded down) on the second, none on the third and later."""
    bonus = world.need(attacker, Stats).attribute("fcs").bonus * factor
    if count == 1:
        return bonus
    if count == 2:
        return bonus // world.rules.attack.second_attack_fcs_divisor
    return 0


def hit_roll(
    world: World,
    dice: Dice,
    attacker: str,
    target: str,
    *,
    melee: bool,
    purpose: str,
    factor: int = 1,
    extra: int = 0,
) -> Generator[ev.Event | Ask, Reply | None, int]:
    """R-A1: the attacker's Hit Roll, counted in its attack window, with Aim (R-X1, ranged), a
    Feint (R-X10, melee, whatever the target) and an Assist against this target (R-X21) used
    up; attacking ends Unseen (R-X8). `extra`: what else the roll adds (sizes in a Trip,
    R-Z4)."""
    count = (world.get(attacker, AttackWindow) or AttackWindow()).count + 1
    yield ev.AttackCounted(attacker, count)
    modifier = extra
    held = conditions(world, attacker)
    if not melee and held.has(Condition.AIMING):
        modifier += held.count(Condition.AIMING)  # R-X1
        yield ev.ConditionLost(attacker, Condition.AIMING, "used on this ranged attack")
    if melee and held.has(Condition.FEINTED):
        modifier += held.count(Condition.FEINTED)  # R-X10: whatever the target
        yield ev.ConditionLost(attacker, Condition.FEINTED, "used on this melee Hit Roll")
    helped, used = assist_bonus(world, attacker, target)  # R-X21: any Hit Roll on that enemy
    modifier += helped
    yield from used
    fcs = world.need(attacker, Stats).attribute("fcs")
    bonus = hit_bonus(world, attacker, count, factor) + modifier
    roll = dice.roll(fcs.die)
    total = roll + bonus
    words = f"hit roll: {purpose} on {target}"
    yield ev.Rolled(attacker, words, fcs.die, roll, bonus, total, tag=RollKind.HIT)
    if held.has(Condition.UNSEEN):
        yield ev.ConditionLost(attacker, Condition.UNSEEN, "attacked (R-X8)")
    return total


def strike(
    world: World,
    dice: Dice,
    attacker: str,
    target: str,
    *,
    weapon: str | None,
    melee: bool,
    purpose: str,
    tag: AttackKind,
    factor: int = 1,
    dodge_only: bool = False,
    deal_damage: bool = True,
    extra: int = 0,
) -> Generator[ev.Event | Ask, Reply | None, Strike]:
    """One attack roll against one defender, with its reaction window and its damage; `purpose`
    words the attack for the log, `tag` says which it is to code.
    `deal_damage=False` leaves the damage of a hit to the caller (a thrown item can still be
    caught after the hit is resolved, R-R6)."""
    # R-X8: a target that does not see its attacker cannot react to the attack.
    unseen = target in unseen_by(world, attacker)
    hit_total = yield from hit_roll(
        world, dice, attacker, target, melee=melee, purpose=purpose, factor=factor, extra=extra
    )
    defense = 0
    choice = NONE
    if not incapacitated(world, target):  # R-A2: an Incapacitated defender's roll is 0
        options = () if unseen else defence_options(world, target, dodge_only=dodge_only)
        slow = False
        if options:
            trigger = f"{attacker} attacks {target} ({purpose}, Hit Roll {hit_total})"
            answer = yield Ask(
                target, "defence", trigger, (*options, NONE), source=attacker, roll=hit_total
            )
            if answer is not None and answer.choice in options:
                choice, slow = answer.choice, answer.slow
        defense = yield from defense_roll(
            world, dice, target, choice, f"{attacker}'s {purpose}", slow=slow
        )
    hit = hit_total > defense  # R-A3
    yield ev.AttackResolved(attacker, target, purpose, hit_total, defense, hit, tag=tag)
    if hit and deal_damage:
        yield from weapon_damage(world, attacker, target, weapon)
    return Strike(hit, hit_total, defense, choice)


def defense_roll(
    world: World, dice: Dice, unit: str, choice: str, against: str, *, slow: bool = False
) -> Generator[ev.Event | Ask, Reply | None, int]:
    """R-A2: RES Roll plus the chosen reaction; Brace doubles every RES term (R-X3). `against`
    names the attack in the log ("ana's attack"), as the Hit Roll names its target. `slow`:
    the reaction is paid one step slower (R-B7)."""
    stats = world.need(unit, Stats)
    braced = 2 if has(world, unit, Condition.BRACED) else 1
    res = stats.attribute("res")
    roll = dice.roll(res.die)
    total = roll * braced
    yield ev.Rolled(
        unit,
        f"defense roll: {against} (RES Roll" + (", braced)" if braced > 1 else ")"),
        res.die,
        roll,
        total - roll,
        total,
        tag=RollKind.DEFENSE,
    )
    if choice == NONE:
        return total
    paid = reaction_spent(world, unit, "defence", choice, slow=slow)
    guarded = choice in ("parry", "block") and has(world, unit, Condition.GUARDING)
    if guarded:
        yield ev.ConditionLost(unit, Condition.GUARDING, f"its free {choice} (R-X14)")
        # R-X14: once a round, also when the free one is used before the next turn.
        yield ev.ConditionGained(unit, Condition.GUARD_USED, world.turn.round)
    if paid.half or paid.bonus:
        yield paid
    if choice == "dodge":
        agi = stats.attribute("agi")
        bonus = agi.bonus
        if has(world, unit, Condition.EVADING):
            bonus *= 2  # R-X9
            yield ev.ConditionLost(unit, Condition.EVADING, "its first Dodge (R-X9)")
        result = dice.roll(agi.die)
        yield ev.Rolled(
            unit,
            "dodge (AGI Roll + Bonus)",
            agi.die,
            result,
            bonus,
            result + bonus,
            tag=RollKind.DODGE,
        )
        return total + result + bonus
    if choice == "parry":
        best = parry_attribute(stats)
        attribute = stats.attribute(best)
        rating = parry_rating(world, unit)
        result = dice.roll(attribute.die)
        added = attribute.bonus + rating
        yield ev.Rolled(
            unit,
            f"parry ({best.upper()} Roll + Bonus + Parry Rating {rating})",
            attribute.die,
            result,
            added,
            result + added,
            tag=RollKind.PARRY,
        )
        return total + result + added
    # block
    rating = block_rating(world, unit)
    result = dice.roll(res.die)
    added = res.bonus * braced + result * (braced - 1) + rating
    yield ev.Rolled(
        unit,
        f"block (RES Roll + Bonus + Block Rating {rating})",
        res.die,
        result,
        added,
        result + added,
        tag=RollKind.BLOCK,
    )
    return total + result + added


def weapon_damage(world: World, attacker: str, target: str, weapon: str | None) -> list[ev.Event]:
    """R-A3: the weapon's WD less the target's Armour Rating, at least 0; unarmed WD 1
    crushing; a `bleed(N)` weapon adds N Bleeding stacks on a hit (R-K5)."""
    kind = weapon_kind(world, weapon)
    wd = kind.wd if kind else world.rules.attack.unarmed_wd
    damage_type = kind.damage if kind else "crushing"
    amount = after_armour(world, target, wd)
    source = f"{attacker}'s {kind.name if kind else 'fist'}"
    out = damage(world, target, amount, damage_type, source, dealer=attacker)
    if kind is not None and kind.bleed:
        stacks = conditions(world, target).count(Condition.BLEEDING) + kind.bleed
        out.append(ev.ConditionGained(target, Condition.BLEEDING, stacks))
    return out


# --- the Attack action -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackPlan:
    weapon: str | None
    melee: bool


def plan_attack(world: World, action: Attack) -> AttackPlan | Refusal:
    """Which weapon attacks and how, or why the attack cannot be made (R-A4, R-A5)."""
    actor, target = action.actor, action.target
    problem = singled_out(world, actor, target, "attack", "R-X2")
    if problem is not None:
        return problem
    here = world.need(actor, Position).cell
    there = world.need(target, Position).cell
    up = world.need(target, Position).elevation  # hanging on a face (R-M7)
    wide = side(world, target)  # R-Z3: a large target is reached at any of its cells
    if action.weapon is not None:
        weapon = find(world, action.weapon, world.need(actor, Hands).items())
        if weapon is None:
            return Refusal(f"{actor} holds no {action.weapon!r} to attack with (R-X2)")
        kind = weapon_kind(world, weapon)
        if kind is None:
            return Refusal(f"{weapon} is not a weapon (R-X2, R-C7)")
        melee = kind.ranged is None  # what `melee_only` says of a held weapon
        if melee and not reaches(world, actor, here, there, up=up, target_side=wide):
            return Refusal(out_of_reach(world, actor, target))
    else:
        # Unnamed: in reach, the melee weapon (or fists) strikes; out of it, the ranged one.
        # Reach is asked once, first: a policy asks this of every foe, most out of reach.
        in_reach = reaches(world, actor, here, there, up=up, target_side=wide)
        melee = in_reach or melee_only(world, actor, None)
        if melee and not in_reach:
            return Refusal(out_of_reach(world, actor, target))
        weapon = held_weapon(world, actor, melee=melee)
    if melee:
        return AttackPlan(weapon, True)
    kind = weapon_kind(world, weapon)
    assert kind is not None
    refused = shot_problem(world, actor, target, kind)
    return refused if refused is not None else AttackPlan(weapon, False)


def shot_problem(world: World, actor: str, target: str, kind: Weapon) -> Refusal | None:
    """Why a shot of `actor` with a ranged weapon of `kind` cannot reach `target` from where
    it stands: out of range (R-C7) or out of sight (R-A5); None when it can."""
    assert kind.ranged is not None
    distance = creature_distance_half(world, actor, target)  # R-M7: to or from a face too
    if distance > kind.ranged * 2:
        return Refusal(
            f"{target} is {distance / 2:g} m away; {kind.name} reaches {kind.ranged} m (R-C7)"
        )
    return creature_line(world, actor, target, target)  # R-A5 from any cells, R-Z3


def melee_only(world: World, actor: str, weapon: str | None) -> bool:
    """Whether `plan_attack` makes every attack of `actor` with `weapon` (None: the weapon it
    chooses) a melee attack, or refuses it at any target: then a target out of melee reach is
    refused (R-A4). Fists, a melee weapon, or, unnamed, no ranged weapon held; named, one not
    held or no weapon at all."""
    if weapon is None:
        return held_weapon(world, actor, melee=False) is None
    found = find(world, weapon, world.need(actor, Hands).items())
    kind = weapon_kind(world, found) if found is not None else None
    return kind is None or kind.ranged is None


def check_attack(world: World, action: Attack) -> Refusal | None:
    plan = plan_attack(world, action)
    return plan if isinstance(plan, Refusal) else None


def interrupts(
    world: World, dice: Dice, actor: str, what: str
) -> Generator[ev.Event | Ask, Reply | None, bool]:
    """R-R7: adjacent enemies with 2 Bonus Actions may Interrupt an action that is not movement
    (sim/rules/combat/interrupt.py says which; the engine opens these windows). True when it is
    lost."""
    here = world.need(actor, Position).cell
    cost = world.rules.reactions.interrupt_bonus
    hidden_from = unseen_by(world, actor)
    team = team_of(world, actor)
    # Only the creatures next to it are asked (issue #30): a footprint's gap is never more
    # than the distance between top-lefts, so every adjacent one is among them. In `enemies`
    # order: another team, able to act (R-K2).
    for enemy in near(world, here, 1):
        if team_of(world, enemy) == team or incapacitated(world, enemy):
            continue
        there = world.need(enemy, Position).cell
        # Adjacent, and within its melee reach: a foe on a ledge above cannot strike (R-A4).
        if not there.is_adjacent(here) or not reaches(world, enemy, there, here):
            continue
        if not can_react(world, enemy, cost) or enemy in hidden_from:
            continue
        answer = yield Ask(
            enemy,
            "interrupt",
            f"{actor} starts {what} next to {enemy}",
            ("interrupt", NONE),
            source=actor,
        )
        if answer is None or answer.choice != "interrupt":
            continue
        yield reaction_spent(world, enemy, "interrupt", "interrupt", slow=answer.slow)
        weapon = held_weapon(world, enemy, melee=True)
        result = yield from strike(
            world,
            dice,
            enemy,
            actor,
            weapon=weapon,
            melee=True,
            purpose="interrupt",
            tag=AttackKind.INTERRUPT,
            dodge_only=True,
        )
        if result.hit:
            yield ev.ActionLost(actor, what, f"interrupted by {enemy} (R-R7)")
            return True
    return False


def resolve_attack(world: World, action: Attack, dice: Dice) -> Resolution:
    plan = plan_attack(world, action)
    assert isinstance(plan, AttackPlan)
    yield from strike(
        world,
        dice,
        action.actor,
        action.target,
        weapon=plan.weapon,
        melee=plan.melee,
        purpose="melee attack" if plan.melee else "ranged attack",
        tag=AttackKind.MELEE if plan.melee else AttackKind.RANGED,
    )


# --- candidates (sim/play/legal.py) ---


class Plans:
    """The attacks of `unit` at `other` as `plan_attack` plans them, each planned when first
    asked for: whether naming a weapon plans the attack the unnamed one does."""

    def __init__(self, world: World, unit: str, other: str) -> None:
        self.world, self.unit, self.other = world, unit, other
        self._plans: dict[str | None, AttackPlan | Refusal] = {}

    def _plan(self, weapon: str | None) -> AttackPlan | Refusal:
        found = self._plans.get(weapon)
        if found is None:
            attack = Attack(self.unit, target=self.other, weapon=weapon)
            found = self._plans[weapon] = plan_attack(self.world, attack)
        return found

    def same(self, weapon: str) -> bool:
        """Whether naming `weapon` plans the attack the unnamed one does."""
        chosen = self._plan(None)
        return isinstance(chosen, AttackPlan) and self._plan(weapon) == chosen

    def any_same(self, weapons: tuple[str, ...]) -> bool:
        """Whether naming one of `weapons` plans the attack the unnamed one does."""
        return any(self.same(weapon) for weapon in weapons)


def plans(scene: Scene, other: str) -> Plans:
    """The unit's attacks at `other`, planned once per listing."""
    return scene.kept(("plans", other), lambda: Plans(scene.world, scene.unit, other))


def strikes(scene: Scene, other: str, weapon: str | None) -> bool:
    """The sieve for an attack's reach: in reach any weapon may strike, beyond it only one
    that is not for melee only."""
    if scene.near(other):
        return True
    return scene.sifts(("ranged", weapon), lambda: not melee_only(scene.world, scene.unit, weapon))


# With no weapon named, an attack or a trip strikes with the weapon `plan_attack` chooses; naming
# that weapon is the same decision, listed once: the attack unnamed (a player's plain "attack"),
# the trip named (it comes first).


def attack_candidates(scene: Scene, other: str) -> Iterator[Attack]:
    """The attack at anyone in sight with the weapon `plan_attack` chooses."""
    if strikes(scene, other, None):
        yield Attack(scene.unit, target=other)


def weapon_attack_candidates(scene: Scene, aimed: tuple[str, str]) -> Iterator[Unless]:
    """The attack at a creature with a weapon in hand, unless that is the unnamed one."""
    other, weapon = aimed
    if strikes(scene, other, weapon):
        same = partial(plans(scene, other).same, weapon)
        yield Unless(Attack(scene.unit, target=other, weapon=weapon), same)
