"""Click targets: one click per segment, and the enclosed regions of the background colour on request."""

from __future__ import annotations

import random

import numpy as np

from dreamteam.agents.click_targets import centred, rank_click_targets
from dreamteam.perception import PixelScale


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


def test_centred_clicks_land_on_the_centre_pixel_of_their_game_cell() -> None:
    """At a detected scale, a drawn pixel moves to its game cell's centre: an L of three 4x4 cells is clicked at
    three pixels at most, each a cell centre (offset grid: cells start at pixel 2); a pixel whose cell centre
    shows another colour (a wrong scale) stays where it is."""
    grid = np.zeros((64, 64), dtype=np.int8)
    for cx, cy in ((1, 1), (2, 1), (1, 2)):
        grid[2 + cy * 4 : 6 + cy * 4, 2 + cx * 4 : 6 + cx * 4] = 3
    scale = PixelScale(4, 2, 2)
    rng = random.Random(0)
    clicked = set()
    for _ in range(60):
        (target,) = rank_click_targets(grid, scale=scale, rng=rng, centre=True)
        clicked.add((target.action.x, target.action.y))
    assert clicked == {scale.to_display(1, 1), scale.to_display(2, 1), scale.to_display(1, 2)}
    assert len({(t.action.x, t.action.y) for _ in range(60)
                for t in rank_click_targets(grid, scale=scale, rng=rng)}) > 3  # without `centre`: any pixel
    assert centred(grid, 6, 6, PixelScale(8, 0, 0)) == (6, 6)  # that cell's centre (4, 4) is background
