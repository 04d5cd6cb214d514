"""Sub-goals the inductive explorer derives from evidence, each with a test on a predicted grid.

- `level_up`: a rollout predicts the event "level_up".
- `repeat-level-up:colourK`: a mover enters colour K, as that mover did right before a level-up (priority 2
  once that mover was seen entering K in a step that completed no level: not enough by itself).
- `repeat-level-up-all:colourK`: every mover stands on colour K at once (K entered before a level-up),
  with what lies under the movers read from the level start; for levels that need all of several
  movers on their goals.
- `repeat-level-up-each:colourK`: every object of the colours that entered K right before a level-up
  stands on K at once (all blocks on targets, the player anywhere). With several such objects, one of
  them entering K (`repeat-level-up`) is then no longer taken to complete the level (priority 2), though
  it is still tried when all at once cannot be reached, and then asks for one more of them on K than now
  (taking one off and putting it back is no progress).
- `cover:colourK` (no level-up on K yet): every pushed object that shows a tint on K stands on K at once
  (a first level that already asks for several blocks on their targets).
- `repeat-level-up-after:colourK`: the colours that had left all their level-start cells right before every
  level-up seen (things picked up: a key, a spark) are gone, and the last move took a mover into or
  against colour K, which it entered (or, sliding, ran into) right before a level-up; the single `repeat-level-up` is then
  priority 2. For doors that open only to a mover that carries something. When what was picked up was
  seen coming back by itself, the goal carries a `Lapse` (how many actions it lasts) for the search.
- `enter:colourK`: a mover enters colour K that this mover has never entered (touch what has not been
  touched); tracked per mover, so a pushed block still has a goal where only the player has been.
- `touch:colourK:shape:...`: a mover moves into or against a small object of a class (colour and shape)
  never touched, of a colour seen stopping a mover (a key or switch drawn in a door's colour).
- `holding:colourX:colourK` (before any level-up): take X (a small colour a mover entered) off the level,
  then run into K (a small colour that stopped a mover, never while X was taken): a door for carriers.
- `together:colourK`: every mover stands on colour K at once, where each mover has entered K on its own,
  no level-up on K has been seen and the movers never stood on K all together (before a first level-up:
  goals that need several movers on them at the same time).
- `frontier`: a mover stands where it has never stood (explore).
Movers are the colours seen moving rigidly in recent transitions. With tints learned by the world model
(`tints`: (colour, under, shown) triples, a block that shows another colour on a target) a colour and the
colours it shows are one mover, and a tinted cell counts as the colour under it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from dreamteam.perception import label_runs
from dreamteam.roles.symbolic.evidence import MotionCache, Transition, motions
from dreamteam.roles.symbolic.frames import Array
from dreamteam.roles.symbolic.movers import primary_moves

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


ObjectClass = tuple[int, bytes, tuple[int, ...]]
"""(colour, mask bytes, mask shape) of a 4-connected single-colour object: objects of one class look alike."""


def object_class(grid: Array, labels: npt.NDArray[np.int32], x: int, y: int) -> ObjectClass:
    """The class of the object under cell (x, y) (`labels`: `label_runs` of the grid)."""
    mask = labels == labels[y, x]
    ys, xs = np.nonzero(mask)
    crop = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return int(grid[y, x]), crop.tobytes(), crop.shape


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the transitions say about movers: who moves, what they entered, where they stood."""

    movers: frozenset[int]
    shifts: tuple[tuple[str, int, int, int], ...]
    visited: frozenset[frozenset[tuple[int, int]]]
    pairs: frozenset[tuple[int, int]] = frozenset()
    """(mover, colour) pairs: that mover was seen entering that colour."""
    level_up_pairs: frozenset[tuple[int, int]] = frozenset()
    """(mover, colour) pairs seen right before a level-up."""
    collected: frozenset[int] = frozenset()
    """Colours shown at the level start and gone from all their start cells right before every level-up
    whose level start is in the window (things picked up first: a key, a spark)."""
    lasts: tuple[tuple[int, int], ...] = ()
    """(colour, actions) for collected colours seen coming back on their level-start cells by themselves (no
    RESET, no level change, no mover leaving those cells): the fewest actions from taken to back."""
    held: int = 0
    """Actions since the collected colours of `lasts` were last taken, when the last frame still holds them."""
    touched: frozenset[ObjectClass] = frozenset()
    """Object classes (colour and shape) a mover moved into, whether it entered them or they stopped it
    (filled in by `Recall`)."""
    stoppers: frozenset[int] = frozenset()
    """Colours seen stopping a mover (filled in by `Recall`)."""
    slides: frozenset[tuple[str, int]] = frozenset()
    """(action, mover colour) pairs seen moving by several lengths in one direction: it slides until stopped."""
    tried_holding: frozenset[tuple[int, int]] = frozenset()
    """(stopper colour K, colour X) pairs: a mover ran into K while X was gone from all its level-start cells
    (filled in by `Recall`, given the level start)."""
    pushed: frozenset[int] = frozenset()
    """Movers never seen moving on their own (in the window): things that move only when pushed."""
    unrewarded: frozenset[tuple[int, int]] = frozenset()
    """(mover, colour) pairs seen entering in a transition that completed no level: that mover entering that
    colour is not enough by itself (several avatars that must all stand on their goals)."""

    @property
    def entered(self) -> frozenset[int]:
        """Colours some mover entered."""
        return frozenset(c for _, c in self.pairs)

    @property
    def level_up_entered(self) -> frozenset[int]:
        """Colours some mover entered right before a level-up."""
        return frozenset(c for _, c in self.level_up_pairs)


