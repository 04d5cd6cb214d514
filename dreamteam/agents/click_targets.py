"""Click targets for ACTION6: one cell per segment, ranked by how button-like the segment looks."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from dreamteam.perception import BoolMask, Component, PixelScale, background_of, segment
from dreamteam.types import CLICK, Action, Grid

BUTTON_CELLS = 64
"""Segments up to this many logical cells count as button-sized; larger ones lose salience slowly."""


@dataclass(frozen=True, slots=True)
class ClickTarget:
    """A click on one segment with the salience it was ranked by."""

    action: Action
    colour: int
    size: int
    salience: float


def salience(comp: Component, colour_share: float, scale: PixelScale) -> float:
    """Higher for rare colours, button-sized and compact segments away from the frame edge."""
    logical_cells = comp.size / float(scale.scale * scale.scale)
    size_score = (
        1.0 if logical_cells <= BUTTON_CELLS else max(0.0, 1.0 - math.log2(logical_cells / BUTTON_CELLS) / 4)
    )
    border_penalty = 0.5 if comp.touches_border() else 0.0
    return (1.0 - colour_share) + size_score + 0.5 * comp.fill_ratio - border_penalty


def rank_click_targets(
    grid: Grid, mask: BoolMask | None = None, scale: PixelScale | None = None, limit: int = 16,
    enclosed: bool = False, rng: random.Random | None = None,
) -> tuple[ClickTarget, ...]:
    """Up to `limit` clicks, one per non-background segment outside the mask, most salient first; with
    `enclosed`, also one per region of the background colour cut off from its largest region (the inside of
    a ring or a closed room: clicking "inside" something is how some games are played).

    Each segment is clicked at its cell nearest the centroid, or with `rng` at one of its unmasked cells drawn
    from `rng` (where the part of an object clicked matters, as in a block of marks clicked cell by cell, a
    fixed cell never tries the others; a random agent does)."""
    px = scale or PixelScale()
    background = background_of(grid, mask)
    visible = grid if mask is None else grid[~mask]
    counts = np.bincount(visible.ravel().astype(np.intp) & 0xF, minlength=16)
    total = max(1, int(counts.sum()))
    ranked: list[tuple[float, int, int, ClickTarget]] = []
    parts = segment(grid, background=background)
    candidates = list(parts.objects)
    if enclosed:
        holes = sorted((c for c in parts.components if c.colour == background), key=lambda c: -c.size)
        candidates += holes[1:]
    for comp in candidates:
        y, x = comp.representative_cell() if rng is None else _drawn_cell(comp, mask, rng)
        if mask is not None and mask[y, x]:
            continue
        score = salience(comp, counts[comp.colour] / total, px)
        target = ClickTarget(Action(CLICK, x=x, y=y), comp.colour, comp.size, round(float(score), 6))
        ranked.append((-target.salience, y, x, target))
    ranked.sort(key=lambda item: item[:3])
    return tuple(item[3] for item in ranked[:limit])


def _drawn_cell(comp: Component, mask: BoolMask | None, rng: random.Random) -> tuple[int, int]:
    """One of the segment's cells outside the mask (its representative when all are masked), drawn by `rng`."""
    cells = comp.cells()
    if mask is not None:
        cells = cells[~mask[cells[:, 0], cells[:, 1]]]
    if not len(cells):
        return comp.representative_cell()
    y, x = cells[rng.randrange(len(cells))]
    return int(y), int(x)
