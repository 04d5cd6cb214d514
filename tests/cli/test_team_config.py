"""Bad team configuration fails fast, before the game starts, with a clear message."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamteam.cli import main


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--backend", "gpt5"], "unknown backend 'gpt5'"),
        (["--backend", "captain=openai"], "unknown role 'captain'"),
        (["--backend", "leader=anthropic"], "ANTHROPIC_API_KEY"),
        (["--backend", "simulator=openai", "--base-url", "http://127.0.0.1:9"], "127.0.0.1:9"),
    ],
)
def test_bad_backend_config(flags: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    run = tmp_path / "run"
    assert main(["play", "maze", "--agent", "team", "--out", str(run), *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not run.exists(), "nothing is written before the configuration is valid"


def test_unknown_seed_workspace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    assert main(["play", "maze", "--agent", "team", "--seed-workspace", "nope", "--out", str(run)]) == 2
    assert "unknown seed workspace 'nope'" in capsys.readouterr().err and not run.exists()
