"""Work over many battles: `sim batch` runs a scenario many times, AI against AI, on every core or
a Ray cluster, and sums up who wins, with its balance chart.
"""
