"""Click targets: one click per segment, and the enclosed regions of the background colour on request."""

from __future__ import annotations

import random

import numpy as np

from dreamteam.agents.click_targets import rank_click_targets


def _ring_frame() -> np.ndarray:
    """A 16x16 frame on colour 0: a ring of colour 3 around a 4x4 hole, and a lone colour-5 block."""
    grid = np.zeros((16, 16), dtype=np.int8)
    grid[2:8, 2:8] = 3
    grid[3:7, 3:7] = 0
    grid[12, 12] = 5
    return grid


def test_one_click_per_segment_and_none_on_the_background() -> None:
    grid = _ring_frame()
    colours = sorted(int(grid[t.action.y, t.action.x]) for t in rank_click_targets(grid)
                     if t.action.x is not None and t.action.y is not None)
    assert colours == [3, 5]


def test_enclosed_regions_of_the_background_colour_are_clicked_on_request() -> None:
    grid = _ring_frame()
    targets = rank_click_targets(grid, enclosed=True)
    inside = [t for t in targets if t.action.x is not None and t.action.y is not None
              and 3 <= t.action.x < 7 and 3 <= t.action.y < 7]
    assert len(targets) == 3 and len(inside) == 1 and inside[0].colour == 0 and inside[0].size == 16


def test_drawn_cells_stay_on_the_object_off_the_mask_and_cover_its_parts() -> None:
    grid = _ring_frame()
    mask = np.zeros_like(grid, dtype=bool)
    mask[2, 2:8] = True  # the ring's top row is masked
    rng = random.Random(0)
    drawn = set()
    for _ in range(60):
        (ring,) = [t for t in rank_click_targets(grid, mask, rng=rng) if t.colour == 3]
        x, y = ring.action.x, ring.action.y
        assert x is not None and y is not None and grid[y, x] == 3 and not mask[y, x]
        drawn.add((x, y))
    assert len(drawn) > 10  # the ring's 19 unmasked cells, not one fixed cell
    fixed = {(t.action.x, t.action.y) for _ in range(3) for t in rank_click_targets(grid) if t.colour == 3}
    assert len(fixed) == 1  # without `rng`: the cell nearest the centroid, every time
