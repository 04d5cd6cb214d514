"""A run directory names the symbolic backend, never the module it lives in, so moving the package (from
`roles/symbolic/` to `backends/symbolic/`) leaves old run directories resumable without an alias."""

from __future__ import annotations

from pathlib import Path

from dreamteam.cli import main


def test_a_symbolic_run_directory_records_no_module_path(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert main(["play", "maze", "--agent", "team", "--budget", "4", "--out", str(run), "--quiet"]) == 0
    files = [p for p in run.rglob("*") if p.is_file() and ".git" not in p.relative_to(run).parts]
    assert {p.name for p in files} >= {"run.json", "calls.jsonl", "checkpoint.sqlite", "dynamics.py"}
    for path in files:
        data = path.read_bytes()
        assert b"dreamteam.backends" not in data and b"dreamteam.roles" not in data, path
    assert b'"backend": "symbolic"' in (run / "run.json").read_bytes()
