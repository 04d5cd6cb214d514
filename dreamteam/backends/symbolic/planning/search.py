"""Search over predicted rollouts: breadth-first for the shortest plan to each sub-goal, weighted A* for a
sub-goal that can estimate how far a grid is from it (several blocks onto their targets), a rollout in
which collected things come back after the actions they were seen to last, and a click
planner that makes a clickable canvas match a displayed target panel."""

from __future__ import annotations

import heapq
import math
import time
from collections import deque
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dreamteam.backends.symbolic.common.frames import Array
from dreamteam.backends.symbolic.planning.goals import Lapse, SubGoal
from dreamteam.backends.symbolic.planning.linear import linear_plan
from dreamteam.backends.symbolic.planning.rollout import Action, LogicalRollout, Rollout, click_action
from dreamteam.perception import label_runs, run_cells

Box = tuple[int, int, int, int]
MAX_CELLS_TO_CLICK = 400


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """Node budget, depth limit and wall-clock limit of one search."""

    nodes: int = 1500
    depth: int = 60
    seconds: float = 0.08
    """The quick search's time budget per step (the deep searches, rare by construction, have their own)."""


DEEP_LIMITS = SearchLimits(nodes=40_000, depth=120, seconds=1.5)
"""The occasional deep search for a level-completing sub-goal the quick search did not reach (see
`InductiveAnswerer`): long puzzles (several pushes, several avatars) need tens of thousands of predicted
steps, affordable once in a while but not on every step."""


def by_action(action: Action) -> str:
    """The pseudo-event naming the step's action that goal tests see after the predicted events
    ("by:ACTION4"): a sub-goal about running into something needs the direction of the last move."""
    return f"by:{action.get('action')}"


def _children(rollout: Rollout, state: Any, actions: Sequence[Action],
              root: bool = True) -> Iterator[tuple[Action, Any, list[str], Any]]:
    """(action, predicted state, events, state key) for each action whose predicted step does not lose.

    A RESET is tried from the search's `root` only: the game resets to the level's start whatever came
    before, so a plan resets first or not at all. (The world model cannot tell which level it is in and
    resets to the level start nearest the grid: from a state pushed into the likeness of another level of
    the same size it would "reset" there, a plan no game follows.)"""
    for action in actions:
        if not root and action.get("action") == "RESET":
            continue
        result = rollout.step(state, action)
        if result is not None and "game_over" not in result[1]:
            yield action, result[0], result[1], rollout.key(result[0])


def breadth_first(rollout: Rollout, start: Any, actions: Sequence[Action], goals: Sequence[SubGoal],
                  limits: SearchLimits, retest: bool = False) -> tuple[dict[str, list[Action]], int]:
    """The shortest predicted plan to each reachable sub-goal, and how many steps were predicted.

    A state seen before is not expanded again, but a step into it that raises events (a level-up) or that
    leaves the state as it was (a move against something that stops it) is still tested against the goals:
    events and the last action belong to the step, not the state. A RESET's level start is never a
    sub-goal reached by itself (a plan may pass through it). With `retest`, every step into a state seen
    before is tested (for rollouts whose state also counts something the grid does not show, where a move
    against something changes the state's key: `Lapsing`).

    Nodes keep a parent link instead of their whole plan, so a deep search stays small in memory."""
    deadline = time.perf_counter() + limits.seconds
    links: list[tuple[int, Action | None]] = [(-1, None)]
    root = rollout.key(start)
    queue: deque[tuple[Any, Any, int, int]] = deque([(start, root, 0, 0)])
    seen = {root}
    found: dict[str, list[Action]] = {}
    expanded = 0
    while queue and expanded < limits.nodes and time.perf_counter() < deadline and len(found) < len(goals):
        state, here, node, length = queue.popleft()
        if length >= limits.depth:
            continue
        expanded += len(actions)
        for action, following, events, key in _children(rollout, state, actions, node == 0):
            if key in seen and not events and key != here and not retest:
                continue
            fresh = key not in seen
            seen.add(key)
            links.append((node, action))
            child = len(links) - 1
            if action.get("action") != "RESET":
                grid = rollout.grid(following)
                tagged = [*events, by_action(action)]
                for goal in goals:
                    if goal.name not in found and goal.test(grid, tagged):
                        found[goal.name] = _plan(links, child)
            if fresh and "level_up" not in events:
                queue.append((following, key, child, length + 1))
    return found, expanded


ESTIMATED_LIMITS = SearchLimits(nodes=60_000, depth=200, seconds=4.0)
"""The best-first search that follows a deep search for a sub-goal with an estimate it did not reach
(several blocks to place need long plans: tens of thousands of predicted steps, a few seconds, rarely)."""
WEIGHT = 3.0
"""How much the estimate counts against the plan length in `best_first` (above 1: faster, less short)."""


