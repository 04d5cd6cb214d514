"""Transitions decoded into logical frames, and what each colour did in one transition.

A transition is *local* when the logical layout is unchanged and the action is not RESET and no level was
completed: only then do cells correspond and per-cell rules can be learned from it. Everything else is a
*scene change* (a new level, a reset, a different scale).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from dreamteam.backends.symbolic.common.frames import DisplayCache, LogicalFrame, logical
from dreamteam.perception import label_runs

BoolArray = npt.NDArray[np.bool_]
Cell = tuple[int, int]
Shift = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Motion:
    """What one colour did: static, moved by (dx, dy), vanished, appeared, or changed otherwise.

    `cells` (the colour's cells before, or before and after for "changed") is built from `mask` when first
    read: only moves read it, and the cell set of a static background colour on a 64x64 frame is thousands
    of tuples made for every colour of every transition learned from."""

    colour: int
    kind: str
    dx: int = 0
    dy: int = 0
    mask: BoolArray | None = field(default=None, repr=False, compare=False)
    _cells: list[frozenset[Cell]] = field(default_factory=list, repr=False, compare=False)

    @property
    def cells(self) -> frozenset[Cell]:
        """The cells of the motion (built once, on first use)."""
        if not self._cells:
            self._cells.append(frozenset() if self.mask is None else _cells(self.mask))
        return self._cells[0]


@dataclass(frozen=True, slots=True, eq=False)
class Transition:
    """One transition of the regression set with decoded logical frames."""

    index: int
    step: int
    label: str
    action: Mapping[str, Any]
    before: LogicalFrame
    after: LogicalFrame
    level_up: bool
    game_over: bool
    history: Mapping[str, Any] = field(default_factory=dict)
    key: int = 0

    @property
    def local(self) -> bool:
        """Whether cells correspond one to one between before and after."""
        return self.before.same_layout(self.after) and not self.level_up and self.label != "RESET"

    def changed(self) -> BoolArray:
        """Mask of logical cells whose colour changed (local transitions only)."""
        mask: BoolArray = self.before.grid != self.after.grid
        return mask

    def click_cell(self) -> Cell | None:
        """The logical cell a click landed on, or None (also for non-clicks)."""
        x, y = self.action.get("x"), self.action.get("y")
        if self.label != "ACTION6" or x is None or y is None:
            return None
        return self.before.to_cell(int(x), int(y))


def action_label(action: Mapping[str, Any]) -> str:
    """The action's name (clicks are all ACTION6, their coordinates are data)."""
    return str(action.get("action", action.get("id", ""))).upper()


def decode_transitions(
    raw: Sequence[Mapping[str, Any]], hints: Sequence[Sequence[int]], cache: DisplayCache
) -> list[Transition]:
    """Decode the shared transition format into `Transition`s (malformed entries are skipped)."""
    out = []
    for index, item in enumerate(raw):
        try:
            before = logical(cache.get(item["before"]), hints)
            after = logical(cache.get(item["after"]), hints)
            action = dict(item["action"])
        except (KeyError, ValueError, TypeError):
            continue
        out.append(Transition(
            index, int(item.get("step", index)), action_label(action), action, before, after,
            bool(item.get("level_up", False)), bool(item.get("game_over", False)), dict(item.get("history") or {}),
            key=transition_key(item),
        ))
    return out


def transition_key(item: Mapping[str, Any]) -> int:
    """An in-process key of a raw transition's frames and action (for caches)."""
    before, after = item.get("before"), item.get("after")
    frames = tuple(before) if isinstance(before, list) and before and isinstance(before[0], str) else id(before)
    frames_after = tuple(after) if isinstance(after, list) and after and isinstance(after[0], str) else id(after)
    return hash((frames, frames_after, tuple(sorted(dict(item.get("action") or {}).items()))))


class MotionCache:
    """Per-transition colour motions, computed once per distinct transition (bounded)."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: dict[tuple[int, Any, Any], dict[int, Motion]] = {}
        self._memo: dict[tuple[Any, ...], object] = {}

    def get(self, t: Transition) -> dict[int, Motion]:
        """`motions(t)`, cached by the transition's key and geometries."""
        key = (t.key, t.before.geometry, t.after.geometry)
        found = self._items.get(key)
        if found is None:
            found = motions(t)
            if len(self._items) >= self.size:
                self._items.pop(next(iter(self._items)))
            self._items[key] = found
        return found

    def memo[T](self, name: str, t: Transition, extra: Hashable, compute: Callable[[], T]) -> T:
        """`compute()`, a rule family's per-transition evidence, remembered by `name`, the transition's key and
        geometries and `extra` (whatever else it depends on): a family re-learned over a window of hundreds of
        64x64 transitions after every wrong prediction would otherwise redo the same work for each of them."""
        key = (name, t.key, t.before.geometry, t.after.geometry, extra)
        if key in self._memo:
            return cast(T, self._memo[key])
        found = compute()
        if len(self._memo) >= 4 * self.size:
            self._memo.pop(next(iter(self._memo)))
        self._memo[key] = found
        return found


def memoized[T](cache: MotionCache | None, name: str, t: Transition, extra: Hashable, compute: Callable[[], T]) -> T:
    """`cache.memo(...)`, or `compute()` when there is no cache."""
    return compute() if cache is None else cache.memo(name, t, extra, compute)


def touching(mask: BoolArray, seeds: BoolArray) -> BoolArray:
    """The union of the 4-connected components of `mask` that contain a `seeds` cell."""
    if not (mask & seeds).any():
        return np.zeros_like(mask)
    labels, _ = label_runs(mask.astype(np.int8))
    wanted = np.unique(labels[mask & seeds])
    result: BoolArray = np.isin(labels, wanted) & mask
    return result


def _cells(mask: BoolArray) -> frozenset[Cell]:
    ys, xs = np.nonzero(mask)
    return frozenset(zip(xs.tolist(), ys.tolist(), strict=True))


def colour_motion(before: npt.NDArray[np.int8], after: npt.NDArray[np.int8], colour: int) -> Motion | None:
    """How the cells of `colour` changed between two same-size grids (None if the colour is absent)."""
    was, now = before == colour, after == colour
    if not was.any() and not now.any():
        return None
    if np.array_equal(was, now):
        return Motion(colour, "static", mask=was)
    moving = touching(was, was & ~now)
    landed = touching(now, now & ~was)
    if not landed.any():
        return Motion(colour, "vanished", mask=moving)
    if not moving.any():
        return Motion(colour, "appeared", mask=landed)
    (ys0, xs0), (ys1, xs1) = np.nonzero(moving), np.nonzero(landed)
    dx, dy = int(xs1.min() - xs0.min()), int(ys1.min() - ys0.min())
    crop0 = moving[ys0.min() : ys0.max() + 1, xs0.min() : xs0.max() + 1]
    crop1 = landed[ys1.min() : ys1.max() + 1, xs1.min() : xs1.max() + 1]
    if crop0.shape == crop1.shape and np.array_equal(crop0, crop1) and (dx or dy):
        return Motion(colour, "moved", dx, dy, moving)
    return Motion(colour, "changed", mask=moving | landed)


def motions(t: Transition) -> dict[int, Motion]:
    """Every present colour's motion in a local transition."""
    colours = np.union1d(np.unique(t.before.grid), np.unique(t.after.grid)).tolist()
    found = {c: colour_motion(t.before.grid, t.after.grid, int(c)) for c in colours}
    return {c: m for c, m in found.items() if m is not None}


def primary_moves(t: Transition, found: dict[int, Motion]) -> dict[int, Shift]:
    """Colours that moved on their own (not pushed by another colour moving the same way)."""
    moved = {c: (m.dx, m.dy) for c, m in found.items() if m.kind == "moved"}
    pushed = set()
    for c1, d1 in moved.items():
        front = {(x + d1[0], y + d1[1]) for x, y in found[c1].cells}
        for c2, d2 in moved.items():
            if c2 != c1 and d2 == d1 and front & found[c2].cells:
                pushed.add(c2)
    return {c: d for c, d in moved.items() if c not in pushed}
