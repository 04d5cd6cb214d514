"""A dynamics patch that passes the replay and then hangs, allocates or recurses without bound (issue 31).

Each session runs as its own process (the fault journal is per process, and on code without the guards the
patch would hang or exhaust the test process): `dreamteam play maze --budget 60 --backend simulator=scripted`.
The session must finish its budget, the step commit must record the fall back with the reason, and the
workspace must end on a version that is not the faulty one.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dreamteam.workspace import Workspace
from tests.team.faulty_patches import faulty_dynamics, write_fault_script

BUDGET = 60
REASONS = {"hang": ("timeout after 2.0s",), "allocate": ("memory limit", "timeout after 2.0s"),
           "recurse": ("recursion limit",)}
"""The reasons a cut-off may give (on a loaded machine the allocating loop can reach the deadline first)."""
ADDRESS_SPACE = 6 << 30
"""A ceiling for the session process, so that code without the memory bound fails instead of exhausting the
machine."""


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def play(run: Path, script: Path, *extra: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`dreamteam play maze` in a child process, with the scripted Simulator."""
    command = [sys.executable, "-m", "dreamteam.cli", "play", "maze", "--budget", str(BUDGET), "--out", str(run),
               "--quiet", "--backend", "simulator=scripted", "--script", str(script), *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, preexec_fn=_cap_memory,
                          env={**os.environ, "PYTHONFAULTHANDLER": "1"}, check=False)


def _commit_messages(run: Path) -> list[str]:
    with Workspace.open(run / "workspace") as ws:
        return [str(ws.repo.commit(sha).message) for _, sha in sorted(ws.steps().items())]


@pytest.mark.parametrize("policy", ["gate", "feedback"])
@pytest.mark.parametrize("kind", sorted(REASONS))
def test_a_faulty_dynamics_patch_is_cut_off_rolled_back_and_play_goes_on(tmp_path: Path, kind: str,
                                                                         policy: str) -> None:
    run = tmp_path / "run"
    started = time.monotonic()
    done = play(run, write_fault_script(tmp_path / "s.json", kind), "--policy", policy)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads((run / "run.json").read_text())["result"]["actions"] == BUDGET
    messages = _commit_messages(run)
    assert len(messages) == BUDGET
    accepted = [i for i, m in enumerate(messages) if "dynamics (simulator): accepted" in m]
    fallen = [m for m in messages if "rolled back to the last good version" in m]
    assert accepted, "the faulty patch passes the replay (the case this test is about)"
    assert fallen and any(r in fallen[0] for r in REASONS[kind]), fallen or messages[accepted[0]:accepted[0] + 3]
    with Workspace.open(run / "workspace") as ws:
        assert ws.read_surface("dynamics") != faulty_dynamics(kind)
        assert ws.read_surface("dynamics") == ws.read_surface("dynamics", at="seed")
    assert elapsed < 60, f"the session took {elapsed:.0f}s"
