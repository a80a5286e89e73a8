"""The sides' colours in the charts and map panels: the client's team colours (Okabe-Ito, which
colour-blind readers tell apart), the same side the same colour in every picture."""

from __future__ import annotations

# Copies of sim/ui/look/palette.py's TEAM_STYLES (this layer cannot import the client's; a test
# keeps them equal); other teams take the rest in turn.
TEAM_COLOURS = {
    "blue": "#0072b2",
    "red": "#d55e00",
    "green": "#009e73",
    "purple": "#cc79a7",
    "orange": "#e69f00",
}
OTHER_COLOURS = ("#56b4e9", "#f0e442", "#000000")  # Okabe-Ito's sky blue, yellow and black
NEUTRAL = "#9aa0a6"


def side_colours(teams: list[str]) -> dict[str, str]:
    """Each team's colour: its own when it has one, else the others' in turn.

    >>> side_colours(["red", "gold", "blue"])
    {'red': '#d55e00', 'gold': '#56b4e9', 'blue': '#0072b2'}
    """
    others = iter(OTHER_COLOURS * (len(teams) // len(OTHER_COLOURS) + 1))
    return {team: TEAM_COLOURS.get(team) or next(others) for team in teams}
