"""Casting a spell or using an ability (R-X20): it costs the tier its rules data names, an
adjacent enemy may Interrupt it (R-R7: on a hit it is lost and its cost stays spent), then a Hit
Roll (R-A1..R-A3), a save against the caster's FCS Check (R-C2, R-C4) or nothing decides which
targets it affects, and its effects follow in order: damage, healing, Burning and Bleeding stacks
(R-K4, R-K5), Quickened turns (R-K3, R-B6's source of Quicken), Slowed turns (R-K3) and Prone
(R-M10)."""

from __future__ import annotations

from collections.abc import Generator, Iterator

from sim.core import events as ev
from sim.core.abilities import (
    ALLY,
    AREA,
    CELL,
    CREATURE,
    ENEMY,
    ONE_CREATURE,
    SELF,
    Ability,
    Amount,
    Damage,
    Heal,
)
from sim.core.abilities import Condition as Given
from sim.core.actions import AbilityAction, Cast, Refusal, Use
from sim.core.components import Position, Repertoire
from sim.core.condition import Condition
from sim.core.creature import cells_of, conditions, creatures, incapacitated, team_of
from sim.core.dice import Dice
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.purpose import AttackKind, RollKind
from sim.core.world import World
from sim.rules.candidates import Scene
from sim.rules.combat.attack import strike
from sim.rules.combat.checks import roll_check, saved
from sim.rules.combat.health import damage, heal
from sim.rules.combat.hide import cannot_see
from sim.rules.combat.reactions import Ask, Reply
from sim.rules.combat.stance import save_roll, save_words
from sim.rules.movement.diving import apart
from sim.rules.movement.prone import knocked_down
from sim.rules.reach.sight import (
    blocked_line,
    creature_distance_half,
    creature_line,
    distance_half,
    line_of_sight,
)

Resolution = Generator[ev.Event | Ask, Reply | None, None]
Effects = Generator[ev.Event, Reply | None, None]

_TARGET_WORDS = {ALLY: "an ally", ENEMY: "an enemy", CREATURE: "a creature"}


def known(world: World, unit: str) -> tuple[str, ...]:
    """The spells and abilities `unit` knows (R-X20)."""
    repertoire = world.get(unit, Repertoire)
    return repertoire.names if repertoire is not None else ()


def _metres(half: int) -> str:
    """
    >>> _metres(3), _metres(24)
    ('1.5', '12')
    """
    return f"{half / 2:g}"


def affected(world: World, action: AbilityAction) -> tuple[str, ...] | Refusal:
    """The creatures the spell or ability reaches, or why it cannot be aimed so (R-X20, R-A5)."""
    actor = action.actor
    ability = world.catalog.abilities.get(action.ability)
    if ability is None:
        return Refusal(f"there is no {action.category} {action.ability!r} (R-X20)")
    name = ability.name
    if ability.kind != action.category:
        verb = "cast" if ability.kind == "spell" else "use"
        return Refusal(
            f"{name} is {'a spell' if ability.kind == 'spell' else 'an ability'}, not "
            f"{'a spell' if action.category == 'spell' else 'an ability'}: "
            f'{verb} it with "action": "{verb}" (R-X20)'
        )
    if name not in known(world, actor):
        knows = ", ".join(known(world, actor)) or "none"
        return Refusal(f"{actor} does not know {name} (it knows: {knows}) (R-X20)")
    if ability.target == SELF:
        if action.to is not None or action.target not in ("", actor):
            return Refusal(f"{name} affects only {actor} itself; it takes no target (R-X20)")
        return (actor,)
    here = world.need(actor, Position).cell
    if ability.target in ONE_CREATURE:
        return _creature(world, action, ability, here)
    return _area(world, action, ability, here)


