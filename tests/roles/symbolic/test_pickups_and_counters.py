"""Counters learned in several layouts, pick-up-then-door sub-goals, the leader's lower gate for
level-completing tactics."""

from __future__ import annotations

import numpy as np

from dreamteam.roles.symbolic.goals import Evidence, derive
from dreamteam.roles.symbolic.model import TickRule
from dreamteam.roles.symbolic.ticks import WHOLE_GRID, _merged

from .test_explorers_and_judges import PROBE, decide


def test_one_counter_learned_in_two_layouts_ticks_once() -> None:
    a = TickRule(11, 5, WHOLE_GRID, "row-last", 1, "moved", evidence=10, alternatives=(("always", 3), ("moved", 0)))
    b = TickRule(11, 5, WHOLE_GRID, "row-last", 1, "moved", evidence=4, alternatives=(("always", 1), ("moved", 0)))
    merged = _merged([a, b])
    assert len(merged) == 1 and merged[0].evidence == 14 and dict(merged[0].alternatives)["always"] == 4
    # a counter of its own region in each layout stays two rules
    c = TickRule(11, 5, (0, 10, 9, 10), "row-last", 1, "moved", evidence=3)
    d = TickRule(11, 5, (0, 20, 9, 20), "row-last", 1, "moved", evidence=3)
    assert len(_merged([c, d])) == 2


def _room() -> np.ndarray:
    grid = np.full((5, 6), 0, dtype=np.int8)
    grid[0, :], grid[-1, :], grid[:, -1] = 7, 7, 7
    grid[:, 0] = 7
    grid[2, 0] = 2  # the door, in the left wall
    grid[1, 4] = 10  # the thing to pick up
    grid[3, 3] = 14  # the mover
    return grid


def test_pick_up_then_run_into_the_door() -> None:
    start = _room()
    evidence = Evidence(frozenset({14}), (("ACTION3", 14, -1, 0), ("ACTION4", 14, 1, 0)), frozenset(),
                        level_up_pairs=frozenset({(14, 2)}), collected=frozenset({10}))
    goals = {g.name: g for g in derive(evidence, start, start)}
    after = goals["repeat-level-up-after:colour2"]
    assert after.priority == 1 and goals["repeat-level-up:colour2"].priority == 2
    beside = start.copy()
    beside[3, 3], beside[2, 1] = 0, 14  # next to the door, the item still there
    assert not after.test(beside, ["by:ACTION3"])
    beside[1, 4] = 0  # picked up
    assert after.test(beside, ["by:ACTION3"])  # moved left, against the door
    assert not after.test(beside, ["by:ACTION4"])  # moved right: the door is behind
    away = beside.copy()
    away[2, 1], away[3, 2] = 0, 14
    assert not after.test(away, ["by:ACTION3"])


def test_leader_follows_a_level_completing_tactic_at_middling_accuracy() -> None:
    reply = decide(prediction_accuracy=0.65)
    assert reply["goal"] == "GOAL" and reply["source"] == "level_up"
    exploring = {"name": "frontier", "sub_goal": "frontier", "actions": [{"action": "ACTION2"}], "expected": ""}
    reply = decide(prediction_accuracy=0.65, tactics=[exploring])
    assert reply["source"] == "probe" and reply["plan"] == PROBE["actions"]
    assert decide(prediction_accuracy=0.5)["source"] == "probe"
