"""The viewer's data model: one JSON-able dict describing a run step by step.

Step `s` is the `s`-th action sent (0-based), the same number as the workspace's step commit and
`dreamteam show RUN_DIR s`: it goes from frame `before` (what the team saw) to frame `after` (the response).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from dreamteam.codec import grid_hash
from dreamteam.env.replay import RecordedFrame, Recording
from dreamteam.report import game_summary
from dreamteam.rundir import RUN_JSON, SCORECARD
from dreamteam.types import CLICK
from dreamteam.viewer.frames import encode_frames
from dreamteam.viewer.palette import PALETTE
from dreamteam.viewer.workspace_steps import read_workspace_steps

WORKSPACE_DIR = "workspace"
VIEW_VERSION = 1


def build_view(recording: Recording, run_dir: Path | None) -> dict[str, Any]:
    """Everything the page shows: run facts, frames, steps, per-level summaries, workspace details."""
    warnings: list[str] = []
    meta = _json_file(run_dir / RUN_JSON, warnings) if run_dir else None
    card = _json_file(run_dir / SCORECARD, warnings) if run_dir else None
    summary = None
    if card is not None:
        try:
            summary = game_summary(card, recording.game_id)
        except (KeyError, TypeError, ValueError) as exc:
            warnings.append(f"scorecard.json is malformed ({exc}); scores are not shown")
    steps = step_records(recording)
    workspace = _workspace_steps(run_dir, warnings)
    _attach_workspace(steps, workspace, recording)
    return {
        "version": VIEW_VERSION,
        "run": run_facts(meta or {}, recording, run_dir),
        "palette": list(PALETTE),
        "frames": encode_frames([entry.grid for entry in recording.entries]),
        "steps": steps,
        "levels": level_summaries(steps, summary),
        "scorecard": summary,
        "has_workspace": bool(workspace),
        "warnings": warnings,
    }


def step_records(recording: Recording) -> list[dict[str, Any]]:
    """One record per action: label, click, frame indices, level, state, events, changed-cell count."""
    offset = 1 if recording.has_initial_frame else 0
    previous = recording.entries[0] if recording.has_initial_frame else None
    records = []
    for step, entry in enumerate(recording.actions):
        levels_before = previous.levels_completed if previous else 0
        record: dict[str, Any] = {
            "step": step, "action": entry.action_label, "id": entry.action_id,
            "before": step + offset - 1, "after": step + offset, "level": levels_before + 1,
            "levels_after": entry.levels_completed, "state": entry.state, "layers": len(entry.frames or ()),
            "events": _events(entry, levels_before), "changed": _changed(previous, entry),
        }
        if entry.action_id == CLICK and isinstance(entry.data.get("x"), int) and isinstance(entry.data.get("y"), int):
            record["x"], record["y"] = entry.data["x"], entry.data["y"]
        records.append(record)
        previous = entry
    return records


def level_summaries(steps: list[dict[str, Any]], summary: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Per level: steps spent, game overs, resets, solved, predictions and patches, baseline and score."""
    levels: dict[int, dict[str, Any]] = {}
    for record in steps:
        row = levels.setdefault(record["level"], {
            "level": record["level"], "first_step": record["step"], "actions": 0, "game_overs": 0, "resets": 0,
            "solved": False, "hits": 0, "misses": 0, "accepted": 0, "rejected": 0})
        row["last_step"] = record["step"]
        row["actions"] += 1
        row["game_overs"] += "GAME OVER" in record["events"]
        row["resets"] += record["id"] == 0
        row["solved"] = row["solved"] or record["levels_after"] >= record["level"]
        ws = record.get("ws") or {}
        row["hits"] += ws.get("prediction") == "hit"
        row["misses"] += ws.get("prediction") == "miss"
        for patch in ws.get("patches") or []:
            row["accepted" if patch.get("verdict") == "accepted" else "rejected"] += 1
    count = max(len(summary["level_scores"]) if summary else 0, max(levels, default=0))
    out = []
    for level in range(1, count + 1):
        row = levels.get(level, {"level": level, "first_step": None, "last_step": None, "actions": 0,
                                 "game_overs": 0, "resets": 0, "solved": False, "hits": 0, "misses": 0,
                                 "accepted": 0, "rejected": 0})
        if summary:
            index = level - 1
            row["baseline"] = _at(summary["level_baseline_actions"], index)
            row["score"] = _at(summary["level_scores"], index)
            row["scored_actions"] = _at(summary["level_actions"], index)
        out.append(row)
    return out


def run_facts(meta: dict[str, Any], recording: Recording, run_dir: Path | None) -> dict[str, Any]:
    """Run id, game, agent and backends, seed, budget, dates, result, recording format and file."""
    backends = meta.get("backends") or {}
    names = sorted({str(v.get("backend", "?")) for v in backends.values() if isinstance(v, dict)})
    return {
        "id": str(meta.get("run_id") or (run_dir.name if run_dir else recording.path.name)),
        "game_id": recording.game_id, "agent": str(meta.get("agent") or "?"), "backends": names,
        "seed": meta.get("seed"), "budget": meta.get("budget"), "started_at": meta.get("started_at"),
        "status": meta.get("status"), "result": meta.get("result") or {}, "format": recording.format,
        "recording": recording.path.name, "initial_frame": recording.has_initial_frame,
    }


def _events(entry: RecordedFrame, levels_before: int) -> list[str]:
    events = []
    if entry.action_id == 0:
        events.append("FULL RESET" if entry.full_reset else "RESET")
    if entry.levels_completed > levels_before:
        events.append("LEVEL UP")
    if entry.state in ("WIN", "GAME_OVER"):
        events.append(entry.state.replace("_", " "))
    return events


def _changed(previous: RecordedFrame | None, entry: RecordedFrame) -> int | None:
    before, after = (previous.grid if previous else None), entry.grid
    if before is None or after is None or before.shape != after.shape:
        return None
    return int(np.count_nonzero(before != after))


def _workspace_steps(run_dir: Path | None, warnings: list[str]) -> dict[int, dict[str, Any]]:
    if run_dir is None or not (run_dir / WORKSPACE_DIR).is_dir():
        return {}
    try:
        return read_workspace_steps(run_dir / WORKSPACE_DIR)
    except Exception as exc:  # a damaged repository can fail anywhere inside git: show the frames anyway
        warnings.append(f"the workspace could not be read ({type(exc).__name__}: {exc}); showing frames only")
        return {}


def _attach_workspace(steps: list[dict[str, Any]], workspace: dict[int, dict[str, Any]], recording: Recording) -> None:
    for record in steps:
        info = workspace.get(record["step"])
        if info is None:
            continue
        grid = recording.entries[record["after"]].grid
        if info.get("observed") and grid is not None:
            info["observed_matches"] = info["observed"] == grid_hash(grid)
        if info.get("action") != record["action"]:
            info["action_mismatch"] = f"the step commit says {info.get('action')}, the recording {record['action']}"
        record["ws"] = info


def _at(values: list[Any], index: int) -> Any:
    return values[index] if index < len(values) else None


def _json_file(path: Path, warnings: list[str]) -> dict[str, Any] | None:
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        warnings.append(f"{path.name} is unreadable or corrupt ({exc}); it is ignored")
        return None
    if not isinstance(data, dict):
        warnings.append(f"{path.name} is not a JSON object; it is ignored")
        return None
    return data
