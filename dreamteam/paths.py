"""Where the project's data folders are (bundled games, seeds, run outputs)."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent


def bundled_games_dir() -> Path:
    """The `games/` folder of this checkout (override with DREAMTEAM_GAMES_DIR)."""
    return Path(os.environ.get("DREAMTEAM_GAMES_DIR", REPO_ROOT / "games"))


def default_replays_dir() -> Path:
    """Where run directories go by default (override with DREAMTEAM_REPLAYS_DIR)."""
    return Path(os.environ.get("DREAMTEAM_REPLAYS_DIR", REPO_ROOT / "replays"))
