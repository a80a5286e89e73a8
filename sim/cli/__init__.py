"""The `sim` command line: each command parses its arguments, reports a user's error as one
message and an exit status, and calls the layers below; `textview` draws a battle as text for
terminals.
"""
