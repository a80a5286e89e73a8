"""Files that keep a battle: saves as replays (the scenario, the seed, the decisions and the sides
the AI plays: a save names AI levels, so formats sits above `sim.ai`) and the battle state as
plain JSON data.
"""
