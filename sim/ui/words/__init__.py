"""Every sentence a player reads that is made from the battle (no pygame): names in a player's
words, the odds of an action, the combat log, the battle-over summary, what is under way
during a reaction window, and every message of the status lines (`status`).
"""
