"""`sim batch` (issue #13): AI games in bulk, one seed per game, records read from the event
log, a summary that is the same for any number of workers, kept games that replay, and every
bad argument refused before a game is played."""

from __future__ import annotations

import csv
import functools
import json
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sim.ai.seats import play as ai_play
from sim.cli.main import main
from sim.content.scenario import Scenario, load, loads
from sim.core.actions import Action, Attack, Refusal
from sim.core.condition import Condition
from sim.core.dice import LoadedDice
from sim.core.events import (
    AttackCounted,
    AttackResolved,
    ConditionGained,
    ConditionLost,
    Damaged,
    ReactionAnswered,
    TurnEnded,
    TurnStarted,
)
from sim.core.purpose import AttackKind
from sim.formats.replay import load_save
from sim.play.apply import apply
from sim.play.engine import Accepted, Battle, Decision, ReactionChoice
from sim.tools import batch
from sim.tools.batch import Chosen, GameRecord, Plan, UnitRecord, game_seed
from tests.helpers import accepted, end_turns, rating, scenario_text, wd
from tests.movers import begin, creature

# Two goblins 3 m apart: a game of normal against normal lasts a few rounds (~0.2 s).
DUEL = """name = "Goblin duel"
[map]
rows = \"\"\"
######
#a..b#
######
\"\"\"
[[units]]
id = "ana"
team = "blue"
template = "goblin_sneak"
at = "a"
[[units]]
id = "grok"
team = "red"
template = "goblin_sneak"
at = "b"
"""

OPEN = """
.........
.ab......
.........
"""


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL, encoding="utf-8")
    return path


def plan(scenario: Scenario, **keys: Any) -> Plan:
    return Plan(scenario, (("blue", "normal"), ("red", "normal")), **keys)


# The batch the pool tests below compare against: the duel's five games of seed 3, round cap 12,
# played once per process by one worker and by two (a batch of fewer is the first games of it).
SEED3 = plan(loads(DUEL, "duel.toml"), seed=3, round_cap=12)


@functools.cache
def seed3_games(workers: int) -> list[GameRecord]:
    return batch.run(SEED3, 5, workers=workers)


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main(["batch", *(str(a) for a in argv)])
    out, err = capsys.readouterr()
    return code, out, err


# --- records read from the event log -----------------------------------------------------------


def scripted_duel() -> tuple[Scenario, Battle]:
    """ana (unarmed, no reactions) and bob (a longsword, answers his own windows) side by side;
    initiative 8 and 7, so ana acts first."""
    units = [
        creature("ana", "blue", "a"),
        creature("bob", "red", "b", policy="ask", held=["longsword"]),
    ]
    scenario = loads(scenario_text(OPEN, "\n".join(units)), "duel.toml")
    dice = [8, 7]
    # ana's first attack: Hit Roll 8+6; bob parries: RES 1 + AGI (roll + 8) + the longsword's
    # Parry Rating, the AGI roll chosen so that the Defense Roll is 14 too (a tie: a miss).
    dice += [8, 1, 5 - rating("longsword")]
    dice += [1, 1]  # her second: 1+3 against bob's RES 1, undefended: a hit, 1 damage
    dice += [
        5,
        3,
    ]  # bob's first: 5+6 against ana's RES 3 (she has no reactions): the longsword's WD
    dice += [1, 10]  # his second: 1+3 against RES 10: a miss
    battle = scenario.begin(LoadedDice(dice))
    return scenario, battle


def test_first_attack_of_each_turn_is_counted_by_the_defence_its_target_chose() -> None:
    """R-A1's window resets at the start of a creature's turn, so the first Attack of a turn
    is the one counted 1 while it acts: ana's (bob parries: 14 against 14, a miss) and bob's
    (ana has no defence: a hit). The second attacks of both turns are not counted."""
    scenario, b = scripted_duel()
    accepted(b, unit="ana", action="attack", target="bob")
    accepted(b, unit="bob", reaction="none")  # no Interrupt (R-R7)
    accepted(b, unit="bob", reaction="parry")
    accepted(b, unit="ana", action="attack", target="bob")
    accepted(b, unit="bob", reaction="none")  # no defence this time: hit
    end_turns(b, "ana")
    accepted(b, unit="bob", action="attack", target="ana")
    accepted(b, unit="bob", action="attack", target="ana")
    assert list(batch.first_attacks(b.log)) == [("parry", False, False), ("none", True, False)]

    game = batch.read_game(0, 7, b.log, b.world, plan(scenario), capped=True)
    counts = {f.defence: (f.attacks, f.hits) for f in game.first_attacks}
    assert counts == {"none": (1, 1), "dodge": (0, 0), "parry": (1, 0), "block": (0, 0)}
    plain = {f.defence: (f.plain_attacks, f.plain_hits) for f in game.first_attacks}
    assert plain == counts  # neither used an Aim, a Feint or an Assist
    ana, bob = game.units
    # R-A3: unarmed WD 1 and a longsword's WD, neither wears armour.
    sword = wd("longsword")
    assert (ana.unit, ana.dealt, ana.taken, ana.hp_left, ana.survived) == (
        "ana", 1, sword, 15 - sword, True
    )  # fmt: skip
    assert (bob.unit, bob.dealt, bob.taken, bob.hp_left) == ("bob", sword, 1, 14)
    assert not ana.downed_first and not bob.downed_first
    # Still going when the round cap stopped it: capped, no winner, the cap as its length.
    assert (game.result, game.winners, game.rounds, game.ended_by) == (
        "capped",
        (),
        30,
        "round cap",
    )


