"""Recovery removes the lock files a killed writer leaves behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamteam.workspace import StepRecord, Workspace, WorkspaceError, remove_stale_locks, seed_path


def test_stale_ref_lock_blocks_commits_until_removed(tmp_path: Path) -> None:
    ws = Workspace.create(tmp_path / "ws", seed_path("default"))
    ws.commit_step(StepRecord(step=0, level=0, action="ACTION1", hit=None))
    ws.close()
    lock = tmp_path / "ws" / ".git" / "refs" / "heads" / "main.lock"
    lock.write_text("")
    with Workspace.open(tmp_path / "ws") as again, pytest.raises(WorkspaceError, match="main.lock exists"):
        again.commit_step(StepRecord(step=1, level=0, action="ACTION1", hit=None))
    assert remove_stale_locks(tmp_path / "ws") == ["refs/heads/main.lock"]
    with Workspace.open(tmp_path / "ws") as again:
        again.commit_step(StepRecord(step=1, level=0, action="ACTION1", hit=None))
        assert sorted(again.steps()) == [0, 1]
