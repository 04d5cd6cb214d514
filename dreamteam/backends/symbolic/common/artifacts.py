"""Load the team's artifact sources (observable.py, dynamics.py) in-process, through the sandbox's guarded route.

The inductive explorer's rollouts and the simulator's self-check call artifacts hundreds of times per request,
too often for a round trip to the sandbox worker each time, so they run here: compiled with the sandbox's
RestrictedPython policy, executed with its guards, and every call under a deadline, a memory budget and the
recursion limit (`dreamteam.sandbox.inprocess`). A call that hits a limit raises `ArtifactFault`, and the
source is recorded in the process's fault journal, from which the harness falls the surface back.
"""

from __future__ import annotations

import ast
import functools
from collections import OrderedDict
from typing import Any

from dreamteam.sandbox.inprocess import (
    ArtifactCompileError,
    ArtifactFault,
    GuardedModule,
    InProcessLimits,
    load_guarded,
    source_digest,
)


class ArtifactLoadError(Exception):
    """An artifact source that does not compile or fails while its module body runs."""


class ArtifactCache:
    """Guarded artifact modules by source text (bounded, least recently used dropped first)."""

    def __init__(self, size: int = 8, limits: InProcessLimits | None = None) -> None:
        self.size = size
        self.limits = limits or InProcessLimits()
        self._items: OrderedDict[tuple[str, str], GuardedModule] = OrderedDict()

    def module(self, source: str, name: str = "artifact") -> GuardedModule:
        """The guarded module of `source` (raises ArtifactLoadError when it cannot be loaded)."""
        key = (source_digest(source), name)
        found = self._items.get(key)
        if found is not None and not found.fault:
            self._items.move_to_end(key)
            return found
        if found is not None:
            raise ArtifactLoadError(f"{name} cannot be loaded: {found.fault}")
        try:
            module = load_guarded(source, f"{name}.py", self.limits)
        except (ArtifactCompileError, ArtifactFault) as exc:
            raise ArtifactLoadError(f"{name} cannot be loaded: {exc}") from exc
        except Exception as exc:  # an artifact's top level can fail in any way; report it as data
            raise ArtifactLoadError(f"{name} cannot be loaded: {type(exc).__name__}: {exc}") from exc
        self._items[key] = module
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return module

    def load(self, source: str, name: str = "artifact") -> dict[str, Any]:
        """The module namespace of `source` (for callers that call into it through `module(...).run`)."""
        return self.module(source, name).namespace


@functools.lru_cache(maxsize=32)
def assigned_literal(source: str, name: str) -> Any:
    """The literal value a module assigns to `name` at top level (None when absent or not a literal)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            try:
                return ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                return None
    return None
