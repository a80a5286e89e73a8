"""Contests across sizes (R-Z4): Shove, Trip and Grapple against a creature two or more sizes
larger are refused; against one a size larger the smaller side's roll takes -5, against a
smaller one the larger side's roll gains +5."""

from __future__ import annotations

from sim.core.actions import Refusal
from sim.core.creature import side
from sim.core.world import World


def too_large(world: World, actor: str, target: str, word: str) -> Refusal | None:
    """R-Z4: a Shove, Trip or Grapple (`word`) at a creature `refused_gap` or more sizes larger
    than the actor is refused, with the sizes."""
    mine, theirs = side(world, actor), side(world, target)
    if theirs - mine >= world.rules.sizes.refused_gap:
        return Refusal(
            f"{target} is size {theirs}, {theirs - mine} sizes larger than {actor} (size "
            f"{mine}); it cannot {word} a creature that large (R-Z4)"
        )
    return None


def size_modifier(world: World, actor: str, other: str) -> int:
    """What sizes add to `actor`'s roll in a Shove, Trip or Grapple contest against `other`
    (R-Z4): -5 against one larger, +5 against one smaller (**Decision** +5 too against one two
    sizes smaller: the rule names no more), 0 between equals."""
    step = world.rules.sizes.contest_step
    difference = side(world, other) - side(world, actor)
    return -step if difference > 0 else step if difference < 0 else 0
