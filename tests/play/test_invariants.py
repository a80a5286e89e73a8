"""Invariants under random play (DESIGN "Tests"; R-B2, R-B4, R-M5, R-T3): random decisions, legal
and illegal, never drive a budget negative, never leave two standing creatures in one cell,
every refusal leaves the world exactly as it was, and the same seed with the same decisions
gives the same log; on a test map and on every shipped scenario.

Most decisions (LEGAL_SHARE) are drawn from `legal_decisions` (sim/play/legal.py), so that play gets
to attacks, grapples, reactions and the rest; each of those must be accepted. The others are
random script lines, mostly refused, to keep checking refusals. The kinds accepted are counted
and printed at the end."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.content.scenario import Scenario, load, loads
from sim.core.actions import Action, Refusal
from sim.core.catalog import default_catalog
from sim.core.components import Budget, Health, Item, Position
from sim.core.creature import creatures, incapacitated, lying
from sim.core.dice import SeededDice
from sim.core.events import Spent, to_json
from sim.core.geometry import Pos
from sim.formats.state import Passing, passing
from sim.play.decisions import FIELDS, PARSERS, parse
from sim.play.decisions import to_json as line_of
from sim.play.engine import REACTION_POLICIES, Accepted, AwaitingAction, AwaitingReaction, Battle
from sim.play.legal import legal_decisions
from tests.helpers import first_fast, give, led_by, random_play, scenario_text, seeded_battle, unit
from tests.legal_play import RULE_KINDS, Tally, draw, shown

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
ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "scenarios").glob("*.toml"))
CURRENT = -1  # "whoever's turn it is" (or, while a window is open, whoever it waits for)


@dataclass(frozen=True, slots=True)
class Cast:
    """What random choices are made of, for one scenario: its creatures, item references and
    map size. Choices are numbers, read against the cast, so one strategy serves every map."""

    scenario: Scenario
    units: tuple[str, ...]
    item_refs: tuple[str, ...]
    width: int
    height: int

    @classmethod
    def of(cls, scenario: Scenario) -> Cast:
        world = scenario.world
        items = tuple(item for item, _ in world.each(Item))
        return cls(
            scenario,
            creatures(world),
            (*items, *sorted(default_catalog().equipment), "nothing"),
            world.grid.width,
            world.grid.height,
        )

    def actor(self, who: int) -> str | None:
        """CURRENT about half the time; else any unit, an unknown one or an item's id."""
        if who < 60:
            return None
        names = (*self.units, "zed", *self.item_refs[:1])
        return names[who % len(names)]

    def target(self, index: int) -> str:
        return (*self.units, "zed")[index % (len(self.units) + 1)]

    def cell(self, raw: tuple[int, int], near: Pos | None) -> list[int]:
        """Half the time a cell within 4 of `near` (the actor's cell: a move it might make),
        else any cell of the map or one step off it."""
        x, y = raw
        if near is not None and x < 32:
            return [near.x + x % 9 - 4, near.y + y % 9 - 4]
        return [x % (self.width + 2) - 1, y % (self.height + 2) - 1]


def begin(cast: Cast, seed: int) -> Battle:
    scenario = cast.scenario
    return scenario.begin(SeededDice(seed), seed)


FORD = Cast.of(loads(TEXT, "test.toml"))
ABILITY_REFS = (*default_catalog().abilities, "nothing")  # for cast and use (R-X20)

# Of every hundred decisions, this many are drawn from legal_decisions; the rest are random.
LEGAL_SHARE = 85
TALLY = Tally()  # what random play accepted, over every test below (printed at the end)

# Weighted so that about half the decisions come from whoever's turn it is, and turns pass.
who = st.integers(0, 119)
pick = st.integers(0, 99)  # below LEGAL_SHARE: a listed decision
actions = st.sampled_from(("end_turn",) * 4 + tuple(sorted(PARSERS)))
flag = st.sampled_from((False, False, False, True))
cells = st.tuples(st.integers(0, 63), st.integers(0, 63))
decisions = st.lists(
    st.tuples(who, actions, st.integers(0, 999), cells, flag, flag, st.integers(0, 99), pick),
    min_size=1,
    max_size=60,
)
# On the shipped maps moves come often (to pass through allies and out of enemies' reach) and
# games run longer.
MOVES = ("walk", "run", "step", "sprint", "crawl", "jump")
moving_decisions = st.lists(
    st.tuples(
        who,
        st.sampled_from(("end_turn",) * 4 + tuple(sorted(PARSERS)) + MOVES * 4),
        st.integers(0, 999),
        cells,
        flag,
        flag,
        st.integers(0, 99),
        pick,
    ),
    min_size=10,
    max_size=80,
)
setup = st.lists(
    st.tuples(
        st.integers(0, 99),
        st.sampled_from(("bleeding", "burning", "quickened", "prone")),
        st.integers(1, 4),
    ),
    max_size=3,
)
policies = st.lists(st.sampled_from(REACTION_POLICIES), min_size=12, max_size=12)


