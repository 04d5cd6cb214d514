"""The world model and the patch lifecycle over the sandbox worker (the team's only route to artifact code)."""

from __future__ import annotations

import copy
import hashlib
import json
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dreamteam.codec import decode_grid
from dreamteam.sandbox import (
    CallResult,
    PendingBatch,
    Sandbox,
    check_compiles,
    check_scope,
    decide,
    predict_request,
    roundtrip_request,
)
from dreamteam.sandbox.inprocess import JOURNAL, FaultJournal
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


@dataclass(frozen=True, slots=True)
class Ahead:
    """A prepared roundtrip (and maybe prediction) whose answers are still in the worker."""

    key: bytes
    roundtrip: bool
    """Whether the batch holds the round trip (else only the prediction: the round trip was cached)."""
    upcoming: tuple[Hashable, dict[str, Any], Action] | None
    shape: tuple[int, ...]
    pending: PendingBatch


class SandboxWorldModel:
    """Runs observable.py and dynamics.py in the sandbox worker.

    Artifacts are deterministic functions of their inputs, so successful answers are cached by (frame,
    history, action, loaded sources): the leader's fatal-action check and the predict node often ask the
    same question, and revisited frames are common. Loading a new artifact clears the caches.
    """

    def __init__(self, sandbox: Sandbox | None = None, cache_size: int = 256, journal: FaultJournal = JOURNAL) -> None:
        self.sandbox = sandbox or Sandbox()
        self.predictions = ResultCache(cache_size)
        self.roundtrips = ResultCache(cache_size)
        self._ahead: Ahead | None = None
        self.journal = journal
        """Where a loaded artifact that a limit killed in the worker is recorded (the harness falls it back)."""
        self.loaded: dict[str, str] = {}

    def load(self, surface_name: str, source: str) -> str | None:
        """Load an artifact under its surface's name; the rejection reason, or None."""
        owned, prefixes = _owned(surface_name)
        self._ahead = None  # answers computed with the old artifact must not reach the caches
        self.predictions.clear()
        self.roundtrips.clear()
        result = self.sandbox.load(surface_name, source, filename=surface_spec(surface_name).path, owned=owned,
                                   helper_prefixes=prefixes, surface=surface_name)
        self.loaded[surface_name] = source
        return None if result.ok else result.reason

    def _killed(self, surface_name: str, result: CallResult) -> None:
        """Journal the loaded artifact of `surface_name` when a limit killed its call in the worker."""
        source = self.loaded.get(surface_name)
        if result.kind == "killed" and source is not None and "worker died" not in result.reason:
            self.journal.record(source, f"{surface_spec(surface_name).path}: {result.reason} in the sandbox worker")

    def prepare(self, grid: Grid, *, then_predict: tuple[dict[str, Any], Action] | None = None) -> None:
        """Start `roundtrip_errors(grid)` in the worker and return at once (its answer is read when asked).

        `then_predict` = (history, action): the prediction `predict(grid, history, action)` will ask for is
        computed in the same request. Meanwhile this process can do other work (the step commit).
        """
        self._ahead = None
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
        if requests:
            self._ahead = Ahead(key, errors is None, upcoming, grid.shape, self.sandbox.send_batch(requests))

    def roundtrip_errors(self, grid: Grid) -> int:
        """Cells where render(parse(grid)) differs from grid; -1 when the artifacts fail."""
        key = grid_key(grid)
        ahead, self._ahead = self._ahead, None
        if ahead is not None and ahead.key == key:
            self._settle(ahead)
        errors = self.roundtrips.get(key)
        if errors is not None:
            return int(errors)
        result = self.sandbox.roundtrip("observation", np.asarray(grid))
        if not result.ok:
            self._killed("observation", result)
            return -1
        self.roundtrips.put(key, int(result.value))
        return int(result.value)

    def _settle(self, ahead: Ahead) -> None:
        """Put the answers of a prepared request in the caches."""
        results = list(ahead.pending.results())
        if ahead.upcoming is not None:
            wanted, history, _ = ahead.upcoming
            prediction = self._prediction(ahead.shape, history, results.pop())
            if prediction.grid is not None:
                self.predictions.put(wanted, prediction)
        if ahead.roundtrip and results[0].ok:
            self.roundtrips.put(ahead.key, int(results[0].value))
        elif ahead.roundtrip:
            self._killed("observation", results[0])

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
        if self._ahead is not None and self._ahead.upcoming is not None and self._ahead.upcoming[0] == key:
            ahead, self._ahead = self._ahead, None
            self._settle(ahead)
        cached = self.predictions.get(key)
        if cached is None:
            cached = self._predict(grid, history, action)
            if cached.grid is not None:
                self.predictions.put(key, cached)
        return Prediction(cached.grid, copy.deepcopy(cached.history), cached.error, cached.events)

    def _predict(self, grid: Grid, history: dict[str, Any], action: Action) -> Prediction:
        result = self.sandbox.predict_frame("observation", "dynamics", np.asarray(grid), history, action.to_json())
        return self._prediction(grid.shape, history, result)

    def _prediction(self, shape: tuple[int, ...], history: dict[str, Any], result: CallResult) -> Prediction:
        if not result.ok:
            self._killed("dynamics", result)
            return Prediction(None, history, f"{result.kind}: {result.reason}")
        value = result.value
        new_history = value.get("history") if isinstance(value.get("history"), dict) else {}
        try:
            out = decode_grid(value["grid"])
        except (ValueError, KeyError, TypeError) as exc:
            return Prediction(None, new_history, f"prediction is not a grid: {exc}")
        if out.shape != shape:
            return Prediction(None, new_history, f"render returned shape {out.shape}, expected {shape}")
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
        fault = JOURNAL.reason(new_source)
        if fault is not None:
            return PatchResult(surface_name, False, f"this version faulted after an earlier replay ({fault})",
                               counterexamples=({"error": fault},))
        owned, prefixes = _owned(surface_name)
        scope = check_scope(new_source, owned, prefixes, surface=surface_name)
        if scope:
            return PatchResult(surface_name, False, "scope: " + "; ".join(e.message for e in scope[:3]))
        compiled = check_compiles(new_source, surface_spec(surface_name).path)
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
