"""Evidence for sub-goals: who moves, what movers entered (before level-ups too), what was collected."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from dreamteam.backends.symbolic.common.evidence import (
    MotionCache,
    Transition,
    memoized,
    motions,
    primary_moves,
)
from dreamteam.backends.symbolic.common.frames import Array, colour_table
from dreamteam.backends.symbolic.planning.goals.grids import ObjectClass, _commonest, _positions, _unit


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


def _stood(t: Transition, table: npt.NDArray[np.bool_]) -> tuple[frozenset[tuple[int, int]], ...]:
    """The cells the movers (`table`: a colour table) stood on before and after `t`."""
    return _positions(t.before.grid, table), _positions(t.after.grid, table)


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
        ran_into = partial(swept, t, colour, shift)
        now = {(colour, c) for c in memoized(cache, swept.__name__, t, (colour, shift), ran_into)}
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
    mover_key = tuple(sorted(movers))
    visited = {p for t in transitions for p in memoized(cache, "stood", t, mover_key, partial(_stood, t, table))
               } if movers else set()
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


def _directions(evidence: Evidence, movers: Collection[int]) -> dict[str, tuple[int, int]]:
    """Each action's unit step of the given movers (the first seen), from the evidence's shifts."""
    out: dict[str, tuple[int, int]] = {}
    for label, colour, dx, dy in evidence.shifts:
        if colour in movers and (dx or dy) and label not in out:
            out[label] = _unit((dx, dy))
    return out