Choice = tuple[int, str, int, tuple[int, int], bool, bool, int, int]
Gift = tuple[int, str, int]


def as_json(b: Battle, choice: Choice, cast: Cast = FORD) -> dict[str, Any]:
    """A script line for one random choice; CURRENT becomes whoever's turn it is, or, while a
    reaction window is open, the creature it waits for, answering with a random option."""
    who_index, name, item_index, raw_cell, slow, quicken, target_index, _ = choice
    actor = cast.actor(who_index)
    item = cast.item_refs[item_index % len(cast.item_refs)]
    target = cast.target(target_index)
    pending = b.pending
    if actor is None and isinstance(pending, AwaitingReaction):
        options = (*pending.options, "nonsense")
        answer = {"unit": pending.unit, "reaction": options[item_index % len(options)]}
        return {**answer, "slow": True} if slow else answer  # R-B7: slowed, payable or not
    uid = (b.world.turn.current or cast.units[0]) if actor is None else actor
    at = b.world.get(uid, Position) if b.world.exists(uid) else None
    cell = cast.cell(raw_cell, at.cell if at is not None else None)
    obj: dict[str, Any] = {"unit": uid}
    obj["action"] = name
    if "item" in FIELDS[name]:
        obj["item"] = item
    if "to" in FIELDS[name]:
        obj["to"] = cell
    if "target" in FIELDS[name]:
        obj["target"] = target
    if "ally" in FIELDS[name]:  # Assist (R-X21)
        obj["ally"] = target
        obj["enemy"] = cast.target(item_index)
    for key in ("spell", "ability"):
        if key in FIELDS[name]:
            obj[key] = ABILITY_REFS[item_index % len(ABILITY_REFS)]
    if name == "prepare":
        # R-P2: a trigger the engine can check, with an attack or a move ready.
        triggers = ("enemy_within", "enters_area", "starts_action", "ends_turn")
        obj["trigger"] = triggers[item_index % len(triggers)]
        obj["metres"] = 1 + item_index % 4
        obj["cells"] = [cell]
        obj["watch"] = target
        then = {"action": "attack", "target": target} if item_index % 2 else {"action": "aim"}
        obj["then"] = then
    if slow:
        obj["slow"] = True
    if quicken:
        obj["quicken"] = True
    return obj


def assert_invariants(battle: Battle) -> None:
    """R-B2, R-B4: budgets within a turn's worth; R-C6: HP at most the maximum, Incapacitated at
    0; R-K2: an Incapacitated creature never has the turn; R-M5: never two standing creatures in
    one cell (Prone and Incapacitated ones are down and may share), except a mover passing
    through its allies while its move waits at a reaction window (R-M5 **Decision**, R-R4)."""
    world = battle.world
    rules = world.rules
    move = passing(battle)
    standing: dict[Any, str] = {}
    for uid in creatures(world):
        left = world.need(uid, Budget)
        assert 0 <= left.half <= rules.budget.half_actions, (uid, left)  # R-B2, R-B4
        assert 0 <= left.bonus <= rules.budget.bonus_actions, (uid, left)
        health = world.need(uid, Health)
        assert health.hp <= health.max_hp
        if health.hp <= 0:
            assert incapacitated(world, uid), f"{uid} is at {health.hp} HP but acts on (R-C6)"
        if lying(world, uid):  # Prone or Incapacitated: down, sharing is allowed
            continue
        cell = world.need(uid, Position).cell
        other = standing.get(cell)
        if other is None:
            standing[cell] = uid
            continue
        passing_by = move is not None and (
            (move.unit == uid and other in move.through)
            or (move.unit == other and uid in move.through)
        )
        assert passing_by, f"{uid} and {other} both stand in {cell} (R-M5)"
    if move is not None:
        assert move.cell != move.to or not move.through, (
            f"{move.unit}'s move waits at its end, {move.cell}, on {move.through} (R-M5)"
        )
    current = world.turn.current
    if current is not None:
        assert not incapacitated(world, current), "an Incapacitated creature has the turn (R-K2)"


