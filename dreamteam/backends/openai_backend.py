"""The OpenAI Chat Completions backend (and OpenAI-compatible servers): the only importer of `openai`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dreamteam.backends.config import RoleConfig
from dreamteam.backends.llm import (
    TOOL_DESCRIPTION,
    TOOL_NAME,
    Exchange,
    LLMRoleModel,
    MalformedBody,
    Repair,
    parse_json_text,
)
from dreamteam.backends.registry import BuildContext
from dreamteam.backends.render import Prompt
from dreamteam.backends.retry import TRANSIENT_STATUS, status_code
from dreamteam.protocols import RoleRequest

STRUCTURED_MODES = ("json_schema", "tool")


class OpenAITransport:
    """Sends a prompt as one chat completion constrained by `response_format` json_schema or a forced tool."""

    backend = "openai"

    def __init__(
        self,
        model: str,
        api_key: str,
        base_url: str | None = None,
        timeout_s: float = 120.0,
        max_tokens: int | None = None,
        structured: str = "json_schema",
    ) -> None:
        import openai

        if structured not in STRUCTURED_MODES:
            raise ValueError(f"structured must be one of {STRUCTURED_MODES}, got {structured!r}")
        self.model = model
        self.max_tokens = max_tokens
        self.structured = structured
        self._errors = (openai.APITimeoutError, openai.APIConnectionError)
        self.client: Any = openai.OpenAI(api_key=api_key, base_url=base_url, max_retries=0, timeout=timeout_s)

    def is_transient(self, exc: BaseException) -> bool:
        """Timeouts, connection errors, 408/409/429 and 5xx."""
        return isinstance(exc, self._errors) or status_code(exc) in TRANSIENT_STATUS

    def send(self, request: RoleRequest, prompt: Prompt, repair: Repair | None) -> Exchange:
        """One chat completion; the reply is read from the message content or the tool call arguments."""
        options = self._structure(request.schema)
        if self.max_tokens is not None:
            options["max_completion_tokens"] = self.max_tokens
        try:
            response = self.client.chat.completions.create(
                model=self.model, messages=self._messages(prompt, repair), **options
            )
        except ValueError as exc:  # the SDK's json.JSONDecodeError on a truncated or garbled body
            raise MalformedBody(f"the response body is not valid JSON ({exc})") from exc
        return self._read(response)

    def _structure(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        strict = is_strict_schema(schema)
        if self.structured == "tool":
            function = {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "parameters": dict(schema), "strict": strict}
            return {"tools": [{"type": "function", "function": function}],
                    "tool_choice": {"type": "function", "function": {"name": TOOL_NAME}}}
        json_schema = {"name": TOOL_NAME, "schema": dict(schema), "strict": strict}
        return {"response_format": {"type": "json_schema", "json_schema": json_schema}}

    def _read(self, response: Any) -> Exchange:
        usage = getattr(response, "usage", None)
        choices = list(getattr(response, "choices", None) or [])
        message = getattr(choices[0], "message", None) if choices else None
        calls = list(getattr(message, "tool_calls", None) or [])
        text = calls[0].function.arguments if calls else getattr(message, "content", None)
        content, error = parse_json_text(text) if message is not None else (None, "the response has no choices")
        if content is not None and not isinstance(content, dict):
            content, error = None, f"the reply is JSON but not an object: {text!r:.200}"
        if choices and getattr(choices[0], "finish_reason", None) == "length":
            error = "the reply was cut off at the token limit; answer more briefly"
        return Exchange(
            content=content,
            parse_error=error,
            model=str(getattr(response, "model", "") or self.model),
            input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            message=_assistant_turn(message, calls),
        )

    def _messages(self, prompt: Prompt, repair: Repair | None) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": prompt.system},
            {"role": "user", "content": prompt.user},
        ]
        if repair is None:
            return messages
        note = (f"Your previous reply was rejected: {repair.error}\n"
                "Reply again with a corrected, complete answer that matches the schema exactly.")
        turn = repair.previous.message if repair.previous is not None else None
        if turn is None:
            messages[1]["content"] = f"{prompt.user}\n\n{note}"
            return messages
        messages.append(turn)
        if turn.get("tool_calls"):
            messages.append({"role": "tool", "tool_call_id": turn["tool_calls"][0]["id"], "content": note})
        else:
            messages.append({"role": "user", "content": note})
        return messages


def _assistant_turn(message: Any, calls: list[Any]) -> dict[str, Any] | None:
    """The assistant message to send back before a repair request (None if there was none)."""
    if message is None:
        return None
    if calls:
        first = calls[0]
        call = {"id": first.id, "type": "function",
                "function": {"name": first.function.name, "arguments": first.function.arguments}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"role": "assistant", "content": str(getattr(message, "content", "") or "")}


def is_strict_schema(schema: Mapping[str, Any]) -> bool:
    """Whether OpenAI's strict mode accepts `schema`: every object closed and requiring all its properties."""
    if schema.get("type") == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        if schema.get("additionalProperties") is not False or set(schema.get("required", [])) != set(properties):
            return False
        return all(is_strict_schema(sub) for sub in properties.values())
    items = schema.get("items")
    return is_strict_schema(items) if isinstance(items, Mapping) else True


def build(role: RoleConfig, context: BuildContext) -> LLMRoleModel:
    """Registry factory: an OpenAI-backed role model from the role's model, key and base URL."""
    transport = OpenAITransport(
        model=role.model,
        api_key=role.api_key or "",
        base_url=role.base_url,
        timeout_s=context.config.timeout_s,
        structured=context.config.openai_structured,
    )
    return LLMRoleModel(transport, context.calls, context.prices, context.retry)
