"""Fixtures for the sandbox tests: real worker processes, the demo maze world."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dreamteam.sandbox import Limits, Sandbox, demo

DYNAMICS_OWNED = ("HYPOTHESES", "predict", "history")
COMPANIONS = {"observable.py": demo.OBSERVABLE}
TEST_LIMITS = Limits(time_s=1.0, kill_grace_s=0.5, replay_time_s=20.0)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    """A sandbox with a ready spare, shared by the tests of one module."""
    with Sandbox(TEST_LIMITS) as box:
        box.start(wait_for_spare=True)
        yield box


@pytest.fixture(scope="session")
def maze() -> list[dict[str, Any]]:
    """60 transitions of the demo maze world."""
    return demo.transitions(60, seed=3)