def test_a_first_attack_with_an_aim_is_counted_but_not_plain() -> None:
    """R-X1: ana Aims, then shoots bob (a Hit Roll of 1+6+2 against his RES 10: a miss). The
    first attack of her turn is counted, and marked boosted, so it is left out of the plain
    first attacks (no Aim, Feint or Assist) that R-A2's bands are judged on."""
    rows = """
    ........
    .a....b.
    ........
    """
    b = begin(
        rows,
        creature("ana", "blue", "a", held=["shortbow"]),
        creature("bob", "red", "b"),
        dice=(1, 10),
    )
    accepted(b, unit="ana", action="aim")
    accepted(b, unit="ana", action="attack", target="bob")
    assert list(batch.first_attacks(b.log)) == [("none", False, True)]


def test_a_first_attack_on_a_braced_or_evading_target_is_counted_but_not_plain() -> None:
    """R-X3, R-X9: grok's Brace doubles his RES in every Defense Roll until his next turn, his
    Evade his AGI Bonus on his first Dodge. ana's first attacks through his braced Block and
    his evading Dodge are counted, and boosted (his tactic, not the templates' numbers); the
    one through his Parry once neither holds is plain."""

    def turn(defence: str, *during: Any) -> list[Any]:
        options = ("dodge", "parry", "block", "none")
        return [
            TurnStarted("ana", 1),
            AttackCounted("ana", 1),
            ReactionAnswered("grok", "defence", "ana attacks grok", options, defence, "player"),
            *during,
            AttackResolved("ana", "grok", "melee attack", 12, 20, False, tag=AttackKind.MELEE),
            TurnEnded("ana"),
        ]

    log = [
        TurnStarted("grok", 1),
        ConditionGained("grok", Condition.BRACED),
        TurnEnded("grok"),
        *turn("block"),
        TurnStarted("grok", 2),
        ConditionLost("grok", Condition.BRACED, "until its next turn"),
        ConditionGained("grok", Condition.EVADING),
        TurnEnded("grok"),
        *turn("dodge", ConditionLost("grok", Condition.EVADING, "its first Dodge (R-X9)")),
        *turn("parry"),
    ]
    assert list(batch.first_attacks(log)) == [
        ("block", False, True),
        ("dodge", False, True),
        ("parry", False, False),
    ]


def test_an_attack_on_an_incapacitated_creature_measures_no_defence() -> None:
    """R-A2: its Defense Roll is 0; such an attack is left out of the hit rates."""
    _, b = scripted_duel()
    apply(b.world, ConditionGained("bob", Condition.INCAPACITATED))
    accepted(b, unit="ana", action="attack", target="bob")
    assert list(batch.first_attacks(b.log)) == []


def test_damage_is_dealt_by_the_creature_its_event_tags() -> None:
    """Issue #28: a Damaged event's `dealer` says whose damage it was, whatever its words; a
    fall or a bleeding is nobody's."""
    scenario, b = scripted_duel()
    log = [
        Damaged("bob", 3, "slashing", "ana's longsword", 12, dealer="ana"),
        Damaged("ana", 4, "fire", "a firebolt", 11, dealer="bob"),  # words naming nobody
        Damaged("ana", 2, "crushing", "bob's fall", 9, dealer=None),  # words naming bob
        Damaged("bob", 1, "bleeding", "bleeding", 11, dealer=None),
    ]
    game = batch.read_game(0, 1, log, b.world, plan(scenario), capped=True)
    dealt = {u.unit: (u.dealt, u.taken) for u in game.units}
    assert dealt == {"ana": (3, 6), "bob": (4, 4)}


