"""Click targets: one click per segment, and the enclosed regions of the background colour on request."""

from __future__ import annotations

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
