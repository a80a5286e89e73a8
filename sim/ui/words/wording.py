"""The engine's names in a player's words (no pygame): conditions with their values, the kinds
of Free Action used, and item ids, for the sidebar, the log, tips and prompts."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from sim.core.components import Item
from sim.core.condition import Value, written
from sim.core.world import World
from sim.rules.combat.items import item_name

ItemWords = Callable[[str], str]

# The once-a-turn Free Actions (R-B3), by the kind the budget records.
FREE_KINDS = {"draw_stow": "draw or stow", "drop": "drop", "consume": "consume"}


def id_words(item: str) -> str:
    """An item id read as words when the world no longer knows the item (a potion drunk):
    its kind as written after the owner.

    >>> id_words("bo.heater"), id_words("healing_potion"), id_words("rock12")
    ('heater', 'healing potion', 'rock')
    """
    return item.rsplit(".", 1)[-1].rstrip("0123456789").replace("_", " ")


def item_words(world: World) -> ItemWords:
    """Item ids to the names a player uses (`sim.rules.combat.items.item_name`), for items the world
    still
    holds; others as `id_words`."""

    def name(item: str) -> str:
        try:
            return item_name(world, item)
        except (KeyError, LookupError, AttributeError):
            return id_words(item)

    return name


def free_used_words(kinds: tuple[str, ...] | frozenset[str] | list[str]) -> str:
    """The Free Actions already taken this turn (a second one costs a Bonus Action, R-B3).

    >>> free_used_words(["draw_stow"])
    'free draw or stow used (another costs a Bonus Action)'
    """
    used = ", ".join(FREE_KINDS.get(k, k.replace("_", " ")) for k in sorted(kinds))
    return f"free {used} used (another costs a Bonus Action)"


def _listed(value: Value) -> str:
    return ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)


def _stacks(value: Value, noun: str) -> str:
    return f"{value} {noun}{'' if value == 1 else 's'}"


def condition_words(name: str, value: Value) -> str:
    """A condition and its value as a player reads it.

    >>> from sim.core.geometry import Pos
    >>> condition_words("break_free_tried", 2), condition_words("hanging", Pos(3, 1))
    ('tried to break free this turn', 'hanging on the face of (3,1)')
    >>> condition_words("burning", 2), condition_words("grappled", "grok")
    ('burning (2 stacks)', 'grappled by grok')
    >>> condition_words("unseen", ("ana", "bo")), condition_words("feinted", 5)
    ('unseen by ana, bo', 'feint ready (+5 to the next melee Hit Roll)')
    """
    simple = {
        "incapacitated": "down (Incapacitated)",
        "guard_used": "has guarded this round",
        "disengaged": "disengaged (moves without provoking)",
        "submerged": "under water",
        "break_free_tried": "tried to break free this turn",
    }
    if name in simple:
        return simple[name]
    words = {
        "hanging": lambda v: f"hanging on the face of ({written(v)})",
        "grappled": lambda v: f"grappled by {v}",
        "grappling": lambda v: f"grappling {v}",
        "burning": lambda v: f"burning ({_stacks(v, 'stack')})",
        "bleeding": lambda v: f"bleeding ({_stacks(v, 'stack')})",
        "quickened": lambda v: f"quickened ({_stacks(v, 'turn end')} left)",
        "aiming": lambda v: f"aiming (+{v} to the next ranged Hit Roll)",
        # The feinter holds the bonus: "ana: feinted" read as though ana had been fooled.
        "feinted": lambda v: f"feint ready (+{v} to the next melee Hit Roll)",
        "unseen": lambda v: "unseen" if isinstance(v, int) else f"unseen by {_listed(v)}",
        "assisted": lambda v: f"assisted against {v}",
        "assisted_by": lambda v: f"helped by {v}",
        "assisting": lambda v: f"assisting {_listed(v)}",
    }
    if name in words and value not in ("",):
        return str(words[name](value))
    plain = name.replace("_", " ")
    return plain if value in (1, "", True) else f"{plain} ({written(value)})"


# How a condition's end reads after the creature's name, where "is no longer ..." would not
# ("ana is no longer has guarded"): the others read "is no longer" and their plain words.
LOST_WORDS = {
    "guard_used": "may guard again",
    "break_free_tried": "may try to break free again",
    "incapacitated": "is back in the fight",
    "hanging": "no longer hangs on a face",
    "unseen": "is seen again",
    "assisted_by": "is no longer helped",
    "submerged": "is no longer under water",
    "disengaged": "no longer moves without provoking",
    "feinted": "loses the feint's bonus",
}


def condition_lost_words(name: str) -> str:
    """A condition's end as a player reads it after the creature's name; "" for bookkeeping.

    >>> condition_lost_words("guard_used"), condition_lost_words("prone")
    ('may guard again', 'is no longer prone')
    >>> condition_lost_words("grappled")
    'is no longer grappled'
    """
    if name in LOST_WORDS:
        return LOST_WORDS[name]
    return f"is no longer {name.replace('_', ' ')}"


# A reaction taken, as the log says it after the creature's name ("grok parries").
REACTION_DONE = {
    "dodge": "dodges",
    "parry": "parries",
    "block": "blocks",
    "attack": "makes an Attack of Opportunity",
    "interrupt": "interrupts",
    "catch": "catches it",
    "none": "does not react",
}


def reaction_done(choice: str, names: ItemWords = id_words) -> str:
    """A reaction chosen, after the creature's name; a Catch that frees a hand names the item
    it drops (`names`: item ids in words).

    >>> reaction_done("parry"), reaction_done("none"), reaction_done("catch, dropping bo.rock")
    ('parries', 'does not react', 'catches it, dropping the rock')
    """
    first, _, rest = choice.partition(", dropping ")
    words = REACTION_DONE.get(first, first.replace("_", " "))
    return f"{words}, dropping the {names(rest)}" if rest else words


RULE_ID = r"R-[A-Z]{1,2}\d+[a-z]?"
_ONLY_IDS = re.compile(rf"\s*\(\s*{RULE_ID}(?:\s*(?:,|/|and)\s*{RULE_ID})*\s*\)")
_IDS_LEAD = re.compile(rf"\(\s*{RULE_ID}(?:\s*(?:,|/|and)\s*{RULE_ID})*\s*[:;,]\s*")
_BARE = re.compile(rf"\s*\b{RULE_ID}\b")


@lru_cache(maxsize=512)  # tips ask it for the same rows every frame
def rule_ids(text: str) -> tuple[str, tuple[str, ...]]:
    """A text for a player without its rule ids, and the ids, for a details line: the
    words say what happened, the ids say where the rules are.

    >>> rule_ids("ana has no water it can swim in within reach now (R-M8)")
    ('ana has no water it can swim in within reach now', ('R-M8',))
    >>> rule_ids("ana has nothing that Quickens actions (R-B6: Quicken needs a source)")
    ('ana has nothing that Quickens actions (Quicken needs a source)', ('R-B6',))
    >>> rule_ids("dodge, slowed (R-B7): costs 2 half-actions; ana is Slowed (R-K3, R-B6)")
    ('dodge, slowed: costs 2 half-actions; ana is Slowed', ('R-B7', 'R-K3', 'R-B6'))
    >>> rule_ids("no ids here")
    ('no ids here', ())
    """
    ids = tuple(dict.fromkeys(re.findall(RULE_ID, text)))
    if not ids:
        return text, ()
    out = _ONLY_IDS.sub("", text)
    out = _IDS_LEAD.sub("(", out)
    out = _BARE.sub("", out)
    out = re.sub(r"\(\s*\)", "", out)
    out = re.sub(r"\s+([,;:.)])", r"\1", out)
    return re.sub(r"\s{2,}", " ", out).strip(), ids


_ITEM_ID = re.compile(r"'?\b([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)\b'?")


def named_items(text: str, world: World) -> str:
    """A text from the engine with its item ids ("'ana.shortsword'") as the names a player
    uses ("shortsword"); only ids of items the world knows, or whose owner it knows, so file
    names and numbers stay as they are."""
    names = item_words(world)

    def name(match: re.Match[str]) -> str:
        item = match.group(1)
        owner = item.split(".", 1)[0]
        if (world.exists(item) and world.has(item, Item)) or world.exists(owner):
            return names(item)
        return match.group(0)

    return _ITEM_ID.sub(name, text)
