#!/usr/bin/env python3
"""Time one full team step with every role on an LLM backend whose every call takes DELAY seconds.

Usage: .venv/bin/python scripts/bench_graph_latency.py [--delay 1.0] [--repeat 3] [--game maze]
       [--code DIR] [--label after] [--out bench-results/graph-latency.json]

The model is a loopback HTTP server speaking the Anthropic Messages API (nothing leaves 127.0.0.1): it
sleeps DELAY seconds, then answers each role with a valid, do-nothing reply (no patch, no tactic, one probe,
a one-action plan). The timed step is the team's first step after a missed prediction, so all six roles run:
the Observer (first look), the Simulator (the miss), both explorers, the Critic and the Leader. It prints
and writes: wall seconds of the step (median of --repeat), model calls, and the most calls in flight at
once. `--code DIR` runs another checkout of the package (e.g. `git archive <commit>` unpacked) to time the
graph before a change with this same script.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPLIES: dict[str, dict[str, Any]] = {
    "observer": {"patch": None, "notes": "nothing to change"},
    "simulator": {"patch": None, "notes": "nothing to change"},
    "inductive": {"patch": None, "notes": "no tactic", "tactics": []},
    "transductive": {"probes": [{"actions": [{"action": "ACTION1"}], "expected_effect": "something moves",
                                 "target_hypothesis": "ACTION1 moves the player"}], "notes": "one probe"},
    "critic": {"flags": [], "feedback": {}, "notes": "nothing to report"},
    "leader": {"goal": "DISCOVER", "plan": [{"action": "ACTION1"}], "source": "probe-0", "confidence": 0.5,
               "reason": "probe first"},
}
ROLE_IN_PROMPT = re.compile(r"You are the (\w+) of DreamTeam")


class SlowVendor:
    """A loopback Messages API: every call waits `delay` s, then answers its role (read from the system
    prompt); it counts calls and the most calls in flight at once."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.calls: list[str] = []
        self.in_flight = 0
        self.peak = 0
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def _reply(self, body: dict[str, Any]) -> dict[str, Any]:
        system = body.get("system")
        text = system if isinstance(system, str) else json.dumps(system)
        found = ROLE_IN_PROMPT.search(text)
        role = found.group(1) if found else "?"
        with self.lock:
            self.calls.append(role)
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        time.sleep(self.delay)
        with self.lock:
            self.in_flight -= 1
        return {"id": "msg_1", "type": "message", "role": "assistant", "model": body.get("model", "m"),
                "stop_reason": "tool_use", "stop_sequence": None,
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "reply", "input": REPLIES.get(role, {})}],
                "usage": {"input_tokens": 1000, "output_tokens": 100}}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        vendor = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", "0")))
                data = json.dumps(vendor._reply(json.loads(raw or b"{}"))).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()


def time_full_step(vendor: SlowVendor, game: str) -> dict[str, Any]:
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
    sys.path.insert(0, str(Path(args.code).resolve()))
    vendor = SlowVendor(args.delay)
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
