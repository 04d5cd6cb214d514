"""Shrink a role's context to what fits an LLM prompt: recent transitions as cell changes, not full grids.

The symbolic role models read the whole regression set with both 64x64 grids per transition; a language
model cannot (about 9k characters per transition). Before rendering, transition lists are cut to the most
recent ones and each transition's `before`/`after` grids become the list of cells that changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

TRANSITION_KEYS = ("transitions", "counterexamples", "level_ups")
MAX_TRANSITIONS = 8
MAX_CHANGES = 48
MAX_FRAMES = 2


def _rows(grid: Any) -> list[str] | None:
    if isinstance(grid, list | tuple) and grid and all(isinstance(r, str) for r in grid):
        return list(grid)
    return None


def cell_changes(before: Sequence[str], after: Sequence[str]) -> dict[str, Any]:
    """The cells whose colour differs between two hex-row grids: [x, y, old, new], capped, with a count."""
    changes: list[list[int]] = []
    total = 0
    for y, (a, b) in enumerate(zip(before, after, strict=False)):
        if a == b:
            continue
        for x, (ca, cb) in enumerate(zip(a, b, strict=False)):
            if ca != cb:
                total += 1
                if len(changes) < MAX_CHANGES:
                    changes.append([x, y, int(ca, 16), int(cb, 16)])
    return {"changed_cells": total, "changes_x_y_old_new": changes}


def compact_transition(t: Mapping[str, Any]) -> dict[str, Any]:
    """A transition with its two grids replaced by the cells that changed."""
    out = {k: v for k, v in t.items() if k not in ("before", "after")}
    before, after = _rows(t.get("before")), _rows(t.get("after"))
    if before is not None and after is not None:
        out.update(cell_changes(before, after))
    return out


def compact_context(context: Mapping[str, Any]) -> dict[str, Any]:
    """The context with transition lists shortened and compacted, and at most two frames."""
    out = dict(context)
    for key in TRANSITION_KEYS:
        items = out.get(key)
        if isinstance(items, list):
            recent = items[-MAX_TRANSITIONS:]
            out[key] = [compact_transition(t) if isinstance(t, Mapping) else t for t in recent]
            if len(items) > len(recent):
                out[f"{key}_omitted"] = len(items) - len(recent)
    frames = out.get("frames")
    if isinstance(frames, list) and len(frames) > MAX_FRAMES:
        out["frames"] = frames[-MAX_FRAMES:]
    return out
