"""The world model and the patch lifecycle over the sandbox worker (the team's only route to artifact code)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


class SandboxWorldModel:
    """Runs observable.py and dynamics.py in the sandbox worker; caches the parse of the current frame."""

    def __init__(self, sandbox: Sandbox | None = None) -> None:
        self.sandbox = sandbox or Sandbox()

    def load(self, surface_name: str, source: str) -> str | None:
        """Load an artifact under its surface's name; the rejection reason, or None."""
        owned, prefixes = _owned(surface_name)
        result = self.sandbox.load(surface_name, source, filename=surface_spec(surface_name).path, owned=owned,
                                   helper_prefixes=prefixes, surface=surface_name)
        return None if result.ok else result.reason

    def roundtrip_errors(self, grid: Grid) -> int:
        """Cells where render(parse(grid)) differs from grid; -1 when the artifacts fail."""
        result = self.sandbox.roundtrip("observation", np.asarray(grid))
        return int(result.value) if result.ok else -1

    def predict(self, grid: Grid, history: dict[str, Any], action: Action) -> Prediction:
        """render(predict(z, history(z, h, a), a)) with z = parse(grid), in one sandbox request."""
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
