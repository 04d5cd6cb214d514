"""A deterministic role model for tests: fixed replies per role, in order, with injectable failures."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamteam.backends.calllog import CallLog, CallRecord
from dreamteam.backends.config import RoleConfig
from dreamteam.backends.errors import ConfigError, ScriptExhausted
from dreamteam.backends.registry import BuildContext
from dreamteam.backends.validate import validate
from dreamteam.protocols import CallUsage, RoleReply, RoleRequest


@dataclass(frozen=True, slots=True)
class Fail:
    """A scripted failure: the reply comes back ok=False with this error."""

    error: str = "scripted failure"


ScriptItem = Mapping[str, Any] | Fail


class ScriptedModel:
    """Answers each role from its own list of replies, in order; raises `ScriptExhausted` past the end.

    A reply that does not match the request's schema comes back ok=False (as from a live backend after
    its repair attempt) unless `validate_replies=False`, which hands malformed content to the role as is.
    """

    name = "scripted"

    def __init__(
        self,
        script: Mapping[str, Sequence[ScriptItem]],
        *,
        validate_replies: bool = True,
        cycle: bool = False,
        calls: CallLog | None = None,
    ) -> None:
        self.script = {role: list(items) for role, items in script.items()}
        self.validate_replies = validate_replies
        self.cycle = cycle
        self.calls = calls
        self.requests: list[RoleRequest] = []
        self._next: dict[str, int] = {}

    def respond(self, request: RoleRequest) -> RoleReply:
        """The next scripted reply for `request.role`."""
        self.requests.append(request)
        item = self._take(request.role)
        usage = CallUsage(backend=self.name, model="script")
        if isinstance(item, Fail):
            reply = RoleReply(request.role, {}, ok=False, error=item.error, usage=usage)
        else:
            problems = validate(item, request.schema) if self.validate_replies else []
            error = f"reply does not match the schema: {'; '.join(problems)}" if problems else None
            reply = RoleReply(request.role, {} if error else item, ok=error is None, error=error, usage=usage)
        if self.calls is not None:
            self.calls.append(CallRecord(request.role, request.task, self.name, "script", ok=reply.ok, error=reply.error))
        return reply

    def _take(self, role: str) -> ScriptItem:
        items = self.script.get(role, [])
        index = self._next.get(role, 0)
        if index >= len(items) and not (self.cycle and items):
            raise ScriptExhausted(f"the script has {len(items)} replies for role {role!r} and all were used")
        self._next[role] = index + 1
        return items[index % len(items)]


def load_script(path: str | Path) -> dict[str, list[ScriptItem]]:
    """Read a JSON script {role: [reply, ...]}; an item {"fail": "message"} is a `Fail`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read script {path}: {exc}") from exc
    valid = isinstance(data, dict) and all(
        isinstance(items, list) and all(isinstance(entry, dict) for entry in items) for items in data.values()
    )
    if not valid:
        raise ConfigError(f"script {path} must be a JSON object of role -> list of reply objects")
    return {role: [_item(entry) for entry in items] for role, items in data.items()}


def _item(entry: dict[str, Any]) -> ScriptItem:
    return Fail(str(entry["fail"])) if set(entry) == {"fail"} else entry


def build(role: RoleConfig, context: BuildContext) -> ScriptedModel:
    """Registry factory: this role's part of the config's script file."""
    if not context.config.script:
        raise ConfigError(f"role {role.role!r}: the scripted backend needs a script file (--script PATH)")
    script = load_script(context.config.script)
    return ScriptedModel({role.role: script.get(role.role, [])}, calls=context.calls)
