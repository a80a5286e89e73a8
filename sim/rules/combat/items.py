"""Items in hands, on belts and on the ground: Draw, Stow, Drop, Pick Up, Consume (R-X4, R-X6,
R-X7, R-C7)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from sim.core import events as ev
from sim.core.actions import Consume, Draw, Drop, PickUp, Refusal, Stow
from sim.core.catalog import Armour, Gadget, Shield, Weapon
from sim.core.components import Conditions, Gear, Hands, Item, Position
from sim.core.condition import Condition
from sim.core.creature import conditions, item_kind
from sim.core.dice import Dice
from sim.core.world import World
from sim.rules.candidates import Scene, chebyshev
from sim.rules.combat.health import heal


def find(world: World, ref: str, among: tuple[str | None, ...]) -> str | None:
    """An item id among `among`, by its id or, failing that, by its kind's name."""
    present = [item for item in among if item is not None]
    if ref in present:
        return ref
    for item in present:
        if item_kind(world, item) == ref:
            return item
    return None


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def ordinal(index: int) -> str:
    """The word for the place `index` (from 0): "first", "second", ... "9th"."""
    return ORDINALS[index] if index < len(ORDINALS) else f"{index + 1}th"


def item_name(world: World, item: str) -> str:
    """What a player calls an item: its equipment's name in words, with what it is where the
    name alone does not say ("heater shield", "mail armour"), never its id ("ana.heater")."""
    kind = item_kind(world, item)
    equipment = world.catalog.equipment.get(kind)
    words = kind.replace("_", " ")
    if isinstance(equipment, Shield):
        return f"{words} shield"
    if isinstance(equipment, Armour):
        return f"{words} armour"
    return words


