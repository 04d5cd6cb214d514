"""A sandbox worker killed in the middle of a team session loses no committed step."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from dreamteam.env.catalog import Catalog, env_dirs_from
from dreamteam.env.session import Arena
from dreamteam.runner import play
from dreamteam.team.agent import TeamAgent
from dreamteam.types import Observation
from dreamteam.workspace import Workspace

BUDGET = 30


def test_killed_worker_is_replaced_and_every_step_is_committed(tmp_path: Path) -> None:
    arena = Arena(Catalog.scan(env_dirs_from([])))
    agent = TeamAgent(seed=0, run_dir=tmp_path / "run")
    killed: list[int] = []
    boxes: list[object] = []

    def kill_worker(obs: Observation) -> None:
        if obs.step in (8, 17) and agent.logic is not None:
            pid = agent.logic.world.sandbox.worker_pid  # type: ignore[attr-defined]
            if pid:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                boxes.append(agent.logic.world.sandbox)  # type: ignore[attr-defined]

    result = play(arena.open("maze", arena.new_scorecard()), agent, BUDGET, on_step=kill_worker)
    assert len(killed) == 2 and result.actions == BUDGET
    with Workspace.open(tmp_path / "run" / "workspace") as ws:
        assert sorted(ws.steps()) == list(range(BUDGET))
    assert boxes[0].restarts >= 2  # type: ignore[attr-defined]  # each kill was noticed and the worker replaced
