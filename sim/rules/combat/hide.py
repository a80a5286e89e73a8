"""Hide and Unseen (R-X8, R-K1): a Stealth check against each opponent's Perception check; each
beaten opponent no longer sees the creature. **Decision** hiding from an opponent needs cover
terrain (the creature's own cell, or a cover cell on the line between them) or no line of sight
from it. Unseen ends when the creature attacks, or ends a movement in that opponent's line of
sight outside cover. An Unseen creature cannot be singled out by those that do not see it, and
its attacks cannot be reacted to by them."""

from __future__ import annotations

from sim.core import events as ev
from sim.core.actions import Hide, Refusal
from sim.core.condition import Condition
from sim.core.creature import creatures, has, unseen_by
from sim.core.dice import Dice
from sim.core.geometry import Pos
from sim.core.grid import Grid, Kind
from sim.core.purpose import RollKind
from sim.core.world import World
from sim.rules.combat.checks import acting_wins, skill_check
from sim.rules.movement.diving import apart, submerged
from sim.rules.reach.sight import cells_on_line, line_of_sight, sight_lines
from sim.rules.reach.threat import enemies


def in_cover(world: World, unit: str, viewer: str) -> bool:
    """Cover terrain between `viewer` and `unit`: `unit` stands in cover, or a cover cell lies
    on the line between them (R-X8 Decision). A large creature (R-Z3) has cover only when
    every line from the viewer's cells to its own does."""
    grid = world.grid
    return all(_covered(grid, there, here) for there, here in sight_lines(world, viewer, unit))


def _covered(grid: Grid, there: Pos, here: Pos) -> bool:
    """Whether the cell `here` is in cover from the cell `there` (R-X8 Decision)."""
    if grid.kind(here) is Kind.COVER:
        return True
    return any(
        grid.inside(cell) and grid.kind(cell) is Kind.COVER for cell in cells_on_line(there, here)
    )


def in_plain_sight(world: World, unit: str, viewer: str) -> bool:
    """`viewer` has a line of sight to `unit` (R-A5) and `unit` has no cover from it: for a
    large creature, some cell of it is so seen from some cell of the viewer (R-Z3)."""
    grid = world.grid
    return any(
        line_of_sight(grid, there, here) is None and not _covered(grid, there, here)
        for there, here in sight_lines(world, viewer, unit)
    )


def cannot_see(world: World, actor: str, target: str) -> Refusal | None:
    """**Decision** A creature cannot single out one it does not see (R-X8), nor one the water
    hides it from, or hides from it (R-M8 Decision: diving)."""
    if actor in unseen_by(world, target):
        return Refusal(f"{actor} cannot see {target}: it is Unseen by {actor} (R-X8)")
    if apart(world, actor, target):
        if submerged(world, target):
            return Refusal(f"{actor} cannot see {target}: it is under the water (R-M8)")
        return Refusal(
            f"{actor} is under the water and cannot see {target} out of it; swim up to the "
            "surface first (R-M8)"
        )
    return None


def seeing_foes(world: World, unit: str) -> tuple[str, ...]:
    """Opponents that still see `unit`."""
    hidden_from = unseen_by(world, unit)
    return tuple(o for o in enemies(world, unit) if o not in hidden_from)


def check_hide(world: World, action: Hide) -> Refusal | None:
    actor = action.actor
    if not enemies(world, actor):
        return Refusal(f"{actor} has no opponent to hide from (R-X8)")
    watchers = seeing_foes(world, actor)
    if not watchers:
        return Refusal(f"{actor} is already Unseen by every opponent (R-X8)")
    if all(in_plain_sight(world, actor, o) for o in watchers):
        return Refusal(
            f"{actor} is in plain sight of {', '.join(watchers)}: hiding needs cover terrain "
            "or no line of sight (R-X8)"
        )
    return None


def resolve_hide(world: World, action: Hide, dice: Dice) -> list[ev.Event]:
    actor = action.actor
    stealth = skill_check(world, dice, actor, "stealth", "hide: Stealth check", tag=RollKind.HIDE)
    out: list[ev.Event] = [stealth.rolled]
    beaten: list[str] = []
    for watcher in seeing_foes(world, actor):
        if in_plain_sight(world, actor, watcher):
            continue
        purpose = f"spot {actor}: Perception check"
        spot = skill_check(world, dice, watcher, "perception", purpose, tag=RollKind.SPOT)
        out.append(spot.rolled)
        if acting_wins(stealth.total, spot.total):  # R-C4: a tie goes to the watcher
            beaten.append(watcher)
    if beaten:
        hidden_from = set(unseen_by(world, actor)) | set(beaten)
        order = [c for c in creatures(world) if c in hidden_from]
        out.append(ev.ConditionGained(actor, Condition.UNSEEN, tuple(order)))
    return out


def revealed_by_move(world: World, unit: str) -> list[ev.Event]:
    """R-X8: a creature that ends a movement in an opponent's line of sight outside cover is
    seen by that opponent again."""
    hidden_from = unseen_by(world, unit)
    if not hidden_from:
        return []
    still = tuple(o for o in hidden_from if not in_plain_sight(world, unit, o))
    if still == hidden_from:
        return []
    if not still:
        return [ev.ConditionLost(unit, Condition.UNSEEN, "ended its move in plain sight (R-X8)")]
    return [ev.ConditionGained(unit, Condition.UNSEEN, still)]


def reveal(world: World, unit: str, why: str) -> list[ev.Event]:
    """**Decision** Unseen also ends when the creature shoves or feints: it shows itself."""
    if has(world, unit, Condition.UNSEEN):
        return [ev.ConditionLost(unit, Condition.UNSEEN, f"{why} (R-X8)")]
    return []
