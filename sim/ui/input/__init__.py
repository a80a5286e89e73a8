"""The windows and what a key or a click means in them: the hotseat client's window (`app`),
which hands each event to the handler of its screen's mode (`handler`: `handover`, `menu`, and
on the board `free`, `lists`, `targeting`, `marking` over `board`), the jobs they share (the AI's
`seats`, `saving`, `undo`, `policies`, `hints`, the `camera` keys, the player's `orders`), the
map editor, the replay viewer, `sim render`'s picture of the client (`picture`) and the event
loop they share. They ask `model` what a click would decide and `draw` to draw the frame.
"""
