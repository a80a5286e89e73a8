"""Text drawn with cached glyph surfaces: rendering text is the slow part of a frame."""

from __future__ import annotations

import pygame

from sim.ui.look.palette import RGB, TEXT


class Fonts:
    """Fonts by size, and a bounded cache of rendered strings."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._cache: dict[tuple[str, int, RGB, bool], pygame.Surface] = {}
        self._wraps: dict[tuple[str, int, int], list[str]] = {}
        self._fits: dict[tuple[str, int, int, bool], str] = {}
        # While set, a line that would reach below it is left out and takes no room (a
        # panel's last lines at a large UI scale), so no text is cut or spills out.
        self.floor: int | None = None

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (size, bold)
        if key not in self._fonts:
            font = pygame.font.Font(None, size)
            font.set_bold(bold)
            self._fonts[key] = font
        return self._fonts[key]

    def render(
        self, text: str, size: int, colour: RGB = TEXT, bold: bool = False
    ) -> pygame.Surface:
        key = (text, size, colour, bold)
        surface = self._cache.get(key)
        if surface is None:
            if len(self._cache) > 4000:
                self._cache.clear()
            surface = self.font(size, bold).render(text, True, colour)
            self._cache[key] = surface
        return surface

    def draw(
        self,
        target: pygame.Surface,
        text: str,
        pos: tuple[int, int],
        size: int,
        colour: RGB = TEXT,
        *,
        bold: bool = False,
        anchor: str = "topleft",
    ) -> pygame.Rect:
        surface = self.render(text, size, colour, bold)
        rect = surface.get_rect(**{anchor: pos})
        if self.floor is not None and rect.bottom > self.floor:
            return pygame.Rect(rect.x, rect.y, rect.width, 0)
        target.blit(surface, rect)
        return rect

    def width(self, text: str, size: int) -> int:
        return self.render(text, size).get_width()

    def wrap(self, text: str, size: int, width: int) -> list[str]:
        """Split `text` into lines no wider than `width` pixels (long words are kept whole)."""
        key = (text, size, width)
        found = self._wraps.get(key)
        if found is not None:
            return found
        if len(self._wraps) > 4000:
            self._wraps.clear()
        lines: list[str] = []
        self._wraps[key] = lines
        for paragraph in text.split("\n"):
            line = ""
            for word in paragraph.split(" "):
                trial = f"{line} {word}" if line else word
                if line and self.font(size).size(trial)[0] > width:
                    lines.append(line)
                    line = word
                else:
                    line = trial
            lines.append(line)
        return lines

    def fit(self, text: str, size: int, width: int, bold: bool = False) -> str:
        """`text`, cut with an ellipsis to fit `width` pixels (in bold: wider). Kept, as the
        wrapped lines are: the panels fit the same labels after every change."""
        key = (text, size, width, bold)
        found = self._fits.get(key)
        if found is not None:
            return found
        if len(self._fits) > 4000:
            self._fits.clear()
        font = self.font(size, bold)
        fitted = text
        if font.size(text)[0] > width:
            while fitted and font.size(fitted + "…")[0] > width:
                fitted = fitted[:-1]
            fitted += "…"
        self._fits[key] = fitted
        return fitted
