"""Worker-side world-model pipelines: one request per environment step instead of one per function call.

`roundtrip`: parse the frame with the observation artifact, render it back, count differing cells.
`predict_frame`: z = parse(frame); h1 = history(z, h, a); render(predict(z, h1, a)) as hex rows, plus h1.
The last parse is cached per (frame, observation artifact) so observe and predict parse a frame once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dreamteam.sandbox.engine import clone
from dreamteam.sandbox.execution import Outcome, Runner
from dreamteam.sandbox.gridlib import Grid, as_array
from dreamteam.sandbox.wire import hex_rows


class ParseCache:
    """The last parse: (artifact namespace id, frame hex) -> z."""

    def __init__(self) -> None:
        self.key: tuple[int, str] | None = None
        self.value: Any = None


def _fail(outcome: Outcome, what: str) -> dict[str, Any]:
    if outcome.limit:
        return {"kind": "killed", "reason": f"{what}: {outcome.limit}"}
    return {"kind": "error", "reason": f"{what} failed: {outcome.error}"}


def _function(modules: dict[str, dict[str, Any]], name: str, function: str) -> Any:
    namespace = modules.get(name)
    target = namespace.get(function) if namespace is not None else None
    return target if callable(target) else None


def _parse(runner: Runner, modules: dict[str, dict[str, Any]], cache: ParseCache, obs: str,
           frame_hex: list[str]) -> tuple[Any, dict[str, Any] | None]:
    parse = _function(modules, obs, "parse")
    if parse is None:
        return None, {"kind": "rejected", "reason": f"artifact '{obs}' has no function 'parse'"}
    key = (id(modules[obs]), "".join(frame_hex))
    if cache.key == key:
        return clone(cache.value), None
    outcome = runner.run(parse, Grid.from_hex_rows(frame_hex))
    if not outcome.ok:
        return None, _fail(outcome, "parse")
    cache.key, cache.value = key, outcome.value
    return clone(outcome.value), None


def _render(runner: Runner, modules: dict[str, dict[str, Any]], obs: str, z: Any) -> tuple[Any, dict[str, Any] | None]:
    render = _function(modules, obs, "render")
    if render is None:
        return None, {"kind": "rejected", "reason": f"artifact '{obs}' has no function 'render'"}
    outcome = runner.run(render, z)
    if not outcome.ok:
        return None, _fail(outcome, "render")
    try:
        return as_array(outcome.value), None
    except (ValueError, TypeError) as exc:
        return None, {"kind": "error", "reason": f"render returned something that is not a grid: {exc}"}


def roundtrip(runner: Runner, modules: dict[str, dict[str, Any]], cache: ParseCache,
              request: dict[str, Any]) -> dict[str, Any]:
    """Cells where render(parse(frame)) differs from the frame."""
    frame_hex = request["frame"]
    z, error = _parse(runner, modules, cache, request["observation"], frame_hex)
    if error:
        return error
    out, error = _render(runner, modules, request["observation"], z)
    if error:
        return error
    expected = Grid.from_hex_rows(frame_hex)._view()
    if out.shape != expected.shape:
        return {"kind": "ok", "value": int(expected.size)}
    return {"kind": "ok", "value": int(np.count_nonzero(out != expected))}


def predict_frame(runner: Runner, modules: dict[str, dict[str, Any]], cache: ParseCache,
                  request: dict[str, Any]) -> dict[str, Any]:
    """The predicted next frame (hex rows) and the new history."""
    obs, dyn = request["observation"], request["dynamics"]
    z, error = _parse(runner, modules, cache, obs, request["frame"])
    if error:
        return error
    history_fn, predict_fn = _function(modules, dyn, "history"), _function(modules, dyn, "predict")
    if history_fn is None or predict_fn is None:
        return {"kind": "rejected", "reason": f"artifact '{dyn}' needs functions 'history' and 'predict'"}
    action = request["action"]
    h1 = runner.run(history_fn, clone(z), clone(request.get("history") or {}), clone(action))
    if not h1.ok:
        return _fail(h1, "history")
    z1 = runner.run(predict_fn, z, clone(h1.value), clone(action))
    if not z1.ok:
        return _fail(z1, "predict")
    out, error = _render(runner, modules, obs, z1.value)
    if error:
        return error
    if out.ndim != 2 or out.size == 0 or out.min() < 0 or out.max() > 15:
        return {"kind": "error", "reason": f"render returned shape {out.shape} or colours outside 0-15"}
    events = z1.value.get("events") if isinstance(z1.value, dict) else None
    events = [e for e in events if isinstance(e, str)][:16] if isinstance(events, list) else []
    return {"kind": "ok", "value": {"grid": hex_rows(out), "history": h1.value, "events": events}}
