"""Record and replay role-model answers: a JSONL cassette keyed by a stable hash of each request."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from dreamteam.backends.calllog import CallLog, CallRecord
from dreamteam.backends.config import RoleConfig
from dreamteam.backends.errors import CassetteMiss, ConfigError
from dreamteam.backends.registry import BuildContext, build_role_model
from dreamteam.protocols import CallUsage, RoleModel, RoleReply, RoleRequest


def _jsonable(value: Any) -> Any:
    for method in ("to_json", "tolist"):
        if hasattr(value, method):
            return getattr(value, method)()
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    raise TypeError(f"cannot hash a request holding {type(value).__name__}; keep the context JSON-able")


def canonical_request(request: RoleRequest) -> str:
    """The canonical JSON (sorted keys, no spaces) of role, task, surface, context and schema."""
    body = {
        "role": request.role,
        "task": request.task,
        "surface": request.surface,
        "context": request.context,
        "schema": request.schema,
    }
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_jsonable)


def request_hash(request: RoleRequest) -> str:
    """sha256 hex digest of `canonical_request(request)`."""
    return hashlib.sha256(canonical_request(request).encode("utf-8")).hexdigest()


class Recorder:
    """Wraps a live role model and appends every request hash and reply to the cassette."""

    name = "record"

    def __init__(self, inner: RoleModel, cassette: str | Path) -> None:
        self.inner = inner
        self.cassette = Path(cassette)
        self._lock = threading.Lock()

    def respond(self, request: RoleRequest) -> RoleReply:
        """Ask the wrapped model, record the answer (failures too), return it unchanged."""
        reply = self.inner.respond(request)
        line = {
            "hash": request_hash(request),
            "role": request.role,
            "task": request.task,
            "content": dict(reply.content),
            "ok": reply.ok,
            "error": reply.error,
            "usage": asdict(reply.usage),
        }
        with self._lock:
            self.cassette.parent.mkdir(parents=True, exist_ok=True)
            with self.cassette.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(line, sort_keys=True, default=_jsonable) + "\n")
        return reply


class Replayer:
    """Answers from a cassette; a request with no recording raises `CassetteMiss`.

    Identical requests recorded several times are answered in recorded order; once those run out the
    last recording repeats (it is still the recorded answer to exactly this request).
    """

    name = "replay"

    def __init__(self, cassette: str | Path, calls: CallLog | None = None) -> None:
        self.cassette = Path(cassette)
        self.calls = calls
        self._entries = load_cassette(self.cassette)
        self._served: dict[str, int] = {}

    def respond(self, request: RoleRequest) -> RoleReply:
        """The recorded reply to `request`."""
        key = request_hash(request)
        entries = self._entries.get(key)
        if not entries:
            raise CassetteMiss(request.role, key, str(self.cassette))
        index = min(self._served.get(key, 0), len(entries) - 1)
        self._served[key] = index + 1
        entry = entries[index]
        usage = CallUsage(backend=self.name, model=str(entry.get("usage", {}).get("model", "")))
        reply = RoleReply(request.role, entry["content"], entry["ok"], entry.get("error"), usage)
        if self.calls is not None:
            self.calls.append(CallRecord(request.role, request.task, self.name, usage.model,
                                         ok=reply.ok, error=reply.error))
        return reply


def load_cassette(path: Path) -> dict[str, list[Mapping[str, Any]]]:
    """Recordings by request hash, in file order; ConfigError for a missing or corrupt cassette."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read cassette {path}: {exc}") from exc
    entries: dict[str, list[Mapping[str, Any]]] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            entries.setdefault(entry["hash"], []).append(entry)
        except (ValueError, KeyError, TypeError) as exc:
            raise ConfigError(f"cassette {path} line {number} is not a recording: {exc}") from exc
    return entries


def build_record(role: RoleConfig, context: BuildContext) -> Recorder:
    """Registry factory for `record:<backend>`: the wrapped backend, recording to the config's cassette."""
    if not role.wrapped or not context.config.cassette:
        raise ConfigError(f"role {role.role!r}: record needs a wrapped backend and a cassette path")
    inner = build_role_model(replace(role, backend=role.wrapped, wrapped=None), context)
    return Recorder(inner, context.config.cassette)


def build_replay(role: RoleConfig, context: BuildContext) -> Replayer:
    """Registry factory for `replay`: answers from the config's cassette."""
    if not context.config.cassette:
        raise ConfigError(f"role {role.role!r}: replay needs a cassette path")
    return Replayer(context.config.cassette, context.calls)
