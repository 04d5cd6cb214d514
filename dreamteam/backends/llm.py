"""The shared call flow of the LLM backends: render, call with retries, validate, one repair, log.

A vendor module supplies a `Transport` (how to send one prompt and read the structured reply); this
module owns everything vendor-neutral so the Anthropic and OpenAI backends behave identically.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from dreamteam.backends.calllog import CallLog, CallRecord
from dreamteam.backends.prices import PriceTable
from dreamteam.backends.render import Prompt, PromptRenderer
from dreamteam.backends.retry import RetriesExhausted, RetryPolicy, call_with_retries, describe
from dreamteam.backends.validate import validate
from dreamteam.protocols import CallUsage, RoleReply, RoleRequest

TOOL_NAME = "reply"
TOOL_DESCRIPTION = "Submit your structured reply. Call this exactly once with arguments matching the schema."


@dataclass(frozen=True, slots=True)
class Exchange:
    """What one vendor call returned: the parsed object (or why it could not be parsed) and usage."""

    content: Any
    parse_error: str | None
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    message: Any = None


@dataclass(frozen=True, slots=True)
class Repair:
    """The previous, malformed exchange and what was wrong with it, for the one repair attempt."""

    error: str
    previous: Exchange | None


class MalformedBody(Exception):
    """The HTTP body could not be read as the vendor's response (e.g. truncated JSON)."""


class Transport(Protocol):
    """Sends one prompt to a vendor and reads back the structured reply."""

    backend: str
    model: str

    def send(self, request: RoleRequest, prompt: Prompt, repair: Repair | None) -> Exchange:
        """One API call; raise the SDK's errors, or `MalformedBody` for an unreadable body."""

    def is_transient(self, exc: BaseException) -> bool:
        """Whether `exc` is worth retrying (rate limit, server error, timeout, connection)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one attempt: valid content, or an error that a repair may fix (or not)."""

    content: Mapping[str, Any] | None
    error: str | None
    repairable: bool
    exchange: Exchange | None
    usage: CallUsage


class LLMRoleModel:
    """A RoleModel over a vendor `Transport`: at most two calls per request (initial + one repair)."""

    def __init__(
        self,
        transport: Transport,
        calls: CallLog,
        prices: PriceTable,
        retry: RetryPolicy | None = None,
        renderer: PromptRenderer | None = None,
    ) -> None:
        self.name = transport.backend
        self.transport = transport
        self.calls = calls
        self.prices = prices
        self.retry = retry or RetryPolicy()
        self.renderer = renderer or PromptRenderer()

    def respond(self, request: RoleRequest) -> RoleReply:
        """Answer `request`; malformed twice or a hard API error gives ok=False (the session goes on)."""
        prompt = self.renderer.render(request)
        first = self._attempt(request, prompt, None)
        if first.content is not None or not first.repairable:
            return _reply(request, first, first.usage)
        second = self._attempt(request, prompt, Repair(first.error or "invalid reply", first.exchange))
        usage = _add_usage(first.usage, second.usage)
        if second.content is None and second.repairable:
            error = f"malformed reply after one repair attempt: {second.error}"
            return RoleReply(role=request.role, content={}, ok=False, error=error, usage=usage)
        return _reply(request, second, usage)

    def _attempt(self, request: RoleRequest, prompt: Prompt, repair: Repair | None) -> Outcome:
        started = time.monotonic()
        retries = 0
        try:
            exchange, retries = call_with_retries(
                lambda: self.transport.send(request, prompt, repair), self.transport.is_transient, self.retry
            )
            outcome = self._judge(exchange, request, started)
        except MalformedBody as exc:
            outcome = self._failure(str(exc), True, started)
        except RetriesExhausted as exc:
            retries = exc.retries
            outcome = self._failure(str(exc), False, started)
        except Exception as exc:  # a non-transient API error (bad request, auth): no repair can help
            outcome = self._failure(describe(exc), False, started)
        self._log(request, outcome, "repair" if repair else "initial", retries)
        return outcome

    def _judge(self, exchange: Exchange, request: RoleRequest, started: float) -> Outcome:
        cost = self.prices.cost(exchange.model, exchange.input_tokens, exchange.output_tokens)
        usage = CallUsage(
            backend=self.name,
            model=exchange.model,
            input_tokens=exchange.input_tokens,
            output_tokens=exchange.output_tokens,
            cost_usd=cost or 0.0,
            latency_s=time.monotonic() - started,
        )
        error = exchange.parse_error
        if error is None:
            problems = validate(exchange.content, request.schema)
            error = f"reply does not match the schema: {'; '.join(problems[:8])}" if problems else None
        if error is not None:
            return Outcome(None, error, True, exchange, usage)
        return Outcome(exchange.content, None, False, exchange, usage)

    def _failure(self, error: str, repairable: bool, started: float) -> Outcome:
        usage = CallUsage(backend=self.name, model=self.transport.model, latency_s=time.monotonic() - started)
        return Outcome(None, error, repairable, None, usage)

    def _log(self, request: RoleRequest, outcome: Outcome, attempt: str, retries: int) -> None:
        usage = outcome.usage
        priced = self.prices.price(usage.model) is not None
        self.calls.append(
            CallRecord(
                role=request.role,
                task=request.task,
                backend=self.name,
                model=usage.model,
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                cost_usd=usage.cost_usd if priced else None,
                latency_s=usage.latency_s,
                ok=outcome.content is not None,
                error=outcome.error,
                attempt=attempt,
                retries=retries,
            )
        )


def _reply(request: RoleRequest, outcome: Outcome, usage: CallUsage) -> RoleReply:
    if outcome.content is None:
        return RoleReply(role=request.role, content={}, ok=False, error=outcome.error, usage=usage)
    return RoleReply(role=request.role, content=outcome.content, usage=usage)


def _add_usage(a: CallUsage, b: CallUsage) -> CallUsage:
    return CallUsage(
        backend=a.backend,
        model=b.model or a.model,
        input_tokens=a.input_tokens + b.input_tokens,
        output_tokens=a.output_tokens + b.output_tokens,
        cost_usd=a.cost_usd + b.cost_usd,
        latency_s=a.latency_s + b.latency_s,
    )


def parse_json_text(text: str | None) -> tuple[Any, str | None]:
    """Parse a model's JSON text (tolerating a ```json fence); return (value, error)."""
    if not text:
        return None, "the reply was empty"
    body = text.strip()
    if body.startswith("```"):
        body = body.split("\n", 1)[1] if "\n" in body else ""
        body = body.rsplit("```", 1)[0]
    try:
        return json.loads(body), None
    except ValueError as exc:
        return None, f"the reply is not valid JSON ({exc}): {text[:200]!r}"
