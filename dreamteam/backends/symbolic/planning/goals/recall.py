"""Memory beyond the transition window: level starts, and per level what movers touched and where they stood."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from dreamteam.backends.symbolic.common.evidence import Transition
from dreamteam.backends.symbolic.common.frames import Array, colour_table
from dreamteam.backends.symbolic.planning.goals.gathering import Evidence, _collected
from dreamteam.backends.symbolic.planning.goals.grids import (
    MAX_TOUCH_CELLS,
    ObjectClass,
    _commonest,
    _unit,
    object_class,
)
from dreamteam.perception import label_runs


class LevelStarts:
    """The first grid of every level seen (at step 0, after each level-up, after a RESET), kept beyond the
    transition window: what was collected before a level-up is read against its level's start."""

    def __init__(self) -> None:
        self._starts: dict[int, Array] = {}
        """Grid by the step of the level-up that began the level (-1 for the first level)."""

    def note(self, transitions: Sequence[Transition]) -> None:
        """Remember the level starts the transitions show."""
        for t in transitions:  # (the latest decoding wins: early ones may predate the learned geometry)
            if t.step == 0:
                self._starts[-1] = t.before.grid
            if t.level_up:
                self._starts[t.step] = t.after.grid
            elif t.label == "RESET":
                began = max((s for s in self._starts if s < t.step), default=None)
                if began is not None:
                    self._starts[began] = t.after.grid

    def of(self, step: int) -> Array | None:
        """The start of the level that was being played at `step` (None when not seen)."""
        began = max((s for s in self._starts if s < step), default=None)
        return None if began is None else self._starts[began]