def _creature(
    world: World, action: AbilityAction, ability: Ability, here: Pos
) -> tuple[str, ...] | Refusal:
    actor, target, name = action.actor, action.target, ability.name
    what = _TARGET_WORDS[ability.target]
    if action.to is not None or not target:
        return Refusal(f'{name} needs "target": the id of {what}, and no "to" (R-X20)')
    if target not in creatures(world):
        return Refusal(f"there is no creature {target!r} to target with {name} (R-X20)")
    same_side = team_of(world, target) == team_of(world, actor)
    if ability.target == ENEMY and same_side:
        return Refusal(f"{name} targets an enemy; {target} is on {actor}'s side (R-X20)")
    if ability.target == ALLY and not same_side:
        return Refusal(f"{name} targets an ally; {target} is not on {actor}'s side (R-X20)")
    if ability.attack and target == actor:
        return Refusal(f"{actor} cannot attack itself with {name} (R-X20)")
    if target != actor:
        hidden = cannot_see(world, actor, target)
        if hidden is not None:
            return hidden
    there = world.need(target, Position).cell
    distance = creature_distance_half(world, actor, target)  # R-M7: to or from a face too
    refusal = _in_range(world, ability, here, there, target, distance, (actor, target))
    return refusal or (target,)


def _area(
    world: World, action: AbilityAction, ability: Ability, here: Pos
) -> tuple[str, ...] | Refusal:
    name, centre = ability.name, action.to
    if action.target or centre is None:
        return Refusal(f'{name} is aimed at a cell: it needs "to": [x, y], and no "target" (R-X20)')
    if not world.grid.inside(centre):
        size = f"{world.grid.width}x{world.grid.height}"
        return Refusal(f"{centre} is outside the {size} map (R-U1)")
    # R-Z3: a large caster aims from the nearest of its cells that sees the centre.
    froms = sorted(
        cells_of(world, action.actor), key=lambda c: distance_half(world.rules, c, centre)
    )
    here = next((c for c in froms if line_of_sight(world.grid, c, centre) is None), froms[0])
    refusal = _in_range(world, ability, here, centre, str(centre))
    if refusal is not None:
        return refusal
    radius = ability.radius_half if ability.target == AREA else 0
    hit = []
    for unit in creatures(world):
        # R-M8 Decision: water between caster and a diver shelters the diver.
        if apart(world, action.actor, unit):
            continue
        # Walls shelter a creature from the burst (R-A5's line, drawn from the centre); a
        # large one is caught when any cell of its footprint is (R-Z3).
        if any(
            distance_half(world.rules, centre, cell) <= radius
            and line_of_sight(world.grid, centre, cell) is None
            for cell in cells_of(world, unit)
        ):
            hit.append(unit)
    return tuple(hit)


def _in_range(
    world: World,
    ability: Ability,
    here: Pos,
    there: Pos,
    what: str,
    distance: int | None = None,
    between: tuple[str, str] | None = None,
) -> Refusal | None:
    """R-X20: within the data's range (`distance`, half-metres, when a creature is aimed at);
    R-A5: with a line of sight no wall cell blocks: between any cells of the two creatures
    `between` when a creature is aimed at (R-Z3)."""
    if distance is None:
        distance = distance_half(world.rules, here, there)
    if distance > ability.range_half:
        return Refusal(
            f"{what} is {_metres(distance)} m away; {ability.name} reaches "
            f"{_metres(ability.range_half)} m (R-X20)"
        )
    if ability.target in (CELL, AREA) and world.grid.kind(there) is Kind.WALL:
        return Refusal(f"{what} is a wall; {ability.name} needs an open cell (R-A5)")
    if between is not None:
        return creature_line(world, *between, what)
    return blocked_line(world.grid, here, there, what)


def check_cast(world: World, action: AbilityAction) -> Refusal | None:
    found = affected(world, action)
    return found if isinstance(found, Refusal) else None


def resolve_cast(world: World, action: AbilityAction, dice: Dice) -> Resolution:
    ability = world.catalog.abilities[action.ability]
    actor = action.actor
    targets = affected(world, action)
    assert not isinstance(targets, Refusal)
    yield ev.AbilityUsed(actor, ability.name, action.target or None, action.to, targets)
    if ability.attack:
        # R-A1..R-A3: a ranged Hit Roll in the caster's attack window; the target may Dodge,
        # Parry (R-R2: any attack) or Block; the spell's own effects instead of a weapon's.
        target = targets[0]
        result = yield from strike(
            world,
            dice,
            actor,
            target,
            weapon=None,
            melee=False,
            purpose=ability.name,
            tag=AttackKind.SPELL,
            deal_damage=False,
        )
        if result.hit:
            yield from _effects(world, dice, actor, ability, target)
        return
    against = 0
    if ability.save is not None and targets:
        check = roll_check(
            world, dice, actor, "fcs", f"{ability.name}: FCS Check", tag=RollKind.CAST
        )
        yield check.rolled
        against = check.total
    for unit in targets:
        if ability.save is not None:
            made = yield from _save(world, dice, unit, ability, against)
            if made:
                continue
        yield from _effects(world, dice, actor, ability, unit)


