"""Every action and reaction that is not a move (R-A, R-C, R-G, R-P, R-R, R-X): attacks and their
defences (`attack`), the reaction windows and what they cost (`reactions`, `interrupt`), checks,
saves and contests (`checks`), hit points (`health`), grapples, shoves, trips, feints, disarms,
hiding, assists, aid, throws and catches, items, armour, spells and abilities (`casting`),
stances (`stance`) and Skip / Prepare.
"""