def play(
    seed: int,
    gives: list[Gift],
    choices: list[Choice],
    cast: Cast = FORD,
    reactions: list[str] | None = None,
) -> tuple[Battle, list[dict[str, Any]]]:
    """Play random choices, checking the invariants after each; the battle and the script.
    A choice is a decision drawn from `legal_decisions` (which must be accepted, and whose
    script line must read back as itself) or, one in seven or so, a random script line.
    `gives` are conditions given at the start; `reactions`, policies set first (a script's
    policy lines, so they replay)."""
    b = begin(cast, seed)
    for index, condition, value in gives:
        give(b, cast.units[index % len(cast.units)], condition, value)
    script: list[dict[str, Any]] = []
    for uid, policy in zip(cast.units, reactions or [], strict=False):
        obj = {"unit": uid, "policy": policy}
        assert isinstance(b.submit(parse(obj)), Accepted)
        script.append(obj)
    assert_invariants(b)
    for choice in choices:
        pending = b.pending
        listed = legal_decisions(b, slowed=choice[4]) if choice[-1] < LEGAL_SHARE else ()
        if listed:
            # The choice's numbers steer the draw, so hypothesis replays and shrinks it.
            drawn = draw(b, listed, random.Random(repr(choice))).decision
            obj = line_of(drawn)
            assert parse(obj) == drawn, f"{obj} reads back as {parse(obj)}, not {drawn}"
        else:
            obj = as_json(b, choice, cast)
        decision = parse(obj)
        before = b.world.copy()
        logged = len(b.log)
        cost = b.check(decision) if isinstance(decision, Action) else None
        assert b.world == before, "check() changed the world"
        outcome = b.submit(decision)
        if listed and isinstance(outcome, Refusal):
            pytest.fail(
                f"legal_decisions listed {shown(decision)}, but submit refused it: {outcome.reason}"
            )
        if not listed:
            TALLY.tried += 1
            TALLY.refused += isinstance(outcome, Refusal)
        if not isinstance(outcome, Refusal):
            TALLY.took(pending, decision)
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
        assert_invariants(b)
        script.append(obj)
    return b, script


def replayed(cast: Cast, seed: int, gives: list[Gift], script: list[dict[str, Any]]) -> Battle:
    again = begin(cast, seed)
    for index, condition, value in gives:
        give(again, cast.units[index % len(cast.units)], condition, value)
    for obj in script:
        again.submit(parse(obj))
    return again


@random_play(75)
@given(seed=st.integers(0, 2**16), gives=setup, choices=decisions)
def test_random_play_keeps_budgets_whole_and_refusals_change_nothing(
    seed: int, gives: list[Gift], choices: list[Choice]
) -> None:
    """R-B4: a refused decision changes nothing, ever; R-B2: no budget goes below 0 or above a
    turn's worth; R-M5: never two standing creatures in one cell. Decisions are drawn from
    legal_decisions, or random: every action the parser knows, any unit (out of turn, unknown,
    an item's id), random items and random Slow/Quicken flags, on a battle where some creatures
    start burning or bleeding."""
    play(seed, gives, choices)


@random_play(50)
@given(seed=st.integers(0, 2**16), gives=setup, choices=decisions)
def test_the_same_seed_and_decisions_give_the_same_log(
    seed: int, gives: list[Gift], choices: list[Choice]
) -> None:
    """DESIGN "Determinism": two battles with the same seed and the same decisions give the
    same event log and the same world."""
    first, script = play(seed, gives, choices)
    again = replayed(FORD, seed, gives, script)
    assert [to_json(e) for e in again.log] == [to_json(e) for e in first.log]
    assert again.world == first.world


CASTS = {path.name: Cast.of(load(path)) for path in SHIPPED}


