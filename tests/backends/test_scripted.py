"""The deterministic scripted model: ordered replies per role, injected failures, loud exhaustion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamteam.backends.calllog import CallLog
from dreamteam.backends.config import load_backend_config, validate_config
from dreamteam.backends.errors import ConfigError, ScriptExhausted
from dreamteam.backends.registry import build_role_models
from dreamteam.backends.scripted import Fail, ScriptedModel, load_script
from dreamteam.protocols import RoleModel
from tests.backends.conftest import GOOD_LEADER, leader_request


def test_replies_come_in_order_per_role() -> None:
    model = ScriptedModel({"leader": [GOOD_LEADER, {**GOOD_LEADER, "goal": "GOAL"}]})
    assert isinstance(model, RoleModel)
    assert [model.respond(leader_request()).content["goal"] for _ in range(2)] == ["DISCOVER", "GOAL"]
    assert len(model.requests) == 2
    with pytest.raises(ScriptExhausted, match="2 replies for role 'leader'"):
        model.respond(leader_request())


def test_cycle_repeats_the_script() -> None:
    model = ScriptedModel({"leader": [GOOD_LEADER]}, cycle=True)
    assert all(model.respond(leader_request()).ok for _ in range(3))


def test_injected_failure_and_malformed_content() -> None:
    model = ScriptedModel({"leader": [Fail("rate limited"), {"goal": "WIN"}]})
    failed = model.respond(leader_request())
    assert (failed.ok, failed.error, failed.content) == (False, "rate limited", {})
    malformed = model.respond(leader_request())
    assert not malformed.ok and malformed.error is not None
    assert "$.goal: \"WIN\" is not one of" in malformed.error


def test_unvalidated_mode_hands_malformed_content_through() -> None:
    model = ScriptedModel({"leader": [{"goal": "WIN"}]}, validate_replies=False)
    reply = model.respond(leader_request())
    assert reply.ok and reply.content == {"goal": "WIN"}


def test_script_file_through_the_registry(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"leader": [GOOD_LEADER, {"fail": "boom"}]}))
    config = load_backend_config("scripted", script=str(script), env={})  # one script, every role
    validate_config(config)
    calls = CallLog()
    models = build_role_models(config, calls)
    leader = models["leader"]
    assert leader.respond(leader_request()).ok
    assert leader.respond(leader_request()).error == "boom"
    assert [r["ok"] for r in calls.records()] == [True, False]


def test_bad_script_file(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"leader": ["not an object"]}))
    with pytest.raises(ConfigError, match="must be a JSON object of role -> list of reply objects"):
        load_script(script)