def test_a_reach_objective_names_the_game_it_ended() -> None:
    """ana walks onto the cell her side must reach: the battle ends, "reach (blue)"."""
    extra = '[[objectives]]\nkind = "reach"\nteam = "blue"\nat = "X"\n'
    rows = """
    .........
    .a.X....b
    .........
    """
    units = [creature("ana", "blue", "a"), creature("bob", "red", "b")]
    scenario = loads(scenario_text(rows, "\n".join(units), extra), "reach.toml")
    b = scenario.begin(LoadedDice([8, 7]))
    accepted(b, unit="ana", action="walk", path=[[2, 1], [3, 1]])
    game = batch.read_game(0, 1, b.log, b.world, plan(scenario), capped=False)
    assert (game.result, game.winners, game.ended_by) == ("won", ("blue",), "reach (blue)")


def test_each_side_s_choices_are_its_accepted_actions_and_the_reactions_it_took() -> None:
    """The duel above: ana Attacks twice and ends her turn, bob declines the Interrupt, parries
    the first attack, takes the second and Attacks twice. End Turn and a declined window are no
    choice of what to do; bob's answers are his player's."""
    scenario, b = scripted_duel()
    accepted(b, unit="ana", action="attack", target="bob")
    accepted(b, unit="bob", reaction="none")
    accepted(b, unit="bob", reaction="parry")
    accepted(b, unit="ana", action="attack", target="bob")
    accepted(b, unit="bob", reaction="none")
    end_turns(b, "ana")
    accepted(b, unit="bob", action="attack", target="ana")
    accepted(b, unit="bob", action="attack", target="ana")
    actions = [d for d in b.decisions if isinstance(d, Action)]
    game = batch.read_game(0, 7, b.log, b.world, plan(scenario), capped=True, actions=actions)
    assert game.chosen == (
        Chosen("blue", "attack", 2),
        Chosen("red", "attack", 2),
        Chosen("red", "parry", 1),
    )


def test_reactions_a_policy_answered_count_for_the_side_and_are_named_by_their_window() -> None:
    """A defence and a catch are named by the option taken, an Interrupt and an Attack of
    Opportunity by their window (whose option "attack" is not the Attack action); a reaction
    the creature's standing policy answered counts as its side's choice, and says so."""
    scenario, b = scripted_duel()
    catch, aoo = "catch, dropping bob.club", "attack_of_opportunity"
    log = [
        ReactionAnswered("bob", "defence", "", ("dodge", "none"), "dodge", "policy"),
        ReactionAnswered("bob", "interrupt", "", ("interrupt", "none"), "interrupt", "player"),
        ReactionAnswered("bob", aoo, "", ("attack", "none"), "attack", "policy"),
        ReactionAnswered("bob", "catch", "", (catch, "none"), catch, "player"),
        ReactionAnswered("ana", "defence", "", ("parry", "none"), "none", "policy"),  # declined
        ReactionAnswered("bob", "defence", "", ("dodge", "none"), "dodge", "player"),
    ]
    walk = batch.read_game(0, 1, log, b.world, plan(scenario), capped=True).chosen
    assert walk == (
        Chosen("red", "dodge", 2, by_policy=1),
        Chosen("red", "catch", 1),
        Chosen("red", "interrupt", 1),
        Chosen("red", "attack_of_opportunity", 1, by_policy=1),
    )


@dataclass(frozen=True)
class Reported:
    """What `play` reports of a decision: the AI's choice, of which Taken reads the decision."""

    decision: Decision


def test_a_refused_decision_was_not_chosen() -> None:
    """`play` reports every decision it submits; only the actions the battle accepted are
    taken (a reaction answered is counted from the log)."""
    taken = batch.Taken()
    attack = Attack("ana", target="bob")
    taken("ana", Reported(attack), Refusal("out of reach"))
    assert taken.actions == []
    taken("ana", Reported(attack), Accepted(()))
    taken("bob", Reported(ReactionChoice("bob", "parry")), Accepted(()))
    assert taken.actions == [attack]


# --- the summary -------------------------------------------------------------------------------


def record(
    index: int,
    result: str,
    winners: tuple[str, ...],
    rounds: int,
    ana_hp: int,
    chosen: tuple[Chosen, ...] = (),
) -> GameRecord:
    units = (
        UnitRecord("ana", "blue", 9, ana_hp, ana_hp > 0, ana_hp == 0, 9 - ana_hp, 3),
        UnitRecord("grok", "red", 9, 3, True, False, 3, 9 - ana_hp),
    )
    ended = {"won": "defeat", "draw": "draw", "capped": "round cap", "crashed": "crashed"}[result]
    attacks = (batch.FirstAttacks("none", 2, 1, 1, 1), batch.FirstAttacks("dodge", 1, 0, 0, 0))
    return GameRecord(
        index, index, result, winners, rounds, "", ended, units, attacks, chosen=chosen
    )


