"""The symbolic Observer: writes a lossless observable.py and keeps its scale hints and entity roles current.

Request context (task "maintain", surface = current observable.py):
    frames        recent display frames (hex rows), oldest first, one step apart
    parse_errors  [{"step", "wrong_cells"}] where render(parse(frame)) missed the frame
    feedback      peer text; a line `entities: {"role": {"colours": [...]}, ...}` (as the symbolic
                  simulator writes in its notes) sets entity roles such as controllable, blocker, goal
Reply: {"patch": new observable.py or null, "notes": text}.

What it learns from the frames itself: the geometry hints (scale and offset that most frames fit), a HUD
region (perception.detect_hud: pixels that change on almost every step), and the colours that moved
between consecutive frames (role "moving"). The parse is exact by construction for any frame, so a patch
is proposed only when the hints or roles change (or the current surface is not this parser).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from dreamteam.backends.symbolic.common.artifacts import assigned_literal
from dreamteam.backends.symbolic.common.base import list_of, text_of
from dreamteam.backends.symbolic.common.evidence import Transition as Pair
from dreamteam.backends.symbolic.common.evidence import motions
from dreamteam.backends.symbolic.common.frames import Array, DisplayCache, logical, scale_hints
from dreamteam.backends.symbolic.obs_source import entity_types, observable_source
from dreamteam.perception import detect_hud
from dreamteam.protocols import RoleRequest

ENTITY_LINE = re.compile(r"entities:\s*(\{.*\})")
MIN_HUD_FRAMES = 5
Entities = dict[str, dict[str, Any]]


def feedback_entities(feedback: str) -> Entities:
    """The last `entities: {...}` JSON object in the feedback text ({} when there is none)."""
    for match in reversed(ENTITY_LINE.findall(feedback)):
        try:
            found = json.loads(match)
        except json.JSONDecodeError:
            continue
        if isinstance(found, dict):
            return {str(k): dict(v) for k, v in found.items() if isinstance(v, dict)}
    return {}


def moving_colours(frames: Sequence[Array], hints: Sequence[Sequence[int]]) -> list[int]:
    """Colours that moved rigidly between some pair of consecutive frames of the same layout."""
    found: set[int] = set()
    decoded = [logical(f, hints) for f in frames[-12:]]
    for before, after in zip(decoded, decoded[1:], strict=False):
        if not before.same_layout(after) or (before.grid == after.grid).all():
            continue
        pair = Pair(0, 0, "", {}, before, after, False, False)
        found.update(c for c, m in motions(pair).items() if m.kind == "moved")
    return sorted(found)


def hud_region(frames: Sequence[Array]) -> list[int] | None:
    """Display-pixel box [x0, y0, x1, y1] of the regions that changed on almost every step, if any."""
    if len(frames) < MIN_HUD_FRAMES:
        return None
    mask = detect_hud(list(frames))
    if not mask.any():
        return None
    ys, xs = np.nonzero(mask)
    return [int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())]


def merged_entities(previous: Any, frames: Sequence[Array], hints: Sequence[Sequence[int]], feedback: str) -> Entities:
    """Previous roles, updated by what the frames show and overridden by what the feedback says."""
    entities: Entities = {}
    if isinstance(previous, dict):
        entities.update({str(k): dict(v) for k, v in previous.items() if isinstance(v, dict)})
    moving = moving_colours(frames, hints)
    if moving:
        entities["moving"] = {"colours": moving}
    region = hud_region(frames)
    if region is not None:
        entities["hud"] = {"region": region}
    entities.update(feedback_entities(feedback))
    return entity_types(entities)


class ObserverAnswerer:
    """Keeps observable.py a lossless parser with current hints and roles."""

    def __init__(self) -> None:
        self.displays = DisplayCache(size=256)

    def frames(self, context: Mapping[str, Any]) -> list[Array]:
        """The request's frames, decoded (malformed ones skipped)."""
        out = []
        for rows in list_of(context, "frames"):
            try:
                out.append(self.displays.get(rows))
            except (ValueError, TypeError):
                continue
        return out

    def answer(self, request: RoleRequest) -> dict[str, Any]:
        """Reply content for one "maintain" request."""
        frames = self.frames(request.context)
        previous_hints = assigned_literal(request.surface, "obs_SCALE_HINTS")
        ours = previous_hints is not None
        hints = scale_hints(frames, previous_hints or [])
        previous_entities = assigned_literal(request.surface, "ENTITY_TYPES") if ours else {}
        entities = merged_entities(previous_entities, frames, hints, text_of(request.context, "feedback"))
        source = observable_source(hints, entities)
        notes = self.describe(frames, hints, entities, list_of(request.context, "parse_errors"))
        if source == request.surface:
            return {"patch": None, "notes": notes}
        return {"patch": source, "notes": notes}

    def describe(self, frames: Sequence[Array], hints: Sequence[Sequence[int]], entities: Entities,
                 errors: Sequence[Any]) -> str:
        """One paragraph for the team: geometry, background, object count, roles, parse errors."""
        parts = []
        if frames:
            last = logical(frames[-1], hints)
            rows, cols = last.grid.shape
            background = int(np.bincount(last.grid.ravel().astype(np.intp) & 15).argmax())
            parts.append(f"scale {last.scale} offset ({last.geometry[1]}, {last.geometry[2]}): "
                         f"{cols}x{rows} logical grid, background colour {background}")
        if entities:
            parts.append("roles: " + "; ".join(f"{r} {spec.get('colours', spec.get('region'))}"
                                               for r, spec in entities.items()))
        if errors:
            parts.append(f"{len(errors)} parse errors reported; this parser is lossless for every frame")
        return ". ".join(parts) or "no frames yet"
