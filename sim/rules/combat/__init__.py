"""Every action and reaction that is not a move (R-A, R-C, R-G, R-P, R-R, R-X): attacks and their
defences, checks and contests, hit points, grapples, shoves and trips, throws and catches,
items, armour, spells, stances, Skip / Prepare and the reaction windows.
"""