def chosen_games() -> list[GameRecord]:
    """Three games: blue chose 6 times in the two played (4 Attacks, a Walk, an Aim), red 8
    (4 Attacks, 2 Dodges, 2 Parries its policy answered); the crashed game's Feints are in its
    CSV row only."""
    return [
        record(0, "won", ("red",), 4, 0, (
            Chosen("blue", "walk", 1), Chosen("blue", "attack", 3), Chosen("red", "dodge", 2),
        )),
        record(1, "won", ("blue",), 5, 4, (
            Chosen("blue", "aim", 1), Chosen("blue", "attack", 1),
            Chosen("red", "attack", 4), Chosen("red", "parry", 2, by_policy=2),
        )),
        record(2, "crashed", (), 2, 9, (Chosen("blue", "feint", 5),)),
    ]  # fmt: skip


def test_the_summary_gives_each_side_s_share_of_each_kind(duel: Path) -> None:
    summary = batch.summarize(plan(load(duel)), chosen_games())
    kinds = summary["action_kinds"]
    assert list(kinds) == ["blue", "red"]
    assert (kinds["blue"]["choices"], kinds["blue"]["by_policy"]) == (6, 0)
    # The most chosen first; a tie (a Walk, an Aim) in the registry's order.
    assert kinds["blue"]["kinds"] == {
        "attack": {"count": 4, "share": 4 / 6},
        "walk": {"count": 1, "share": 1 / 6},
        "aim": {"count": 1, "share": 1 / 6},
    }
    assert (kinds["red"]["choices"], kinds["red"]["by_policy"]) == (8, 2)
    assert kinds["red"]["kinds"] == {
        "attack": {"count": 4, "share": 0.5},
        "dodge": {"count": 2, "share": 0.25},
        "parry": {"count": 2, "share": 0.25},
    }
    lines = batch.describe(summary).splitlines()
    at = lines.index(
        "  chosen, as a share of each side's actions and reactions (End Turn not counted):"
    )
    assert lines[at + 1 : at + 3] == [
        "  blue  6 choices: attack 67 %, walk 17 %, aim 17 %",
        "  red   8 choices (2 by policy): attack 50 %, dodge 25 %, parry 25 %",
    ]


