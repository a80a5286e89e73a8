"""What a map maker writes: scenario files (TOML, with a line for every problem, `tomlspan` finding
each key's line), Tiled maps imported and exported, and the map editor's model of a scenario with
its edits and undo.
"""
