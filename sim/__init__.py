"""A grid-based tactical combat simulator for the action-economy rules, in layers: `core` (the
world and its vocabulary) under `rules` (one module per mechanic) under `play` (the registry, the
one writer, the engine, legal decisions, odds) under `content` (scenarios, Tiled maps) and `ai`,
then `formats` (saves), `tools` (batches), `ui` (the pygame client) and `cli`. A package imports
only those below it (pyproject.toml's import-linter contracts; docs/architecture.md).
"""

__version__ = "0.1.0"
