#!/usr/bin/env python
"""Benchmark the sandbox: replay throughput, worker restart time and call round-trip latency.

Prints a table and writes JSON (default bench-results/sandbox.json). Run from the repository root:
    .venv/bin/python scripts/bench_sandbox.py [--out PATH] [--transitions 200] [--repeats 7]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dreamteam.sandbox import Sandbox, demo

COMPANIONS = {"observable.py": demo.OBSERVABLE}


def replay_rate(sandbox: Sandbox, transitions: list[dict[str, Any]], repeats: int, *, warm: bool) -> dict[str, Any]:
    """Median (and best) transitions/second replaying DYNAMICS (old) against DYNAMICS_NO_WALLS (new)."""
    rates, worker_rates = [], []
    for i in range(repeats):
        if not warm:
            sandbox.forget_verdicts()
        elif i == 0:
            sandbox.replay(demo.DYNAMICS, demo.DYNAMICS_STATIC, transitions, companions=COMPANIONS)
        report = sandbox.replay(demo.DYNAMICS, demo.DYNAMICS_NO_WALLS, transitions, companions=COMPANIONS)
        assert report.aborted is None and report.broken > 0, report.summary()
        rates.append(report.per_second)
        worker_rates.append(len(report.records) / report.worker_seconds)
    return {
        "transitions_per_s": round(statistics.median(rates)),
        "best_transitions_per_s": round(max(rates)),
        "worker_only_per_s": round(statistics.median(worker_rates)),
    }


def restart_ms(sandbox: Sandbox, repeats: int) -> dict[str, float]:
    """Median time from SIGKILL of the worker to the answer of the next call (spare promoted, artifacts reloaded)."""
    sandbox.load("observable", demo.OBSERVABLE)
    times = []
    for _ in range(repeats):
        sandbox.start(wait_for_spare=True)
        pid = sandbox.worker_pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
        start = time.perf_counter()
        result = sandbox.call("observable", "render", [{"background": 0, "walls": [], "player": None, "bar": 0}])
        times.append((time.perf_counter() - start) * 1000)
        assert result.ok, result.reason
    return {"median_ms": round(statistics.median(times), 2)}


def cold_start_ms(repeats: int) -> float:
    """Median time to start a worker with no spare and get its first answer."""
    times = []
    for _ in range(repeats):
        with Sandbox(warm_spare=False) as sandbox:
            start = time.perf_counter()
            sandbox.start()
            times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 1)


def call_latency_ms(sandbox: Sandbox, calls: int) -> float:
    """Median round trip of a trivial call."""
    sandbox.load("echo", "def echo(x):\n    return x\n")
    times = []
    for i in range(calls):
        start = time.perf_counter()
        result = sandbox.call("echo", "echo", [i])
        times.append((time.perf_counter() - start) * 1000)
        assert result.value == i
    return round(statistics.median(times), 3)


def step_commit_ms(steps: int, window: int) -> dict[str, Any]:
    """Median and p95 ms per workspace step commit, with a `window`-transition regression set (see
    scripts/bench_workspace.py for the full workspace benchmark and the plain-git comparison)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_workspace import bench_dreamteam, summary

    with tempfile.TemporaryDirectory() as tmp:
        totals, commits = bench_dreamteam(Path(tmp) / "ws", steps, window, surface_every=5)
    return {"steps": steps, "whole_step": summary(totals), "commit_step_only": summary(commits)}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the numbers and write them as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bench-results/sandbox.json")
    parser.add_argument("--transitions", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--commit-steps", type=int, default=300, help="step commits to time (workspace)")
    args = parser.parse_args(argv)
    transitions = demo.transitions(args.transitions)
    results: dict[str, Any] = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
                    "load_average_at_start": [round(v, 2) for v in os.getloadavg()]},
        "regression_set": len(transitions),
    }
    with Sandbox(parallel_replay=False) as single:
        single.start()
        results["replay_cold_one_worker"] = replay_rate(single, transitions, args.repeats, warm=False)
    with Sandbox() as sandbox:
        sandbox.start(wait_for_spare=True)
        results["replay_cold"] = replay_rate(sandbox, transitions, args.repeats, warm=False)
        results["replay_warm"] = replay_rate(sandbox, transitions, args.repeats, warm=True)
        results["call_round_trip_median_ms"] = call_latency_ms(sandbox, 300)
        results["restart_with_spare"] = restart_ms(sandbox, args.repeats)
    results["cold_start_median_ms"] = cold_start_ms(max(3, args.repeats // 2))
    results["step_commit"] = step_commit_ms(args.commit_steps, len(transitions))
    results["machine"]["load_average_at_end"] = [round(v, 2) for v in os.getloadavg()]
    print(json.dumps(results, indent=2))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
