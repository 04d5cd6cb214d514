"""Symbolic planning: sub-goals, search over rollouts of the team's own dynamics.py, linear click plans,
strategy.py (the Inductive and Transductive Explorers' answerers). Never imports `worldmodel`."""
