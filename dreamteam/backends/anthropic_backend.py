"""The Anthropic Messages API backend: the only importer of `anthropic`, imported when a transport is built."""

from __future__ import annotations

from typing import Any

from dreamteam.backends.config import RoleConfig
from dreamteam.backends.llm import TOOL_DESCRIPTION, TOOL_NAME, Exchange, LLMRoleModel, MalformedBody, Repair
from dreamteam.backends.registry import BuildContext
from dreamteam.backends.render import Prompt
from dreamteam.backends.retry import TRANSIENT_STATUS, status_code
from dreamteam.protocols import RoleRequest


class AnthropicTransport:
    """Sends a prompt as one Messages API call whose only allowed answer is the `reply` tool."""

    backend = "anthropic"

    def __init__(
        self, model: str, api_key: str, base_url: str | None = None, timeout_s: float = 120.0, max_tokens: int = 8192
    ) -> None:
        import anthropic

        self.model = model
        self.max_tokens = max_tokens
        self._errors = (anthropic.APITimeoutError, anthropic.APIConnectionError)
        self.client: Any = anthropic.Anthropic(api_key=api_key, base_url=base_url, max_retries=0, timeout=timeout_s)

    def is_transient(self, exc: BaseException) -> bool:
        """Timeouts, connection errors, 408/409/429 and 5xx."""
        return isinstance(exc, self._errors) or status_code(exc) in TRANSIENT_STATUS

    def send(self, request: RoleRequest, prompt: Prompt, repair: Repair | None) -> Exchange:
        """One forced tool call; the tool's input_schema is the request's schema."""
        tool = {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": dict(request.schema)}
        try:
            response = self.client.messages.create(
                model=self.model,
                max_tokens=self.max_tokens,
                system=prompt.system,
                messages=self._messages(prompt, repair),
                tools=[tool],
                tool_choice={"type": "tool", "name": TOOL_NAME},
            )
        except ValueError as exc:  # the SDK's json.JSONDecodeError on a truncated or garbled body
            raise MalformedBody(f"the response body is not valid JSON ({exc})") from exc
        return self._read(response)

    def _read(self, response: Any) -> Exchange:
        usage = getattr(response, "usage", None)
        blocks = list(getattr(response, "content", None) or [])
        tool = next((b for b in blocks if getattr(b, "type", None) == "tool_use"), None)
        content = getattr(tool, "input", None)
        error = None
        if tool is None:
            text = " ".join(str(getattr(b, "text", "")) for b in blocks)
            error = f"the reply did not call the {TOOL_NAME} tool (it said: {text[:200]!r})"
        elif not isinstance(content, dict):
            error = f"the {TOOL_NAME} tool input is not a JSON object: {content!r:.200}"
        if getattr(response, "stop_reason", None) == "max_tokens":
            error = f"the reply was cut off at max_tokens={self.max_tokens}; answer more briefly"
        return Exchange(
            content=content,
            parse_error=error,
            model=str(getattr(response, "model", "") or self.model),
            input_tokens=int(getattr(usage, "input_tokens", 0) or 0),
            output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
            message={"blocks": _blocks_json(blocks), "tool_use_id": getattr(tool, "id", None)},
        )

    def _messages(self, prompt: Prompt, repair: Repair | None) -> list[dict[str, Any]]:
        if repair is None:
            return [{"role": "user", "content": prompt.user}]
        note = (f"Your previous reply was rejected: {repair.error}\n"
                f"Call the {TOOL_NAME} tool again with a corrected, complete reply.")
        previous = repair.previous.message if repair.previous is not None else None
        if not previous or not previous["blocks"]:
            return [{"role": "user", "content": f"{prompt.user}\n\n{note}"}]
        answer: list[dict[str, Any]] = [{"type": "text", "text": note}]
        if previous["tool_use_id"]:
            result = {"type": "tool_result", "tool_use_id": previous["tool_use_id"], "is_error": True, "content": note}
            answer = [result]
        return [
            {"role": "user", "content": prompt.user},
            {"role": "assistant", "content": previous["blocks"]},
            {"role": "user", "content": answer},
        ]


def _blocks_json(blocks: list[Any]) -> list[dict[str, Any]]:
    """The tool_use and non-empty text blocks, as the API accepts them back in an assistant turn."""
    out: list[dict[str, Any]] = []
    for block in blocks:
        kind = getattr(block, "type", None)
        if kind == "tool_use":
            out.append({"type": "tool_use", "id": block.id, "name": block.name, "input": block.input})
        elif kind == "text" and str(getattr(block, "text", "")).strip():
            out.append({"type": "text", "text": str(block.text)})
    return out


def build(role: RoleConfig, context: BuildContext) -> LLMRoleModel:
    """Registry factory: an Anthropic-backed role model from the role's model, key and base URL."""
    transport = AnthropicTransport(
        model=role.model,
        api_key=role.api_key or "",
        base_url=role.base_url,
        timeout_s=context.config.timeout_s,
        max_tokens=context.config.max_tokens,
    )
    return LLMRoleModel(transport, context.calls, context.prices, context.retry)