def _entered(t: Transition, colour: int, shift: tuple[int, int]) -> set[int]:
    ys, xs = np.nonzero(t.before.grid == colour)
    own = set(zip(xs.tolist(), ys.tolist(), strict=True))
    rows, cols = t.before.grid.shape
    out = set()
    for x, y in own:
        tx, ty = x + shift[0], y + shift[1]
        if (tx, ty) not in own and 0 <= tx < cols and 0 <= ty < rows:
            out.add(int(t.before.grid[ty, tx]))
    return out


def _swept(t: Transition, colour: int, shift: tuple[int, int]) -> set[int]:
    """What a sliding mover ran over and into: the colours of `t.before` on every cell its cells crossed
    along `shift` (a slide passes over things, a spark it picks up, and ends beyond them)."""
    step = _unit(shift)
    length = max(abs(shift[0]), abs(shift[1]))
    ys, xs = np.nonzero(t.before.grid == colour)
    own = set(zip(xs.tolist(), ys.tolist(), strict=True))
    rows, cols = t.before.grid.shape
    out = set()
    for x, y in own:
        for k in range(1, length + 1):
            tx, ty = x + k * step[0], y + k * step[1]
            if (tx, ty) not in own and 0 <= tx < cols and 0 <= ty < rows:
                out.add(int(t.before.grid[ty, tx]))
    return out


def _slid_over(t: Transition, colour: int, step: tuple[int, int], floor: int, stops: Collection[int]) -> set[int]:
    """What a sliding mover ran over and into on the step that completed a level (whose end the next level's
    grid does not show): from each of its cells along `step`, every colour up to the first one seen stopping
    a slide (`stops`) or the edge. A slide passes over what never stopped one (a spark it picks up on the
    way into the door)."""
    grid = t.before.grid
    rows, cols = grid.shape
    ys, xs = np.nonzero(grid == colour)
    out = set()
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        tx, ty = x + step[0], y + step[1]
        while 0 <= tx < cols and 0 <= ty < rows:
            here = int(grid[ty, tx])
            if here not in (colour, floor):
                out.add(here)
                if here in stops:
                    break
            tx, ty = tx + step[0], ty + step[1]
    return out


def _stops(moves: Sequence[tuple[Transition, int, tuple[int, int]]],
           sliders: Collection[tuple[str, int]]) -> set[int]:
    """Colours seen right past where a slide ended (what stopped it), off level-ups."""
    out: set[int] = set()
    for t, colour, shift in moves:
        if (t.label, colour) not in sliders or t.level_up:
            continue
        grid = t.after.grid
        rows, cols = grid.shape
        dx, dy = _unit(shift)
        ys, xs = np.nonzero(grid == colour)
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
            if 0 <= x + dx < cols and 0 <= y + dy < rows and int(grid[y + dy, x + dx]) != colour:
                out.add(int(grid[y + dy, x + dx]))
    return out


def _vanished(transitions: Sequence[Transition], movers: Collection[int]) -> set[int]:
    """Colours (not movers) seen turning into the floor off level-ups and resets: things taken or used up."""
    out: set[int] = set()
    for t in transitions:
        if not t.local or t.level_up:
            continue
        before, after = t.before.grid, t.after.grid
        floor = _commonest(before)
        gone = (before != after) & (after == floor)
        if gone.any():
            out |= {int(c) for c in np.unique(before[gone])}
    return out - set(movers)


