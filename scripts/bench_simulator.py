#!/usr/bin/env python3
"""Benchmark the symbolic Simulator's learning on recorded windows: the regression window and dynamics.py of
a run's workspace at some steps, learned from again (rules, the generated source, the judging of the
candidate and of the current dynamics), cold (fresh caches, as after a resume) and warm (the caches a
Simulator that saw the previous steps has). The same windows give the same work, so two versions of the code
can be compared without the noise of a live game, whose trajectory (and so its windows) differs run to run.

    scripts/bench_simulator.py replays/RUN [RUN...] [--steps 50,100,last] [--repeat 3] [--out F.json]

Prints per run and step the window's size and logical cells, and median milliseconds cold and warm.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parents[1]))  # after PYTHONPATH: another checkout can be timed

from dreamteam.protocols import RoleRequest  # noqa: E402
from dreamteam.workspace import Workspace  # noqa: E402
from dreamteam.workspace.surfaces import surface  # noqa: E402

try:
    from dreamteam.backends.symbolic.worldmodel.simulator import SimulatorAnswerer
except ImportError:  # a checkout from before the symbolic backend moved (to compare versions: PYTHONPATH=OLD)
    from dreamteam.roles.symbolic.simulator import SimulatorAnswerer  # type: ignore[no-redef]


def windows(run: Path, steps: list[str]) -> list[tuple[int, list[dict[str, Any]], str]]:
    """(step, regression window, dynamics.py) at each requested step of a run's workspace."""
    ws = Workspace.open(run / "workspace")
    log = ws.log()
    if not log:
        raise SystemExit(f"error: {run} has no committed steps")
    last = log[-1].step
    out = []
    for text in steps:
        step = last if text == "last" else min(int(text), last)
        window = ws.regression_at(step)
        source = ws.read_file(surface("dynamics").path, step).decode()
        out.append((step, window, source))
    return out


def learn_ms(answerer: SimulatorAnswerer, window: list[dict[str, Any]], source: str) -> tuple[float, str]:
    """Milliseconds of one learning over `window` (the back-off is cleared first), and its first note line."""
    answerer.interval, answerer.learned_at = 1, -1
    request = RoleRequest("simulator", "maintain", source, {"transitions": window, "counterexamples": []}, {})
    began = time.perf_counter()
    reply = answerer.answer(request)
    return (time.perf_counter() - began) * 1000, str(reply.get("notes", "")).split("\n")[0]


def main() -> int:
    """Time the learning on every run's windows and print a table."""
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()),
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("runs", nargs="+", type=Path, help="run directories (dreamteam play --out)")
    parser.add_argument("--steps", default="50,100,last", help="comma-separated steps (or 'last')")
    parser.add_argument("--repeat", type=int, default=3, help="timings per window (median)")
    parser.add_argument("--out", type=Path, default=Path("bench-results/simulator.json"))
    args = parser.parse_args()
    rows = []
    print(f"{'run':40s} {'step':>5s} {'window':>6s} {'cells':>9s} {'cold ms':>8s} {'warm ms':>8s}  outcome")
    for run in args.runs:
        for step, window, source in windows(run, [s.strip() for s in args.steps.split(",") if s.strip()]):
            cold = [learn_ms(SimulatorAnswerer(), window, source)[0] for _ in range(args.repeat)]
            warmed = SimulatorAnswerer()
            learn_ms(warmed, window[:-1], source)  # the caches of a Simulator that learned one step earlier
            warm, note = zip(*(learn_ms(warmed, window, source) for _ in range(args.repeat)), strict=True)
            cells = sum(len(t["before"]) * len(t["before"][0]) for t in window if t.get("before"))
            row = {"run": str(run), "step": step, "window": len(window), "display_cells": cells,
                   "cold_ms": round(statistics.median(cold), 1), "warm_ms": round(statistics.median(warm), 1),
                   "outcome": note[0]}
            rows.append(row)
            print(f"{run.name[-40:]:40s} {step:5d} {len(window):6d} {cells:9d} {row['cold_ms']:8.1f} "
                  f"{row['warm_ms']:8.1f}  {note[0][:60]}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"rows": rows}, indent=2) + "\n")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
