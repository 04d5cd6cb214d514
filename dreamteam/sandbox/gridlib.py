"""The `grid` module artifacts import: a read-only frame type and fast numpy-backed grid helpers.

Artifact code never sees a numpy object. Frames arrive as read-only `Grid`s; the functions that make a
new grid return a *canvas*: a list of `bytearray` rows (`canvas[y][x] = colour` works, colours 0-255),
which the replay compares with the observed frame without conversion. Functions that read a grid take a
Grid, a canvas, or a list of row lists of ints. Cells are addressed as (x, y) like the toolkit's ACTION6
(x = column, y = row).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from dreamteam.sandbox.components import connected_components

_HEX_TO_VALUE = bytes.maketrans(b"0123456789abcdefABCDEF", bytes(range(16)) + bytes(range(10, 16)))
_VALID_VALUES = bytes(range(16))
MAX_SIDE = 1024
"""Largest height or width the helpers will allocate (a guard against accidental huge canvases)."""


class Grid:
    """A read-only frame: `frame[y][x]` or `frame[y, x]` is the colour of column x in row y."""

    __slots__ = ("_array", "_buf", "_height", "_rows", "_width")

    def __init__(self, buf: bytes, height: int, width: int) -> None:
        if len(buf) != height * width:
            raise ValueError(f"a {height}x{width} grid needs {height * width} cells, got {len(buf)}")
        self._buf = buf
        self._height = height
        self._width = width
        self._rows: tuple[tuple[int, ...], ...] | None = None
        self._array: npt.NDArray[np.uint8] | None = None

    @classmethod
    def from_hex_rows(cls, rows: Sequence[str]) -> Grid:
        """Decode the shared hex-row encoding (row y = string y, column x = character x)."""
        if isinstance(rows, str) or not rows:
            raise ValueError("a grid must be a non-empty list of hex strings")
        width = len(rows[0])
        if width == 0 or any(len(row) != width for row in rows):
            raise ValueError("grid rows must be non-empty and all the same length")
        return cls.from_hex("".join(rows), width)

    @classmethod
    def from_hex(cls, text: str, width: int) -> Grid:
        """Decode all rows concatenated into one hex string, `width` digits per row."""
        if width <= 0 or not text or len(text) % width:
            raise ValueError(f"{len(text)} hex digits do not make rows of width {width}")
        buf = text.encode("ascii", "replace").translate(_HEX_TO_VALUE)
        if buf.translate(None, _VALID_VALUES):
            raise ValueError("grid rows must hold only hex digits 0-9, a-f")
        return cls(buf, len(text) // width, width)

    @property
    def height(self) -> int:
        """Number of rows."""
        return self._height

    @property
    def width(self) -> int:
        """Number of columns."""
        return self._width

    def _cell_bytes(self) -> bytes:
        # Underscore names are unreachable from artifact code; the engine and helpers use these.
        return self._buf

    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The grid as a tuple of row tuples."""
        if self._rows is None:
            self._rows = tuple(map(tuple, self._view().tolist()))
        return self._rows

    def tolist(self) -> list[list[int]]:
        """A fresh, mutable copy as a list of row lists."""
        rows: list[list[int]] = self._view().tolist()
        return rows

    def at(self, x: int, y: int) -> int:
        """The colour at column x, row y."""
        if not (0 <= x < self._width and 0 <= y < self._height):
            raise IndexError(f"cell ({x}, {y}) is outside the {self._width}x{self._height} grid")
        return self._buf[y * self._width + x]

    def _view(self) -> npt.NDArray[np.uint8]:
        if self._array is None:
            view = np.frombuffer(self._buf, dtype=np.uint8).reshape(self._height, self._width)
            self._array = view
        return self._array

    def __len__(self) -> int:
        return self._height

    def __getitem__(self, index: Any) -> Any:
        if type(index) is tuple:
            y, x = index
            return self.rows()[y][x]
        return self.rows()[index]

    def __iter__(self) -> Any:
        return iter(self.rows())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Grid):
            return self._buf == other._buf and self._width == other._width
        if isinstance(other, list | tuple):
            return [list(row) for row in self.rows()] == [list(row) for row in other]
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> Grid:
        return self

    def __deepcopy__(self, memo: Any) -> Grid:
        return self

    def __repr__(self) -> str:
        return f"Grid({self._width}x{self._height})"


