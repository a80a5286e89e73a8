"""Issue #33, wording: every event type and every status-line message rendered with sample
values, as the log, the "Last:" line, the board's markers and the status line say them, and held
to the reviewed sentences in tests/ui/sentences.txt. A sentence that changes fails here until it
is reviewed: run with SIM_REVIEW_SENTENCES=1 to write the file anew, and read its diff.

Beside the list, the words of every line (and of whole battles on the shipped scenarios) are
checked for the slips a newcomer met: "is no longer has", "parrys", "reacts (its player)" for
the AI, "1 rounds", "cell(s)"."""

from __future__ import annotations

import dataclasses
import inspect
import os
import re
from pathlib import Path

import pytest

from sim.ai import seats as ai
from sim.content.scenario import load
from sim.core import events as ev
from sim.core.actions import Attack, Walk
from sim.core.components import Team
from sim.core.condition import Condition
from sim.core.geometry import Pos
from sim.core.purpose import AttackKind, RollKind
from sim.formats.replay import begin
from sim.ui.model.markers import markers, summary
from sim.ui.words.logbook import describe, lines
from sim.ui.words.status import SAYINGS, fields, say
from sim.ui.words.wording import item_words

TOP = Path(__file__).resolve().parents[2]
REVIEWED = Path(__file__).resolve().parent / "sentences.txt"
SKIRMISH = TOP / "scenarios" / "skirmish.toml"

# A creature's condition values as the engine gives them (sim/core/condition.py `holds`).
VALUES: dict[Condition, object] = {
    Condition.AIMING: 2, Condition.HANGING: Pos(3, 1), Condition.QUICKENED: 2,
    Condition.SLOWED: 1, Condition.BURNING: 2, Condition.BLEEDING: 1,
    Condition.FEINTED: 5, Condition.ASSISTED: "grok",
    Condition.ASSISTED_BY: "bram", Condition.ASSISTING: ("bram",), Condition.UNSEEN: ("grok",),
    Condition.GRAPPLING: "grok", Condition.GRAPPLED: "grok", Condition.GUARD_USED: 1,
    Condition.BREAK_FREE_TRIED: 1,
}  # fmt: skip
REACTIONS = ("dodge", "parry", "block", "attack", "interrupt", "catch", "none")


