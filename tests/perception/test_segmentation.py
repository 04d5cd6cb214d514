"""Connected components: partition, exact reconstruction, agreement with a plain BFS labelling."""

from __future__ import annotations

from collections import deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dreamteam.perception import border_colour, detect_background, label_runs, segment
from dreamteam.types import Grid


def bfs_labels(grid: Grid) -> np.ndarray:
    """Reference 4-connected labelling, numbered in row-major order of each component's first cell."""
    rows, cols = grid.shape
    labels = np.full((rows, cols), -1, dtype=np.int64)
    count = 0
    for y in range(rows):
        for x in range(cols):
            if labels[y, x] >= 0:
                continue
            labels[y, x] = count
            queue = deque([(y, x)])
            while queue:
                cy, cx = queue.popleft()
                for ny, nx in ((cy + 1, cx), (cy - 1, cx), (cy, cx + 1), (cy, cx - 1)):
                    if (
                        0 <= ny < rows
                        and 0 <= nx < cols
                        and labels[ny, nx] < 0
                        and grid[ny, nx] == grid[cy, cx]
                    ):
                        labels[ny, nx] = count
                        queue.append((ny, nx))
            count += 1
    return labels


def blocky_grids(max_cells: int = 16, colours: int = 4) -> st.SearchStrategy[Grid]:
    """Small random logical grids scaled up by 1-4, so that components are large and varied."""
    small = st.integers(2, max_cells).flatmap(
        lambda n: arrays(np.int8, (n, n), elements=st.integers(0, colours - 1))
    )
    return st.tuples(small, st.integers(1, 4)).map(lambda t: np.repeat(np.repeat(t[0], t[1], 0), t[1], 1))


@settings(max_examples=60, deadline=None)
@given(blocky_grids())
def test_labels_match_reference_bfs(grid: Grid) -> None:
    labels, count = label_runs(grid)
    assert count == int(bfs_labels(grid).max()) + 1
    assert np.array_equal(labels, bfs_labels(grid))


@settings(max_examples=60, deadline=None)
@given(blocky_grids())
def test_objects_partition_the_non_background_cells(grid: Grid) -> None:
    seg = segment(grid)
    cover = np.zeros(grid.shape, dtype=np.int64)
    for obj in seg.objects:
        cover += obj.full_mask()
    assert np.array_equal(cover > 0, grid != seg.background)
    assert cover.max(initial=0) <= 1


@settings(max_examples=60, deadline=None)
@given(blocky_grids(colours=16))
def test_reconstruction_from_components_is_exact(grid: Grid) -> None:
    seg = segment(grid)
    rebuilt = np.full(grid.shape, -1, dtype=np.int8)
    for comp in seg.components:
        y0, x0, y1, x1 = comp.bbox
        rebuilt[y0:y1, x0:x1][comp.mask()] = comp.colour
        assert comp.size == len(comp.cells()) == int(comp.mask().sum())
        cy, cx = comp.cells().mean(axis=0)
        assert np.allclose(comp.centroid, (cy, cx))
        ry, rx = comp.representative_cell()
        assert seg.labels[ry, rx] == comp.label
    assert np.array_equal(rebuilt, grid)


def test_components_of_a_hand_made_frame() -> None:
    grid = np.zeros((64, 64), dtype=np.int8)
    grid[10:14, 10:14] = 3
    grid[10:14, 20:24] = 3  # same colour, not touching: a second object
    grid[30, 5:60] = 7
    grid[31, 5] = 7  # touching the line below its first cell: same object
    grid[40:42, 40:42] = 9
    grid[42, 42] = 9  # diagonal only: 4-connectivity keeps it apart
    seg = segment(grid)
    assert seg.background == 0
    shapes = sorted((o.colour, o.size, o.bbox) for o in seg.objects)
    assert shapes == [
        (3, 16, (10, 10, 14, 14)),
        (3, 16, (10, 20, 14, 24)),
        (7, 56, (30, 5, 32, 60)),
        (9, 1, (42, 42, 43, 43)),
        (9, 4, (40, 40, 42, 42)),
    ]
    assert seg.component_at(31, 5).colour == 7


def test_background_prefers_the_most_common_then_the_border() -> None:
    grid = np.full((8, 8), 4, dtype=np.int8)
    grid[2:6, 2:6] = 1
    assert detect_background(grid) == 4
    tie = np.full((8, 8), 2, dtype=np.int8)
    tie[1:7, 1:7] = 0
    tie[1, 1:5] = 2  # 32 cells of each colour; the border is all 2, so 2 wins the tie
    assert (tie == 2).sum() == (tie == 0).sum()
    assert detect_background(tie) == 2
    ring = np.full((8, 8), 6, dtype=np.int8)
    ring[1:7, 1:7] = 5
    assert border_colour(ring) == 6
    assert detect_background(ring) == 5
