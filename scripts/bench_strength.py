#!/usr/bin/env python3
"""Play strength: levels, actions per completed level against baseline, and score for several agents, on the
bundled games and on held-out procedural variants, at several budgets.

Usage: .venv/bin/python scripts/bench_strength.py [--agents team,explorer,random] [--budgets 1000,3000]
           [--suites bundled,heldout,heldout-large,dev,env] [--heldout-seeds 2000] [--jobs 2]
           [--dev-dir ../shared/devgames/environment_files] [--share dev|heldout|all] [--sample all|one-per-family]
           [--env-dir DIR] [--game-timeout S] [--out bench-results/strength.json] [--md OUT.md]
Held-out variants are generated into a temporary directory (one per family and seed; seeds 2000 and up were
never used in development, see docs/procgen.md) and played with `dreamteam bench --env-dir`. The `dev` suite
plays the community development set (one share of its families, see dreamteam/env/devset.py) and adds tables
per tag and per family, the families where the team completes fewer levels than another agent, and the
agents' milliseconds per step.
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

from strength_report import by_family, by_tag, floor_violations, step_cost  # noqa: E402

from dreamteam.cli import main as cli  # noqa: E402
from dreamteam.env.catalog import Catalog  # noqa: E402
from dreamteam.env.devset import SHARES, one_per_family, share  # noqa: E402
from dreamteam.env.procgen import family_names, write_variant  # noqa: E402

DEV_DIR = Path(__file__).resolve().parents[2] / "shared" / "devgames" / "environment_files"
"""The community development set beside the checkout (developers' machines only; never needed by tests)."""

SUITE_SIZES = {"heldout": "standard", "heldout-large": "large"}
"""Procedural suites and the size profile of the variants each generates."""


def parse_seeds(text: str) -> list[int]:
    """'2000-2002,2010' -> [2000, 2001, 2002, 2010]."""
    seeds: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        lo, _, hi = part.partition("-")
        seeds += list(range(int(lo), int(hi or lo) + 1))
    return seeds


def run_bench(agent: str, budget: int, jobs: int, env_dir: Path | None, out: Path, games: list[str] | None = None,
              timeout: float | None = None) -> dict[str, Any]:
    """One `dreamteam bench` invocation; returns its JSON."""
    args = ["bench", "--agent", agent, "--budget", str(budget), "--jobs", str(jobs), "--out", str(out)]
    if env_dir is not None:
        args += ["--env-dir", str(env_dir)]
    if games:
        args += ["--games", ",".join(games)]
    if timeout:
        args += ["--game-timeout", str(timeout)]
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
            "wall_s": t["wall_s"], "timed_out": t.get("timed_out", 0), **step_cost(results)}


