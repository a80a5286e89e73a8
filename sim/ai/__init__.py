"""The AI opponent: a policy that plays any side through `pending` and `submit`, as a person
would, choosing among the legal decisions by the exact odds. It reads play and rules; nothing
below it knows it exists.
"""