def _commonest(grid: Array) -> int:
    """The colour most cells of a grid show (its floor or background)."""
    return int(np.bincount(grid.ravel().astype(np.intp) & 15).argmax())


def _unit(shift: tuple[int, int]) -> tuple[int, int]:
    return (int(np.sign(shift[0])), int(np.sign(shift[1])))


def _collected(start: Array, before: Array, movers: Collection[int]) -> set[int]:
    """Colours of `start` (not movers, not its commonest colour) that show on none of their start cells in
    `before`."""
    if start.shape != before.shape:
        return set()
    out = set()
    for colour in {int(c) for c in np.unique(start)} - set(movers) - {_commonest(start)}:
        if not (before[start == colour] == colour).any():
            out.add(colour)
    return out


MIN_MOVES = 2
"""Without a world model, a colour is a mover when seen moving rigidly at least this often in the window (a
target covered in one place and uncovered next to it looks like one rigid move)."""


def _pushed_into(t: Transition, colour: int, shift: tuple[int, int], movers: Collection[int]) -> set[tuple[int, int]]:
    """(pushed colour, colour it entered) for the mover cells right in front of `colour` (a colour seen moving
    on its own) moving by `shift`: a pushed block moves the same way, one cell further (what a block entered
    as the level was completed, though it was not seen moving that way in the window)."""
    grid = t.before.grid
    rows, cols = grid.shape
    ys, xs = np.nonzero(grid == colour)
    own = set(zip(xs.tolist(), ys.tolist(), strict=True))
    out = set()
    for x, y in own:
        fx, fy, bx, by = x + shift[0], y + shift[1], x + 2 * shift[0], y + 2 * shift[1]
        if (fx, fy) in own or not (0 <= bx < cols and 0 <= by < rows):
            continue
        front, beyond = int(grid[fy, fx]), int(grid[by, bx])
        if front != colour and front in movers and beyond not in movers:
            out.add((front, beyond))
    return out


def colour_table(colours: Collection[int]) -> npt.NDArray[np.bool_]:
    """A lookup table: table[grid] is the mask of cells whose colour is in `colours`."""
    table = np.zeros(17, dtype=bool)
    table[[c for c in colours if 0 <= c <= 16]] = True
    return table


def _positions(grid: Array, movers: npt.NDArray[np.bool_]) -> frozenset[tuple[int, int]]:
    ys, xs = np.nonzero(movers[grid])
    return frozenset(zip(xs.tolist(), ys.tolist(), strict=True))


