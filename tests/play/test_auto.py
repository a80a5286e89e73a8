"""The reaction policy "auto" (sim/play/auto.py), every creature's default: transcripts with
loaded dice of the windows it answers, what it chooses by the odds and the reason it gives."""

from __future__ import annotations

from typing import Any

import pytest

from sim.content.scenario import loads
from sim.core.components import Policy
from sim.core.dice import LoadedDice
from sim.core.events import ReactionAnswered, to_json
from sim.play.auto import AutoWeights, parse_weights, weights
from sim.play.engine import REACTION_POLICIES, Battle, SetPolicy
from sim.ui.model.markers import REACTED, markers, summary
from sim.ui.words.logbook import describe
from tests.helpers import accepted, battle, refuse, scenario_text, types, unit


def begun(rows: str, units: list[str], initiative: list[int], dice: list[int]) -> Battle:
    """A battle on `rows` with `units`, initiative rolled with `initiative` and the rest of the
    battle rolling `dice`."""
    b = battle(scenario_text(rows, "\n".join(units)), initiative)
    b.dice = LoadedDice(dice)
    return b


def answers(events: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    """(unit, window, choice, reason) of each reaction answered."""
    return [
        (e["unit"], e["window"], e["choice"], e.get("reason", ""))
        for e in events
        if e["type"] == "reaction_answered"
    ]


def test_auto_is_every_creatures_default_and_a_scenario_may_still_say_always() -> None:
    text = scenario_text(
        "#ab#", unit("ana", "blue", "human_fighter", "a", policy="always") + "\n"
        + unit("bo", "red", "orc_brute", "b")
    )  # fmt: skip
    world = loads(text, "test.toml").world
    assert world.need("ana", Policy).reactions == "always"
    assert world.need("bo", Policy).reactions == "auto"
    assert Policy().reactions == SetPolicy("bo").reactions == "auto"
    assert REACTION_POLICIES[0] == "auto"


def test_an_unknown_policy_is_refused_naming_auto() -> None:
    units = [unit("ana", "blue", "human_fighter", "a"), unit("bo", "red", "orc_brute", "b")]
    b = begun("#ab#", units, [8, 1], [])
    assert refuse(b, SetPolicy("ana", "sometimes")) == (
        "reaction policy must be one of auto, ask, always, never, not 'sometimes' (R-R8)"
    )


# --- Interrupt (R-R7) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "decision", "said"),
    [
        (
            unit("ana", "blue", "human_fighter", "a", held=[], carried=["longsword"]),
            {"unit": "ana", "action": "draw", "item": "longsword"},
            "bo keeps its Bonus Actions: ana's Draw is not worth interrupting",
        ),
        (
            unit("ana", "blue", "human_archer", "a"),
            {"unit": "ana", "action": "aim"},
            "bo keeps its Bonus Actions: ana's Aim is not worth interrupting",
        ),
        (
            unit("ana", "blue", "human_fighter", "a", hp=5),
            {"unit": "ana", "action": "consume", "item": "healing_potion"},
            "bo keeps its Bonus Actions for a Parry against ana: ana's Consume is not worth "
            "interrupting",
        ),
    ],
)
def test_auto_never_interrupts_a_draw_an_aim_or_a_consume(
    who: str, decision: dict[str, Any], said: str
) -> None:
    """R-R7: a free Draw, an Aim or a Consume is not worth the Dodge or Parry 2 Bonus Actions
    buy, where "always" interrupted each of them; no die is rolled for bo."""
    b = begun("#ab#", [who, unit("bo", "red", "orc_brute", "b")], [8, 1], [4])
    events = accepted(b, **decision)
    assert answers(events) == [("bo", "interrupt", "none", said)]
    assert "action_lost" not in types(events)
    assert all(e["unit"] != "bo" for e in events if e["type"] in ("rolled", "spent"))


