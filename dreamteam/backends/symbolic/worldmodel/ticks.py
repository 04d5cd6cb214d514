"""Learn counters: cells that turn from one colour to another a few at a time (status bars, timers).

Works on what the move and click rules leave unexplained. A counter (source -> target) lives in the box
around the source-coloured objects it eats; which cell goes next is chosen among four orders (reading
order by rows or by columns, from the start or the end). When it ticks is chosen among four conditions,
simplest first: every step, whenever a mover moved, whenever anything else changed, on a set of actions.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from dreamteam.backends.symbolic.common.artifact_dyn import lib_tick
from dreamteam.backends.symbolic.common.evidence import BoolArray, MotionCache, Transition, memoized, touching
from dreamteam.backends.symbolic.common.frames import whole_cells
from dreamteam.backends.symbolic.worldmodel.model import TICK_ORDERS, Box, TickRule, WorldRules, step_rules
from dreamteam.backends.symbolic.worldmodel.patrols import window_changes

MIN_EVENTS = 2
IntArray = npt.NDArray[np.int8]
WHOLE_GRID: Box = (0, 0, 63, 63)
"""The region of a counter whose colour appears nowhere else: it follows the bar to any place or level."""
MARGIN = 16
"""The value the cells' box takes in a margin grid: no colour, so no counter counts or ticks it."""
WHOLE_FRAME: Box = (0, 0, 1 << 16, 1 << 16)
"""A region holding any grid whole (to count a colour everywhere)."""


@dataclass(frozen=True, slots=True)
class _Outcome:
    """A transition with what the tick-free rules left unexplained: on the logical grids, or (`before` and
    `after` given) on the display frames' margin, the cells' box blanked out."""

    t: Transition
    residual: BoolArray
    moved: bool
    changed: bool
    before: IntArray | None = None
    after: IntArray | None = None

    @property
    def grid(self) -> IntArray:
        """The grid the counters tick on: the logical grid before, or the margin's pixels."""
        return self.t.before.grid if self.before is None else self.before

    @property
    def next_grid(self) -> IntArray:
        return self.t.after.grid if self.after is None else self.after


def _outcomes(transitions: Sequence[Transition], rules: WorldRules, cache: MotionCache | None = None) -> list[_Outcome]:
    out = []
    window = window_changes(transitions, cache) if rules.patrols else {}
    for t in transitions:
        if not t.local:
            continue
        result = step_rules(rules, t.before.grid.tolist(), t.action, t.before.geometry, window.get(t.index, []))
        if "scene" in result:
            continue
        predicted = np.asarray(result["grid"], dtype=np.int8)
        changed = bool((predicted != t.before.grid).any())
        out.append(_Outcome(t, predicted != t.after.grid, bool(result["moved"]), changed))
    return out


def _layout(o: _Outcome) -> tuple[Any, ...]:
    """Geometry and logical size: counters are learned within one layout."""
    return (o.t.before.geometry, o.grid.shape)


def _box(masks: Sequence[BoolArray]) -> Box:
    ys, xs = np.nonzero(np.logical_or.reduce(masks))
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def _order_fits(o: _Outcome, mask: BoolArray, region: Box, source: int, target: int) -> list[str]:
    """The orders under which ticking reproduces exactly the cells that changed.

    Computes what `lib_tick` (the artifact's helper) would change, with numpy instead of running it on a
    copy of the grid four times: this runs for every unexplained colour change of every transition in the
    window, and on a 64x64 frame whose moving sprites the rules do not explain that is thousands of grids
    per step. `test_ticks` checks the two agree."""
    grid = o.grid
    x0, y0 = max(0, region[0]), max(0, region[1])
    ys, xs = np.nonzero(grid[y0 : region[3] + 1, x0 : region[2] + 1] == source)
    ys, xs = ys + y0, xs + x0
    count = int(mask.sum())
    fits = []
    for order in TICK_ORDERS:
        if order.startswith("column"):
            by = np.lexsort((ys, xs))
            cy, cx = ys[by], xs[by]
        else:
            cy, cx = ys, xs
        index = list(range(len(cy)))
        chosen = index[len(index) - count :] if order.endswith("last") else index[:count]
        if len(chosen) == count and bool(mask[cy[chosen], cx[chosen]].all()):
            fits.append(order)
    return fits


