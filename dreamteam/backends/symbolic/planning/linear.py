"""Click puzzles as linear systems: when each click advances cells along one colour cycle, the number of
clicks per clickable cell that produces a wanted picture solves A x = b over the integers mod the cycle
length (lights-out boards, copy-the-picture canvases, any neighbour pattern the world model learned).

The matrix comes from the team's own rollouts (what one click on each candidate changes, predicted by
dynamics.py), never from an assumed pattern, and every plan is checked by rolling it out before it is
returned: if the game is not linear after all, there is no plan, not a wrong one.

numpy has no modular linear algebra (and SymPy's would be far slower), and the systems here have at most
a few hundred unknowns, so a Gauss-Jordan elimination over Z/n on numpy rows is written out below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import gcd
from typing import Any

import numpy as np

from dreamteam.backends.symbolic.common.frames import Array
from dreamteam.backends.symbolic.planning.rollout import Action, Rollout, click_action

Cell = tuple[int, int]
MAX_CYCLE = 8
MAX_PLAN = 400


def colour_cycle(rollout: Rollout, start: Any, cell: Cell, watch: Cell | None = None) -> list[int] | None:
    """The colours cell `watch` (default: the clicked cell) shows while `cell` is clicked again and again,
    until it comes back (None if it never does)."""
    grid = rollout.grid(start)
    wx, wy = watch or cell
    seen = [int(grid[wy, wx])]
    state = start
    for _ in range(MAX_CYCLE):
        result = rollout.step(state, click_action(rollout, *cell))
        if result is None:
            return None
        state = result[0]
        colour = int(rollout.grid(state)[wy, wx])
        if colour == seen[0]:
            return seen if len(seen) > 1 else None
        if colour in seen:
            return None
        seen.append(colour)
    return None


def solve_mod(matrix: Sequence[Sequence[int]], rhs: Sequence[int], n: int) -> list[int] | None:
    """One solution x of matrix @ x = rhs (mod n), free unknowns set to 0; None when there is none.

    Pivots must be invertible mod n (always the case for a prime n); for a composite n a column without
    such a pivot is left free, which may miss a solution but never returns a wrong one (the caller checks).
    Rows are eliminated with whole-array operations: a 13x13 canvas is a 169-unknown system.
    """
    rows, cols = len(matrix), len(matrix[0]) if matrix else 0
    if rows == 0:
        return [0] * cols
    a = np.concatenate([np.asarray(matrix, dtype=np.int64).reshape(rows, cols) % n,
                        np.asarray(rhs, dtype=np.int64).reshape(rows, 1) % n], axis=1)
    units = np.array([gcd(v, n) == 1 for v in range(n)])
    pivots: list[tuple[int, int]] = []
    r = 0
    for c in range(cols):
        candidates = np.nonzero(units[a[r:, c]])[0]
        if len(candidates) == 0:
            continue
        pivot = r + int(candidates[0])
        a[[r, pivot]] = a[[pivot, r]]
        a[r] = (a[r] * pow(int(a[r, c]), -1, n)) % n
        factors = a[:, c].copy()
        factors[r] = 0
        a = (a - np.outer(factors, a[r])) % n
        pivots.append((r, c))
        r += 1
        if r == rows:
            break
    if np.any(~a[:, :cols].any(axis=1) & (a[:, cols] != 0)):
        return None
    x = [0] * cols
    for row, c in pivots:
        x[c] = int(a[row, cols])
    return x


def linear_plan(rollout: Rollout, start: Any, clicks: Sequence[tuple[Cell, Array]],
                want: Mapping[Cell, int], cycle: Sequence[int] | None = None) -> list[Action] | None:
    """Clicks that make every cell in `want` show its wanted colour, if the board behaves linearly."""
    if not clicks or not want:
        return None
    grid = rollout.grid(start)
    cycle = cycle or board_cycle(rollout, start, clicks)
    if not cycle:
        return None
    n, index = len(cycle), {c: i for i, c in enumerate(cycle)}
    cells = list(want)
    if any(int(grid[y, x]) not in index or want[(x, y)] not in index for x, y in cells):
        return None
    matrix = [[0] * len(clicks) for _ in cells]
    for j, (cell, _) in enumerate(clicks):
        result = rollout.step(start, click_action(rollout, *cell))
        if result is None:
            return None
        after = rollout.grid(result[0])
        for i, (x, y) in enumerate(cells):
            colour = int(after[y, x])
            if colour not in index:
                return None
            matrix[i][j] = (index[colour] - index[int(grid[y, x])]) % n
    rhs = [(index[want[(x, y)]] - index[int(grid[y, x])]) % n for x, y in cells]
    counts = solve_mod(matrix, rhs, n)
    if counts is None or not any(counts) or sum(counts) > MAX_PLAN:
        return None
    plan = [click_action(rollout, *clicks[j][0]) for j, k in enumerate(counts) for _ in range(k)]
    return plan if _reaches(rollout, start, plan, want) else None


def board_cycle(rollout: Rollout, start: Any, clicks: Sequence[tuple[Cell, Array]]) -> list[int] | None:
    """The colour cycle of the first of a few clicks that has one, watched on the clicked cell when the click
    changes it, else on the first cell it changes (a click may flip only the cells around it)."""
    def watched(cell: Cell, changed: Array) -> Cell:
        if changed[cell[1], cell[0]]:
            return cell
        ys, xs = np.nonzero(changed)
        return (int(xs[0]), int(ys[0])) if len(xs) else cell

    return next((c for c in (colour_cycle(rollout, start, cell, watched(cell, changed))
                             for cell, changed in clicks[:3]) if c), None)


def _reaches(rollout: Rollout, start: Any, plan: Sequence[Action], want: Mapping[Cell, int]) -> bool:
    state = start
    for action in plan:
        result = rollout.step(state, action)
        if result is None:
            return False
        state = result[0]
    grid = rollout.grid(state)
    return all(int(grid[y, x]) == colour for (x, y), colour in want.items())


def uniform_plans(rollout: Rollout, start: Any, clicks: Sequence[tuple[Cell, Array]]) -> list[tuple[int, list[Action]]]:
    """For each colour of the board's cycle: a linear plan that makes every clickable cell that colour."""
    if not clicks:
        return []
    cycle = board_cycle(rollout, start, clicks)
    if not cycle:
        return []
    mask = np.logical_or.reduce([changed for _, changed in clicks])
    ys, xs = np.nonzero(mask)
    cells = list(zip(xs.tolist(), ys.tolist(), strict=True))
    out = []
    for colour in cycle:
        plan = linear_plan(rollout, start, clicks, dict.fromkeys(cells, colour), cycle)
        if plan:
            out.append((colour, plan))
    return out
