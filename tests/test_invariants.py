"""Invariants under random play (DESIGN "Tests"; R-B2, R-B4, R-M5, R-T3): random decisions, legal
and illegal, never drive a budget negative, every refusal leaves the world exactly as it was,
and the same seed with the same decisions gives the same log."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.actions import Action, Refusal
from sim.catalog import default_catalog
from sim.components import Budget, Health, Item, Position
from sim.creature import creatures, incapacitated, lying
from sim.decisions import FIELDS, PARSERS, parse
from sim.engine import Accepted, AwaitingReaction, Battle
from sim.events import Spent, to_json
from sim.scenario import loads
from sim.world import World
from tests.helpers import give, scenario_text, seeded_battle, unit

# The shipped skirmish's ford, with a medic and an elf who carries a quickening draught, and
# a rope on the ground to pick up.
TEXT = scenario_text(
    """
    ##############
    #....,,,.....#
    #.a..,,,...c.#
    #....~~~.r...#
    #.b..~~~...d.#
    #....,,,.....#
    ##############
    """,
    "\n".join(
        [
            unit("ana", "blue", "human_fighter", "a"),
            unit("mira", "blue", "halfling_medic", "b"),
            unit("grok", "red", "orc_brute", "c", policy="ask"),
            unit("sly", "red", "elf_skirmisher", "d", hp=6, policy="never"),
        ]
    ),
    extra='[[items]]\nkind = "rope"\nat = "r"\n',
)
_WORLD = loads(TEXT).world
UNITS = creatures(_WORLD)
ITEM_IDS = tuple(item for item, _ in _WORLD.each(Item))
ITEM_REFS = (*ITEM_IDS, *sorted(default_catalog().equipment), "nothing")
ABILITY_REFS = (*default_catalog().abilities, "nothing")  # for cast and use (R-X20)
CURRENT = "<whose turn it is>"

# Weighted so that about half the decisions come from whoever's turn it is, and turns pass.
who = st.sampled_from((CURRENT,) * 6 + (*UNITS, "zed", "ana.longsword"))
actions = st.sampled_from(("end_turn",) * 4 + tuple(sorted(PARSERS)))
flag = st.sampled_from((False, False, False, True))
cells = st.tuples(st.integers(-1, _WORLD.grid.width), st.integers(-1, _WORLD.grid.height))
targets = st.sampled_from((*UNITS, "zed"))
decisions = st.lists(
    st.tuples(who, actions, st.sampled_from(ITEM_REFS), cells, flag, flag, targets),
    min_size=1,
    max_size=60,
)
setup = st.lists(
    st.tuples(
        st.sampled_from(UNITS),
        st.sampled_from(("bleeding", "burning", "quickened", "prone")),
        st.integers(1, 4),
    ),
    max_size=3,
)


Choice = tuple[str, str, str, tuple[int, int], bool, bool, str]


def as_json(b: Battle, choice: Choice) -> dict[str, Any]:
    """A script line for one random choice; CURRENT becomes whoever's turn it is, or, while a
    reaction window is open, the creature it waits for, answering with a random option."""
    actor, name, item, cell, slow, quicken, target = choice
    pending = b.pending
    if actor == CURRENT and isinstance(pending, AwaitingReaction):
        options = (*pending.options, "nonsense")
        answer = {"unit": pending.unit, "reaction": options[len(item) % len(options)]}
        return {**answer, "slow": True} if slow else answer  # R-B7: slowed, payable or not
    obj: dict[str, Any] = {"unit": (b.world.turn.current or "ana") if actor == CURRENT else actor}
    obj["action"] = name
    if "item" in FIELDS[name]:
        obj["item"] = item
    if "to" in FIELDS[name]:
        obj["to"] = list(cell)
    if "target" in FIELDS[name]:
        obj["target"] = target
    if "ally" in FIELDS[name]:  # Assist (R-X21)
        obj["ally"] = target
        obj["enemy"] = UNITS[len(item) % len(UNITS)]
    for key in ("spell", "ability"):
        if key in FIELDS[name]:
            obj[key] = ABILITY_REFS[len(item) % len(ABILITY_REFS)]
    if name == "prepare":
        # R-P2: a trigger the engine can check, with an attack or a move ready.
        triggers = ("enemy_within", "enters_area", "starts_action", "ends_turn")
        obj["trigger"] = triggers[len(item) % len(triggers)]
        obj["metres"] = 1 + len(item) % 4
        obj["cells"] = [list(cell)]
        obj["watch"] = target
        then = {"action": "attack", "target": target} if len(item) % 2 else {"action": "aim"}
        obj["then"] = then
    if slow:
        obj["slow"] = True
    if quicken:
        obj["quicken"] = True
    return obj


def assert_invariants(world: World) -> None:
    rules = world.rules
    standing: dict[Any, str] = {}
    for uid in creatures(world):
        left = world.need(uid, Budget)
        assert 0 <= left.half <= rules.half_actions, (uid, left)  # R-B2, R-B4
        assert 0 <= left.bonus <= rules.bonus_actions, (uid, left)
        health = world.need(uid, Health)
        assert health.hp <= health.max_hp
        if health.hp <= 0:
            assert incapacitated(world, uid), f"{uid} is at {health.hp} HP but acts on (R-C6)"
        if not lying(world, uid):  # Prone or Incapacitated: down, sharing is allowed
            cell = world.need(uid, Position).cell
            assert cell not in standing, f"{uid} and {standing[cell]} both stand in {cell} (R-M5)"
            standing[cell] = uid
    current = world.turn.current
    if current is not None:
        assert not incapacitated(world, current), "an Incapacitated creature has the turn (R-K2)"


def play(
    seed: int, gives: list[tuple[str, str, int]], choices: list[Choice]
) -> tuple[Battle, list[dict[str, Any]]]:
    """Play random choices, checking the invariants after each; the battle and the script."""
    b = seeded_battle(TEXT, seed)
    for uid, condition, value in gives:
        give(b, uid, condition, value)
    script: list[dict[str, Any]] = []
    for choice in choices:
        obj = as_json(b, choice)
        decision = parse(obj)
        before = b.world.copy()
        logged = len(b.log)
        cost = b.check(decision) if isinstance(decision, Action) else None
        assert b.world == before, "check() changed the world"
        outcome = b.submit(decision)
        if isinstance(outcome, Refusal):
            assert b.world == before, f"refused {obj} ({outcome.reason}) but the world changed"
            assert len(b.log) == logged
            assert outcome.reason
            assert cost in (None, outcome), "check() and submit() disagree"
        else:
            assert isinstance(outcome, Accepted)
            assert not isinstance(cost, Refusal), f"check() refused what submit() took: {cost}"
            assert list(outcome.events) == b.log[logged:]
            paid = [
                e for e in outcome.events if isinstance(e, Spent) and e.action == obj.get("action")
            ]
            if paid and cost is not None:
                assert (paid[0].half, paid[0].bonus) == (cost.half, cost.bonus)
        assert_invariants(b.world)
        script.append(obj)
    return b, script


@settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), gives=setup, choices=decisions)
def test_random_play_keeps_budgets_whole_and_refusals_change_nothing(
    seed: int, gives: list[tuple[str, str, int]], choices: list[Choice]
) -> None:
    """R-B4: a refused decision changes nothing, ever; R-B2: no budget goes below 0 or above a
    turn's worth; R-M5: never two standing creatures in one cell. Decisions are random: every
    action the parser knows, any unit (out of turn, unknown, an item's id), random items and
    random Slow/Quicken flags, on a battle where some creatures start burning or bleeding."""
    play(seed, gives, choices)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), gives=setup, choices=decisions)
def test_the_same_seed_and_decisions_give_the_same_log(
    seed: int, gives: list[tuple[str, str, int]], choices: list[Choice]
) -> None:
    """DESIGN "Determinism": two battles with the same seed and the same decisions give the
    same event log and the same world."""
    first, script = play(seed, gives, choices)
    again = seeded_battle(TEXT, seed)
    for uid, condition, value in gives:
        give(again, uid, condition, value)
    for obj in script:
        again.submit(parse(obj))
    assert [to_json(e) for e in again.log] == [to_json(e) for e in first.log]
    assert again.world == first.world
