"""Patrols: things that move on their own, one step per action whatever the action, along a fixed route.

Evidence is per colour and per cell. A cell of colour c in the frame before an action is matched with the
one cell of c next to it (or on it) in the frame after; the cell it came from is the one changed cell of
the previous frame next to it that held c (`window_changes`: the history's "last" grid, or the window's
previous transition, compared the way dynamics.py compares them with `lib_changes`). A colour is a patrol when its cells move in (nearly) every transition,
never stand still, go the same way from the same (came-from, cell) pair, and did so under at least two
different actions for some pair: a player that moves by the action fails the last two tests.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import partial

import numpy as np

from dreamteam.backends.symbolic.common.artifact_dyn import lib_changes, lib_hex, lib_patrol_key
from dreamteam.backends.symbolic.common.evidence import MotionCache, Transition, memoized
from dreamteam.backends.symbolic.worldmodel.model import PatrolRule

MAX_PATROL_CELLS = 12
"""Colours with more cells than this are scenery, not patrollers (one cell per patroller is tracked)."""
MIN_MOVES = 4
MAX_CONTRADICTIONS = 0.1
"""At most this share of (came-from, cell) pairs may have gone two different ways."""

Cell = tuple[int, int]


def window_changes(transitions: Sequence[Transition], cache: MotionCache | None = None) -> dict[int, list[list[int]]]:
    """Per transition index: what changed between the frame before `t.before` and `t.before`.

    The frame before is the history's "last" grid when the dynamics kept one (they do once a patrol is
    learned), else the `before` of the window's transition one step earlier when it led to `t.before`.
    """
    by_step = {t.step: t for t in transitions}
    out = {}
    for t in transitions:
        last = t.history.get("last") if isinstance(t.history, dict) else None
        earlier = by_step.get(t.step - 1)
        if last is None and earlier is not None and earlier.after.grid.shape == t.before.grid.shape \
                and np.array_equal(earlier.after.grid, t.before.grid):
            last = lib_hex(earlier.before.grid.tolist())
        changed = partial(lib_changes, last, t.before.grid.tolist())
        seen = tuple(last) if isinstance(last, list) else last
        out[t.index] = memoized(cache, "changes", t, seen, changed)
    return out


def _cells(grid: np.ndarray, colour: int) -> list[Cell]:
    ys, xs = np.nonzero(grid == colour)
    return [(int(x), int(y)) for y, x in zip(ys, xs, strict=True)]


def _near(a: Cell, b: Sequence[int]) -> int:
    return abs(a[0] - int(b[0])) + abs(a[1] - int(b[1]))


class _Tally:
    """What one colour's cells did: next cell per (came-from, cell) pair and per cell, with the actions."""

    def __init__(self) -> None:
        self.routes: dict[str, Counter[str]] = defaultdict(Counter)
        self.route_actions: dict[str, set[str]] = defaultdict(set)
        self.starts: dict[str, Counter[str]] = defaultdict(Counter)
        self.vacated: Counter[int] = Counter()
        self.moved = 0
        self.stayed = 0
        self.actions: set[str] = set()

    def add(self, t: Transition, cell: Cell, target: Cell, came: list[list[int]]) -> None:
        here, there = lib_patrol_key(*cell), lib_patrol_key(*target)
        if target == cell:
            self.stayed += 1
            return
        self.moved += 1
        self.actions.add(t.label)
        self.vacated[int(t.after.grid[cell[1], cell[0]])] += 1
        self.starts[here][there] += 1
        if len(came) == 1:
            key = lib_patrol_key(int(came[0][0]), int(came[0][1])) + ">" + here
            self.routes[key][there] += 1
            self.route_actions[key].add(t.label)

    def rule(self, colour: int) -> PatrolRule | None:
        if self.moved < MIN_MOVES or self.stayed > 0 or len(self.actions) < 2:
            return None
        contradictions = sum(1 for seen in self.routes.values() if len(seen) > 1)
        if contradictions > MAX_CONTRADICTIONS * max(1, len(self.routes)):
            return None
        shared = sum(1 for k, seen in self.routes.items() if len(seen) == 1 and len(self.route_actions[k]) > 1)
        if shared == 0:
            return None
        routes = tuple(sorted((k, _cell(next(iter(seen)))) for k, seen in self.routes.items() if len(seen) == 1))
        starts = tuple(sorted((k, _cell(next(iter(seen)))) for k, seen in self.starts.items() if len(seen) == 1))
        vacated = self.vacated.most_common(1)[0][0]
        return PatrolRule(colour, routes, starts, vacated, evidence=self.moved, against=contradictions,
                          actions=len(self.actions))


def _cell(key: str) -> tuple[int, int]:
    x, y = key.split(",")
    return int(x), int(y)


def _paired(cells: Sequence[Cell], following: Sequence[Cell]) -> dict[Cell, Cell]:
    """Each cell's one next cell among `following` (on it or next to it), where that is unambiguous once the
    cells already matched have taken theirs: two patrollers side by side, one stepping into the cell the
    other leaves, are told apart when the other has only one way to go."""
    options = {cell: [q for q in following if _near(cell, q) <= 1] for cell in cells}
    matched: dict[Cell, Cell] = {}
    while True:
        sure = {cell: found[0] for cell, found in options.items() if cell not in matched and len(found) == 1}
        if not sure:
            return matched
        matched.update(sure)
        taken = set(sure.values())
        options = {cell: [q for q in found if q not in taken or matched.get(cell) == q]
                   for cell, found in options.items()}


def learn_patrols(transitions: Sequence[Transition], background: int,
                  cache: MotionCache | None = None) -> tuple[PatrolRule, ...]:
    """Every colour that moves on its own along a route, with its learned route tables (the per-transition
    steps remembered in `cache` when given)."""
    tallies: dict[int, _Tally] = defaultdict(_Tally)
    window = window_changes(transitions, cache)
    for t in transitions:
        if not t.local or t.game_over:
            continue
        changes = window[t.index]
        found = partial(_steps, t, background, changes)
        extra = (background, tuple(tuple(int(v) for v in c) for c in changes))
        for colour, cell, target, came in memoized(cache, "patrol-steps", t, extra, found):
            tallies[colour].add(t, cell, target, came)
    rules = (tally.rule(colour) for colour, tally in sorted(tallies.items()))
    return tuple(rule for rule in rules if rule is not None)


def _steps(t: Transition, background: int, changes: list[list[int]]) -> list[tuple[int, Cell, Cell, list[list[int]]]]:
    """(colour, cell, next cell, changed cells it may have come from) for each small colour's paired cells."""
    before, after = t.before.grid, t.after.grid
    out = []
    for colour in np.unique(before).tolist():
        if colour == background:
            continue
        cells = _cells(before, colour)
        following = _cells(after, colour)
        if not 0 < len(cells) <= MAX_PATROL_CELLS or len(following) != len(cells):
            continue
        for cell, target in _paired(cells, following).items():
            came = [c for c in changes if int(c[2]) == colour and _near(cell, c) == 1]
            out.append((int(colour), cell, target, came))
    return out

