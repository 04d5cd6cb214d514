"""Compact frame encoding for the HTML viewer: a full frame in hex, or only the cells that changed.

Each encoded frame is a string:
- `F` + width (2 hex digits) + height (2 hex digits) + one hex digit per cell, row by row;
- `D` + 5 hex digits per cell that differs from the previous frame: x (2), y (2), colour (1);
- `N`: no frame was recorded for this response (the previous frame stands).
A `D` frame is used when it is shorter than a full one; the page decodes all frames once on load.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dreamteam.codec import encode_grid
from dreamteam.types import Grid

MAX_SIDE = 255


def encode_frames(grids: Sequence[Grid | None]) -> list[str]:
    """Encode a sequence of grids (None: not recorded) as full or changed-cell strings."""
    out: list[str] = []
    previous: Grid | None = None
    for grid in grids:
        if grid is None:
            out.append("N")
            continue
        height, width = grid.shape
        if height > MAX_SIDE or width > MAX_SIDE:
            raise ValueError(f"frames of at most {MAX_SIDE}x{MAX_SIDE} cells can be encoded, got {width}x{height}")
        out.append(_encode_one(grid, previous))
        previous = grid
    return out


def _encode_one(grid: Grid, previous: Grid | None) -> str:
    height, width = grid.shape
    full = f"F{width:02x}{height:02x}" + "".join(encode_grid(grid))
    if previous is None or previous.shape != grid.shape:
        return full
    ys, xs = np.nonzero(previous != grid)
    if 1 + 5 * len(xs) >= len(full):
        return full
    return "D" + "".join(f"{x:02x}{y:02x}{int(grid[y, x]):x}" for y, x in zip(ys.tolist(), xs.tolist(), strict=True))


def decode_frames(encoded: Sequence[str]) -> list[Grid | None]:
    """Decode what `encode_frames` wrote (the page's JavaScript decoder does the same)."""
    out: list[Grid | None] = []
    previous: Grid | None = None
    for text in encoded:
        if text == "N":
            out.append(None)
            continue
        if text.startswith("F"):
            width, height = int(text[1:3], 16), int(text[3:5], 16)
            cells = np.frombuffer(text[5:].encode("ascii"), dtype=np.uint8)
            grid = np.array([int(chr(c), 16) for c in cells], dtype=np.int8).reshape(height, width)
        elif text.startswith("D") and previous is not None:
            grid = previous.copy()
            for i in range(1, len(text), 5):
                grid[int(text[i + 2 : i + 4], 16), int(text[i : i + 2], 16)] = int(text[i + 4], 16)
        else:
            raise ValueError(f"bad encoded frame {text[:12]!r}")
        out.append(grid)
        previous = grid
    return out