Canvas = list[bytearray]
"""A mutable grid: a list of bytearray rows."""


def as_array(g: Any) -> npt.NDArray[Any]:
    """A 2-D integer array for a Grid, a canvas or a list of row lists (raises ValueError otherwise)."""
    if isinstance(g, Grid):
        return g._view()
    if type(g) in (list, tuple) and g and all(isinstance(row, bytes | bytearray) for row in g):
        if len({len(row) for row in g}) != 1:
            raise ValueError("grid rows must all have the same length")
        return np.frombuffer(b"".join(g), dtype=np.uint8).reshape(len(g), len(g[0]))
    arr = np.asarray(g)
    if arr.ndim != 2 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError("expected a grid: a Grid, a canvas, or a rectangular list of lists of ints")
    return arr


def _canvas(arr: npt.NDArray[Any]) -> Canvas:
    if arr.size and (arr.min() < 0 or arr.max() > 255):
        raise ValueError("canvas colours must be 0..255")
    return [bytearray(row.tobytes()) for row in arr.astype(np.uint8)]


def _check_side(height: int, width: int) -> None:
    if not (0 < height <= MAX_SIDE and 0 < width <= MAX_SIDE):
        raise ValueError(f"grid size {width}x{height} is outside 1..{MAX_SIDE}")


def full(height: int, width: int, color: int) -> Canvas:
    """A new height x width canvas filled with `color`."""
    _check_side(height, width)
    row = bytearray((color,)) * width
    return [row[:] for _ in range(height)]


def zeros(height: int = 64, width: int = 64) -> Canvas:
    """A new canvas filled with colour 0."""
    _check_side(height, width)
    return [bytearray(width) for _ in range(height)]


def copy(g: Any) -> Canvas:
    """A mutable copy (canvas) of a Grid, canvas or list of row lists."""
    if isinstance(g, Grid):
        buf, width = g._cell_bytes(), g.width
        return [bytearray(buf[y * width : (y + 1) * width]) for y in range(g.height)]
    return _canvas(as_array(g))


def count(g: Any, color: int) -> int:
    """How many cells have `color`."""
    if isinstance(g, Grid):
        return g._cell_bytes().count(color) if 0 <= color < 256 else 0
    return int(np.count_nonzero(as_array(g) == color))


def colors(g: Any) -> dict[int, int]:
    """Colour -> number of cells, for the colours present."""
    values, counts = np.unique(as_array(g), return_counts=True)
    return {int(v): int(n) for v, n in zip(values.tolist(), counts.tolist(), strict=True)}


def cells(g: Any, color: int) -> list[tuple[int, int]]:
    """The (x, y) cells of `color`, row by row."""
    ys, xs = np.nonzero(as_array(g) == color)
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


