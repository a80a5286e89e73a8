"""A grid-based tactical combat simulator for the action-economy rules."""

__version__ = "0.1.0"
