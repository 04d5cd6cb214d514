"""A team session on a (loopback) LLM killed with SIGKILL while parallel role nodes wait for their model calls
resumes without losing or repeating a step."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dreamteam.cli import main
from dreamteam.workspace import Workspace
from tests.backends.fake_vendor import RoleVendor

BUDGET = 5
ROOT = Path(__file__).resolve().parents[2]
KEY = {"ANTHROPIC_API_KEY": "loopback"}


def _start(run: Path, vendor: RoleVendor) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "dreamteam.cli", "play", "maze", "--agent", "team", "--budget", str(BUDGET),
           "--backend", "anthropic", "--model", "claude-sonnet-4-5", "--base-url", vendor.url, "--out", str(run),
           "--quiet"]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, **KEY, "PYTHONPATH": str(ROOT)})


def _kill_in_parallel_branch(proc: subprocess.Popen[bytes], vendor: RoleVendor, overlaps: int) -> tuple[str, ...]:
    """SIGKILL the session while at least two role calls are in flight, the `overlaps`-th time it happens."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:
        with vendor.lock:
            seen, now = len(vendor.overlaps), tuple(sorted(t.split("#")[0] for t in vendor.in_flight))
        if seen >= overlaps and len(now) >= 2:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return now
        time.sleep(0.01)
    proc.kill()
    raise AssertionError("the session never had two role calls in flight at once")


def test_sigkill_during_parallel_role_calls_loses_no_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vendor = RoleVendor(delay_s=0.4).start()
    try:
        run = tmp_path / "run"
        in_flight = _kill_in_parallel_branch(_start(run, vendor), vendor, overlaps=3)
        assert "transductive" in in_flight  # an explorer's branch was waiting for its model when killed
        assert json.loads((run / "run.json").read_text())["status"] == "running"
        with Workspace.open(run / "workspace") as ws:
            killed_at = len(ws.steps())
        assert 0 < killed_at < BUDGET
        monkeypatch.setenv("ANTHROPIC_API_KEY", KEY["ANTHROPIC_API_KEY"])
        assert main(["play", "--resume", str(run), "--quiet"]) == 0
    finally:
        vendor.close()
    with Workspace.open(run / "workspace") as ws:
        assert sorted(ws.steps()) == list(range(BUDGET)), "every step committed exactly once"
    assert len((run / "recording.jsonl").read_text().splitlines()) == BUDGET + 1
    assert json.loads((run / "scorecard.json").read_text())["environments"][0]["actions"] == BUDGET
    assert json.loads((run / "run.json").read_text())["status"] == "finished"