def gather(transitions: Sequence[Transition], cache: MotionCache | None = None,
           ignore: frozenset[int] = frozenset(), known: frozenset[int] = frozenset(),
           start_of: Callable[[int], Array | None] | None = None) -> Evidence:
    """Movers, colours entered, colours entered before level-ups, and positions stood on; colours in
    `ignore` (the world model's patrols, which move whatever the action) are not movers; `known` (the world
    model's movers and pushed objects, learned from a longer history), when given, are the movers.
    `start_of` gives the start of the level that the level-up at a step completed (`LevelStarts`), for
    levels that began before the window (what was collected before their level-up)."""
    shifts: dict[tuple[str, int], tuple[int, int]] = {}
    lengths: dict[tuple[str, int], set[tuple[int, int]]] = {}
    pairs: set[tuple[int, int]] = set()
    primary: set[int] = set()
    seen_moving: dict[int, int] = {}
    moves_seen: list[tuple[Transition, int, tuple[int, int]]] = []
    for t in transitions:
        if not t.local:
            continue
        found = cache.get(t) if cache is not None else motions(t)
        for colour, m in found.items():
            if m.kind == "moved" and colour not in ignore:
                shifts[(t.label, colour)] = (m.dx, m.dy)
                lengths.setdefault((t.label, colour), set()).add((m.dx, m.dy))
                seen_moving[colour] = seen_moving.get(colour, 0) + 1
                moves_seen.append((t, colour, (m.dx, m.dy)))
        primary |= set(primary_moves(t, found)) - ignore
    movers = (known - ignore) or frozenset(c for c, n in seen_moving.items() if n >= MIN_MOVES)
    shifts = {k: v for k, v in shifts.items() if k[1] in movers}
    # a mover whose moves on one action have several lengths in one direction slides until stopped
    sliders = {key for key, seen in lengths.items() if len(seen) > 1 and len({_unit(s) for s in seen}) == 1}
    # a mover seen sliding on one action slides on the others it was seen moving one length on (the window may
    # hold a single slide of that action, whose length says nothing)
    sliding = {colour for _, colour in sliders}
    sliders |= {key for key, seen in lengths.items() if key[1] in sliding and len(seen) == 1}
    unrewarded: set[tuple[int, int]] = set()
    for t, colour, shift in moves_seen:
        swept = _swept if (t.label, colour) in sliders else _entered
        now = {(colour, c) for c in swept(t, colour, shift)}
        pairs |= now
        if not t.level_up:
            unrewarded |= now
    stops = _stops(moves_seen, sliders)
    before_up: set[tuple[int, int]] = set()
    collected: set[int] | None = None
    always_entered: set[int] | None = None
    level_start: Array | None = None
    for t in transitions:
        if t.step == 0:
            level_start = t.before.grid
        if t.level_up:
            floor = _commonest(t.before.grid)
            here: set[tuple[int, int]] = set()
            for (label, colour), shift in shifts.items():
                if label == t.label:
                    if (label, colour) in sliders:
                        here |= {(colour, c) for c in _slid_over(t, colour, _unit(shift), floor, stops)}
                    else:
                        here |= {(colour, c) for c in _entered(t, colour, shift)}
                    if colour in primary:
                        here |= _pushed_into(t, colour, shift, movers)
            before_up |= here
            remembered = start_of(t.step) if start_of is not None else None
            if remembered is not None and remembered.shape == t.before.grid.shape:
                level_start = remembered  # the window may not reach back to where the level began
            if level_start is not None and level_start.shape == t.before.grid.shape:
                # what the completing step itself ran into may have been taken on the way (a spark a slide
                # passed over into the door): it counts as gone for this level-up; what every completing
                # step ran into (the door, a target) is the goal, not a thing taken
                entered = ({c for _, c in here} & {int(c) for c in np.unique(level_start)}) - set(movers) - {
                    _commonest(level_start)}
                gone = _collected(level_start, t.before.grid, movers) | entered
                collected = gone if collected is None else collected & gone
                always_entered = entered if always_entered is None else always_entered & entered
        if t.level_up or t.label == "RESET":
            level_start = t.after.grid
    table = colour_table(movers)
    visited = {_positions(f.grid, table) for t in transitions for f in (t.before, t.after)} if movers else set()
    moves = tuple(sorted((label, colour, d[0], d[1]) for (label, colour), d in shifts.items()))
    pairs = {(m, c) for m, c in pairs if c not in movers}
    before_up = {(m, c) for m, c in before_up if c not in movers}
    # what a mover ran into at every level-up is the goal, unless it was seen vanishing (a spark the completing
    # slide always passed over on its way into the door is taken, not the door)
    goal_like = (always_entered - _vanished(transitions, movers)) if always_entered else set()
    collected_colours = frozenset((collected or set()) - goal_like)
    lasts, held = _lasts(transitions, collected_colours, table) if collected_colours else ((), 0)
    return Evidence(movers, moves, frozenset(visited), frozenset(pairs), frozenset(before_up), collected_colours,
                    lasts, held, slides=frozenset(k for k in sliders if k[1] in movers),
                    pushed=movers - primary, unrewarded=frozenset(unrewarded))


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


def _lasts(transitions: Sequence[Transition], colours: Collection[int],
           movers: npt.NDArray[np.bool_]) -> tuple[tuple[tuple[int, int], ...], int]:
    """How many actions each colour of `colours` stays off its level-start cells once taken, where some
    local transition shows it back there with neither it nor a mover (`movers`: a colour table) on those
    cells before (the fewest seen); and the actions since the last take, when the last frame still lacks it."""
    lasts: dict[int, int] = {}
    taken: dict[int, int] = {}
    level_start: Array | None = None
    last = transitions[-1] if transitions else None
    for t in transitions:
        if t.step == 0:
            level_start = t.before.grid
        if t.local and level_start is not None and level_start.shape == t.before.grid.shape:
            before, after = t.before.grid, t.after.grid
            for colour in colours:
                home = level_start == colour
                if not home.any():
                    continue
                was, now = (before[home] == colour).any(), (after[home] == colour).any()
                if was and not now:
                    taken[colour] = t.step
                elif not was and now and not movers[before[home]].any() and colour in taken:
                    lasts[colour] = min(lasts.get(colour, t.step - taken[colour]), t.step - taken[colour])
                    del taken[colour]
        if t.level_up or t.label == "RESET":
            level_start = t.after.grid
            taken.clear()
    held = max((last.step - taken[c] for c in taken if c in lasts), default=0) if last is not None else 0
    return tuple(sorted(lasts.items())), held


