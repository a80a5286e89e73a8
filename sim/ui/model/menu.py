"""The Esc menu's lines (no pygame): resume, save, save and quit, load, a new game, a replay of a
save, and the settings a player changes mid-game (whether their side's reactions are asked, the
AI's pause, the UI scale). Each line says whether it can be chosen now and, if not, why."""

from __future__ import annotations

from dataclasses import dataclass

from sim.formats.replay import Save
from sim.ui.look.metrics import MAX_SCALE, MIN_SCALE, SCALE_STEP, clamp_scale

AI_PAUSES = (0.7, 0.3, 0.0)  # seconds between the AI's decisions, as the setting cycles


@dataclass(frozen=True, slots=True)
class Line:
    value: str
    label: str
    ok: bool
    detail: str


def lines(
    *,
    settings: bool,
    may_load: str | None,
    asked: bool | None,
    pause: float,
    seated: bool,
    scale: float = 1.0,
    may_watch: str | None = None,
) -> list[Line]:
    """The menu, or its settings page. `may_load`: None when the quick save may be loaded
    now, else why not; `asked`: whether the seated side's reactions are asked (None: no side
    is seated); `pause`: the AI's pause; `seated`: a person plays a side now; `scale`: the
    UI scale; `may_watch`: None when a save may be watched in the replay viewer, else why not.

    >>> [line.value for line in lines(settings=False, may_load=None, asked=True, pause=0.7,
    ...                               seated=True)]
    ['resume', 'save', 'save_quit', 'load', 'new', 'settings', 'replays']
    >>> lines(settings=True, may_load=None, asked=None, pause=0.3, seated=False)[1].label
    'AI pause between decisions: 0.3 s'
    >>> lines(settings=True, may_load=None, asked=None, pause=0.3, seated=False,
    ...       scale=1.25)[2].label
    'Larger [+]: UI scale 1.25 to 1.35'
    """
    if settings:
        reactions = (
            Line(
                "reactions",
                "Reactions of my side: " + ("asked" if asked else "automatic (auto)"),
                True,
                "asked: a prompt comes for every reaction your creatures may take; automatic: "
                "each answers by the odds (policy auto; P and O set it for one creature)",
            )
            if asked is not None
            else Line("reactions", "Reactions of my side", False, "no side sits at the screen")
        )
        return [
            reactions,
            Line("ai_pause", f"AI pause between decisions: {pause:g} s", True,
                 "how long each AI decision stays on screen before the next (Space skips)"),
            *scale_lines(scale),
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
        Line("settings", "Settings", True, "reactions of your side, the AI's pause, the UI scale"),
        Line(
            "replays",
            "Watch a replay",
            may_watch is None,
            may_watch or "a save played back: step, play, jump to a turn; Esc there comes back",
        ),
    ]


WATCH = "watch:"  # a replay page line's value: this, then the save's file name


def replay_lines(saves: list[tuple[str, str]]) -> list[Line]:
    """The replay page: a line per save (its file name, and what it holds and when it was
    written, `save_words`), newest first, then Back.

    >>> [(line.value, line.label) for line in replay_lines([("a.save.json", "unfinished")])]
    [('watch:a.save.json', 'a.save.json: unfinished'), ('back', 'Back')]
    """
    return [
        *(
            Line(f"{WATCH}{name}", f"{name}: {about}", True, "open it in the replay viewer")
            for name, about in saves
        ),
        Line("back", "Back", True, ""),
    ]


def save_words(save: Save | None, when: str) -> str:
    """What a save holds, for the replay page: who won and in how many rounds, or that it is
    unfinished and where; and when it was written. A save written before saves kept the round
    and the winners says what it can (finished or not, its decisions); None: unreadable.

    >>> from sim.formats.replay import Save
    >>> done = Save("s.toml", "", "Ford", "1", 6, (), over=True, rounds=4, winners=("red",))
    >>> save_words(done, "12:00")
    'RED won after 4 rounds · 12:00'
    >>> from dataclasses import replace
    >>> save_words(replace(done, over=False, winners=(), rounds=3), "12:00")
    'unfinished, round 3, 0 decisions · 12:00'
    >>> save_words(replace(done, winners=(), rounds=0), "12:00")
    'finished, 0 decisions · 12:00'
    >>> save_words(None, "12:00")
    'cannot be read · 12:00'
    """
    if save is None:
        return f"cannot be read · {when}"
    n = len(save.decisions)
    decisions = f"{n} decision{'' if n == 1 else 's'}"
    rounds = f"{save.rounds} round{'' if save.rounds == 1 else 's'}"
    if save.over and save.rounds:
        won = " and ".join(team.upper() for team in save.winners)
        about = f"{won} won after {rounds}" if won else f"nobody won, after {rounds}"
    elif save.over:
        about = f"finished, {decisions}"
    elif save.rounds:
        about = f"unfinished, round {save.rounds}, {decisions}"
    else:
        about = f"unfinished, {decisions}"
    return f"{about} · {when}"


def scaled(scale: float, steps: int) -> float:
    """The UI scale `steps` of the Settings' + and - from `scale`, kept in its bounds."""
    return clamp_scale(scale + steps * SCALE_STEP)


def scale_lines(scale: float) -> list[Line]:
    """The Settings' two UI scale lines: larger and smaller, each refused at its bound."""
    up, down = scaled(scale, 1), scaled(scale, -1)
    return [
        Line("ui_larger", f"Larger [+]: UI scale {scale:g} to {up:g}",
             up > scale, "text, rows, panels and buttons grow; the board keeps its zoom"
             if up > scale else f"the UI scale is at its largest, {MAX_SCALE:g}"),
        Line("ui_smaller", f"Smaller [-]: UI scale {scale:g} to {down:g}",
             down < scale, "more room for the board; the start scale comes from the window's size"
             if down < scale else f"the UI scale is at its smallest, {MIN_SCALE:g}"),
    ]  # fmt: skip
