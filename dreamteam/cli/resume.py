"""`dreamteam play --resume RUN_DIR`: continue a killed session from its last committed step.

The workspace's last commit and the SQLite checkpoint decide where play resumes: the workspace is rolled
back to the step the checkpoint last committed, the recording is cut to the actions of the committed steps,
those actions are replayed into a fresh game (checking every frame against the recording), and the team
re-sends the action it had chosen but not committed. Other agents simply continue after the recorded actions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from dreamteam.env.catalog import Catalog
from dreamteam.env.recording import RecordingWriter
from dreamteam.env.session import Arena, GameSession
from dreamteam.errors import CorruptRunError, UserError
from dreamteam.graph.checkpoint import latest_state, sqlite_checkpointer
from dreamteam.rundir import RECORDING, RUN_JSON, read_json
from dreamteam.types import Action

CHECKPOINT = "checkpoint.sqlite"
WORKSPACE = "workspace"


def read_recording(path: Path) -> list[dict[str, Any]]:
    """The recording's events; a half-written last line (a kill mid-write) is dropped."""
    if not path.exists():
        raise CorruptRunError(f"{path} is missing: nothing to resume")
    lines = path.read_text(encoding="utf-8").splitlines()
    events: list[dict[str, Any]] = []
    for i, line in enumerate(lines):
        try:
            events.append(json.loads(line)["data"])
        except (ValueError, KeyError, TypeError) as exc:
            if i == len(lines) - 1:
                break
            raise CorruptRunError(f"{path} line {i + 1} is corrupt: {exc}") from exc
    if not events:
        raise CorruptRunError(f"{path} has no initial frame")
    return events


def truncate_recording(path: Path, events: list[dict[str, Any]], keep_actions: int) -> None:
    """Keep the initial frame and the first `keep_actions` action lines."""
    lines = path.read_text(encoding="utf-8").splitlines()[: 1 + keep_actions]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    del events[1 + keep_actions:]


def event_action(event: dict[str, Any]) -> Action:
    """The action a recording line answers."""
    ai = event.get("action_input") or {}
    return Action.from_json({"action": ai.get("id"), **(ai.get("data") or {})})


def replay_into(session: GameSession, events: list[dict[str, Any]]) -> None:
    """Send the recorded actions again, checking each resulting frame against the recording."""
    for i, event in enumerate(events[1:]):
        obs = session.step(event_action(event))
        frames = event.get("frame") or []
        if frames and not np.array_equal(np.asarray(frames[-1]), obs.grid):
            raise CorruptRunError(f"the game no longer reproduces the recording at step {i}: cannot resume")


def team_resume_point(run_dir: Path) -> tuple[int, dict[str, Any] | None]:
    """How many recorded actions to keep, and the checkpointed graph state (rolls the workspace back)."""
    from dreamteam.workspace import Workspace, remove_stale_locks

    remove_stale_locks(run_dir / WORKSPACE)  # the killed writer's, if it died inside a ref update
    saver = sqlite_checkpointer(run_dir / CHECKPOINT)
    state = latest_state(saver, "team")
    committed = state.get("committed") if state else None
    with Workspace.open(run_dir / WORKSPACE) as ws:
        last = ws.last_step
        if last is not None and (committed is None or last > committed):
            ws.reset_to(committed if committed is not None else "seed")
    return (committed + 1 if committed is not None else 0), state


def prepare_resume(run_dir: Path, catalog: Catalog) -> tuple[dict[str, Any], Arena, str, GameSession, Any]:
    """Restore the game to the resume point; returns run.json, the arena, the card, the session, the state."""
    meta = read_json(run_dir / RUN_JSON)
    if meta.get("status") == "finished":
        raise UserError(f"{run_dir} is a finished run; nothing to resume")
    events = read_recording(run_dir / RECORDING)
    if meta.get("agent") == "team":
        keep, state = team_resume_point(run_dir)
    else:
        keep, state = len(events) - 1, None
    if keep > len(events) - 1:
        raise CorruptRunError(f"the workspace has step {keep - 1} but the recording only {len(events) - 1} actions")
    truncate_recording(run_dir / RECORDING, events, keep)
    arena = Arena(catalog)
    card = arena.new_scorecard(tags=["dreamteam", str(meta.get("agent"))])
    session = arena.open(str(meta["game_id"]), card)
    replay_into(session, events)
    session.recording = RecordingWriter(run_dir / RECORDING)
    return meta, arena, card, session, state
