"""Learn which action moves which colour by how much, what blocks it, what it pushes and what it leaves.

Nothing is assumed about what an action means: for every (action, colour) pair the displacement is the
most common shift that colour showed under that action. Blockers are the colours found in the way
whenever the mover stayed put and never found in the way when it moved. A colour found in the way both
ways (doors of a key's colour, drawn open in one shape and closed in another) blocks in the front shapes
(`lib_front_shape`: where it lies in the cells the mover would enter) seen only when the mover stayed put.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from dreamteam.backends.symbolic.common.artifact_dyn import lib_front_shape
from dreamteam.backends.symbolic.common.evidence import Motion, MotionCache, Shift, Transition, primary_moves
from dreamteam.backends.symbolic.worldmodel.model import MoveRule

MIN_SHARE = 0.6


@dataclass
class _Tally:
    """Counts for one (action, colour) pair."""

    shifts: Counter[Shift] = field(default_factory=Counter)
    pushes: set[int] = field(default_factory=set)


def pushed_by(t: Transition, found: dict[int, Motion], mover: int) -> set[int]:
    """Colours that moved with `mover` because its front overlapped them."""
    m = found.get(mover)
    if m is None or m.kind != "moved":
        return set()
    front = {(x + m.dx, y + m.dy) for x, y in m.cells}
    return {c for c, o in found.items() if c != mover and o.kind == "moved" and (o.dx, o.dy) == (m.dx, m.dy)
            and front & o.cells}


def _tally(transitions: Sequence[Transition], cache: MotionCache) -> dict[tuple[str, int], _Tally]:
    tallies: dict[tuple[str, int], _Tally] = defaultdict(_Tally)
    for t in transitions:
        if not t.local or t.label == "ACTION6":
            continue
        found = cache.get(t)
        for colour, shift in primary_moves(t, found).items():
            tally = tallies[(t.label, colour)]
            tally.shifts[shift] += 1
            tally.pushes |= pushed_by(t, found, colour)
    return tallies


@dataclass
class _Blocking:
    """Target colours seen when the mover moved / stayed, and the colours left behind."""

    passable: set[int] = field(default_factory=set)
    stopped: list[tuple[set[int], bool]] = field(default_factory=list)
    stop_shapes: list[dict[int, str]] = field(default_factory=list)
    """Per `stopped` entry, the front shape of each colour in the way."""
    pass_shapes: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    vacated: Counter[int] = field(default_factory=Counter)
    moved: int = 0
    unexplained: int = 0

    def merge(self, other: _Blocking) -> None:
        """Add `other`'s evidence (which is left as it was: it may be a remembered one)."""
        self.passable |= other.passable
        self.stopped += other.stopped
        self.stop_shapes += other.stop_shapes
        for c, shapes in other.pass_shapes.items():
            self.pass_shapes[c] |= shapes
        self.vacated.update(other.vacated)
        self.moved += other.moved
        self.unexplained += other.unexplained


def _targets(grid: np.ndarray, colour: int, shift: Shift) -> tuple[set[int], bool, list[tuple[int, int]]]:
    """Colours in the way of all `colour` cells moved by `shift`, whether one falls off, and the cells."""
    ys, xs = np.nonzero(grid == colour)
    rows, cols = grid.shape
    own = set(zip(xs.tolist(), ys.tolist(), strict=True))
    colours, off = set(), False
    for x, y in own:
        tx, ty = x + shift[0], y + shift[1]
        if not (0 <= tx < cols and 0 <= ty < rows):
            off = True
        elif (tx, ty) not in own:
            colours.add(int(grid[ty, tx]))
    return colours, off, sorted(own)


def _shapes(grid: np.ndarray, own: list[tuple[int, int]], shift: Shift, colours: Iterable[int]) -> dict[int, str]:
    """The front shape of each of `colours` for the mover at `own` moving by `shift`."""
    cells = [[x, y] for x, y in own]
    rows = grid.tolist()
    return {c: lib_front_shape(rows, cells, shift[0], shift[1], c) for c in colours}


