"""Throw, Toss and Catch (R-X17, R-X18, R-R6, R-A5).

Throw (½ Action) is a ranged attack with a held item, out to STR Bonus − the item's weight in
metres, plus X for a `thrown(X)` weapon, along a line of sight (R-A5); an adjacent enemy may
Interrupt it (R-R7). An item that is not a weapon deals 2 crushing damage per kg. The target may
Dodge, or Catch a throw that hit (R-R6: 1 Bonus Action, a free hand — one held item may be
dropped as part of it — and an AGI + FCS Save against the Hit Roll; on success no damage and the
item is held). Toss (Bonus Action) sends a held item of at most half the STR Bonus in kg up to
STR Bonus metres, to a cell, where it lands, or to a creature, which may Catch it with an FCS
Check against 15 + its weight; failing, it takes 2 crushing damage per kg (plus the WD of a
weapon, in the weapon's damage type) and the item falls at its feet.

**Decisions**: a thrown item that is not caught, hit or miss, lands in the target's cell; a
toss also needs a line no wall blocks; a target that used a defence reaction against the throw
(Dodge, or a Block, as against any ranged attack) cannot also Catch it ("Dodge, or Catch");
a toss to a creature needs one the tosser sees (R-X8); damage per kg is rounded down and armour
counts against it (R-A3); a creature that lets a tossed item fall without trying to catch it
takes no damage; a toss is not an attack and opens no Interrupt window.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass

from sim.core import events as ev
from sim.core.actions import Refusal, Throw, Toss
from sim.core.components import Hands, Position, Stats
from sim.core.creature import after_armour, item_kind, unseen_by
from sim.core.dice import Dice
from sim.core.geometry import Pos, half_metres
from sim.core.grid import Kind
from sim.core.purpose import AttackKind, RollKind
from sim.core.world import World
from sim.rules.candidates import Scene, chebyshev
from sim.rules.combat.attack import strike, weapon_damage, weapon_kind
from sim.rules.combat.checks import roll_check, saved
from sim.rules.combat.health import damage
from sim.rules.combat.items import find
from sim.rules.combat.reactions import NONE, Ask, Reply, can_react, reaction_spent
from sim.rules.reach.sight import blocked_line, creature_distance_half, creature_line, distance_half
from sim.rules.reach.target import singled_out

Resolution = Generator[ev.Event | Ask, Reply | None, None]
CATCH = "catch"


def _held(world: World, actor: str, ref: str, what: str) -> str | Refusal:
    if not ref:
        return Refusal(f'{what} needs "item": the id or kind of a held item (R-X17, R-X18)')
    item = find(world, ref, world.need(actor, Hands).held)
    if item is None:
        return Refusal(f"{actor} holds no {ref!r} to {what}; draw it first (R-X17, R-X18)")
    return item


def _weight(world: World, item: str) -> float:
    return world.catalog.weight(item_kind(world, item))


def _metres(half: int) -> str:
    return f"{half / 2:g} m"


# --- Throw (R-X17) -----------------------------------------------------------------------------


def throw_range(world: World, actor: str, item: str) -> int:
    """R-X17: STR Bonus − item weight metres, plus X for `thrown(X)`, in half-metres (R-U4)."""
    bonus = world.need(actor, Stats).attribute("str").bonus
    kind = weapon_kind(world, item)
    extra = kind.thrown if kind is not None and kind.thrown else 0
    return max(0, half_metres(bonus - _weight(world, item) + extra))


@dataclass(frozen=True, slots=True)
class ThrowPlan:
    item: str
    at: Pos  # the target's cell, where the item lands unless caught


def plan_throw(world: World, action: Throw) -> ThrowPlan | Refusal:
    actor, target = action.actor, action.target
    problem = singled_out(world, actor, target, "throw at", "R-X17")
    if problem is not None:
        return problem
    item = _held(world, actor, action.item, "throw")
    if isinstance(item, Refusal):
        return item
    there = world.need(target, Position).cell
    reach = throw_range(world, actor, item)
    distance = creature_distance_half(world, actor, target)  # R-M7: to or from a face too
    if distance > reach:
        return Refusal(
            f"{target} is {_metres(distance)} away; {actor} throws {item} "
            f"{_metres(reach)} (R-X17: STR Bonus − weight, + X for thrown(X))"
        )
    blocked = creature_line(world, actor, target, target)  # R-A5 from any cells, R-Z3
    return blocked if blocked is not None else ThrowPlan(item, there)


def check_throw(world: World, action: Throw) -> Refusal | None:
    plan = plan_throw(world, action)
    return plan if isinstance(plan, Refusal) else None


def item_damage(
    world: World, attacker: str, target: str, item: str, *, per_kg: float, weapon_wd: bool
) -> list[ev.Event]:
    """Damage per kg (`per_kg`, from the rules data: 2 crushing for a thrown item that is not a
    weapon, R-X17, or a tossed item that was not caught, R-R6), rounded down; with `weapon_wd` a
    weapon adds its WD and deals its own damage type (R-R6). Armour counts (R-A3)."""
    amount = int(per_kg * _weight(world, item))
    damage_type = "crushing"
    kind = weapon_kind(world, item)
    if weapon_wd and kind is not None:
        amount += kind.wd
        damage_type = kind.damage
    amount = after_armour(world, target, amount)
    source = f"{attacker}'s {item_kind(world, item)}"
    return damage(world, target, amount, damage_type, source, dealer=attacker)


def resolve_throw(world: World, action: Throw, dice: Dice) -> Resolution:
    plan = plan_throw(world, action)
    assert isinstance(plan, ThrowPlan)
    actor, target, item = action.actor, action.target, plan.item
    # R-X8: a target that does not see the thrower cannot react to the throw, nor catch it.
    unseen = target in unseen_by(world, actor)
    yield ev.ItemThrown(actor, item, plan.at)
    is_weapon = weapon_kind(world, item) is not None
    result = yield from strike(
        world,
        dice,
        actor,
        target,
        weapon=item if is_weapon else None,
        melee=False,
        purpose=f"throw ({item_kind(world, item)})",
        tag=AttackKind.THROW,
        deal_damage=False,
    )
    if not result.hit:
        return
    if not unseen and result.defence == NONE:
        caught = yield from catch_thrown(world, dice, target, actor, item, result.hit_roll)
        if caught:
            return
    if is_weapon:
        yield from weapon_damage(world, actor, target, item)
    else:
        per_kg = world.rules.actions.throw_item_damage_per_kg
        yield from item_damage(world, actor, target, item, per_kg=per_kg, weapon_wd=False)


# --- Catch (R-R6) ------------------------------------------------------------------------------


def catch_options(world: World, unit: str) -> tuple[str, ...]:
    """R-R6, R-R8: "catch" with a free hand, or "catch, dropping X" for each held item that can
    be dropped to free one; nothing without the Bonus Action or when Incapacitated."""
    if not can_react(world, unit, world.rules.reactions.catch_bonus):
        return ()
    hands = world.need(unit, Hands)
    if hands.free >= 1:
        return (CATCH,)
    return tuple(f"{CATCH}, dropping {item}" for item in hands.items())


def _attempt(
    world: World, catcher: str, trigger: str, source: str, roll: int = 0
) -> Generator[ev.Event | Ask, Reply | None, bool]:
    """Open the Catch window (R-R6, R-R8) of an item `source` threw (its Hit Roll `roll`) or
    tossed; on a "catch" answer pay its Bonus Action and drop the held item it names, for free.
    True when the catcher tries."""
    options = catch_options(world, catcher)
    if not options:
        return False
    answer = yield Ask(catcher, CATCH, trigger, (*options, NONE), source=source, roll=roll)
    if answer is None or answer.choice not in options:
        return False
    yield reaction_spent(world, catcher, CATCH, answer.choice, slow=answer.slow)
    prefix = f"{CATCH}, dropping "
    if answer.choice.startswith(prefix):
        cell = world.need(catcher, Position).cell
        yield ev.ItemDropped(catcher, answer.choice[len(prefix) :], cell)
    return True


def catch_thrown(
    world: World, dice: Dice, catcher: str, thrower: str, item: str, hit_roll: int
) -> Generator[ev.Event | Ask, Reply | None, bool]:
    """R-R6: after a hit, an AGI + FCS Save (both dice, both Bonuses) against the Hit Roll; on
    success the item is held and deals no damage. True when caught."""
    trigger = f"{thrower}'s thrown {item} hits {catcher} (Hit Roll {hit_roll})"
    trying = yield from _attempt(world, catcher, trigger, thrower, hit_roll)
    if not trying:
        return False
    total = 0
    for name in ("agi", "fcs"):
        purpose = f"catch {item}: {name.upper()} Roll + Bonus"
        check = roll_check(world, dice, catcher, name, purpose, tag=RollKind.CATCH)
        total += check.total
        yield check.rolled
    caught = saved(total, hit_roll)  # R-C4: a save that ties succeeds
    yield ev.CheckResolved(
        catcher,
        f"catch {item} (AGI + FCS Save against the Hit Roll, R-R6)",
        total,
        hit_roll,
        caught,
        tag=RollKind.CATCH,
    )
    if caught:
        yield ev.ItemCaught(catcher, item)
    return caught


# --- Toss (R-X18) ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TossPlan:
    item: str
    to: Pos
    catcher: str | None


def too_heavy(world: World, actor: str, item: str) -> Refusal | None:
    """Why `actor` cannot toss `item` anywhere: it weighs more than half its STR Bonus in kg
    (R-X18)."""
    most = world.need(actor, Stats).attribute("str").bonus / world.rules.toss.max_weight_divisor
    weight = _weight(world, item)
    if weight > most:
        return Refusal(
            f"{item} weighs {weight:g} kg; {actor} tosses at most {most:g} kg "
            "(R-X18: half the STR Bonus)"
        )
    return None


def plan_toss(world: World, action: Toss) -> TossPlan | Refusal:
    actor = action.actor
    item = _held(world, actor, action.item, "toss")
    if isinstance(item, Refusal):
        return item
    if (action.to is None) == (action.target is None):
        return Refusal('a toss needs either "to": a cell [x, y], or "target": a creature (R-X18)')
    heavy = too_heavy(world, actor, item)
    if heavy is not None:
        return heavy
    bonus = world.need(actor, Stats).attribute("str").bonus
    here = world.need(actor, Position).cell
    catcher = action.target
    if catcher is not None:
        problem = singled_out(world, actor, catcher, "toss to", "R-X18")
        if problem is not None:
            return problem
        to = world.need(catcher, Position).cell
        name = catcher
    else:
        assert action.to is not None
        to = action.to
        name = str(to)
        if not world.grid.inside(to):
            return Refusal(f"{to}: off the map (R-U1)")
        if world.grid.kind(to) is Kind.WALL:
            return Refusal(f"{to}: a wall; nothing can land there (R-X18)")
        if to == here:
            return Refusal(f"{to} is where {actor} stands; drop the item instead (R-X7)")
    distance = distance_half(world.rules, here, to)
    reach = half_metres(bonus)
    if distance > reach:
        return Refusal(
            f"{name} is {_metres(distance)} away; {actor} tosses {_metres(reach)} "
            "(R-X18: STR Bonus metres)"
        )
    blocked = blocked_line(world.grid, here, to, name)
    return blocked if blocked is not None else TossPlan(item, to, catcher)


def check_toss(world: World, action: Toss) -> Refusal | None:
    plan = plan_toss(world, action)
    return plan if isinstance(plan, Refusal) else None


def resolve_toss(world: World, action: Toss, dice: Dice) -> Resolution:
    plan = plan_toss(world, action)
    assert isinstance(plan, TossPlan)
    actor, item, catcher = action.actor, plan.item, plan.catcher
    yield ev.ItemThrown(actor, item, plan.to)
    if catcher is None:
        return
    trying = yield from _attempt(world, catcher, f"{actor} tosses {item} to {catcher}", actor)
    if not trying:
        return  # it lets the item fall at its feet
    base = world.rules.actions.catch_toss_base
    weight = _weight(world, item)
    against = base + weight
    check = roll_check(world, dice, catcher, "fcs", f"catch {item}: FCS Check", tag=RollKind.CATCH)
    yield check.rolled
    caught = check.total >= against  # R-C4: a check that ties succeeds
    yield ev.CheckResolved(
        catcher,
        f"catch {item} (FCS Check against {base:g} + {weight:g} kg, R-R6)",
        check.total,
        against,
        caught,
        tag=RollKind.CATCH,
    )
    if caught:
        yield ev.ItemCaught(catcher, item)
        return
    per_kg = world.rules.actions.catch_toss_damage_per_kg
    yield from item_damage(world, actor, catcher, item, per_kg=per_kg, weapon_wd=True)


# --- candidates (sim/play/legal.py) ---


def throws(scene: Scene, other: str, item: str) -> bool:
    """The sieve for a throw's range (R-X17)."""

    def within() -> bool:
        most = scene.kept(("range", item), lambda: throw_range(scene.world, scene.unit, item))
        # Each cell between them is at least a straight metre (R-U2): a creature that many
        # cells off is out of range without measuring the lines to it.
        if scene.apart(other) * scene.world.rules.grid.orthogonal_half_metres > most:
            return False
        return creature_distance_half(scene.world, scene.unit, other) <= most

    return scene.sifts(("throws", other, item), within)