def sample_events() -> list[ev.Event]:
    """One or more of every event type, with the values a battle gives them."""
    found: list[ev.Event] = [
        ev.BattleStarted("Skirmish at the ford", 6, "seed 6"),
        ev.Rolled("ana", "hit roll: melee attack on grok", 8, 5, 4, 9, tag=RollKind.HIT),
        ev.Rolled("bram", "sprint distance (AGI Roll + Bonus)", 8, 3, 0, 3, tag=RollKind.SPRINT),
        ev.InitiativeRolled("ana", 9),
        ev.InitiativeOrder(("bram", "grok", "ana", "vex")),
        ev.RoundStarted(2),
        ev.TurnStarted("ana", 2),
        ev.BudgetRefilled("ana", 2, 2),
        ev.Spent("ana", "attack", "half", 1, 0),
        ev.Spent("ana", "draw", "free", 0, 0, "draw_stow", False),
        ev.Spent("ana", "dodge", "bonus", 0, 1),
        ev.TurnSkipped("ana", "ana is incapacitated"),
        ev.TurnEnded("ana"),
        ev.Damaged("ana", 5, "slashing", "grok's greataxe", 7, dealer="grok"),
        ev.Damaged("ana", 2, "fire", "burning", 0, dealer=None),
        ev.Healed("ana", 4, "healing potion", 11),
        ev.ItemDrawn("ana", "ana.dagger"),
        ev.ItemStowed("ana", "ana.longsword"),
        ev.ItemDropped("ana", "ana.heater", Pos(2, 2)),
        ev.ItemPickedUp("ana", "rock1"),
        ev.ItemConsumed("ana", "ana.healing_potion"),
        ev.ExtendedBegun("ana", "don", "ana.mail", 3),
        ev.ExtendedBegun("ana", "cast", "", 2),
        ev.ExtendedContinued("ana", "don", 2, 3),
        ev.ExtendedBroken("ana", "don", "ana took another action"),
        ev.ArmourDonned("ana", "ana.mail"),
        ev.ArmourDoffed("ana", "ana.mail"),
        ev.PolicySet("ana", "ask", "best"),
        ev.BattleEnded(("red",), "every other side is incapacitated (R-C6)"),
        ev.BattleEnded(("blue",), "blue held out for 1 round"),
        ev.BattleEnded((), "every side is incapacitated (R-C6)"),
        ev.Moved("ana", Pos(2, 2), Pos(3, 2), 2),
        ev.Jumped("ana", Pos(3, 2), Pos(5, 2), 4),
        ev.Jumped("ana", Pos(3, 2), Pos(5, 2), 4, True),
        ev.Fell("ana", Pos(9, 4), 3.0),
        ev.MoveCutShort("ana", Pos(4, 2), "the sprint allowed 6 m"),
        ev.Pushed("grok", Pos(5, 2), Pos(6, 2), "ana"),
        ev.Climbed("ana", Pos(2, 1), Pos(2, 1), 8.0, 8.0),
        ev.Climbed("ana", Pos(2, 1), Pos(3, 1), 0.0, 2.0),
        ev.AttackCounted("ana", 1),
        ev.AttackWindowReset("ana"),
        ev.AttackResolved("ana", "grok", "melee attack", 12, 9, True, tag=AttackKind.MELEE),
        ev.AttackResolved(
            "grok", "ana", "attack of opportunity", 7, 9, False, tag=AttackKind.OPPORTUNITY
        ),
        ev.ActionLost("ana", "attack", "grok interrupted it"),
        ev.AbilityUsed("mara", "firebolt", "grok", None, ("grok",)),
        ev.AbilityUsed("mara", "inferno", None, Pos(12, 3), ()),
        ev.ContestResolved("shove", "ana", 12, "grok", 9, "ana", tag=RollKind.SHOVE),
        ev.CheckResolved("grok", "save against firebolt", 7, 9.0, False, tag=RollKind.SAVE),
        ev.CheckResolved("grok", "save against firebolt", 11, 9.0, True, tag=RollKind.SAVE),
        ev.ItemThrown("ana", "ana.dagger", Pos(6, 2)),
        ev.ItemCaught("bram", "ana.dagger"),
        ev.PlanMade("ana", "enemy_within", 2.0, (), "", Attack("ana", "grok"), 1),
        ev.PlanMade("ana", "enters_area", 0.0, (Pos(4, 2),), "", Walk("ana", (Pos(3, 2),)), 1),
        ev.PlanTriggered("ana", "grok", "grok came within 2 m"),
        ev.PlanDropped("ana", "a new round began"),
        ev.InitiativeReordered(("ana", "bram", "grok", "vex")),
        ev.TurnResumed("ana", 2),
        ev.PlanRefused("ana", "grok is out of reach"),
    ]
    for condition in Condition:
        found.append(ev.ConditionGained("ana", condition, VALUES.get(condition, 1)))  # type: ignore[arg-type]
        found.append(ev.ConditionLost("ana", condition))
    found.append(ev.ConditionLost("ana", Condition.SWIMMING, "got up out of the water (R-M8)"))
    for choice in REACTIONS:
        options = (choice, "none")
        found.append(
            ev.ReactionAnswered("grok", "defence", "ana attacks grok", options, choice, "player")
        )
        found.append(
            ev.ReactionAnswered("grok", "defence", "ana attacks grok", options, choice, "policy")
        )
    found.append(
        ev.ReactionAnswered(
            "grok",
            "catch",
            "ana throws",
            ("catch", "none"),
            "catch, dropping grok.greataxe",
            "player",
        )
    )
    found.append(
        ev.ReactionAnswered(
            "grok",
            "defence",
            "ana attacks grok",
            ("parry", "none"),
            "parry",
            "policy",
            reason="grok parries ana's Hit Roll 10: hit chance 90 % down to 15 %",
        )
    )
    found.append(
        ev.ReactionAnswered(
            "grok",
            "defence",
            "ana attacks grok",
            ("parry", "none"),
            "none",
            "policy",
            reason="grok keeps its Bonus Action for a Parry against ana: a Dodge saves 2.2 HP",
        )
    )
    return found


