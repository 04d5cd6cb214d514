"""Run directories: `replays/<run-id>/` with run.json, recording.jsonl, scorecard.json (and later the workspace)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dreamteam import __version__
from dreamteam.errors import UserError
from dreamteam.paths import REPO_ROOT

RUN_JSON = "run.json"
RECORDING = "recording.jsonl"
SCORECARD = "scorecard.json"


def now_iso() -> str:
    """Current UTC time in ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_run_id(game_id: str, agent: str) -> str:
    """A sortable, unique run id: `<utc time>-<game>-<agent>-<4 hex>`."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{game_id}-{agent}-{secrets.token_hex(2)}"


def create_run_dir(path: Path) -> Path:
    """Create an empty run directory (refusing to overwrite a non-empty one)."""
    if path.exists() and any(path.iterdir()):
        raise UserError(f"run directory {path} already exists and is not empty; choose another --out")
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically (temp file + rename) so a killed process never leaves half a file."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def read_json(path: Path) -> Any:
    """Read a JSON file of a run directory, with a clear error when missing or corrupt."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise UserError(f"{path} is missing: is {path.parent} a DreamTeam run directory?") from exc
    except (OSError, ValueError) as exc:
        raise UserError(f"{path} is unreadable or corrupt: {exc}") from exc


def code_version() -> dict[str, Any]:
    """The package version and, when run from a git checkout, its commit."""
    sha = None
    try:
        out = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=5, check=False,
        )
        sha = out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        sha = None
    return {"dreamteam": __version__, "git": sha}
