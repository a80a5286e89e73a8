"""Movement Actions over the 1-metre grid (R-M, R-U2..R-U4): the cost of a step on the ground
under a creature's feet, Step, Walk, Run, Sprint, Crawl, Swim and Jump, climbing, diving, and
standing up and going prone.
"""
