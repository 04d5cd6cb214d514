"""Fixtures for the workspace tests: real git repositories in tmp_path."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dreamteam.codec import encode_grid
from dreamteam.workspace import Workspace, seed_path


class FakeClock:
    """A clock that advances one second per call, so commit times are reproducible."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1
        return self.now


def make_transition(step: int, *, level: int = 0, level_up: bool = False, game_over: bool = False,
                    colour: int = 3) -> dict[str, Any]:
    """A transition in the shared format whose `after` frame differs from `before` in one cell."""
    before = np.zeros((64, 64), dtype=np.int8)
    after = before.copy()
    after[step % 64, (step // 64) % 64] = colour
    return {"step": step, "level": level, "action": {"action": "ACTION1"}, "before": encode_grid(before),
            "after": encode_grid(after), "frames": 1, "history": {}, "level_up": level_up,
            "game_over": game_over}


@pytest.fixture
def transition() -> Callable[..., dict[str, Any]]:
    """The `make_transition` factory."""
    return make_transition


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    """A fresh workspace created from seeds/default with a deterministic clock."""
    workspace = Workspace.create(tmp_path / "run" / "workspace", seed_path("default"), clock=FakeClock())
    yield workspace
    workspace.close()