def _order_fits_by_running(o: _Outcome, mask: BoolArray, region: Box, source: int, target: int) -> list[str]:
    """`_order_fits` by running `lib_tick` itself (the reference the tests compare with)."""
    fits = []
    for order in TICK_ORDERS:
        grid = o.grid.tolist()
        lib_tick(grid, list(region), source, target, order, int(mask.sum()))
        if np.array_equal(np.asarray(grid, dtype=np.int8) != o.grid, mask):
            fits.append(order)
    return fits


def _condition(outcomes: Sequence[_Outcome], ticked: Sequence[bool]) -> tuple[str, tuple[str, ...], list[tuple[str, int]]]:
    """The simplest tick condition with the fewest errors, and every candidate's error count."""
    labels = [o.t.label for o in outcomes]
    always_labels = tuple(sorted({lab for lab in labels if all(k for k, l2 in zip(ticked, labels, strict=True)
                                                                if l2 == lab)}))
    predictions = {
        "always": [True] * len(outcomes),
        "moved": [o.moved for o in outcomes],
        "changed": [o.changed for o in outcomes],
        "actions": [lab in always_labels for lab in labels],
    }
    errors = [(name, sum(p != k for p, k in zip(pred, ticked, strict=True))) for name, pred in predictions.items()]
    best = min(errors, key=lambda item: item[1])[0]
    return best, always_labels if best == "actions" else (), errors


@dataclass(frozen=True, slots=True)
class _Event:
    """One colour change (source -> target) of one transition that the tick-free rules leave unexplained."""

    outcome: _Outcome
    source: int
    target: int
    mask: BoolArray
    size: int
    """How many cells changed."""
    box: Box
    """The box of the changed cells and of the source-coloured regions they belong to."""
    key: tuple[Any, ...]
    """What identifies the event within its transition (for remembered evidence)."""


_Found = tuple[int, int, BoolArray, int, Box]
"""An unexplained change as remembered: source, target, mask, size, box (see `_Event`)."""


def _events(o: _Outcome, cache: MotionCache | None) -> list[_Event]:
    """The unexplained colour changes of one outcome. What they are is remembered per transition and residual:
    the labelling of each change's regions is the costly part of counter learning, and a window re-learned
    after every wrong prediction holds mostly the same transitions with the same residuals."""
    key = (o.before is not None, hash(o.residual.tobytes()), o.residual.shape)
    found: list[_Found] = memoized(cache, "tick-events", o.t, key, partial(_changes_of, o))
    return [_Event(o, source, target, mask, size, box, (*key, source, target))
            for source, target, mask, size, box in found]


def _changes_of(o: _Outcome) -> list[_Found]:
    if not o.residual.any():
        return []
    grid, next_grid = o.grid, o.next_grid
    before, after = grid[o.residual], next_grid[o.residual]
    out = []
    for source, target in sorted(set(zip(before.tolist(), after.tolist(), strict=True))):
        mask = o.residual & (grid == source) & (next_grid == target)
        out.append((int(source), int(target), mask, int(mask.sum()), _box([touching(grid == source, mask) | mask])))
    return out


def _counts(outcomes: Sequence[_Outcome], region: Box) -> npt.NDArray[np.int64]:
    """Per outcome (rows), how many cells of each colour (columns 0-16) lie in `region` of its grid."""
    x0, y0, x1, y1 = max(0, region[0]), max(0, region[1]), region[2], region[3]
    crops = [o.grid[y0 : y1 + 1, x0 : x1 + 1] for o in outcomes]
    if not crops:
        return np.zeros((0, MARGIN + 1), dtype=np.int64)
    if len({c.shape for c in crops}) == 1:
        stack = np.stack(crops).reshape(len(crops), -1).astype(np.int64)
        offsets = (MARGIN + 1) * np.arange(len(crops), dtype=np.int64)[:, None]
        flat = np.bincount((stack + offsets).ravel(), minlength=(MARGIN + 1) * len(crops))
        return flat.reshape(len(crops), MARGIN + 1)
    return np.stack([np.bincount(c.ravel().astype(np.int64), minlength=MARGIN + 1) for c in crops])