class Recall:
    """What movers touched and where they stood, kept per level beyond the transition window: on a large
    level the window (the last few dozen steps) forgets rooms explored earlier, and the sub-goals "stand
    where no mover stood" and "enter what no mover entered" would send the team back to them.

    `merge` adds a window's evidence for a level (`level`: any key naming it, e.g. the step of the last
    level-up) and returns that evidence with every position and (mover, colour) pair recalled for the
    level. A new level or a new set of movers starts afresh (positions are keyed by the movers' cells)."""

    def __init__(self, limit: int = 50_000) -> None:
        self.limit = limit
        self._key: tuple[object, frozenset[int]] | None = None
        self._visited: set[frozenset[tuple[int, int]]] = set()
        self._frozen: frozenset[frozenset[tuple[int, int]]] = frozenset()
        """`_visited` as handed out, rebuilt only when it grows (it can hold thousands of positions)."""
        self._pairs: set[tuple[int, int]] = set()
        self._touched: set[ObjectClass] = set()
        self._stoppers: set[int] = set()
        self._tried: set[tuple[int, int]] = set()
        self._seen: set[int] = set()
        self._taken: dict[int, int] = {}
        """Small colours of the level start now gone from all their start cells, and the step they went."""
        self._lasts: dict[int, int] = {}
        """The fewest actions a taken small colour stayed away before it came back by itself."""
        self._last_step = -1

    def merge(self, evidence: Evidence, level: object, transitions: Sequence[Transition] = (),
              start: Array | None = None) -> Evidence:
        """`evidence` with the level's recalled positions, pairs, touched object classes and stopping colours
        added (and remembered); `transitions`: the window, read for touches once each; `start`: the level
        start, when known (for what was held when a mover ran into something)."""
        key = (level, evidence.movers)
        if key != self._key:
            self._key, self._visited, self._frozen, self._pairs = key, set(), frozenset(), set()
            self._touched, self._stoppers, self._tried, self._seen = set(), set(), set(), set()
            self._taken, self._lasts, self._last_step = {}, {}, -1
        fresh = evidence.visited - self._visited
        if fresh and len(self._visited) < self.limit:
            self._visited |= fresh
            self._frozen, fresh = frozenset(self._visited), frozenset()
        self._pairs |= evidence.pairs
        shifts = {(label, colour): (dx, dy) for label, colour, dx, dy in evidence.shifts}
        table = colour_table(evidence.movers)
        for t in transitions:
            if t.key not in self._seen and t.local:
                self._seen.add(t.key)
                self._touch(t, evidence.movers, shifts, evidence.slides, start)
                if start is not None and start.shape == t.before.grid.shape:
                    self._lapse(t, start, table)
        lasts = dict(evidence.lasts)
        for colour, n in self._lasts.items():
            lasts[colour] = min(n, lasts.get(colour, n))
        held = max([evidence.held] + [self._last_step - step for c, step in self._taken.items() if c in self._lasts])
        return replace(evidence, visited=self._frozen | fresh if fresh else self._frozen, pairs=frozenset(self._pairs),
                       touched=frozenset(self._touched), stoppers=frozenset(self._stoppers),
                       tried_holding=frozenset(self._tried), lasts=tuple(sorted(lasts.items())), held=held)

    def _lapse(self, t: Transition, start: Array, movers: npt.NDArray[np.bool_]) -> None:
        """Note small colours of the level start (`MAX_TOUCH_CELLS` cells at most) taken off all their start
        cells, and how many actions later they came back by themselves (no mover on those cells before): a
        thing that lasts only so long once picked up (`_lasts` does the same within the window, for what was
        collected before level-ups; this works before any level-up and beyond the window)."""
        self._last_step = max(self._last_step, t.step)
        counts = np.bincount(start.ravel().astype(np.intp) & 15, minlength=16)
        background = _commonest(start)
        before, after = t.before.grid, t.after.grid
        for colour in np.nonzero((counts > 0) & (counts <= MAX_TOUCH_CELLS))[0].tolist():
            if colour == background or movers[colour]:
                continue
            home = start == colour
            was, now = bool((before[home] == colour).any()), bool((after[home] == colour).any())
            if was and not now:
                self._taken[colour] = t.step
            elif not was and now and colour in self._taken:
                if not movers[before[home]].any():
                    gap = t.step - self._taken[colour]
                    self._lasts[colour] = min(gap, self._lasts.get(colour, gap))
                del self._taken[colour]

    def _touch(self, t: Transition, movers: Collection[int], shifts: Mapping[tuple[str, int], tuple[int, int]],
               slides: Collection[tuple[str, int]], start: Array | None) -> None:
        """The classes of the objects in front of each mover that has a known move for the action (entered,
        or stopping it when it stayed put); a sliding mover stopped where it ended, against what lies one
        step further."""
        grid = t.before.grid
        rows, cols = grid.shape
        table = colour_table(movers)
        background = _commonest(grid)
        labels: npt.NDArray[np.int32] | None = None
        for colour in movers:
            shift = shifts.get((t.label, colour))
            own = grid == colour
            if shift is None or not own.any():
                continue
            stayed = bool(np.array_equal(own, t.after.grid == colour))
            if (t.label, colour) in slides:
                unit = _unit(shift)
                own, shift, stayed = t.after.grid == colour, unit, True
            ys, xs = np.nonzero(own)
            ty, tx = ys + shift[1], xs + shift[0]
            inside = (ty >= 0) & (ty < rows) & (tx >= 0) & (tx < cols)
            front = [(x, y) for x, y in zip(tx[inside].tolist(), ty[inside].tolist(), strict=True)
                     if not own[y, x] and not table[grid[y, x]] and int(grid[y, x]) != background]
            if not front:
                continue
            if labels is None:
                labels, _ = label_runs(grid)
            for x, y in front:
                self._touched.add(object_class(grid, labels, x, y))
                if stayed:
                    self._stoppers.add(int(grid[y, x]))
            if stayed and start is not None and start.shape == grid.shape:
                held = _collected(start, grid, movers)
                self._tried |= {(int(grid[y, x]), h) for x, y in front for h in held}

