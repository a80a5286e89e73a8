"""The world and its vocabulary, below every rule: cells and distances, the terrain grid, the
seeded dice, entities and their frozen components, conditions, the events that are the only way
state changes and the tags that tell code what a roll or an attack was for (`purpose`), the
action values a decision names and their one JSON form, the rules' numbers (`numbers`, from
sim/data/rules.toml), the shipped catalogue of gear, templates and abilities, and files written
whole or not at all. Nothing here knows a mechanic: core imports only core.
"""
