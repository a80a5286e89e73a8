"""Legal decisions (sim/play/legal.py, issue #12): random play on every shipped scenario that
submits mostly listed decisions, with every creature's reactions asked so that windows open too, and
a share of random (mostly illegal) decisions to keep checking refusals.

Every listed decision must be accepted at the cost listed (a refusal is a bug in
`legal_decisions`, and the failure names the decision and the refusal); a random decision the
battle accepts must be of a kind (and variant) that was listed; every kind of the rules (each
action of sim/play/decisions.py and each reaction) is accepted at least once across the shipped
scenarios, and the counts are printed."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from sim.content.scenario import load
from sim.core import actions as a
from sim.core.actions import Cost, Refusal
from sim.core.creature import creatures
from sim.core.events import Spent
from sim.core.numbers import Tier
from sim.formats.replay import begin
from sim.play.decisions import parse
from sim.play.decisions import to_json as line_of
from sim.play.engine import (
    Accepted,
    AwaitingAction,
    AwaitingReaction,
    Battle,
    BattleOver,
    ReactionChoice,
    SetPolicy,
)
from sim.play.legal import Legal, legal_decisions
from sim.rules.reach.reachmap import reach_map
from tests.helpers import (
    accept,
    accepted,
    battle,
    budget,
    conditions_of,
    end_turns,
    first_fast,
    give,
    led_by,
    scenario_text,
)
from tests.legal_play import (
    RULE_KINDS,
    VARIANTS,
    Tally,
    draw,
    random_line,
    shape_of,
    shown,
)
from tests.movers import begin as begin_on
from tests.movers import creature, legend

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml"))
SEEDS = (1, 2, 3, 4, 5)
STEPS = 200
RANDOM_SHARE = 0.15  # of the steps, a random decision instead of a listed one


def submit_listed(battle: Battle, legal: Legal, where: str) -> Accepted:
    """Submit a listed decision; it must be accepted, and an action must spend what was listed."""
    decision = legal.decision
    outcome = battle.submit(decision)
    if isinstance(outcome, Refusal):
        pytest.fail(
            f"{where}: legal_decisions listed {shown(decision)}, "
            f"but submit refused it: {outcome.reason}"
        )
    cost = legal.cost
    if isinstance(decision, a.Action) and cost is not None and not isinstance(decision, a.EndTurn):
        spent = next(
            e
            for e in outcome.events
            if isinstance(e, Spent) and e.unit == decision.actor and e.action == decision.name
        )
        assert (spent.half, spent.bonus) == (cost.half, cost.bonus), (
            f"{where}: {shown(decision)} was listed at {cost.half} half-actions and "
            f"{cost.bonus} Bonus Actions but spent {spent.half} and {spent.bonus}"
        )
    return outcome


def try_random(battle: Battle, rng: random.Random, tally: Tally, where: str) -> None:
    """A random decision: refused, it changes nothing; accepted, its kind and variant must have
    been listed (an answer to a window exactly: the options are few). A Slow or Quicken variant
    that costs what the plain action costs is listed as the plain one (sim/play/legal.py)."""
    listed = legal_decisions(battle)
    pending = battle.pending
    line = random_line(battle, rng)
    decision = parse(line)
    expected = shape_of(pending, decision)
    if isinstance(decision, a.Action) and (decision.slow or decision.quicken):
        plain = replace(decision, slow=False, quicken=False)
        cost = battle.check(decision)
        if cost == battle.check(plain) and getattr(cost, "tier", None) is not Tier.EXTENDED:
            expected = shape_of(pending, plain)
    before = battle.world.copy()
    logged = len(battle.log)
    tally.tried += 1
    outcome = battle.submit(decision)
    if isinstance(outcome, Refusal):
        assert outcome.reason
        assert battle.world == before, f"{where}: refused {line} but the world changed"
        assert len(battle.log) == logged
        tally.refused += 1
        return
    tally.took(pending, decision)
    if isinstance(decision, ReactionChoice):
        assert any(legal.decision == decision for legal in listed), (
            f"{where}: {line} was accepted but legal_decisions did not list it"
        )
    elif isinstance(pending, AwaitingAction) and getattr(decision, "actor", "") == pending.unit:
        shapes = {shape_of(pending, legal.decision) for legal in listed}
        assert expected in shapes, (
            f"{where}: {line} was accepted but legal_decisions listed no {expected}"
        )


@cache
def played(path: Path) -> Tally:
    """Random play of `path` from each seed; what it took."""
    scenario = load(path)
    tally = Tally()
    for seed in SEEDS:
        battle = begin(scenario, seed)
        for unit in creatures(battle.world):
            assert isinstance(battle.submit(SetPolicy(unit, "ask")), Accepted)
        rng = random.Random(f"{path.stem}:{seed}")
        for step in range(STEPS):
            pending = battle.pending
            if isinstance(pending, BattleOver):
                break
            where = f"{path.name}, seed {seed}, step {step}"
            if rng.random() < RANDOM_SHARE:
                try_random(battle, rng, tally, where)
                continue
            # Slowed reactions are rare (own turn only, R-B7): a window always lists them.
            slowed = isinstance(pending, AwaitingReaction) or rng.random() < 0.5
            listed = legal_decisions(battle, slowed=slowed)
            assert listed, f"{where}: nothing legal while waiting for {pending}"
            legal = draw(battle, listed, rng, tally)
            submit_listed(battle, legal, where)
            tally.took(pending, legal.decision)
            if isinstance(pending, AwaitingReaction):
                assert isinstance(legal.decision, ReactionChoice)
    return tally


@pytest.mark.parametrize("path", first_fast(led_by(SCENARIOS, "chasm")), ids=lambda p: p.stem)
def test_every_listed_decision_is_accepted(path: Path) -> None:
    tally = played(path)
    assert sum(tally.kinds.values()) > 0
    assert tally.refused > 0, "no random decision was refused: the refusals went unchecked"


@pytest.mark.slow
def test_every_kind_of_the_rules_is_accepted_on_the_shipped_scenarios(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Across the shipped scenarios random play accepts every action of the rules and every
    reaction at least once, and each variant (Slow, Quicken, a dive) of some action; the counts
    are printed. (A slowed reaction can be paid only on the reactor's own turn with a
    half-action left, R-B7, so random play meets few; they are counted, and shown listed and
    accepted by the transcript below.)"""
    total = Tally()
    for path in SCENARIOS:
        total.add(played(path))
    with capsys.disabled():
        print(f"\nrandom play on {len(SCENARIOS)} shipped scenarios:\n{total.report()}")
    unknown = sorted(set(total.kinds) - set(RULE_KINDS))
    assert not unknown, f"kinds of decision the rules do not name: {unknown}"
    missing = [kind for kind in RULE_KINDS if total.kinds[kind] == 0]
    assert not missing, f"random play never had accepted: {', '.join(missing)}"
    for variant in VARIANTS:
        assert total.variants[variant] > 0, f"random play never had accepted a {variant} action"