def tossed(scene: Scene) -> list[str]:
    """The items held light enough to toss (R-X18), the sieve's, worked out once."""

    def light(item: str) -> bool:
        return scene.sifts(
            ("tosses", item), lambda: too_heavy(scene.world, scene.unit, item) is None
        )

    return scene.kept("tossed", lambda: [item for item in scene.held if light(item)])


def throw_candidates(scene: Scene, aimed: tuple[str, str]) -> Iterator[Throw]:
    other, item = aimed
    if throws(scene, other, item):
        yield Throw(scene.unit, target=other, item=item)


def toss_candidates(scene: Scene, aimed: tuple[str, str]) -> Iterator[Toss]:
    other, item = aimed
    if item in tossed(scene):
        yield Toss(scene.unit, item=item, target=other)


def toss_to_cell_candidates(scene: Scene, subject: None) -> Iterator[Toss]:
    """R-X18 to a cell: a representative set, for each ally in sight the cell next to it
    nearest the tosser, where the ally can pick the item up (R-X7) without the risk of a
    failed catch (R-R6). Tossing to the ally itself is listed with the other targets."""
    light = tossed(scene)
    if not light:
        return
    world, here = scene.world, scene.here
    grid = world.grid
    for ally in scene.others():
        if not scene.ally(ally):
            continue
        there = world.need(ally, Position).cell
        around = [
            c
            for c in there.neighbours()
            if c != here and grid.inside(c) and grid.kind(c) is not Kind.WALL
        ]
        if around:
            cell = min(around, key=lambda c: (chebyshev(c, here), c.y, c.x))
            for item in light:
                yield Toss(scene.unit, item, to=cell)
