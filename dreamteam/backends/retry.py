"""Bounded retries with exponential backoff that honour the server's retry-after headers."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any

TRANSIENT_STATUS = frozenset({408, 409, 429}) | frozenset(range(500, 600))


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to wait: delay = base * 2**n (capped), or the server's retry-after."""

    max_retries: int = 4
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)

    def delay(self, retry_number: int, retry_after_s: float | None) -> float:
        """Seconds to wait before retry number `retry_number` (0-based)."""
        if retry_after_s is not None:
            return min(max(retry_after_s, 0.0), self.max_delay_s)
        return min(self.base_delay_s * 2.0**retry_number, self.max_delay_s)


class RetriesExhausted(Exception):
    """The last transient error, after `retries` retries."""

    def __init__(self, cause: BaseException, retries: int) -> None:
        super().__init__(f"{describe(cause)} (gave up after {retries} retries)")
        self.cause = cause
        self.retries = retries


def describe(exc: BaseException) -> str:
    """`ClassName: message`, one line."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def call_with_retries[T](
    call: Callable[[], T], is_transient: Callable[[BaseException], bool], policy: RetryPolicy
) -> tuple[T, int]:
    """Run `call`, retrying transient errors; return (result, retries) or raise `RetriesExhausted`."""
    retries = 0
    while True:
        try:
            return call(), retries
        except Exception as exc:
            if not is_transient(exc):
                raise
            if retries >= policy.max_retries:
                raise RetriesExhausted(exc, retries) from exc
            policy.sleep(policy.delay(retries, retry_after(exc)))
            retries += 1


def status_code(exc: BaseException) -> int | None:
    """The HTTP status an SDK error carries, if any."""
    code = getattr(exc, "status_code", None)
    return code if isinstance(code, int) else None


def retry_after(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait (retry-after-ms, or retry-after as seconds or HTTP date)."""
    response = getattr(exc, "response", None)
    headers: Mapping[str, Any] | None = getattr(response, "headers", None)
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return float(millis) / 1000
        except ValueError:
            pass
    return _parse_retry_after(headers.get("retry-after"))


def _parse_retry_after(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        return parsedate_to_datetime(value).timestamp() - time.time()
    except (TypeError, ValueError):
        return None
