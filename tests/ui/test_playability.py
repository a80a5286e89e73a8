"""Issue #15, the client's bugs and readability: what a hover says is what a click does (also on
a downed enemy), a climb that does not finish this action can be started from the board, undo
and the quick load stop at the same dice roll, the action bar's buttons keep their places, and
what the client shows a player is in words, not ids. Driven headless with posted events, as
tests/ui/test_client.py (screenshots go to $SIM_SHOTS when it is set)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.core.components import Health, Position
from sim.core.condition import Condition
from sim.core.creature import incapacitated
from sim.core.events import ConditionGained, Jumped, ReactionAnswered
from sim.core.geometry import Pos
from sim.play.decisions import parse
from sim.play.engine import AwaitingAction, AwaitingReaction
from sim.ui.input.app import App
from sim.ui.model.actionbar import base_label
from sim.ui.words.logbook import describe
from sim.ui.words.wording import free_used_words, item_words, rule_ids
from tests.helpers import stated
from tests.ui import test_client as client
from tests.ui.test_client import Player, at, make_app, seed_where, write_scenario

shots = client.shots  # the fixture: where the screenshots go ($SIM_SHOTS keeps them)

DOWNED_TEXT = """
name = "downed"
seed = 3

[map]
rows = \"\"\"
##########
#........#
#..ab...c#
#........#
##########
\"\"\"

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = "a"
{fighter}
[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
{brute}hp = 1

[[units]]
id = "zed"
team = "red"
template = "orc_brute"
at = "c"
{brute}"""
# The attributes these transcripts were written for (tests/helpers.py).
DOWNED = DOWNED_TEXT.replace("{fighter}", stated("human_fighter")).replace(
    "{brute}", stated("orc_brute")
)


def tip_lines(app: App) -> tuple[str, ...]:
    app.frame()
    assert app.renderer.tip is not None, "no tip is shown"
    return app.renderer.tip[0]


def down_grok(app: App) -> None:
    """Play until grok (1 HP) is down and it is ana's turn with a half-action left: ana
    attacks grok whenever she can, everyone else ends the turn, no one defends."""
    session = app.session
    for _ in range(80):
        pending = session.battle.pending
        down = incapacitated(app.world, "grok")
        if isinstance(pending, AwaitingReaction):
            session.submit(parse({"unit": pending.unit, "react": "none"}))
        elif isinstance(pending, AwaitingAction) and pending.unit == "ana" and not down:
            result = session.submit(parse({"unit": "ana", "action": "attack", "target": "grok"}))
            if hasattr(result, "reason"):
                session.submit(parse({"unit": "ana", "action": "end_turn"}))
        elif isinstance(pending, AwaitingAction) and pending.unit == "ana":
            if app.session.battle.world.need("ana", Health).hp > 0:
                break
        elif isinstance(pending, AwaitingAction):
            session.submit(parse({"unit": pending.unit, "action": "end_turn"}))
    assert incapacitated(app.world, "grok")
    # A fresh turn, so a half-action is left for the click.
    session.submit(parse({"unit": "ana", "action": "end_turn"}))
    for _ in range(4):
        pending = session.battle.pending
        if isinstance(pending, AwaitingAction) and pending.unit != "ana":
            session.submit(parse({"unit": pending.unit, "action": "end_turn"}))
    assert session.battle.pending == AwaitingAction("ana")
    app.sync()


def test_hover_and_click_agree_on_a_downed_enemy(tmp_path: Path, shots: Path) -> None:
    """grok is down (Incapacitated at 0 HP or less, R-C6) beside ana: the hover says a click
    attacks him, and the click attacks him; HP is shown as the engine keeps it (below 0 is
    still only "down"). From two cells away the attack is refused: the hover offers no path
    into his cell (a click on a creature never moves there), and the click selects him."""
    app = make_app(write_scenario(tmp_path, "downed", DOWNED))
    p = Player(app, shots)
    down_grok(app)
    p.sit_down()
    hp = app.world.need("grok", Health).hp
    assert hp <= 0
    p.hover(at(app, "grok"))
    rows = tip_lines(app)
    assert rows[0] == f"grok  HP {hp}/16, down"
    assert "it is out of the fight: a hit only lowers its HP" in rows
    assert "click: attack grok (½)" in rows
    assert app.scene.plan(app.session, app.view) is None
    p.shot("downed_enemy_hover")
    decisions = len(app.session.battle.decisions)
    p.click_cell(at(app, "grok"))
    assert app.session.battle.decisions[decisions:] == [
        parse({"unit": "ana", "action": "attack", "target": "grok"})
    ]
    assert app.world.need("ana", Position).cell == Pos(3, 2)

    # One cell further off: out of reach, and a path could end in the downed creature's cell.
    app.session.submit(parse({"unit": "ana", "action": "step", "path": [[2, 2]]}))
    app.sync()
    p.hover(Pos(1, 1))
    p.hover(at(app, "grok"))
    rows = tip_lines(app)
    assert app.scene.plan(app.session, app.view) is None
    assert not any(row.startswith(("Step", "Walk", "Run")) for row in rows), rows
    assert "cannot attack:" in rows and rows[-2:] == ("click to select it", "rules: R-A4")
    p.click_cell(at(app, "grok"))
    assert app.view.selected == "grok"
    assert app.world.need("ana", Position).cell == Pos(2, 2)
    assert "cannot attack" in app.view.status
    pygame.event.clear()


CLIFF_FORT = Path(__file__).resolve().parents[2] / "scenarios" / "cliff_fort.toml"


def test_a_climb_that_stops_part_way_is_started_from_the_board(shots: Path) -> None:
    """Cliff fort: lia, two cells off the watchtower, has no face to climb: her Climb button is
    struck through, and a click on it says why and chooses nothing (issue #33: a struck-through
    button entered its click-a-cell mode all the same). ana, beside it, chooses Climb: the
    tower lights up, the tip says she stops 8 m up the 10 m face, and the click climbs (the
    engine's partial climb, docs/examples/cliff_climb.jsonl)."""
    app = make_app(CLIFF_FORT, seed=seed_where(CLIFF_FORT, "lia", "ana"))
    p = Player(app, shots)
    p.sit_down()
    assert app.view.selected == "lia"
    tower = Pos(3, 1)
    p.button("action", "climb")
    assert app.view.move_only is None
    assert app.view.status == (
        "climb: lia has no climbable face beside it to climb up or down (R-M7)"
    )
    p.shot("climb_struck")

    p.key(pygame.K_e)  # ana is of lia's side: no handover
    assert app.view.selected == "ana"
    p.button("action", "climb")
    assert app.view.move_only == "climb"
    reach = app.scene.reach_cells(app.session, app.view)
    assert reach == {tower: "climb"}
    p.hover(tower)
    rows = tip_lines(app)
    assert rows[:2] == (
        "Climb 8 m",
        "stops part-way: hangs 8 m up the 10 m face, 2 m short of the top; climb on with "
        "another Climb",
    )
    p.shot("climb_part_way")
    p.click_cell(tower)
    assert app.session.battle.decisions[-1] == parse(
        {"unit": "ana", "action": "climb", "path": [[3, 1]]}
    )
    assert app.world.need("ana", Position) == Position(Pos(2, 1), 8.0)

    # Her next turn, hanging: Climb lights her own cell too, and a click there climbs back
    # down the 8 m to the ground below (R-M7), as the engine allows (Climb to where she is).
    app.session.submit(parse({"unit": "ana", "action": "end_turn"}))
    for _ in range(6):
        pending = app.session.battle.pending
        if pending == AwaitingAction("ana"):
            break
        assert isinstance(pending, AwaitingAction), pending
        app.session.submit(parse({"unit": pending.unit, "action": "end_turn"}))
    app.sync()
    if app.view.handover is not None:
        p.sit_down()
    app.view.selected = "ana"
    p.button("action", "climb")
    here = Pos(2, 1)
    assert app.scene.reach_cells(app.session, app.view).get(here) == "climb"
    p.hover(here)
    rows = tip_lines(app)
    assert rows[0] == "Climb 8 m", rows
    p.shot("climb_back_down")
    app.view.show_reach = False  # the overlay hidden: the click still climbs down
    p.click_cell(here)
    assert app.session.battle.decisions[-1] == parse(
        {"unit": "ana", "action": "climb", "path": [[2, 1]]}
    )
    assert app.world.need("ana", Position) == Position(here, 0.0)


def to_anas_turn(app: App, p: Player) -> None:
    """End the other creatures' turns until ana's, and take the screen for blue."""
    for _ in range(4):
        pending = app.session.battle.pending
        if isinstance(pending, AwaitingAction) and pending.unit != "ana":
            app.session.submit(parse({"unit": pending.unit, "action": "end_turn"}))
    assert app.session.battle.pending == AwaitingAction("ana")
    app.sync()
    if app.view.handover is not None:
        p.sit_down()
    assert app.view.side == "blue"


def test_undo_undo_turn_and_the_quick_load_never_take_back_a_dice_roll(
    tmp_path: Path, shots: Path
) -> None:
    """One rule for Z, Shift+Z and F9 while the battle goes on: a die once rolled stays
    rolled. ana saves (F5), steps, and F9 takes the step back (nothing was rolled). She saves
    again, attacks grok (dice), then steps: Z takes the step back, and no more; Shift+Z stops
    just after the attack; F9 is refused with the reason and changes nothing. A save made after
    the roll loads."""
    app = make_app(write_scenario(tmp_path, "downed", DOWNED))
    p = Player(app, shots)
    to_anas_turn(app, p)
    p.key(pygame.K_F5)
    saved = list(app.session.battle.decisions)
    p.click_cell(Pos(3, 1))
    assert app.world.need("ana", Position).cell == Pos(3, 1)
    p.key(pygame.K_F9)
    assert app.view.status.startswith("loaded")
    assert app.session.battle.decisions == saved
    to_anas_turn(app, p)
    assert app.world.need("ana", Position).cell == Pos(3, 2)

    p.key(pygame.K_F5)
    p.click_cell(at(app, "grok"))  # an attack: dice are rolled
    attacked = list(app.session.battle.decisions)
    assert attacked[-1] == parse({"unit": "ana", "action": "attack", "target": "grok"})
    # A step (Bonus Action) that stays within grok's reach: no Attack of Opportunity, no dice
    # (grok, policy "auto", kept his Bonus Actions rather than interrupt the attack).
    p.click_cell(Pos(3, 1))
    stepped = list(app.session.battle.decisions)
    p.key(pygame.K_z)
    assert app.view.status == "undone: ana's step"
    assert app.session.battle.decisions == attacked
    p.key(pygame.K_z)
    assert app.view.status == (
        "cannot undo: the last decision rolled dice; undo stops at a dice roll"
    )
    p.click_cell(Pos(3, 1))
    assert app.session.battle.decisions == stepped
    p.key(pygame.K_z, mod=pygame.KMOD_SHIFT)
    assert app.view.status == "back to the start of the turn"
    assert app.session.battle.decisions == attacked
    p.key(pygame.K_z, mod=pygame.KMOD_SHIFT)
    assert app.view.status == (
        "cannot undo: the last decision rolled dice; undo stops at a dice roll"
    )
    p.key(pygame.K_F9)
    assert app.view.status == (
        "cannot load: dice were rolled in this battle since that save; a load, like undo, "
        "never takes back a dice roll while the battle goes on"
    )
    assert app.session.battle.decisions == attacked
    p.shot("load_refused")
    p.key(pygame.K_F5)
    p.click_cell(Pos(3, 1))
    p.key(pygame.K_F9)  # the save after the roll: only the step is taken back
    assert app.view.status.startswith("loaded")
    assert app.session.battle.decisions == attacked


def action_buttons(app: App) -> dict[str, pygame.Rect]:
    app.frame()
    return {v: r for r, k, v in app.renderer.hits.items if k == "action"}


def test_the_action_bar_buttons_keep_their_places(tmp_path: Path, shots: Path) -> None:
    """ana stows her longsword (a free Draw/Stow), so the next one costs "free+1B"; she
    steps, attacks, and Slow is toggled: costs change and buttons become unavailable, but
    every button stays where it was. An unavailable one shows the cost it would have, greyed,
    never "—", and says why on hover."""
    app = make_app(write_scenario(tmp_path, "downed", DOWNED))
    p = Player(app, shots)
    to_anas_turn(app, p)
    places = action_buttons(app)
    labels = {e.name: e.label for e in app.renderer.bar.entries}
    assert labels["draw"] == "free" and labels["sprint"] == "1+1B"
    app.session.submit(parse({"unit": "ana", "action": "stow", "item": "ana.longsword"}))
    app.sync()
    assert action_buttons(app) == places
    assert {e.name: e.label for e in app.renderer.bar.entries}["draw"] == "free+1B"
    p.click_cell(Pos(3, 1))  # a step
    p.key(pygame.K_s)  # Slow
    assert action_buttons(app) == places
    entries = {e.name: e for e in app.renderer.bar.entries}
    assert all(e.label != "—" for e in entries.values())
    assert entries["step"].ok and entries["step"].label == "½"  # a Bonus Action slowed
    refused = [e for e in entries.values() if not e.ok]
    assert refused, "something is unavailable now"
    for entry in refused:
        assert entry.label == base_label(app.world.rules, entry.name, slow=True), entry
    assert not entries["break_free"].ok and entries["break_free"].label == "Full"
    p.shot("bar_slowed")
    p.move_mouse(places["break_free"].center)
    status = app.renderer.bar_status
    words, ids = rule_ids(entries["break_free"].detail)
    assert status == "break free: " + words  # the rule's id is shown apart, dim (R-B3)
    assert ids == ("R-B3",) and app.renderer.bar_details == ids
    p.key(pygame.K_s)
    p.key(pygame.K_e)
    assert app.session.battle.pending != AwaitingAction("ana")
    p.sit_down()
    assert action_buttons(app) == places  # the other side's turn: the same places


def test_the_client_tells_a_player_words_not_ids(tmp_path: Path, shots: Path) -> None:
    """The sidebar says which Free Action was used in words ("free draw or stow used"), not
    "free used: draw_stow"; the log names items ("ana stows the longsword", a Catch that
    drops "the heater shield"), never their ids, and conditions in words."""
    app = make_app(write_scenario(tmp_path, "downed", DOWNED))
    p = Player(app, shots)
    to_anas_turn(app, p)
    p.key(pygame.K_F5)  # no id reaches the status line either
    app.session.submit(parse({"unit": "ana", "action": "stow", "item": "ana.longsword"}))
    app.sync()
    app.frame()
    log = app.scene.log_lines(app.session, app.view)
    assert "ana stows the longsword" in log
    assert not any("ana.longsword" in line for line in log)
    shown = app.scene.unit_lines(app.session, app.view, "ana")
    assert not any("draw_stow" in line or "ana." in line for line in shown), shown
    p.shot("words_not_ids")
    names = item_words(app.world)
    catch = ReactionAnswered(
        "ana", "catch", "grok throws", ("catch",), "catch, dropping ana.heater", "player"
    )
    assert describe(catch, None, names) == "ana catches it, dropping the heater shield"
    assert describe(ConditionGained("ana", Condition.BREAK_FREE_TRIED, 2)) == (
        "ana: tried to break free this turn"
    )
    assert describe(ConditionGained("ana", Condition.HANGING, Pos(3, 1))) == (
        "ana: hanging on the face of (3,1)"
    )
    assert describe(ConditionGained("ana", Condition.FEINTED, 5)) == (
        "ana: feint ready (+5 to the next melee Hit Roll)"
    )
    assert describe(Jumped("ana", Pos(1, 1), Pos(3, 1), 4, grabbed_ledge=True)) == (
        "ana jumps (1,1) -> (3,1) (2 m), grabbing the ledge"
    )
    assert free_used_words(["draw_stow"]) == (
        "free draw or stow used (another costs a Bonus Action)"
    )


def test_swim_dive_and_climb_are_offered_only_where_they_go_somewhere(shots: Path) -> None:
    """Cliff fort has no water: Swim and the dive are unavailable, with the reason; Climb is
    unavailable to lia (no face beside her) and available to ana beside the watchtower;
    Crawl, as before, says a creature must be prone."""
    app = make_app(CLIFF_FORT, seed=seed_where(CLIFF_FORT, "lia", "ana"))
    p = Player(app, shots)
    p.sit_down()
    app.frame()
    lia = {e.name: e for e in app.renderer.bar.entries}
    assert lia["swim"].detail == "lia has no water it can swim in within reach now (R-M8)"
    assert not lia["swim"].ok and not lia["dive"].ok and lia["dive"].label == "1"
    assert lia["climb"].detail == ("lia has no climbable face beside it to climb up or down (R-M7)")
    assert not lia["climb"].ok and not lia["crawl"].ok
    p.shot("no_water_no_face")
    p.key(pygame.K_e)
    app.frame()
    ana = {e.name: e for e in app.renderer.bar.entries}
    assert ana["climb"].ok and not ana["swim"].ok