def _save(
    world: World, dice: Dice, unit: str, ability: Ability, against: int
) -> Generator[ev.Event, Reply | None, bool]:
    """The target's Save (R-C2) against the caster's FCS Check; ties go to the saver (R-C4).
    An Incapacitated creature's save is 0, as its Defense Roll is (R-A2)."""
    assert ability.save is not None
    purpose = f"{ability.save.upper()} Save against {ability.name}"
    shown = purpose
    total = 0
    if not incapacitated(world, unit):
        shown = save_words(world, unit, ability.save, purpose)  # before the roll uses Evade up
        roll = yield from save_roll(  # Evade: R-X9
            world, dice, unit, ability.save, purpose, tag=RollKind.SAVE
        )
        total = roll.total
    success = saved(total, against)
    yield ev.CheckResolved(unit, shown, total, against, success, tag=RollKind.SAVE)
    return success


def _roll(
    dice: Dice, unit: str, amount: Amount, purpose: str
) -> Generator[ev.Event, Reply | None, int]:
    """Every die of an amount is a Rolled event; the flat part rides on the last one."""
    total = amount.flat if not amount.count else 0
    for i in range(amount.count):
        result = dice.roll(amount.die)
        flat = amount.flat if i == amount.count - 1 else 0
        words = f"{purpose} ({amount})"
        yield ev.Rolled(unit, words, amount.die, result, flat, result + flat, tag=RollKind.EFFECT)
        total += result + flat
    return max(0, total)


def _effects(world: World, dice: Dice, caster: str, ability: Ability, unit: str) -> Effects:
    """The effects on one target, in the data's order; each event is applied before the next is
    worked out, so a second effect sees the first."""
    source = f"{caster}'s {ability.name}"
    for effect in ability.effects:
        if isinstance(effect, Damage):
            amount = yield from _roll(dice, caster, effect.amount, f"{ability.name} on {unit}")
            yield from damage(world, unit, amount, effect.damage_type, source, dealer=caster)
        elif isinstance(effect, Heal):
            amount = yield from _roll(dice, caster, effect.amount, f"{ability.name} on {unit}")
            yield from heal(world, unit, amount, source)
        else:
            yield from _condition(world, unit, effect)


def _condition(world: World, unit: str, effect: Given) -> list[ev.Event]:
    if effect.name == Condition.PRONE:
        return knocked_down(world, unit)  # R-M10: in deep water it swims instead
    # Burning and Bleeding stacks add up (R-K4, R-K5); so do Quickened and Slowed turns, as a
    # draught's Quickened turns do (R-K3).
    value = conditions(world, unit).count(effect.name) + effect.value
    return [ev.ConditionGained(unit, effect.name, value)]


# --- candidates (sim/play/legal.py) ---


def cast_candidates(scene: Scene, name: str) -> Iterator[AbilityAction]:
    """A known spell at each creature in sight (itself included) or, aimed at a cell, at each
    such creature's cell."""
    ability = scene.world.catalog.abilities.get(name)
    if ability is not None and ability.kind == "spell":
        yield from _aimed(scene, Cast, name, ability.target)


def use_candidates(scene: Scene, name: str) -> Iterator[AbilityAction]:
    """A known ability (not a spell), aimed as `cast_candidates` aims a spell."""
    ability = scene.world.catalog.abilities.get(name)
    if ability is not None and ability.kind != "spell":
        yield from _aimed(scene, Use, name, ability.target)


def _aimed(
    scene: Scene, cls: type[AbilityAction], name: str, target: str
) -> Iterator[AbilityAction]:
    unit = scene.unit
    if target == SELF:
        yield cls(unit, name)
    elif target in ONE_CREATURE:
        for other in (unit, *scene.others()):
            yield cls(unit, name, other)
    elif target in (CELL, AREA):
        for other in (unit, *scene.others()):
            yield cls(unit, name, to=scene.world.need(other, Position).cell)
