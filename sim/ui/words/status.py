"""Every message the window's status lines say after a key or a click (no pygame), by name:
one place to read them all, and what tests/ui/test_sentences.py renders with sample values and
holds to the reviewed sentences. The words a message carries from elsewhere (an engine's
refusal, a save's fault) come in as values."""

from __future__ import annotations

from string import Formatter

from sim.play.decisions import to_json
from sim.play.engine import Decision

ESC = " (Esc cancels)"

# name -> the message, its values in braces (`say` fills them in).
SAYINGS: dict[str, str] = {
    # the board: choosing an action, a target, a cell
    "not_your_turn": "it is not your creature's turn",
    "refused": "refused: {why}",
    "why": "{why}",
    "action_refused": "{action}: {why}",
    "move_chosen": "{action}: click a cell",
    "any_move": "any Movement Action",
    "click_target": "{action}: click {what}" + ESC,
    "click_creature": "{action}: click a creature" + ESC,
    "choose_first": "choose from the list first" + ESC,
    "answer_first": "answer {unit}'s reaction first",
    "assist_step": "assist: click {what}" + ESC,
    "assist_ally": "assist {ally}: click {what}" + ESC,
    "disarm_which": "disarm {unit}: which weapon?" + ESC,
    "selected": "{unit} selected",
    "selected_no_attack": "{unit} selected; cannot attack: {why}",
    "cannot_move": "cannot move there: {why}",
    "disengage_refused": "refused: Disengage: {why}",
    "refused_after_disengage": "refused after Disengage: {why}",
    "waypoint": "waypoint {n} at {cell}",
    "confirm": "{what}: click again or press Enter to go ahead" + ESC,
    "confirm_dropped": "held back: nothing was decided",
    # Prepare
    "prepare_choose": "Prepare: choose the action to hold ready" + ESC,
    "prepare_trigger": "Prepare {trigger}: now choose the action to hold ready" + ESC,
    "prepare_held": "Prepare {trigger}: {then}",
    "prepare_cancelled": "Prepare cancelled",
    "area_help": "Prepare: click cells to mark the area, Enter when done" + ESC,
    "area_marked": "marked {cell}; {cells} marked. Click more, Enter when done" + ESC,
    "area_unmarked": "unmarked {cell}; {cells} marked. Click more, Enter when done" + ESC,
    "area_refused": "{why}. Click other cells, Enter when done" + ESC,
    "area_empty": "mark at least one cell first, then Enter" + ESC,
    # undo, saves, loads, a new game
    "cannot_rewind": "cannot {what}: {why}",
    "cannot_undo": "cannot undo: {why}",
    "undone": "undone: {what}",
    "undone_turn": "back to the start of the turn",
    "saved": "saved to {path}",
    "loaded": "loaded {path}",
    "cannot_load": "cannot load: {why}",
    "save_fault": "{fault}",
    "new_game": "a new battle of {scenario} (seed {seed})",
    "continued": "continued {path}",
    # sides, seats, policies, the AI
    "seated": "{side} has the screen",
    "policy": "{unit}: reactions {reactions}, defence {defence}",
    "no_policy": "select one of your creatures to set its reaction policy",
    "side_asked": "{side}: reactions asked",
    "side_automatic": "{side}: reactions automatic (auto)",
    "ai_decided": "AI {unit}: {why}",
    "ai_fast": "playing the AI's turn out",
    "ai_handed": "{side} is played by the AI ({level}); I takes it back",
    "ai_back": "{side} is played by its player again",
    "ai_no_side": "no side at the screen to hand to the AI",
    # the menu, the settings, the replay viewer
    "menu_refused": "{label}: {why}",
    "cannot_watch": "cannot watch it: {fault}",
    "back_from_replay": "back from the replay",
    "ui_scale": "UI scale {scale}",
    "replay": "Replay {where} · {state}{typed} · {more}",
    "replay_nowhere": "no further that way",
    # the action bar's own line
    "hidden_buttons": "({n} buttons need a taller window) {status}",
    "button_odds": "{action}: {chance}; {detail}",
    # the map editor
    "editor_saved": "Saved {path}",
    "editor_cannot_save": "Cannot save {path}: {why}",
    "editor_ask_save": "The map has {problems}. Save anyway? Y / N",
    "editor_not_saved": "Not saved",
    "editor_ask_quit": "The map has unsaved changes. Quit without saving? Y / N (Ctrl+S saves)",
    "editor_still": "Still editing",
    "editor_undone": "Undone: {what}; {left} left to undo (Ctrl+Y redoes)",
    "editor_nothing_to_undo": "Nothing to undo",
    "editor_cannot_place": "Cannot place it there: {why}",
    "editor_redone": "Redone: {what}",
    "editor_nothing_to_redo": "Nothing to redo",
    "editor_cannot_playtest": "Cannot play-test: {problems} (see the list)",
    "editor_playtest": "Play-test: close the window or press F10 to return to the editor",
    "editor_back": "Back in the editor; the map is as it was",
    "editor_cannot_balance": "Cannot check balance: {problems} (see the list)",
    "editor_balance_running": "A balance check is already running",
    "editor_field_hint": "Type key = value, e.g. hp = 8",
    "editor_not_toml": '{value} is not a TOML value (strings need quotes: "spear")',
    "editor_needs_string": "{key} must be a string in quotes",
    "editor_unit_field": "{unit}: {key} = {value}",
    "editor_override_set": "{unit}: {key} set",
    "editor_override_removed": "{unit}: {key} removed",
    "editor_seed": "seed must be a whole number",
    "editor_no_objective": "there is no objective {n} (the panel numbers them)",
    "editor_objective_removed": "objective {n} removed",
    "editor_unknown_field": (
        "unknown field {key} (name, description, seed, objective, objective N, objectives)"
    ),
    "editor_field_set": "{key} set",
    # the editor's palette of a Tiled map's tiles (issue #31)
    "editor_tiles_guessed": (
        "{tiles} had no kind and were guessed: click a tile in the Tiles list, then its kind"
    ),
    "editor_saved_kinds": "Saved {path} and {kinds}",
    "editor_cannot_save_kinds": "Saved {path}; cannot save {kinds}: {why}",
    "editor_tile_set": "Tile {tile} of {tileset}: {entry}",
    "editor_tile_kind": "kind must be one of {names}, in quotes",
    "editor_tile_climbable": "climbable must be true or false",
    "editor_tile_metres": "{key} must be 0 to {most} metres in half-metre steps",
}