Tint = tuple[int, int, int]


def _aliases(movers: Collection[int], tints: Sequence[Tint]) -> frozenset[int]:
    """The movers and every colour they show when tinted (and what tinted colours stand for)."""
    out = set(movers)
    grown = True
    while grown:
        grown = False
        for colour, _, shown in tints:
            for a, b in ((colour, shown), (shown, colour)):
                if a in out and b not in out:
                    out.add(b)
                    grown = True
    return frozenset(out)


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


def _directions(evidence: Evidence, movers: Collection[int]) -> dict[str, tuple[int, int]]:
    """Each action's unit step of the given movers (the first seen), from the evidence's shifts."""
    out: dict[str, tuple[int, int]] = {}
    for label, colour, dx, dy in evidence.shifts:
        if colour in movers and (dx or dy) and label not in out:
            out[label] = _unit((dx, dy))
    return out


def _new_position(evidence: Evidence, start: Array) -> Test:
    table = colour_table(evidence.movers)

    def test(grid: Array, events: Sequence[str]) -> bool:
        return grid.shape == start.shape and _positions(grid, table) not in evidence.visited

    return test


def _names(movers: Collection[int]) -> str:
    return " or ".join(f"mover colour {m}" for m in sorted(movers))


def _on_cells(start: Array, colour: int, floor: Array, tints: Sequence[Tint]) -> npt.NDArray[np.bool_]:
    """Cells that count as colour K: where the level start or the current grid shows it, or the level start
    shows a tint of something standing on it."""
    table = colour_table({colour} | {s for _, u, s in tints if u == colour})
    under: npt.NDArray[np.bool_] = table[floor] | (start == colour)
    return under


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


def derive(evidence: Evidence, start: Array, floor: Array | None = None, tints: Sequence[Tint] = ()) -> list[SubGoal]:
    """The sub-goals worth searching for from this grid, most important first (`floor`: the level start,
    when the dynamics remembers it, for what lies under the movers; `tints`: the world model's tints)."""
    goals = [SubGoal("level_up", "a rollout predicts the level is completed", 0,
                     lambda grid, events: "level_up" in events)]
    if not evidence.movers:
        return goals
    background = _commonest(start)
    shown = {int(c) for c in np.unique(start)}
    present = shown - _aliases(evidence.movers, tints) - {background}
    movers_here = shown & set(evidence.movers)
    pieces = _LazyPieces(start)  # labelled once per search, only when a goal needs the grid's pieces
    walls = _walls(evidence, pieces)
    if walls:
        # a mover that bumped a wall in the step that completed the level did not enter it
        evidence = replace(evidence, level_up_pairs=frozenset(
            (m, c) for m, c in evidence.level_up_pairs if c not in walls or (m, c) in evidence.pairs))
    if floor is not None and floor.shape == start.shape:
        goals += _all_on_goals(evidence, start, floor, movers_here, tints, walls)
        goals += _cover_goals(evidence, start, floor, movers_here, tints, walls)
    several = {g.name.rsplit(":colour", 1)[1] for g in goals if g.name.startswith("repeat-level-up-each:")}
    level = floor if floor is not None and floor.shape == start.shape else start
    gone = {c for c in evidence.collected if (level == c).any()}
    for colour in sorted(present & evidence.level_up_entered):
        who = frozenset(m for m, c in evidence.level_up_pairs if c == colour and m in movers_here)
        if who and gone:
            names = " and ".join(f"colour {c}" for c in sorted(gone))
            lasts = [n for c, n in evidence.lasts if c in gone]
            lapse = (Lapse(level, frozenset(gone), min(lasts), evidence.held, frozenset(evidence.movers))
                     if lasts else None)
            goals.append(SubGoal(f"repeat-level-up-after:colour{colour}",
                                 f"take {names} off the level (as before every level-up), then move "
                                 f"{_names(who)} into or against colour {colour}"
                                 + (f" within {min(lasts)} actions (it comes back after that)" if lasts else ""),
                                 1, _collect_then_touch(start, level, gone, colour, who,
                                                        _directions(evidence, who), tints), lapse=lapse))
        if who:
            alone = all((m, colour) in evidence.unrewarded for m in who)  # seen entering it with no level-up
            goals.append(SubGoal(f"repeat-level-up:colour{colour}",
                                 f"make {_names(who)} enter colour {colour}, as right before a level-up",
                                 2 if str(colour) in several or gone or alone else 1,
                                 _enters(start, colour, who, tints) if str(colour) not in several
                                 else _one_more_on(start, colour, who, level, tints)))
    counts = np.bincount(start.ravel().astype(np.intp) & 15, minlength=16)
    for colour in sorted(present - evidence.level_up_entered, key=lambda c: (counts[c], c)):
        who = frozenset(m for m in movers_here if (m, colour) not in evidence.pairs)
        if who and colour not in walls:
            goals.append(SubGoal(f"enter:colour{colour}",
                                 f"make {_names(who)} enter colour {colour} (never touched by it yet)",
                                 3, _enters(start, colour, who, tints)))
    goals += _touch_goals(evidence, start, movers_here, pieces)
    if not evidence.level_up_pairs:
        goals += _holding_goals(evidence, start, level, movers_here, tints)
    goals += _together_goals(evidence, start, level, movers_here, present, tints, walls)
    goals.append(SubGoal("frontier", "bring a mover to a position it has never occupied", 4,
                         _new_position(evidence, start)))
    return goals


