"""The workspace on real git repositories: seed commit, step commits, reads, tags, diffs, recovery."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dreamteam.workspace import (
    SURFACES,
    PatchOutcome,
    PredictionRecord,
    StepRecord,
    UnknownStepError,
    UnknownSurfaceError,
    Workspace,
    WorkspaceError,
    seed_path,
)
from dreamteam.workspace.repository import GIT_ENV

Factory = Callable[..., dict[str, Any]]


def git(ws: Workspace, *args: str) -> str:
    """Plain git, as a user would run it in the workspace."""
    out = subprocess.run(["git", "-C", str(ws.root), *args], capture_output=True, text=True, check=True,
                         env={**os.environ, **GIT_ENV})
    return out.stdout


def step(ws: Workspace, n: int, transition: Factory, **kwargs: Any) -> str:
    ws.add_transition(transition(n, **kwargs))
    return ws.commit_step(StepRecord(n, kwargs.get("level", 0), "ACTION1", hit=True))


def test_create_makes_a_clean_seed_commit(ws: Workspace) -> None:
    seed = seed_path("default")
    for s in SURFACES:
        assert ws.read_surface(s.name) == (seed / s.path).read_text() == (ws.root / s.path).read_text()
    assert ws.last_step is None and ws.steps() == {}
    assert git(ws, "status", "--porcelain") == ""
    assert git(ws, "log", "--format=%an <%ae>|%cn <%ce>|%s") == (
        "DreamTeam <dreamteam@localhost>|DreamTeam <dreamteam@localhost>|seed workspace default\n")
    assert ws.sha_for("seed") == ws.head_sha
    assert (ws.root / "evidence" / "regression.jsonl").read_text() == ""


def test_create_refuses_a_non_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "file").write_text("hi")
    with pytest.raises(WorkspaceError, match="not an empty folder"):
        Workspace.create(tmp_path / "x", seed_path("default"))


def test_step_commit_round_trip(ws: Workspace, transition: Factory) -> None:
    original = ws.read_surface("dynamics")
    ws.add_transition(transition(0))
    ws.add_prediction(PredictionRecord(0, "ACTION1", "aaaa", "bbbb", False, 1))
    ws.write_surface("dynamics", "HYPOTHESES = [{'name': 'moves'}]\n")
    ws.write_replay_report({"fixed": 1})
    patch = PatchOutcome("dynamics", "Simulator", True, "no regression", "fixed 1")
    sha = ws.commit_step(StepRecord(0, 0, "ACTION1", hit=False, wrong_cells=1, patches=(patch,)))
    assert ws.steps() == {0: sha} and ws.last_step == 0 and ws.head_sha == sha
    assert ws.read_surface("dynamics", 0) == "HYPOTHESES = [{'name': 'moves'}]\n"
    assert ws.read_surface("dynamics", "seed") == original
    assert json.loads(ws.read_file("evidence/replay_report.json", 0)) == {"fixed": 1}
    assert ws.predictions() == [{"step": 0, "action": "ACTION1", "predicted": "aaaa", "observed": "bbbb",
                                 "hit": False, "wrong_cells": 1}]
    assert git(ws, "status", "--porcelain") == ""
    git(ws, "fsck", "--full", "--strict")
    subject = git(ws, "log", "-1", "--format=%s")
    assert subject == "step 0 · level 0 · ACTION1 · prediction miss (1 cell wrong) · 1 patch accepted\n"
    trailers = git(ws, "log", "-1", "--format=%(trailers:key=DreamTeam-Patches,valueonly)")
    assert trailers.strip() == "dynamics=accepted"


def test_commit_without_changes_still_commits(ws: Workspace) -> None:
    first = ws.commit_step(StepRecord(0, 0, "RESET", hit=None))
    second = ws.commit_step(StepRecord(1, 0, "ACTION2", hit=None))
    assert first != second and ws.diff(0, 1) == ""
    with pytest.raises(WorkspaceError, match="not after the last committed step 1"):
        ws.commit_step(StepRecord(1, 0, "ACTION2", hit=None))


def test_regression_files_and_history(ws: Workspace, transition: Factory) -> None:
    ws2 = Workspace.create(ws.root.parent / "small", seed_path("default"), window_size=2, pinned_cap=1)
    for n in range(5):
        step(ws2, n, transition, level_up=(n == 1))
    lines = (ws2.root / "evidence" / "regression.jsonl").read_text().splitlines()
    assert [json.loads(line)["step"] for line in lines] == [1, 3, 4]
    assert [t["step"] for t in ws2.regression()] == [1, 3, 4]
    assert [t["step"] for t in ws2.regression_at(2)] == [1, 2]
    assert ws2.regression_at(2)[0]["pinned"] is True
    assert "evidence/regression.jsonl" not in git(ws2, "ls-files")
    assert git(ws2, "ls-files", "evidence/transitions").split() == [
        f"evidence/transitions/000/00000{n}.json" for n in range(5)]
    with pytest.raises(WorkspaceError, match="not after step 4"):
        ws2.add_transition(transition(4))
    ws2.close()


def test_tags(ws: Workspace, transition: Factory) -> None:
    step(ws, 0, transition)
    ws.tag_level(1, "start", 0)
    step(ws, 1, transition)
    step(ws, 2, transition)
    assert ws.tag_level(1, "solved") == "level-1-solved"
    assert ws.sha_for("level-1-start") == ws.steps()[0] and ws.sha_for("level-1-solved") == ws.steps()[2]
    assert git(ws, "show", "level-1-solved:dynamics.py") == ws.read_surface("dynamics", 2)
    with pytest.raises(WorkspaceError, match="already marks"):
        ws.tag_level(1, "start", 2)
    ws.tag_level(1, "start", 2, move=True)
    assert ws.sha_for("level-1-start") == ws.steps()[2]
    with pytest.raises(WorkspaceError, match="kind in"):
        ws.tag_level(1, "won")
    git(ws, "fsck", "--strict")


def test_diff_and_show(ws: Workspace, transition: Factory) -> None:
    ws.write_surface("leadership", json.dumps({"goal": "REFUTE", "plan": [], "confidence": 0.5, "decisions": []}))
    step(ws, 0, transition)
    step(ws, 1, transition)
    diff = ws.diff("seed", 1, "leadership")
    assert diff.startswith("diff --git a/leader.json b/leader.json") and '+{"goal": "REFUTE"' in diff
    assert ws.diff(0, 1, "leadership") == ""
    assert "evidence/transitions/000/000001.json" in ws.diff(0, 1)
    shown = ws.show(0, "leadership")
    assert "step 0 · level 0" in shown and "DreamTeam-Step: 0" in shown and "REFUTE" in shown
    assert "(no change to leader.json in this commit)" in ws.show(1, "leadership")
    with pytest.raises(UnknownSurfaceError):
        ws.diff(0, 1, "physics")
    with pytest.raises(UnknownStepError, match=r"step 7 is not in this workspace \(steps 0..1\)"):
        ws.show(7)
    with pytest.raises(UnknownStepError, match="unknown revision"):
        ws.read_surface("dynamics", "no-such-tag")


def test_write_surface_validation(ws: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="valid JSON"):
        ws.write_surface("probes", "{not json")
    with pytest.raises(WorkspaceError, match="JSON object"):
        ws.write_surface("critique", "[]")
    with pytest.raises(UnknownSurfaceError):
        ws.write_surface("nope", "")
    with pytest.raises(WorkspaceError, match="UTF-8"):
        ws.write_surface("dynamics", "\ud800")


def test_reopen_reads_log_and_continues(ws: Workspace, transition: Factory) -> None:
    for n in range(3):
        step(ws, n, transition)
    ws.close()
    again = Workspace.open(ws.root)
    assert sorted(again.steps()) == [0, 1, 2]
    assert [(e.step, e.prediction, e.action) for e in again.log()] == [(n, "hit", "ACTION1") for n in range(3)]
    step(again, 3, transition)
    assert [t["step"] for t in again.regression()] == [0, 1, 2, 3]
    assert git(again, "status", "--porcelain") == ""
    again.close()


def test_stale_step_index_is_rebuilt(ws: Workspace, transition: Factory) -> None:
    for n in range(3):
        step(ws, n, transition)
    index = ws.git_dir / "dreamteam-steps"
    index.write_text("garbage")
    assert Workspace.open(ws.root).steps() == ws.steps()
    index.unlink()
    assert Workspace.open(ws.root).steps() == ws.steps()


def test_interrupted_step_is_discarded_when_writing_resumes(ws: Workspace, transition: Factory) -> None:
    step(ws, 0, transition)
    committed = ws.read_surface("dynamics")
    ws.write_surface("dynamics", "half written")
    ws.add_transition(transition(1))
    ws.close()  # "crash" before commit_step
    again = Workspace.open(ws.root)
    assert (again.root / "dynamics.py").read_text() == "half written"  # opening alone changes nothing
    step(again, 1, transition)
    assert again.restored == ["dynamics.py", "evidence/window.json"]
    assert again.read_surface("dynamics", 1) == committed == (again.root / "dynamics.py").read_text()
    assert git(again, "status", "--porcelain") == ""
    again.close()


def test_reset_to_an_earlier_step(ws: Workspace, transition: Factory) -> None:
    for n in range(4):
        step(ws, n, transition)
    ws.tag_level(1, "solved", 3)
    ws.reset_to(1)
    assert sorted(ws.steps()) == [0, 1] and ws.last_step == 1
    assert "level-1-solved" not in git(ws, "tag")
    assert [t["step"] for t in ws.regression()] == [0, 1]
    step(ws, 2, transition)
    assert git(ws, "status", "--porcelain") == ""


def test_open_errors(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="does not exist"):
        Workspace.open(tmp_path / "missing")
    (tmp_path / "plain").mkdir()
    with pytest.raises(WorkspaceError, match="no .git"):
        Workspace.open(tmp_path / "plain")
    (tmp_path / "broken" / ".git").mkdir(parents=True)
    with pytest.raises(WorkspaceError):
        Workspace.open(tmp_path / "broken")


def test_commits_continue_after_a_user_runs_git_gc(ws: Workspace, transition: Factory) -> None:
    for n in range(3):
        step(ws, n, transition)
    ws.tag_level(1, "start", 0)
    git(ws, "gc", "-q")  # packs refs/heads/main and the tags into packed-refs
    assert not (ws.git_dir / "refs" / "heads" / "main").exists()
    step(ws, 3, transition)
    ws.maintain()
    step(ws, 4, transition)
    assert sorted(ws.steps()) == [0, 1, 2, 3, 4] and ws.sha_for("level-1-start") == ws.steps()[0]
    assert git(ws, "status", "--porcelain") == ""
    git(ws, "fsck", "--strict")


def test_line_endings_and_unicode_survive(ws: Workspace) -> None:
    text = "HYPOTHESES = []\r\n# caf\u00e9 \u2603\n\n\n"
    ws.write_surface("dynamics", text)
    ws.commit_step(StepRecord(0, 0, "ACTION1", hit=None))
    assert ws.read_surface("dynamics", 0) == text
    assert (ws.root / "dynamics.py").read_bytes() == text.encode()
