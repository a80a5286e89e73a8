"""Exact odds (sim/play/odds.py) against the engine itself: each figure is compared with the
engine's own roll code run on every outcome of the dice, each weighed by its chance
(tests/dice_tree.py), and must equal it.

The duel is the shipped human_fighter (longsword and heater, mail) against the orc_brute
(greataxe, hide), side by side; setups give conditions (Brace, Evade, Guard, a Feint, a second
attack in the window, Incapacitated) as some other rule would have.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

import pytest

from sim.core import events as ev
from sim.core.actions import Disarm, Feint, Hide, Shove, Toss, Trip
from sim.core.components import AttackWindow, Hands, Position
from sim.core.condition import written
from sim.core.creature import has
from sim.core.dice import Dice
from sim.core.geometry import Pos
from sim.core.purpose import AttackKind, RollKind
from sim.core.world import World
from sim.play.apply import apply
from sim.play.odds import (
    Distribution,
    attack_odds,
    break_free_chance,
    catch_thrown_chance,
    catch_toss_chance,
    defences,
    defense_total,
    disarm_chance,
    feint_chance,
    grapple_chance,
    hide_chance,
    hide_odds,
    shove_landings,
    shove_odds,
    trip_factor,
    trip_odds,
)
from sim.play.rulebook import RULEBOOK
from sim.rules.combat.attack import strike, weapon_damage
from sim.rules.combat.disarm import resolve_disarm
from sim.rules.combat.feint import resolve_feint
from sim.rules.combat.grapple import contest
from sim.rules.combat.hide import resolve_hide
from sim.rules.combat.reactions import Ask, Reply, held_weapon
from sim.rules.combat.shove import resolve_shove
from sim.rules.combat.throw import catch_thrown, resolve_toss
from sim.rules.combat.trip import resolve_trip
from sim.ui.words.forecast import ODDS_ACTIONS, forecast, percent
from tests.dice_tree import chance, every_roll
from tests.helpers import first_fast, give, scenario_text, seeded_battle, unit

# Exact odds and the exact weight of the engine's outcomes differ only by float rounding.
EXACT = 1e-9

DUEL = scenario_text(
    """
    #####
    #ab.#
    #####
    """,
    unit("ana", "blue", "human_fighter", "a", policy="ask")
    + "\n"
    + unit("grok", "red", "orc_brute", "b", policy="ask"),
)


def _drive(
    resolution: Generator[ev.Event | Ask, Reply | None, Any] | list[ev.Event],
    answer: str,
    world: World | None = None,
) -> tuple[Any, list[ev.Event]]:
    """Run a resolution to its end, answering every window with `answer`; its result and
    events. With `world` (a copy) each event is applied as the engine would, for mechanics
    that read what they have just done (a push moves cell by cell)."""
    if isinstance(resolution, list):
        return None, resolution
    events: list[ev.Event] = []
    reply: Reply | None = None
    while True:
        try:
            item = resolution.send(reply)
        except StopIteration as stop:
            return stop.value, events
        reply = None
        if isinstance(item, Ask):
            # An answer names an option or how one begins ("catch" for "catch, dropping x").
            found = [o for o in item.options if o == answer] or [
                o for o in item.options if answer and o.startswith(answer)
            ]
            reply = Reply(found[0] if found else "none")
        else:
            events.append(item)
            if world is not None:
                apply(world, item)


def exact_strike(
    world: World, attacker: str, target: str, choice: str, *, melee: bool = True
) -> tuple[float, float]:
    """The chance that an engine strike hits, and its expected damage, over every outcome of
    its dice."""
    weapon = held_weapon(world, attacker, melee=True) if melee else None

    def run(dice: Dice) -> tuple[bool, int]:
        result, events = _drive(
            strike(
                world,
                dice,
                attacker,
                target,
                weapon=weapon,
                melee=melee,
                purpose="test",
                tag=AttackKind.MELEE if melee else AttackKind.RANGED,
            ),
            choice,
        )
        return result.hit, sum(e.amount for e in events if isinstance(e, ev.Damaged))

    hit = damage = 0.0
    for weight, (hits, dealt) in every_roll(run):
        hit += weight * hits
        damage += weight * dealt
    return hit, damage


SETUPS: dict[str, list[tuple[str, str, Any]]] = {
    "plain": [],
    "braced": [("grok", "braced", 1)],
    "evading": [("grok", "evading", 1)],
    "feinted": [("ana", "feinted", 5)],  # R-X10: the next melee Hit Roll, whatever its target
    "assisted": [("ana", "assisted", "grok")],
    "incapacitated": [("grok", "incapacitated", 1)],
}


@pytest.mark.parametrize("setup", first_fast(sorted(SETUPS)))
def test_melee_hit_chance_and_damage_match_the_engine(setup: str) -> None:
    """R-A1..R-A3, R-R1..R-R3, R-X3, R-X9, R-X10, R-X21: every defence grok can choose."""
    b = seeded_battle(DUEL, 1)
    for who, condition, value in SETUPS[setup]:
        give(b, who, condition, value)
    world = b.world
    weapon = held_weapon(world, "ana", melee=True)
    odds = attack_odds(world, "ana", "grok", weapon=weapon, melee=True)
    assert [o.defence for o in odds] == list(defences(world, "ana", "grok"))
    if setup == "incapacitated":
        assert [o.defence for o in odds] == ["none"]
    else:
        assert {o.defence for o in odds} == {"dodge", "parry", "none"}  # a greataxe, no shield
    for o in odds:
        hit, damage = exact_strike(world, "ana", "grok", o.defence)
        assert o.hit == pytest.approx(hit, abs=EXACT), o
        assert o.damage == pytest.approx(damage, abs=EXACT), o


@pytest.mark.slow  # the fast lane checks a melee strike (the test above)
def test_block_and_a_second_attack_in_the_window_match_the_engine() -> None:
    """R-R3 (Block with the heater) and R-A1 (the second attack adds half the FCS Bonus)."""
    b = seeded_battle(DUEL, 1)
    world = b.world
    world.set("grok", AttackWindow(1))
    weapon = held_weapon(world, "grok", melee=True)
    odds = {o.defence: o for o in attack_odds(world, "grok", "ana", weapon=weapon, melee=True)}
    assert set(odds) == {"dodge", "parry", "block", "none"}
    for choice, o in odds.items():
        hit, _ = exact_strike(world, "grok", "ana", choice)
        assert o.hit == pytest.approx(hit, abs=EXACT), o


@pytest.mark.slow  # the fast lane checks a melee strike
def test_a_parry_against_a_ranged_attack_matches_the_engine() -> None:
    """R-R2: a Parry answers any attack: grok's ranged Hit Roll (an arrow's, bare of a weapon's
    damage here) on ana, who may Dodge, Parry with her longsword or Block with her heater."""
    b = seeded_battle(DUEL, 1)
    world = b.world
    odds = {o.defence: o for o in attack_odds(world, "grok", "ana", weapon=None, melee=False)}
    assert set(odds) == {"dodge", "parry", "block", "none"}
    for choice, o in odds.items():
        hit, _ = exact_strike(world, "grok", "ana", choice, melee=False)
        assert o.hit == pytest.approx(hit, abs=EXACT), o


def test_damage_is_after_armour() -> None:
    """R-A3: WD less the Armour Rating, as the engine's weapon_damage deals it."""
    b = seeded_battle(DUEL, 1)
    world = b.world
    weapon = held_weapon(world, "ana", melee=True)
    odds = attack_odds(world, "ana", "grok", weapon=weapon, melee=True)
    dealt = [e for e in weapon_damage(world, "ana", "grok", weapon) if isinstance(e, ev.Damaged)]
    assert {o.per_hit for o in odds} == {dealt[0].amount}
    assert all(o.damage == pytest.approx(o.hit * o.per_hit) for o in odds)


