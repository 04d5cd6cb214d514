"""Shared test helpers: asking a symbolic role, loading artifacts, and running them in the real sandbox."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dreamteam.backends.schemas import ROLE_SCHEMAS
from dreamteam.backends.symbolic import build
from dreamteam.backends.symbolic.common.artifacts import ArtifactCache
from dreamteam.backends.validate import validate
from dreamteam.protocols import RoleRequest
from dreamteam.workspace.surfaces import surface_for_role

SEED_OBSERVABLE = Path(__file__).resolve().parents[3] / "seeds" / "default" / "observable.py"


def ask(role: str, context: dict[str, Any], surface: str = "", task: str = "", model: Any = None) -> dict[str, Any]:
    """Send one request to a (fresh or given) symbolic model; assert the reply is ok and fits the schema."""
    model = model or build(role)
    tasks = {"observer": "maintain", "simulator": "maintain", "inductive": "propose", "transductive": "propose",
             "critic": "audit", "leader": "decide"}
    reply = model.respond(RoleRequest(role, task or tasks[role], surface, context, ROLE_SCHEMAS[role]))
    assert reply.ok, reply.error
    assert reply.usage.backend == "symbolic"
    errors = validate(dict(reply.content), ROLE_SCHEMAS[role])
    assert errors == [], errors
    return dict(reply.content)


def load(source: str) -> dict[str, Any]:
    """Exec an artifact in plain Python."""
    return ArtifactCache().load(source)


def sandboxed(source: str, role: str) -> dict[str, Any]:
    """Scope-check, compile with the project's policy and exec `source` with the sandbox's guards."""
    scope = pytest.importorskip("dreamteam.sandbox.scope")
    policy = pytest.importorskip("dreamteam.sandbox.policy")
    guards = pytest.importorskip("dreamteam.sandbox.guards")
    surface = surface_for_role(role)
    prefixes = (surface.helper_prefix,) if surface.helper_prefix else ()
    errors = scope.check_scope(source, surface.public_names, prefixes, surface=surface.name)
    assert errors == [], [str(e) for e in errors]
    compiled = policy.compile_artifact(source)
    assert compiled.ok, compiled.errors
    namespace: dict[str, Any] = guards.artifact_globals(surface.path, guards.PrintSink(100_000))
    exec(compiled.code, namespace)
    return namespace
