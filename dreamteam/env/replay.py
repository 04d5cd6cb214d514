"""Read recordings and replay them offline through the toolkit, checking every frame and the scorecard.

Three recording formats are read, all JSON lines of `{"timestamp", "data": {...}}`:
- `dreamteam`: a run directory's `recording.jsonl` (written by `RecordingWriter`, beside run.json);
- `toolkit`: `arc_agi`'s own `<game_id>-<guid>.jsonl` (`save_recording=True`); like ours, the first line is the
  initial RESET the toolkit sends when a game is made;
- `agents`: the ARC-AGI-3-Agents harness's `*.recording.jsonl` (`FrameData` dumps, action ids as numbers, data
  with a `game_id` key). It does not record the initial frame, and its last line may be a scorecard entry.
Lines without `action_input` are kept as `extras` (scorecard entries), not replayed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from arcengine import FrameDataRaw, GameAction

from dreamteam.codec import grid_hash
from dreamteam.env.catalog import Catalog
from dreamteam.env.session import Arena
from dreamteam.errors import UserError
from dreamteam.types import ACTION_NAMES, CLICK, Grid

FORMAT_DREAMTEAM = "dreamteam"
FORMAT_TOOLKIT = "toolkit"
FORMAT_AGENTS = "agents"
AGENTS_SUFFIX = ".recording.jsonl"
TOOLKIT_LOGGER = "dreamteam.toolkit"  # the logger Arena hands to arc_agi (see session.py)


class RecordingError(UserError):
    """A recording or scorecard that is damaged, truncated or not in a known format."""

    exit_code = 1


@dataclass(frozen=True, slots=True)
class RecordedFrame:
    """One recorded response: the action that produced it and what the game showed."""

    line: int
    action_id: int
    data: dict[str, Any]
    state: str
    levels_completed: int
    win_levels: int
    full_reset: bool
    available_actions: tuple[int, ...] | None
    frames: tuple[Grid, ...] | None
    """The frame layers (an animation has several; the last is the observation); None if not recorded."""

    @property
    def action_label(self) -> str:
        """ACTION3, or ACTION6@(x,y) for a click."""
        name = ACTION_NAMES[self.action_id]
        if self.action_id == CLICK and "x" in self.data and "y" in self.data:
            return f"{name}@({self.data['x']},{self.data['y']})"
        return name

    @property
    def grid(self) -> Grid | None:
        """The last frame layer (what an agent observes), None when frames were not recorded."""
        return self.frames[-1] if self.frames else None


@dataclass(frozen=True, slots=True)
class Recording:
    """A parsed recording file."""

    path: Path
    format: str
    game_id: str
    entries: tuple[RecordedFrame, ...]
    extras: tuple[dict[str, Any], ...]

    @property
    def has_initial_frame(self) -> bool:
        """Whether the first entry is the initial RESET the toolkit sends when the game is made."""
        return self.format != FORMAT_AGENTS

    @property
    def actions(self) -> tuple[RecordedFrame, ...]:
        """The entries produced by actions that were sent (the initial frame excluded)."""
        return self.entries[1:] if self.has_initial_frame else self.entries


def load_recording(path: Path, fmt: str | None = None) -> Recording:
    """Parse a recording file in any of the three formats (detected from its name and content)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordingError(f"recording {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordingError(f"recording {path} is unreadable: {exc}") from None
    entries: list[RecordedFrame] = []
    extras: list[dict[str, Any]] = []
    lines = text.splitlines()
    last = max((i for i, line in enumerate(lines, start=1) if line.strip()), default=0)
    numeric_ids, game_ids = False, set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        data = _line_data(path, line, number, cut_off=number == last and not text.endswith("\n"))
        if data.get("action_input") is None:
            extras.append(data)
            continue
        numeric_ids = numeric_ids or isinstance(data["action_input"].get("id"), int)
        game_ids.add(str(data.get("game_id", "")))
        entries.append(_entry(path, data, number))
    if not entries:
        raise RecordingError(f"recording {path} holds no recorded frames")
    if len(game_ids) != 1 or not next(iter(game_ids)):
        raise RecordingError(f"recording {path} must hold one game, found game ids {sorted(game_ids)}")
    fmt = fmt or _detect_format(path, numeric_ids)
    return Recording(path, fmt, game_ids.pop(), tuple(entries), tuple(extras))


def _detect_format(path: Path, numeric_ids: bool) -> str:
    if path.name.endswith(AGENTS_SUFFIX) or numeric_ids:
        return FORMAT_AGENTS
    if path.name == "recording.jsonl" and (path.parent / "run.json").exists():
        return FORMAT_DREAMTEAM
    return FORMAT_TOOLKIT


def _line_data(path: Path, line: str, number: int, *, cut_off: bool) -> dict[str, Any]:
    try:
        event = json.loads(line)
    except json.JSONDecodeError as exc:
        why = "is cut off (the recording was truncated)" if cut_off else f"is not valid JSON ({exc.msg})"
        raise RecordingError(f"{path.name} line {number} {why}") from None
    if not isinstance(event, dict) or not isinstance(event.get("data"), dict):
        raise RecordingError(f"{path.name} line {number} is not a recording event {{\"timestamp\", \"data\": {{...}}}}")
    data: dict[str, Any] = event["data"]
    return data


def _entry(path: Path, data: dict[str, Any], number: int) -> RecordedFrame:
    where = f"{path.name} line {number}"
    action = data["action_input"]
    if not isinstance(action, dict):
        raise RecordingError(f"{where}: action_input is not an object")
    payload = action.get("data") or {}
    if not isinstance(payload, dict):
        raise RecordingError(f"{where}: action_input.data is not an object")
    try:
        available = data.get("available_actions")
        return RecordedFrame(
            line=number, action_id=_action_id(action.get("id"), where), data=dict(payload),
            state=str(data.get("state", "")), levels_completed=int(data.get("levels_completed", 0)),
            win_levels=int(data.get("win_levels", 0)), full_reset=bool(data.get("full_reset", False)),
            available_actions=tuple(int(a) for a in available) if available is not None else None,
            frames=_layers(data["frame"], where) if "frame" in data else None,
        )
    except (TypeError, ValueError) as exc:
        raise RecordingError(f"{where}: malformed field: {exc}") from None


def _action_id(raw: Any, where: str) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < len(ACTION_NAMES):
        return raw
    if isinstance(raw, str):
        name = raw.strip().upper().removeprefix("GAMEACTION.")
        if name in ACTION_NAMES:
            return ACTION_NAMES.index(name)
    raise RecordingError(f"{where}: unknown action id {raw!r}")


def _layers(raw: Any, where: str) -> tuple[Grid, ...]:
    if not isinstance(raw, list):
        raise RecordingError(f"{where}: frame is not a list of grids")
    layers = []
    for layer in raw:
        try:
            arr = np.asarray(layer, dtype=np.int16)
        except (TypeError, ValueError):
            raise RecordingError(f"{where}: a frame layer is not a rectangular grid of integers") from None
        if arr.ndim != 2 or arr.size == 0 or arr.min() < 0 or arr.max() > 15:
            raise RecordingError(f"{where}: a frame layer is not a 2-D grid of colours 0..15")
        layers.append(arr.astype(np.int8))
    return tuple(layers)