def _multiple(shift: Shift, unit: Shift) -> int:
    """k when shift == k * unit for some k >= 1, else 0."""
    for k in range(1, 65):
        if (unit[0] * k, unit[1] * k) == shift:
            return k
    return 0


def _blocking(
    transitions: Iterable[Transition], cache: MotionCache, action: str, colour: int, shift: Shift,
    slide: bool = False,
) -> _Blocking:
    """Evidence for one rule; for a slide, `shift` is the unit step and the cell after the end is a stop."""
    seen = _Blocking()
    for t in transitions:
        if not t.local or t.label != action:
            continue
        one = cache.memo("blocking", t, (colour, shift, slide), partial(_blocking_at, t, cache, colour, shift, slide))
        if one is not None:
            seen.merge(one)
    return seen


def _blocking_at(t: Transition, cache: MotionCache, colour: int, shift: Shift, slide: bool) -> _Blocking | None:
    """One transition's evidence for `_blocking` (None when `colour` is not in its frame)."""
    if not (t.before.grid == colour).any():
        return None
    seen = _Blocking()
    colours, off, own = _targets(t.before.grid, colour, shift)
    m = cache.get(t).get(colour)
    steps = _multiple((m.dx, m.dy), shift) if m is not None and m.kind == "moved" else 0
    if steps and (slide or steps == 1):
        seen.moved += 1
        for i in range(1, steps + 1):
            entered = _targets(t.before.grid, colour, (shift[0] * i, shift[1] * i))[0]
            seen.passable |= entered
            for c, shape in _shapes(t.before.grid, own, (shift[0] * i, shift[1] * i), entered).items():
                seen.pass_shapes[c].add(shape)
        if slide:
            end = (shift[0] * (steps + 1), shift[1] * (steps + 1))
            after_end = _targets(t.before.grid, colour, end)
            seen.stopped.append((after_end[0], after_end[1]))
            seen.stop_shapes.append(_shapes(t.before.grid, own, end, after_end[0]))
        landed = {(x + shift[0] * steps, y + shift[1] * steps) for x, y in own}
        seen.vacated.update(int(t.after.grid[y, x]) for x, y in own if (x, y) not in landed)
    elif m is not None and m.kind == "static":
        seen.stopped.append((colours, off))
        seen.stop_shapes.append(_shapes(t.before.grid, own, shift, colours))
    else:
        seen.unexplained += 1
    return seen


