#!/usr/bin/env python3
"""Play strength: levels, actions per completed level against baseline, and score for several agents, on the
bundled games and on held-out procedural variants, at several budgets.

Usage: .venv/bin/python scripts/bench_strength.py [--agents team,explorer,random] [--budgets 1000,3000]
           [--heldout-seeds 2000] [--jobs 2] [--out bench-results/strength.json] [--md bench-results/strength.md]
Held-out variants are generated into a temporary directory (one per family and seed; seeds 2000 and up were
never used in development, see docs/procgen.md) and played with `dreamteam bench --env-dir`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dreamteam.cli import main as cli  # noqa: E402
from dreamteam.env.procgen import family_names, write_variant  # noqa: E402

SUITE_SIZES = {"heldout": "standard", "heldout-large": "large"}
"""Procedural suites and the size profile of the variants each generates."""


def parse_seeds(text: str) -> list[int]:
    """'2000-2002,2010' -> [2000, 2001, 2002, 2010]."""
    seeds: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        lo, _, hi = part.partition("-")
        seeds += list(range(int(lo), int(hi or lo) + 1))
    return seeds


def run_bench(agent: str, budget: int, jobs: int, env_dir: Path | None, out: Path) -> dict[str, Any]:
    """One `dreamteam bench` invocation; returns its JSON."""
    args = ["bench", "--agent", agent, "--budget", str(budget), "--jobs", str(jobs), "--out", str(out)]
    if env_dir is not None:
        args += ["--env-dir", str(env_dir)]
    with contextlib.redirect_stdout(io.StringIO()):
        code = cli(args)
    if code != 0:
        raise SystemExit(f"dreamteam bench failed ({code}) for {agent} at {budget}")
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def efficiency(results: dict[str, Any]) -> float | None:
    """Actions spent on completed levels divided by their baselines (1.0 = baseline)."""
    spent = base = 0
    for game in results["games"]:
        for i in range(game["levels_completed"]):
            if i < len(game["level_actions"]) and i < len(game.get("level_baseline_actions", [])):
                spent += game["level_actions"][i]
                base += game["level_baseline_actions"][i]
    return round(spent / base, 2) if base else None


def row(suite: str, agent: str, budget: int, results: dict[str, Any]) -> dict[str, Any]:
    """One table row."""
    t = results["total"]
    return {"suite": suite, "agent": agent, "budget": budget, "games": t["games"],
            "levels_completed": t["levels_completed"], "levels_total": t["levels_total"],
            "levels_pct": round(100 * t["levels_completed"] / max(1, t["levels_total"]), 1),
            "actions_per_level_vs_baseline": efficiency(results), "score": round(t["score"], 2),
            "wall_s": t["wall_s"]}


def markdown(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table."""
    head = "| suite | agent | budget | levels | % | actions / baseline (completed levels) | score | wall s |\n"
    head += "|---|---|---:|---:|---:|---:|---:|---:|\n"
    lines = [f"| {r['suite']} | {r['agent']} | {r['budget']} | {r['levels_completed']}/{r['levels_total']} | "
             f"{r['levels_pct']} | {r['actions_per_level_vs_baseline']} | {r['score']} | {r['wall_s']:.0f} |"
             for r in rows]
    return head + "\n".join(lines) + "\n"


def main() -> int:
    """Run every (suite, agent, budget) combination, print and write the results."""
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()),
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--agents", default="team,explorer,random", help="comma-separated agents to measure")
    parser.add_argument("--budgets", default="1000,3000", help="comma-separated action budgets per game")
    parser.add_argument("--heldout-seeds", default="2000",
                        help="procedural seeds per family (e.g. 2000-2002); pick a range never used before, "
                             "docs/procgen.md keeps the list of used ones")
    parser.add_argument("--suites", default="bundled,heldout",
                        help="comma-separated: 'bundled' (games/), 'heldout' (fresh standard procedural variants) "
                             "and/or 'heldout-large' (fresh large variants, docs/procgen.md)")
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel")
    parser.add_argument("--out", default="bench-results/strength.json",
                        help="JSON with every row and each run's per-game results")
    parser.add_argument("--md", default="bench-results/strength.md", help="the rows as a Markdown table")
    args = parser.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    raw: dict[str, Any] = {}
    suites = [s.strip() for s in args.suites.split(",") if s.strip()]
    unknown = [s for s in suites if s != "bundled" and s not in SUITE_SIZES]
    if unknown:
        parser.error(f"unknown suite {', '.join(unknown)} (known: bundled, {', '.join(SUITE_SIZES)})")
    with tempfile.TemporaryDirectory(prefix="dreamteam-heldout-") as tmp:
        seeds = parse_seeds(args.heldout_seeds)
        dirs: dict[str, Path | None] = {"bundled": None}
        for suite in suites:
            if suite in SUITE_SIZES:
                dirs[suite] = Path(tmp) / suite
                for family in family_names():
                    for seed in seeds:
                        write_variant(family, seed, dirs[suite], SUITE_SIZES[suite])
                        print(f"generated {family} seed {seed} ({SUITE_SIZES[suite]})", file=sys.stderr, flush=True)
        for suite in suites:
            for budget in (int(b) for b in args.budgets.split(",")):
                for agent in args.agents.split(","):
                    start = time.perf_counter()
                    results = run_bench(agent, budget, args.jobs, dirs[suite],
                                        out.with_suffix(f".{suite}.{agent}.{budget}.json"))
                    raw[f"{suite}/{agent}/{budget}"] = results
                    rows.append(row(suite, agent, budget, results))
                    print(f"{suite:13} {agent:9} {budget:5}: {rows[-1]['levels_completed']}/{rows[-1]['levels_total']} "
                          f"levels, score {rows[-1]['score']} ({time.perf_counter() - start:.0f} s)", flush=True)
    payload = {"heldout_seeds": seeds, "rows": rows, "runs": raw}
    out.write_text(json.dumps(payload, indent=2) + "\n")
    Path(args.md).write_text(markdown(rows))
    print(markdown(rows))
    print(f"written to {out} and {args.md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
