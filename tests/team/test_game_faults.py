"""Game code that raises inside `step`: the session ends with a clear message, what was committed is kept,
and a bench goes on with the next game."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dreamteam.cli import main
from dreamteam.workspace import Workspace
from tests.conftest import FIXTURE_GAMES

CRASH_AFTER = 4
"""The game's step raises from its fifth call (the first is the initial RESET)."""


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """The tiny fixture game, and a copy of it ("boom") whose step raises after a few actions."""
    root = tmp_path / "games"
    shutil.copytree(FIXTURE_GAMES / "tiny", root / "tiny")
    shutil.copytree(FIXTURE_GAMES / "tiny", root / "boom")
    source = root / "boom" / "v1" / "tiny.py"
    source.write_text(source.read_text().replace(
        "    def step(self) -> None:\n",
        "    def step(self) -> None:\n        self.calls = getattr(self, 'calls', 0) + 1\n"
        f"        if self.calls > {CRASH_AFTER}:\n            raise RuntimeError('boom in step')\n",
    ).replace('game_id="tiny"', 'game_id="boom"'))
    meta = root / "boom" / "v1" / "metadata.json"
    meta.write_text(meta.read_text().replace('"tiny-v1"', '"boom-v1"'))
    return root


def test_a_game_that_raises_ends_the_session_with_its_steps_kept(games: Path, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    code = main(["play", "boom", "--env-dir", str(games), "--budget", "20", "--out", str(run), "--quiet"])
    err = capsys.readouterr().err
    assert code != 0
    assert "error: game boom-v1 failed on" in err
    recorded = (run / "recording.jsonl").read_text().splitlines()
    with Workspace.open(run / "workspace") as ws:
        steps = sorted(ws.steps())
    assert steps == list(range(CRASH_AFTER - 1)), "every step the game answered is committed, once"
    assert len(recorded) == 1 + len(steps), "the recording holds exactly the committed actions"


def test_a_bench_goes_on_after_a_game_that_raises(games: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    assert main(["bench", "--env-dir", str(games), "--games", "boom,tiny", "--budget", "10", "--out", str(out)]) == 0
    results = {g["game_id"]: g for g in json.loads(out.read_text())["games"]}
    assert "failed on" in str(results["boom-v1"].get("error"))
    assert results["tiny-v1"]["actions"] == 10 and not results["tiny-v1"].get("error")