class _Counts:
    """Colour counts of a layout's outcomes, per region (each region counted once per learning)."""

    def __init__(self, outcomes: Sequence[_Outcome]) -> None:
        self.outcomes = outcomes
        self.by_region: dict[Box, npt.NDArray[np.int64]] = {}

    def of(self, region: Box) -> npt.NDArray[np.int64]:
        """Rows: outcomes; columns: colours (MARGIN included)."""
        found = self.by_region.get(region)
        if found is None:
            found = self.by_region[region] = _counts(self.outcomes, region)
        return found


def _fits(event: _Event, region: Box, cache: MotionCache | None) -> list[str]:
    """`_order_fits` of one event, remembered per transition, event and region."""
    o = event.outcome
    return memoized(cache, "tick-fits", o.t, (*event.key, region),
                    partial(_order_fits, o, event.mask, region, event.source, event.target))


def _learn_one(counts: _Counts, source: int, target: int, events: Sequence[_Event],
              whole: bool = True, cache: MotionCache | None = None) -> TickRule | None:
    region: Box = (min(e.box[0] for e in events), min(e.box[1] for e in events),
                   max(e.box[2] for e in events), max(e.box[3] for e in events))
    orders: Counter[str] = Counter(order for e in events for order in _fits(e, region, cache))
    if not orders:
        return None
    order, fitted = orders.most_common(1)[0]
    count = Counter(e.size for e in events).most_common(1)[0][0]
    inside = counts.of(region)[:, source]
    if whole and bool(np.all(counts.of(WHOLE_FRAME)[:, source] == inside)):
        region = WHOLE_GRID
        inside = counts.of(region)[:, source]
    able_mask = inside >= count
    able = [o for o, ok in zip(counts.outcomes, able_mask.tolist(), strict=True) if ok]
    hit = {id(e.outcome) for e in events}
    ticked = [id(o) in hit for o in able]
    condition, actions, alternatives = _condition(able, ticked)
    if condition == "actions" and not actions:
        return None
    errors = dict(alternatives)[condition] + len(events) - fitted
    return TickRule(source, target, region, order, count, condition, actions, evidence=fitted, errors=errors,
                    alternatives=tuple(alternatives))


def learn_ticks(transitions: Sequence[Transition], rules: WorldRules, cache: MotionCache | None = None) -> list[TickRule]:
    """Counter rules for colour changes the move and click rules do not explain."""
    return _merged(_found(_outcomes(transitions, replace(rules, ticks=()), cache), cache=cache))


def _found(outcomes: Sequence[_Outcome], whole: bool = True, cache: MotionCache | None = None) -> list[TickRule]:
    """A counter per (layout, source colour, target colour) whose changes tick in one order often enough."""
    groups: dict[tuple[Any, int, int], list[_Event]] = defaultdict(list)
    for o in outcomes:
        for event in _events(o, cache):
            groups[(_layout(o), event.source, event.target)].append(event)
    counts: dict[Any, _Counts] = {}
    found = []
    for (layout, source, target), events in sorted(groups.items(), key=lambda item: item[0][1:]):
        if len(events) < MIN_EVENTS:
            continue
        if layout not in counts:
            counts[layout] = _Counts([o for o in outcomes if _layout(o) == layout])
        rule = _learn_one(counts[layout], source, target, events, whole, cache)
        if rule is not None and rule.evidence >= MIN_EVENTS and rule.evidence * 2 > len(events):
            found.append(rule)
    return found


def _cells_box(geometry: Sequence[int], shape: tuple[int, ...]) -> Box:
    """The display box (x0, y0, x1, y1, inclusive) of a geometry's whole cells."""
    scale, ox, oy = int(geometry[0]), int(geometry[1]), int(geometry[2])
    columns, rows = whole_cells(geometry, shape[1], shape[0])
    return ox, oy, ox + columns * scale - 1, oy + rows * scale - 1


