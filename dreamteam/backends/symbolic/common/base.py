"""The RoleModel wrapper every symbolic role shares: timing, usage accounting and failures as data."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Protocol

from dreamteam.protocols import CallUsage, RoleReply, RoleRequest

BACKEND = "symbolic"


class Answerer(Protocol):
    """One role's algorithm: a request in, the reply content (matching the role's schema) out."""

    def answer(self, request: RoleRequest) -> dict[str, Any]:
        """Compute the reply content for `request`."""


class SymbolicRoleModel:
    """A RoleModel that answers with an algorithm instead of a language model."""

    name = BACKEND

    def __init__(self, role: str, answerer: Answerer) -> None:
        self.role = role
        self.answerer = answerer

    def respond(self, request: RoleRequest) -> RoleReply:
        """Answer `request`; an exception becomes ok=False with the error text (never a crash)."""
        started = time.perf_counter()
        try:
            content = self.answerer.answer(request)
            ok, error = True, None
        except Exception as exc:  # the harness records a failed call and carries on
            content, ok, error = {}, False, f"symbolic {self.role} failed: {type(exc).__name__}: {exc}"
        usage = CallUsage(backend=BACKEND, model=f"symbolic-{self.role}", latency_s=time.perf_counter() - started)
        return RoleReply(role=request.role, content=content, ok=ok, error=error, usage=usage)


def text_of(context: Mapping[str, Any], key: str) -> str:
    """A context value as text ('' when absent)."""
    value = context.get(key)
    return value if isinstance(value, str) else ""


def list_of(context: Mapping[str, Any], key: str) -> list[Any]:
    """A context value as a list ([] when absent or not a list)."""
    value = context.get(key)
    return list(value) if isinstance(value, list | tuple) else []