def test_a_listed_decision_that_submit_refuses_fails_the_test_naming_both() -> None:
    """A refusal of a listed decision is a bug in legal_decisions: the check fails and says
    which decision and why it was refused."""
    battle = begin(load(SCENARIOS[0]), 1)
    pending = battle.pending
    assert isinstance(pending, AwaitingAction)
    bogus = Legal(a.Attack(pending.unit, target="nobody"), None)
    with pytest.raises(pytest.fail.Exception) as failure:
        submit_listed(battle, bogus, "here")
    message = str(failure.value)
    assert f"legal_decisions listed {{'unit': '{pending.unit}', 'action': 'attack'" in message
    assert "'target': 'nobody'" in message
    assert "but submit refused it: there is no creature 'nobody' to attack" in message


# --- what is listed, as transcripts --------------------------------------------------------------


def lines(b: Battle, *, slowed: bool = True) -> list[dict[str, object]]:
    """The script lines of what `legal_decisions` lists now."""
    return [line_of(legal.decision) for legal in legal_decisions(b, slowed=slowed)]


def of_action(b: Battle, name: str) -> list[dict[str, object]]:
    return [line for line in lines(b) if line.get("action") == name]


DUEL = """
.........
.ab......
.........
"""


def test_R_B7_a_slowed_answer_is_listed_only_where_its_cost_can_be_paid() -> None:
    """R-B7: ana walks away from bob (½ Action) and his Attack of Opportunity comes on her own
    turn: she may Dodge, Dodge slowed (a ½ Action, from the half-action she has left) or let
    it come; the slowed Dodge is accepted. On bob's turn she has no half-actions: no slowed
    answer is listed. "none" is never slowed."""
    b = begin_on(
        DUEL,
        creature("ana", "blue", "a", policy="ask"),
        creature("bob", "red", "b", policy="always"),
        dice=(1, 2, 3, 6, 2, 3),
    )
    accepted(b, unit="ana", action="walk", path=[[0, 1]])
    assert lines(b) == [
        {"unit": "ana", "reaction": "dodge"},
        {"unit": "ana", "reaction": "none"},
        {"unit": "ana", "reaction": "dodge", "slow": True},
    ]
    assert lines(b, slowed=False) == lines(b)[:2]
    accepted(b, unit="ana", reaction="dodge", slow=True)
    end_turns(b, "ana")
    accepted(b, unit="bob", action="walk", to=[1, 1])
    accepted(b, unit="bob", action="attack", target="ana")
    assert lines(b) == [
        {"unit": "ana", "reaction": "interrupt"},
        {"unit": "ana", "reaction": "none"},
    ]
    accepted(b, unit="ana", reaction="none")
    assert lines(b) == [{"unit": "ana", "reaction": "dodge"}, {"unit": "ana", "reaction": "none"}]