def _stopped_slide(transitions: Sequence[Transition], cache: MotionCache, action: str, colour: int,
                   shifts: Counter[Shift]) -> Shift | None:
    """A single move length above one that always ended against something never passed through: a slide."""
    if len(shifts) != 1:
        return None
    (dx, dy), = shifts
    g = math.gcd(abs(dx), abs(dy))
    if g < 2:
        return None
    unit = (dx // g, dy // g)
    seen = _blocking(transitions, cache, action, colour, unit, slide=True)
    ends = [(c, off) for c, off in seen.stopped]
    return unit if ends and all(off or (c and not c & seen.passable) for c, off in ends) else None


def _unit(shifts: Counter[Shift]) -> Shift | None:
    """The common unit direction when the shifts are multiples of it of at least two lengths (a slide)."""
    units = set()
    for dx, dy in shifts:
        g = math.gcd(abs(dx), abs(dy))
        units.add((dx // g, dy // g))
    return units.pop() if len(units) == 1 and len(shifts) > 1 else None


def learn_moves(transitions: Sequence[Transition], cache: MotionCache) -> list[MoveRule]:
    """One rule per (action, colour) that moved consistently under that action.

    What blocks a colour, what it pushes and what it leaves behind are shared by all its actions: a wall
    seen stopping a move up also stops a move left.
    """
    learned: list[tuple[str, int, Shift, _Blocking, set[int], bool]] = []
    for (action, colour), tally in sorted(_tally(transitions, cache).items()):
        shift, count = tally.shifts.most_common(1)[0]
        unit = _unit(tally.shifts) or _stopped_slide(transitions, cache, action, colour, tally.shifts)
        if unit is not None:
            seen = _blocking(transitions, cache, action, colour, unit, slide=True)
            learned.append((action, colour, unit, seen, tally.pushes, True))
        elif count >= MIN_SHARE * sum(tally.shifts.values()):
            seen = _blocking(transitions, cache, action, colour, shift)
            learned.append((action, colour, shift, seen, tally.pushes, False))
    shared: dict[int, _Blocking] = defaultdict(_Blocking)
    pushes: dict[int, set[int]] = defaultdict(set)
    for _, colour, _, seen, pushed, _ in learned:
        shared[colour].passable |= seen.passable
        shared[colour].stopped += seen.stopped
        shared[colour].stop_shapes += seen.stop_shapes
        for c, shapes in seen.pass_shapes.items():
            shared[colour].pass_shapes[c] |= shapes
        shared[colour].vacated.update(seen.vacated)
        pushes[colour] |= pushed
    rules = [replace(_rule(action, colour, shift, seen, shared[colour], tuple(sorted(pushes[colour])), transitions),
                     slide=slide) for action, colour, shift, seen, _, slide in learned]
    return [r for r in rules if r.moved >= r.unexplained and _credible_jump(r)]


def _credible_jump(rule: MoveRule) -> bool:
    """Whether a rule's shift is one step, a slide, or a jump seen more often than the grid's edge (or
    nothing) had to explain the colour staying put: a thing that vanishes in one place and shows elsewhere now
    and then (a picked-up item coming back, an indicator lighting up) looks like a jump of several cells on
    whatever action was taken at that moment, and the edge 'explains' every time it did not happen. (A
    player drawn two logical cells wide moves by two cells and is stopped by walls, not by the edge.)"""
    if rule.slide or max(abs(rule.dx), abs(rule.dy)) <= 1:
        return True
    return rule.moved > rule.edge_stops + rule.unexplained


def _rule(action: str, colour: int, shift: Shift, seen: _Blocking, shared: _Blocking, pushable: tuple[int, ...],
          transitions: Sequence[Transition]) -> MoveRule:
    candidates = set().union(*(c for c, _ in shared.stopped)) if shared.stopped else set()
    blockers = tuple(sorted(candidates - shared.passable - set(pushable) - {colour}))
    shaped = _shaped_blockers(shared, candidates & shared.passable - set(pushable) - {colour}, set(blockers))
    table = dict(shaped)

    def shape_stop(shapes: dict[int, str]) -> bool:
        return any(shapes.get(c) in stops for c, stops in table.items())

    explained = sum(1 for (c, off), shapes in zip(seen.stopped, seen.stop_shapes, strict=True)
                    if off or c & set(blockers) or c & set(pushable) or shape_stop(shapes))
    vacated = shared.vacated.most_common(1)[0][0] if shared.vacated else background_colour(transitions)
    return MoveRule(
        action, colour, shift[0], shift[1], blockers, pushable, vacated,
        moved=seen.moved, blocked=explained, unexplained=seen.unexplained + len(seen.stopped) - explained,
        stops=tuple(sum(1 for c, _ in seen.stopped if b in c) for b in blockers),
        edge_stops=sum(1 for _, off in seen.stopped if off),
        shaped=shaped,
        shaped_stops=tuple(sum(1 for shapes in seen.stop_shapes if shapes.get(c) in stops) for c, stops in shaped),
    )


def _shaped_blockers(shared: _Blocking, mixed: set[int], blockers: set[int]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """For each colour both entered and in the way of a stop, the front shapes it was in the way in when
    nothing else explains the stop, and never entered in."""
    out = []
    for c in sorted(mixed):
        stops = {shapes[c] for (colours, off), shapes in zip(shared.stopped, shared.stop_shapes, strict=True)
                 if c in shapes and not off and not colours & blockers}
        shapes = tuple(sorted(stops - shared.pass_shapes.get(c, set()) - {""}))
        if shapes:
            out.append((c, shapes))
    return tuple(out)


def background_colour(transitions: Sequence[Transition]) -> int:
    """The commonest colour of the latest frame (what an uncovered cell most likely shows)."""
    if not transitions:
        return 0
    return int(np.bincount(transitions[-1].after.grid.ravel().astype(np.intp) & 15).argmax())