MAX_TOUCH_CELLS = 24
"""Objects larger than this (walls, floors) get no `touch` sub-goal of their own."""
MAX_TOUCH_GOALS = 4


@dataclass(frozen=True, slots=True)
class _Pieces:
    """The grid's connected one-colour pieces: labels per cell, and per piece its first cell (flat index),
    colour and size."""

    labels: npt.NDArray[np.int32]
    firsts: npt.NDArray[np.intp]
    colours: Array
    sizes: npt.NDArray[np.intp]

    @classmethod
    def of(cls, grid: Array) -> _Pieces:
        labels, count = label_runs(grid)
        flat = labels.ravel()
        sizes = np.bincount(flat, minlength=count)
        firsts = np.full(count, flat.size, dtype=np.intp)
        np.minimum.at(firsts, flat, np.arange(flat.size))
        return cls(labels, firsts, grid.ravel()[firsts], sizes)

    def structures(self) -> set[int]:
        """Colours drawing a piece of more than `MAX_TOUCH_CELLS` cells (walls, floors), not objects."""
        return {int(c) for c in self.colours[self.sizes > MAX_TOUCH_CELLS]}


class _LazyPieces:
    """`_Pieces.of(grid)`, computed on first use and then shared (the wall test and the touch goals)."""

    def __init__(self, grid: Array) -> None:
        self.grid = grid
        self._pieces: _Pieces | None = None

    def get(self) -> _Pieces:
        if self._pieces is None:
            self._pieces = _Pieces.of(self.grid)
        return self._pieces


def _walls(evidence: Evidence, pieces: _LazyPieces) -> set[int]:
    """Colours seen stopping a mover, never entered by any, that draw a big structure here: walls."""
    candidates = evidence.stoppers - evidence.entered - evidence.movers
    return pieces.get().structures() & candidates if candidates else set()


def _touch_goals(evidence: Evidence, start: Array, movers_here: Collection[int],
                 pieces: _LazyPieces) -> list[SubGoal]:
    """`touch:colourK:shape:...` for each class of small object (colour and shape) on the grid whose colour
    was seen stopping a mover but that no mover ever moved into, leaving out colours that also form a bigger
    structure (walls): a colour that blocks in one shape (a closed
    door) may be passable, or do something, in another (a key, a switch, an open door). Reached when a mover
    stands on one of them or the last action moved a mover against one (up to `MAX_TOUCH_GOALS`, the
    fewest cells first)."""
    movers = frozenset(movers_here)
    if not evidence.stoppers - movers or not movers:
        return []
    found = pieces.get()
    labels = found.labels
    walls = found.structures()  # colours drawn as structures, not objects
    classes: dict[ObjectClass, list[int]] = {}
    for index in np.nonzero(colour_table(evidence.stoppers - movers - walls)[found.colours])[0]:
        y, x = divmod(int(found.firsts[index]), start.shape[1])
        cls = object_class(start, labels, x, y)
        if cls not in evidence.touched:
            classes.setdefault(cls, []).append(int(index))
    fronts: dict[str, list[tuple[int, int, int]]] = {}
    for label, colour, dx, dy in evidence.shifts:
        if colour in movers:
            step = _unit((dx, dy)) if (label, colour) in evidence.slides else (dx, dy)  # a slide stops one short
            fronts.setdefault(f"by:{label}", []).append((colour, *step))
    goals = []
    for cls, members in sorted(classes.items(), key=lambda item: (len(item[1]) * int(np.prod(item[0][2])), item[0]))[
            :MAX_TOUCH_GOALS]:
        colour, mask, shape = cls
        bits = np.frombuffer(mask, dtype=bool).reshape(shape)
        drawn = ",".join("".join("1" if v else "0" for v in row) for row in bits.tolist())
        goals.append(SubGoal(f"touch:colour{colour}:shape:{drawn}",
                             f"move {_names(movers)} into or against one of the {len(members)} colour-{colour} "
                             f"objects shaped {drawn} (that colour stopped a mover elsewhere; this shape was never "
                             "touched)", 3, _touches(np.isin(labels, members), movers, fronts)))
    return goals


