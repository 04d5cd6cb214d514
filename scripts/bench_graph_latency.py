#!/usr/bin/env python3
"""Time one full team step with every role on an LLM backend whose every call takes DELAY seconds.

Usage: .venv/bin/python scripts/bench_graph_latency.py [--delay 1.0] [--repeat 3] [--game maze]
       [--code DIR] [--label after] [--out bench-results/graph-latency.json]

The model is the tests' loopback HTTP server speaking the Anthropic Messages API (`RoleVendor`; nothing
leaves 127.0.0.1): it sleeps DELAY seconds, then answers each role with a valid, do-nothing reply (no patch, no tactic, one probe,
a one-action plan). The timed step is the team's first step after a missed prediction, so all six roles run:
the Observer (first look), the Simulator (the miss), both explorers, the Critic and the Leader. It prints
and writes: wall seconds of the step (median of --repeat), model calls, and the most calls in flight at
once. `--code DIR` runs another checkout of the package (e.g. `git archive <commit>` unpacked) to time the
graph before a change with this same script.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def time_full_step(vendor: Any, game: str) -> dict[str, Any]:
    """Open `game`, build the team on the slow vendor and time its first step after a missed prediction."""
    from dreamteam.backends.config import load_backend_config
    from dreamteam.env.catalog import Catalog, env_dirs_from
    from dreamteam.env.session import Arena
    from dreamteam.team.agent import TeamAgent

    arena = Arena(Catalog.scan(env_dirs_from(None)))
    session = arena.open(arena.catalog.resolve(game).game_id, arena.new_scorecard())
    config = load_backend_config("anthropic", model="claude-sonnet-4-5", base_url=vendor.url, max_retries=0,
                                 env={"ANTHROPIC_API_KEY": "loopback"})
    with tempfile.TemporaryDirectory() as run_dir:
        agent = TeamAgent(seed=0, run_dir=run_dir, backends=config, checkpoint=False)
        agent.begin(session.info, 50)
        agent.state = {**agent.state, "hit": False}  # a missed prediction: the Simulator runs too
        before = len(vendor.calls)
        vendor.peak = 0
        start = time.perf_counter()
        action = agent.act(session.observation)
        took = time.perf_counter() - start
        calls = vendor.calls[before:]
        agent.close()
    return {"seconds": round(took, 3), "calls": len(calls), "roles": sorted(calls), "peak_in_flight": vendor.peak,
            "action": action.label() if action else None}


def main() -> int:
    """Run the measurement, print it and write JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=1.0, help="seconds each model call takes")
    parser.add_argument("--repeat", type=int, default=3, help="steps timed (median reported)")
    parser.add_argument("--game", default="maze")
    parser.add_argument("--code", default=str(Path(__file__).resolve().parents[1]),
                        help="the checkout whose dreamteam package is timed")
    parser.add_argument("--label", default="current")
    parser.add_argument("--out", default="bench-results/graph-latency.json")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.backends.fake_vendor import RoleVendor  # this checkout's loopback server (stdlib only)

    sys.path.insert(0, str(Path(args.code).resolve()))  # the package timed

    vendor = RoleVendor(args.delay).start()
    try:
        runs = [time_full_step(vendor, args.game) for _ in range(args.repeat)]
    finally:
        vendor.close()
    import dreamteam

    result = {"label": args.label, "code": str(Path(dreamteam.__file__).resolve().parent), "delay_s": args.delay,
              "game": args.game, "median_s": statistics.median(r["seconds"] for r in runs), "runs": runs}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    previous = json.loads(out.read_text()) if out.exists() else {}
    previous[args.label] = result
    out.write_text(json.dumps(previous, indent=2) + "\n")
    run = runs[0]
    print(f"{args.label}: full step {result['median_s']:.2f} s (median of {len(runs)}), {run['calls']} calls of "
          f"{args.delay:.1f} s, at most {run['peak_in_flight']} in flight; code {result['code']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
