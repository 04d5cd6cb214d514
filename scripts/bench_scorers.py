#!/usr/bin/env python3
"""Milliseconds per `score()` call of the learned scorers on real frames.

    .venv/bin/python scripts/bench_scorers.py --data data.npz [--latent L.eqx] [--critic C.eqx]
        [--tactics 6] [--calls 50]

Each call scores `--tactics` tactics of 1-4 actions on a frame from the dataset (after one warm-up call);
prints the median and 95th percentile, and the construction time (loading and compiling).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, type=Path)
    ap.add_argument("--latent", default=None)
    ap.add_argument("--critic", default=None)
    ap.add_argument("--tactics", type=int, default=6)
    ap.add_argument("--calls", type=int, default=50)
    args = ap.parse_args()
    from dreamteam.learn.dataset import Dataset
    from dreamteam.learn.scorers import CriticScorer, LatentScorer
    from dreamteam.types import Action, Observation, Tactic

    ds = Dataset.load(args.data)
    rng = np.random.default_rng(0)
    results = {}
    for name, cls, ckpt in (("latent", LatentScorer, args.latent), ("critic", CriticScorer, args.critic)):
        if not ckpt:
            continue
        t0 = time.perf_counter()
        scorer = cls(ckpt)
        build = time.perf_counter() - t0
        times = []
        for c in range(args.calls + 1):
            i = int(rng.integers(len(ds)))
            grid = ds.frame[i]
            obs = Observation(grid=grid, frames=(grid,), state="NOT_FINISHED", levels_completed=0, win_levels=1,
                              available_actions=(1, 2, 3, 4, 5, 6), step=c)
            tactics = []
            for k in range(args.tactics):
                acts = tuple(Action(int(a)) if a != 6 else Action(6, int(rng.integers(64)), int(rng.integers(64)))
                             for a in rng.integers(1, 7, size=int(rng.integers(1, 5))))
                tactics.append(Tactic(f"t{k}", "level_up", acts, ""))
            t0 = time.perf_counter()
            scorer.score(obs, tactics, ["level_up", "enter:colour3"], {"step": c})
            if c:
                times.append(1000 * (time.perf_counter() - t0))
        results[name] = {"build_s": round(build, 2), "median_ms": round(float(np.median(times)), 2),
                         "p95_ms": round(float(np.percentile(times, 95)), 2), "calls": len(times),
                         "tactics": args.tactics}
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
