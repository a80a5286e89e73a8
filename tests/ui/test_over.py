"""Issue #15: the battle-over screen sums the battle up (who won, the rounds, each creature's
damage dealt and taken) and offers to play again; and a new player is told in the sidebar
that reactions are automatic, until they press P."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.core.components import Health
from sim.core.events import BattleEnded, Damaged
from sim.play.apply import apply
from sim.play.decisions import parse
from sim.play.engine import AwaitingAction, AwaitingReaction, BattleOver
from sim.ui.input.app import App
from sim.ui.input.hints import REACTION_HINT
from sim.ui.words.outcome import summary
from tests.helpers import battle, scenario_text, unit
from tests.ui import test_client as client
from tests.ui.test_client import Player, make_app, seed_where, write_scenario

shots = client.shots

LAST_STAND = """
name = "last stand"
seed = 3

[map]
rows = \"\"\"
#######
#.ab..#
#######
\"\"\"

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
hp = 1
"""


def fight_to_the_end(app: App) -> None:
    """ana attacks grok whenever she can and ends her turn when she cannot; grok ends its
    turns; nobody reacts."""
    session = app.session
    for _ in range(200):
        pending = session.battle.pending
        if isinstance(pending, BattleOver):
            break
        if isinstance(pending, AwaitingReaction):
            app.submit(parse({"unit": pending.unit, "react": "none"}))
        elif isinstance(pending, AwaitingAction) and pending.unit == "ana":
            result = app.submit(parse({"unit": "ana", "action": "attack", "target": "grok"}))
            if hasattr(result, "reason"):
                app.submit(parse({"unit": "ana", "action": "end_turn"}))
        else:
            app.submit(parse({"unit": pending.unit, "action": "end_turn"}))
    assert isinstance(session.battle.pending, BattleOver)


def test_the_battle_over_screen_sums_up_and_plays_again(tmp_path: Path, shots: Path) -> None:
    path = write_scenario(tmp_path, "last", LAST_STAND)
    app = make_app(path, seed_where(path, "ana"))  # blue first, whatever the shipped AGI
    p = Player(app, shots)
    fight_to_the_end(app)
    battle = app.session.battle
    dealt = sum(
        e.amount for e in battle.log if isinstance(e, Damaged) and e.source.startswith("ana's ")
    )
    lines = summary(battle)
    rounds = battle.world.turn.round
    assert lines[0] == f"BLUE wins after {rounds} round{'s' if rounds != 1 else ''}"
    # grok only ends its turns, but its standing policy may Interrupt ana's attacks (R-R7).
    taken = sum(e.amount for e in battle.log if isinstance(e, Damaged) and e.unit == "ana")
    health = battle.world.need("ana", Health)
    assert (
        f"ana (blue): dealt {dealt}, took {taken}, HP {health.hp}/{health.max_hp}, standing"
        in lines
    ), lines
    assert any(
        line.startswith(f"grok (red): dealt {taken}, took {dealt}, HP ") for line in lines
    ), lines
    assert lines[1] == "every other side is incapacitated"  # the rule id is not for players
    assert lines[-1].endswith("down")
    p.shot("battle_over")
    seed = app.session.seed
    p.button("over", "again")
    assert not isinstance(app.session.battle.pending, BattleOver)
    assert app.session.seed == seed + 1 and app.session.battle.decisions == []
    assert summary(app.session.battle) == []
    fight_to_the_end(app)
    p.key(pygame.K_n)  # the key does the same
    assert app.session.seed == seed + 2
    pygame.event.clear()


def test_the_sidebar_says_reactions_are_automatic_until_p(tmp_path: Path, shots: Path) -> None:
    """A first battle: the hint is in the sidebar; P (reactions asked) takes it away, and a
    new window no longer shows it (it is remembered beside the saves)."""
    path = write_scenario(tmp_path, "last", LAST_STAND)
    app = make_app(path, seed_where(path, "ana"))
    p = Player(app, shots)
    if app.view.handover is not None:
        p.sit_down()
    assert app.view.hint == REACTION_HINT  # blue's creatures answer by their policy
    p.shot("reactions_hint")
    app.view.selected = "ana"
    p.key(pygame.K_p)
    assert app.view.status.startswith("ana: reactions ")
    assert app.view.hint == ""
    assert make_app(path).view.hint == ""


def test_no_reactions_hint_for_a_side_already_asked(tmp_path: Path) -> None:
    """The duel's creatures ask their players (policy "ask"): nothing to tell."""
    app = make_app(client.write_scenario(tmp_path, "duel", client.DUEL))
    if app.view.handover is not None:
        Player(app, tmp_path).sit_down()
    assert app.hints.due and app.view.hint == ""


def test_tags_damage_dealt_is_counted_for_its_dealer_whatever_its_words() -> None:
    """The summary credits a Damaged event to its `dealer`; its `source` is words only: "a
    blow" names nobody, "grok's fall" is nobody's."""
    units = unit("ana", "blue", "human_fighter", "a") + "\n" + unit("grok", "red", "orc_brute", "g")
    b = battle(scenario_text("ag.", units), [8, 1])
    for event in (
        Damaged("grok", 3, "slashing", "a blow", 13, dealer="ana"),
        Damaged("ana", 2, "crushing", "grok's fall", 13, dealer=None),
        BattleEnded(("blue",), "every other side is incapacitated"),
    ):
        apply(b.world, event)
        b.log.append(event)
    lines = summary(b)
    assert [line.split(", HP")[0] for line in lines[2:]] == [
        "ana (blue): dealt 3, took 2",
        "grok (red): dealt 0, took 3",
    ]
