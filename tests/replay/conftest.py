"""Fixtures for the replay and runs tests: real runs of the fixture game and of bundled games."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.replay.helpers import make_run


@pytest.fixture(scope="session")
def tiny_run_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One explorer run of the fixture game `tiny` (made once, copied per test)."""
    fixture_games = Path(__file__).resolve().parents[1] / "fixtures" / "games"
    return make_run(tmp_path_factory.mktemp("runs") / "tiny-run", "tiny", env_dir=fixture_games, budget=30)


@pytest.fixture
def tiny_run(tiny_run_template: Path, tmp_path: Path) -> Path:
    """A fresh copy of the tiny run that a test may tamper with."""
    return Path(shutil.copytree(tiny_run_template, tmp_path / "run"))
