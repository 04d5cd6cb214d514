"""Resuming a killed session whose run directory was damaged: a clear refusal, or a consistent resume.

One session is killed with SIGKILL once a third of its steps are recorded; each test damages a copy of it
(checkpoint, recording, workspace HEAD) and resumes. A refusal must name the damaged file, leave the run
directory as it was, and exit non-zero without a traceback; a resume must end consistent (every step once, and
`dreamteam replay` verifies every frame).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from dreamteam.cli import main
from dreamteam.cli.resume import read_checkpoint
from dreamteam.errors import CorruptRunError
from tests.team.scripts_util import write_script
from tests.team.test_resume import BUDGET, _check_consistent, _kill_after, _start

KILL_AT = BUDGET // 3
DERIVED = {"dreamteam-steps"}
"""The workspace's step-index cache (rebuilt from the commits whenever it is stale): not part of the digest."""


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A team session killed after KILL_AT recorded actions."""
    base = tmp_path_factory.mktemp("killed")
    run = base / "run"
    _kill_after(_start(run, write_script(base / "s.json")), run / "recording.jsonl", KILL_AT + 1)
    assert json.loads((run / "run.json").read_text())["status"] == "running"
    return run


@pytest.fixture
def run(killed: Path, tmp_path: Path) -> Path:
    """A fresh copy of the killed session, with the lock file of a writer killed inside a ref update (the kill
    lands there only sometimes; every test sees it, so a refusal must leave it and a resume must clear it), and
    the recording's last line cut off mid-write."""
    copy = tmp_path / "run"
    shutil.copytree(killed, copy)
    (copy / "workspace" / ".git" / "refs" / "heads" / "main.lock").touch()
    (copy / "workspace" / ".git" / "dreamteam-steps").unlink(missing_ok=True)  # stale after some kills: rebuilt
    recording = copy / "recording.jsonl"  # and a line cut off mid-write, which a resume drops
    if recording.read_text().endswith("\n"):
        with open(recording, "a") as handle:
            handle.write('{"timestamp": "2026-01-01T00:00:00", "data": {"game_id": "ma')
    return copy


def _digest(run: Path) -> dict[str, str]:
    """A digest per file of the run directory; the checkpoint by its content (SQLite may move its log into the
    database file when the last reader closes it)."""
    files = {str(p.relative_to(run)): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted(run.rglob("*"))
             if p.is_file() and not p.name.startswith("checkpoint.sqlite") and p.name not in DERIVED}
    try:
        files["checkpoint"] = repr(read_checkpoint(run / "checkpoint.sqlite"))
    except CorruptRunError as exc:
        files["checkpoint"] = str(exc)
    return files


def _refused(run: Path, capsys: pytest.CaptureFixture[str], *needles: str) -> None:
    before = _digest(run)
    assert main(["play", "--resume", str(run), "--quiet"]) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and all(n in err for n in needles), err
    after = _digest(run)
    assert after == before, [name for name in set(before) | set(after) if before.get(name) != after.get(name)]


def test_a_checkpoint_that_is_not_a_database_is_refused(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checkpoint = run / "checkpoint.sqlite"
    checkpoint.write_bytes(os.urandom(max(8192, checkpoint.stat().st_size)))
    for extra in ("checkpoint.sqlite-wal", "checkpoint.sqlite-shm"):
        (run / extra).unlink(missing_ok=True)
    _refused(run, capsys, "checkpoint.sqlite is corrupt", "cannot resume")


def test_a_missing_checkpoint_is_refused_when_steps_were_committed(run: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("checkpoint.sqlite", "checkpoint.sqlite-wal", "checkpoint.sqlite-shm"):
        (run / name).unlink(missing_ok=True)
    _refused(run, capsys, "checkpoint.sqlite is missing", "committed steps")


def test_a_torn_checkpoint_log_resumes_from_the_last_intact_step(run: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    wal = run / "checkpoint.sqlite-wal"
    assert wal.exists() and wal.stat().st_size > 4096, "a killed session leaves its write-ahead log"
    data = bytearray(wal.read_bytes())
    half = len(data) // 2
    data[half:] = os.urandom(len(data) - half)
    wal.write_bytes(bytes(data))
    assert main(["play", "--resume", str(run), "--quiet"]) == 0
    _check_consistent(run)
    assert main(["replay", str(run)]) == 0, capsys.readouterr().out


def test_a_truncated_recording_is_refused(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording = run / "recording.jsonl"
    lines = recording.read_text().splitlines()
    recording.write_text("".join(line + "\n" for line in lines[:3]))
    _refused(run, capsys, "the recording only 2 actions")


def test_a_garbled_recording_line_is_refused(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording = run / "recording.jsonl"
    lines = recording.read_text().splitlines()
    lines[2] = lines[2][: len(lines[2]) // 2] + "\x00garbage"
    recording.write_text("".join(line + "\n" for line in lines))
    _refused(run, capsys, "recording.jsonl")


def test_a_workspace_with_a_broken_head_is_refused(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (run / "workspace" / ".git" / "HEAD").write_text("ref: refs/heads/gone\n")
    _refused(run, capsys, "broken HEAD")


def test_a_workspace_behind_the_checkpoint_is_refused(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dreamteam.workspace import Workspace, remove_stale_locks

    remove_stale_locks(run / "workspace")  # the kill may have landed inside a ref update; this test rewinds HEAD
    with Workspace.open(run / "workspace") as ws:
        last = ws.last_step
        assert last is not None and last >= 3
        ws.reset_to(last - 2)
    _refused(run, capsys, "steps are missing", "cannot resume")