def test_auto_keeps_its_bonus_actions_for_the_foe_that_attacks_next_rather_than_a_draw() -> None:
    """The orc brute acts before bo's next turn, next to him: bo keeps his Bonus Actions for a
    Parry against it, and the reason names it."""
    b = begun(
        "#ab#\n#o.#",
        [
            unit("ana", "blue", "human_fighter", "a", held=[], carried=["longsword"]),
            unit("bo", "red", "orc_brute", "b"),
            unit("orc", "blue", "orc_brute", "o"),
        ],
        [8, 1, 5],
        [],
    )
    assert b.world.turn.order == ("ana", "orc", "bo")
    events = accepted(b, unit="ana", action="draw", item="longsword")
    assert answers(events) == [
        ("bo", "interrupt", "none",
         "bo keeps its Bonus Actions for a Parry against orc: ana's Draw is not worth "
         "interrupting"),
    ]  # fmt: skip


def test_auto_interrupts_a_spell_it_is_almost_sure_to_stop() -> None:
    """R-R7: mara lies Prone (no Dodge, R-R1), so grok's strike (6 + 7 = 13 against her RES
    Roll 2 + 4) stops her firebolt at cy: a spell is worth the 2 Bonus Actions."""
    b = begun(
        "#mg..c#",
        [
            unit("mara", "blue", "human_mage", "m", prone=True),
            unit("grok", "red", "orc_brute", "g"),
            unit("cy", "red", "orc_raider", "c"),
        ],
        [8, 1, 1],
        [6, 2, 3],
    )
    events = accepted(b, unit="mara", action="cast", spell="firebolt", target="cy")
    assert answers(events) == [
        ("grok", "interrupt", "interrupt", "grok interrupts mara's firebolt: 98 % to stop it")
    ]
    assert events[-1] == {
        "type": "action_lost", "unit": "mara", "action": "casting firebolt",
        "reason": "interrupted by grok (R-R7)",
    }  # fmt: skip


def test_auto_interrupts_a_ranged_attack_on_an_ally_when_no_one_else_comes() -> None:
    """R-R7: ari shoots at cy from next to grok. Ari's own next blow is unarmed (1 less hide's
    armour: nothing), so grok's Bonus Actions would save nothing: he interrupts. Ari dodges
    (her policy is auto too: 10 against 7 + 3 + 5 = 15) and shoots."""
    b = begun(
        "#ag..c#",
        [
            unit("ari", "blue", "human_archer", "a"),
            unit("grok", "red", "orc_brute", "g"),
            unit("cy", "red", "orc_raider", "c"),
        ],
        [8, 1, 1],
        [3, 7, 3, 3, 3, 3, 3],
    )
    events = accepted(b, unit="ari", action="attack", target="cy")
    assert answers(events)[:2] == [
        ("grok", "interrupt", "interrupt",
         "grok interrupts ari's ranged attack on cy: 23 % to stop it"),
        ("ari", "defence", "dodge", "ari dodges grok's Hit Roll 10: hit chance 100 % down to 9 %"),
    ]  # fmt: skip
    assert "action_lost" not in types(events)


def test_auto_keeps_its_bonus_actions_when_the_foe_next_to_it_acts_before_it() -> None:
    """The same shot with an orc brute next to grok that acts before him: what a Parry saves
    against the greataxe is worth more than stopping the shot (23 % of it)."""
    b = begun(
        "#ag..c#\n#o....#",
        [
            unit("ari", "blue", "human_archer", "a"),
            unit("grok", "red", "orc_brute", "g"),
            unit("cy", "red", "orc_raider", "c"),
            unit("orc", "blue", "orc_brute", "o"),
        ],
        [8, 1, 1, 3],
        [3, 3, 3],
    )
    assert b.world.turn.order == ("ari", "orc", "cy", "grok")
    events = accepted(b, unit="ari", action="attack", target="cy")
    assert answers(events)[0] == (
        "grok", "interrupt", "none",
        "grok keeps its Bonus Actions for a Parry against orc: stopping ari's ranged attack on "
        "cy is worth 2.2 HP",
    )  # fmt: skip


