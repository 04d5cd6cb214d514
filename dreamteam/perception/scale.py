"""The engine's pixel scale: games render a small logical grid scaled up (and letterboxed) to 64x64."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dreamteam.types import Grid

DISPLAY_SIZE = 64


@dataclass(frozen=True, slots=True)
class PixelScale:
    """Each logical cell is a `scale` x `scale` block; cell (0, 0) starts at display (x_offset, y_offset)."""

    scale: int = 1
    x_offset: int = 0
    y_offset: int = 0

    @property
    def columns(self) -> int:
        """Number of whole logical columns in the display."""
        return (DISPLAY_SIZE - self.x_offset) // self.scale

    @property
    def rows(self) -> int:
        """Number of whole logical rows in the display."""
        return (DISPLAY_SIZE - self.y_offset) // self.scale

    def to_cell(self, x: int, y: int) -> tuple[int, int] | None:
        """Logical (column, row) of display pixel (x, y), or None if it lies outside every whole cell."""
        cx, cy = (x - self.x_offset) // self.scale, (y - self.y_offset) // self.scale
        if x < self.x_offset or y < self.y_offset or cx >= self.columns or cy >= self.rows:
            return None
        return cx, cy

    def to_display(self, cx: int, cy: int) -> tuple[int, int]:
        """Display (x, y) of the centre pixel of logical cell (cx, cy)."""
        if not (0 <= cx < self.columns and 0 <= cy < self.rows):
            raise ValueError(f"cell ({cx}, {cy}) outside the {self.columns}x{self.rows} logical grid")
        half = self.scale // 2
        return self.x_offset + cx * self.scale + half, self.y_offset + cy * self.scale + half

    def logical_grid(self, grid: Grid) -> Grid:
        """Downsample a display frame to one value per logical cell."""
        y_end = self.y_offset + self.rows * self.scale
        x_end = self.x_offset + self.columns * self.scale
        return grid[self.y_offset : y_end : self.scale, self.x_offset : x_end : self.scale]

    def display_grid(self, logical: Grid, fill: int = 0) -> Grid:
        """Upscale a logical grid back to a 64x64 display frame (pixels outside whole cells get `fill`)."""
        out = np.full((DISPLAY_SIZE, DISPLAY_SIZE), fill, dtype=np.int8)
        block = np.repeat(np.repeat(logical, self.scale, axis=0), self.scale, axis=1)
        out[
            self.y_offset : self.y_offset + block.shape[0], self.x_offset : self.x_offset + block.shape[1]
        ] = block
        return out


def _boundaries(grid: Grid, axis: int) -> npt.NDArray[np.intp]:
    """Positions p where column (axis=1) or row (axis=0) p differs from p - 1 somewhere."""
    if axis == 1:
        changed = (grid[:, 1:] != grid[:, :-1]).any(axis=0)
    else:
        changed = (grid[1:, :] != grid[:-1, :]).any(axis=1)
    return np.flatnonzero(changed) + 1


def detect_scale(frames: Grid | Iterable[Grid]) -> PixelScale:
    """Infer block size and offset from the gcd of distances between colour boundaries of one or more frames."""
    grids = [frames] if isinstance(frames, np.ndarray) else list(frames)
    positions: dict[int, set[int]] = {0: set(), 1: set()}
    for grid in grids:
        for axis in (0, 1):
            positions[axis].update(_boundaries(grid, axis).tolist())
    step = 0
    for axis in (0, 1):
        ordered = sorted(positions[axis])
        for a, b in zip(ordered, ordered[1:], strict=False):
            step = math.gcd(step, b - a)
    if step <= 1:
        return PixelScale()
    y_offset = min(positions[0]) % step if positions[0] else 0
    x_offset = min(positions[1]) % step if positions[1] else 0
    return PixelScale(scale=step, x_offset=x_offset, y_offset=y_offset)
