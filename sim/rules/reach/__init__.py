"""Where a creature can go and what it reaches: the compiled search behind reach maps
(`pathfinder`, `fields`), the reach map by Movement Action (`reachmap`), threatened cells
(`threat`), which moves provoke an Attack of Opportunity (`opportunity`), line of sight
(`sight`) and singling out a target in reach (`target`).
"""
