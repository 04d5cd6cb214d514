"""Write a run's `recording.jsonl` in the toolkit's recording format.

The toolkit can record by itself, but it names the file `<recordings_dir>/<card_id>/<game>-<guid>.jsonl` and
offers no flush control; a run directory needs one fixed file that is flushed after every line so a killed
session never loses a recorded step. The line format is the toolkit's (EnvironmentWrapper._set_last_response).
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arcengine import FrameDataRaw


def frame_record(resp: FrameDataRaw, reasoning: Any = None) -> dict[str, Any]:
    """The toolkit's `data` object for one response, frames included."""
    action = resp.action_input
    return {
        "game_id": resp.game_id,
        "state": resp.state.name if hasattr(resp.state, "name") else str(resp.state),
        "levels_completed": resp.levels_completed,
        "win_levels": resp.win_levels,
        "action_input": {
            "id": action.id.name if hasattr(action.id, "name") else str(action.id),
            "data": action.data,
            "reasoning": reasoning if reasoning else action.reasoning,
        },
        "guid": resp.guid,
        "full_reset": bool(getattr(resp, "full_reset", False)),
        "available_actions": list(resp.available_actions),
        "frame": [f.tolist() if hasattr(f, "tolist") else f for f in resp.frame],
    }


class RecordingWriter:
    """Appends one toolkit-format line per response to a file, flushed and fsynced each time."""

    def __init__(self, path: Path, *, fsync: bool = True) -> None:
        self.path = path
        self._fsync = fsync
        self._file = path.open("a", encoding="utf-8")

    def write(self, resp: FrameDataRaw, reasoning: Any = None) -> None:
        """Record one response."""
        event = {"timestamp": datetime.now(UTC).isoformat(), "data": frame_record(resp, reasoning)}
        self._file.write(json.dumps(event, separators=(",", ":")) + "\n")
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file."""
        self._file.close()