def item_names(world: World, items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Each of `items` by `item_name`; items that share a name in this list are told apart
    by their order in it ("first dagger", "second dagger")."""
    names = {item: item_name(world, item) for item in items}
    counts = Counter(names.values())
    seen: Counter[str] = Counter()
    out: dict[str, str] = {}
    for item, name in names.items():
        if counts[name] == 1:
            out[item] = name
            continue
        out[item] = f"{ordinal(seen[name])} {name}"
        seen[name] += 1
    return out


def hands_needed(world: World, item: str) -> int:
    kind = world.catalog.get(item_kind(world, item))
    return 2 if isinstance(kind, Weapon) and kind.two_handed else 1


def _can_hold(world: World, actor: str, item: str) -> Refusal | None:
    hands = world.need(actor, Hands)
    need = hands_needed(world, item)
    if hands.free < need:
        hold = " and ".join(hands.items())
        what = "both hands" if need == 2 else "a free hand"
        return Refusal(f"{actor} needs {what} for {item} but holds {hold} (R-C7)")
    return None


def check_draw(world: World, action: Draw) -> Refusal | None:
    gear = world.need(action.actor, Gear)
    item = find(world, action.item, gear.carried)
    if item is None:
        return Refusal(f"{action.actor} carries no {action.item!r} to draw (R-X6)")
    return _can_hold(world, action.actor, item)


def resolve_draw(world: World, action: Draw, dice: Dice) -> list[ev.Event]:
    item = find(world, action.item, world.need(action.actor, Gear).carried)
    assert item is not None
    return [ev.ItemDrawn(action.actor, item, hands_needed(world, item))]


def check_stow(world: World, action: Stow) -> Refusal | None:
    if find(world, action.item, world.need(action.actor, Hands).held) is None:
        return Refusal(f"{action.actor} holds no {action.item!r} to stow (R-X6)")
    return None


def resolve_stow(world: World, action: Stow, dice: Dice) -> list[ev.Event]:
    item = find(world, action.item, world.need(action.actor, Hands).held)
    assert item is not None
    return [ev.ItemStowed(action.actor, item)]


def check_drop(world: World, action: Drop) -> Refusal | None:
    if find(world, action.item, world.need(action.actor, Hands).held) is None:
        return Refusal(f"{action.actor} holds no {action.item!r} to drop (R-X7)")
    return None


def resolve_drop(world: World, action: Drop, dice: Dice) -> list[ev.Event]:
    item = find(world, action.item, world.need(action.actor, Hands).held)
    assert item is not None
    cell = world.need(action.actor, Position).cell
    return [ev.ItemDropped(action.actor, item, cell)]


def items_within_reach(world: World, actor: str) -> tuple[str, ...]:
    """Items lying on the actor's cell or a neighbouring one (R-X7)."""
    here = world.need(actor, Position).cell
    return tuple(
        entity
        for entity, pos in world.each(Position)
        if world.has(entity, Item) and (pos.cell == here or pos.cell.is_adjacent(here))
    )


def check_pick_up(world: World, action: PickUp) -> Refusal | None:
    item = find(world, action.item, items_within_reach(world, action.actor))
    if item is None:
        return Refusal(f"no {action.item!r} lies within {action.actor}'s reach (R-X7)")
    return _can_hold(world, action.actor, item)


def resolve_pick_up(world: World, action: PickUp, dice: Dice) -> list[ev.Event]:
    item = find(world, action.item, items_within_reach(world, action.actor))
    assert item is not None
    return [ev.ItemPickedUp(action.actor, item, hands_needed(world, item))]


def possessed(world: World, actor: str, ref: str) -> str | None:
    """An item the creature holds or carries, by id or kind (R-C7)."""
    hands = world.need(actor, Hands)
    gear = world.need(actor, Gear)
    return find(world, ref, (*hands.held, *gear.carried))


def undrinkable(world: World, item: str, rule: str = "R-X4") -> Refusal | None:
    """Why `item` cannot be drunk, if it cannot (R-X4, R-X12)."""
    kind = world.catalog.get(item_kind(world, item))
    if not (isinstance(kind, Gadget) and kind.drink):
        return Refusal(f"{item} is not a potion, remedy or food ({rule})")
    return None


def check_consume(world: World, action: Consume) -> Refusal | None:
    item = possessed(world, action.actor, action.item)
    if item is None:
        return Refusal(f"{action.actor} has no {action.item!r} to consume (R-X4)")
    return undrinkable(world, item)


def drink_effects(world: World, drinker: str, item: str) -> list[ev.Event]:
    """What a potion or remedy does to whoever drinks it (R-X4, R-X12)."""
    kind = world.catalog.get(item_kind(world, item))
    assert isinstance(kind, Gadget)
    out: list[ev.Event] = []
    if kind.heal:
        out += heal(world, drinker, kind.heal, item)
    if kind.quickened:
        held: Conditions = conditions(world, drinker)
        out.append(
            ev.ConditionGained(
                drinker, Condition.QUICKENED, held.count(Condition.QUICKENED) + kind.quickened
            )
        )
    if kind.cure_bleeding:
        stacks = conditions(world, drinker).count(Condition.BLEEDING)
        if stacks:
            left = max(0, stacks - kind.cure_bleeding)
            out.append(
                ev.ConditionGained(drinker, Condition.BLEEDING, left)
                if left
                else ev.ConditionLost(drinker, Condition.BLEEDING, f"{item} stopped it")
            )
    return out


def resolve_consume(world: World, action: Consume, dice: Dice) -> list[ev.Event]:
    item = possessed(world, action.actor, action.item)
    assert item is not None
    return [ev.ItemConsumed(action.actor, item), *drink_effects(world, action.actor, item)]


# --- candidates (sim/play/legal.py) ---


def stow_candidates(scene: Scene, item: str) -> tuple[Stow]:
    return (Stow(scene.unit, item),)


def drop_candidates(scene: Scene, item: str) -> tuple[Drop]:
    return (Drop(scene.unit, item),)


def draw_candidates(scene: Scene, item: str) -> tuple[Draw]:
    return (Draw(scene.unit, item),)


def consume_candidates(scene: Scene, subject: None) -> Iterator[Consume]:
    """Each item held or carried: the check tells what can be consumed."""
    for item in (*scene.held, *scene.carried):
        yield Consume(scene.unit, item)


def pick_up_candidates(scene: Scene, subject: None) -> Iterator[PickUp]:
    """Each item on the ground in the unit's cell or next to it (R-X7)."""
    world = scene.world
    for item, pos in world.each(Position):
        if world.has(item, Item) and chebyshev(pos.cell, scene.here) <= 1:
            yield PickUp(scene.unit, item)