def test_distribution_sums() -> None:
    """2d6 by convolution: 7 is the likeliest total; a d10 doubled covers 2..20 evenly."""
    two = Distribution.die(6) + Distribution.die(6)
    assert two.low == 2 and two.high == 12
    assert two.probs[5] == pytest.approx(6 / 36)
    doubled = Distribution.die(10, 2)
    assert doubled.low == 2 and doubled.high == 20 and doubled.mean() == pytest.approx(11)
    assert Distribution.constant(5).beats(Distribution.constant(5)) == 0.0  # R-C4: ties lose


def test_odds_kept_by_their_numbers_follow_the_world() -> None:
    """Issue #30: the arithmetic of the odds is kept by the dice and bonuses it is made of, so a
    Brace (R-X3) or a Feint (R-X10) given after the odds were first asked changes them at once,
    and the same numbers asked again give the same odds; a kept total cannot be changed."""
    b = seeded_battle(DUEL, 1)
    weapon = held_weapon(b.world, "ana", melee=True)

    def hits() -> dict[str, float]:
        found = attack_odds(b.world, "ana", "grok", weapon=weapon, melee=True)
        return {o.defence: o.hit for o in found}

    plain = hits()
    assert hits() == plain
    give(b, "grok", "braced", 1)
    braced = hits()
    assert all(braced[d] < plain[d] for d in plain)  # a doubled RES Roll
    give(b, "ana", "feinted", 5)
    assert all(f > braced[d] for d, f in hits().items())
    fresh = seeded_battle(DUEL, 1)
    again = attack_odds(fresh.world, "ana", "grok", weapon=weapon, melee=True)
    assert {o.defence: o.hit for o in again} == plain
    kept = defense_total(fresh.world, "grok", "dodge")
    with pytest.raises(ValueError, match="read-only"):
        kept.probs[0] = 1.0


