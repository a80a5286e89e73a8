"""The battle as a game: the registry that ties each action type to its mechanic (`rulebook`),
the one writer of state (`apply`), the state machine that waits for decisions and advances on
`submit` (`engine`), every decision it accepts now (`legal`), decisions as JSON (`decisions`)
and the exact odds of an action worked out from the dice (`odds`, which plays a shove's events
on a copy of the world with `apply`, so it sits in this layer rather than in rules).
"""