def _holding_goals(evidence: Evidence, start: Array, level: Array, movers_here: Collection[int],
                   tints: Sequence[Tint]) -> list[SubGoal]:
    """Before any level-up: `holding:colourX:colourK` for each small colour K (at most `MAX_TOUCH_CELLS`
    cells) seen stopping a mover and each small colour X a mover has entered that is still on the level
    (or held now), where no mover ever ran into K while X was gone from all its level-start cells: take X,
    then move into or against K. A door may open only to a mover that carries something; nothing on the
    grid says so before the first level-up, and a walk that explores rarely takes the two steps in order."""
    movers = frozenset(movers_here)
    if not movers or not evidence.stoppers:
        return []
    counts = np.bincount(start.ravel().astype(np.intp) & 15, minlength=16)
    at_start = np.bincount(level.ravel().astype(np.intp) & 15, minlength=16)
    background = _commonest(start)
    small = {c for c in range(16) if 0 < counts[c] <= MAX_TOUCH_CELLS} - movers - {background}
    stoppers = sorted(small & evidence.stoppers)
    takeable = sorted(c for c in evidence.entered - movers - {background}
                      if 0 < at_start[c] <= MAX_TOUCH_CELLS and c not in evidence.stoppers)
    directions = _directions(evidence, movers)
    goals = []
    for stopper in stoppers:
        for taken in takeable:
            if taken == stopper or (stopper, taken) in evidence.tried_holding:
                continue
            lasts = dict(evidence.lasts).get(taken)
            lapse = None if lasts is None else Lapse(level, frozenset({taken}), lasts, evidence.held, movers)
            goals.append(SubGoal(f"holding:colour{taken}:colour{stopper}",
                                 f"take colour {taken} off the level, then move {_names(movers)} into or against "
                                 f"colour {stopper} (it stopped a mover, never while colour {taken} was taken)"
                                 + (f" within {lasts} actions (it comes back after that)" if lasts else ""), 3,
                                 _collect_then_touch(start, level, {taken}, stopper, movers, directions, tints),
                                 lapse=lapse))
    return goals[:MAX_TOUCH_GOALS]


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


def _together_goals(evidence: Evidence, start: Array, level: Array, movers_here: Collection[int],
                    present: Collection[int], tints: Sequence[Tint], walls: Collection[int] = ()) -> list[SubGoal]:
    """`together:colourK` for each colour K that every mover here has entered on its own, with no level-up
    on K seen yet, while K has a cell for each mover cell and the movers have never all stood on K at once
    (the conjunction of touches already made, which the single touches did not complete)."""
    if len(movers_here) < 2:
        return []
    group = frozenset(movers_here)
    needed = int(colour_table(group)[start].sum())
    goals = []
    for colour in sorted(set(present) - evidence.level_up_entered):
        if not all((m, colour) in evidence.pairs for m in group):
            continue
        under = _on_cells(start, colour, level, tints)
        if int(under.sum()) < needed or any(_all_inside(cells, under) for cells in evidence.visited):
            continue
        goals.append(SubGoal(f"together:colour{colour}",
                             f"every mover ({_names(group)}) on colour {colour} at once (each entered it "
                             f"alone, which did not complete the level)", 3,
                             _each_mover_on(start, colour, group, level, tints),
                             _distance_to(start, colour, group, level, tints, walls=walls)))
    return goals


def _all_inside(cells: Collection[tuple[int, int]], mask: npt.NDArray[np.bool_]) -> bool:
    """Whether there are cells and every (x, y) of them lies inside the grid and on `mask`."""
    height, width = mask.shape
    return bool(cells) and all(0 <= x < width and 0 <= y < height and bool(mask[y, x]) for x, y in cells)


