"""Click puzzles solved as linear systems over predicted click effects (lights-out, cycles, clipping)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.backends.symbolic.planning.linear import linear_plan, solve_mod, uniform_plans
from dreamteam.backends.symbolic.planning.search import click_candidates

CYCLE = (2, 14, 8)  # three colours a click advances through, in this order


class PatternRollout:
    """A board of cycling cells: a click advances its cell and the cells at `offsets` one step (clipped at the
    board's edge); colour 5 frames the board and never changes. Scale 1, no letterbox."""

    geometry = (1, 0, 0)

    def __init__(self, size: int, offsets: tuple[tuple[int, int], ...], cycle: tuple[int, ...] = CYCLE) -> None:
        self.size, self.offsets, self.cycle = size, offsets, cycle

    def start(self, frame: np.ndarray) -> Any:
        return tuple(map(tuple, frame.tolist()))

    def grid(self, state: Any) -> np.ndarray:
        return np.array(state)

    def key(self, state: Any) -> Hashable:
        return state

    def step(self, state: Any, action: dict[str, Any]) -> tuple[Any, list[str]] | None:
        grid = self.grid(state).copy()
        x, y = int(action["x"]), int(action["y"])
        if not (1 <= x <= self.size and 1 <= y <= self.size):
            return self.start(grid), []
        for dx, dy in self.offsets:
            cx, cy = x + dx, y + dy
            if 1 <= cx <= self.size and 1 <= cy <= self.size:
                grid[cy, cx] = self.cycle[(self.cycle.index(int(grid[cy, cx])) + 1) % len(self.cycle)]
        return self.start(grid), []

    def board(self, rng: np.random.Generator) -> np.ndarray:
        grid = np.full((self.size + 2, self.size + 2), 5, dtype=np.int64)
        grid[1:-1, 1:-1] = rng.choice(self.cycle, size=(self.size, self.size))
        return grid


def run(rollout: PatternRollout, state: Any, plan: list[dict[str, Any]]) -> np.ndarray:
    for action in plan:
        result = rollout.step(state, action)
        assert result is not None
        state = result[0]
    return rollout.grid(state)


PLUS = ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))


def test_solve_mod_finds_a_solution_or_says_there_is_none() -> None:
    assert solve_mod([[1, 1], [0, 1]], [2, 1], 3) == [1, 1]
    assert solve_mod([[1, 1], [1, 1]], [0, 1], 2) is None
    x = solve_mod([[2, 1], [1, 1]], [1, 0], 3)
    assert x is not None and (2 * x[0] + x[1]) % 3 == 1 and (x[0] + x[1]) % 3 == 0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), min_size=4, max_size=4), min_size=3, max_size=5),
       st.lists(st.integers(0, 4), min_size=4, max_size=4))
def test_solve_mod_solutions_satisfy_the_system(matrix: list[list[int]], x_true: list[int]) -> None:
    rhs = [sum(a * b for a, b in zip(row, x_true, strict=True)) % 5 for row in matrix]
    x = solve_mod(matrix, rhs, 5)
    assert x is not None  # the system is consistent by construction and 5 is prime
    assert [sum(a * b for a, b in zip(row, x, strict=True)) % 5 for row in matrix] == rhs


@pytest.mark.parametrize("offsets", [((0, 0),), ((-1, 0), (0, 0), (1, 0)), PLUS])
def test_a_wanted_picture_is_reached_with_any_click_pattern(offsets: tuple[tuple[int, int], ...]) -> None:
    rng = np.random.default_rng(7)
    rollout = PatternRollout(3, offsets)
    start = rollout.start(rollout.board(rng))
    clicks = click_candidates(rollout, start)
    want_grid = rollout.board(rng)
    want = {(x, y): int(want_grid[y, x]) for y in range(1, 4) for x in range(1, 4)}
    plan = linear_plan(rollout, start, clicks, want)
    # the plus pattern on a 3x3 board over Z/3 is invertible, so every picture has a plan
    assert plan is not None
    final = run(rollout, start, plan)
    assert all(int(final[y, x]) == c for (x, y), c in want.items())


def test_lights_out_gets_every_uniform_board() -> None:
    rollout = PatternRollout(3, PLUS, cycle=(2, 14))  # 3x3 lights-out: every board is solvable
    start = rollout.start(rollout.board(np.random.default_rng(3)))
    plans = dict(uniform_plans(rollout, start, click_candidates(rollout, start)))
    assert set(plans) == {2, 14}
    for colour, plan in plans.items():
        final = run(rollout, start, plan)
        assert (final[1:-1, 1:-1] == colour).all()


def test_no_plan_when_the_board_is_not_linear() -> None:
    class Sticky(PatternRollout):
        """Cells stop changing once they reach the last colour: not a cycle, so no linear model."""

        def step(self, state: Any, action: dict[str, Any]) -> tuple[Any, list[str]] | None:
            grid = self.grid(state).copy()
            x, y = int(action["x"]), int(action["y"])
            if 1 <= x <= self.size and 1 <= y <= self.size and grid[y, x] != self.cycle[-1]:
                grid[y, x] = self.cycle[self.cycle.index(int(grid[y, x])) + 1]
            return self.start(grid), []

    rollout = Sticky(3, ((0, 0),))
    start = rollout.start(rollout.board(np.random.default_rng(1)))
    clicks = click_candidates(rollout, start)
    assert linear_plan(rollout, start, clicks, {(1, 1): CYCLE[0]}) is None


def test_a_click_that_leaves_its_own_cell_alone_still_gives_the_colour_cycle() -> None:
    # each click flips only the four cells around it: the cycle must be read off a cell the click changes
    around = ((1, 0), (-1, 0), (0, 1), (0, -1))
    rollout = PatternRollout(4, around, cycle=(2, 14))
    lit = np.full((6, 6), 5, dtype=np.int64)
    lit[1:-1, 1:-1] = 14
    state = rollout.start(lit)
    for x, y in ((1, 1), (3, 2), (2, 4)):  # a scramble of the all-lit board, so lighting it again is possible
        state = rollout.step(state, {"action": "ACTION6", "x": x, "y": y})[0]  # type: ignore[index]
    plans = dict(uniform_plans(rollout, state, click_candidates(rollout, state)))
    assert 14 in plans
    assert (run(rollout, state, plans[14])[1:-1, 1:-1] == 14).all()


def test_a_big_board_on_a_plain_background_gets_one_unknown_per_cell() -> None:
    # a 13x13 board in a 30x30 grid: too many cells to try every one, but the cells off the background
    # are few enough, and a cell-by-cell picture needs each of them as an unknown
    rollout = PatternRollout(13, PLUS)
    rng = np.random.default_rng(11)
    frame = np.full((30, 30), 5, dtype=np.int64)
    frame[:15, :15] = rollout.board(rng)
    start = rollout.start(frame)
    clicks = click_candidates(rollout, start, seconds=30)  # (which cells, not how fast: a loaded machine is slow)
    assert sorted(cell for cell, _ in clicks) == [(x, y) for x in range(1, 14) for y in range(1, 14)]
    pressed = [{"action": "ACTION6", "x": int(x), "y": int(y)} for x, y in rng.integers(1, 14, size=(40, 2))]
    target = run(rollout, start, pressed)  # reachable by construction
    want = {(x, y): int(target[y, x]) for y in range(1, 14) for x in range(1, 14)}
    plan = linear_plan(rollout, start, clicks, want)
    assert plan is not None
    final = run(rollout, start, plan)
    assert all(int(final[y, x]) == c for (x, y), c in want.items())