FIELD = """
..........
.ag......z
.b.c......
"""


def test_R_X21_each_ally_and_enemy_pair_in_reach_is_listed_for_assist() -> None:
    """R-X21: bram (1,2) reaches his ally ana (1,1) and the enemy grok (2,1); cy (3,2) and zed
    (9,1) are out of his reach. Only "ana against grok" is listed, plain and slowed (a ½
    Action); once he has assisted her, no Assist is listed (once per ally per turn)."""
    b = begin_on(
        FIELD,
        creature("bram", "blue", "b"),
        creature("ana", "blue", "a"),
        creature("cy", "blue", "c"),
        creature("grok", "red", "g"),
        creature("zed", "red", "z"),
    )
    assert of_action(b, "assist") == [
        {"unit": "bram", "action": "assist", "ally": "ana", "enemy": "grok"},
        {"unit": "bram", "action": "assist", "ally": "ana", "enemy": "grok", "slow": True},
    ]
    accepted(b, unit="bram", action="assist", ally="ana", enemy="grok")
    assert of_action(b, "assist") == []


ALLIES = """
.ag.
.b..
"""


def test_R_X15_actions_the_rules_allow_at_an_ally_are_listed_at_allies() -> None:
    """A Shove can push a friend out of harm's way: bram may shove ana, his ally, as he may
    shove grok; Aid and Administer are listed for allies only, and here refused (nobody is
    hurt or down)."""
    b = begin_on(ALLIES, creature("bram", "blue", "b"), creature("ana", "blue", "a"),
              creature("grok", "red", "g"))  # fmt: skip
    shoves = [line["target"] for line in of_action(b, "shove") if "slow" not in line]
    assert shoves == ["ana", "grok"]
    assert of_action(b, "aid") == of_action(b, "administer") == []


