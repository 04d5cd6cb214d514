"""The numpy mirror of the artifacts' `lib_click` that click learning scores its candidate rules with."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.backends.symbolic.common.artifact_dyn import lib_click
from dreamteam.backends.symbolic.worldmodel.clicks import click_changes

grids = st.integers(3, 9).flatmap(lambda n: st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n),
                                                     min_size=3, max_size=8))
offsets = st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=5, unique=True)
colour_maps = st.dictionaries(st.integers(0, 3), st.integers(0, 4), min_size=1, max_size=4)


@settings(max_examples=300, deadline=None)
@given(grids, st.integers(0, 99), st.integers(0, 99), colour_maps, st.sampled_from(["cell", "object", "tile"]),
       offsets)
def test_the_mirror_changes_what_lib_click_changes(rows: list[list[int]], cx: int, cy: int,
                                                   colour_map: dict[int, int], unit: str,
                                                   offs: list[tuple[int, int]]) -> None:
    grid = np.asarray(rows, dtype=np.int8)
    cell = (cx % grid.shape[1], cy % grid.shape[0])
    board = grid.tolist()
    lib_click(board, list(cell), colour_map, unit, [list(o) for o in offs], None)
    expected = np.asarray(board) != grid
    assert np.array_equal(click_changes(grid, cell, colour_map, unit, offs), expected)


def test_a_tile_click_reaches_whole_neighbouring_objects() -> None:
    grid = np.zeros((5, 7), dtype=np.int8)
    grid[1, 1:3] = 1  # the clicked tile
    grid[1, 4:6] = 2  # a tile two cells to the right of its cells
    grid[3, 1] = 2    # below, but at no offset
    changed = click_changes(grid, (1, 1), {1: 3, 2: 3}, "tile", [(0, 0), (2, 0)])
    assert changed[1, 1:3].all() and changed[1, 4:6].all() and not changed[3, 1]
    assert int(changed.sum()) == 4
