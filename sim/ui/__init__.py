"""The pygame client, the only package that imports pygame: `input` (the windows, keys and
clicks) over `draw` (panels) over `model` (what the screen shows and what a click would decide,
no pygame) over `words` (sentences a player reads) and `look` (sizes and colours)."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