def bbox(g: Any, color: int) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1), inclusive, of the cells of `color`; None when absent."""
    mask = as_array(g) == color
    rows = np.flatnonzero(mask.any(axis=1))
    if len(rows) == 0:
        return None
    columns = np.flatnonzero(mask.any(axis=0))
    return int(columns[0]), int(rows[0]), int(columns[-1]), int(rows[-1])


def equal(a: Any, b: Any) -> bool:
    """Whether two grids have the same shape and colours."""
    if isinstance(a, Grid) and isinstance(b, Grid):
        return a == b
    arr_a, arr_b = as_array(a), as_array(b)
    return arr_a.shape == arr_b.shape and bool(np.array_equal(arr_a, arr_b))


def diff(a: Any, b: Any, limit: int = 64) -> list[tuple[int, int, int, int]]:
    """Up to `limit` differing cells as (x, y, colour in a, colour in b); grids must share a shape."""
    arr_a, arr_b = as_array(a), as_array(b)
    if arr_a.shape != arr_b.shape:
        raise ValueError(f"grids differ in shape: {arr_a.shape} vs {arr_b.shape}")
    ys, xs = np.nonzero(arr_a != arr_b)
    pairs = zip(xs[:limit].tolist(), ys[:limit].tolist(), strict=True)
    return [(x, y, int(arr_a[y, x]), int(arr_b[y, x])) for x, y in pairs]


def shift(g: Any, dx: int, dy: int, fill: int = 0) -> Canvas:
    """A copy moved by (dx, dy); uncovered cells get `fill`."""
    arr = as_array(g)
    height, width = arr.shape
    out = np.full((height, width), fill, dtype=np.int64)
    src_y, dst_y = slice(max(0, -dy), min(height, height - dy)), slice(max(0, dy), min(height, height + dy))
    src_x, dst_x = slice(max(0, -dx), min(width, width - dx)), slice(max(0, dx), min(width, width + dx))
    if src_y.start < src_y.stop and src_x.start < src_x.stop:
        out[dst_y, dst_x] = arr[src_y, src_x]
    return _canvas(out)


def crop(g: Any, x0: int, y0: int, x1: int, y1: int) -> Canvas:
    """The inclusive rectangle (x0, y0)..(x1, y1) as a new canvas."""
    arr = as_array(g)
    part = arr[max(0, y0) : y1 + 1, max(0, x0) : x1 + 1]
    if part.size == 0:
        raise ValueError(f"crop ({x0}, {y0})..({x1}, {y1}) is empty")
    return _canvas(part)


def replace(g: Any, old: int, new: int) -> Canvas:
    """A copy with every `old` cell recoloured `new`."""
    arr = np.array(as_array(g), dtype=np.int64)
    arr[arr == old] = new
    return _canvas(arr)


def components(g: Any, background: int = 0, diagonal: bool = False) -> list[dict[str, Any]]:
    """Connected same-colour objects (4-connected, or 8 with diagonal=True), background excluded.

    Each is {"color", "size", "bbox": (x0, y0, x1, y1), "cells": [(x, y), ...]}, ordered by bbox top-left.
    """
    return connected_components(as_array(g), background, diagonal)


def _canvas_rows(canvas: Any) -> list[Any]:
    if type(canvas) is not list or (canvas and not set(map(type, canvas)) <= {list, bytearray}):
        raise TypeError("a canvas must be a list of bytearray or list rows (frames are read-only: use grid.copy(frame))")
    return canvas


def paint(canvas: Any, cells_to_paint: Iterable[Any], color: int) -> Any:
    """Set each (x, y) cell of a canvas to `color`, in place; off-canvas cells are skipped."""
    rows = _canvas_rows(canvas)
    height = len(rows)
    widths = {len(row) for row in rows}
    if len(widths) == 1:
        width = widths.pop()
        for x, y in cells_to_paint:
            if 0 <= y < height and 0 <= x < width:
                rows[y][x] = color
        return rows
    for x, y in cells_to_paint:
        if 0 <= y < height and 0 <= x < len(rows[y]):
            rows[y][x] = color
    return rows


def fill_rect(canvas: Any, x0: int, y0: int, x1: int, y1: int, color: int) -> Any:
    """Fill the inclusive rectangle (x0, y0)..(x1, y1) of a canvas with `color`, in place."""
    rows = _canvas_rows(canvas)
    for y in range(max(0, y0), min(len(rows), y1 + 1)):
        row = rows[y]
        lo, hi = max(0, x0), min(len(row), x1 + 1)
        if lo < hi:
            row[lo:hi] = bytes((color,)) * (hi - lo) if type(row) is bytearray else [color] * (hi - lo)
    return rows
