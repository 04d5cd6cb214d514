#!/usr/bin/env python3
"""Benchmark the exploration floor: the explorer agent under several option sets, side by side.

Usage: .venv/bin/python scripts/bench_floor.py --env-dir ../shared/devgames/environment_files
           [--share dev|heldout|all] [--games ID,...] [--sets base,team,team-balance] [--budget 300] [--jobs 2]
           [--game-timeout 60] [--out bench-results/floor.json]

The team falls back on the same exploration map when its world model does not fit (see docs/benchmarks.md),
so an option that helps the map here is a candidate for the team's map; the explorer plays in milliseconds
per step, so a whole share of the development set runs in minutes. Option sets (`--sets`):
  base           the explorer baseline's defaults
  team           the options of the team's map (`dreamteam.team.logic.MAP_OPTIONS`)
  team-balance   the team's map without balance_kinds
  team-momentum0   the team's map without momentum (a new state's simple actions fully shuffled)
  team-unshuffled  the team's map trying a new state's simple actions by id (without shuffle)
  team-fixed     the team's map clicking each object at its cell nearest the centroid (without sample_cells)
  team-nowait    the team's map leaving a sink once its actions are tested (stall_wait 0)
  team-wait64    the team's map waiting in a sink for 64 unchanged frames instead of 24
  team-coarse    the team's map without finer clicks once nothing untested is reachable (finer_clicks off)
  team-nomarks   the team's map keying states by frames as they are (click_marks off)
  team-sighted   the team's map clicking every object in every state (blind_clicks off)
  team-nothin    the team's map masking only bars that tick on nearly every changing step (thin_bars off)
  random         the random baseline (not the map: for the games where a random agent beats the floor)
Each set plays every game once with the same seed; the table lists totals and the games where sets differ.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dreamteam.agents import build_agent  # noqa: E402
from dreamteam.env.catalog import Catalog  # noqa: E402
from dreamteam.env.devset import share  # noqa: E402
from dreamteam.env.session import Arena  # noqa: E402
from dreamteam.runner import play  # noqa: E402
from dreamteam.team.logic import MAP_OPTIONS  # noqa: E402

TEAM = {f.name: getattr(MAP_OPTIONS, f.name) for f in dataclasses.fields(MAP_OPTIONS)}
"""Every option of the team's map (a new option is measured here as soon as the team turns it on)."""
SETS: dict[str, dict[str, Any]] = {
    "base": {},
    "team": TEAM,
    "team-balance": {**TEAM, "balance_kinds": False},
    "team-fixed": {**TEAM, "sample_cells": False},
    "team-unshuffled": {**TEAM, "shuffle": False},
    "team-momentum0": {**TEAM, "momentum": 0.0},
    "team-nowait": {**TEAM, "stall_wait": 0},
    "team-wait64": {**TEAM, "stall_wait": 64},
    "team-coarse": {**TEAM, "finer_clicks": False},
    "team-nomarks": {**TEAM, "click_marks": False},
    "team-sighted": {**TEAM, "blind_clicks": False},
    "team-nothin": {**TEAM, "hud": dataclasses.replace(MAP_OPTIONS.hud, thin_bars=False)},
    "random": {},
}
AGENT_OF_SET = {"random": "random"}
"""Sets played by another agent than the explorer (with no options)."""


class _Hung(Exception):
    """A step ran far past the game's timeout."""


def _alarm(signum: int, frame: Any) -> None:
    raise _Hung


def _play(job: tuple[str, str, str, int, float]) -> dict[str, Any]:
    env_dir, game_id, set_name, budget, timeout = job
    arena = Arena(Catalog.scan([Path(env_dir)]))
    agent = build_agent(AGENT_OF_SET.get(set_name, "explorer"), seed=0, **SETS[set_name])
    start = time.monotonic()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(timeout * 1.5) + 5)  # a step that hangs is cut off; the deadline below is cooperative
    session = None
    try:
        session = arena.open(game_id, arena.new_scorecard())
        result = play(session, agent, budget, deadline=start + timeout)
    except _Hung:
        return {"game": game_id, "set": set_name, "hung": True,
                "levels": session.observation.levels_completed if session and session.observation else 0,
                "seconds": round(time.monotonic() - start, 1)}
    except Exception as exc:  # a game that fails to load or raises is reported, the bench goes on
        return {"game": game_id, "set": set_name, "error": f"{type(exc).__name__}: {exc}"}
    finally:
        signal.alarm(0)
    return {"game": game_id, "set": set_name, "levels": result.levels_completed, "actions": result.actions,
            "seconds": round(time.monotonic() - start, 1)}


def main() -> int:
    """Play, print the table, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-dir", required=True)
    parser.add_argument("--share", default="dev", choices=("dev", "heldout", "all"))
    parser.add_argument("--sets", default="base,team,team-balance")
    parser.add_argument("--games", default="", help="comma-separated game ids or prefixes (default: the share)")
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game-timeout", type=float, default=60.0)
    parser.add_argument("--out", default="bench-results/floor.json")
    args = parser.parse_args()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        parser.error(f"unknown option sets {unknown}; known: {', '.join(SETS)}")
    games = share([i.game_id for i in Catalog.scan([Path(args.env_dir)]).infos], args.share)
    if args.games:
        wanted = [w.strip() for w in args.games.split(",") if w.strip()]
        games = [g for g in games if any(g == w or g.startswith(w) for w in wanted)]
    jobs = [(args.env_dir, g, s, args.budget, args.game_timeout) for g in games for s in sets]
    print(f"{len(games)} games x {len(sets)} option sets at {args.budget} actions, {args.jobs} jobs", flush=True)
    rows: list[dict[str, Any]] = []
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for i, row in enumerate(pool.imap_unordered(_play, jobs), start=1):
            rows.append(row)
            if i % 25 == 0 or i == len(jobs):
                print(f"  {i}/{len(jobs)} played", flush=True)
    levels = {(r["game"], r["set"]): r.get("levels", 0) for r in rows}
    totals = {s: sum(levels.get((g, s), 0) for g in games) for s in sets}
    print("levels per option set: " + ", ".join(f"{s} {t}" for s, t in totals.items()))
    for g in games:
        values = [levels.get((g, s), 0) for s in sets]
        if len(set(values)) > 1:
            print(f"  {g:16s} " + "  ".join(f"{s}={v}" for s, v in zip(sets, values, strict=True)))
    errors = [r for r in rows if "error" in r]
    if errors:
        print(f"{len(errors)} errors (first: {errors[0]['game']}: {errors[0]['error']})")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"budget": args.budget, "share": args.share, "sets": sets,
                                          "totals": totals, "rows": rows}, indent=1))
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
