"""The disk fills or the run directory turns read-only mid-session: a clear error, then a clean resume.

The fault is injected where the session writes (the recording, the workspace's step commit) after a third of
the steps. `play` must stop with exit code 3 and a message that says what is kept and how to resume, with no
traceback; once the fault is gone, `play --resume` finishes the run with every step committed once, and
`dreamteam replay` verifies it.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest

from dreamteam.cli import main
from dreamteam.env.recording import RecordingWriter
from dreamteam.workspace.writer import Writer
from tests.team.scripts_util import write_script
from tests.team.test_resume import BUDGET, _check_consistent

FAULTS = {"ENOSPC": errno.ENOSPC, "EROFS": errno.EROFS}
TARGETS: dict[str, tuple[type, str]] = {"recording": (RecordingWriter, "write"), "commit": (Writer, "commit")}


def _fail_after(monkeypatch: pytest.MonkeyPatch, target: str, code: int, calls: int) -> None:
    owner, name = TARGETS[target]
    original = getattr(owner, name)
    seen = {"n": 0}

    def failing(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen["n"] += 1
        if seen["n"] > calls:
            raise OSError(code, f"simulated: {errno.errorcode[code]}", "run-dir-file")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(owner, name, failing)


@pytest.mark.parametrize("fault", sorted(FAULTS))
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_storage_fault_stops_play_cleanly_and_the_run_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str], target: str,
                                                                fault: str) -> None:
    run, script = tmp_path / "run", write_script(tmp_path / "s.json")
    with monkeypatch.context() as patch:
        _fail_after(patch, target, FAULTS[fault], BUDGET // 3)
        code = main(["play", "maze", "--agent", "team", "--budget", str(BUDGET), "--backend", "scripted",
                     "--script", str(script), "--out", str(run), "--quiet"])
    err = capsys.readouterr().err
    assert code == 3, err
    assert "cannot write the run directory" in err and "simulated" in err and "--resume" in err
    assert "Traceback" not in err
    assert main(["play", "--resume", str(run), "--quiet"]) == 0, capsys.readouterr().err
    _check_consistent(run)
    assert main(["replay", str(run)]) == 0