def test_the_printed_summary_sums_the_kinds_past_the_top_ones(
    duel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past TOP_KINDS the rest are summed, unless only one is left, which is named."""
    summary = batch.summarize(plan(load(duel)), chosen_games())
    monkeypatch.setattr(batch, "TOP_KINDS", 1)
    lines = batch.describe(summary).splitlines()
    assert "  blue  6 choices: attack 67 %, 2 other kinds 33 %" in lines
    assert "  red   8 choices (2 by policy): attack 50 %, 2 other kinds 50 %" in lines
    monkeypatch.setattr(batch, "TOP_KINDS", 2)
    assert "  blue  6 choices: attack 67 %, walk 17 %, aim 17 %" in batch.describe(summary)


def test_a_kind_chosen_rarely_is_not_printed_as_none_of_the_choices(duel: Path) -> None:
    rare = (Chosen("blue", "attack", 999), Chosen("blue", "aim", 1))
    summary = batch.summarize(plan(load(duel)), [record(0, "draw", (), 1, 9, rare)])
    assert "  blue  1000 choices: attack 100 %, aim <1 %" in batch.describe(summary)


def test_a_batch_where_no_side_chose_anything_says_so(duel: Path) -> None:
    summary = batch.summarize(plan(load(duel)), [record(0, "draw", (), 1, 9)])
    assert summary["action_kinds"] == {
        "blue": {"choices": 0, "by_policy": 0, "kinds": {}},
        "red": {"choices": 0, "by_policy": 0, "kinds": {}},
    }
    assert "  chosen: nothing (no side took an action or a reaction)" in batch.describe(summary)


def test_the_csv_has_a_column_per_side_and_kind_chosen_in_the_batch(duel: Path) -> None:
    """Counts per game, 0 where the side did not choose that kind in that game; sides in the
    summary's order, kinds in the registry's, reactions after the actions."""
    games = chosen_games()
    table = list(batch.rows(batch.summarize(plan(load(duel)), games), games))
    chose = [i for i, name in enumerate(table[0]) if name.startswith("chose_")]
    assert [table[0][i] for i in chose] == [
        "chose_blue_walk",
        "chose_blue_aim",
        "chose_blue_attack",
        "chose_blue_feint",
        "chose_red_attack",
        "chose_red_dodge",
        "chose_red_parry",
    ]
    assert [[row[i] for i in chose] for row in table[1:]] == [
        [1, 0, 3, 0, 0, 2, 0],
        [0, 1, 1, 0, 4, 0, 2],
        [0, 0, 0, 5, 0, 0, 0],
    ]


def test_the_summary_counts_a_capped_game_as_no_win(duel: Path) -> None:
    """Four games: red wins two, one is drawn, one stopped by the round cap."""
    games = [
        record(0, "won", ("red",), 4, 0),
        record(1, "won", ("red",), 8, 0),
        record(2, "draw", (), 6, 0),
        record(3, "capped", (), 30, 5),
    ]
    summary = batch.summarize(plan(load(duel)), games)
    assert summary["sides"]["red"]["wins"] == 2
    assert summary["sides"]["red"]["win_rate"] == 0.5
    assert summary["sides"]["blue"]["wins"] == 0
    assert summary["sides"]["red"]["wilson_95"] == list(batch.wilson(2, 4))
    assert (summary["draws"], summary["capped"], summary["crashed"]) == (1, 1, 0)
    assert summary["rounds"] == {"mean": 12.0, "median": 7.0, "p90": 30}
    ana = summary["units"]["ana"]
    assert ana["survival_rate"] == 0.25 and ana["downed_first_rate"] == 0.75
    assert ana["mean_hp_left"] == 1.25 and ana["mean_damage_dealt"] == 7.75
    assert summary["ended_by"] == {"defeat": 2, "draw": 1, "round cap": 1}
    assert summary["first_attack_hit_rate"] == {
        "none": 0.5,
        "dodge": 0.0,
        "parry": None,
        "block": None,
    }
    assert summary["first_attack_counts"]["none"] == {
        "attacks": 8,
        "hits": 4,
        "plain_attacks": 4,
        "plain_hits": 4,
    }
    # The plain first attacks (no Aim, Feint or Assist) are a rate of their own.
    assert summary["plain_first_attack_hit_rate"] == {
        "none": 1.0,
        "dodge": None,
        "parry": None,
        "block": None,
    }


def test_wilson_interval_and_percentile() -> None:
    low, high = batch.wilson(10, 10)
    assert high == pytest.approx(1.0) and 0.72 < low < 0.73
    assert batch.percentile([3, 1, 2], 90) == 3
    assert batch.percentile([5], 90) == 5


# --- many games --------------------------------------------------------------------------------


def test_every_game_has_its_own_seed_from_the_base_seed_and_its_number() -> None:
    seeds = {game_seed(0, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert game_seed(1, 0) not in {game_seed(0, i) for i in range(1000)}
    assert all(0 <= s < 2**63 for s in seeds)


@pytest.mark.slow
def test_the_totals_are_the_same_for_any_number_of_workers() -> None:
    alone = seed3_games(1)
    shared = seed3_games(2)
    assert [g.index for g in shared] == list(range(5))
    assert alone == shared
    assert batch.summarize(SEED3, alone) == batch.summarize(SEED3, shared)
    assert batch.summarize(SEED3, alone)["played"] == 5


@pytest.mark.slow
def test_workers_are_forked_from_this_process_only_while_no_other_thread_runs() -> None:
    """Issue #13: a batch's workers start at once, forked from this process with the search
    loaded, but only while that is safe (no other thread, which could hold a lock, and no
    SDL); from a thread they come from a fresh server process, and play the same games (as
    the batches above, forked and played here, of which they are the first four)."""
    assert batch._fork_is_safe() == (threading.active_count() == 1 and "pygame" not in sys.modules)
    out: dict[str, object] = {}

    def from_a_thread() -> None:
        out["safe"] = batch._fork_is_safe()
        out["games"] = batch.run(SEED3, 4, workers=2)

    thread = threading.Thread(target=from_a_thread, daemon=True)
    thread.start()
    thread.join(300)
    assert out["safe"] is False
    assert out["games"] == seed3_games(2)[:4] == seed3_games(1)[:4]


@pytest.mark.slow
def test_a_worker_that_dies_loses_only_its_own_game() -> None:
    """A worker process killed mid-game (as by a segfault) must not hang the batch or lose the
    games it shared a pool with: game 1 is recorded as crashed with its seed, the others are
    the games a healthy batch plays."""
    from tests import batch_crash

    healthy = seed3_games(2)
    out: dict[str, list[GameRecord]] = {}
    thread = threading.Thread(
        target=lambda: out.update(hurt=batch.run(SEED3, 5, workers=2, game=batch_crash.game)),
        daemon=True,
    )
    thread.start()
    thread.join(300)
    assert not thread.is_alive(), "the batch waits for ever for the dead worker's game"
    hurt = out["hurt"]
    assert [g.index for g in hurt] == list(range(5))
    doomed = hurt[batch_crash.DOOMED]
    assert doomed.result == "crashed" and doomed.seed == game_seed(3, batch_crash.DOOMED)
    assert "died without a Python error" in doomed.error
    assert f"--seed {doomed.seed}" in doomed.error
    assert [g for g in hurt if g.index != 1] == [g for g in healthy if g.index != 1]
    summary = batch.summarize(SEED3, hurt)
    assert summary["played"] == 4 and summary["crashed"] == 1
    assert "crashed: the process playing it died" in batch.describe(summary)


def test_a_game_is_the_one_sim_run_plays_with_its_seed(
    duel: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The documented replay of one game: `sim run SCENARIO --seed SEED --ai ... --round-cap R`
    plays the same game, to the same end."""
    game = batch.run(plan(load(duel), seed=9), 2, workers=1)[1]
    code = main(
        ["run", str(duel), "--seed", str(game.seed), "--ai", "blue,red", "--round-cap", "30"]
    )
    assert code == 0
    log = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    ended = [e for e in log if e["type"] == "battle_ended"]
    assert [tuple(e["winners"]) for e in ended] == [game.winners]
    assert [e["round"] for e in log if e["type"] == "round_started"][-1] == game.rounds


# --- the command -------------------------------------------------------------------------------


@pytest.mark.slow
def test_sim_batch_prints_the_summary_and_writes_json_csv_and_a_chart(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, table, chart = tmp_path / "r.json", tmp_path / "g.csv", tmp_path / "s.png"
    code, printed, err = run(
        capsys, duel, "--games", "4", "--workers", "2", "--seed", "5",
        "--out", out, "--csv", table, "--plot", chart,
    )  # fmt: skip
    assert code == 0
    assert err == ""  # no progress bar when standard error is not a terminal
    summary = json.loads(out.read_text(encoding="utf-8"))
    assert summary["games"] == summary["played"] == 4
    assert summary["seed"] == 5 and summary["round_cap"] == 30
    assert set(summary["sides"]) == {"blue", "red"}
    wins = summary["sides"]["blue"]["wins"] + summary["sides"]["red"]["wins"]
    assert wins + summary["draws"] + summary["capped"] == 4
    assert set(summary["units"]) == {"ana", "grok"}
    assert set(summary["first_attack_hit_rate"]) == {"none", "dodge", "parry", "block"}
    assert "Goblin duel: 4 games (seed 5, round cap 30; blue normal, red normal)" in printed
    assert f"blue  wins {summary['sides']['blue']['wins']:>4} of 4" in printed
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert [int(r["game"]) for r in rows] == [0, 1, 2, 3]
    assert [int(r["seed"]) for r in rows] == [game_seed(5, i) for i in range(4)]
    assert sum(r["winner"] == "blue" for r in rows) == summary["sides"]["blue"]["wins"]
    assert set(rows[0]) >= {"rounds", "reason", "hp_left_ana", "hp_left_grok"}
    # What each side chose: the JSON's counts are the CSV's columns added up, and the shares
    # of a side add up to 1; the printed summary names the side's choices.
    for team, side in summary["action_kinds"].items():
        assert side["choices"] > 0
        assert sum(k["share"] for k in side["kinds"].values()) == pytest.approx(1.0)
        for kind, k in side["kinds"].items():
            assert sum(int(r[f"chose_{team}_{kind}"]) for r in rows) == k["count"]
        columns = [c for c in rows[0] if c.startswith(f"chose_{team}_")]
        assert sum(int(r[c]) for r in rows for c in columns) == side["choices"]
        assert f"  {team:<4}  {side['choices']} choices" in printed
    assert "attack" in summary["action_kinds"]["blue"]["kinds"]
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_progress_bar_shows_on_a_terminal(
    duel: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = run(capsys, duel, "--games", "2", "--workers", "1")
    assert code == 0
    assert "2/2" in err and "game/s" in err


def test_kept_games_are_saves_that_sim_play_opens(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--keep-only losses keeps the games blue (the scenario's first side) did not win; each
    replays to the same end with `sim play --load`."""
    kept, table = tmp_path / "kept", tmp_path / "g.csv"
    code, printed, _ = run(
        capsys, duel, "--games", "4", "--workers", "1", "--keep", kept, "--csv", table
    )
    assert code == 0
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    lost = [r for r in rows if r["winner"] != "blue"]
    files = sorted(kept.iterdir())
    assert len(files) == len(lost) > 0
    assert f"kept {len(lost)} game" in printed
    for path, row in zip(files, lost, strict=True):
        assert f"game{int(row['game']):04d}.seed{row['seed']}" in path.name
        save, _, battle = load_save(path)
        assert save.seed == int(row["seed"]) and save.over
        assert save.ai == (("blue", "normal"), ("red", "normal"))  # who played: the AI, both
        assert battle.pending.winners == ((row["winner"],) if row["result"] == "won" else ())
        assert main(["play", "--load", str(path), "--text"]) == 0
        assert "decisions replayed" in capsys.readouterr().out


@pytest.mark.slow
def test_keep_only_all_keeps_every_game(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = run(
        capsys, duel, "--games", "3", "--workers", "2", "--keep", tmp_path / "k",
        "--keep-only", "all",
    )  # fmt: skip
    assert code == 0
    assert len(list((tmp_path / "k").iterdir())) == 3


def test_a_crash_in_one_game_is_reported_with_its_seed_and_replay_and_the_rest_go_on(
    duel: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken = game_seed(0, 1)

    def faulty(battle: Battle, players: Any, **keys: Any) -> str:
        if battle.seed == broken:  # a fault in the second round of game 1
            ai_play(battle, players, round_cap=1)
            raise RuntimeError("the AI lost its way")
        return ai_play(battle, players, **keys)

    monkeypatch.setattr(batch, "play", faulty)
    monkeypatch.setenv("SIM_SAVE_DIR", str(tmp_path / "saves"))
    code, printed, _ = run(
        capsys, duel, "--games", "3", "--workers", "1", "--out", tmp_path / "r.json"
    )
    assert code == 1
    summary = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert (summary["games"], summary["played"], summary["crashed"]) == (3, 2, 1)
    [crash] = summary["crashes"]
    assert (crash["game"], crash["seed"]) == (1, broken)
    assert crash["error"] == "RuntimeError: the AI lost its way"
    assert f"game 1 (seed {broken}) crashed: RuntimeError: the AI lost its way" in printed
    assert crash["save"] in printed
    assert Path(crash["save"]).parent == tmp_path / "saves"
    save, _, replayed = load_save(crash["save"])
    assert save.seed == broken and len(save.decisions) > 0 and not save.over
    assert replayed.world.turn.round == 2  # the game as it stood when it crashed


# --- bad arguments -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "--games must be 1 or more, not 0"),
        (["--games", "many"], "--games must be a whole number, 1 or more, not 'many'"),
        (["--workers", "0"], "--workers must be 1 or more, not 0"),
        (["--round-cap", "-2"], "--round-cap must be 1 or more, not -2"),
        (["--seed", "-1"], "must be a whole number from 0 to"),
        (["--keep-only", "wins"], "invalid choice: 'wins'"),
    ],
)
def test_bad_numbers_are_argument_errors(
    duel: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["batch", str(duel), *argv])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ai", "green=hard"], "--ai: no team 'green' in this scenario (teams: blue, red)"),
        (["--ai", "red=genius"], "--ai: level must be one of random, easy, normal, hard"),
        (["--keep-only", "all"], "--keep-only says which games --keep saves; give --keep DIR too"),
        (["--out", "nowhere/r.json"], "--out nowhere/r.json: there is no directory nowhere"),
        (["--out", "r.txt"], "--out r.txt: give a file name ending in .json"),
        (["--plot", "s.jpg"], "--plot s.jpg: give a file name ending in .png"),
        (["--csv", "."], "--csv .: give a file name ending in .csv"),
        (["--ray"], "--ray needs the address of a Ray cluster"),
    ],
)
def test_bad_arguments_are_refused_before_a_game_is_played(
    duel: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(batch, "play_game", lambda *_: pytest.fail("a game was played"))
    code, out, err = run(capsys, duel, "--games", "2", *argv)
    assert code == 2
    assert message in err
    assert err.startswith("sim batch: ")  # one line, no traceback
    assert out == ""


def test_a_directory_given_for_an_output_file_is_refused(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "r.json").mkdir()
    code, _, err = run(capsys, duel, "--out", tmp_path / "r.json")
    assert code == 2
    assert f"--out {tmp_path / 'r.json'} is a directory; give the file to write" in err


def test_a_missing_or_broken_scenario_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, tmp_path / "nope.toml", "--games", "2")
    assert (code, err.strip()) == (2, f"sim batch: no scenario file at {tmp_path / 'nope.toml'}")
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\n[map]\nrows = 3\n', encoding="utf-8")
    code, _, err = run(capsys, broken, "--games", "2")
    assert code == 1
    # Every problem at once (issue #33): the map's, and that it has no units.
    assert err.splitlines() == [
        f"{broken}:1: the scenario needs at least one [[units]] table",
        f"{broken}:3: map rows must be a multi-line string or a list of strings",
    ]


def test_ray_without_ray_installed_says_how_to_install_it(
    duel: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    monkeypatch.setitem(sys.modules, "ray.util", None)
    monkeypatch.setitem(sys.modules, "ray.util.multiprocessing", None)
    code, _, err = run(capsys, duel, "--ray", "local", "--games", "2")
    assert code == 2
    assert (
        "--ray runs the games on Ray, which is not installed here: pip install -e '.[cluster]'"
        in err
    )


@pytest.mark.parametrize(
    ("address", "head"),
    [
        ("local", None),
        ("auto", None),
        ("10.0.0.5:6379", ("10.0.0.5", 6379)),
        ("ray://head.example:10001", ("head.example", 10001)),
        ("[::1]:6379", ("::1", 6379)),
    ],
)
def test_a_cluster_address_names_the_head_to_ask(
    address: str, head: tuple[str, int] | None
) -> None:
    from sim.tools.cluster import head_of

    assert head_of(address) == head


@pytest.mark.parametrize("address", ["nonsense", "host:", "host:99999", ":6379"])
def test_a_cluster_address_that_is_no_address_is_refused(address: str) -> None:
    from sim.tools.cluster import ClusterError, head_of

    with pytest.raises(ClusterError, match="not a cluster address; give HOST:PORT"):
        head_of(address)


@pytest.mark.slow
def test_a_cluster_that_does_not_answer_is_refused_at_once(
    duel: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ray itself retries an address nobody answers at for minutes; a closed port is refused
    before Ray is started, in words, and no game is played."""
    pytest.importorskip("ray.util.multiprocessing")
    code, out, err = run(capsys, duel, "--ray", "127.0.0.1:1", "--games", "2")
    assert code == 2 and out == ""
    assert "--ray 127.0.0.1:1: cannot reach a Ray cluster there" in err
    assert "ray start --head" in err


@pytest.mark.slow
def test_ray_plays_the_same_games_as_the_local_pool() -> None:
    """The local pool's games are the batch the pool tests above compare against (SEED3,
    played once per process): most of this test is starting Ray."""
    pytest.importorskip("ray.util.multiprocessing")
    from sim.tools.cluster import ray_pool

    local = seed3_games(2)
    on_ray = batch.run(SEED3, 5, workers=2, pool=ray_pool("local"))
    assert on_ray == local
    assert batch.summarize(SEED3, on_ray) == batch.summarize(SEED3, local)


@pytest.mark.slow
def test_a_chart_draws_a_batch_where_no_side_chose_anything(duel: Path, tmp_path: Path) -> None:
    from sim.tools import chart

    games = [record(0, "draw", (), 1, 9)]
    chart.draw(batch.summarize(plan(load(duel)), games), games, tmp_path / "s.png")
    assert (tmp_path / "s.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_chart_s_kinds_panel_names_the_most_chosen_and_sums_the_rest(
    duel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sim.tools import chart

    kinds = batch.summarize(plan(load(duel)), chosen_games())["action_kinds"]
    # By the larger of the sides' shares: attack (67 %, 50 %), dodge and parry (25 % for red),
    # walk and aim (17 % for blue).
    assert chart._kind_rows(kinds) == ["attack", "dodge", "parry", "walk", "aim"]
    monkeypatch.setattr(chart, "KIND_ROWS", 2)
    assert chart._kind_rows(kinds) == ["attack", "dodge", chart.OTHER]


def test_the_chart_s_sides_have_the_client_s_colour_blind_safe_colours() -> None:
    """The chart cannot import the client (the layers), so its team colours are copies of
    the client's Okabe-Ito team styles: this keeps them the same."""
    from sim.tools import colours
    from sim.ui.look import palette

    for team, index in palette.NAMED_TEAMS.items():
        r, g, b = palette.TEAM_STYLES[index].colour
        assert colours.TEAM_COLOURS[team] == f"#{r:02x}{g:02x}{b:02x}"
    okabe_ito = {palette.SKY, palette.YELLOW, palette.BLACK}
    assert {tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in colours.OTHER_COLOURS} == (
        okabe_ito
    )


@pytest.mark.slow
def test_a_chart_draws_a_side_that_never_won(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A side with no wins has its interval start at exactly 0 (not a rounding error below
    its rate), which the chart's error bars need; one game is enough for one side to win all."""
    out, chart = tmp_path / "r.json", tmp_path / "s.png"
    code, _, _ = run(capsys, duel, "--games", "1", "--workers", "1", "--out", out, "--plot", chart)
    assert code == 0
    sides = json.loads(out.read_text(encoding="utf-8"))["sides"]
    assert any(side["wins"] == 0 and side["wilson_95"][0] == 0.0 for side in sides.values())
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
