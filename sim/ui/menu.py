"""The Esc menu's lines (no pygame): resume, save, save and quit, load, a new game, and the
settings a player changes mid-game (whether their side's reactions are asked, the AI's pause).
Each line says whether it can be chosen now and, if not, why."""

from __future__ import annotations

from dataclasses import dataclass

AI_PAUSES = (0.7, 0.3, 0.0)  # seconds between the AI's decisions, as the setting cycles


@dataclass(frozen=True, slots=True)
class Line:
    value: str
    label: str
    ok: bool
    detail: str


def lines(
    *, settings: bool, may_load: str | None, asked: bool | None, pause: float, seated: bool
) -> list[Line]:
    """The menu, or its settings page. `may_load`: None when the quick save may be loaded
    now, else why not; `asked`: whether the seated side's reactions are asked (None: no side
    is seated); `pause`: the AI's pause; `seated`: a person plays a side now.

    >>> [line.value for line in lines(settings=False, may_load=None, asked=True, pause=0.7,
    ...                               seated=True)]
    ['resume', 'save', 'save_quit', 'load', 'new', 'settings']
    >>> lines(settings=True, may_load=None, asked=None, pause=0.3, seated=False)[1].label
    'AI pause between decisions: 0.3 s'
    """
    if settings:
        reactions = (
            Line(
                "reactions",
                "Reactions of my side: " + ("asked" if asked else "automatic (policy)"),
                True,
                "asked: a prompt comes for every reaction your creatures may take; automatic: "
                "each answers by its policy (P and O set it for one creature)",
            )
            if asked is not None
            else Line("reactions", "Reactions of my side", False, "no side sits at the screen")
        )
        return [
            reactions,
            Line("ai_pause", f"AI pause between decisions: {pause:g} s", True,
                 "how long each AI decision stays on screen before the next (Space skips)"),
            Line("back", "Back", True, ""),
        ]  # fmt: skip
    return [
        Line("resume", "Resume", True, "back to the battle (Esc)"),
        Line("save", "Save", True, "to the quick save (F5)"),
        Line("save_quit", "Save and quit", True, "the quick save, then close the window"),
        Line(
            "load",
            "Load the quick save",
            may_load is None,
            may_load or "F9; undo's rule holds: never back past a dice roll",
        ),
        Line(
            "new",
            "New game of this scenario",
            True,
            "the next seed; this game stays in its autosave"
            + ("" if seated else " (the AI plays the same sides)"),
        ),
        Line("settings", "Settings", True, "reactions of your side, the AI's pause"),
    ]
