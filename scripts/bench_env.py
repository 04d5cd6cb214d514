#!/usr/bin/env python3
"""Benchmark the game layer: median ms per env.step per bundled game, and the play loop's own overhead.

Usage: .venv/bin/python scripts/bench_env.py [--budget 300] [--out bench-results/env.json]
Overhead per step = (loop wall time - time inside env.step - time inside agent.act) / actions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dreamteam.agents import build_agent  # noqa: E402
from dreamteam.env.catalog import Catalog, env_dirs_from  # noqa: E402
from dreamteam.env.session import Arena  # noqa: E402
from dreamteam.runner import play  # noqa: E402


def bench_game(arena: Arena, game_id: str, agent_name: str, budget: int) -> dict[str, float]:
    """Play one game with one agent and return timing numbers."""
    session = arena.open(game_id, arena.new_scorecard())
    result = play(session, build_agent(agent_name, seed=0), budget)
    steps = max(1, result.actions)
    return {
        "actions": result.actions,
        "levels_completed": result.levels_completed,
        "env_step_median_ms": statistics.median(session.timing.per_step_ms or [0.0]),
        "agent_ms_per_step": 1000 * result.agent_s / steps,
        "loop_overhead_ms_per_step": 1000 * result.loop_overhead_s / steps,
    }


def main() -> int:
    """Run the benchmark and print and write the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--out", default="bench-results/env.json")
    args = parser.parse_args()
    catalog = Catalog.scan(env_dirs_from([]))
    arena = Arena(catalog)
    games = [i.game_id for i in catalog.infos]
    out: dict[str, object] = {"budget": args.budget, "games": {}}
    for agent in ("random", "explorer"):
        rows = {g: bench_game(arena, g, agent, args.budget) for g in games}
        out["games"] = {**out["games"], **{f"{g}/{agent}": r for g, r in rows.items()}}  # type: ignore[dict-item]
        overheads = [r["loop_overhead_ms_per_step"] for r in rows.values()]
        out[f"{agent}_loop_overhead_median_ms"] = statistics.median(overheads)
        out[f"{agent}_agent_ms_median"] = statistics.median(r["agent_ms_per_step"] for r in rows.values())
    print(f"{'game/agent':24} {'env.step ms':>12} {'agent ms':>9} {'overhead ms':>12} {'levels':>7}")
    for key, r in out["games"].items():  # type: ignore[attr-defined]
        print(f"{key:24} {r['env_step_median_ms']:12.3f} {r['agent_ms_per_step']:9.3f} "
              f"{r['loop_overhead_ms_per_step']:12.3f} {r['levels_completed']:7d}")
    for agent in ("random", "explorer"):
        print(f"{agent}: median loop overhead {out[f'{agent}_loop_overhead_median_ms']:.3f} ms/step")
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
