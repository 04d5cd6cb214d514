"""One session SIGKILLed again and again at random steps, on a keyboard game and on a click game.

After each kill the run is resumed (in a new process, killed again later); at the end every step is committed
exactly once, the recording holds one line per action, and `dreamteam replay` verifies every frame and the
scorecard. (`scripts/soak.py --kills 20` runs the long version.)
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dreamteam.cli import main
from dreamteam.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
BUDGET = 24
KILLS = 2


def _popen(args: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "dreamteam.cli", *args, "--quiet"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def _actions(run: Path) -> int:
    try:
        return max(0, (run / "recording.jsonl").read_text().count("\n") - 1)
    except OSError:
        return 0


def _kill_at(proc: subprocess.Popen[bytes], run: Path, actions: int, timeout: float = 90.0) -> bool:
    """SIGKILL `proc` once the recording holds `actions` actions; False when it finished first."""
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        if _actions(run) >= actions:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return True
        time.sleep(0.005)
    proc.wait()
    return False


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game", ["maze", "flip"])
def test_a_session_killed_again_and_again_loses_and_duplicates_no_step(tmp_path: Path, game: str) -> None:
    run = tmp_path / "run"
    points = sorted(random.Random(game).sample(range(2, BUDGET - 2), KILLS))
    proc = _popen(["play", game, "--budget", str(BUDGET), "--out", str(run)])
    for point in points:
        assert _kill_at(proc, run, point), f"the session ended before action {point}"
        assert json.loads((run / "run.json").read_text())["status"] == "running"
        proc = _popen(["play", "--resume", str(run)])
    assert proc.wait(timeout=120) == 0
    with Workspace.open(run / "workspace") as ws:
        assert sorted(ws.steps()) == list(range(BUDGET)), "every step committed exactly once"
    assert _actions(run) == BUDGET
    meta = json.loads((run / "run.json").read_text())
    assert meta["status"] == "finished" and len(meta["resumed_at"]) == KILLS
    assert main(["replay", str(run)]) == 0