def _all_on_goals(evidence: Evidence, start: Array, floor: Array, movers_here: Collection[int],
                  tints: Sequence[Tint], walls: Collection[int] = ()) -> list[SubGoal]:
    """`repeat-level-up-all` (every mover here that moves on its own on K) and `repeat-level-up-each` (every
    object of the colours that entered K before a level-up on K) for each colour K entered right before a
    level-up."""
    goals = []
    walkers = set(movers_here) - _aliases(evidence.pushed, tints)  # (pushed blocks have their own goal)
    for colour in sorted(evidence.level_up_entered & ({int(c) for c in np.unique(floor)} | {u for _, u, _ in tints})):
        if len(walkers) >= 2:
            goals.append(SubGoal(f"repeat-level-up-all:colour{colour}",
                                 f"every mover ({_names(walkers)}) on colour {colour} at once", 1,
                                 _each_mover_on(start, colour, walkers, floor, tints),
                                 _distance_to(start, colour, frozenset(walkers), floor, tints, walls=walls)))
        who = _aliases({m for m, c in evidence.level_up_pairs if c == colour}, tints)
        cells = int(colour_table(who)[start].sum())
        if who and cells >= 2 and not set(movers_here) <= who:
            goals.append(SubGoal(f"repeat-level-up-each:colour{colour}",
                                 f"every object of {_names(who)} on colour {colour} at once", 1,
                                 _all_on(start, colour, [who], floor, tints),
                                 _distance_to(start, colour, who, floor, tints, set(movers_here) - who, walls,
                                              who <= _aliases(evidence.pushed, tints))))
    return goals


def _cover_goals(evidence: Evidence, start: Array, floor: Array, movers_here: Collection[int],
                 tints: Sequence[Tint], walls: Collection[int] = ()) -> list[SubGoal]:
    """`cover:colourK` for each colour K a pushed object shows a tint on (it was seen standing on K: a block
    on its target), with no level-up on K seen yet, while K has a cell for each cell of those objects, they
    show at least two cells, K is no floor (at most `MAX_TOUCH_CELLS` cells, and at most half of the objects
    stand on it now or stood on it when the level began: the floor a block on a target leaves for is no goal):
    every such object on K at once. A guess made before any level-up (the
    first level may already ask for several); once a level-up on K is seen, `repeat-level-up-each` takes
    over. Only while some mover here is not in the group (one to push them)."""
    goals = []
    for colour in sorted({u for c, u, _ in tints if c in evidence.movers} - evidence.level_up_entered):
        who = _aliases({c for c, u, _ in tints if u == colour and c in evidence.movers}, tints) - {colour}
        cells = int(colour_table(who)[start].sum())
        under = _on_cells(start, colour, floor, tints)
        room, on = int(under.sum()), int((colour_table(who)[start] & under).sum())
        if cells < 2 or not set(movers_here) - who or not cells <= room <= MAX_TOUCH_CELLS or 2 * on > cells:
            continue
        if floor.shape == start.shape:
            began = int((colour_table(who)[floor] & _on_cells(floor, colour, floor, tints)).sum())
            if 2 * began > int(colour_table(who)[floor].sum()):
                continue  # most of them stood on K when the level began: K is where they rest, not a goal
        goals.append(SubGoal(f"cover:colour{colour}",
                             f"every object of {_names(who)} on colour {colour} at once (each shows a tint "
                             "there; no level-up seen yet)", 2,
                             _all_on(start, colour, [who], floor, tints),
                             _distance_to(start, colour, frozenset(who), floor, tints, set(movers_here) - who,
                                          walls, who <= _aliases(evidence.pushed, tints))))
    return goals


def uniform_goals(start: Array, clicks: Sequence[tuple[tuple[int, int], Array]]) -> list[SubGoal]:
    """With clicks that recolour cells: make every clickable cell one colour (a guess, tried last).

    One sub-goal per colour the clickable cells show now; e.g. a lights-out board wants all tiles lit.
    """
    if not clicks:
        return []
    mask = np.logical_or.reduce([changed for _, changed in clicks])
    colours = sorted(int(c) for c in np.unique(start[mask]))
    if len(colours) < 2:
        return []

    def same(colour: int) -> Test:
        return lambda grid, events: grid.shape == start.shape and bool((grid[mask] == colour).all())

    return [SubGoal(f"uniform:colour{c}", f"make every clickable cell colour {c}", 3, same(c)) for c in colours]