def test_grapple_and_break_free_match_the_engine() -> None:
    """R-G1, R-G2: STR + Athletics against STR + the better of Athletics and Acrobatics."""
    world = seeded_battle(DUEL, 1).world
    won = chance(
        lambda d: contest(
            world, d, "grok", "ana", "grapple", tag=RollKind.GRAPPLE, acting_holds=True
        )[0]
    )
    assert grapple_chance(world, "grok", "ana") == pytest.approx(won, abs=EXACT)
    freed = chance(
        lambda d: contest(
            world, d, "ana", "grok", "break", tag=RollKind.BREAK_FREE, acting_holds=False
        )[0]
    )
    assert break_free_chance(world, "ana", "grok") == pytest.approx(freed, abs=EXACT)


def test_feint_and_disarm_match_the_engine() -> None:
    """R-X10 (Deception against an FCS Save) and R-X5 (Hit Roll against the target's)."""
    world = seeded_battle(DUEL, 1).world

    def feinted(dice: Dice) -> bool:
        events = resolve_feint(world, Feint("ana", target="grok"), dice)
        return any(isinstance(e, ev.ConditionGained) and e.condition == "feinted" for e in events)

    assert feint_chance(world, "ana", "grok") == pytest.approx(chance(feinted), abs=EXACT)
    item = held_weapon(world, "grok", melee=True)
    assert item is not None

    def disarmed(dice: Dice) -> bool:
        _, events = _drive(resolve_disarm(world, Disarm("ana", target="grok", item=item), dice), "")
        return any(isinstance(e, ev.ItemDropped) for e in events)

    assert disarm_chance(world, "ana", "grok") == pytest.approx(chance(disarmed), abs=EXACT)


HIDING = scenario_text(
    """
    ######
    #a%..#
    #...b#
    ######
    """,
    unit("gob", "red", "goblin_sneak", "a") + "\n" + unit("ana", "blue", "human_archer", "b"),
)


def test_hide_matches_the_engine() -> None:
    """R-X8: a Stealth check against the watcher's Perception check; a tie goes to the watcher."""
    world = seeded_battle(HIDING, 1).world
    world.set("gob", Position(Pos(2, 1)))  # in the cover cell

    def hidden(dice: Dice) -> bool:
        events = resolve_hide(world, Hide("gob"), dice)
        return any(isinstance(e, ev.ConditionGained) and e.condition == "unseen" for e in events)

    assert hide_chance(world, "gob", "ana") == pytest.approx(chance(hidden), abs=EXACT)


