#!/usr/bin/env python3
"""Soak test: many team sessions back to back, in one process and as separate processes, plus a session that
is SIGKILLed again and again and resumed.

Usage: .venv/bin/python scripts/soak.py [--sessions 100] [--processes 100] [--kills 20] [--budget 30]
                                        [--games maze,flip,...] [--out bench-results/soak.json]

Prints (and writes as JSON): sessions played in this process and as child processes, kills survived, steps
lost and duplicated over the killed session (both must be 0), whether `dreamteam replay` verified it, and, for
the in-process sessions, the resident set size and open file descriptors after each session (their growth from
the first session to the last must stay flat), for the child processes their peak RSS.
Single job: it runs one session at a time (the development machine is shared).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dreamteam.cli import main as cli  # noqa: E402
from dreamteam.env.catalog import Catalog, env_dirs_from  # noqa: E402
from dreamteam.workspace import Workspace  # noqa: E402


def rss_mb() -> float:
    """This process's resident set size now (MiB)."""
    with open("/proc/self/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def open_fds() -> int:
    """File descriptors this process holds open."""
    return len(os.listdir("/proc/self/fd"))


def in_process(games: list[str], sessions: int, budget: int, scratch: Path) -> dict[str, Any]:
    """`dreamteam play` `sessions` times in this process; RSS, fds and threads after each."""
    samples = []
    for i in range(sessions):
        game = games[i % len(games)]
        with contextlib.redirect_stdout(io.StringIO()):
            code = cli(["play", game, "--budget", str(budget), "--seed", str(i), "--out",
                        str(scratch / f"in-{i}"), "--quiet"])
        samples.append({"session": i, "game": game, "exit": code, "rss_mb": round(rss_mb(), 1),
                        "fds": open_fds(), "threads": threading.active_count()})
        print(f"  in-process {i + 1}/{sessions} {game}: exit {code}, rss {samples[-1]['rss_mb']} MiB, "
              f"fds {samples[-1]['fds']}, threads {samples[-1]['threads']}", file=sys.stderr, flush=True)
    first, last = samples[min(2, len(samples) - 1)], samples[-1]
    return {"sessions": sessions, "failed": sum(s["exit"] != 0 for s in samples),
            "rss_growth_mb": round(last["rss_mb"] - first["rss_mb"], 1), "fd_growth": last["fds"] - first["fds"],
            "thread_growth": last["threads"] - first["threads"], "peak_rss_mb": round(
                resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1), "samples": samples}


def _high_water_mb(pid: int) -> float:
    """The peak resident set size of process `pid` so far (MiB; 0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "dreamteam.cli", *args, "--quiet"]


def _spawn(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(_command(*args), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def as_processes(games: list[str], sessions: int, budget: int, scratch: Path) -> dict[str, Any]:
    """`dreamteam play` as `sessions` child processes, one after the other; each one's peak RSS."""
    peaks, failed = [], 0
    for i in range(sessions):
        proc = _spawn("play", games[i % len(games)], "--budget", str(budget), "--seed", str(i), "--out",
                      str(scratch / f"proc-{i}"))
        peak = 0.0
        while proc.poll() is None:  # VmHWM, polled: a child's ru_maxrss starts from this process's RSS at fork
            peak = max(peak, _high_water_mb(proc.pid))
            time.sleep(0.05)
        failed += proc.returncode != 0
        peaks.append(round(peak, 1))
        print(f"  process {i + 1}/{sessions}: exit {proc.returncode}, peak rss {peaks[-1]} MiB", file=sys.stderr,
              flush=True)
    return {"sessions": sessions, "failed": failed, "peak_rss_mb": peaks,
            "peak_rss_growth_mb": round(peaks[-1] - peaks[0], 1) if peaks else 0.0}


def _actions(run: Path) -> int:
    try:
        return max(0, (run / "recording.jsonl").read_text().count("\n") - 1)
    except OSError:
        return 0


def killed_session(game: str, kills: int, budget: int, scratch: Path, seed: int) -> dict[str, Any]:
    """One session SIGKILLed at `kills` random actions and resumed after each; steps lost and duplicated."""
    run = scratch / "killed"
    points = sorted(random.Random(seed).sample(range(1, budget - 1), min(kills, budget - 2)))
    proc, survived = _spawn("play", game, "--budget", str(budget), "--out", str(run)), 0
    for point in points:
        deadline = time.monotonic() + 300
        while proc.poll() is None and _actions(run) < point and time.monotonic() < deadline:
            time.sleep(0.005)
        if proc.poll() is not None:
            break
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc = _spawn("play", "--resume", str(run))
        survived += 1
        print(f"  kill {survived}/{len(points)} at action {_actions(run)}", file=sys.stderr, flush=True)
    finished = proc.wait() == 0
    with Workspace.open(run / "workspace") as ws:
        log = [entry.step for entry in ws.log()]
    lost = len(set(range(budget)) - set(log))
    duplicated = len(log) - len(set(log))
    with contextlib.redirect_stdout(io.StringIO()):
        replayed = cli(["replay", str(run)]) == 0
    return {"game": game, "kills": len(points), "kills_survived": survived if finished else survived - 1,
            "finished": finished, "steps": len(log), "steps_lost": lost, "steps_duplicated": duplicated,
            "replay_verified": replayed, "recorded_actions": _actions(run)}


def main() -> int:
    """Run the soak and print the figures."""
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--sessions", type=int, default=100, help="sessions in this process")
    parser.add_argument("--processes", type=int, default=100, help="sessions as separate processes")
    parser.add_argument("--kills", type=int, default=20, help="SIGKILLs of one resumed session")
    parser.add_argument("--budget", type=int, default=30, help="actions per session")
    parser.add_argument("--kill-budget", type=int, default=60, help="actions of the killed session")
    parser.add_argument("--kill-game", default="flip", help="game of the killed session (clicks: flip, copy)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every bundled game)")
    parser.add_argument("--out", default="bench-results/soak.json")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g] or [i.game_id.split("-")[0] for i in
                                                          Catalog.scan(env_dirs_from([])).infos]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        scratch = Path(tmp)
        report = {"budget": args.budget, "games": games,
                  "in_process": in_process(games, args.sessions, args.budget, scratch),
                  "processes": as_processes(games, args.processes, args.budget, scratch),
                  "killed": killed_session(args.kill_game, args.kills, args.kill_budget, scratch, 0)}
    report["wall_s"] = round(time.monotonic() - started, 1)
    one, many, killed = report["in_process"], report["processes"], report["killed"]
    print(f"sessions: {one['sessions']} in one process ({one['failed']} failed), {many['sessions']} as processes "
          f"({many['failed']} failed)")
    print(f"kills survived: {killed['kills_survived']}/{killed['kills']} ({killed['game']}, "
          f"replay {'verified' if killed['replay_verified'] else 'FAILED'})")
    print(f"steps lost: {killed['steps_lost']}  steps duplicated: {killed['steps_duplicated']}")
    print(f"in one process: RSS growth {one['rss_growth_mb']} MiB, open fds growth {one['fd_growth']}, "
          f"threads growth {one['thread_growth']}, peak RSS {one['peak_rss_mb']} MiB")
    peaks = many["peak_rss_mb"]
    if peaks:
        print(f"as processes: peak RSS {min(peaks)}-{max(peaks)} MiB (last minus first {many['peak_rss_growth_mb']})")
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written to {path} ({report['wall_s']} s)")
    ok = killed["steps_lost"] == 0 and killed["steps_duplicated"] == 0 and killed["replay_verified"]
    return 0 if ok and not one["failed"] and not many["failed"] else 1


if __name__ == "__main__":
    sys.exit(main())
