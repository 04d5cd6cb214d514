"""`dreamteam sandbox check|run`: exit codes 0 (ok), 1 (rejected or raised), 2 (killed by a limit)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from dreamteam.cli import sandbox_cmd
from dreamteam.sandbox import demo

GOOD = "HYPOTHESES = []\n\n\ndef predict(z, h, a):\n    print('seen', a['action'])\n    return {'n': z['n'] + 1}\n"
OUT_OF_SCOPE = "import os\nparse = 1\n\n\ndef predict(z, h, a):\n    return z\n"
HANGS = "def predict(z, h, a):\n    while True:\n        pass\n"


def artifact(tmp_path: Path, text: str, name: str = "dynamics.py") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_register_adds_the_command_to_a_fresh_parser() -> None:
    parser = argparse.ArgumentParser()
    sandbox_cmd.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["sandbox", "run", "dynamics", "f.py", "predict", "--args-json", "[1]"])
    assert (args.surface, args.file, args.function, args.args_json) == ("dynamics", "f.py", "predict", "[1]")
    assert args.handler is sandbox_cmd.run_function


def test_check_accepts_an_in_scope_artifact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sandbox_cmd.main(["check", "observation", artifact(tmp_path, demo.OBSERVABLE, "observable.py")]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


def test_check_lists_every_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sandbox_cmd.main(["check", "dynamics", artifact(tmp_path, OUT_OF_SCOPE)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [
        "  line 2: 'parse' is not a name the dynamics surface owns "
        "(owned: HYPOTHESES, history, predict; helper names must start with 'dyn_')",
        "  line 1: import of 'os' is not allowed (allowed modules: collections, functools, grid, itertools, math)",
    ]


def test_check_of_a_missing_file_is_a_rejection(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sandbox_cmd.main(["check", "dynamics", str(tmp_path / "absent.py")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_run_prints_the_json_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = sandbox_cmd.main(["run", "dynamics", artifact(tmp_path, GOOD), "predict",
                             "--args-json", '[{"n": 41}, {}, {"action": "ACTION2"}]'])
    captured = capsys.readouterr()
    assert code == 0 and json.loads(captured.out) == {"n": 42} and captured.err == "seen ACTION2\n"


def test_run_reports_rejections_and_errors_with_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sandbox_cmd.main(["run", "dynamics", artifact(tmp_path, OUT_OF_SCOPE), "predict"]) == 1
    assert capsys.readouterr().err.startswith("rejected: line 2: 'parse' is not a name")
    assert sandbox_cmd.main(["run", "dynamics", artifact(tmp_path, GOOD), "predict", "--args-json", "{}"]) == 1
    assert "must be a JSON list" in capsys.readouterr().err
    assert sandbox_cmd.main(["run", "dynamics", artifact(tmp_path, GOOD), "predict", "--args-json", "[{}, {}, {}]"]) == 1
    assert capsys.readouterr().err.endswith("error: KeyError: 'action' (dynamics.py line 5)\n")


def test_run_reports_a_limit_kill_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = sandbox_cmd.main(["run", "dynamics", artifact(tmp_path, HANGS), "predict", "--args-json", "[{}, {}, {}]",
                             "--timeout", "0.3"])
    assert code == 2 and capsys.readouterr().err == "killed: timeout after 0.3s\n"


def test_module_entry_point(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "dreamteam.cli.sandbox_cmd", "check", "dynamics", artifact(tmp_path, GOOD)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("ok: ")
