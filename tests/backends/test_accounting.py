"""Prices, the call log's totals, and the retry policy's arithmetic."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from dreamteam.backends.calllog import CallLog, CallRecord
from dreamteam.backends.config import load_backend_config
from dreamteam.backends.errors import ConfigError
from dreamteam.backends.prices import PriceTable
from dreamteam.backends.retry import RetriesExhausted, RetryPolicy, call_with_retries, retry_after


def test_longest_prefix_price_wins() -> None:
    table = PriceTable.load()
    assert table.cost("gpt-4.1-mini-2025-04-14", 1_000_000, 1_000_000) == pytest.approx(0.4 + 1.6)
    assert table.cost("gpt-4.1", 1_000_000, 0) == pytest.approx(2.0)
    assert table.cost("claude-sonnet-4-5-20250929", 10_000, 2_000) == pytest.approx(0.03 + 0.03)
    assert table.cost("my-local-model", 10, 10) is None


def test_override_file_lays_over_the_table(tmp_path: Path) -> None:
    override = tmp_path / "prices.json"
    override.write_text(json.dumps({"models": {"my-local-model": {"input": 0, "output": 0},
                                               "gpt-4.1": {"input": 1, "output": 1}}}))
    table = PriceTable.load(override)
    assert table.cost("my-local-model", 10, 10) == 0
    assert table.cost("gpt-4.1", 1_000_000, 0) == pytest.approx(1.0)
    assert table.cost("claude-haiku-4-5", 1_000_000, 0) == pytest.approx(1.0)
    assert load_backend_config(env={"DREAMTEAM_PRICES": str(override)}).prices_path == str(override)


def test_bad_price_file(tmp_path: Path) -> None:
    bad = tmp_path / "prices.json"
    bad.write_text(json.dumps({"models": {"m": {"input": 1}}}))
    with pytest.raises(ConfigError, match='needs numeric "input" and "output"'):
        PriceTable.load(bad)


def test_totals_include_a_resumed_file(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    CallLog(path).append(CallRecord("leader", "plan", "openai", "gpt-4.1", 100, 10, 0.5, 1.0))
    log = CallLog(path)
    log.append(CallRecord("critic", "audit", "openai", "x", 5, 5, None, 0.5, ok=False, error="boom"))
    totals = log.totals()
    assert (totals["calls"], totals["failed"], totals["input_tokens"], totals["output_tokens"]) == (2, 1, 105, 15)
    assert totals["cost_usd"] == 0.5 and totals["unpriced_calls"] == 1 and totals["latency_s"] == 1.5
    assert totals["by_role"]["critic"]["failed"] == 1
    assert len(path.read_text().splitlines()) == 2


def _http_error(headers: dict[str, str]) -> Exception:
    error = Exception("status 429")
    error.status_code = 429  # type: ignore[attr-defined]
    error.response = SimpleNamespace(headers=headers)  # type: ignore[attr-defined]
    return error


def test_retry_after_headers() -> None:
    assert retry_after(_http_error({"retry-after-ms": "1500"})) == 1.5
    assert retry_after(_http_error({"retry-after": "7"})) == 7.0
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 < (retry_after(_http_error({"retry-after": later})) or 0) <= 30
    assert retry_after(_http_error({})) is None
    assert retry_after(ValueError("no response")) is None


def test_backoff_is_exponential_capped_and_bounded() -> None:
    sleeps: list[float] = []
    policy = RetryPolicy(max_retries=4, base_delay_s=1.0, max_delay_s=5.0, sleep=sleeps.append)
    attempts = []

    def always_busy() -> None:
        attempts.append(1)
        raise _http_error({})

    with pytest.raises(RetriesExhausted) as caught:
        call_with_retries(always_busy, lambda exc: True, policy)
    assert sleeps == [1.0, 2.0, 4.0, 5.0] and len(attempts) == 5 and caught.value.retries == 4
    assert policy.delay(0, 120.0) == 5.0  # a retry-after beyond the cap is capped


def test_non_transient_errors_pass_straight_through() -> None:
    policy = RetryPolicy(sleep=lambda s: None)

    def broken() -> None:
        raise KeyError("bug")

    with pytest.raises(KeyError):
        call_with_retries(broken, lambda exc: False, policy)
