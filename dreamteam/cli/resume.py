"""`dreamteam play --resume RUN_DIR`: continue a killed session from its last committed step.

The workspace's last commit and the SQLite checkpoint decide where play resumes: the workspace is rolled
back to the step the checkpoint last committed, the recording is cut to the actions of the committed steps,
those actions are replayed into a fresh game (checking every frame against the recording), and the team
re-sends the action it had chosen but not committed. Other agents simply continue after the recorded actions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dreamteam.env.catalog import Catalog
from dreamteam.env.recording import RecordingWriter
from dreamteam.env.replay import RecordedFrame, parse_recording
from dreamteam.env.session import Arena, GameSession
from dreamteam.errors import CorruptRunError, UserError
from dreamteam.graph.checkpoint import latest_state, sqlite_checkpointer
from dreamteam.rundir import RECORDING, RUN_JSON, read_json
from dreamteam.types import Action

CHECKPOINT = "checkpoint.sqlite"
WORKSPACE = "workspace"


def complete_lines(path: Path) -> str:
    """The recording's text without an unfinished last line (a kill mid-write leaves one; it was never
    committed); nothing is written, so a resume that is refused later leaves the file as it was."""
    if not path.exists():
        raise CorruptRunError(f"{path} is missing: nothing to resume")
    text = path.read_text(encoding="utf-8")
    return text if not text or text.endswith("\n") else text[: text.rfind("\n") + 1]


def truncate_recording(path: Path, keep_actions: int) -> None:
    """Keep the initial frame and the first `keep_actions` action lines."""
    lines = path.read_text(encoding="utf-8").splitlines()[: 1 + keep_actions]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def replay_into(session: GameSession, entries: Sequence[RecordedFrame]) -> None:
    """Send the recorded actions again, checking each resulting frame against the recording."""
    for i, entry in enumerate(entries):
        obs = session.step(Action.from_json({"action": entry.action_id, **entry.data}))
        if entry.grid is not None and not np.array_equal(entry.grid, obs.grid):
            raise CorruptRunError(f"the game no longer reproduces the recording at step {i}: cannot resume")


def team_resume_point(run_dir: Path, recorded_actions: int) -> tuple[int, dict[str, Any] | None]:
    """How many recorded actions to keep, and the checkpointed graph state; rolls the workspace back to the
    checkpoint's last committed step, after checking that the three agree (nothing is changed otherwise)."""
    from dreamteam.workspace import Workspace, remove_stale_locks

    missing = not (run_dir / CHECKPOINT).exists()
    state = read_checkpoint(run_dir / CHECKPOINT)
    committed = state.get("committed") if state else None
    keep = committed + 1 if committed is not None else 0
    if keep > recorded_actions:
        raise CorruptRunError(f"the workspace has step {keep - 1} but the recording only {recorded_actions} actions")
    with Workspace.open(run_dir / WORKSPACE) as ws:
        last = ws.last_step
        if missing and last is not None:
            raise CorruptRunError(f"{run_dir / CHECKPOINT} is missing but the workspace has {last + 1} committed "
                                  "steps: the team's state at its last step is unknown, cannot resume")
        if committed is not None and (last is None or last < committed):
            raise CorruptRunError(f"the checkpoint's last committed step is {committed} but the workspace's is "
                                  f"{'none' if last is None else last}: steps are missing, cannot resume")
        remove_stale_locks(run_dir / WORKSPACE)  # the killed writer's, if it died inside a ref update
        if last is not None and (committed is None or last > committed):
            ws.reset_to(committed if committed is not None else "seed")
    return keep, state


def read_checkpoint(path: Path) -> dict[str, Any] | None:
    """The team's last checkpointed graph state; CorruptRunError (nothing changed) when the file cannot be read."""
    if not path.exists():
        return None
    try:
        state = latest_state(sqlite_checkpointer(path), "team")
    except (sqlite3.Error, ValueError, TypeError, KeyError) as exc:
        raise CorruptRunError(
            f"{path} is corrupt ({type(exc).__name__}: {exc}): the team's state at its last step is unknown, "
            "cannot resume; the workspace and the recording are left as they are") from None
    if state is not None and not isinstance(state.get("committed", -1), int | None):
        raise CorruptRunError(f"{path} holds a state whose last committed step is not a number: cannot resume")
    return state


def prepare_resume(run_dir: Path, catalog: Catalog) -> tuple[dict[str, Any], Arena, str, GameSession, Any]:
    """Restore the game to the resume point; returns run.json, the arena, the card, the session, the state."""
    meta = read_json(run_dir / RUN_JSON)
    if meta.get("status") == "finished":
        raise UserError(f"{run_dir} is a finished run; nothing to resume")
    text = complete_lines(run_dir / RECORDING)
    recorded = parse_recording(run_dir / RECORDING, text).actions
    if meta.get("agent") == "team":
        keep, state = team_resume_point(run_dir, len(recorded))
    else:
        keep, state = len(recorded), None
    truncate_recording(run_dir / RECORDING, keep)
    arena = Arena(catalog)
    card = arena.new_scorecard(tags=["dreamteam", str(meta.get("agent"))])
    session = arena.open(str(meta["game_id"]), card)
    replay_into(session, recorded[:keep])
    session.recording = RecordingWriter(run_dir / RECORDING)
    return meta, arena, card, session, state
