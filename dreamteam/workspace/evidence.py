"""Evidence the harness writes into a workspace: transitions, the regression window, predictions, replay report.

Tracked in git (each file bounded in size, so history grows linearly):
    evidence/transitions/<step // 100>/<step>.json   one transition, written once, one grid row per line
    evidence/window.json                              the regression window's manifest (steps, pins)
    evidence/predictions/<step // 100>.jsonl          prediction lines, at most 100 per file
    evidence/replay_report.json                       the last replay report
Materialised views, rebuilt from the tracked files and ignored by git:
    evidence/regression.jsonl                         R_t: one full transition per line (shared format)
    evidence/predictions.jsonl                        every prediction line
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamteam.codec import transition_to_line

EVIDENCE_DIR = "evidence"
REGRESSION = "evidence/regression.jsonl"
PREDICTIONS = "evidence/predictions.jsonl"
REPLAY_REPORT = "evidence/replay_report.json"
WINDOW = "evidence/window.json"
TRANSITIONS_DIR = "evidence/transitions"
PREDICTION_BUCKETS_DIR = "evidence/predictions"
BUCKET_SIZE = 100
MATERIALISED = (REGRESSION, PREDICTIONS)
GITIGNORE = "# materialised views, rebuilt from the tracked evidence files\n" + "".join(f"/{p}\n" for p in MATERIALISED)


@dataclass(frozen=True, slots=True)
class PredictionRecord:
    """One line of evidence/predictions.jsonl: what was predicted for a step and how it fared."""

    step: int
    action: str
    predicted: str | None
    observed: str
    hit: bool | None
    wrong_cells: int = 0

    def to_json(self) -> dict[str, Any]:
        """The JSON object written as one line."""
        return {
            "step": self.step, "action": self.action, "predicted": self.predicted,
            "observed": self.observed, "hit": self.hit, "wrong_cells": self.wrong_cells,
        }


def transition_path(step: int) -> str:
    """Where the transition of `step` is stored."""
    return f"{TRANSITIONS_DIR}/{step // BUCKET_SIZE:03d}/{step:06d}.json"


def prediction_bucket_path(step: int) -> str:
    """The tracked predictions file that holds the line of `step`."""
    return f"{PREDICTION_BUCKETS_DIR}/{step // BUCKET_SIZE:03d}.jsonl"


def write_file(path: Path, data: bytes) -> None:
    """Overwrite a working-tree file in place, truncating only what is left over.

    Opening with O_TRUNC frees and reallocates the file's blocks, which costs milliseconds for the
    1.7 MB regression view on some disks. A file that an interrupted step leaves half-written is
    restored from HEAD when the workspace is next written (see writer.py).
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.ftruncate(fd, len(data))
    finally:
        os.close(fd)


def window_lines(transitions: list[dict[str, Any]], cache: dict[int, bytes]) -> bytes:
    """The regression.jsonl body for `transitions`, reusing each transition's cached line."""
    lines = []
    for transition in transitions:
        step = int(transition["step"])
        line = cache.get(step)
        if line is None:
            line = cache[step] = transition_to_line(transition).encode() + b"\n"
        lines.append(line)
    if len(cache) > len(lines):
        keep = {int(t["step"]) for t in transitions}
        for step in [s for s in cache if s not in keep]:
            del cache[step]
    return b"".join(lines)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a JSONL file ([] when it does not exist)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def dump_json(data: Any) -> bytes:
    """Indented JSON with a final newline, as the workspace stores JSON files."""
    return (json.dumps(data, indent=2) + "\n").encode()
