"""The built-in JSON-schema subset validator and the role reply schemas."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamteam.backends.errors import SchemaError
from dreamteam.backends.schemas import ACTION, LEADER_REPLY, ROLE_SCHEMAS
from dreamteam.backends.validate import validate
from dreamteam.types import Action

MINIMAL: dict[str, dict[str, Any]] = {
    "observer": {"patch": None, "notes": ""},
    "simulator": {"patch": "HYPOTHESES = []\n", "notes": "x"},
    "inductive": {"patch": None, "notes": "", "tactics": [
        {"name": "t", "sub_goal": "reach goal", "actions": [{"action": "ACTION3"}], "expected": "moves"}]},
    "transductive": {"probes": [{"actions": [{"action": "ACTION6", "x": 1, "y": 2}], "expected_effect": "e",
                                 "target_hypothesis": "h"}], "notes": ""},
    "critic": {"flags": ["grinding loop"], "feedback": {"leader": "stop"}, "notes": ""},
    "leader": {"goal": "VALIDATE", "plan": [], "source": "leader", "confidence": 1, "reason": "r"},
}


@pytest.mark.parametrize("role", sorted(ROLE_SCHEMAS))
def test_each_role_schema_accepts_a_minimal_reply(role: str) -> None:
    assert validate(MINIMAL[role], ROLE_SCHEMAS[role]) == []


def test_errors_name_the_path() -> None:
    reply = {"goal": "WIN", "plan": [{"action": "ACTION6", "x": 64, "y": "3"}], "source": "s", "confidence": 2,
             "reason": "r", "extra": 1}
    assert validate(reply, LEADER_REPLY) == [
        "$.goal: \"WIN\" is not one of [\"GOAL\", \"DISCOVER\", \"VALIDATE\", \"REFUTE\"]",
        "$.plan[0].x: 64 is greater than the maximum 63",
        "$.plan[0].y: expected integer, got \"3\"",
        "$.confidence: 2 is greater than the maximum 1",
        "$: unexpected property 'extra'",
    ]


def test_missing_and_mistyped() -> None:
    assert validate({"notes": 3}, ROLE_SCHEMAS["observer"]) == [
        "$: missing required property 'patch'", "$.notes: expected string, got 3"]
    assert validate([], ROLE_SCHEMAS["observer"]) == ["$: expected object, got []"]


def test_integers_and_booleans() -> None:
    schema = {"type": "integer"}
    assert validate(3.0, schema) == []
    assert validate(True, schema) == ["$: expected integer, got true"]
    assert validate(True, {"type": "number"}) == ["$: expected number, got true"]


def test_any_of_and_additional_schema() -> None:
    schema = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "integer"}}]}
    assert validate([1, 2], schema) == [] and validate("s", schema) == []
    assert validate([1, "x"], schema) == ["$: [1, \"x\"] matches none of the 2 allowed shapes"]
    assert validate({"a": 1}, {"type": "object", "additionalProperties": {"type": "string"}}) == [
        "$.a: expected string, got 1"]


def test_unsupported_keywords_are_refused() -> None:
    with pytest.raises(SchemaError, match="unsupported keywords: pattern"):
        validate("x", {"type": "string", "pattern": "^a"})


@given(st.sampled_from(range(8)), st.integers(0, 63), st.integers(0, 63))
def test_every_action_validates(action_id: int, x: int, y: int) -> None:
    action = Action(action_id, x, y) if action_id == 6 else Action(action_id)
    assert validate(action.to_json(), ACTION) == []
