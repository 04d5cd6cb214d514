"""Distance estimates for best-first search: how far a grid is from every object of a group on its goal."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Sequence

import numpy as np
import numpy.typing as npt

from dreamteam.backends.symbolic.common.frames import Array, colour_table
from dreamteam.backends.symbolic.planning.goals.grids import Tint, _on_cells

MAX_PAIRINGS = 120
"""While there are at most this many ways to pair the cells off their goal with distinct free goal cells,
the estimate tries them all; above it, each cell counts its nearest goal cell."""


MAX_FIELDS = 16
"""Up to this many goal cells, the estimate counts walking steps around walls (one distance field per goal
cell, computed on the first estimate); beyond, Manhattan steps."""


def walk_fields(passable: npt.NDArray[np.bool_], ys: npt.NDArray[np.intp],
                xs: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """fields[i, y, x]: the fewest 4-neighbour steps over `passable` cells from (x, y) to (xs[i], ys[i]), inf
    where none leads there. A breadth-first flood per goal cell, one whole-grid numpy step per distance
    (the generators' distance helpers in `env.procgen` walk map strings of the game layer, which role models
    must not import)."""
    rows, cols = passable.shape
    fields = np.full((len(xs), rows, cols), np.inf)
    for i, (y, x) in enumerate(zip(ys.tolist(), xs.tolist(), strict=True)):
        field = fields[i]
        front = np.zeros_like(passable)
        front[y, x] = True
        distance = 0
        while front.any():
            field[front] = distance
            grown = front.copy()
            grown[1:] |= front[:-1]
            grown[:-1] |= front[1:]
            grown[:, 1:] |= front[:, :-1]
            grown[:, :-1] |= front[:, 1:]
            front = grown & passable & np.isinf(field)
            distance += 1
    return fields


def _distance_to(start: Array, colour: int, group: frozenset[int], floor: Array, tints: Sequence[Tint],
                 pushers: Collection[int] = (), walls: Collection[int] = (), pushed: bool = False,
                 ) -> Callable[[Array], float]:
    """The estimate of `repeat-level-up-each`: the steps that bring the group's cells off colour K onto
    distinct free K cells, plus the steps the nearest other mover (`pushers`) needs to reach one of them;
    with `pushed` (the group moves only when pushed), infinite when a one-cell object of it sits off K in a
    corner of walls (it can never leave it).
    Steps walk around `walls` (colours that stopped movers and draw big structures) when there are at most
    `MAX_FIELDS` K cells; otherwise, and where walls cut a cell off, they are Manhattan steps."""
    under = _on_cells(start, colour, floor, tints)
    table = colour_table(group)
    others = colour_table(pushers)
    stuck = _cornered(~colour_table(set(walls))[start]) if pushed and walls else None
    goal_ys, goal_xs = np.nonzero(under)
    field_of = np.full(under.shape, -1, dtype=np.intp)
    field_of[goal_ys, goal_xs] = np.arange(len(goal_xs))
    fields: list[npt.NDArray[np.float64]] = []

    def walked(cx: npt.NDArray[np.intp], cy: npt.NDArray[np.intp], xs: npt.NDArray[np.intp],
               ys: npt.NDArray[np.intp], steps: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        if not walls or len(goal_xs) > MAX_FIELDS:
            return steps
        if not fields:
            fields.append(walk_fields(~colour_table(set(walls))[start], goal_ys, goal_xs))
        around = fields[0][field_of[ys, xs]][:, cy, cx].T
        return np.where(np.isinf(around), steps, around).astype(np.intp)

    def estimate(grid: Array) -> float:
        if grid.shape != start.shape:
            return 0.0
        mine = table[grid]
        cy, cx = np.nonzero(mine & ~under)
        if not len(cx):
            return 0.0
        if stuck is not None and _stuck(mine, stuck, cy, cx):
            return math.inf
        ys, xs = np.nonzero(under & ~mine)
        if not len(xs):
            return float(grid.size)
        steps = walked(cx, cy, xs, ys, np.abs(cx[:, None] - xs[None, :]) + np.abs(cy[:, None] - ys[None, :]))
        pairings = math.perm(len(xs), len(cx)) if len(cx) <= len(xs) else MAX_PAIRINGS + 1
        total = _matched(steps) if pairings <= MAX_PAIRINGS else float(steps.min(axis=1).sum())
        py, px = np.nonzero(others[grid])
        if len(px):
            total += float((np.abs(px[:, None] - cx[None, :]) + np.abs(py[:, None] - cy[None, :])).min()) - 1.0
        return total

    return estimate


def _cornered(passable: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Cells with a wall (or the grid's edge) on a side along each axis: a one-cell object there that only
    moves when pushed can never move again (the pusher would have to stand in a wall)."""
    around = np.pad(passable, 1, constant_values=False)
    across = ~around[1:-1, :-2] | ~around[1:-1, 2:]
    along = ~around[:-2, 1:-1] | ~around[2:, 1:-1]
    cornered: npt.NDArray[np.bool_] = passable & across & along
    return cornered


def _stuck(mine: npt.NDArray[np.bool_], cornered: npt.NDArray[np.bool_], cy: npt.NDArray[np.intp],
           cx: npt.NDArray[np.intp]) -> bool:
    """Whether a cell of the group off its goal is a lone cell (no group cell beside it) in a corner."""
    height, width = mine.shape
    for y, x in zip(cy.tolist(), cx.tolist(), strict=True):
        if not cornered[y, x]:
            continue
        beside = [(y + dy, x + dx) for dy, dx in ((0, 1), (0, -1), (1, 0), (-1, 0))]
        if not any(0 <= a < height and 0 <= b < width and mine[a, b] for a, b in beside):
            return True
    return False


def _matched(steps: npt.NDArray[np.intp]) -> float:
    """The least total of steps[i, j] over pairings of every row with a distinct column."""
    rows, cols = steps.shape
    best = float("inf")
    for chosen in itertools.permutations(range(cols), rows):
        best = min(best, float(steps[np.arange(rows), list(chosen)].sum()))
    return best

