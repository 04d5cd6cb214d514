"""Fixtures for the viewer tests: a run of the fixture game with a team-style workspace, a click game run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.replay.helpers import make_run
from tests.viewer.team_workspace import add_team_workspace

FIXTURE_GAMES = Path(__file__).resolve().parents[1] / "fixtures" / "games"


@pytest.fixture(scope="session")
def team_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An explorer run of `tiny` (30 actions, a level-up and game overs) plus a workspace with a commit per step."""
    run = make_run(tmp_path_factory.mktemp("viewer") / "tiny-team", "tiny", env_dir=FIXTURE_GAMES, budget=30)
    add_team_workspace(run)
    return run


@pytest.fixture(scope="session")
def click_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random run of the click-only bundled game `flip` (no workspace)."""
    return make_run(tmp_path_factory.mktemp("viewer") / "flip-random", "flip", agent="random", budget=24, seed=3)


@pytest.fixture(scope="session")
def real_team_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real `--agent team` run (symbolic role models) of `tiny`: workspace, checkpoint and all."""
    return make_run(tmp_path_factory.mktemp("viewer") / "tiny-real-team", "tiny", agent="team",
                    env_dir=FIXTURE_GAMES, budget=20)
