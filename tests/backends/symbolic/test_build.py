"""`build` and the RoleModel wrapper: every role answers within its schema; failures are data."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from dreamteam.backends.schemas import ROLE_SCHEMAS, ROLES
from dreamteam.backends.symbolic import build
from dreamteam.protocols import RoleModel, RoleRequest


@dataclass(frozen=True)
class FakeRoleConfig:
    role: str


@pytest.mark.parametrize("role", ROLES)
def test_every_role_builds_and_answers_an_empty_request(role: str) -> None:
    model = build(FakeRoleConfig(role), None)
    assert isinstance(model, RoleModel) and model.name == "symbolic"
    reply = model.respond(RoleRequest(role, "task", "", {}, ROLE_SCHEMAS[role]))
    assert reply.ok, reply.error
    assert reply.usage.model == f"symbolic-{role}" and reply.usage.latency_s >= 0


def test_unknown_role_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no symbolic model for role 'cook'"):
        build("cook")


def test_malformed_transitions_are_skipped() -> None:
    model = build("simulator")
    bad = {"step": 0, "before": ["zz"], "after": 3, "action": 5}
    reply = model.respond(RoleRequest("simulator", "maintain", "", {"transitions": [bad]}, ROLE_SCHEMAS["simulator"]))
    assert reply.ok and reply.content["patch"] is None


def test_a_failing_algorithm_becomes_a_failed_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    model = build("critic")

    def explode(request: RoleRequest) -> dict[str, object]:
        raise RuntimeError("boom")

    monkeypatch.setattr(model.answerer, "answer", explode)
    reply = model.respond(RoleRequest("critic", "audit", "", {}, ROLE_SCHEMAS["critic"]))
    assert not reply.ok and reply.error == "symbolic critic failed: RuntimeError: boom" and reply.content == {}


def test_options_reach_the_algorithm() -> None:
    model = build("leader", trust=0.1)
    context = {"tactics": [{"name": "t", "sub_goal": "g", "actions": [{"action": "ACTION1"}], "expected": ""}],
               "probes": [], "critique": {}, "prediction_accuracy": 0.2, "budget_left": 5, "fatal_actions": []}
    reply = model.respond(RoleRequest("leader", "decide", "", context, ROLE_SCHEMAS["leader"]))
    assert reply.content["source"] == "t"