def hurt_ana(**ana: Any) -> Battle:
    """ana, a mage lying Prone with empty hands, who never reacts herself; gob, an orc raider,
    next to her and to bo, a fighter, acts first."""
    b = begun(
        "#as#\n#.b#",
        [
            unit("ana", "blue", "human_mage", "a", held=[], prone=True, policy="never", **ana),
            unit("gob", "red", "orc_raider", "s", held=["club"]),
            unit("bo", "blue", "human_fighter", "b"),
        ],
        [1, 8, 1],
        [3, 3, 3, 3, 3, 3],
    )
    assert b.world.turn.order == ("gob", "ana", "bo")
    return b


@pytest.mark.parametrize(
    ("hp", "said"),
    [
        (None, ("none", "bo keeps its Bonus Actions for a Parry against gob: stopping gob's melee "
                "attack on ana is worth 2.3 HP")),
        (2, ("interrupt", "bo interrupts gob's melee attack on ana (badly hurt): 25 % to stop "
             "it")),
    ],
)  # fmt: skip
def test_auto_interrupts_an_attack_on_a_badly_hurt_ally(
    hp: int | None, said: tuple[str, str]
) -> None:
    """R-R7: the club would down ana at 2 HP, worth `down` more: bo gives up his Parry against
    gob's next blow for a 25 % chance to stop it; not while she is unhurt."""
    b = hurt_ana(**({"hp": hp} if hp else {}))
    events = accepted(b, unit="gob", action="attack", target="ana")
    assert answers(events)[1] == ("bo", "interrupt", *said)


def test_auto_interrupts_a_grapple_on_an_ally() -> None:
    """R-R7, R-G1: a grapple holds ana for turns; gob, his Bonus Actions spent on it (a 1½
    Action: 2 half-actions and 2 Bonus Actions), cannot Dodge bo's strike."""
    b = hurt_ana()
    events = accepted(b, unit="gob", action="grapple", target="ana")
    assert answers(events)[1] == (
        "bo", "interrupt", "interrupt", "bo interrupts gob's Grapple on ana: 92 % to stop it"
    )  # fmt: skip


# --- Attack of Opportunity (R-R4) ---------------------------------------------------------------


def test_auto_takes_an_attack_of_opportunity_that_pays() -> None:
    """R-R4: ana leaves grok's reach and no one else comes at grok before his turn: the attack
    costs him no defence, so any damage expected pays for it."""
    b = begun(
        "#.ag.#",
        [unit("ana", "blue", "human_fighter", "a", hp=3), unit("grok", "red", "orc_brute", "g")],
        [8, 1],
        [8, 8, 8],
    )
    events = accepted(b, unit="ana", action="step", to=[1, 0])
    assert answers(events)[0] == (
        "grok", "attack_of_opportunity", "attack",
        "grok attacks ana as it leaves: 9 % to hit, 0.8 HP",
    )  # fmt: skip


def test_auto_declines_an_attack_of_opportunity_that_costs_a_parry_against_strong_foes() -> None:
    """R-R4: the dwarf, unhurt in plate, leaves grok while two orc brutes next to grok act
    before him: 0.3 HP expected is not worth the second Parry against a greataxe."""
    b = begun(
        "#.ag.#\n#..op#",
        [
            unit("ana", "blue", "dwarf_guard", "a"),
            unit("grok", "red", "human_fighter", "g"),
            unit("orc", "blue", "orc_brute", "o"),
            unit("ork", "blue", "orc_brute", "p"),
        ],
        [6, 1, 4, 3],
        [],
    )
    assert b.world.turn.order == ("ana", "orc", "ork", "grok")
    events = accepted(b, unit="ana", action="step", to=[1, 0])
    assert answers(events) == [
        ("grok", "attack_of_opportunity", "none",
         "grok lets ana go for a Parry against ork: the attack is worth 0.3 HP"),
    ]  # fmt: skip
    assert "attack_resolved" not in types(events)


# --- defences (R-R1..R-R3) ----------------------------------------------------------------------