def test_hiding_from_several_watchers_matches_the_engine() -> None:
    """R-X8: one Stealth check against each watcher's Perception check; the chance of beating
    each, and every one of them at once (the same Stealth total for all)."""
    text = scenario_text(
        """
        ######
        #a%..#
        #..cb#
        ######
        """,
        unit("gob", "red", "goblin_sneak", "a")
        + "\n"
        + unit("ana", "blue", "human_archer", "b")
        + "\n"
        + unit("bo", "blue", "human_fighter", "c"),
    )
    b = seeded_battle(text, 1)
    world = b.world
    world.set("gob", Position(Pos(2, 1)))
    odds = hide_odds(world, "gob")
    assert [w for w, _ in odds.each] == ["ana", "bo"]

    def hidden_from(dice: Dice) -> set[str]:
        events = resolve_hide(world, Hide("gob"), dice)
        unseen = [e for e in events if isinstance(e, ev.ConditionGained)]
        return set(written(unseen[0].value).split(",")) if unseen else set()

    beaten = {"ana": 0.0, "bo": 0.0}
    every = 0.0
    for weight, hidden in every_roll(hidden_from):
        for watcher in beaten:
            beaten[watcher] += weight * (watcher in hidden)
        every += weight * (hidden == {"ana", "bo"})
    for watcher, each in odds.each:
        assert each == pytest.approx(beaten[watcher], abs=EXACT), watcher
        assert each == hide_chance(world, "gob", watcher)
    assert odds.every == pytest.approx(every, abs=EXACT)
    assert 0 < odds.every < min(c for _, c in odds.each)


OPEN_FIELD = scenario_text(
    """
    ##########
    #.ab.....#
    ##########
    """,
    unit("grok", "red", "orc_brute", "a", policy="never")
    + "\n"
    + unit("ana", "blue", "human_fighter", "b", policy="never"),
)


def test_shove_matches_the_engine() -> None:
    """R-X15: the STR Contest, the push of half the shover's STR Roll, the STR Save."""
    world = seeded_battle(OPEN_FIELD, 1).world
    odds = shove_odds(world, "grok", "ana")

    def shove(dice: Dice) -> list[ev.Event]:
        copy = world.copy()
        return _drive(resolve_shove(copy, Shove("grok", target="ana"), dice), "", copy)[1]

    wins = prone = 0.0
    pushed: dict[int, float] = {}
    for weight, events in every_roll(shove):
        steps = sum(isinstance(e, ev.Pushed) for e in events)
        if steps:
            wins += weight
            pushed[steps] = pushed.get(steps, 0.0) + weight
        if any(isinstance(e, ev.ConditionGained) and e.condition == "prone" for e in events):
            prone += weight
    assert odds.win == pytest.approx(wins, abs=EXACT)
    assert odds.prone == pytest.approx(prone, abs=EXACT)
    assert set(pushed) <= {metres for metres, _ in odds.pushed}
    for metres, each in odds.pushed:
        assert each == pytest.approx(pushed.get(metres, 0.0), abs=EXACT), metres


# Where a push can end (R-X15): grok shoves ana east along row 1 from [1, 1]; "H" is ground
# 3 m up, so ana falls off its edge (R-M4) into open ground or deep water (R-M9), or a wall
# stops the push (a d10 STR die pushes 1 to 5 m).
LANDING_ROWS = {
    "ledge": "#HHHH.....#",
    "water": "#HHHHDDDDD#",
    "wall": "#....#####",
}