def best_first(rollout: Rollout, start: Any, actions: Sequence[Action], goal: SubGoal,
               limits: SearchLimits) -> tuple[list[Action] | None, int]:
    """A plan to `goal` by weighted A* over predicted steps (priority: length + WEIGHT * the goal's estimate),
    and how many steps were predicted; None when the limits ran out first or the goal has no estimate.

    Breadth-first search visits every arrangement of several pushed blocks; the estimate (each block's
    distance to the nearest target) steers the search towards arrangements nearer the goal instead."""
    estimate = goal.estimate
    if estimate is None:
        return None, 0
    deadline = time.perf_counter() + limits.seconds
    links: list[tuple[int, Action | None]] = [(-1, None)]
    heap: list[tuple[float, int, int, int]] = [(WEIGHT * estimate(rollout.grid(start)), 0, 0, 0)]
    states: dict[int, Any] = {0: start}
    best = {rollout.key(start): 0}
    expanded = 0
    while heap and expanded < limits.nodes and time.perf_counter() < deadline:
        _, _, node, length = heapq.heappop(heap)
        state = states.pop(node)
        if length >= limits.depth:
            continue
        expanded += len(actions)
        for action, following, events, key in _children(rollout, state, actions, node == 0):
            if best.get(key, limits.depth + 1) <= length + 1 and not events:
                continue
            best[key] = min(best.get(key, length + 1), length + 1)
            links.append((node, action))
            child = len(links) - 1
            grid = rollout.grid(following)
            if action.get("action") != "RESET" and goal.test(grid, [*events, by_action(action)]):
                return _plan(links, child), expanded
            away = estimate(grid)
            if "level_up" not in events and away != math.inf:  # (inf: the goal cannot be reached from there)
                states[child] = following
                heapq.heappush(heap, (length + 1 + WEIGHT * away, child, child, length + 1))
    return None, expanded


class Lapsing:
    """A rollout of logical grids in which collected things come back: `lapse.lasts` actions after they were
    taken, the next step starts from the grid with them restored (`Lapse.restore`). States are (inner
    state, actions held). Written here rather than in the world model because how long a thing lasts is a
    hidden count the dynamics does not see in the frame; the evidence measures it across transitions.

    The restore happens before the step after the last one held, so a step that uses the thing on its last
    action (walking through a door) still sees it held."""

    def __init__(self, inner: LogicalRollout, lapse: Lapse) -> None:
        self.inner, self.lapse = inner, lapse
        self.geometry = inner.geometry

    def start(self, frame: Array, history: Mapping[str, Any] | None = None) -> tuple[Any, int]:
        return self.wrap(self.inner.start(frame, history))

    def wrap(self, state: Any) -> tuple[Any, int]:
        """The inner rollout's state with the actions held so far (the evidence's count when it holds now)."""
        return state, self.lapse.held if self.lapse.holding(self.inner.grid(state)) else 0

    def step(self, state: tuple[Any, int], action: Action) -> tuple[Any, list[str]] | None:
        inner, held = state
        if held >= self.lapse.lasts:
            inner, held = self._restored(inner), 0
        result = self.inner.step(inner, action)
        if result is None:
            return None
        following, events = result
        was = self.lapse.holding(self.inner.grid(inner))
        now = self.lapse.holding(self.inner.grid(following))
        return (following, held + 1 if was and now else 0), events

    def _restored(self, inner: Any) -> Any:
        grid = self.lapse.restore(np.asarray(self.inner.grid(inner)))
        rows = tuple(tuple(int(v) for v in row) for row in grid.tolist())
        return (rows, inner[1]) if self.inner.patrols else rows

    def key(self, state: tuple[Any, int]) -> Hashable:
        return self.inner.key(state[0]), state[1]

    def grid(self, state: tuple[Any, int]) -> Array:
        return self.inner.grid(state[0])


def _plan(links: Sequence[tuple[int, Action | None]], node: int) -> list[Action]:
    """The actions from the root to `node` along the parent links."""
    plan: list[Action] = []
    while node > 0:
        parent, action = links[node]
        assert action is not None
        plan.append(action)
        node = parent
    return plan[::-1]


def _click_cells(grid: Array) -> Iterator[tuple[tuple[int, int], list[tuple[int, int]]]]:
    """Cells to click, each with its object's other cells, to try one by one if the click has an effect.
    A small grid: every cell (nothing finer). A larger one: each object (a run of one colour, by
    4-connectivity) once, at its first cell in reading order; for the objects whose click the model predicts
    to change something, their other cells follow (a canvas of cells to paint one by one), up to
    MAX_CELLS_TO_CLICK cells in all. Clicking a 64-cell strip cell by cell where one click per object tells
    the same costs 64 predicted steps for one answer."""
    rows, cols = grid.shape
    if grid.size <= MAX_CELLS_TO_CLICK:
        for y in range(rows):
            for x in range(cols):
                yield (x, y), []
        return
    for _, ys, xs in run_cells(*label_runs(grid)):  # (labels are numbered in reading order of first cells)
        cells = list(zip(xs.tolist(), ys.tolist(), strict=True))
        yield cells[0], cells[1:]