# A message's values by their name (sim/ui/words/status.py), as the window fills them in.
SAMPLE_VALUES: dict[str, object] = {
    "why": "the last decision rolled dice; undo stops at a dice roll",
    "action": "sprint", "what": "a creature", "unit": "grok", "ally": "bram", "n": 2,
    "cell": Pos(3, 4), "cells": "2 cells", "trigger": "for when an enemy comes within 2 m",
    "then": "attack: click a creature (Esc cancels)", "path": "/saves/skirmish.save.json",
    "fault": "/saves/x.json: damaged save: not valid JSON at line 1, column 2 (Expecting value)",
    "scenario": "Skirmish at the ford", "seed": 7, "side": "BLUE", "reactions": "ask",
    "defence": "best", "level": "normal", "label": "Load the quick save", "scale": "1.25",
    "where": "decision 12/141 · turn 5/24 (grok) · round 3", "state": "paused", "typed": "",
    "more": "Left/Right: decision · Space: play/pause · F1: all keys",
    "status": "attack: click a creature (Esc cancels)", "chance": "40 % to hide from grok",
    "detail": "costs 1 half-action", "left": "3 edits", "problems": "2 problems",
    "key": "hp", "value": "'spear'",
    "tiles": "31 tiles", "kinds": "maps/desert.kinds.toml", "tile": 37, "tileset": "Desert",
    "entry": "open, water 1 m", "names": "open, difficult, wall, pit, fire, cover", "most": 1000,
}  # fmt: skip
# Values a message takes in another sense than the common one.
SAMPLE_FOR: dict[str, dict[str, object]] = {
    "cannot_rewind": {"what": "undo", "why": "take the screen first"},
    "undone": {"what": "ana's walk"},
    "confirm": {
        "what": "a Sprint rolls its distance (AGI Roll + Bonus), and its roll cannot be undone"
    },
    "editor_undone": {"what": "4 cells"},
    "editor_redone": {"what": "unit fighter2"},
    "editor_unit_field": {"key": "team", "value": "'red'", "unit": "fighter2"},
    "editor_not_toml": {"value": "spear"},
    "editor_unknown_field": {"key": "'colour'"},
    "editor_cannot_save": {"why": "Permission denied", "path": "maps/ford.toml"},
    "editor_saved": {"path": "maps/ford.toml"},
    "editor_saved_kinds": {"path": "maps/desert.toml"},
    "editor_cannot_save_kinds": {"path": "maps/desert.toml", "why": "Permission denied"},
    "editor_tile_metres": {"key": "depth"},
    "action_refused": {"action": "climb", "why": "ana has no climbable face within reach now"},
    "selected_no_attack": {"why": "grok at (9,2) is out of ana's reach (R-A4)"},
    "cannot_move": {"why": "(5,2) is a wall"},
    "ai_decided": {"why": "attacks grok: 72 % to hit, 5.1 damage expected"},
    "menu_refused": {"why": "dice were rolled in this battle since that save"},
    "area_refused": {"why": "(0,0) is a wall"},
    "button_odds": {"action": "hide"},
}


def rendered() -> list[str]:
    """Every sentence, one a line: `log`, `last` (the line beside the bar), `marker` (the
    board's words over a creature) for each sample event, and `status` for each message."""
    world = load(SKIRMISH).world
    names = item_words(world)
    out: list[str] = []
    for event in sample_events():
        kind = event.kind
        out.append(f"{kind} | log | {describe(event, None, names) or '(not in the log)'}")
        last = summary([event], world)
        if last:
            out.append(f"{kind} | last | {last}")
        for marker in markers([event], world, 0.0):
            out.append(f"{kind} | marker | {marker.text}")
    secret = ev.PlanMade("ana", "enemy_within", 2.0, (), "", Attack("ana", "grok"), 1)
    out.append(f"plan_made | log, hidden from the reader | {describe(secret, lambda u: True)}")
    steps = [ev.Moved("ana", Pos(2, 2), Pos(3, 2), 2), ev.Moved("ana", Pos(3, 2), Pos(4, 2), 2)]
    out.append(f"moved | log, a move's steps | {' / '.join(lines(steps))}")
    for name in SAYINGS:
        values = {f: SAMPLE_FOR.get(name, {}).get(f, SAMPLE_VALUES[f]) for f in fields(name)}
        out.append(f"status {name} | {say(name, **values)}")
    return out


