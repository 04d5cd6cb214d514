"""Dynamics surface, seed "default": no hypotheses yet, so the prediction is "nothing changes"."""

HYPOTHESES = []


def predict(z, h, a):
    """Predict the state after action a: the seed assumes the action changes nothing."""
    return z


def history(z, h, a):
    """Carry the history forward unchanged."""
    return h
