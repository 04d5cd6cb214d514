"""The SQLite checkpointer that makes a killed session resumable."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver


def sqlite_checkpointer(path: Path) -> Any:
    """A LangGraph SqliteSaver on `path` (created when missing).

    The saver runs the database in WAL mode; `synchronous=NORMAL` keeps every committed step across a killed
    process (only a power loss can drop the last steps) and saves an fsync per environment step.
    """
    conn = sqlite3.connect(str(path), check_same_thread=False)
    saver = SqliteSaver(conn)
    saver.setup()
    conn.execute("PRAGMA synchronous=NORMAL")
    return saver


def latest_state(checkpointer: Any, thread_id: str) -> dict[str, Any] | None:
    """The newest checkpointed state values of a thread, or None."""
    snapshot = checkpointer.get_tuple({"configurable": {"thread_id": thread_id}})
    if snapshot is None:
        return None
    values: dict[str, Any] = dict(snapshot.checkpoint.get("channel_values", {}))
    return values
