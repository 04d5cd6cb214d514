"""The world model and the patch lifecycle over the sandbox worker (the team's only route to artifact code)."""

from __future__ import annotations

import copy
import hashlib
import json
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from dreamteam.codec import decode_grid
from dreamteam.sandbox import Sandbox, check_scope, compile_artifact, decide
from dreamteam.team.ports import PatchResult, Prediction
from dreamteam.types import Action, Grid
from dreamteam.workspace import surface as surface_spec


def _owned(surface_name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    spec = surface_spec(surface_name)
    return spec.public_names, (spec.helper_prefix,) if spec.helper_prefix else ()


class ResultCache:
    """A small least-recently-used map from request keys to results."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        """The cached result, or None."""
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: Hashable, value: Any) -> None:
        """Remember a result, dropping the least recently used one when full."""
        self._items[key] = value
        if len(self._items) > self.size:
            self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget everything."""
        self._items.clear()


def grid_key(grid: Grid) -> bytes:
    """A short digest of a grid's shape and cells."""
    array = np.ascontiguousarray(grid)
    return hashlib.blake2b(str(array.shape).encode() + array.tobytes(), digest_size=16).digest()


class SandboxWorldModel:
    """Runs observable.py and dynamics.py in the sandbox worker.

    Artifacts are deterministic functions of their inputs, so successful answers are cached by (frame,
    history, action, loaded sources): the leader's fatal-action check and the predict node often ask the
    same question, and revisited frames are common. Loading a new artifact clears the caches.
    """

    def __init__(self, sandbox: Sandbox | None = None, cache_size: int = 256) -> None:
        self.sandbox = sandbox or Sandbox()
        self.predictions = ResultCache(cache_size)
        self.roundtrips = ResultCache(cache_size)

    def load(self, surface_name: str, source: str) -> str | None:
        """Load an artifact under its surface's name; the rejection reason, or None."""
        owned, prefixes = _owned(surface_name)
        self.predictions.clear()
        self.roundtrips.clear()
        result = self.sandbox.load(surface_name, source, filename=surface_spec(surface_name).path, owned=owned,
                                   helper_prefixes=prefixes, surface=surface_name)
        return None if result.ok else result.reason

    def roundtrip_errors(self, grid: Grid) -> int:
        """Cells where render(parse(grid)) differs from grid; -1 when the artifacts fail."""
        key = grid_key(grid)
        cached = self.roundtrips.get(key)
        if cached is not None:
            return int(cached)
        result = self.sandbox.roundtrip("observation", np.asarray(grid))
        if not result.ok:
            return -1
        self.roundtrips.put(key, int(result.value))
        return int(result.value)

    def predict(self, grid: Grid, history: dict[str, Any], action: Action) -> Prediction:
        """render(predict(z, history(z, h, a), a)) with z = parse(grid), in one sandbox request."""
        try:
            key: Hashable = (grid_key(grid), json.dumps(history, sort_keys=True), json.dumps(action.to_json()))
        except (TypeError, ValueError):
            return self._predict(grid, history, action)
        cached = self.predictions.get(key)
        if cached is None:
            cached = self._predict(grid, history, action)
            if cached.grid is not None:
                self.predictions.put(key, cached)
        return Prediction(cached.grid, copy.deepcopy(cached.history), cached.error, cached.events)

    def _predict(self, grid: Grid, history: dict[str, Any], action: Action) -> Prediction:
        result = self.sandbox.predict_frame("observation", "dynamics", np.asarray(grid), history, action.to_json())
        if not result.ok:
            return Prediction(None, history, f"{result.kind}: {result.reason}")
        value = result.value
        new_history = value.get("history") if isinstance(value.get("history"), dict) else {}
        try:
            out = decode_grid(value["grid"])
        except (ValueError, KeyError, TypeError) as exc:
            return Prediction(None, new_history, f"prediction is not a grid: {exc}")
        if out.shape != grid.shape:
            return Prediction(None, new_history, f"render returned shape {out.shape}, expected {grid.shape}")
        events = tuple(e for e in value.get("events") or () if isinstance(e, str))
        return Prediction(out, new_history, events=events)

    def close(self) -> None:
        """Stop the worker."""
        self.sandbox.close()


class SandboxLifecycle:
    """Scope, compile, replay over the regression set, decide with the patch policy."""

    def __init__(self, sandbox: Sandbox, policy: str = "gate", allow_net_gain: bool = False) -> None:
        self.sandbox = sandbox
        self.policy = policy
        self.allow_net_gain = allow_net_gain

    def submit(self, surface_name: str, old_source: str, new_source: str,
               transitions: Sequence[Mapping[str, Any]], companions: Mapping[str, str]) -> PatchResult:
        """Run a proposed artifact through the lifecycle and say whether it is accepted."""
        owned, prefixes = _owned(surface_name)
        scope = check_scope(new_source, owned, prefixes, surface=surface_name)
        if scope:
            return PatchResult(surface_name, False, "scope: " + "; ".join(e.message for e in scope[:3]))
        compiled = compile_artifact(new_source, surface_spec(surface_name).path)
        if not compiled.ok:
            return PatchResult(surface_name, False, "compile: " + "; ".join(compiled.errors[:3]))
        if surface_name not in ("observation", "dynamics"):
            return PatchResult(surface_name, True, "scope and compile ok (no replay for this surface)")
        extra = {"observable.py": companions["observation"]} if "observation" in companions else {}
        report = self.sandbox.replay(old_source, new_source, transitions, surface=surface_name, companions=extra)
        decision = decide(report, self.policy, self.allow_net_gain)
        examples = tuple(c.to_json() for c in decision.counterexamples)
        return PatchResult(surface_name, decision.accepted, decision.reason, report.summary(), examples,
                           report.to_json())
