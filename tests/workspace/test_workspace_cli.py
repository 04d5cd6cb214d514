"""`dreamteam log | show | diff` on real run directories: output and exit codes, never a traceback."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dreamteam.cli.workspace_cmd import run
from dreamteam.workspace import PatchOutcome, StepRecord, Workspace

Factory = Callable[..., dict[str, Any]]


@pytest.fixture
def run_dir(ws: Workspace, transition: Factory) -> Path:
    """A run directory whose workspace has three steps, one with an accepted patch."""
    for n in range(3):
        ws.add_transition(transition(n))
        patches: tuple[PatchOutcome, ...] = ()
        if n == 1:
            ws.write_surface("dynamics", "HYPOTHESES = []\n# learned something\n")
            patches = (PatchOutcome("dynamics", "Simulator", True, "no regression"),
                       PatchOutcome("strategy", "Inductive Explorer", False, "scope"))
        ws.commit_step(StepRecord(n, 0, "ACTION6@(3,4)" if n == 2 else "ACTION1", hit=n != 2,
                                  wrong_cells=5 if n == 2 else 0, patches=patches))
    ws.tag_level(0, "solved")
    return ws.root.parent


def test_log(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["log", str(run_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert "step     1  level  0  ACTION1" in lines[1] and "dynamics=accepted, strategy=rejected" in lines[1]
    assert "ACTION6@(3,4)" in lines[2] and "miss (5)" in lines[2] and lines[2].endswith(" -")


def test_log_of_a_fresh_workspace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dreamteam.workspace import seed_path

    Workspace.create(tmp_path / "workspace", seed_path("blank")).close()
    assert run(["log", str(tmp_path)]) == 0
    assert "no step commits yet" in capsys.readouterr().out


def test_show_and_diff(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["show", str(run_dir), "1", "--surface", "dynamics"]) == 0
    out = capsys.readouterr().out
    assert "step 1 · level 0 · ACTION1 · prediction hit · 1 patch accepted, 1 rejected" in out
    assert "+# learned something" in out and "evidence/" not in out
    assert run(["diff", str(run_dir), "seed", "level-0-solved", "--surface", "dynamics"]) == 0
    assert "+# learned something" in capsys.readouterr().out
    assert run(["diff", str(run_dir / "workspace"), "0", "2"]) == 0  # RUN_DIR may be the workspace itself
    assert "evidence/transitions/000/000002.json" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["show", "{run}", "9"], "step 9 is not in this workspace (steps 0..2)"),
    (["diff", "{run}", "0", "nope"], "unknown revision 'nope'"),
    (["show", "{run}", "1", "--surface", "physics"], "unknown surface 'physics'"),
    (["log", "{run}/missing"], "does not exist"),
    (["log", "{tmp}"], "has no workspace/ folder"),
])
def test_user_errors_exit_1_with_a_message(run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           argv: list[str], message: str) -> None:
    (tmp_path / "empty").mkdir()
    args = [a.format(run=run_dir, tmp=tmp_path / "empty") for a in argv]
    assert run(args) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("error: ") and message in captured.err and "Traceback" not in captured.err


def test_corrupt_workspace_exits_1(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    git_dir = run_dir / "workspace" / ".git"
    shutil.rmtree(git_dir / "objects")
    (git_dir / "objects").mkdir()
    assert run(["log", str(run_dir)]) == 1
    assert capsys.readouterr().err.startswith("error: ")
    (git_dir / "HEAD").write_text("garbage\n")
    assert run(["show", str(run_dir), "1"]) == 1
    assert "error: " in capsys.readouterr().err
