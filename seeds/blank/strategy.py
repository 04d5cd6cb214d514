"""Strategy surface, seed "blank": no sub-goals and no policies yet.

SUB_GOALS is a list of dicts (name, description, test); POLICIES maps a name to policy(z, h) -> action
dict or None.
"""

SUB_GOALS = []

POLICIES = {}
