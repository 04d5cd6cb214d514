"""Counters learned in several layouts, pick-up-then-door sub-goals (and things taken that come back), the
leader's lower gate for level-completing tactics."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.backends.symbolic.common.artifact_dyn import lib_tick
from dreamteam.backends.symbolic.common.evidence import Transition
from dreamteam.backends.symbolic.common.frames import LogicalFrame, colour_table
from dreamteam.backends.symbolic.planning.goals import Evidence, derive
from dreamteam.backends.symbolic.planning.goals.gathering import _lasts
from dreamteam.backends.symbolic.planning.rollout import LogicalRollout
from dreamteam.backends.symbolic.planning.search import Lapsing, SearchLimits, breadth_first
from dreamteam.backends.symbolic.worldmodel.model import TICK_ORDERS, TickRule
from dreamteam.backends.symbolic.worldmodel.ticks import (
    WHOLE_GRID,
    _merged,
    _order_fits,
    _order_fits_by_running,
    _Outcome,
)

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


def _frame(grid: np.ndarray) -> LogicalFrame:
    return LogicalFrame(grid, (1, 0, 0), grid)


def _corridor(mover: int, spark: bool = True) -> np.ndarray:
    """One row: the door (2) at x=0, floor (0), the spark (10) at x=4, the mover (14) at `mover`."""
    row = np.zeros((1, 7), dtype=np.int8)
    row[0, 0] = 2
    if spark:
        row[0, 4] = 10
    row[0, mover] = 14
    return row


def _corridor_step(grid: list[list[int]], h: object, action: dict[str, object], geometry: object) -> dict[str, object]:
    """ACTION1 moves the mover one cell left, ACTION2 right, ACTION3 waits; the door and the ends stop it;
    the spark is taken when the mover enters its cell; RESET shows the level start."""
    row = list(grid[0])
    if action["action"] == "RESET":
        return {"scene": {"geometry": [1, 0, 0], "grid": ["".join(f"{v:x}" for v in _corridor(6)[0])]}}
    x = row.index(14)
    step = {"ACTION1": -1, "ACTION2": 1}.get(str(action["action"]), 0)
    if step and 0 <= x + step < len(row) and row[x + step] != 2:
        row[x], row[x + step] = 0, 14
    return {"grid": [row], "events": []}


def _corridor_rollout() -> LogicalRollout:
    namespace = {"dyn_step": _corridor_step, "dyn_SCALE_HINTS": [[1, 0, 0]],
                 "dyn_geometry": lambda rows, hints: [1, 0, 0], "dyn_downsample": lambda rows, geometry: rows}
    return LogicalRollout(namespace)


def test_how_long_a_taken_thing_lasts_is_measured_from_take_to_return() -> None:
    def move(step: int, label: str, before: np.ndarray, after: np.ndarray) -> Transition:
        return Transition(step, step, label, {"action": label}, _frame(before), _frame(after), False, False)

    on, left, back = _corridor(4, spark=False), _corridor(3, spark=False), _corridor(3)
    moves = [move(0, "ACTION1", _corridor(5), on), move(1, "ACTION1", on, left), move(2, "ACTION3", left, left),
             move(3, "ACTION3", left, back)]
    table = colour_table({14})
    assert _lasts(moves, {10}, table) == (((10, 3),), 0)
    # not back yet: nothing measured
    assert _lasts(moves[:3], {10}, table) == ((), 0)
    # taken again and still held at the end of the window: how many actions ago
    again = [*moves, move(4, "ACTION2", back, on), move(5, "ACTION1", on, left), move(6, "ACTION3", left, left)]
    assert _lasts(again, {10}, table) == (((10, 3),), 2)
    # a mover standing on the cell and leaving it is not a return
    assert _lasts([moves[0], move(1, "ACTION2", on, _corridor(5))], {10}, table) == ((), 0)


def test_plans_use_a_taken_thing_before_it_comes_back() -> None:
    start = _corridor(6)
    rollout = _corridor_rollout()
    state = rollout.start(start)
    evidence = Evidence(frozenset({14}), (("ACTION1", 14, -1, 0), ("ACTION2", 14, 1, 0)), frozenset(),
                        level_up_pairs=frozenset({(14, 2)}), collected=frozenset({10}), lasts=((10, 4),))
    goal = {g.name: g for g in derive(evidence, start, start)}["repeat-level-up-after:colour2"]
    assert goal.lapse is not None and goal.lapse.lasts == 4 and "within 4 actions" in goal.description
    actions = [{"action": a} for a in ("ACTION1", "ACTION2", "ACTION3")]
    limits = SearchLimits(nodes=5000, depth=20, seconds=5.0)
    # taken on the 2nd action, then 3 moves left, the last one against the door: 3 actions held
    found, _ = breadth_first(Lapsing(rollout, goal.lapse), Lapsing(rollout, goal.lapse).wrap(state), actions,
                             [goal], limits, retest=True)
    assert [a["action"] for a in found[goal.name]] == ["ACTION1"] * 5
    # lasting 2 actions, the spark is back before the mover reaches the door: no plan, though the world
    # model alone (which never brings it back) has one
    short = Lapsing(rollout, dataclasses.replace(goal.lapse, lasts=2))
    assert breadth_first(short, short.wrap(state), actions, [goal], limits, retest=True)[0] == {}
    assert goal.name in breadth_first(rollout, state, actions, [goal], limits)[0]
    # the restore puts the spark back on its cell the step after the last one held
    lapsing = Lapsing(rollout, goal.lapse)
    held = lapsing.wrap(state)
    for action in ["ACTION1"] * 3 + ["ACTION3"] * 3:
        result = lapsing.step(held, {"action": action})
        assert result is not None
        held = result[0]
    assert held[1] == 4 and (lapsing.grid(held) == 10).sum() == 0
    result = lapsing.step(held, {"action": "ACTION3"})
    assert result is not None and result[0][1] == 0 and int(lapsing.grid(result[0])[0, 4]) == 10


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_the_fast_order_fit_agrees_with_running_the_artifact_tick(seed: int, count: int) -> None:
    # the learner's numpy shortcut must pick the same orders as the artifact's own lib_tick would
    rng = np.random.default_rng(seed)
    grid = rng.choice(np.array([0, 3, 5], dtype=np.int8), size=(int(rng.integers(1, 8)), int(rng.integers(1, 8))))
    region = (int(rng.integers(-1, 3)), int(rng.integers(-1, 3)), int(rng.integers(2, 9)), int(rng.integers(2, 9)))
    outcome = _Outcome(SimpleNamespace(before=SimpleNamespace(grid=grid)), grid != grid, False, False)  # type: ignore[arg-type]
    after = grid.tolist()
    lib_tick(after, list(region), 3, 7, str(rng.choice(list(TICK_ORDERS))), count)
    mask = np.asarray(after, dtype=np.int8) != grid
    if rng.random() < 0.3:
        mask = mask | (grid == 5)  # a change no order explains
    if mask.any():
        assert _order_fits(outcome, mask, region, 3, 7) == _order_fits_by_running(outcome, mask, region, 3, 7)
