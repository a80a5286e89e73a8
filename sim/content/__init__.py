"""What a map maker writes: scenario files (TOML, with a line for every problem), Tiled maps
imported and exported, and the map editor's model of a scenario with its edits and undo.
"""
