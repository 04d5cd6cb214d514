#!/usr/bin/env python3
"""Time frame segmentation and explorer steps; print a summary and write bench-results/perception.json.

.venv/bin/python scripts/bench_perception.py            # default sizes
.venv/bin/python scripts/bench_perception.py --frames 500 --steps 3000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dreamteam.agents.explorer import ExplorerAgent  # noqa: E402
from dreamteam.perception import detect_hud, detect_scale, masked_hash, segment  # noqa: E402
from tests.agents.gridworlds import CORRIDOR_MAZE, LampPuzzle, MazeWorld, play  # noqa: E402


def maze_frame(rng: np.random.Generator) -> np.ndarray:
    """A 16x16 logical maze at 4 pixels per cell with a player and a goal."""
    cells = np.full((16, 16), 5, dtype=np.int8)
    cells[rng.random((16, 16)) < 0.3] = 3
    cells[2, 3], cells[12, 12] = 9, 11
    return np.repeat(np.repeat(cells, 4, axis=0), 4, axis=1)


def blob_frame(rng: np.random.Generator) -> np.ndarray:
    """Thirty random rectangles of random colours on a black frame."""
    grid = np.zeros((64, 64), dtype=np.int8)
    for _ in range(30):
        y, x = rng.integers(0, 60, 2)
        h, w = rng.integers(1, 9, 2)
        grid[y : y + h, x : x + w] = rng.integers(1, 16)
    return grid


def noise_frame(rng: np.random.Generator) -> np.ndarray:
    """Uniform noise: the worst case (thousands of one-cell components)."""
    return rng.integers(0, 16, (64, 64)).astype(np.int8)


def ms_per_call(fn: Callable[[np.ndarray], object], frames: list[np.ndarray], repeat: int = 3) -> float:
    """Best-of-`repeat` mean wall time per frame, in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for frame in frames:
            fn(frame)
        best = min(best, (time.perf_counter() - start) / len(frames))
    return round(best * 1000, 4)


def bench_frames(count: int) -> dict[str, Any]:
    """Per-frame cost of segmentation, scale detection and the masked hash on three kinds of frame."""
    rng = np.random.default_rng(0)
    out: dict[str, Any] = {}
    for name, make in (("maze", maze_frame), ("blobs", blob_frame), ("noise", noise_frame)):
        frames = [make(rng) for _ in range(count)]
        out[name] = {
            "components_mean": round(float(np.mean([len(segment(f).components) for f in frames[:50]])), 1),
            "segment_ms": ms_per_call(segment, frames),
            "detect_scale_ms": ms_per_call(detect_scale, frames),
            "masked_hash_ms": ms_per_call(masked_hash, frames),
        }
    return out


def bench_hud() -> dict[str, Any]:
    """Cost of one HUD detection over a 64-step window of the budget maze."""
    env = MazeWorld([CORRIDOR_MAZE], budget=64)
    history, _ = play(env, ExplorerAgent(0), 64)
    frames = [step.obs.grid for step in history]
    actions = [step.action.id for step in history[:-1]]
    start = time.perf_counter()
    mask = detect_hud(frames, actions)
    return {
        "window": len(frames),
        "detect_hud_ms": round((time.perf_counter() - start) * 1000, 3),
        "masked_cells": int(mask.sum()),
    }


def bench_explorer(steps: int) -> dict[str, Any]:
    """Mean agent time per explorer step on the synthetic maze (with a move budget) and click puzzle."""
    out: dict[str, Any] = {}
    for name, env in (("budget_maze", MazeWorld([CORRIDOR_MAZE], budget=40)), ("lamp_puzzle", LampPuzzle())):
        agent = ExplorerAgent(0)
        start = time.perf_counter()
        history, last = play(env, agent, steps)
        elapsed = time.perf_counter() - start
        out[name] = {
            "steps": len(history),
            "state": last.state,
            "ms_per_step": round(elapsed * 1000 / max(1, len(history)), 4),
            "states_in_graph": len(agent.memory.graph),
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200, help="frames per kind for the per-frame timings")
    parser.add_argument("--steps", type=int, default=2000, help="action budget per explorer run")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results" / "perception.json")
    args = parser.parse_args()
    results = {
        "frames": bench_frames(args.frames),
        "hud": bench_hud(),
        "explorer": bench_explorer(args.steps),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    for kind, row in results["frames"].items():
        print(f"segment {kind:6s} {row['segment_ms']:8.3f} ms/frame  ({row['components_mean']} components)")
    print(f"detect_hud over {results['hud']['window']} frames: {results['hud']['detect_hud_ms']} ms")
    for name, row in results["explorer"].items():
        print(
            f"explorer {name:12s} {row['ms_per_step']:8.3f} ms/step  ({row['steps']} steps, {row['state']})"
        )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
