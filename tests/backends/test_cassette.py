"""Record a live backend's answers, replay them, and fail loudly on a request that was never recorded."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from dreamteam.backends.calllog import CallLog
from dreamteam.backends.cassette import Recorder, Replayer, request_hash
from dreamteam.backends.config import load_backend_config, validate_config
from dreamteam.backends.errors import CassetteMiss, ConfigError
from dreamteam.backends.registry import build_role_models
from dreamteam.backends.retry import RetryPolicy
from dreamteam.backends.scripted import Fail, ScriptedModel
from tests.backends.conftest import GOOD_LEADER, leader_request
from tests.backends.fake_vendor import FakeVendor, anthropic_tool_reply


def test_hash_is_stable_and_sensitive() -> None:
    a = leader_request(budget={"actions_left": 37, "levels": 2})
    b = replace(a, context=dict(reversed(list({**a.context, "budget": {"levels": 2, "actions_left": 37}}.items()))))
    assert request_hash(a) == request_hash(b)  # key order does not matter
    assert request_hash(a) != request_hash(replace(a, task="other"))
    assert request_hash(a) != request_hash(leader_request(budget={"actions_left": 36, "levels": 2}))
    assert len(request_hash(a)) == 64


def test_record_then_replay_gives_identical_replies(tmp_path: Path) -> None:
    cassette = tmp_path / "cassette.jsonl"
    live = ScriptedModel({"leader": [GOOD_LEADER, Fail("vendor down"), {**GOOD_LEADER, "goal": "GOAL"}]})
    requests = [leader_request(budget={"actions_left": n}) for n in (3, 2, 1)]
    recorder = Recorder(live, cassette)
    recorded = [recorder.respond(r) for r in requests]
    replayer = Replayer(cassette)
    replayed = [replayer.respond(r) for r in requests]
    assert [(r.content, r.ok, r.error) for r in replayed] == [(r.content, r.ok, r.error) for r in recorded]
    assert [r.ok for r in replayed] == [True, False, True]
    assert {r.usage.backend for r in replayed} == {"replay"}


def test_a_miss_is_loud(tmp_path: Path) -> None:
    cassette = tmp_path / "cassette.jsonl"
    Recorder(ScriptedModel({"leader": [GOOD_LEADER]}), cassette).respond(leader_request())
    unseen = leader_request(budget={"actions_left": 1})
    with pytest.raises(CassetteMiss) as caught:
        Replayer(cassette).respond(unseen)
    message = str(caught.value)
    assert "'leader'" in message and request_hash(unseen) in message and str(cassette) in message


def test_repeated_requests_replay_in_recorded_order(tmp_path: Path) -> None:
    cassette = tmp_path / "cassette.jsonl"
    second = {**GOOD_LEADER, "confidence": 0.9}
    recorder = Recorder(ScriptedModel({"leader": [GOOD_LEADER, second]}), cassette)
    recorder.respond(leader_request())
    recorder.respond(leader_request())
    replayer = Replayer(cassette)
    assert [replayer.respond(leader_request()).content["confidence"] for _ in range(3)] == [0.4, 0.9, 0.9]


def test_corrupt_cassette_is_a_config_error(tmp_path: Path) -> None:
    cassette = tmp_path / "cassette.jsonl"
    cassette.write_text('{"hash": "abc", "content": {}}\nnot json\n')
    with pytest.raises(ConfigError, match="line 2 is not a recording"):
        Replayer(cassette)


def test_record_anthropic_through_the_registry_then_replay(
    vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy
) -> None:
    cassette = str(tmp_path / "run.cassette.jsonl")
    env = {"ANTHROPIC_API_KEY": "k"}
    record = load_backend_config("record:anthropic", base_url=vendor.url, cassette=cassette, env=env)
    validate_config(record)
    live_calls = CallLog(tmp_path / "live" / "calls.jsonl")
    vendor.push(anthropic_tool_reply(GOOD_LEADER))
    live_reply = build_role_models(record, live_calls, retry)["leader"].respond(leader_request())
    assert live_reply.ok and live_calls.totals()["calls"] == 1

    replay = load_backend_config("replay", cassette=cassette, env={})
    validate_config(replay)
    replay_calls = CallLog(tmp_path / "replay" / "calls.jsonl")
    model = build_role_models(replay, replay_calls)["leader"]
    assert model.respond(leader_request()).content == live_reply.content
    assert len(vendor.received) == 1  # replay never touched the server
    assert replay_calls.records()[0]["backend"] == "replay"
    with pytest.raises(CassetteMiss):
        model.respond(leader_request(budget={"actions_left": 0}))
    assert json.loads(Path(cassette).read_text().splitlines()[0])["usage"]["input_tokens"] == 1200
