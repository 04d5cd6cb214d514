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
from dreamteam.sandbox import (
    CallResult,
    Sandbox,
    check_scope,
    compile_artifact,
    decide,
    predict_request,
    roundtrip_request,
)
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

    def roundtrip_errors(self, grid: Grid, *, then_predict: tuple[dict[str, Any], Action] | None = None) -> int:
        """Cells where render(parse(grid)) differs from grid; -1 when the artifacts fail.

        `then_predict` = (history, action): the prediction `predict(grid, history, action)` will ask for is
        computed in the same worker request and cached (the step's next action is known while it observes).
        """
        key = grid_key(grid)
        errors = self.roundtrips.get(key)
        upcoming = None
        if then_predict is not None:
            wanted = self._prediction_key(grid, *then_predict)
            if wanted is not None and self.predictions.get(wanted) is None:
                upcoming = (wanted, *then_predict)
        requests = [] if errors is not None else [roundtrip_request("observation", np.asarray(grid))]
        if upcoming is not None:
            requests.append(predict_request("observation", "dynamics", np.asarray(grid), upcoming[1],
                                            upcoming[2].to_json()))
        results = self.sandbox.batch(requests) if requests else []
        if upcoming is not None:
            prediction = self._prediction(grid, upcoming[1], results.pop())
            if prediction.grid is not None:
                self.predictions.put(upcoming[0], prediction)
        if errors is None:
            if not results[0].ok:
                return -1
            errors = int(results[0].value)
            self.roundtrips.put(key, errors)
        return int(errors)

    @staticmethod
    def _prediction_key(grid: Grid, history: dict[str, Any], action: Action) -> Hashable | None:
        try:
            return (grid_key(grid), json.dumps(history, sort_keys=True), json.dumps(action.to_json()))
        except (TypeError, ValueError):
            return None

    def predict(self, grid: Grid, history: dict[str, Any], action: Action) -> Prediction:
        """render(predict(z, history(z, h, a), a)) with z = parse(grid), in one sandbox request."""
        key = self._prediction_key(grid, history, action)
        if key is None:
            return self._predict(grid, history, action)
        cached = self.predictions.get(key)
        if cached is None:
            cached = self._predict(grid, history, action)
            if cached.grid is not None:
                self.predictions.put(key, cached)
        return Prediction(cached.grid, copy.deepcopy(cached.history), cached.error, cached.events)

    def _predict(self, grid: Grid, history: dict[str, Any], action: Action) -> Prediction:
        result = self.sandbox.predict_frame("observation", "dynamics", np.asarray(grid), history, action.to_json())
        return self._prediction(grid, history, result)

    @staticmethod
    def _prediction(grid: Grid, history: dict[str, Any], result: CallResult) -> Prediction:
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
