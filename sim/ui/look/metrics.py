"""The client's sizes from one UI scale: every font, row, panel, button, margin and marker is a
design size at scale 1 (as drawn at 1280×800) times the scale, so text and the rows that hold it
grow together. No pygame: the window size comes in as numbers."""

from __future__ import annotations

from dataclasses import dataclass

from sim.ui.look import palette as pal

MIN_SCALE = 0.75  # below this the small text falls under 11 px
MAX_SCALE = 2.5  # above this a 1920×1080 window has no room left for the board
SCALE_STEP = 0.1  # the Settings entry's + and -
# The window size at which scale 1 is right; larger windows get a larger default so body text
# stays about 1.15 % of the window's height (14–15 px at 1600×1000).
DESIGN_SIZE = (1280, 800)
WINDOW_SHARE = 0.85  # of the desktop, so the window and its frame fit the display


@dataclass(frozen=True, slots=True)
class Metrics:
    """Sizes at one UI scale. `px(n)`: the design size `n` (pixels at scale 1) at this scale."""

    scale: float = 1.0

    def px(self, n: float) -> int:
        return round(n * self.scale)

    @property
    def font(self) -> int:
        """Body text."""
        return self.px(pal.FONT)

    @property
    def font_small(self) -> int:
        return self.px(pal.FONT_SMALL)

    @property
    def font_big(self) -> int:
        return self.px(pal.FONT_BIG)

    @property
    def bar_row(self) -> int:
        return self.px(pal.BAR_ROW_HEIGHT)

    def sidebar_width(self, window_width: int) -> int:
        """The sidebar's width: at scale 1 its design width, or a quarter of a narrower window
        (220 at least); that times the scale, but never more than 40 % of the window."""
        wide = min(pal.SIDEBAR_WIDTH, max(220, window_width // 4))
        return min(self.px(wide), window_width * 2 // 5)


def scale_refusal(value: float) -> str | None:
    """Why `value` cannot be the UI scale, or None when it can."""
    if not MIN_SCALE <= value <= MAX_SCALE:
        return (
            f"the UI scale must be between {MIN_SCALE:g} and {MAX_SCALE:g} "
            f"(1 is the design size, 1.5 half as large again); {value:g} is outside"
        )
    return None


def clamp_scale(value: float) -> float:
    return min(MAX_SCALE, max(MIN_SCALE, round(value, 2)))


def default_scale(window: tuple[int, int]) -> float:
    """The scale for a window of this size: 1 at 1280×800, growing with the smaller of the two
    ratios (so a wide, short window does not get text too tall for it), in steps of 0.05.

    >>> default_scale((1280, 800)), default_scale((1600, 1000)), default_scale((1920, 1080))
    (1.0, 1.25, 1.35)
    """
    ratio = min(window[0] / DESIGN_SIZE[0], window[1] / DESIGN_SIZE[1])
    return clamp_scale(round(ratio * 20) / 20)


def default_window(desktops: list[tuple[int, int]]) -> tuple[int, int]:
    """A window that fits the first display: 85 % of it, at the design size's proportions or
    narrower, and no smaller than 960×600 (nor larger than the display). With no display
    known, 1400×860.

    >>> default_window([(1920, 1080)]), default_window([(1280, 800)]), default_window([])
    ((1468, 918), (1088, 680), (1400, 860))
    """
    if not desktops or min(desktops[0]) <= 0:
        return (1400, 860)
    w, h = desktops[0]
    height = int(h * WINDOW_SHARE)
    width = min(int(w * WINDOW_SHARE), height * DESIGN_SIZE[0] // DESIGN_SIZE[1])
    return (min(w, max(960, width)), min(h, max(600, height)))
