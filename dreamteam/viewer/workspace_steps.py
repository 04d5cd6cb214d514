"""What a run's workspace says about each step, read from its step commits (for the viewer).

Per step: the commit's trailers and body (prediction, diff summary, patches with their replay summary, notes,
the tactic scores), the prediction line (predicted / observed hashes), the leader's decision (with every
tactic's scores when the step decided), the open probes and the critique as
committed at that step, the replay report when the step wrote one, level tags, and the unified diff of the
surfaces the step changed. Predicted frames are not stored as grids (only their hashes), so the viewer shows
hit / miss and the wrong-cell count rather than the predicted picture.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dreamteam.workspace import SURFACES, Workspace, WorkspaceError
from dreamteam.workspace.evidence import PREDICTION_BUCKETS_DIR, REPLAY_REPORT
from dreamteam.workspace.repository import read_log

PATCH_LINE = re.compile(r"^- (?P<surface>\S+) \((?P<role>[^)]*)\): (?P<verdict>accepted|rejected)"
                        r"(?:: (?P<reason>.*?))?(?: \[replay: (?P<replay>[^\]]*)\])?$")
JSON_SURFACES = {"leadership": "leader.json", "probes": "probes.json", "critique": "critique.json"}
DIFF_LINES_PER_FILE = 160
REPORT_RECORD_CAP = 12
PROBE_CAP = 5


@dataclass
class StepChanges:
    """The files one commit changed and the unified diff of each changed surface file."""

    paths: set[str] = field(default_factory=set)
    diffs: dict[str, list[str]] = field(default_factory=dict)

    def text(self, step: int) -> str:
        """The surface diffs, Python artifacts first, each capped at DIFF_LINES_PER_FILE lines."""
        order = [s.path for s in SURFACES]
        lines: list[str] = []
        for path in sorted(self.diffs, key=lambda p: order.index(p) if p in order else len(order)):
            chunk = self.diffs[path]
            lines += chunk[:DIFF_LINES_PER_FILE]
            if len(chunk) > DIFF_LINES_PER_FILE:
                lines.append(f"... {len(chunk) - DIFF_LINES_PER_FILE} more lines of {path}: "
                             f"dreamteam show RUN_DIR {step} --surface {_surface_name(path)}")
        return "\n".join(lines)


def read_workspace_steps(root: Path) -> dict[int, dict[str, Any]]:
    """Step number -> what the workspace recorded for that step (see the module docstring)."""
    with Workspace.open(root) as ws:
        messages = dict(read_log(ws.repo, ws.head_sha))
        changes = surface_changes(ws)
        predictions = {int(p["step"]): p for p in read_predictions(ws) if "step" in p}
        tags = commit_tags(ws)
        current: dict[str, Any] = {name: _json_surface(ws, name, "seed") for name in JSON_SURFACES}
        steps: dict[int, dict[str, Any]] = {}
        for entry in ws.log():
            changed = changes.get(entry.sha, StepChanges())
            for name, path in JSON_SURFACES.items():
                if path in changed.paths:
                    current[name] = _json_surface(ws, name, entry.step)
            info = parse_body(messages.get(entry.sha, ""))
            info.update(sha=entry.sha[:10], subject=entry.subject, level=entry.level, action=entry.action,
                        prediction=entry.prediction, wrong_cells=entry.wrong_cells, tags=tags.get(entry.sha, []),
                        diff=changed.text(entry.step), predicted=None, observed=None)
            line = predictions.get(entry.step)
            if line is not None:
                info.update(predicted=line.get("predicted"), observed=line.get("observed"))
            info["decision"] = _decision(current["leadership"], entry.step)
            info["probes"] = _probes(current["probes"])
            info["critique"] = {"flags": list(current["critique"].get("flags") or []),
                                "feedback": dict(current["critique"].get("feedback") or {})}
            if REPLAY_REPORT in changed.paths:
                info["replay_report"] = _report(ws, entry.step)
            steps[entry.step] = info
    return steps


def parse_body(message: str) -> dict[str, Any]:
    """The diff summary, patches (surface, role, verdict, reason, replay), notes and tactic-score lines of a
    step message."""
    out: dict[str, Any] = {"diff_summary": "", "patches": [], "notes": [], "scores": []}
    for paragraph in message.strip().split("\n\n")[1:]:
        if paragraph.startswith("diff: "):
            out["diff_summary"] = paragraph[len("diff: "):].strip()
        elif paragraph.startswith("patches:"):
            for line in paragraph.splitlines()[1:]:
                match = PATCH_LINE.match(line.strip())
                if match:
                    out["patches"].append({k: v or "" for k, v in match.groupdict().items()})
        elif paragraph.startswith("notes:"):
            out["notes"] = [line.strip()[2:] for line in paragraph.splitlines()[1:] if line.strip().startswith("- ")]
        elif paragraph.startswith("scores:"):
            out["scores"] = [line.strip()[2:] for line in paragraph.splitlines()[1:] if line.strip().startswith("- ")]
    return out


def surface_changes(ws: Workspace) -> dict[str, StepChanges]:
    """Commit sha -> the unified diff of its surface files (one `git log -p` over the whole history)."""
    surface_paths = sorted(s.path for s in SURFACES)
    out = ws.repo.git.log("--first-parent", "--reverse", "-p", "--no-color", "--no-ext-diff", "--format=%x1e%H",
                          ws.head_sha, "--", *surface_paths, REPLAY_REPORT)
    result: dict[str, StepChanges] = {}
    for record in str(out).split("\x1e")[1:]:
        sha, _, body = record.partition("\n")
        changes = result.setdefault(sha.strip(), StepChanges())
        chunk: list[str] | None = None
        for line in body.splitlines():
            if line.startswith("diff --git a/"):
                path = line.split(" b/", 1)[-1]
                changes.paths.add(path)
                chunk = changes.diffs.setdefault(path, []) if path in surface_paths else None
            if chunk is not None:
                chunk.append(line)
    return result


def read_predictions(ws: Workspace) -> list[dict[str, Any]]:
    """Every prediction line: the working-tree view, else the tracked bucket files at the latest commit."""
    rows = ws.predictions()
    if rows:
        return rows
    bucket, found = 0, list[dict[str, Any]]()
    while True:
        try:
            text = ws.read_file(f"{PREDICTION_BUCKETS_DIR}/{bucket:03d}.jsonl").decode("utf-8")
        except WorkspaceError:  # no more buckets (or none at all)
            return found
        found += [json.loads(line) for line in text.splitlines() if line.strip()]
        bucket += 1


def commit_tags(ws: Workspace) -> dict[str, list[str]]:
    """Commit sha -> the tags on it (seed, level-N-start, level-N-solved)."""
    tags: dict[str, list[str]] = {}
    for tag in ws.repo.tags:
        tags.setdefault(tag.commit.hexsha, []).append(tag.name)
    return {sha: sorted(names) for sha, names in tags.items()}


def _json_surface(ws: Workspace, name: str, at: int | str) -> dict[str, Any]:
    try:
        data = json.loads(ws.read_surface(name, at))
    except (ValueError, WorkspaceError):
        return {}
    return data if isinstance(data, dict) else {}


def _decision(leader: dict[str, Any], step: int) -> dict[str, Any] | None:
    decisions = [d for d in leader.get("decisions") or [] if isinstance(d, dict) and int(d.get("step", -1)) <= step]
    if not decisions:
        return None
    latest = decisions[-1]
    return {**latest, "current": int(latest.get("step", -1)) == step}


def _probes(probes: dict[str, Any]) -> dict[str, Any]:
    items = [p for p in probes.get("probes") or [] if isinstance(p, dict)]
    return {"total": len(items), "first": items[:PROBE_CAP]}


def _report(ws: Workspace, step: int) -> dict[str, Any]:
    try:
        report = json.loads(ws.read_file(REPLAY_REPORT, step))
    except (ValueError, WorkspaceError):
        return {"summary": "unreadable replay report"}
    records = [r for r in report.get("records") or [] if isinstance(r, dict) and r.get("kind") != "unchanged_right"]
    return {"surface": report.get("surface", ""), "summary": report.get("summary", ""),
            "records": records[:REPORT_RECORD_CAP], "more": max(0, len(records) - REPORT_RECORD_CAP)}


def _surface_name(path: str) -> str:
    return next((s.name for s in SURFACES if s.path == path), path)