@pytest.mark.parametrize("ground", first_fast(sorted(LANDING_ROWS)))
def test_shove_landings_match_the_engine(ground: str) -> None:
    """R-X15 with R-M4 (a fall lands Prone), R-M9 (deep water: it swims, no save) and a wall
    that stops the push: the chance of each end cell, and of ending Prone there."""
    row = LANDING_ROWS[ground]
    text = (
        f'name = "test"\n[map]\nrows = """\n{"#" * len(row)}\n{row}\n{"#" * len(row)}\n"""\n'
        '[legend]\n"H" = { kind = "open", height = 3 }\n"D" = { kind = "open", water = 2 }\n'
    )
    for uid, team, template, x in (
        ("grok", "red", "orc_brute", 1),
        ("ana", "blue", "human_fighter", 2),
    ):
        text += (
            f'[[units]]\nid = "{uid}"\nteam = "{team}"\ntemplate = "{template}"\n'
            f'at = [{x}, 1]\npolicy = "never"\n'
        )
    world = seeded_battle(text, 1).world
    landings = shove_landings(world, "grok", "ana")
    odds = shove_odds(world, "grok", "ana")
    assert sum(x.chance for x in landings) == pytest.approx(odds.win)
    assert sorted(m for x in landings for m in x.metres) == [m for m, _ in odds.pushed]
    start = world.need("ana", Position).cell
    ends = {(x.cells[-1] if x.cells else start): x for x in landings}
    assert len(ends) == len(landings)

    def shove(dice: Dice) -> tuple[Pos, bool] | None:
        """Where a won shove leaves ana, and whether she is Prone there; None when it is lost."""
        copy = world.copy()
        _, events = _drive(resolve_shove(copy, Shove("grok", target="ana"), dice), "", copy)
        if not any(isinstance(e, ev.Pushed) for e in events):
            return None
        return copy.need("ana", Position).cell, has(copy, "ana", "prone")

    landed: dict[Pos, float] = {}
    prone: dict[Pos, float] = {}
    for weight, outcome in every_roll(shove):
        if outcome is None:
            continue
        end, down = outcome
        landed[end] = landed.get(end, 0.0) + weight
        prone[end] = prone.get(end, 0.0) + weight * down
    assert set(landed) <= set(ends)
    for end, x in ends.items():
        assert x.chance == pytest.approx(landed.get(end, 0.0), abs=EXACT), x
        assert x.prone == pytest.approx(prone.get(end, 0.0), abs=EXACT), x
    farthest = max(landings, key=lambda x: len(x.cells))
    if ground == "ledge":
        assert farthest.cells[-1] == Pos(5, 1) and farthest.prone == farthest.chance
        assert "falls 3 m" in farthest.happens and farthest.metres == (3, 4, 5)
    elif ground == "water":
        assert farthest.prone == 0 and "swimming" in farthest.happens
    else:
        assert farthest.metres == (2, 3, 4, 5)
        assert farthest.cells[-1] == Pos(4, 1) and "wall at (5,1)" in farthest.happens
        assert 0 < farthest.prone < farthest.chance  # the STR Save on open ground


@pytest.mark.slow
@pytest.mark.parametrize("evading", [False, True])
def test_trip_matches_the_engine(evading: bool) -> None:
    """R-X19: a hit, then an AGI Save against the Hit Roll (Evade doubles its Bonus, R-X9,
    unless a Dodge used it first)."""
    b = seeded_battle(DUEL, 1)
    if evading:
        give(b, "grok", "evading")
    world = b.world
    for odds in trip_odds(world, "ana", "grok"):

        def trip(dice: Dice, defence: str = odds.defence) -> tuple[bool, bool]:
            copy = world.copy()
            _, events = _drive(resolve_trip(copy, Trip("ana", target="grok"), dice), defence, copy)
            hit = any(isinstance(e, ev.AttackResolved) and e.hit for e in events)
            down = any(isinstance(e, ev.ConditionGained) and e.condition == "prone" for e in events)
            return hit, down

        hits = prone = 0.0
        for weight, (hit, down) in every_roll(trip):
            hits += weight * hit
            prone += weight * down
        assert odds.hit == pytest.approx(hits, abs=EXACT), odds
        assert odds.prone == pytest.approx(prone, abs=EXACT), odds