def _has_margin(t: Transition) -> bool:
    """Whether the transition keeps its geometry and that geometry leaves pixels outside the cells."""
    geometry, shape = t.before.geometry, t.before.display.shape
    if t.after.geometry != geometry or geometry[0] <= 1:
        return False
    x0, y0, x1, y1 = _cells_box(geometry, shape)
    return bool((x1 - x0 + 1) * (y1 - y0 + 1) < shape[0] * shape[1])


def margin_grid(display: IntArray, geometry: Sequence[int]) -> IntArray:
    """The display frame with the box of whole cells blanked out (`MARGIN`)."""
    x0, y0, x1, y1 = _cells_box(geometry, display.shape)
    out = display.copy()
    out[y0 : y1 + 1, x0 : x1 + 1] = MARGIN
    return out


def learn_hud_ticks(transitions: Sequence[Transition], rules: WorldRules,
                    cache: MotionCache | None = None) -> list[TickRule]:
    """Counters in the margin beside the cells (a HUD strip's move counter, bar or dots), in display pixels.

    The margin is kept as it was by the cell rules, so every pixel of it that changed is unexplained; the
    same counter learning as on the cells (`learn_ticks`) then finds which pixels of a colour turn to
    another, in which order and when (after every action, when a mover moved, when anything changed, on
    some actions). A counter's region stays the box around its pixels (never the whole frame, where it
    would reach the cells)."""
    if not any(_has_margin(t) for t in transitions):
        return []  # no replay of the rules over the window when no frame has a margin
    outcomes = []
    for o in _outcomes(transitions, replace(rules, ticks=(), hud_ticks=()), cache):
        if not _has_margin(o.t):
            continue
        before = margin_grid(o.t.before.display, o.t.before.geometry)
        after = margin_grid(o.t.after.display, o.t.before.geometry)
        outcomes.append(_Outcome(o.t, before != after, o.moved, o.changed, before, after))
    found = []
    for geometry in sorted({o.t.before.geometry for o in outcomes}):
        mine = [o for o in outcomes if o.t.before.geometry == geometry]
        box = _cells_box(geometry, mine[0].grid.shape)
        found += [rule for rule in _found(mine, whole=False, cache=cache)
                  if rule.evidence >= HUD_MIN_EVIDENCE and 2 * rule.errors <= rule.evidence
                  and not _overlaps(rule.region, box)]
    return _merged(found)


HUD_MIN_EVIDENCE = 3
"""A margin counter needs this many fitting ticks and at most half as many errors: a margin also shows
click flashes and animations, which a counter learned from two events would tick forever."""


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _merged(found: Sequence[TickRule]) -> list[TickRule]:
    """One rule per counter: the same counter learned in several layouts would otherwise tick twice.

    Rules that agree on everything but their evidence become one (evidence and errors added); a counter
    whose colour appears nowhere else (WHOLE_GRID) is one counter wherever it is, so when its layouts
    disagree the best-supported reading is kept.
    """
    groups: dict[tuple[Any, ...], list[TickRule]] = defaultdict(list)
    for rule in found:
        shape = (rule.source, rule.target, rule.region, rule.order, rule.count, rule.condition, rule.actions)
        groups[shape[:3] if rule.region == WHOLE_GRID else shape].append(rule)
    out = []
    for rules in groups.values():
        best = max(rules, key=lambda r: (r.evidence - r.errors, r.evidence))
        same = [r for r in rules if (r.order, r.count, r.condition, r.actions)
                == (best.order, best.count, best.condition, best.actions)]
        totals: Counter[str] = Counter()
        for r in same:
            totals.update(dict(r.alternatives))
        out.append(replace(best, evidence=sum(r.evidence for r in same), errors=sum(r.errors for r in same),
                           alternatives=tuple((name, totals[name]) for name, _ in best.alternatives)))
    return out


def tick_mask(t: Transition, ticks: Sequence[TickRule]) -> BoolArray:
    """Cells the counters would change in this transition's before frame (whatever the condition)."""
    grid = t.before.grid.tolist()
    for tick in ticks:
        lib_tick(grid, list(tick.region), tick.source, tick.target, tick.order, tick.count)
    mask: BoolArray = np.asarray(grid, dtype=np.int8) != t.before.grid
    return mask
