"""Grid and transition encodings shared by the workspace, the sandbox and the team (see docs/workspace.md)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from dreamteam.types import Grid

HEX_DIGITS = b"0123456789abcdef"
_ENCODE_TABLE = np.frombuffer(HEX_DIGITS, dtype=np.uint8)
_DECODE_TABLE = np.full(256, -1, dtype=np.int16)
for _value, _char in enumerate(HEX_DIGITS):
    _DECODE_TABLE[_char] = _value
    _DECODE_TABLE[ord(chr(_char).upper())] = _value

TRANSITION_KEYS = (
    "step", "level", "action", "before", "after", "frames", "history",
    "level_up", "game_over", "pinned", "pin_reason",
)
_SCALAR_KEYS = ("step", "level", "action", "frames", "level_up", "game_over", "pinned", "pin_reason", "history")


class CodecError(ValueError):
    """A grid or transition that does not follow the shared format."""


def as_colour_array(grid: Grid | Sequence[Sequence[int]] | npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Validate a 2-D grid of colours 0-15 and return it as a C-contiguous uint8 array."""
    arr = np.asarray(grid)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise CodecError(f"a grid must be a non-empty 2-D array, got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise CodecError(f"a grid must hold integers, got dtype {arr.dtype}")
    if arr.min() < 0 or arr.max() > 15:
        raise CodecError(f"grid colours must be 0..15, got {int(arr.min())}..{int(arr.max())}")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def encode_grid(grid: Grid | Sequence[Sequence[int]] | npt.ArrayLike) -> list[str]:
    """Encode a grid as one lowercase hex string per row (row y = string y, column x = character x)."""
    arr = as_colour_array(grid)
    height, width = arr.shape
    text = _ENCODE_TABLE[arr].tobytes().decode("ascii")
    return [text[y * width : (y + 1) * width] for y in range(height)]


def decode_grid(rows: Sequence[str]) -> Grid:
    """Decode hex rows (as written by `encode_grid`) into an int8 array of shape (rows, columns)."""
    if isinstance(rows, str) or not rows:
        raise CodecError("a grid must be a non-empty list of hex strings")
    width = len(rows[0])
    if width == 0 or any(len(row) != width for row in rows):
        raise CodecError("grid rows must be non-empty and all the same length")
    try:
        raw = "".join(rows).encode("ascii")
    except (UnicodeEncodeError, TypeError) as exc:
        raise CodecError(f"grid rows must be ASCII hex strings: {exc}") from None
    values = _DECODE_TABLE[np.frombuffer(raw, dtype=np.uint8)]
    if (values < 0).any():
        raise CodecError("grid rows may only contain hex digits 0-9, a-f")
    return values.astype(np.int8).reshape(len(rows), width)


def grid_hash(grid: Grid | Sequence[Sequence[int]] | npt.ArrayLike) -> str:
    """A short stable hash (16 hex digits) of a grid's shape and colours, equal for lists and arrays."""
    arr = as_colour_array(grid)
    digest = hashlib.blake2b(digest_size=8)
    digest.update(f"{arr.shape[0]}x{arr.shape[1]}:".encode())
    digest.update(arr.tobytes())
    return digest.hexdigest()


def grid_to_lists(grid: Grid | npt.ArrayLike) -> list[list[int]]:
    """The grid as a list of row lists of ints, the form artifacts receive."""
    result: list[list[int]] = as_colour_array(grid).tolist()
    return result


def normalise_transition(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Check a transition's keys and grids and fill optional fields with their defaults."""
    missing = [key for key in ("step", "level", "action", "before", "after") if key not in obj]
    if missing:
        raise CodecError(f"transition lacks {', '.join(missing)}")
    out: dict[str, Any] = {
        "step": int(obj["step"]),
        "level": int(obj["level"]),
        "action": dict(obj["action"]),
        "before": _hex_rows(obj["before"]),
        "after": _hex_rows(obj["after"]),
        "frames": int(obj.get("frames", 1)),
        "history": dict(obj.get("history") or {}),
        "level_up": bool(obj.get("level_up", False)),
        "game_over": bool(obj.get("game_over", False)),
        "pinned": bool(obj.get("pinned", False)),
        "pin_reason": str(obj.get("pin_reason", "")),
    }
    if "action" not in out["action"]:
        raise CodecError("transition action must be a dict with an 'action' key")
    return out


def _hex_rows(value: Any) -> list[str]:
    """Accept hex rows, a list of int rows or an array; return validated hex rows."""
    if isinstance(value, list | tuple) and value and isinstance(value[0], str):
        decode_grid(value)
        return list(value)
    return encode_grid(value)


def transition_to_line(transition: Mapping[str, Any]) -> str:
    """Compact one-line JSON for a JSONL file (no trailing newline)."""
    return json.dumps(transition, separators=(",", ":"), sort_keys=False)


def transition_to_pretty(transition: Mapping[str, Any]) -> str:
    """Readable JSON: one field per line and one grid row per line, so `git log -p` shows a picture."""
    lines = ["{"]
    fields = [key for key in _SCALAR_KEYS if key in transition]
    fields += [key for key in transition if key not in _SCALAR_KEYS and key not in ("before", "after")]
    for key in fields:
        lines.append(f"  {json.dumps(key)}: {json.dumps(transition[key], sort_keys=True)},")
    for key in ("before", "after"):
        rows = transition.get(key, [])
        body = ",\n".join(f"    {json.dumps(row)}" for row in rows)
        lines.append(f"  {json.dumps(key)}: [\n{body}\n  ],")
    lines[-1] = lines[-1].rstrip(",")
    lines.append("}")
    return "\n".join(lines) + "\n"


def transition_from_text(text: str) -> dict[str, Any]:
    """Parse one transition from JSON text (either layout) and normalise it."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CodecError(f"transition is not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise CodecError("a transition must be a JSON object")
    return normalise_transition(obj)
