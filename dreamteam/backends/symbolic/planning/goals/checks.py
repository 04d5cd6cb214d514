"""Sub-goals and their tests on a predicted grid (and the step's events)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from dreamteam.backends.symbolic.common.frames import Array, colour_table
from dreamteam.backends.symbolic.planning.goals.gathering import Evidence
from dreamteam.backends.symbolic.planning.goals.grids import Tint, _aliases, _on_cells, _positions

Test = Callable[[Array, Sequence[str]], bool]


@dataclass(frozen=True, slots=True)
class SubGoal:
    """A named sub-goal with its priority (lower first) and its test on (grid, events)."""

    name: str
    description: str
    priority: int
    test: Test = field(compare=False)
    estimate: Callable[[Array], float] | None = field(default=None, compare=False)
    """How far a grid is from the sub-goal (0 when reached), for a best-first search; None when unknown."""
    lapse: Lapse | None = field(default=None, compare=False)
    """For goals that need something collected first, when the evidence shows it coming back by itself
    after some actions: how to plan around that (`search.Lapsing`)."""


@dataclass(frozen=True, slots=True)
class Lapse:
    """Collected colours that come back on their level-start cells `lasts` actions after they were taken,
    `held` actions ago for the current frame (0 when not held now)."""

    level: Array = field(compare=False)
    colours: frozenset[int]
    lasts: int
    held: int
    movers: frozenset[int]

    def holding(self, grid: Array) -> bool:
        """Whether `grid` shows none of the colours on their cells of the level start."""
        return _all_gone(self.level, self.colours)(grid)

    def restore(self, grid: Array) -> Array:
        """`grid` with the colours back on their level-start cells (except where a mover stands)."""
        out = grid.copy()
        free = ~colour_table(self.movers)[grid]
        for c in sorted(self.colours):
            out[(self.level == c) & free] = c
        return out



def _enters(start: Array, colour: int, movers: frozenset[int], tints: Sequence[Tint] = ()) -> Test:
    """A mover stands on a cell of colour K of `start`, or slid over colour K on the way (the world model's
    "passed:M:K" event: a slide that runs over a thing ends beyond it)."""
    was = start == colour
    aliases = _aliases(movers, tints) - {colour}
    table = colour_table(aliases)
    passed = frozenset(f"passed:{m}:{colour}" for m in aliases)

    def test(grid: Array, events: Sequence[str]) -> bool:
        return grid.shape == start.shape and (bool(table[grid[was]].any()) or not passed.isdisjoint(events))

    return test


def _one_more_on(start: Array, colour: int, movers: frozenset[int], floor: Array, tints: Sequence[Tint]) -> Test:
    """A mover enters colour K and, after the step, more cells of the movers stand on K than at `start`
    (progress towards all on K: taking one block off a target and putting it back is none)."""
    enters = _enters(start, colour, movers, tints)
    under = _on_cells(start, colour, floor, tints)
    table = colour_table(_aliases(movers, tints))
    now = int((table[start] & under).sum())

    def test(grid: Array, events: Sequence[str]) -> bool:
        return enters(grid, events) and int((table[grid] & under).sum()) > now

    return test


def _collect_then_touch(start: Array, level: Array, gone: Collection[int], colour: int,
                        movers: frozenset[int], directions: Mapping[str, tuple[int, int]],
                        tints: Sequence[Tint] = ()) -> Test:
    """Every colour in `gone` has left all its level-start cells, and a mover entered colour K or the last
    action (the search's "by:ACTIONn" event; `directions`: each action's unit step of the movers) pushed a
    mover against it (a door that opens only once something was picked up stops the mover in the model);
    `level`: the level start (or the start grid when none is known)."""
    target = start == colour
    fronts = {}
    for label, (dx, dy) in directions.items():
        front = np.zeros_like(target)  # front[y, x]: the cell one step along (dx, dy) from (x, y) is K
        rows, cols = target.shape
        ys, xs = np.nonzero(target)
        ys, xs = ys - dy, xs - dx
        inside = (ys >= 0) & (ys < rows) & (xs >= 0) & (xs < cols)
        front[ys[inside], xs[inside]] = True
        fronts[f"by:{label}"] = front | target
    table = colour_table(_aliases(movers, tints) - {colour})
    holding = _all_gone(level, gone)

    def test(grid: Array, events: Sequence[str]) -> bool:
        if grid.shape != start.shape:
            return False
        cells = next((fronts[e] for e in events if e in fronts), target)
        return bool(table[grid[cells]].any()) and holding(grid)

    return test


def _all_gone(level: Array, gone: Collection[int]) -> Callable[[Array], bool]:
    """Whether a grid shows none of the `gone` colours on their cells of `level` (the level start)."""
    pairs = [(c, level == c) for c in sorted(gone)]

    def holding(grid: Array) -> bool:
        return grid.shape == level.shape and all(not (grid[mark] == c).any() for c, mark in pairs)

    return holding


def _new_position(evidence: Evidence, start: Array) -> Test:
    table = colour_table(evidence.movers)

    def test(grid: Array, events: Sequence[str]) -> bool:
        return grid.shape == start.shape and _positions(grid, table) not in evidence.visited

    return test


def _touches(cells: npt.NDArray[np.bool_], movers: Collection[int],
             fronts: Mapping[str, Sequence[tuple[int, int, int]]]) -> Test:
    """A mover stands on `cells`, or the step's action (`by:ACTIONn`) moved a mover (by its learned shift)
    against them."""
    table = colour_table(movers)
    rows, cols = cells.shape

    def test(grid: Array, events: Sequence[str]) -> bool:
        if grid.shape != cells.shape:
            return False
        if cells[table[grid]].any():
            return True
        for event in events:
            for colour, dx, dy in fronts.get(event, ()):
                ys, xs = np.nonzero(grid == colour)
                ty, tx = ys + dy, xs + dx
                inside = (ty >= 0) & (ty < rows) & (tx >= 0) & (tx < cols)
                if cells[ty[inside], tx[inside]].any():
                    return True
        return False

    return test



def _all_inside(cells: Collection[tuple[int, int]], mask: npt.NDArray[np.bool_]) -> bool:
    """Whether there are cells and every (x, y) of them lies inside the grid and on `mask`."""
    height, width = mask.shape
    return bool(cells) and all(0 <= x < width and 0 <= y < height and bool(mask[y, x]) for x, y in cells)



def _all_on(start: Array, colour: int, movers: Collection[frozenset[int]], floor: Array,
            tints: Sequence[Tint] = ()) -> Test:
    """Every group of mover colours shows somewhere, and all its cells lie on `colour`: where the level start
    or the current grid shows it (a tinted cell of the level start counts as what it stands on)."""
    under = _on_cells(start, colour, floor, tints)
    tables = [colour_table(group) for group in movers]

    def test(grid: Array, events: Sequence[str]) -> bool:
        if grid.shape != start.shape:
            return False
        for table in tables:
            cells = table[grid]
            if not cells.any() or not under[cells].all():
                return False
        return True

    return test


def _each_mover_on(start: Array, colour: int, movers: Collection[int], floor: Array, tints: Sequence[Tint]) -> Test:
    """`_all_on` with every mover colour its own group: each of them shows and stands on `colour`."""
    return _all_on(start, colour, [frozenset({m}) for m in sorted(movers)], floor, tints)

