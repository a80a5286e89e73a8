"""The world and its vocabulary, below every rule: cells and distances (`geometry`), the terrain
grid, the seeded dice, entities and their frozen components, conditions, the read-only questions
many rules ask of a creature (`creature`: its conditions, Speed, attributes), the events that are
the only way state changes and the tags that tell code what a roll or an attack was for
(`purpose`), the action values a decision names and their one JSON form (`actions`, `codec`), the
rules' numbers (`numbers`, from sim/data/rules.toml), the shipped catalogue of gear, templates and
abilities, and files written whole or not at all. Core imports only core; `creature` holds the
two sums every rule reads (Speed and armour's reduction), the only rule text here.
"""
