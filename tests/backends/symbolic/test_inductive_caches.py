"""The inductive explorer's caches answer exactly what the uncached code answers."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.backends.symbolic.common.artifact_dyn import lib_inside, lib_tick
from dreamteam.backends.symbolic.common.artifacts import ArtifactCache
from dreamteam.backends.symbolic.common.evidence import decode_transitions
from dreamteam.backends.symbolic.common.frames import DisplayCache
from dreamteam.backends.symbolic.planning.inductive import LogicalCache
from dreamteam.backends.symbolic.planning.rollout import LogicalRollout, rollout_for

from .test_inductive import explored_maze, learned_dynamics


def reference_tick(grid: Any, region: Any, source: int, target: int, order: str, count: int) -> None:
    """The cell-by-cell definition of lib_tick (every region cell checked with lib_inside)."""
    cells = []
    for y in range(region[1], region[3] + 1):
        for x in range(region[0], region[2] + 1):
            if lib_inside(grid, x, y) and grid[y][x] == source:
                cells.append((y, x) if order.startswith("row") else (x, y))
    cells = sorted(cells)
    chosen = cells[len(cells) - count :] if order.endswith("last") else cells[:count]
    for first, second in chosen:
        if order.startswith("row"):
            grid[first][second] = target
        else:
            grid[second][first] = target


def test_tick_clipped_to_the_grid_matches_the_cell_by_cell_definition() -> None:
    rng = random.Random(5)
    for _ in range(300):
        grid = [[rng.choice([0, 3, 3, 7]) for _ in range(rng.randint(1, 6))] for _ in range(rng.randint(1, 6))]
        width = len(grid[0])
        grid = [row[:width] + [0] * (width - len(row)) for row in grid]
        region = [rng.randint(-3, 7), rng.randint(-3, 7), rng.randint(-3, 9), rng.randint(-3, 9)]
        order = rng.choice(["row-first", "row-last", "column-first", "column-last"])
        count = rng.randint(0, 5)
        expected = [list(row) for row in grid]
        reference_tick(expected, region, 3, 9, order, count)
        lib_tick(grid, region, 3, 9, order, count)
        assert grid == expected, (region, order, count)


def test_cached_decoding_equals_decode_transitions() -> None:
    _, transitions = explored_maze(3, steps=40)
    displays = DisplayCache(size=64)
    hints = [[1, 0, 0]]
    cache = LogicalCache(size=16)
    for window in (transitions[:30], transitions[5:35], transitions[10:40]):
        expected = decode_transitions(window, hints, displays)
        got = cache.decode(window, hints, displays)
        assert [(t.index, t.step, t.label, t.key) for t in got] == [(t.index, t.step, t.label, t.key) for t in expected]
        for a, b in zip(got, expected, strict=True):
            assert (a.before.grid == b.before.grid).all() and (a.after.grid == b.after.grid).all()
            assert a.before.geometry == b.before.geometry


def test_remembered_rollout_steps_equal_fresh_ones() -> None:
    world, transitions = explored_maze(4, steps=120)
    rollout = rollout_for(learned_dynamics(transitions), "", ArtifactCache())
    fresh = rollout_for(learned_dynamics(transitions), "", ArtifactCache())
    assert isinstance(rollout, LogicalRollout) and isinstance(fresh, LogicalRollout)
    state = rollout.start(world.frame())
    fresh.start(world.frame())
    for action in [{"action": name} for name in ("ACTION1", "ACTION2", "ACTION3", "ACTION4")] * 2:
        first = rollout.step(state, action)
        again = rollout.step(state, action)
        assert first is not None and first == again == fresh.step(state, action)
        first[1].append("mutated by the caller")
        assert "mutated by the caller" not in (rollout.step(state, action) or ((), []))[1]
    assert len(rollout.memo) == 4



@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_rollout_changes_equal_the_dynamics_helper_on_hex_rows(height: int, width: int, data: st.DataObject) -> None:
    from dreamteam.backends.symbolic.common.artifact_dyn import lib_changes, lib_hex
    from dreamteam.backends.symbolic.planning.rollout import _changes

    cells = st.lists(st.integers(0, 15), min_size=width, max_size=width)
    before = data.draw(st.lists(cells, min_size=height, max_size=height))
    after = [list(row) for row in before]
    for _ in range(data.draw(st.integers(0, 80))):
        y, x = data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1))
        after[y][x] = data.draw(st.integers(0, 15))
    rows = tuple(map(tuple, before)), tuple(map(tuple, after))
    assert _changes(*rows) == lib_changes(lib_hex(before), after)
