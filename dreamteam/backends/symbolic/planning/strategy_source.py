"""Write strategy.py: the sub-goals in force and a greedy `approach` policy built from learned moves."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from dreamteam.backends.symbolic.common.embed import literal
from dreamteam.backends.symbolic.planning.goals import Evidence, SubGoal

HEADER = '''"""Strategy surface written by the symbolic inductive explorer.

SUB_GOALS lists the sub-goals derived from evidence (the explorer searches predicted rollouts for each).
POLICIES["approach"](z, h) steps the movers (strat_MOVERS) toward the nearest cell of a target colour
(strat_TARGETS), using the displacement each action was seen to cause (strat_MOVES); it works on any state
with an "objects" list of {"color", "cells"} and returns None when no action brings a mover closer.
"""
'''

POLICY = '''

def strat_cells(z, colours):
    """All [x, y] cells of the objects whose colour is in `colours`."""
    return [cell for obj in z.get("objects", []) if obj.get("color") in colours for cell in obj.get("cells", [])]


def strat_approach(z, h):
    """The action whose learned direction points the movers most directly at the nearest target cell."""
    movers = strat_cells(z, strat_MOVERS)
    targets = strat_cells(z, strat_TARGETS)
    if not movers or not targets:
        return None
    mx = sum(c[0] for c in movers) / len(movers)
    my = sum(c[1] for c in movers) / len(movers)
    tx, ty = min(((abs(c[0] - mx) + abs(c[1] - my), c[0], c[1]) for c in targets))[1:]
    best = None
    best_score = 0
    for name in sorted(strat_MOVES):
        dx, dy = strat_MOVES[name]
        score = dx * (tx - mx) + dy * (ty - my)
        if score > best_score:
            best = name
            best_score = score
    return {"action": best} if best is not None else None


POLICIES = {"approach": strat_approach}
'''


def strategy_source(evidence: Evidence, goals: Sequence[SubGoal], reached: Collection[str] = ()) -> str:
    """The whole strategy.py for these sub-goals and the learned mover displacements.

    The approach policy aims at the colour of the first colour sub-goal a search reached (else the first
    colour sub-goal, which `goals.derive` orders by importance, then rarity).
    """
    sub_goals = [{"name": g.name, "description": g.description, "test": f"priority {g.priority}"} for g in goals]
    moves: dict[str, list[int]] = {}
    for label, _colour, dx, dy in evidence.shifts:
        moves.setdefault(label, [dx, dy])
    coloured = [g for g in goals if "colour" in g.name]
    chosen = next((g for g in coloured if g.name in reached), coloured[0] if coloured else None)
    targets = [int(chosen.name.rsplit("colour", 1)[1])] if chosen else []
    tables = (f"SUB_GOALS = {literal(sub_goals)}\n\n"
              f"strat_MOVES = {literal(moves)}\n"
              f"strat_MOVERS = {literal(sorted(evidence.movers))}\n"
              f"strat_TARGETS = {literal(targets)}\n")
    return HEADER + "\n\n" + tables + POLICY
