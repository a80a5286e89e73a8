"""Random play drawn from `legal_decisions` (sim/play/legal.py), shared by the random-play tests:
how a decision is picked from the list, what kind of the rules it is, and the tally of what play
took.

Every action of the rules (sim/play/decisions.py's ALL_ACTION_NAMES) and every reaction (the spends
sim/rules/combat/prepare.py counts as reactions, and declining) is a kind; Slow, Quicken and diving
are variants of a kind, tallied beside it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from sim.core import actions as a
from sim.core.actions import Cost
from sim.core.components import Budget, ExtendedAction, Item, Position
from sim.core.creature import creatures, team_of
from sim.core.geometry import Pos
from sim.play.decisions import ALL_ACTION_NAMES, FIELDS, PARSERS, to_json
from sim.play.engine import (
    AwaitingAction,
    AwaitingReaction,
    Battle,
    Decision,
    Pending,
    ReactionChoice,
)
from sim.play.legal import Legal
from sim.play.rulebook import RULEBOOK
from sim.rules.budget import refilled
from sim.rules.combat.prepare import REACTION_SPENDS, TRIGGERS
from sim.rules.combat.reactions import NONE, reaction_name
from sim.rules.reach.reachmap import ORDER, reach_map

# Every kind of decision the rules have: each action, each reaction, and declining one.
RULE_KINDS: tuple[str, ...] = (
    *ALL_ACTION_NAMES,
    *(f"reaction:{name}" for name in (*REACTION_SPENDS, NONE)),
)
VARIANTS = ("slowed", "quickened", "submerged")


def kind_of(pending: Pending, decision: Decision) -> str:
    """The kind of the rules `decision` is: an action's name, or "reaction:" and what the
    reaction spends on ("dodge", "attack_of_opportunity"...) or "none"."""
    if isinstance(decision, ReactionChoice):
        assert isinstance(pending, AwaitingReaction)
        if decision.choice == NONE:
            return f"reaction:{NONE}"
        return f"reaction:{reaction_name(pending.kind, decision.choice)}"
    return str(getattr(decision, "name", type(decision).__name__))


def variants_of(decision: Decision) -> tuple[str, ...]:
    """Which of VARIANTS `decision` is: slowed (R-B6, R-B7), quickened (R-B6), a dive (R-M8)."""
    flags = (
        getattr(decision, "slow", False),
        getattr(decision, "quicken", False),
        getattr(decision, "submerged", False),
    )
    return tuple(name for name, on in zip(VARIANTS, flags, strict=True) if on)


def shape_of(pending: Pending, decision: Decision) -> str:
    """A kind with its variants: "walk", "dodge slowed", "swim submerged"."""
    return " ".join((kind_of(pending, decision), *variants_of(decision)))


def shown(decision: Decision) -> str:
    """A decision as its script line, for a failure message."""
    return str(to_json(decision))


@dataclass
class Tally:
    """What random play took: accepted decisions by kind and by variant, and how many random
    (mostly illegal) decisions were tried and refused."""

    kinds: Counter[str] = field(default_factory=Counter)
    variants: Counter[str] = field(default_factory=Counter)
    shapes: Counter[str] = field(default_factory=Counter)  # a kind with all its variants
    tried: int = 0
    refused: int = 0

    def took(self, pending: Pending, decision: Decision) -> None:
        kind = kind_of(pending, decision)
        self.kinds[kind] += 1
        self.shapes[shape_of(pending, decision)] += 1
        for variant in variants_of(decision):
            self.variants[f"{kind} {variant}"] += 1
            self.variants[variant] += 1

    def add(self, other: Tally) -> None:
        self.kinds.update(other.kinds)
        self.variants.update(other.variants)
        self.shapes.update(other.shapes)
        self.tried += other.tried
        self.refused += other.refused

    def report(self) -> str:
        lines = [
            "accepted decisions by kind: "
            + ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items())),
            "by variant: " + ", ".join(f"{k} {n}" for k, n in sorted(self.variants.items())),
            f"random decisions tried: {self.tried}, refused: {self.refused}",
        ]
        return "\n".join(lines)


# Kinds always at hand that would otherwise undo at once what play is after: dropping and
# stowing would empty every hand of the weapons and shields to attack, parry and block with,
# and letting go (free, at any time) would end every grapple before its target could try to
# break free. They are chosen seldom, and never as the kind taken least.
RARELY = {"drop": 0.25, "stow": 0.25, "release": 0.1}
NOVELTY = 0.7  # how often the kind, then the variant, taken least is chosen


def draw(
    battle: Battle, listed: tuple[Legal, ...], rng: random.Random, taken: Tally | None = None
) -> Legal:
    """One of `listed`, a kind first (moves would crowd out everything else), with a little
    steering so that games get somewhere and rare kinds get their turn: given `taken` (what
    was accepted so far), mostly (NOVELTY) the listed kind taken least, and of that kind the
    variant (plain, slowed...) taken least; turns run long
    enough to do things; at a turn's start
    a kind that takes the whole turn (a Full or Extended Action, a 1½ Action), which no later
    choice can pick, comes often; half the time the last Bonus Action is kept for a reaction
    (R-R8), so that windows open with options; moves close in on an enemy more often than not;
    and an Extended Action in progress is mostly left to run its turns (R-B5) so that armour
    comes off and goes back on."""
    pending = battle.pending
    if isinstance(pending, AwaitingAction) and rng.random() < 0.5:
        left = battle.world.need(pending.unit, Budget).bonus
        listed = (
            tuple(legal for legal in listed if legal.cost is None or legal.cost.bonus < left)
            or listed
        )
    kinds = sorted({kind_of(pending, legal.decision) for legal in listed})
    if isinstance(pending, AwaitingAction):
        world = battle.world
        rules = world.rules
        whole = sorted(
            {
                kind_of(pending, legal.decision)
                for legal in listed
                if legal.cost is not None
                and (legal.cost.half, legal.cost.bonus)
                == (rules.budget.half_actions, rules.budget.bonus_actions)
            }
        )
        if world.has(pending.unit, ExtendedAction) and rng.random() < 0.9:
            kinds = ["end_turn"]
        elif taken is not None and rng.random() < NOVELTY:
            kinds = _least(kinds, taken.kinds)
        elif whole and not world.need(pending.unit, Budget).acted and rng.random() < 0.5:
            kinds = whole
        elif len(kinds) > 1 and rng.random() < 0.7:
            kinds.remove("end_turn")
    elif taken is not None and rng.random() < NOVELTY:
        kinds = _least(kinds, taken.kinds)
    kind = rng.choices(kinds, [RARELY.get(k, 1.0) for k in kinds])[0]
    pool = [legal for legal in listed if kind_of(pending, legal.decision) == kind]
    if isinstance(pending, AwaitingAction) and rng.random() < 0.6:
        pool = _closing_in(battle, pending.unit, pool)
    if taken is not None and rng.random() < NOVELTY:
        fewest = min(taken.shapes[shape_of(pending, legal.decision)] for legal in pool)
        pool = [
            legal for legal in pool if taken.shapes[shape_of(pending, legal.decision)] == fewest
        ]
    return rng.choice(pool)


def _least(kinds: list[str], taken: Counter[str]) -> list[str]:
    """The kinds taken least so far (but never one of RARELY)."""
    usual = [kind for kind in kinds if kind not in RARELY] or kinds
    fewest = min(taken[kind] for kind in usual)
    return [kind for kind in usual if taken[kind] == fewest]


def _closing_in(battle: Battle, unit: str, pool: list[Legal]) -> list[Legal]:
    """The moves of `pool` that end nearest an enemy (all of `pool` when it holds no move)."""
    world = battle.world
    team = team_of(world, unit)
    foes = [world.need(c, Position).cell for c in creatures(world) if team_of(world, c) != team]
    ends = [(legal, getattr(legal.decision, "to", None)) for legal in pool]
    if not foes or any(not isinstance(to, Pos) for _, to in ends):
        return pool

    def gap(to: Pos) -> int:
        return min(max(abs(to.x - f.x), abs(to.y - f.y)) for f in foes)

    best = min(gap(to) for _, to in ends if to is not None)
    return [legal for legal, to in ends if to is not None and gap(to) == best]


def random_line(battle: Battle, rng: random.Random) -> dict[str, Any]:
    """A random script line, mostly one the battle refuses: any action the parser knows, by
    whoever's turn it is or by anyone (an unknown id too), at any creature, with any item, spell
    or cell near the actor, slowed or quickened now and then; in a reaction window mostly an
    answer, any option or a nonsense one, slowed or not."""
    world = battle.world
    units = creatures(world)
    pending = battle.pending
    if isinstance(pending, AwaitingReaction) and rng.random() < 0.8:
        who = pending.unit if rng.random() < 0.9 else rng.choice(units)
        answer: dict[str, Any] = {"unit": who, "reaction": rng.choice((*pending.options, "no"))}
        return {**answer, "slow": True} if rng.random() < 0.4 else answer
    current = world.turn.current
    unit = current if current is not None and rng.random() < 0.7 else rng.choice((*units, "zed"))
    name = rng.choice(sorted(PARSERS))
    fields = FIELDS[name]
    items = [item for item, _ in world.each(Item)] + sorted(world.catalog.equipment)
    target = rng.choice((*units, "zed"))
    line: dict[str, Any] = {"unit": unit, "action": name}
    here = world.need(unit, Position).cell if unit in units else Pos(0, 0)
    cell = [here.x + rng.randint(-4, 4), here.y + rng.randint(-4, 4)]
    for key, value in (
        ("item", rng.choice(items)),
        ("to", cell),
        ("target", target),
        ("ally", target),
        ("enemy", rng.choice(units)),
        ("spell", rng.choice((*world.catalog.abilities, "nothing"))),
        ("ability", rng.choice((*world.catalog.abilities, "nothing"))),
        ("submerged", rng.random() < 0.5),
    ):
        if key in fields:
            line[key] = value
    if name == "prepare":
        line["trigger"] = rng.choice(TRIGGERS)
        line["metres"] = rng.choice((0, 1.5, 3))
        line["cells"] = [cell]
        line["watch"] = target
        line["then"] = rng.choice(({"action": "attack", "target": target}, {"action": "aim"}))
    for flag in ("slow", "quicken"):
        if rng.random() < 0.2:
            line[flag] = True
    return line


Paid = list[tuple[tuple[bool, bool], Cost]]  # ((slow, quicken), its cost) of each variant paid


def moves_off_reach_maps(
    battle: Battle,
    unit: str,
    paid: Callable[[type[a.Movement]], Paid],
    quicken: bool,
    without: frozenset[type[a.Action]] = frozenset(),
) -> list[Legal]:
    """The moves but Climb as `legal_decisions` listed them before issue #15, the reference of
    the listing tests: a reach map of its own for each Movement Action of ORDER (and a dive),
    whose first cell, given by `to`, is put to the check; then every cell of it in row order
    for each variant `paid(kind)` gives (none: the kind is not listed)."""
    world = battle.world
    budget = refilled(world.rules) if world.has(unit, ExtendedAction) else None
    out: list[Legal] = []
    for kind in ORDER:
        if kind is a.Climb or kind in without:
            continue
        variants = paid(kind)
        if not variants:
            continue
        plain = any(shift == (False, False) for shift, _ in variants)
        paying = budget if plain else refilled(world.rules)
        for dive in (False, True) if kind is a.Swim else (False,):
            cells = reach_map(world, unit, (kind,), submerged=dive, quicken=quicken, budget=paying)
            first = next(iter(cells), None)
            if first is None or RULEBOOK[kind].check(world, move_to(kind, unit, first, dive)):
                continue
            for (slow, quick), cost in variants:
                out.extend(
                    Legal(replace(move_to(kind, unit, cell, dive), slow=slow, quicken=quick), cost)
                    for cell in cells
                )
    return out


def move_to(kind: type[a.Movement], unit: str, cell: Pos, dive: bool) -> a.Movement:
    """A move of `kind` to `cell`; a dive is a submerged Swim (R-M8)."""
    return a.Swim(unit, to=cell, submerged=True) if dive else kind(unit, to=cell)