def click_candidates(rollout: Rollout, start: Any, limit: int = 256,
                     seconds: float = 0.1) -> list[tuple[tuple[int, int], Array]]:
    """One click per distinct predicted effect: (cell, mask of the cells that click changes), within
    `seconds` of predicted steps (objects come first, so a short budget still covers each object once)."""
    grid = rollout.grid(start)
    deadline = time.perf_counter() + seconds
    seen: set[Any] = set()
    out: list[tuple[tuple[int, int], Array]] = []
    finer: list[tuple[int, int]] = []
    tried = 0

    def effect(cell: tuple[int, int]) -> bool:
        result = rollout.step(start, click_action(rollout, *cell))
        if result is None:
            return False
        changed = rollout.grid(result[0]) != grid
        key = rollout.key(result[0])
        if changed.any() and key not in seen:
            seen.add(key)
            out.append((cell, changed))
        return bool(changed.any())

    for cell, rest in _click_cells(grid):
        if len(out) >= limit or time.perf_counter() > deadline:
            return out
        tried += 1
        if effect(cell):
            finer += rest
    for cell in finer[: max(0, MAX_CELLS_TO_CLICK - tried)]:
        if len(out) >= limit or time.perf_counter() > deadline:
            break
        effect(cell)
    return out


def _box(mask: Array) -> Box:
    ys, xs = np.nonzero(mask)
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def find_target(grid: Array, canvas: Box, palette: set[int]) -> Box | None:
    """A same-size panel, disjoint from the canvas, drawn only in palette colours and differing from it."""
    x0, y0, x1, y1 = canvas
    w, h = x1 - x0 + 1, y1 - y0 + 1
    current = grid[y0 : y1 + 1, x0 : x1 + 1]
    best: tuple[int, Box] | None = None
    rows, cols = grid.shape
    for ty in range(rows - h + 1):
        for tx in range(cols - w + 1):
            if tx + w > x0 and tx <= x1 and ty + h > y0 and ty <= y1:
                continue
            panel = grid[ty : ty + h, tx : tx + w]
            if not set(np.unique(panel).tolist()) <= palette or np.array_equal(panel, current):
                continue
            distance = min(abs(ty - y0), abs(tx - x0)) * 1000 + abs(ty - y0) + abs(tx - x0)
            if best is None or distance < best[0]:
                best = (distance, (tx, ty, tx + w - 1, ty + h - 1))
    return best[1] if best else None


def match_plan(rollout: Rollout, start: Any, canvas: Box, target: Box, max_clicks: int = 8) -> list[Action] | None:
    """Click each canvas cell until it shows the target's colour; the plan if the whole canvas then matches."""
    state, plan = start, []
    x0, y0, x1, y1 = canvas
    goal = rollout.grid(start)[target[1] : target[3] + 1, target[0] : target[2] + 1]
    for cy in range(y0, y1 + 1):
        for cx in range(x0, x1 + 1):
            want = goal[cy - y0, cx - x0]
            for _ in range(max_clicks):
                if rollout.grid(state)[cy, cx] == want:
                    break
                result = rollout.step(state, click_action(rollout, cx, cy))
                if result is None:
                    return None
                state = result[0]
                plan.append(click_action(rollout, cx, cy))
    final = rollout.grid(state)[y0 : y1 + 1, x0 : x1 + 1]
    return plan if plan and np.array_equal(final, goal) else None


def canvas_plan(rollout: Rollout, start: Any, clicks: Sequence[tuple[tuple[int, int], Array]]
                ) -> tuple[list[Action], Box, Box] | None:
    """(plan, canvas box, target box) when the model shows a clickable canvas and a panel to copy."""
    candidates = [(cell, m) for cell, m in clicks if m[cell[1], cell[0]]]
    if not candidates:
        return None
    mask = np.logical_or.reduce([m for _, m in candidates])
    canvas = _box(mask)
    grid = rollout.grid(start)
    palette = {int(c) for c in np.unique(grid[mask])}
    for cell, _ in candidates:
        state = start
        for _ in range(8):
            result = rollout.step(state, click_action(rollout, *cell))
            if result is None:
                break
            state = result[0]
            palette.add(int(rollout.grid(state)[cell[1], cell[0]]))
    target = find_target(grid, canvas, palette)
    if target is None:
        return None
    x0, y0, x1, y1 = canvas
    want = {(x, y): int(grid[target[1] + y - y0, target[0] + x - x0])
            for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)}
    plan = linear_plan(rollout, start, candidates, want) or match_plan(rollout, start, canvas, target)
    return (plan, canvas, target) if plan else None