# Slips a reader trips on; each was in the window once.
SLIPS = {
    "a condition's end read as 'is no longer' before a verb": r"\bno longer (has|may|is|tried)\b",
    "a verb ending in -ys": r"\b(parry|carry)s\b",
    "an AI's choice told as its player's": r"\(its player\)",
    "one with a plural noun": r"\b1 (rounds|cells|problems|turns|stacks|decisions)\b",
    "a plural in brackets": r"\(s\)",
    "a word twice": r"\b(\w+) \1\b",
    "a space before a comma or a full stop": r" [,.](\s|$)",
    "a None or a Python repr": r"\bNone\b|<[a-z]+\.[A-Za-z]",
}


def slips(line: str) -> list[str]:
    return [what for what, pattern in SLIPS.items() if re.search(pattern, line)]


def test_every_event_type_is_sampled() -> None:
    """The sample list covers every event the engine has, so a new one needs its sentence."""
    kinds = {
        cls for _, cls in inspect.getmembers(ev, inspect.isclass)
        if issubclass(cls, ev.Event) and cls is not ev.Event and dataclasses.is_dataclass(cls)
    }  # fmt: skip
    assert kinds - {type(e) for e in sample_events()} == set()


def test_every_sentence_is_a_reviewed_one() -> None:
    said = rendered()
    if os.environ.get("SIM_REVIEW_SENTENCES"):
        REVIEWED.write_text("\n".join(said) + "\n", encoding="utf-8")
    reviewed = REVIEWED.read_text(encoding="utf-8").splitlines()
    new = [line for line in said if line not in reviewed]
    gone = [line for line in reviewed if line not in said]
    assert not new and not gone, (
        "sentences changed (SIM_REVIEW_SENTENCES=1 writes tests/ui/sentences.txt anew; "
        f"review its diff):\nnew: {new}\ngone: {gone}"
    )
    print(f"{len(said)} sentences, as reviewed")


@pytest.mark.parametrize("line", rendered())
def test_no_sentence_has_a_slip(line: str) -> None:
    assert slips(line) == [], line


@pytest.mark.slow
def test_whole_battles_read_without_a_slip() -> None:
    """Random play of every shipped scenario, rendered as the log and the Last line: no slip
    in any line (the engine's own reasons included)."""
    seen = 0
    for path in sorted((TOP / "scenarios").glob("*.toml")):
        scenario = load(path)
        battle = begin(scenario, 3)
        teams = sorted({t.name for _, t in scenario.world.each(Team)})
        levels = dict.fromkeys(teams, "random")
        ai.take_seats(battle, levels)
        ai.play(battle, ai.players(levels, 3), round_cap=6)
        names = item_words(battle.world)
        said = lines(battle.log, None, names) + [summary([e], battle.world) for e in battle.log]
        for line in said:
            assert slips(line) == [], f"{path.name}: {line}"
        seen += len(said)
    print(f"{seen} lines of play read")
    assert seen > 1000


def test_the_window_says_nothing_outside_the_list() -> None:
    """Every message the window's status lines are given goes through sim/ui/words/status.py
    (so the test above sees it): no string written in place into `.status`, `.message` or
    `.refuse(...)` in the window and its model (sim/ui but the terminal's sim/ui/text, whose
    lines are its own)."""
    import ast

    def written(node: ast.AST | None) -> bool:
        """A string made in place: a literal or an f-string, or one of them chosen or added."""
        if isinstance(node, ast.IfExp):
            return written(node.body) or written(node.orelse)
        if isinstance(node, ast.BinOp):
            return written(node.left) or written(node.right)
        if isinstance(node, ast.BoolOp):
            return any(map(written, node.values))
        return isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(node.value)
        )

    found = []
    window = [p for p in (TOP / "sim" / "ui").rglob("*.py") if "text" not in p.parts]
    for path in sorted(window):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                named = [t.attr for t in targets if isinstance(t, ast.Attribute)]
                if {"status", "message"} & set(named) and written(node.value):
                    found.append(f"{path.relative_to(TOP)}:{node.lineno}")
            elif (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", "") == "refuse"
                and any(map(written, node.args))
            ):
                found.append(f"{path.relative_to(TOP)}:{node.lineno}")
    assert found == []
