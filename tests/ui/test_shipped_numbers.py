"""Issue 16: the client's odds preview and reaction prompt show the shipped templates' numbers as
the data has them now. Unlike the other client transcripts (which state TRANSCRIPT_STATS so that
their loaded dice keep their meaning), the creatures here are the shipped templates unaltered,
and every expected number is worked out in this file from the catalog's dice, Bonuses and
ratings by counting every roll (R-A1..R-A3, R-R1..R-R3), so a retuned template or weapon changes
the expected numbers with it and never needs a number written down here."""

from __future__ import annotations

import itertools
import os
from fractions import Fraction
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from sim.content.scenario import load
from sim.core.dice import LoadedDice
from sim.play.engine import AwaitingReaction
from sim.ui.input.app import App
from sim.ui.model.actionbar import prompt_help
from sim.ui.model.session import Session
from sim.ui.words.forecast import DEFENCE_WORDS, percent
from tests.helpers import accepted, rating, shipped, wd
from tests.ui import test_client as client
from tests.ui.test_client import at, write_scenario
from tests.ui.test_odds import tip_lines

shots = client.shots  # the fixture: where the screenshots go ($SIM_SHOTS keeps them)

# ana, the shipped human_fighter (longsword, heater, mail), beside grok, the shipped orc_brute
# (greataxe, hide); both ask their player about reactions. No attribute is stated: the
# templates' own numbers are the ones under test.
SHIPPED = '''
name = "shipped numbers"
seed = 3

[map]
rows = """
##########
#........#
#..ab....#
#........#
##########
"""

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"
policy = "ask"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
policy = "ask"
'''


def faces(die: int, bonus: int = 0) -> list[int]:
    return [face + bonus for face in range(1, die + 1)]


def hit_chance(attacker: str, defender: str, defence: str) -> Fraction:
    """R-A1..R-A3 counted out: the first attack's FCS Roll + FCS Bonus against the defender's
    RES Roll plus what its defence adds (R-R1 Dodge: AGI Roll + Bonus; R-R2 Parry: the better of
    STR and AGI on average, + the greataxe's Parry Rating; R-R3 Block: RES Roll + Bonus + the
    heater's Block Rating); a hit is strictly greater (R-A3)."""
    hit = faces(*shipped(attacker, "fcs"))
    res_die, res_bonus = shipped(defender, "res")
    adds: list[int] = [0]
    if defence == "dodge":
        adds = faces(*shipped(defender, "agi"))
    elif defence == "parry":
        (sd, sb), (ad, ab) = shipped(defender, "str"), shipped(defender, "agi")
        better = (sd, sb) if (sd + 1) / 2 + sb >= (ad + 1) / 2 + ab else (ad, ab)
        adds = faces(better[0], better[1] + rating("greataxe"))
    elif defence == "block":
        adds = faces(res_die, res_bonus + rating("heater"))
    rolls = list(itertools.product(hit, faces(res_die), adds))
    return Fraction(sum(h > r + a for h, r, a in rolls), len(rolls))


def mean_adds(template: str, defence: str, item: str | None) -> float:
    """What a defence adds on average: the prompt's "about +N" (R-R1..R-R3)."""
    if defence == "dodge":
        die, bonus = shipped(template, "agi")
        return (die + 1) / 2 + bonus
    if defence == "parry":
        means = [(d + 1) / 2 + b for d, b in (shipped(template, "str"), shipped(template, "agi"))]
        return max(means) + (rating(item) if item else 0)
    die, bonus = shipped(template, "res")
    return (die + 1) / 2 + bonus + (rating(item) if item else 0)


def app_for(tmp_path: Path) -> App:
    """ana acts first: initiative 8 on her AGI d8 against grok's 1."""
    scenario = load(write_scenario(tmp_path, "shipped", SHIPPED))
    return App(Session(scenario, 3, battle=scenario.begin(LoadedDice([8, 1]))), (1280, 800))


def test_the_odds_preview_shows_the_shipped_numbers(tmp_path: Path, shots: Path) -> None:
    """ana hovers grok: each line gives the chance counted out from the shipped data and the
    longsword's WD less the hide's rating (R-A3), and what it comes to on average."""
    app = app_for(tmp_path)
    p = client.Player(app, shots)
    p.sit_down()
    assert client.acting(app) == "ana"
    p.hover(at(app, "grok"))
    shown = tip_lines(app)
    p.shot("shipped_odds")
    per_hit = max(0, wd("longsword") - rating("hide"))
    assert f"longsword (melee): {per_hit} damage a hit after armour" in shown
    expected = []
    for defence in ("dodge", "parry", "none"):
        chance = hit_chance("human_fighter", "orc_brute", defence)
        damage = float(chance) * per_hit
        expected.append(
            f"vs {DEFENCE_WORDS[defence]}: {percent(float(chance))} to hit, "
            f"{damage:.1f} damage expected"
        )
    assert [row for row in shown if row.startswith("vs ")] == expected


@pytest.mark.parametrize("defence", ["dodge", "parry", "block"])
def test_the_reaction_prompt_says_what_each_shipped_defence_adds(
    tmp_path: Path, shots: Path, defence: str
) -> None:
    """grok attacks ana: her defence prompt says, for each defence, what it adds on average as
    the shipped fighter's dice and Bonuses, the longsword's Parry Rating and the heater's Block
    Rating give it (R-R1..R-R3)."""
    scenario = load(write_scenario(tmp_path, "shipped", SHIPPED))
    # grok acts first: ana rolls 1 on her AGI d8, grok 6 on his d6; his Hit Roll's die is 4.
    battle = scenario.begin(LoadedDice([1, 6, 4]))
    app = App(Session(scenario, 3, battle=battle), (1280, 800))
    p = client.Player(app, shots)
    p.sit_down()
    assert client.acting(app) == "grok"
    accepted(battle, unit="grok", action="attack", target="ana")
    pending = battle.pending
    if isinstance(pending, AwaitingReaction) and pending.kind == "interrupt":
        accepted(battle, unit="ana", reaction="none")
        pending = battle.pending
    assert isinstance(pending, AwaitingReaction) and pending.kind == "defence", pending
    assert defence in pending.options
    item = {"dodge": None, "parry": "longsword", "block": "heater"}[defence]
    about = mean_adds("human_fighter", defence, item)
    stat = {
        "dodge": "AGI Roll",
        "parry": "STR or AGI Roll + weapon parry",
        "block": "RES Roll + shield block",
    }[defence]
    assert prompt_help(battle.world, pending, defence) == (
        f"Defense Roll + {stat} (about +{about:.0f}); costs 1 Bonus Action"
    )
    p.app.frame()
    p.shot(f"shipped_{defence}_prompt")