@pytest.mark.slow
def test_a_trip_weapon_doubles_the_fcs_bonus() -> None:
    """R-X19: the factor `resolve_trip` gives a weapon marked `trip` (a club), 1 for any other
    and unarmed; the trip's odds with it match the engine."""
    text = scenario_text(
        """
        #####
        #ab.#
        #####
        """,
        unit("ana", "blue", "human_fighter", "a", held=["club"], policy="ask")
        + "\n"
        + unit("grok", "red", "orc_brute", "b", policy="ask"),
    )
    world = seeded_battle(text, 1).world
    club = held_weapon(world, "ana", melee=True)
    axe = held_weapon(world, "grok", melee=True)
    factor = world.rules.actions.trip_weapon_fcs_factor
    assert (trip_factor(world, club), trip_factor(world, axe), trip_factor(world, None)) == (
        factor,
        1,
        1,
    )
    odds = {o.defence: o for o in trip_odds(world, "ana", "grok", factor=factor)}

    def hits(dice: Dice) -> bool:
        copy = world.copy()
        _, events = _drive(resolve_trip(copy, Trip("ana", target="grok"), dice), "none", copy)
        return any(isinstance(e, ev.AttackResolved) and e.hit for e in events)

    assert odds["none"].hit == pytest.approx(chance(hits), abs=EXACT)


@pytest.mark.slow
def test_catches_match_the_engine() -> None:
    """R-R6: a thrown weapon that hit is caught on an AGI + FCS Save against its Hit Roll; a
    tossed item on an FCS Check against 15 + its weight."""
    b = seeded_battle(DUEL, 1)
    world = b.world

    def throw(dice: Dice) -> tuple[bool, bool]:
        """Whether the throw hits ana, and whether she catches it."""
        result, _ = _drive(
            strike(
                world,
                dice,
                "grok",
                "ana",
                weapon=None,
                melee=False,
                purpose="throw",
                tag=AttackKind.THROW,
                deal_damage=False,
            ),
            "none",
        )
        if not result.hit:
            return False, False
        got, _ = _drive(catch_thrown(world, dice, "ana", "grok", "x", result.hit_roll), "catch")
        return True, bool(got)

    hits = caught = 0.0
    for weight, (hit, got) in every_roll(throw):
        hits += weight * hit
        caught += weight * got
    assert hits > 0
    assert catch_thrown_chance(world, "grok", "ana") == pytest.approx(caught / hits, abs=EXACT)


TOSSING = scenario_text(
    """
    #####
    #ab.#
    #####
    """,
    unit("bram", "blue", "human_fighter", "a", held=["dagger"])
    + "\n"
    + unit("ana", "blue", "human_fighter", "b", held=[], fcs="d12+8"),
)


@pytest.mark.slow
def test_catching_a_toss_matches_the_engine() -> None:
    """R-R6: an FCS Check against 15 + the item's weight; a tie succeeds."""
    world = seeded_battle(TOSSING, 1).world
    (dagger,) = world.need("bram", Hands).items()

    def caught(dice: Dice) -> bool:
        copy = world.copy()
        toss = Toss("bram", item=dagger, target="ana")
        _, events = _drive(resolve_toss(copy, toss, dice), "catch", copy)
        return any(isinstance(e, ev.ItemCaught) for e in events)

    weight = world.catalog.get("dagger").weight
    exact = chance(caught)
    assert 0 < exact < 1
    assert catch_toss_chance(world, "ana", weight) == pytest.approx(exact, abs=EXACT)


def test_each_registry_odds_hook_is_the_chance_the_hover_tip_shows() -> None:
    """Issue #28: the odds an action's registry entry gives (`Mechanic.odds`) are, rounded, one
    of the figures the client's forecast shows for it (the chance against the best defence:
    a hit, a knock-down, a contest won); the actions with a forecast are those with odds."""
    world = seeded_battle(DUEL, 1).world
    assert set(ODDS_ACTIONS) == {"attack", "trip", "disarm", "feint", "grapple", "shove"}
    for kind, mechanic in RULEBOOK.items():
        if mechanic.odds is None:
            continue
        action = kind("ana", target="grok")  # type: ignore[call-arg]
        chance = mechanic.odds(world, action)
        assert 0.0 < chance < 1.0, kind.name
        shown = forecast(world, "ana", kind.name, "grok")
        assert shown is not None, kind.name
        figures = re.findall(r"[<>]?\d+ %", " ".join(shown.lines))
        worst = percent(chance)
        assert worst in figures, (kind.name, worst, shown.lines)
