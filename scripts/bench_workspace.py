#!/usr/bin/env python
"""Benchmark workspace step commits: median / p95 ms per step and repository size, written as JSON.

Each step does what the harness does: add a transition (64x64 game-like frames), append a
prediction line, replace the replay report (200 entries), rewrite a surface every few steps, and
commit. `--compare` also times the same steps committed with `git add -A && git commit`, with
the same layout and with the whole regression window tracked in git (the rejected alternatives).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dreamteam.codec import encode_grid, grid_hash, transition_to_line, transition_to_pretty  # noqa: E402
from dreamteam.workspace import (  # noqa: E402
    PatchOutcome,
    PredictionRecord,
    StepRecord,
    Workspace,
    commit_message,
    seed_path,
)
from dreamteam.workspace import evidence as ev  # noqa: E402
from dreamteam.workspace.regression import RegressionWindow  # noqa: E402
from dreamteam.workspace.repository import GIT_ENV  # noqa: E402


def game_frames(steps: int, seed: int = 0) -> Iterator[np.ndarray]:
    """Frames of a small maze-like game: walls, a moving 4x4 player, a goal and a step-counter HUD."""
    rng = np.random.default_rng(seed)
    base = np.zeros((64, 64), dtype=np.int8)
    base[:, :2] = base[:, -2:] = base[:2, :] = base[-6:, :] = 5
    for _ in range(12):
        x, y, w, h = rng.integers(4, 50), rng.integers(4, 48), rng.integers(2, 12), rng.integers(2, 12)
        base[y : y + h, x : x + w] = rng.integers(1, 10)
    px, py = 8, 8
    for step in range(steps + 1):
        frame = base.copy()
        frame[py : py + 4, px : px + 4] = 12
        frame[-4:-2, 2 : 2 + (step % 60)] = 11
        yield frame
        px = int(np.clip(px + rng.integers(-2, 3), 2, 56))
        py = int(np.clip(py + rng.integers(-2, 3), 2, 52))


def report(step: int, window: int) -> dict[str, Any]:
    """A replay report as big as a real one over a full window."""
    rows = [{"step": s, "old": "miss", "new": "hit", "verdict": "fixed"} for s in range(max(0, step - window), step)]
    return {"surface": "dynamics", "fixed": len(rows), "broken": 0, "still_wrong": 0, "transitions": rows}


def step_inputs(steps: int, window: int) -> Iterator[tuple[int, dict[str, Any], dict[str, Any]]]:
    """(step, transition, replay report) for every step of the benchmark run."""
    frames = game_frames(steps)
    before = next(frames)
    for step, after in enumerate(frames):
        transition = {
            "step": step, "level": step // 100, "action": {"action": f"ACTION{1 + step % 4}"},
            "before": encode_grid(before), "after": encode_grid(after), "frames": 1,
            "history": {"moves": step}, "level_up": step % 100 == 99, "game_over": False,
        }
        yield step, transition, report(step, window)
        before = after


def dynamics_text(step: int) -> str:
    """A dynamics artifact that changes every time it is written."""
    return f'HYPOTHESES = [{{"name": "h{step}", "description": "revision {step}", "evidence": {step}}}]\n\n' \
        "def predict(z, h, a):\n    return z\n\n\ndef history(z, h, a):\n    return h\n"


def record_for(step: int, patched: bool) -> StepRecord:
    """The step record of benchmark step `step`."""
    patches = (PatchOutcome("dynamics", "Simulator", True, "no regression", "fixed 3, broke 0"),) if patched else ()
    return StepRecord(step, step // 100, f"ACTION{1 + step % 4}", hit=step % 3 != 0,
                      wrong_cells=0 if step % 3 else 16, diff_summary="player moved", patches=patches)


def bench_dreamteam(root: Path, steps: int, window: int, surface_every: int) -> tuple[list[float], list[float]]:
    """Our writer: returns per-step ms of the whole step write path and of commit_step alone."""
    ws = Workspace.create(root, seed_path("default"), window_size=window)
    totals, commits = [], []
    for step, transition, rep in step_inputs(steps, window):
        start = time.perf_counter()
        ws.add_transition(transition)
        ws.add_prediction(PredictionRecord(step, "ACTION1", grid_hash(np.zeros((64, 64), dtype=np.int8)),
                                           grid_hash(np.ones((64, 64), dtype=np.int8)), step % 3 != 0, 0))
        ws.write_replay_report(rep)
        patched = step % surface_every == 0
        if patched:
            ws.write_surface("dynamics", dynamics_text(step))
        mid = time.perf_counter()
        ws.commit_step(record_for(step, patched))
        end = time.perf_counter()
        totals.append((end - start) * 1000)
        commits.append((end - mid) * 1000)
    ws.close()
    return totals, commits


def bench_git_cli(root: Path, steps: int, window: int, surface_every: int, track_window: bool) -> list[float]:
    """The alternatives: the same files committed by `git add -A && git commit` per step."""
    shutil.copytree(seed_path("default"), root)
    env = {**os.environ, **GIT_ENV}
    git: Callable[..., Any] = lambda *a, **k: subprocess.run(["git", *a], cwd=root, env=env, check=True,  # noqa: E731
                                                               capture_output=True, **k)
    git("init", "-q", "--initial-branch=main")
    git("add", "-A")
    git("commit", "-q", "-m", "seed")
    win = RegressionWindow(window)
    times = []
    for step, transition, rep in step_inputs(steps, window):
        start = time.perf_counter()
        win.add(transition)
        path = root / ev.transition_path(step)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(transition_to_pretty(transition))
        (root / ev.WINDOW).write_text(json.dumps(win.manifest(), indent=2))
        if track_window:
            (root / ev.REGRESSION).write_text("\n".join(transition_to_line(t) for t in win.transitions()) + "\n")
        with open(root / ev.PREDICTIONS, "a") as handle:
            handle.write(json.dumps({"step": step, "hit": step % 3 != 0}) + "\n")
        (root / ev.REPLAY_REPORT).write_text(json.dumps(rep, indent=2))
        if step % surface_every == 0:
            (root / "dynamics.py").write_text(dynamics_text(step))
        git("add", "-A")
        git("commit", "-q", "--allow-empty", "-F", "-", input=commit_message(record_for(step, False)).encode())
        times.append((time.perf_counter() - start) * 1000)
    return times


def repo_size(root: Path) -> dict[str, int]:
    """Bytes on disk of .git and the object count (loose and packed)."""
    git_dir = root / ".git"
    disk = sum(p.stat().st_size for p in git_dir.rglob("*") if p.is_file())
    out = subprocess.run(["git", "count-objects", "-v"], cwd=root, capture_output=True, text=True,
                         env={**os.environ, **GIT_ENV}, check=True).stdout
    counts = dict(line.split(": ") for line in out.strip().splitlines())
    return {"git_dir_bytes": disk, "loose_objects": int(counts["count"]), "loose_kib": int(counts["size"])}


def summary(times: list[float]) -> dict[str, float]:
    """Median, p95 and max of a list of milliseconds."""
    ordered = sorted(times)
    return {"median_ms": round(statistics.median(ordered), 3),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 3), "max_ms": round(ordered[-1], 3)}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print / write its JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--window", type=int, default=200)
    parser.add_argument("--surface-every", type=int, default=5, help="rewrite dynamics.py every N steps")
    parser.add_argument("--compare", action="store_true", help="also time the git-CLI alternatives")
    parser.add_argument("--out", type=Path, default=Path("bench-results/workspace.json"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="dreamteam-bench-") as tmp:
        base = Path(tmp)
        totals, commits = bench_dreamteam(base / "dreamteam", args.steps, args.window, args.surface_every)
        result: dict[str, Any] = {
            "steps": args.steps, "window": args.window, "surface_every": args.surface_every,
            "step_write_and_commit": summary(totals), "commit_step_only": summary(commits),
            "repo": repo_size(base / "dreamteam"),
        }
        if args.compare:
            for name, track in (("git_cli_same_layout", False), ("git_cli_tracked_window", True)):
                times = bench_git_cli(base / name, args.steps, args.window, args.surface_every, track)
                result[name] = {**summary(times), "repo": repo_size(base / name)}
    text = json.dumps(result, indent=2)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
