"""Shared fixtures: a loopback fake vendor, a realistic leader request, a tiny retry policy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dreamteam.backends.config import RoleConfig
from dreamteam.backends.registry import BACKENDS, BuildContext
from dreamteam.backends.retry import RetryPolicy
from dreamteam.backends.schemas import LEADER_REPLY
from dreamteam.backends.scripted import ScriptedModel
from dreamteam.protocols import RoleRequest
from tests.backends.fake_vendor import FakeVendor, running_vendor

GOOD_LEADER = {
    "goal": "DISCOVER",
    "plan": [{"action": "ACTION1"}, {"action": "ACTION6", "x": 12, "y": 40}],
    "source": "probe-3",
    "confidence": 0.4,
    "reason": "predictions failed twice; probe the click rule",
}


def stand_in_symbolic(role: RoleConfig, context: BuildContext) -> ScriptedModel:
    """Stands in for dreamteam.backends.symbolic:build, which tests/backends/symbolic tests for real."""
    return ScriptedModel({})


@pytest.fixture(autouse=True)
def _symbolic_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BACKENDS, "symbolic", "tests.backends.conftest:stand_in_symbolic")


@pytest.fixture
def vendor() -> Iterator[FakeVendor]:
    with running_vendor() as server:
        yield server


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def retry(sleeps: list[float]) -> RetryPolicy:
    return RetryPolicy(max_retries=2, base_delay_s=0.01, max_delay_s=1.0, sleep=sleeps.append)


def leader_request(**context: Any) -> RoleRequest:
    grid = [[0] * 8 for _ in range(6)]
    grid[2][3] = 11
    base = {"frame": grid, "budget": {"actions_left": 37}, "peer_feedback": {"critic": "stop grinding ACTION1"}}
    return RoleRequest(
        role="leader", task="choose the next plan", surface='{"goal": "DISCOVER"}',
        context={**base, **context}, schema=LEADER_REPLY,
    )