POOL = """
.b....
.aWWF.
..WcW.
"""
POOL_LEGEND = legend(a={"water": 2.0}, W={"water": 2.0}, c={"water": 2.0}, F={"water": 1.0})


def test_R_M8_every_cell_of_the_dive_reach_map_is_listed_as_a_dive() -> None:
    """R-M8 Decision: ana swims in a 2 m pool; a dive (Swim submerged) goes only where the
    water is as deep as she is tall, so the 1 m ford (4,1) is listed for a Swim but not for a
    dive. Each dive cell is the dive reach map's (`sim reach --submerged`); one is accepted."""
    b = battle(
        scenario_text(
            POOL,
            "\n".join(
                [creature("ana", "blue", "a"), creature("bo", "red", "b"),
                 creature("cy", "red", "c")]
            ),
            POOL_LEGEND,
        ),
        [8, 7, 6],
    )  # fmt: skip
    give(b, "ana", "swimming")
    swims = [line for line in of_action(b, "swim") if "slow" not in line]
    dives = [line["to"] for line in swims if line.get("submerged")]
    assert dives == [[c.x, c.y] for c in reach_map(b.world, "ana", (a.Swim,), submerged=True)]
    assert [4, 1] in [line["to"] for line in swims if not line.get("submerged")]
    assert [4, 1] not in dives
    accepted(b, unit="ana", action="swim", to=dives[-1], submerged=True)
    assert conditions_of(b, "ana") == {"swimming": 1, "submerged": 1}


CLIFF = """
.....
.aCCC
.....
"""


def test_R_M7_a_climb_that_stops_part_way_is_listed_and_so_is_going_on_or_down() -> None:
    """R-M7: the 6 m face is more than ana's 4 m a Climb: the climb to (2,1) stops part-way,
    hanging, so it is in no reach map, but it is listed and accepted. Hanging, she is offered
    the climb on up to (2,1) and the climb back down to (1,1), and no other move but a Jump."""
    b = battle(
        scenario_text(CLIFF, creature("ana", "blue", "a", agi="d4+8"),
                      legend(C={"height": 6, "climbable": True})),
        [1],
    )  # fmt: skip
    climbs = [line["to"] for line in of_action(b, "climb") if "slow" not in line]
    assert climbs == [[2, 1]]
    accepted(b, unit="ana", action="climb", to=[2, 1])
    end_turns(b, "ana")
    climbs = [line["to"] for line in of_action(b, "climb") if "slow" not in line]
    assert climbs == [[2, 1], [1, 1]]
    moves = {line["action"] for line in lines(b) if "to" in line}
    assert moves <= {"climb", "jump"}


def test_R_B5_moves_are_listed_while_an_extended_action_runs() -> None:
    """R-B5: ana is doffing her mail (an Extended Action): her turn's budget went to it, but a
    move breaks it and is paid from the turn it gives back, so her moves are listed, priced as
    on a fresh turn, and a Walk is accepted (breaking the doffing)."""
    b = begin_on(DUEL, creature("ana", "blue", "a", armour="mail"), creature("bob", "red", "b"))
    accepted(b, unit="ana", action="doff")
    end_turns(b, "ana", "bob")
    assert budget(b, "ana") == (0, 0)
    walks = [
        legal for legal in legal_decisions(b, slowed=False) if isinstance(legal.decision, a.Walk)
    ]
    assert walks and all(legal.cost == Cost(Tier.HALF, 1, 0) for legal in walks)
    events = accept(b, walks[0].decision)
    assert "extended_broken" in [event["type"] for event in events]


