"""Actions that ended the game from a frame are avoided again after the session is reopened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from dreamteam.codec import encode_grid, grid_hash
from dreamteam.team.logic import TeamLogic
from dreamteam.workspace import StepRecord, Workspace, seed_path


class _World:
    """Only what TeamLogic's constructor asks of a world model."""

    def load(self, name: str, source: str) -> str | None:
        return None


def _transition(step: int, before: np.ndarray, action: str, game_over: bool) -> dict[str, Any]:
    after = before.copy()
    after[0, 0] = 3
    return {"step": step, "level": 0, "action": {"action": action}, "before": encode_grid(before),
            "after": encode_grid(after), "frames": 1, "history": {}, "level_up": False, "game_over": game_over}


def test_reopened_workspace_remembers_the_moves_that_ended_the_game(tmp_path: Path) -> None:
    grid = np.zeros((4, 4), dtype=np.int8)
    other = grid.copy()
    other[2, 2] = 5
    with Workspace.create(tmp_path / "workspace", seed_path("default")) as ws:
        for step, (before, action, over) in enumerate([(grid, "ACTION1", False), (other, "ACTION3", True)]):
            ws.add_transition(_transition(step, before, action, over))
            ws.commit_step(StepRecord(step=step, level=0, action=action, hit=None, wrong_cells=0,
                                      diff_summary="", patches=(), notes=()))
    with Workspace.open(tmp_path / "workspace") as ws:
        reopened = TeamLogic(ws, _World(), None, None, budget=10)  # type: ignore[arg-type]
        assert reopened.mem.deadly == {(grid_hash(other), "ACTION3")}
