"""A team session killed with SIGKILL at a random step and resumed ends with a consistent run directory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dreamteam.cli import main
from dreamteam.workspace import Workspace
from tests.team.scripts_util import write_script

BUDGET = 30
ROOT = Path(__file__).resolve().parents[2]


def _start(run: Path, script: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "dreamteam.cli", "play", "maze", "--agent", "team", "--budget", str(BUDGET),
           "--backend", "scripted", "--script", str(script), "--out", str(run), "--quiet"]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def _kill_after(proc: subprocess.Popen[bytes], recording: Path, lines: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if recording.exists() and recording.read_text().count("\n") >= lines:
            break
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def _check_consistent(run: Path) -> None:
    with Workspace.open(run / "workspace") as ws:
        steps = sorted(ws.steps())
    recording = (run / "recording.jsonl").read_text().splitlines()
    card = json.loads((run / "scorecard.json").read_text())["environments"][0]
    assert steps == list(range(BUDGET)), "every step committed exactly once"
    assert len(recording) == BUDGET + 1, "recording: initial frame plus one line per action"
    assert card["actions"] == BUDGET
    assert json.loads((run / "run.json").read_text())["status"] == "finished"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kill_at=st.integers(min_value=1, max_value=BUDGET - 2))
def test_killed_session_resumes_consistently(tmp_path_factory: object, kill_at: int) -> None:
    base = tmp_path_factory.mktemp("resume")  # type: ignore[attr-defined]
    run, script = base / "run", write_script(base / "s.json")
    _kill_after(_start(run, script), run / "recording.jsonl", kill_at + 1)
    assert json.loads((run / "run.json").read_text())["status"] == "running", "killed before the end"
    assert main(["play", "--resume", str(run), "--quiet"]) == 0
    _check_consistent(run)


def test_resuming_a_finished_run_is_refused(tmp_path: Path) -> None:
    run = tmp_path / "run"
    script = write_script(tmp_path / "s.json")
    assert main(["play", "maze", "--agent", "team", "--budget", "3", "--backend", "scripted", "--script", str(script),
                 "--out", str(run), "--quiet"]) == 0
    assert main(["play", "--resume", str(run)]) == 2