def test_R_B6_a_quickened_variant_is_listed_where_it_costs_less() -> None:
    """R-B6: Quickened, ana may take a Walk (½ Action) as a Bonus Action and a Run (1 Action)
    as a ½ Action; an Aim is a Bonus Action either way, so no quickened Aim is listed. Slowed,
    a Walk is a 1 Action; ending the turn is never slowed or quickened."""
    b = begin_on(DUEL, creature("ana", "blue", "a"), creature("bob", "red", "b"))
    give(b, "ana", "quickened", 2)
    costs = {
        (type(legal.decision).__name__, legal.decision.slow, legal.decision.quicken): legal.cost
        for legal in legal_decisions(b)
        if isinstance(legal.decision, a.Walk | a.Run | a.Aim | a.EndTurn)
    }
    assert costs == {
        ("Walk", False, False): Cost(Tier.HALF, 1, 0),
        ("Walk", True, False): Cost(Tier.ONE, 2, 0),
        ("Walk", False, True): Cost(Tier.BONUS, 0, 1),
        ("Run", False, False): Cost(Tier.ONE, 2, 0),
        ("Run", True, False): Cost(Tier.ONE_AND_HALF, 2, 2),
        ("Run", False, True): Cost(Tier.HALF, 1, 0),
        ("Aim", False, False): Cost(Tier.BONUS, 0, 1),
        ("Aim", True, False): Cost(Tier.HALF, 1, 0),
        ("EndTurn", False, False): Cost(Tier.FREE, 0, 0, counts_as_action=False),
    }


ARMS = """
.........
.ag....z.
.b.......
"""


def plain_lines(b: Battle, name: str) -> list[dict[str, object]]:
    return [line for line in of_action(b, name) if "slow" not in line]


def test_R_A4_an_attack_or_trip_naming_the_weapon_it_would_use_anyway_is_listed_once() -> None:
    """Unnamed, ana's attack strikes with her longsword (the weapon `plan_attack` chooses), so
    "attack grok with the longsword" is that same decision and not listed again; with the
    dagger it is another, and is listed. Her trip is listed by weapon and not unnamed. bram
    holds only a shortbow: unnamed, his attack on grok beside him is a punch (R-A4 melee), his
    shortbow's a shot, both listed and both accepted as what they are; on zed, out of his
    reach, the unnamed attack is the shot, listed once. His trip is a punch's, unnamed."""
    b = begin_on(
        ARMS,
        creature("ana", "blue", "a", held=["longsword", "dagger"]),
        creature("bram", "blue", "b", held=["shortbow"]),
        creature("grok", "red", "g"),
        creature("zed", "red", "z"),
        dice=(5, 1, 5, 1),
    )
    on_grok = [line for line in plain_lines(b, "attack") if line["target"] == "grok"]
    assert on_grok == [
        {"unit": "ana", "action": "attack", "target": "grok"},
        {"unit": "ana", "action": "attack", "target": "grok", "weapon": "ana.dagger"},
    ]
    assert [line for line in plain_lines(b, "trip") if line["target"] == "grok"] == [
        {"unit": "ana", "action": "trip", "target": "grok", "weapon": "ana.longsword"},
        {"unit": "ana", "action": "trip", "target": "grok", "weapon": "ana.dagger"},
    ]
    end_turns(b, "ana")
    assert [line for line in plain_lines(b, "attack") if line["target"] != "ana"] == [
        {"unit": "bram", "action": "attack", "target": "grok"},
        {"unit": "bram", "action": "attack", "target": "grok", "weapon": "bram.shortbow"},
        {"unit": "bram", "action": "attack", "target": "zed"},
    ]
    assert [line for line in plain_lines(b, "trip") if line["target"] == "grok"] == [
        {"unit": "bram", "action": "trip", "target": "grok"},
    ]
    punch = accepted(b, unit="bram", action="attack", target="grok")
    shot = accepted(b, unit="bram", action="attack", target="grok", weapon="bram.shortbow")
    hit_rolls = [
        next(e["purpose"] for e in events if e["type"] == "rolled") for events in (punch, shot)
    ]
    assert hit_rolls == ["hit roll: melee attack on grok", "hit roll: ranged attack on grok"]
