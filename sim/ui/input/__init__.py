"""The windows and what a key or a click means in them: the hotseat client (`app`), the map
editor, the replay viewer, `sim render`'s picture of the client (`picture`) and the event loop
they share. They ask `model` what a click would decide and `draw` to draw the frame.
"""
