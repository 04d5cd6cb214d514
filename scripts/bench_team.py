#!/usr/bin/env python3
"""Benchmark the team: per-step harness overhead with the symbolic backend, split by graph node.

Usage: .venv/bin/python scripts/bench_team.py [--budget 150] [--games maze,push] [--repeat 1]
           [--env-dir DIR [--sample one-per-family]] [--out bench-results/team.json]
Overhead per step = time in the team's act() (graph, role models, sandbox, workspace commit) per action;
the game's own env.step time is excluded. "cpu p95" is the CPU time of a step (this process plus its sandbox
workers, read from /proc on Linux): on a shared machine it drifts much less than the wall time. "slow" counts the steps that asked the roles (not the fast path);
"graph ms" is the mean time per step outside the nodes (LangGraph and its checkpointer). Levels are reported too. Compare agents on the whole benchmark with
`dreamteam bench --agent team|explorer|random` (see docs/benchmarks.md).

Timings on shared machines drift by up to 2x between runs and days: `--repeat N` plays each game N times
and reports the median of the per-run medians, and "reference ms" (a fixed pure-Python workload timed
before the games) tells how fast the machine was, so numbers from different days can be compared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dreamteam.env.catalog import Catalog, env_dirs_from  # noqa: E402
from dreamteam.env.devset import one_per_family, share  # noqa: E402
from dreamteam.env.session import Arena  # noqa: E402
from dreamteam.runner import play  # noqa: E402
from dreamteam.team.agent import TeamAgent  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _workers_cpu_s(agent: TeamAgent) -> dict[int, float]:
    """CPU seconds (user + system) each sandbox worker of the agent has used so far (Linux /proc; {} elsewhere)."""
    sandbox = agent.logic.world.sandbox if agent.logic is not None else None
    out = {}
    for worker in list(getattr(sandbox, "_pool", [])):
        try:
            fields = Path(f"/proc/{worker.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        out[worker.pid] = (int(fields[11]) + int(fields[12])) / _TICKS
    return out


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def bench_game(arena: Arena, game_id: str, budget: int) -> dict[str, Any]:
    """Play one game with the symbolic team and return per-step and per-node timings (ms)."""
    agent = TeamAgent(seed=0)
    session = arena.open(game_id, arena.new_scorecard())
    per_step: list[float] = []
    cpu_step: list[float] = []
    original = agent.act

    def timed_act(obs: Any) -> Any:
        workers = _workers_cpu_s(agent)
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return original(obs)
        finally:
            per_step.append((time.perf_counter() - start) * 1000)
            spent = time.process_time() - cpu + sum(s - workers.get(pid, 0.0) for pid, s in _workers_cpu_s(agent).items())
            cpu_step.append(spent * 1000)

    agent.act = timed_act  # type: ignore[method-assign]
    result = play(session, agent, budget)
    node_total = sum(sum(v) for v in agent.node_timings.values()) * 1000
    nodes = {name: {"calls": len(v), "median_ms": 1000 * statistics.median(v), "p95_ms": 1000 * _pct(v, 0.95)}
             for name, v in agent.node_timings.items()}
    return {"actions": result.actions, "levels_completed": result.levels_completed,
            "levels_total": result.levels_total, "step_median_ms": statistics.median(per_step or [0.0]),
            "step_p95_ms": _pct(per_step, 0.95), "steps_ms": [round(x, 2) for x in per_step],
            "cpu_median_ms": statistics.median(cpu_step or [0.0]), "cpu_p95_ms": _pct(cpu_step, 0.95),
            "cpu_steps_ms": [round(x, 2) for x in cpu_step],
            "graph_overhead_ms": (sum(per_step) - node_total) / max(1, len(per_step)),
            "slow_path_steps": len(agent.node_timings.get("leader", [])), "env_step_median_ms": statistics.median(session.timing.per_step_ms or [0.0]),
            "nodes": nodes}


def reference_ms() -> float:
    """Best of five timings of a fixed pure-Python workload (dict, list and integer work, like the harness)."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        table: dict[int, int] = {}
        for i in range(200_000):
            table[i % 997] = table.get(i % 997, 0) + i
        sorted(table.values())
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def main() -> int:
    """Run the benchmark, print and write the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=150)
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all bundled)")
    parser.add_argument("--repeat", type=int, default=1, help="play each game N times (median of medians)")
    parser.add_argument("--env-dir", default=None,
                        help="bench the games in this directory instead of the bundled ones (e.g. the dev set)")
    parser.add_argument("--sample", default="all", choices=("all", "one-per-family"),
                        help="with --env-dir: all games of the development share, or the first of each family")
    parser.add_argument("--out", default="bench-results/team.json")
    args = parser.parse_args()
    reference = reference_ms()
    print(f"reference workload: {reference:.1f} ms (lower is a faster machine)", flush=True)
    catalog = Catalog.scan([Path(args.env_dir)] if args.env_dir else env_dirs_from([]))
    arena = Arena(catalog)
    default = [i.game_id for i in catalog.infos]
    if args.env_dir:
        default = share(default, "dev")
        default = one_per_family(default) if args.sample == "one-per-family" else default
    games = [g.strip() for g in args.games.split(",") if g.strip()] or default
    rows = {}
    for g in games:
        runs = [bench_game(arena, catalog.resolve(g).game_id, args.budget) for _ in range(max(1, args.repeat))]
        medians = [r["step_median_ms"] for r in runs]
        row = sorted(runs, key=lambda r: r["step_median_ms"])[len(runs) // 2]
        rows[g] = {**row, "step_median_ms": statistics.median(medians), "run_medians_ms": medians}
    all_steps = [r["step_median_ms"] for r in rows.values()]
    pooled = [x for r in rows.values() for x in r.pop("steps_ms")]
    pooled_cpu = [x for r in rows.values() for x in r.pop("cpu_steps_ms")]
    out = {"budget": args.budget, "repeat": args.repeat, "reference_ms": reference, "games": rows,
           "median_of_game_medians_ms": statistics.median(all_steps),
           "pooled_median_ms": statistics.median(pooled), "pooled_p95_ms": _pct(pooled, 0.95),
           "pooled_cpu_median_ms": statistics.median(pooled_cpu or [0.0]), "pooled_cpu_p95_ms": _pct(pooled_cpu, 0.95)}
    print(f"{'game':10} {'levels':>7} {'median ms':>10} {'p95 ms':>8} {'cpu p95':>8} {'slow':>5} {'graph ms':>8}  "
          "slowest nodes (median ms)")
    for g, r in rows.items():
        slow = sorted(r["nodes"].items(), key=lambda kv: -kv[1]["median_ms"])[:3]
        nodes = ", ".join(f"{n} {v['median_ms']:.1f}" for n, v in slow)
        print(f"{g:10} {r['levels_completed']:>3}/{r['levels_total']:<3} {r['step_median_ms']:10.2f} "
              f"{r['step_p95_ms']:8.2f} {r['cpu_p95_ms']:8.2f} {r['slow_path_steps']:5} {r['graph_overhead_ms']:8.2f}  {nodes}"
              + (f"  (runs: {', '.join(f'{m:.1f}' for m in r['run_medians_ms'])})" if args.repeat > 1 else ""))
    print(f"median per-step overhead over games: {out['median_of_game_medians_ms']:.2f} ms; over all "
          f"{len(pooled)} steps: median {out['pooled_median_ms']:.2f} ms, p95 {out['pooled_p95_ms']:.2f} ms; CPU (this "
          f"process and its sandbox workers, steadier on a shared machine) median {out['pooled_cpu_median_ms']:.2f} ms, "
          f"p95 {out['pooled_cpu_p95_ms']:.2f} ms")
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
