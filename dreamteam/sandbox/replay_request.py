"""Parent side of a replay: validate transitions and pack them (each distinct grid sent once) for the worker."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

SURFACE_FILES: dict[str, str] = {"observation": "observable.py", "dynamics": "dynamics.py"}
"""The surfaces that can be replayed and their artifact files."""

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


def _grid_rows(transition: Mapping[str, Any], key: str, index: int) -> tuple[str, ...]:
    rows = transition.get(key)
    if isinstance(rows, np.ndarray):
        return tuple(hex_rows(rows))
    if not isinstance(rows, list | tuple) or not rows or not all(isinstance(r, str) for r in rows):
        raise ValueError(f"transition {index}: '{key}' must be a list of hex strings")
    return tuple(rows)


def _action_label(action: Mapping[str, Any]) -> str:
    name = str(action.get("action", action.get("id", "?")))
    return f"{name}@({action.get('x')},{action.get('y')})" if "x" in action else name


def build_replay_request(
    old_source: str | None,
    new_source: str,
    transitions: Sequence[Mapping[str, Any]],
    surface: str,
    companions: Mapping[str, str],
) -> tuple[dict[str, Any], list[str]]:
    """The worker request for a replay and the action label of each transition."""
    if surface not in SURFACE_FILES:
        raise ValueError(f"cannot replay surface {surface!r}; replayable surfaces: {', '.join(SURFACE_FILES)}")
    filename = SURFACE_FILES[surface]
    grid_index: dict[tuple[str, ...], int] = {}
    packed, labels = [], []
    for i, transition in enumerate(transitions):
        action = transition.get("action")
        if not isinstance(action, Mapping):
            raise ValueError(f"transition {i}: 'action' must be an object like {{\"action\": \"ACTION1\"}}")
        history = transition.get("history") or {}
        if not isinstance(history, Mapping):
            raise ValueError(f"transition {i}: 'history' must be an object")
        ids = [grid_index.setdefault(_grid_rows(transition, key, i), len(grid_index)) for key in ("before", "after")]
        packed.append([int(transition.get("step", i)), ids[0], ids[1], dict(action), dict(history)])
        labels.append(_action_label(action))
    request: dict[str, Any] = {
        "op": "replay", "surface": surface, "grids": [[len(rows[0]), "".join(rows)] for rows in grid_index],
        "transitions": packed, "companion": None,
        "old": None if old_source is None else {"source": old_source, "filename": f"{filename}@old"},
        "new": {"source": new_source, "filename": filename},
    }
    if surface == "dynamics":
        companion = companions.get("observable.py")
        if companion is None:
            raise ValueError("replaying the dynamics surface needs companions['observable.py'] (parse and render)")
        request["companion"] = {"source": companion, "filename": "observable.py"}
    return request, labels
