"""How the client looks: colours (Okabe-Ito, safe for colour-blind players), team and action
styles, sizes. Nothing is told by colour alone: every style here also has a pattern, a shape or a
letter, used by the drawing modules."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]

# Okabe & Ito (2008), "Color Universal Design": distinguishable under the common colour-vision
# deficiencies.
BLACK: RGB = (0, 0, 0)
ORANGE: RGB = (230, 159, 0)
SKY: RGB = (86, 180, 233)
GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILLION: RGB = (213, 94, 0)
PURPLE: RGB = (204, 121, 167)
WHITE: RGB = (255, 255, 255)

# Terrain: light, low-saturation ground so overlays read on top of it.
OPEN: RGB = (222, 216, 198)
DIFFICULT: RGB = (196, 180, 140)
DIFFICULT_MARK: RGB = (120, 100, 60)
WALL: RGB = (70, 68, 72)
WALL_MARK: RGB = (110, 108, 114)
PIT: RGB = (28, 24, 22)
PIT_MARK: RGB = (70, 60, 55)
FIRE: RGB = (240, 170, 60)
FIRE_MARK: RGB = (200, 60, 0)
COVER: RGB = (150, 160, 120)
COVER_MARK: RGB = (80, 90, 60)
WATER: RGB = (40, 110, 190)
OBSTACLE: RGB = (120, 90, 60)
GRID: RGB = (110, 104, 92)
LEDGE: RGB = (20, 20, 20)
LADDER: RGB = (250, 236, 170)  # rails and rungs on a climbable face, outlined in black
VOID: RGB = (34, 36, 40)

# The client's panels.
PANEL: RGB = (38, 40, 46)
PANEL_LIGHT: RGB = (58, 61, 70)
PANEL_EDGE: RGB = (90, 94, 104)
TEXT: RGB = (236, 236, 236)
TEXT_DIM: RGB = (184, 186, 194)  # 8:1 on PANEL: secondary, still easy to read
TEXT_BAD: RGB = (240, 150, 120)
HIGHLIGHT: RGB = YELLOW
PATH: RGB = BLACK
PATH_EDGE: RGB = WHITE
PROVOKE: RGB = VERMILLION
THREAT: RGB = VERMILLION
OWN_REACH: RGB = BLUE


def luminance(colour: RGB) -> float:
    """WCAG relative luminance of an sRGB colour."""
    lin = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in colour]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def ink_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on `colour`."""
    return BLACK if contrast(BLACK, colour) >= contrast(WHITE, colour) else WHITE


@dataclass(frozen=True, slots=True)
class TeamStyle:
    """A side's look: a colour, a token shape and a letter, so sides differ without colour."""

    colour: RGB
    shape: str  # "circle", "square", "diamond", "triangle", "hexagon"


TEAM_STYLES = (
    TeamStyle(BLUE, "circle"),
    TeamStyle(VERMILLION, "square"),
    TeamStyle(GREEN, "diamond"),
    TeamStyle(PURPLE, "triangle"),
    TeamStyle(ORANGE, "hexagon"),
)
NAMED_TEAMS = {"blue": 0, "red": 1, "green": 2, "purple": 3, "orange": 4}


def team_style(team: str, order: tuple[str, ...]) -> TeamStyle:
    """Known colour names keep their colour; other teams take the styles in scenario order."""
    if team in NAMED_TEAMS:
        return TEAM_STYLES[NAMED_TEAMS[team]]
    index = order.index(team) if team in order else len(order)
    return TEAM_STYLES[index % len(TEAM_STYLES)]


@dataclass(frozen=True, slots=True)
class ActionStyle:
    """How the reach overlay draws cells whose cheapest action is this one."""

    colour: RGB
    pattern: str  # "plus", "plain", "hatch", "cross", "rings", "grid", "waves", "bars"
    letter: str


# Beyond Okabe-Ito's eight, for the overlays that are shown together: each reach colour, the
# threat and the own reach differ from every other by ΔE*76 >= 15 also for protanopia,
# deuteranopia and tritanopia (sim/ui/look/vision.py, tests/ui/test_legend.py). Swim cells are
# white on the water's blue, not blue on blue.
CRAWL: RGB = (130, 80, 30)
CLIMB: RGB = (60, 40, 110)
SWIM: RGB = (250, 250, 250)

MOVE_STYLES: dict[str, ActionStyle] = {
    "step": ActionStyle(GREEN, "plus", "S"),  # not dots: difficult ground is dotted
    "walk": ActionStyle(SKY, "plain", "W"),
    "jump": ActionStyle(PURPLE, "rings", "J"),
    "run": ActionStyle(YELLOW, "hatch", "R"),
    "crawl": ActionStyle(CRAWL, "bars", "C"),
    "swim": ActionStyle(SWIM, "waves", "~"),
    "climb": ActionStyle(CLIMB, "grid", "L"),
    "sprint": ActionStyle(ORANGE, "cross", "X"),
}

# The colours the board can show at once (the reach map, the threat, the own reach): the
# colour-vision check compares every pair.
OVERLAY_COLOURS: dict[str, RGB] = {
    **{name: style.colour for name, style in MOVE_STYLES.items()},
    "threat": THREAT,
    "own reach": OWN_REACH,
}

# Condition icons: a letter in a small badge (names from sim/core/condition.py's Condition).
# R-Z5: the badges of a creature's movement modes, shown before its conditions' (a flier's token
# also has wings while it is up).
MODE_ICONS: dict[str, tuple[str, RGB]] = {"flies": ("W", WHITE), "swims": ("~", BLUE)}
CONDITION_ICONS: dict[str, tuple[str, RGB]] = {
    "prone": ("P", ORANGE),
    "grappled": ("G", PURPLE),
    "grappling": ("g", PURPLE),
    "swimming": ("~", SKY),
    "submerged": ("v", BLUE),  # under the surface (R-M8 diving); the token is drawn under water
    "hanging": ("H", YELLOW),
    "burning": ("F", VERMILLION),
    "bleeding": ("B", VERMILLION),
    "unseen": ("?", WHITE),
    "incapacitated": ("X", BLACK),
    "evading": ("E", GREEN),
    "guarding": ("D", GREEN),
    "braced": ("b", GREEN),
    "aiming": ("A", GREEN),
    "quickened": ("Q", SKY),
    "slowed": ("s", SKY),
    "prepared": ("R", ORANGE),  # not a condition: holds a prepared action, ready (R-P1)
}

# Results on the board (sim/ui/model/markers.py): the word says it, the colour helps.
MARKER_INK: dict[str, RGB] = {
    "hit": ORANGE,
    "damage": TEXT_BAD,
    "down": VERMILLION,
    "miss": TEXT,
    "heal": GREEN,
    "won": YELLOW,
    "lost": SKY,
    "reacted": PURPLE,
}

SIDEBAR_WIDTH = 340
BAR_ROW_HEIGHT = 24
FONT_SMALL = 15
FONT = 18
FONT_BIG = 32
MIN_CELL = 6
MAX_CELL = 96