def test_auto_defends_with_what_saves_the_most() -> None:
    """R-R1..R-R3: against grok's 3 + 7 = 10, bo (longsword, heater shield) parries: the Parry
    makes the greataxe miss all but certainly, and no one else comes at him before his turn."""
    b = begun(
        "#gb#",
        [unit("grok", "red", "orc_brute", "g"), unit("bo", "blue", "human_fighter", "b")],
        [6, 1],
        [3, 5, 5],
    )
    events = accepted(b, unit="grok", action="attack", target="bo")
    assert answers(events)[1] == (
        "bo", "defence", "parry", "bo parries grok's Hit Roll 10: hit chance 90 % down to 1 %"
    )  # fmt: skip
    assert types(events)[-1] == "attack_resolved"


def test_auto_keeps_its_bonus_action_against_a_goblin_for_the_brutes_that_come_next() -> None:
    """R-R1..R-R3: a Parry would save 2.4 HP against the goblin's 9; the two orc brutes next
    to bo act before him, and with 2 Bonus Actions he can parry only two blows."""
    b = begun(
        "#sb#\n#op#",
        [
            unit("gob", "red", "goblin_sneak", "s"),
            unit("bo", "blue", "human_fighter", "b"),
            unit("orc", "red", "orc_brute", "o"),
            unit("ork", "red", "orc_brute", "p"),
        ],
        [6, 1, 4, 3],
        [3, 10],
    )
    assert b.world.turn.order == ("gob", "orc", "ork", "bo")
    events = accepted(b, unit="gob", action="attack", target="bo")
    assert answers(events) == [
        ("bo", "interrupt", "none",
         "bo keeps its Bonus Actions for a Parry against orc: stopping gob's melee attack on bo "
         "is worth 1.2 HP"),
        ("bo", "defence", "none", "bo keeps its Bonus Action for a Parry against ork: a Parry "
         "saves 2.4 HP"),
    ]  # fmt: skip


def test_auto_does_not_defend_against_a_blow_its_armour_stops() -> None:
    """R-A3: ana's fist (1) does nothing through the dwarf's plate: no defence is worth a Bonus
    Action, whatever the Hit Roll; the orc next to bo keeps him from interrupting it too."""
    b = begun(
        "#ab#\n#.o#",
        [
            unit("ana", "blue", "human_fighter", "a", held=[]),
            unit("bo", "red", "dwarf_guard", "b"),
            unit("orc", "blue", "orc_brute", "o"),
        ],
        [8, 1, 5],
        [3, 5],
    )
    events = accepted(b, unit="ana", action="attack", target="bo")
    assert answers(events)[1] == (
        "bo", "defence", "none", "bo does not defend: ana's blow cannot hurt it"
    )  # fmt: skip
    assert events[-1]["type"] == "damaged" and events[-1]["amount"] == 0


# --- Catch (R-R6) -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fcs", "said"),
    [
        ("d8+14", ("catch", "bo catches ana's toss: worth 1.8 HP")),
        ("d8+7", ("none", "bo lets ana's toss fall: it cannot catch it")),
    ],
)
def test_auto_catches_what_an_ally_tosses_when_it_can(fcs: str, said: tuple[str, str]) -> None:
    """R-R6: an FCS Check against 15 + 0.5 kg: 7/8 to pass with FCS d8 + 14, none with + 7
    (at most 15), so bo does not spend his Bonus Action on it."""
    b = begun(
        "#a.b#",
        [
            unit("ana", "blue", "human_fighter", "a", held=["healing_potion"], carried=[]),
            unit("bo", "blue", "human_archer", "b", held=[], fcs=fcs),
        ],
        [8, 1],
        [5],
    )
    events = accepted(b, unit="ana", action="toss", item="healing_potion", target="bo")
    assert answers(events) == [("bo", "catch", *said)]


# --- the reason reaches the player --------------------------------------------------------------