def say(name: str, **values: object) -> str:
    """The message `name` with its values.

    >>> say("waypoint", n=2, cell="(3,4)")
    'waypoint 2 at (3,4)'
    """
    return SAYINGS[name].format(**values)


def fields(name: str) -> tuple[str, ...]:
    """The values message `name` takes, in order.

    >>> fields("policy")
    ('unit', 'reactions', 'defence')
    """
    return tuple(f for _, f, _, _ in Formatter().parse(SAYINGS[name]) if f)


def decision_words(decision: Decision) -> str:
    """A decision in a few words, for what undo took back.

    >>> from sim.play.decisions import parse
    >>> decision_words(parse({"unit": "ana", "action": "attack", "target": "grok"}))
    "ana's attack on grok"
    >>> decision_words(parse({"unit": "bo", "action": "end_turn"}))
    "bo's end turn"
    >>> decision_words(parse({"unit": "grok", "reaction": "none"}))
    "grok's answer (no reaction)"
    """
    data = to_json(decision)
    unit = data.get("unit", "")
    if "reaction" in data:
        choice = str(data["reaction"])
        return f"{unit}'s answer ({'no reaction' if choice == 'none' else choice})"
    what = data.get("action") or "reaction policy"
    target = data.get("target")
    return f"{unit}'s {str(what).replace('_', ' ')}" + (f" on {target}" if target else "")


def count(n: int, noun: str) -> str:
    """A number and its noun, one or many.

    >>> count(1, "cell"), count(3, "cell"), count(0, "problem")
    ('1 cell', '3 cells', '0 problems')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"
