"""Frames as the learners see them: decoded display grids, their logical geometry and logical grid.

Geometry is decided exactly as the generated artifacts decide it (`artifact_lib.lib_geometry`): the
first scale hint the frame fits, else the frame's own gcd of colour boundaries. Boundaries are computed
with numpy here for speed; `tests/backends/symbolic` checks they agree with the pure-Python helper.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from dreamteam.backends.symbolic.common.artifact_lib import lib_detect_scale, lib_fits
from dreamteam.codec import decode_grid

Array = npt.NDArray[np.int8]
Geometry = tuple[int, int, int]
MAX_HINTS = 6


@dataclass(frozen=True, slots=True, eq=False)
class LogicalFrame:
    """A display frame with its geometry (scale, x_offset, y_offset) and logical grid."""

    display: Array
    geometry: Geometry
    grid: Array

    @property
    def scale(self) -> int:
        """Display pixels per logical cell side."""
        return self.geometry[0]

    def same_layout(self, other: LogicalFrame) -> bool:
        """Whether both frames share geometry and logical size (so cells correspond)."""
        return self.geometry == other.geometry and self.grid.shape == other.grid.shape

    def to_cell(self, x: int, y: int) -> tuple[int, int] | None:
        """Logical (cx, cy) under display pixel (x, y), or None outside every whole cell."""
        scale, ox, oy = self.geometry
        if x < ox or y < oy:
            return None
        cx, cy = (x - ox) // scale, (y - oy) // scale
        rows, cols = self.grid.shape
        return (cx, cy) if cx < cols and cy < rows else None

    def to_display(self, cx: int, cy: int) -> tuple[int, int]:
        """Display (x, y) of the centre pixel of logical cell (cx, cy)."""
        scale, ox, oy = self.geometry
        return ox + cx * scale + scale // 2, oy + cy * scale + scale // 2


def boundaries(display: Array) -> list[list[int]]:
    """[row positions, column positions] where a row/column differs from the previous one."""
    ys = (np.flatnonzero((display[1:, :] != display[:-1, :]).any(axis=1)) + 1).tolist()
    xs = (np.flatnonzero((display[:, 1:] != display[:, :-1]).any(axis=0)) + 1).tolist()
    return [ys, xs]


def frame_geometry(display: Array, hints: Sequence[Sequence[int]]) -> Geometry:
    """The geometry the artifacts' `lib_geometry` picks for this frame."""
    bounds = boundaries(display)
    height, width = display.shape
    for hint in hints:
        if lib_fits(bounds, hint, width, height):
            return int(hint[0]), int(hint[1]), int(hint[2])
    scale, ox, oy = lib_detect_scale(bounds, width, height)
    return scale, ox, oy


def downsample(display: Array, geometry: Geometry) -> Array:
    """One value per whole logical cell (its top-left pixel)."""
    scale, ox, oy = geometry
    height, width = display.shape
    return display[oy : height - scale + 1 : scale, ox : width - scale + 1 : scale]


def logical(display: Array, hints: Sequence[Sequence[int]]) -> LogicalFrame:
    """Decide the geometry of a display frame and downsample it."""
    geometry = frame_geometry(display, hints)
    return LogicalFrame(display, geometry, np.ascontiguousarray(downsample(display, geometry)))


def scale_hints(displays: Iterable[Array], previous: Iterable[Sequence[int]] = ()) -> list[list[int]]:
    """Geometries worth trying first: each frame's own detection, ranked by how many frames fit them.

    A sparse frame can show a spurious multiple of the true scale; the true one fits far more frames,
    so it ranks first and keeps the logical grid stable from step to step.
    """
    bounds = []
    candidates: dict[Geometry, None] = {}
    for display in displays:
        height, width = display.shape
        found = boundaries(display)
        bounds.append((found, width, height))
        scale, ox, oy = lib_detect_scale(found, width, height)
        if scale > 1:
            candidates[(scale, ox, oy)] = None
    for hint in previous:
        if int(hint[0]) > 1:
            candidates[(int(hint[0]), int(hint[1]), int(hint[2]))] = None
    support = {g: sum(lib_fits(b, g, w, h) for b, w, h in bounds) for g in candidates}
    ranked = sorted((g for g in candidates if support[g] > 0), key=lambda g: (-support[g], -g[0], g))
    return [list(g) for g in ranked[:MAX_HINTS]]


class DisplayCache:
    """Decoded display frames by their hex rows (bounded, least recently used dropped first)."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, ...], Array] = OrderedDict()

    def get(self, rows: Any) -> Array:
        """The int8 array of a frame given as hex rows or int rows."""
        if isinstance(rows, np.ndarray):
            return rows.astype(np.int8, copy=False)
        if rows and not isinstance(rows[0], str):
            return np.asarray(rows, dtype=np.int8)
        key = tuple(rows)
        found = self._items.get(key)
        if found is None:
            found = decode_grid(list(rows))
            self._items[key] = found
            if len(self._items) > self.size:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(key)
        return found


def colour_table(colours: Collection[int]) -> npt.NDArray[np.bool_]:
    """A lookup table: table[grid] is the mask of cells whose colour is in `colours`."""
    table = np.zeros(17, dtype=bool)
    table[[c for c in colours if 0 <= c <= 16]] = True
    return table