@pytest.mark.parametrize("name", first_fast(led_by(sorted(CASTS), "ogre_ford.toml")))
# Fewer examples than the test map's: most decisions are legal and play on, so each example
# goes farther (and costs more) than one of mostly refused decisions.
@random_play(25)
@given(seed=st.integers(0, 2**16), gives=setup, choices=moving_decisions, reactions=policies)
def test_random_play_on_every_shipped_scenario_keeps_the_invariants(
    name: str, seed: int, gives: list[Gift], choices: list[Choice], reactions: list[str]
) -> None:
    """The same random play on each map in scenarios/, with random reaction policies (so
    moves and attacks wait at windows a player answers), and the same log when replayed."""
    cast = CASTS[name]
    first, script = play(seed, gives, choices, cast, reactions)
    again = replayed(cast, seed, gives, script)
    assert [to_json(e) for e in again.log] == [to_json(e) for e in first.log]
    assert again.world == first.world


def test_every_shipped_scenario_is_played_at_random() -> None:
    """A scenario added to scenarios/ is played by the test above without being listed."""
    assert sorted(CASTS) == sorted(p.name for p in (ROOT / "scenarios").glob("*.toml"))
    assert len(CASTS) >= 6


# --- the invariant itself --------------------------------------------------------------------

PASSING = scenario_text(
    """
    ########
    #.ab...#
    #.g....#
    ########
    """,
    "\n".join(
        [
            unit("ana", "blue", "human_fighter", "a"),
            unit("bram", "blue", "human_archer", "b"),
            unit("grok", "red", "orc_brute", "g", policy="ask"),
        ]
    ),
)


def paused_in_bram(b: Battle) -> None:
    """Ana walks east through bram's cell; leaving it leaves grok's reach, and grok's player
    is asked about an Attack of Opportunity while ana is still in bram's cell (R-R4, R-R8)."""
    while b.pending != AwaitingAction("ana"):
        pending = b.pending
        assert isinstance(pending, AwaitingAction)
        b.submit(parse({"unit": pending.unit, "action": "end_turn"}))
    b.submit(parse({"unit": "ana", "action": "walk", "path": [[3, 1], [4, 1]]}))
    assert isinstance(b.pending, AwaitingReaction)
    assert b.pending.unit == "grok" and b.pending.kind == "attack_of_opportunity"


def test_a_mover_waiting_in_an_allys_cell_is_passing_through_it() -> None:
    """R-M5 **Decision**: a creature moves through allies. While the move waits at a reaction
    window in an ally's cell, both stand there and the invariant holds: the mover is passing
    through; once the move goes on, it ends in a cell of its own."""
    b = seeded_battle(PASSING, 1)
    paused_in_bram(b)
    world = b.world
    assert world.need("ana", Position).cell == world.need("bram", Position).cell == Pos(3, 1)
    move = passing(b)
    assert move == Passing("ana", "walk", Pos(3, 1), Pos(4, 1), ("bram",))
    assert_invariants(b)
    b.submit(parse({"unit": "grok", "reaction": "none"}))
    assert world.need("ana", Position).cell == Pos(4, 1)
    assert passing(b) is None
    assert_invariants(b)


def test_the_invariant_fails_where_two_creatures_stand_in_one_cell() -> None:
    """The check can fail: bram set down in ana's cell (no move under way), or an enemy in a
    paused mover's cell, is two standing creatures in one cell; Prone, bram may share it."""
    b = seeded_battle(PASSING, 1)
    ana = b.world.need("ana", Position)
    b.world.set("bram", replace(b.world.need("bram", Position), cell=ana.cell))
    with pytest.raises(AssertionError, match=r"both stand in \(2, ?1\) \(R-M5\)|both stand in"):
        assert_invariants(b)
    give(b, "bram", "prone")
    assert_invariants(b)

    b = seeded_battle(PASSING, 1)
    paused_in_bram(b)
    b.world.set("grok", replace(b.world.need("grok", Position), cell=Pos(3, 1)))
    with pytest.raises(AssertionError, match="both stand in"):
        assert_invariants(b)


# --- what random play exercised ----------------------------------------------------------------


@pytest.mark.slow
def test_what_random_play_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    """Runs after the random-play tests above (pytest keeps file order): the kinds of decision
    they accepted, printed; drawn mostly from legal_decisions, they are far more than ending
    turns and taking stances: attacks, contests and reactions among them."""
    if not TALLY.kinds:
        pytest.skip("run with the random-play tests above")
    with capsys.disabled():
        print(f"\nrandom play of the invariant tests:\n{TALLY.report()}")
    for kind in ("attack", "shove", "grapple", "walk", "reaction:none"):
        assert TALLY.kinds[kind] > 0, f"random play never had accepted {kind}"
    assert len(TALLY.kinds) >= len(RULE_KINDS) // 2, sorted(TALLY.kinds)
