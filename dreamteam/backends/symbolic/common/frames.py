"""Frames as the learners see them: decoded display grids, their logical geometry and logical grid.

Geometry is decided exactly as the generated artifacts decide it (`artifact_lib.lib_geometry`): the
first scale hint the frame fits (the box of its whole cells is an upscaled grid, whatever the margin around
it shows), else the frame's own gcd of colour boundaries. Boundaries and fits are computed with numpy here
for speed; `tests/backends/symbolic` checks they agree with the pure-Python helpers.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from dreamteam.backends.symbolic.common.artifact_lib import lib_detect_scale
from dreamteam.codec import decode_grid

Array = npt.NDArray[np.int8]
Geometry = tuple[int, ...]
"""(scale, x_offset, y_offset) or (scale, x_offset, y_offset, columns, rows), as `artifact_lib` reads it."""
MAX_HINTS = 6
STRAY_LINES = 4
"""Rows and columns of stray pixels a hinted box may show and still be chosen when no hint fits exactly (as
`lib_geometry` does)."""


@dataclass(frozen=True, slots=True, eq=False)
class LogicalFrame:
    """A display frame with its geometry (scale, x_offset, y_offset[, columns, rows]) and logical grid."""

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
        scale, ox, oy = self.geometry[:3]
        if x < ox or y < oy:
            return None
        cx, cy = (x - ox) // scale, (y - oy) // scale
        rows, cols = self.grid.shape
        return (cx, cy) if cx < cols and cy < rows else None

    def to_display(self, cx: int, cy: int) -> tuple[int, int]:
        """Display (x, y) of the centre pixel of logical cell (cx, cy)."""
        scale, ox, oy = self.geometry[:3]
        return ox + cx * scale + scale // 2, oy + cy * scale + scale // 2


def boundaries(display: Array) -> list[list[int]]:
    """[row positions, column positions] where a row/column differs from the previous one."""
    ys = (np.flatnonzero((display[1:, :] != display[:-1, :]).any(axis=1)) + 1).tolist()
    xs = (np.flatnonzero((display[:, 1:] != display[:, :-1]).any(axis=0)) + 1).tolist()
    return [ys, xs]


def whole_cells(geometry: Sequence[int], width: int, height: int) -> tuple[int, int]:
    """(columns, rows) of whole logical cells in a width x height frame (`lib_whole_cells`)."""
    scale, ox, oy = int(geometry[0]), int(geometry[1]), int(geometry[2])
    nx, ny = (width - ox) // scale, (height - oy) // scale
    if len(geometry) > 4:
        nx, ny = min(nx, int(geometry[3])), min(ny, int(geometry[4]))
    return nx, ny


def fits(display: Array, geometry: Sequence[int], stray_lines: int = 0) -> bool:
    """`lib_fits` with numpy: the box of `geometry`'s whole cells is an upscaled grid (each cell one colour, but
    for at most `stray_lines` rows and columns of stray pixels)."""
    scale, ox, oy = int(geometry[0]), int(geometry[1]), int(geometry[2])
    height, width = display.shape
    if scale < 1:
        return False
    nx, ny = whole_cells(geometry, width, height)
    if nx < 1 or ny < 1:
        return False
    box = display[oy : oy + ny * scale, ox : ox + nx * scale]
    if np.array_equal(box, np.repeat(np.repeat(box[::scale, ::scale], scale, 0), scale, 1)):
        return True
    if not stray_lines:
        return False
    ys, xs = boundaries(box)
    return sum(1 for y in ys if y % scale) + sum(1 for x in xs if x % scale) <= stray_lines


def frame_geometry(display: Array, hints: Sequence[Sequence[int]]) -> Geometry:
    """The geometry the artifacts' `lib_geometry` picks for this frame."""
    for stray_lines in (0, STRAY_LINES):
        for hint in hints:
            if fits(display, hint, stray_lines):
                return tuple(int(v) for v in hint)
    height, width = display.shape
    scale, ox, oy = lib_detect_scale(boundaries(display), width, height)
    return scale, ox, oy


