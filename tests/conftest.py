"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURE_GAMES = Path(__file__).parent / "fixtures" / "games"


@pytest.fixture
def fixture_games() -> Path:
    """A directory holding the tiny fixture game in the toolkit layout."""
    return FIXTURE_GAMES


@pytest.fixture(autouse=True)
def _no_env_dirs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ENVIRONMENTS_DIR", raising=False)
    monkeypatch.setenv("DREAMTEAM_REPLAYS_DIR", str(tmp_path / "replays"))


@pytest.fixture(autouse=True)
def _fresh_fault_journal() -> None:
    """Each test starts with an empty process-wide fault journal (sources one test faulted stay its own)."""
    from dreamteam.sandbox.inprocess import JOURNAL

    JOURNAL.clear()
