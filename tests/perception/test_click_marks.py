"""The click-mark tracker: learns a fading drawing at clicked pixels, and removes it; a game's real answer
to a click (a toggle, a selection) is not taken for a mark."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.perception.click_marks import ClickMarkTracker
from dreamteam.types import CLICK, Action, Grid
from tests.agents.gridworlds import MarkedRoom

CROSS = ((-1, 0), (0, -1), (0, 0), (0, 1), (1, 0))


def _feed(env: MarkedRoom, tracker: ClickMarkTracker, actions: list[Action]) -> list[tuple[Grid, Grid]]:
    """Play `actions`; per frame, what the tracker returned and the frame without the cross."""
    tracker.interrupt()
    out = [(tracker.frame(env.reset().grid, None), env.render())]
    for action in actions:
        obs = env.step(action)
        saved = env.mark_left
        env.mark_left = 0
        truth = env.render()
        env.mark_left = saved
        out.append((tracker.frame(obs.grid, action), truth))
    return out


def _blocks(half: int) -> tuple[Grid, list[tuple[int, int]]]:
    """A frame of 16 blocks of one colour, (2 * half + 1) pixels wide, and their centres (x, y)."""
    base = np.zeros((64, 64), dtype=np.int8)
    centres = [(8 + 16 * i, 8 + 16 * j) for i in range(4) for j in range(4)]
    for cx, cy in centres:
        base[cy - half : cy + half + 1, cx - half : cx + half + 1] = 3
    return base, centres


def _teaching(duration: int) -> list[Action]:
    """Clicks at four pixels of a MarkedRoom, each followed by enough moves for its cross to fade."""
    teach: list[Action] = []
    for x, y in ((40, 12), (12, 44), (52, 52), (28, 28)):
        teach += [Action(CLICK, x, y)] + [Action(4), Action(3)] * duration
    return teach


def _select(tracker: ClickMarkTracker, base: Grid, centres: list[tuple[int, int]], steps: int, colour: int) -> None:
    """Click blocks in turn, each click outlining its block in `colour` until the next click (a selection)."""
    for step in range(steps):
        cx, cy = centres[(step * 5) % len(centres)]
        frame = base.copy()
        frame[cy - 2 : cy + 3, cx - 2 : cx + 3] = colour
        frame[cy, cx] = 3
        tracker.frame(frame, Action(CLICK, cx, cy))


def test_learns_a_cross_that_fades_and_removes_it() -> None:
    env, tracker = MarkedRoom(duration=5), ClickMarkTracker()
    actions = []
    for x, y in ((40, 8), (12, 44), (50, 50), (30, 20)):  # clicks on the floor, then moves while it fades
        actions += [Action(CLICK, x, y), Action(4), Action(2), Action(3), Action(1), Action(4), Action(3)]
    frames = _feed(env, tracker, actions)
    mark = tracker.mark
    assert mark is not None
    assert set(mark.offsets) == set(CROSS) and mark.colours == {10} and mark.duration == 5
    # From the first click after the mark was learned, every frame comes back without its cross.
    env2 = MarkedRoom(duration=5)
    later = _feed(env2, tracker, [Action(CLICK, 20, 36), Action(2), Action(CLICK, 44, 28), Action(4), Action(4)])
    assert all(np.array_equal(got, truth) for got, truth in later)
    assert any((got != truth).any() for got, truth in frames[:8])  # before it was learned it showed


def test_a_toggle_is_not_a_mark() -> None:
    """A click that changes what it hits for good (until clicked again) never fades by itself."""
    tracker = ClickMarkTracker()
    grid = np.zeros((64, 64), dtype=np.int8)
    on: set[tuple[int, int]] = set()
    tracker.frame(grid.copy(), None)
    for step in range(60):
        x, y = 8 + 16 * (step % 4), 8 + 16 * ((step // 4) % 4)
        on ^= {(x, y)}
        frame = grid.copy()
        for cx, cy in on:
            frame[cy - 1 : cy + 2, cx - 1 : cx + 2] = 7
        tracker.frame(frame, Action(CLICK, x, y))
    assert tracker.mark is None


def test_a_selection_undone_by_the_next_click_is_not_a_mark() -> None:
    """Clicking a block outlines it until another block is clicked: it fades only when something else is
    clicked, over blocks of one colour, so it is the game's answer rather than a mark."""
    tracker = ClickMarkTracker()
    base, centres = _blocks(2)
    tracker.frame(base.copy(), None)
    _select(tracker, base, centres, 80, 11)
    assert tracker.mark is None


@settings(max_examples=25, deadline=None)
@given(st.lists(st.one_of(st.integers(1, 4).map(Action),
                          st.tuples(st.integers(0, 63), st.integers(0, 63)).map(lambda p: Action(CLICK, *p))),
                min_size=10, max_size=80),
       st.integers(2, 10))
def test_once_learned_no_mark_is_left(actions: list[Action], duration: int) -> None:
    """Whatever the player does once the mark is known, no frame comes back with a cross (what the cross
    hid while the player moved under it is a guess: the cells it covered keep their last seen value)."""
    env, tracker = MarkedRoom(duration=duration, goal=(9, 9)), ClickMarkTracker()
    _feed(env, tracker, _teaching(duration))
    assert tracker.mark is not None and tracker.mark.duration == duration
    for got, _ in _feed(MarkedRoom(duration=duration, goal=(9, 9)), tracker, actions):
        assert not (got == 10).any()


def test_an_animated_mark_cut_short_by_each_next_click_is_learned() -> None:
    """Every click lands on a block of one colour and the next click replaces its mark, as a selection would
    be; but the mark changes by itself between them (a cross, then a ring around it), the same way at
    every click: it is a mark."""
    tracker = ClickMarkTracker()
    base, centres = _blocks(3)
    tracker.frame(base.copy(), None)
    for step in range(12):
        cx, cy = centres[(step * 5) % len(centres)]
        first = base.copy()
        for dy, dx in CROSS:
            first[cy + dy, cx + dx] = 12
        tracker.frame(first, Action(CLICK, cx, cy))
        second = first.copy()
        second[cy - 2 : cy + 3, cx - 2 : cx + 3] = 11
        second[cy - 1 : cy + 2, cx - 1 : cx + 2] = base[cy - 1 : cy + 2, cx - 1 : cx + 2]
        for dy, dx in CROSS:
            second[cy + dy, cx + dx] = 12
        tracker.frame(second, Action(5))
    mark = tracker.mark
    assert mark is not None and mark.colours == {11, 12} and mark.duration == 2
    cx, cy = centres[3]
    marked = base.copy()
    for dy, dx in CROSS:
        marked[cy + dy, cx + dx] = 12
    assert np.array_equal(tracker.frame(marked, Action(CLICK, cx, cy)), base)


def test_a_learned_mark_is_kept_when_later_drawings_disagree() -> None:
    """After the cross is learned, clicks that outline blocks until the next click (a selection, not a
    mark) become the commonest drawing: the tracker keeps the cross rather than dropping it."""
    env, tracker = MarkedRoom(duration=4), ClickMarkTracker()
    _feed(env, tracker, _teaching(4))
    learned = tracker.mark
    assert learned is not None
    base, centres = _blocks(2)
    tracker.interrupt()
    tracker.frame(base.copy(), None)
    _select(tracker, base, centres, 60, 6)
    assert tracker.mark == learned