MIN_BOX_CELLS = 5
"""A grid found inside a margin has at least this many whole cells each way."""
MIN_BOX_SHARE = 0.6
"""... and covers at least this share of the frame."""
MAX_BOX_SCALE = 16


def boxed_geometry(display: Array) -> Geometry | None:
    """The largest-scale grid drawn inside a margin (at most `MAX_BOX_SCALE`), for a frame whose own gcd
    geometry is one pixel a cell: a frame line or a HUD in a 2-pixel margin puts colour boundaries between
    the cells' edges, though every whole cell inside is one colour. None when there is no such grid (or
    the box shows a single colour: any scale would fit it)."""
    height, width = display.shape
    for scale in range(min(MAX_BOX_SCALE, min(width, height) // MIN_BOX_CELLS), 1, -1):
        for oy in range(scale):
            for ox in range(scale):
                nx, ny = (width - ox) // scale, (height - oy) // scale
                if nx < MIN_BOX_CELLS or ny < MIN_BOX_CELLS or nx * ny * scale * scale < MIN_BOX_SHARE * width * height:
                    continue
                box = display[oy : oy + ny * scale, ox : ox + nx * scale]
                if (box[1:scale] != box[0]).any() or (box[:, 1:scale] != box[:, :1]).any():
                    continue  # the first row or column of cells is not uniform: the common, cheap refusal
                cells = box[::scale, ::scale]
                if (cells != cells[0, 0]).any() and np.array_equal(
                        box, np.repeat(np.repeat(cells, scale, 0), scale, 1)):
                    return scale, ox, oy
    return None


def banded_geometry(display: Array) -> Geometry | None:
    """The largest-scale grid over a band of whole cell rows (or columns) that spans the frame's width (or
    height): a board drawn at a scale with a strip of finer detail (a HUD: counters, bars, dots) above or
    below it, or beside it, where no grid fits the frame or a box inside a margin. The band covers at least
    `MIN_BOX_SHARE` of the frame, `MIN_BOX_CELLS` cells each way, and shows more than one colour; its
    geometry names the band's columns and rows when it stops short of the frame's edge."""
    height, width = display.shape
    for scale in range(min(MAX_BOX_SCALE, min(width, height) // MIN_BOX_CELLS), 1, -1):
        best: tuple[int, Geometry] | None = None
        for oy in range(scale):
            for ox in range(scale):
                nx, ny = (width - ox) // scale, (height - oy) // scale
                if nx < MIN_BOX_CELLS or ny < MIN_BOX_CELLS:
                    continue
                cells = display[oy : oy + ny * scale, ox : ox + nx * scale].reshape(ny, scale, nx, scale)
                values = cells[:, 0, :, 0]
                uniform = (cells == values[:, None, :, None]).all(axis=(1, 3))
                for axis in (0, 1):
                    start, count = _longest_run(uniform.all(axis=1 - axis))
                    across = nx if axis == 0 else ny
                    area = count * across * scale * scale
                    if count < MIN_BOX_CELLS or area < MIN_BOX_SHARE * width * height:
                        continue
                    band = values[start : start + count] if axis == 0 else values[:, start : start + count]
                    if (band == band.flat[0]).all() or (best is not None and area <= best[0]):
                        continue
                    geometry = ((scale, ox, oy + start * scale, nx, count) if axis == 0
                                else (scale, ox + start * scale, oy, count, ny))
                    best = area, normal(geometry, width, height)
        if best is not None:
            return best[1]
    return None


def _longest_run(flags: npt.NDArray[np.bool_]) -> tuple[int, int]:
    """(start, length) of the longest run of True (the first of equal ones); (0, 0) when there is none."""
    best = (0, 0)
    start = None
    for i, flag in enumerate([*flags.tolist(), False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            if i - start > best[1]:
                best = (start, i - start)
            start = None
    return best


def normal(geometry: Sequence[int], width: int, height: int) -> Geometry:
    """The geometry without its columns and rows when they are all the whole cells there are anyway."""
    short = (int(geometry[0]), int(geometry[1]), int(geometry[2]))
    if len(geometry) > 4 and whole_cells(short, width, height) != whole_cells(geometry, width, height):
        return (*short, int(geometry[3]), int(geometry[4]))
    return short


def downsample(display: Array, geometry: Geometry) -> Array:
    """One value per whole logical cell (its top-left pixel)."""
    scale, ox, oy = geometry[:3]
    height, width = display.shape
    nx, ny = whole_cells(geometry, width, height)
    return display[oy : oy + ny * scale : scale, ox : ox + nx * scale : scale]


def logical(display: Array, hints: Sequence[Sequence[int]]) -> LogicalFrame:
    """Decide the geometry of a display frame and downsample it."""
    geometry = frame_geometry(display, hints)
    return LogicalFrame(display, geometry, np.ascontiguousarray(downsample(display, geometry)))


def scale_hints(displays: Iterable[Array], previous: Iterable[Sequence[int]] = ()) -> list[list[int]]:
    """Geometries worth trying first: each frame's own detection, ranked by how many frames fit them.

    A sparse frame can show a spurious multiple of the true scale; the true one fits far more frames,
    so it ranks first and keeps the logical grid stable from step to step. A frame whose gcd geometry is
    one pixel a cell and that no candidate fits yet is searched for a grid inside a margin
    (`boxed_geometry`), else for a grid over a band of rows or columns beside a HUD strip
    (`banded_geometry`), which adds its scale's divisors too (a sparse frame's box may fit a multiple).
    """
    frames = list(displays)
    candidates: dict[Geometry, None] = {}
    for hint in previous:
        if int(hint[0]) > 1:
            candidates[(int(hint[0]), int(hint[1]), int(hint[2]))] = None
    for display in frames:
        height, width = display.shape
        scale, ox, oy = lib_detect_scale(boundaries(display), width, height)
        if scale > 1:
            candidates[(scale, ox, oy)] = None
        elif not any(fits(display, g, STRAY_LINES) for g in candidates):
            boxed = _boxed(display)
            if boxed is not None:
                band = len(boxed) > 3 or max(boxed[1], boxed[2]) >= boxed[0]
                for divisor in (d for d in range(boxed[0], 1, -1) if boxed[0] % d == 0):
                    if not band:  # a box inside a margin: the finer grid runs to the frame's edges
                        candidates[(divisor, boxed[1] % divisor, boxed[2] % divisor)] = None
                        continue
                    ratio = boxed[0] // divisor  # a band: the same box, finer
                    extent = (boxed[3] * ratio, boxed[4] * ratio) if len(boxed) > 3 else ()
                    candidates[(divisor, boxed[1], boxed[2], *extent)] = None
    support = {g: sum(fits(d, g) for d in frames) for g in candidates}
    # a grid no frame fits exactly (a sprite's detail or a cursor over a cell in every frame) still fits
    # them but for a few stray lines, as `lib_geometry` accepts: ranked after the exact ones
    loose = {g: sum(fits(d, g, STRAY_LINES) for d in frames) for g in candidates if not support[g]}
    ranked = sorted((g for g in candidates if support[g] or loose.get(g)),
                    key=lambda g: (-support[g], -loose.get(g, 0), -g[0], g))
    return [list(g) for g in ranked[:MAX_HINTS]]


def _boxed(display: Array) -> Geometry | None:
    """`boxed_geometry`, remembered per frame (the same frames come back in every step's window)."""
    return _boxed_of(display.tobytes(), display.shape)


@functools.lru_cache(maxsize=1024)
def _boxed_of(pixels: bytes, shape: tuple[int, ...]) -> Geometry | None:
    display = np.frombuffer(pixels, dtype=np.int8).reshape(shape)
    return boxed_geometry(display) or banded_geometry(display)


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
