"""Observation surface, seed "blank": no ontology yet; the state is the raw grid.

z = {"grid": [[colour, ...], ...]} (row y, column x); render(parse(frame)) == frame.
"""

ENTITY_TYPES = {}


def parse(frame):
    """The frame itself, copied row by row."""
    return {"grid": [list(row) for row in frame]}


def render(z):
    """The grid held in z."""
    return [list(row) for row in z["grid"]]
