"""The terminal client, `sim play --text`: the board as characters, commands typed at a prompt
(no pygame); it asks the same model as the window (sim/ui/model) and shows the same words."""