def test_the_reason_reaches_the_log_the_markers_and_the_last_line() -> None:
    b = begun(
        "#ab#",
        [
            unit("ana", "blue", "human_fighter", "a", held=[], carried=["longsword"]),
            unit("bo", "red", "orc_brute", "b"),
        ],
        [8, 1],
        [],
    )
    start = len(b.log)
    accepted(b, unit="ana", action="draw", item="longsword")
    events = b.log[start:]
    answer = next(e for e in events if isinstance(e, ReactionAnswered))
    said = "bo keeps its Bonus Actions: ana's Draw is not worth interrupting"
    assert describe(answer) == f"{said} (auto)"
    assert to_json(answer)["reason"] == said
    made = markers(events, b.world, 0.0)
    assert [(m.unit, m.text, m.kind) for m in made] == [("bo", "holds back", REACTED)]
    assert said in summary(events, b.world)


def test_a_scripted_policy_logs_no_reason_as_before() -> None:
    """Logs of "always" and "never" answers keep their JSON: no `reason` key."""
    b = begun(
        "#ab#",
        [
            unit("ana", "blue", "human_fighter", "a", held=[], carried=["longsword"]),
            unit("bo", "red", "orc_brute", "b", policy="never"),
        ],
        [8, 1],
        [],
    )
    events = accepted(b, unit="ana", action="draw", item="longsword")
    answered = [e for e in events if e["type"] == "reaction_answered"]
    assert answered == [
        {"type": "reaction_answered", "unit": "bo", "window": "interrupt",
         "trigger": "ana starts a Draw next to bo", "options": ["interrupt", "none"],
         "choice": "none", "by": "policy"},
    ]  # fmt: skip
    answer = next(e for e in b.log if isinstance(e, ReactionAnswered))
    assert describe(answer) == "bo does not react, by its reaction policy"
    assert markers([answer], b.world, 0.0) == []


# --- the weights ----------------------------------------------------------------------------------


def test_the_weights_come_from_the_data_file() -> None:
    w = weights()
    assert isinstance(w, AutoWeights)
    assert {"draw", "aim", "consume"} <= w.minor
    assert w.worth["ability"] > w.worth["default"] > 0


def test_a_weights_table_without_a_key_names_it() -> None:
    with pytest.raises(KeyError, match="later"):
        parse_weights({"attacks_per_threat": 1, "worth": {"minor": []}})


# --- an objective at stake --------------------------------------------------------------------

BANNER = """
[[objectives]]
kind = "reach"
team = "blue"
at = [2, 0]

[[objectives]]
kind = "survive"
team = "red"
rounds = 2
"""


@pytest.mark.parametrize("banner", [False, True], ids=["no objective", "on blue's banner"])
def test_auto_interrupts_a_shove_off_the_cell_the_foes_win_by_reaching(banner: bool) -> None:
    """R-M5, R-R7: gob bars blue's banner by standing on it; ana's Shove would push him off and
    a Step then take it, the battle lost. With ana and lia next to him, his Bonus Actions
    are worth a Dodge, more than stopping a Shove worth 1 HP: not on the banner, where
    stopping the Shove is worth the battle (`objective`)."""
    b = begun(
        "#ag.#\n#.l.#",
        [
            unit("ana", "blue", "human_fighter", "a"),
            unit("gob", "red", "goblin_sneak", "g"),
            unit("lia", "blue", "elf_skirmisher", "l"),
        ]
        + ([BANNER] if banner else []),
        [8, 1, 3],
        [3, 3, 3, 3, 3, 3, 3, 3],
    )
    assert b.world.turn.order == ("ana", "lia", "gob")
    events = accepted(b, unit="ana", action="shove", target="gob")
    said = answers(events)[0]
    if banner:
        assert said == (
            "gob", "interrupt", "interrupt",
            "gob interrupts ana's Shove of gob off its objective: 19 % to stop it",
        )  # fmt: skip
    else:
        assert said[:3] == ("gob", "interrupt", "none")
        assert said[3] == (
            "gob keeps its Bonus Actions for a Dodge against ana: stopping ana's Shove is worth "
            "0.7 HP"
        )
