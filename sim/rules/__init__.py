"""The mechanics of the rules text, one module per mechanic: each checks an action against the
world (a `Refusal` or a plan) and resolves it into events, asking for reactions where the text
opens a window. `movement/` moves a creature over the ground, `reach/` answers where it can go
and whom it threatens or sees, `combat/` is everything else a turn can hold; `budget`, `turns`
and `objectives` frame them. Each mechanic also says which decisions of its action are worth
putting to its check (its candidates generators, with what they share in `candidates`). Rules
read the world and return events; they never write it and never know who decides (a person, a
script or the AI). The three groups are not layers among themselves (a move asks its foes' reach
and reactions, an attack asks reach and footing), so only the layer as a whole is enforced.
"""
