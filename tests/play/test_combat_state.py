"""A hypothesis state machine plays random legal and illegal decisions in the shipped brawl
scenario (grapple, shove, throw, catch, reactions) and checks after every one of them:
budgets never negative (R-B2, R-B4), never two standing creatures in one cell (R-M5), hit
points never above their maximum (R-C6), a refused decision leaves the world as it was, and
at the end, the same seed and decisions give the same log (DESIGN "Randomness and replay")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from sim.content.scenario import load
from sim.core.actions import Refusal
from sim.core.components import Item
from sim.core.creature import creatures
from sim.core.dice import SeededDice
from sim.core.events import to_json
from sim.play.decisions import FIELDS, PARSERS, DecisionError, parse
from sim.play.engine import AwaitingAction, AwaitingReaction, Battle
from tests.play.test_invariants import assert_invariants

BRAWL = Path(__file__).resolve().parents[2] / "scenarios" / "brawl.toml"
_SCENARIO = load(BRAWL)
UNITS = creatures(_SCENARIO.world)
ITEMS = (*(item for item, _ in _SCENARIO.world.each(Item)), "dagger", "javelin", "nothing")
COMBAT = (
    "attack", "grapple", "break_free", "release", "shove", "throw", "toss", "trip", "disarm",
    "feint", "disengage", "walk", "step", "run", "stand_up", "draw", "drop",
)  # fmt: skip
NAMES = tuple(sorted(PARSERS)) + COMBAT * 2 + ("end_turn",) * 6


def fresh(seed: int) -> Battle:
    scenario = load(BRAWL)
    return scenario.begin(SeededDice(seed), seed)


class Brawl(RuleBasedStateMachine):
    """Random play on the docks."""

    def __init__(self) -> None:
        super().__init__()
        self.seed = 0
        self.battle = fresh(0)
        self.script: list[dict[str, Any]] = []

    @initialize(seed=st.integers(0, 10_000))
    def begin(self, seed: int) -> None:
        self.seed = seed
        self.battle = fresh(seed)

    def _submit(self, obj: dict[str, Any]) -> None:
        try:
            decision = parse(obj)
        except DecisionError:
            return  # the parser refused it: nothing reached the engine
        before = self.battle.world.copy()
        logged = len(self.battle.log)
        outcome = self.battle.submit(decision)
        self.script.append(obj)
        if isinstance(outcome, Refusal):
            assert outcome.reason
            assert self.battle.world == before, f"refused {obj} ({outcome.reason}), world changed"
            assert len(self.battle.log) == logged

    @rule(
        mine=st.booleans(),
        who=st.sampled_from((*UNITS, "zed")),
        name=st.sampled_from(NAMES),
        item=st.sampled_from(ITEMS),
        foe=st.sampled_from((*UNITS, "zed")),
        cell=st.tuples(st.integers(-1, 14), st.integers(-1, 10)),
        slow=st.sampled_from((False, False, False, True)),
    )
    def act(
        self, mine: bool, who: str, name: str, item: str, foe: str,
        cell: tuple[int, int], slow: bool,
    ) -> None:  # fmt: skip
        pending = self.battle.pending
        if isinstance(pending, AwaitingReaction) and mine:
            options = (*pending.options, "nonsense")
            self._submit({"unit": pending.unit, "reaction": options[len(item) % len(options)]})
            return
        unit = (self.battle.world.turn.current or who) if mine else who
        obj: dict[str, Any] = {"unit": unit, "action": name}
        fields = FIELDS.get(name, set())
        if "item" in fields:
            obj["item"] = item
        if "target" in fields:
            obj["target"] = foe
        if "to" in fields and not (name == "toss" and len(item) % 2):
            obj["to"] = list(cell)
        if name == "toss" and "to" in obj:
            obj.pop("target", None)
        if name == "prepare":
            obj.update(trigger="enemy_within", metres=2, then={"action": "attack", "target": foe})
        for key in ("spell", "ability"):
            if key in fields:
                obj[key] = "firebolt"
        if slow:
            obj["slow"] = True
        self._submit(obj)

    @rule(who=st.sampled_from(UNITS), policy=st.sampled_from(("always", "ask", "never")))
    def set_policy(self, who: str, policy: str) -> None:
        self._submit({"unit": who, "policy": policy})

    @invariant()
    def whole(self) -> None:
        assert_invariants(self.battle)

    def teardown(self) -> None:
        again = fresh(self.seed)
        for obj in self.script:
            again.submit(parse(obj))
        assert [to_json(e) for e in again.log] == [to_json(e) for e in self.battle.log]
        assert again.world == self.battle.world


Brawl.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestBrawl = Brawl.TestCase


def test_a_dagger_thrown_by_its_kind_at_a_creature_that_may_parry_replays_the_same() -> None:
    """Found by the machine above (seed 660): mira throws "dagger", the kind she carries
    (R-X17), at ana, whose standing policy weighs a Parry of the throw (R-R2: a Parry answers
    any attack). The policy read the damage of an item called "dagger", which no item is
    called, and the battle stopped half-way; now it reads the dagger thrown, and the battle
    played again from its decisions is the same."""
    m = Brawl()
    m.begin(660)
    m.act(mine=True, who="ana", name="end_turn", item="nothing", foe="ana", cell=(0, 0), slow=False)
    assert m.battle.pending == AwaitingAction("mira")
    m.act(mine=True, who="ana", name="throw", item="dagger", foe="ana", cell=(0, 0), slow=False)
    assert any(getattr(e, "action", "") == "throw" for e in m.battle.log)
    m.teardown()
