"""Values crossing the process boundary: hex-row grids and JSON-able call arguments."""

from __future__ import annotations

from typing import Any

import numpy as np

_HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)


def hex_rows(grid: Any) -> list[str]:
    """The shared hex-row encoding of a 2-D array of colours 0-15."""
    arr = np.asarray(grid)
    if arr.ndim != 2 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"a grid must be a non-empty 2-D integer array, got shape {arr.shape}")
    if arr.min() < 0 or arr.max() > 15:
        raise ValueError("grid colours must be 0..15")
    text = _HEX[arr.astype(np.intp)].tobytes().decode("ascii")
    width = arr.shape[1]
    return [text[y * width : (y + 1) * width] for y in range(arr.shape[0])]


def encode_value(value: Any) -> Any:
    """Make call arguments JSON-able: 2-D numpy arrays become {"$grid": hex rows}; tuples become lists."""
    if isinstance(value, np.ndarray):
        if value.ndim == 2:
            return {"$grid": hex_rows(value)}
        return value.tolist()
    if isinstance(value, list | tuple):
        return [encode_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode_value(v) for k, v in value.items()}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"cannot send a {type(value).__name__} to the sandbox")
