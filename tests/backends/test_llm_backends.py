"""Anthropic and OpenAI backends against a loopback server speaking their APIs, through the real SDKs."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dreamteam.backends.anthropic_backend import AnthropicTransport
from dreamteam.backends.calllog import CallLog
from dreamteam.backends.llm import LLMRoleModel
from dreamteam.backends.openai_backend import OpenAITransport
from dreamteam.backends.prices import PriceTable
from dreamteam.backends.retry import RetryPolicy
from tests.backends.conftest import GOOD_LEADER, leader_request
from tests.backends.fake_vendor import (
    Canned,
    FakeVendor,
    anthropic_tool_reply,
    error_reply,
    openai_reply,
    truncated_reply,
)


@dataclass(frozen=True)
class Flavour:
    """One vendor API: how to build the model and how that API carries a structured reply."""

    name: str
    build: Callable[[FakeVendor, float], Any]
    good: Callable[[Any], Canned]
    malformed: Callable[[], Canned]
    price_per_call: float  # 1200 input and 300 output tokens at the flavour's default model


def _anthropic(vendor: FakeVendor, timeout_s: float) -> AnthropicTransport:
    return AnthropicTransport("claude-sonnet-4-5", "test-key", vendor.url, timeout_s=timeout_s)


def _openai(structured: str) -> Callable[[FakeVendor, float], OpenAITransport]:
    return lambda vendor, timeout_s: OpenAITransport(
        "gpt-4.1-mini", "test-key", vendor.url + "/v1", timeout_s=timeout_s, structured=structured
    )


FLAVOURS = [
    Flavour("anthropic", _anthropic, anthropic_tool_reply, lambda: anthropic_tool_reply({"goal": "WIN"}),
            (1200 * 3.0 + 300 * 15.0) / 1e6),
    Flavour("openai-json", _openai("json_schema"), lambda c: openai_reply(json.dumps(c)),
            lambda: openai_reply('{"goal": "GOAL", "plan": [{"action": '), (1200 * 0.4 + 300 * 1.6) / 1e6),
    Flavour("openai-tool", _openai("tool"), lambda c: openai_reply(arguments=json.dumps(c)),
            lambda: openai_reply(arguments='{"goal": "GOAL", "pl'), (1200 * 0.4 + 300 * 1.6) / 1e6),
]


@pytest.fixture(params=FLAVOURS, ids=[f.name for f in FLAVOURS])
def flavour(request: pytest.FixtureRequest) -> Flavour:
    return request.param  # type: ignore[no-any-return]


def _model(flavour: Flavour, vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy, timeout_s: float = 5.0
           ) -> tuple[LLMRoleModel, CallLog]:
    calls = CallLog(tmp_path / "calls.jsonl")
    return LLMRoleModel(flavour.build(vendor, timeout_s), calls, PriceTable.load(), retry), calls


def _lines(tmp_path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]


def test_structured_reply(flavour: Flavour, vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy) -> None:
    model, _ = _model(flavour, vendor, tmp_path, retry)
    vendor.push(flavour.good(GOOD_LEADER))
    reply = model.respond(leader_request())
    assert reply.ok and reply.error is None
    assert reply.content == GOOD_LEADER
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (1200, 300)
    [sent] = vendor.received
    prompt_text = json.dumps(sent.body)
    assert "choose the next plan" in prompt_text and "000b0000" in prompt_text  # task, grid as hex rows
    assert "stop grinding ACTION1" in prompt_text and "actions_left: 37" in prompt_text


def test_anthropic_forces_the_reply_tool(vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy) -> None:
    model, _ = _model(FLAVOURS[0], vendor, tmp_path, retry)
    vendor.push(anthropic_tool_reply(GOOD_LEADER))
    model.respond(leader_request())
    body = vendor.received[0].body
    assert vendor.received[0].path == "/v1/messages"
    assert body["tool_choice"] == {"type": "tool", "name": "reply"}
    assert body["tools"][0]["input_schema"] == leader_request().schema
    assert "You are the leader of DreamTeam" in body["system"]
    headers = vendor.received[0].headers
    assert "test-key" in headers.get("x-api-key", "") + headers.get("authorization", "")  # SDK versions differ


@pytest.mark.parametrize("index,key", [(1, "response_format"), (2, "tools")])
def test_openai_asks_for_structured_output(
    index: int, key: str, vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy
) -> None:
    model, _ = _model(FLAVOURS[index], vendor, tmp_path, retry)
    vendor.push(FLAVOURS[index].good(GOOD_LEADER))
    model.respond(leader_request())
    body = vendor.received[0].body
    assert vendor.received[0].path == "/v1/chat/completions"
    assert vendor.received[0].headers["authorization"] == "Bearer test-key"
    assert body["messages"][0]["role"] == "system"
    if key == "response_format":
        assert body["response_format"]["json_schema"]["schema"] == leader_request().schema
        assert body["response_format"]["json_schema"]["strict"] is False  # x, y are optional: not strict-able
    else:
        assert body["tool_choice"] == {"type": "function", "function": {"name": "reply"}}
        assert body["tools"][0]["function"]["parameters"] == leader_request().schema


def test_rate_limit_honours_retry_after(
    flavour: Flavour, vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy, sleeps: list[float]
) -> None:
    model, _ = _model(flavour, vendor, tmp_path, retry)
    vendor.push(error_reply(429, {"retry-after": "0.25"}), flavour.good(GOOD_LEADER))
    reply = model.respond(leader_request())
    assert reply.ok and sleeps == [0.25]
    assert len(vendor.received) == 2
    assert [line["retries"] for line in _lines(tmp_path)] == [1]


def test_server_errors_back_off_exponentially(
    flavour: Flavour, vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy, sleeps: list[float]
) -> None:
    model, _ = _model(flavour, vendor, tmp_path, retry)
    vendor.push(error_reply(500), error_reply(503), flavour.good(GOOD_LEADER))
    reply = model.respond(leader_request())
    assert reply.ok and sleeps == [0.01, 0.02]
    assert len(vendor.received) == 3


def test_timeout_then_success(flavour: Flavour, vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy) -> None:
    model, _ = _model(flavour, vendor, tmp_path, retry, timeout_s=0.3)
    slow = flavour.good(GOOD_LEADER)
    slow.delay_s = 1.0
    vendor.push(slow, flavour.good(GOOD_LEADER))
    reply = model.respond(leader_request())
    assert reply.ok and reply.content == GOOD_LEADER
    assert [line["retries"] for line in _lines(tmp_path)] == [1]


def test_retries_are_bounded(flavour: Flavour, vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy) -> None:
    model, _ = _model(flavour, vendor, tmp_path, retry)
    vendor.push(*(error_reply(529) for _ in range(3)), flavour.good(GOOD_LEADER))
    reply = model.respond(leader_request())
    assert not reply.ok
    assert reply.error is not None and "gave up after 2 retries" in reply.error
    assert len(vendor.received) == 3  # no repair attempt after a transport failure
    [line] = _lines(tmp_path)
    assert line["ok"] is False and line["retries"] == 2


def test_client_errors_are_not_retried(flavour: Flavour, vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy,
                                       sleeps: list[float]) -> None:
    model, _ = _model(flavour, vendor, tmp_path, retry)
    vendor.push(error_reply(400))
    reply = model.respond(leader_request())
    assert not reply.ok and reply.error is not None and "BadRequestError" in reply.error
    assert sleeps == [] and len(vendor.received) == 1


def test_truncated_body_is_repaired(flavour: Flavour, vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy) -> None:
    model, _ = _model(flavour, vendor, tmp_path, retry)
    vendor.push(truncated_reply(), flavour.good(GOOD_LEADER))
    reply = model.respond(leader_request())
    assert reply.ok and reply.content == GOOD_LEADER
    first, second = _lines(tmp_path)
    assert (first["attempt"], first["ok"], second["attempt"], second["ok"]) == ("initial", False, "repair", True)
    assert "not valid JSON" in first["error"]
    assert "previous reply was rejected" in json.dumps(vendor.received[1].body)


def test_malformed_reply_gets_one_repair(flavour: Flavour, vendor: FakeVendor, tmp_path: Path,
                                         retry: RetryPolicy) -> None:
    model, _ = _model(flavour, vendor, tmp_path, retry)
    vendor.push(flavour.malformed(), flavour.good(GOOD_LEADER))
    reply = model.respond(leader_request())
    assert reply.ok and reply.content == GOOD_LEADER
    assert reply.usage.input_tokens == 2400  # both calls counted
    first_error = _lines(tmp_path)[0]["error"]
    repair_body = json.dumps(vendor.received[1].body)
    assert first_error and json.dumps(first_error)[1:40] in repair_body  # the error went back to the model


def test_anthropic_repair_answers_the_tool_use(vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy) -> None:
    model, _ = _model(FLAVOURS[0], vendor, tmp_path, retry)
    vendor.push(FLAVOURS[0].malformed(), anthropic_tool_reply(GOOD_LEADER))
    model.respond(leader_request())
    messages = vendor.received[1].body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[1]["content"][0] == {"type": "tool_use", "id": "toolu_1", "name": "reply", "input": {"goal": "WIN"}}
    result = messages[2]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_1" and result["is_error"] is True
    assert "$.goal: \"WIN\" is not one of" in result["content"]
    assert "$: missing required property 'plan'" in result["content"]


def test_openai_tool_repair_answers_the_call(vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy) -> None:
    model, _ = _model(FLAVOURS[2], vendor, tmp_path, retry)
    vendor.push(FLAVOURS[2].malformed(), FLAVOURS[2].good(GOOD_LEADER))
    model.respond(leader_request())
    messages = vendor.received[1].body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool"]
    assert messages[3]["tool_call_id"] == "call_1" and "not valid JSON" in messages[3]["content"]


def test_malformed_twice_fails_and_is_logged(flavour: Flavour, vendor: FakeVendor, tmp_path: Path,
                                            retry: RetryPolicy) -> None:
    model, calls = _model(flavour, vendor, tmp_path, retry)
    vendor.push(flavour.malformed(), flavour.malformed(), flavour.good(GOOD_LEADER))
    reply = model.respond(leader_request())
    assert not reply.ok and reply.content == {}
    assert reply.error is not None and reply.error.startswith("malformed reply after one repair attempt: ")
    assert len(vendor.received) == 2
    lines = _lines(tmp_path)
    assert [(line["attempt"], line["ok"]) for line in lines] == [("initial", False), ("repair", False)]
    assert all(line["error"] for line in lines)
    assert calls.totals()["failed"] == 2


def test_tokens_and_cost_are_logged(flavour: Flavour, vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy) -> None:
    model, calls = _model(flavour, vendor, tmp_path, retry)
    vendor.push(flavour.good(GOOD_LEADER), flavour.malformed(), flavour.good(GOOD_LEADER))
    model.respond(leader_request())
    model.respond(leader_request())
    lines = _lines(tmp_path)
    assert len(lines) == 3
    for line in lines:
        assert (line["role"], line["task"], line["input_tokens"], line["output_tokens"]) == (
            "leader", "choose the next plan", 1200, 300)
        assert line["cost_usd"] == pytest.approx(flavour.price_per_call)
        assert line["latency_s"] >= 0 and line["time"].endswith("Z")
    totals = calls.totals()
    assert totals["calls"] == 3 and totals["input_tokens"] == 3600 and totals["output_tokens"] == 900
    assert totals["cost_usd"] == pytest.approx(3 * flavour.price_per_call)
    assert totals["by_role"]["leader"]["calls"] == 3


def test_unpriced_model_is_logged_as_unknown_cost(vendor: FakeVendor, tmp_path: Path, retry: RetryPolicy) -> None:
    calls = CallLog(tmp_path / "calls.jsonl")
    transport = OpenAITransport("local-llama", "k", vendor.url + "/v1")
    model = LLMRoleModel(transport, calls, PriceTable.load(), retry)
    vendor.push(openai_reply(json.dumps(GOOD_LEADER), model="local-llama"))
    assert model.respond(leader_request()).ok
    assert _lines(tmp_path)[0]["cost_usd"] is None
    assert calls.totals()["unpriced_calls"] == 1