def markdown(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table."""
    head = ("| suite | agent | budget | levels | % | actions / baseline (completed levels) | score | wall s "
            "| timed out | agent ms/step (median, p95 over games) |\n")
    head += "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    lines = [f"| {r['suite']} | {r['agent']} | {r['budget']} | {r['levels_completed']}/{r['levels_total']} | "
             f"{r['levels_pct']} | {r['actions_per_level_vs_baseline']} | {r['score']} | {r['wall_s']:.0f} | "
             f"{r['timed_out']} | {r['agent_ms_median']}, {r['agent_ms_p95']} |"
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
                        help="comma-separated: 'bundled' (games/), 'heldout' (fresh standard procedural variants), "
                             "'heldout-large' (fresh large variants, docs/procgen.md), 'dev' (the community "
                             "development set, --dev-dir) and/or 'env' (the games in --env-dir)")
    parser.add_argument("--dev-dir", default=str(DEV_DIR), help="the community development set (suite 'dev')")
    parser.add_argument("--share", default="dev", choices=SHARES,
                        help="which families of the dev suite: the development share, the held-out share (every "
                             "fifth family by sorted id; read its scores only) or all")
    parser.add_argument("--sample", default="all", choices=("all", "one-per-family"),
                        help="the dev suite's games: all of the share, or the first game of each family")
    parser.add_argument("--env-dir", default=None, help="a directory of games for suite 'env'")
    parser.add_argument("--game-timeout", type=float, default=None,
                        help="seconds per game (dreamteam bench --game-timeout); none by default")
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel")
    parser.add_argument("--out", default="bench-results/strength.json",
                        help="JSON with every row and each run's per-game results")
    parser.add_argument("--md", default=None,
                        help="the rows as a Markdown table (default: the --out path with .md for .json)")
    args = parser.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    suites = [s.strip() for s in args.suites.split(",") if s.strip()]
    unknown = [s for s in suites if s not in ("bundled", "dev", "env") and s not in SUITE_SIZES]
    if unknown:
        parser.error(f"unknown suite {', '.join(unknown)} (known: bundled, dev, env, {', '.join(SUITE_SIZES)})")
    if "env" in suites and not args.env_dir:
        parser.error("suite 'env' needs --env-dir DIR")
    if "dev" in suites and not Path(args.dev_dir).is_dir():
        parser.error(f"suite 'dev' needs the development set; {args.dev_dir} is not a directory (--dev-dir)")
    seeds = parse_seeds(args.heldout_seeds)
    with tempfile.TemporaryDirectory(prefix="dreamteam-heldout-") as tmp:
        dirs, picks = suite_dirs(suites, seeds, Path(tmp), args)
        rows, raw, extra = play_suites(suites, dirs, picks, args, out)
    payload = {"heldout_seeds": seeds, "share": args.share, "sample": args.sample, "rows": rows, "runs": raw}
    out.write_text(json.dumps(payload, indent=2) + "\n")
    md = Path(args.md) if args.md else out.with_suffix(".md")
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text(markdown(rows) + extra)
    print(markdown(rows) + extra)
    print(f"written to {out} and {md}")
    return 0


def suite_dirs(suites: list[str], seeds: list[int], tmp: Path,
               args: argparse.Namespace) -> tuple[dict[str, Path | None], dict[str, list[str] | None]]:
    """Each suite's game directory (generating procedural variants) and, for the dev suite, its games."""
    dirs: dict[str, Path | None] = {"bundled": None}
    picks: dict[str, list[str] | None] = {}
    for suite in suites:
        if suite in SUITE_SIZES:
            dirs[suite] = tmp / suite
            for family in family_names():
                for seed in seeds:
                    write_variant(family, seed, tmp / suite, SUITE_SIZES[suite])
                    print(f"generated {family} seed {seed} ({SUITE_SIZES[suite]})", file=sys.stderr, flush=True)
        elif suite == "env":
            dirs[suite] = Path(args.env_dir)
        elif suite == "dev":
            dirs[suite] = Path(args.dev_dir)
            ids = [i.game_id for i in Catalog.scan([Path(args.dev_dir)]).infos]
            chosen = share(ids, args.share)
            picks[suite] = one_per_family(chosen) if args.sample == "one-per-family" else chosen
            print(f"dev suite: {len(picks[suite])} games ({args.share} share, {args.sample})", file=sys.stderr)
    return dirs, picks


def play_suites(suites: list[str], dirs: dict[str, Path | None], picks: dict[str, list[str] | None],
                args: argparse.Namespace, out: Path) -> tuple[list[dict[str, Any]], dict[str, Any], str]:
    """Play every (suite, budget, agent); returns the rows, the raw results and the extra Markdown tables."""
    rows: list[dict[str, Any]] = []
    raw: dict[str, Any] = {}
    extra = ""
    for suite in suites:
        for budget in (int(b) for b in args.budgets.split(",")):
            runs: dict[str, dict[str, Any]] = {}
            for agent in args.agents.split(","):
                start = time.perf_counter()
                results = run_bench(agent, budget, args.jobs, dirs[suite],
                                    out.with_suffix(f".{suite}.{agent}.{budget}.json"), picks.get(suite),
                                    args.game_timeout)
                raw[f"{suite}/{agent}/{budget}"] = runs[agent] = results
                rows.append(row(suite, agent, budget, results))
                print(f"{suite:13} {agent:9} {budget:5}: {rows[-1]['levels_completed']}/{rows[-1]['levels_total']} "
                      f"levels, score {rows[-1]['score']} ({time.perf_counter() - start:.0f} s)", flush=True)
            if suite in ("dev", "env"):
                extra += game_tables(suite, budget, runs, dirs[suite])
    return rows, raw, extra


def game_tables(suite: str, budget: int, runs: dict[str, dict[str, Any]], game_dir: Path | None) -> str:
    """Per-tag and per-family tables and the floor check for one suite at one budget."""
    infos = Catalog.scan([game_dir]).infos if game_dir else []
    tags = {i.game_id: tuple(i.tags or ()) for i in infos}
    bad = floor_violations(runs)
    text = f"\n### {suite} at {budget}: levels per tag\n\n{by_tag(runs, tags)}"
    text += f"\n### {suite} at {budget}: levels per family\n\n{by_family(runs)}"
    text += f"\n### {suite} at {budget}: families where the team completes fewer levels than another agent\n\n"
    return text + ("\n".join(f"- {b}" for b in bad) if bad else "none") + "\n"


if __name__ == "__main__":
    sys.exit(main())
