"""Drawing, by panel: the frame put together (`render`) from the board, terrain, tokens, overlays,
sidebar, action bar panel, prompts and tips, with what the panels share (`panel`: fonts, sizes,
clickable areas), the board's camera and cached text. It reads what `model` answers and draws
it; it decides nothing.
"""
