"""Check a dynamics source against transitions, in-process under the sandbox's policy and limits, the way the harness's replay does.

A transition is predicted right when the predicted display frame equals `after` cell by cell. Symbolic
dynamics (which define `dyn_next_rows`) are run on display frames directly; any other dynamics run as
render(predict(parse(before), history(z, h, a), a)) with the team's observable when it is known, else with
the symbolic parse. The artifacts run through the sandbox's guarded in-process route (`artifacts.py`): a
check that hits a limit counts as wrong, and the source is journaled as faulty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from dreamteam.backends.symbolic.common.artifact_lib import lib_display, lib_parse
from dreamteam.backends.symbolic.common.artifacts import ArtifactCache, ArtifactLoadError
from dreamteam.backends.symbolic.common.evidence import Transition
from dreamteam.sandbox.inprocess import ArtifactFault, GuardedModule

Prediction = tuple["np.ndarray | None", list[str]]
Predictor = Callable[[Transition], Prediction]


def _rows(t: Transition) -> list[list[int]]:
    rows: list[list[int]] = t.before.display.tolist()
    return rows


def symbolic_predictor(namespace: Mapping[str, Any]) -> Predictor:
    """Predict display frames with a symbolic dynamics module's `dyn_next_rows`."""
    step, history = namespace["dyn_next_rows"], namespace.get("dyn_history_rows")

    def run(t: Transition) -> Prediction:
        rows = _rows(t)
        h = history(rows, dict(t.history)) if callable(history) else dict(t.history)
        result = step(rows, h, dict(t.action))
        return np.asarray(result["rows"], dtype=np.int8), [str(e) for e in result.get("events", [])]

    return run


def generic_predictor(namespace: Mapping[str, Any], observable: Mapping[str, Any] | None) -> Predictor:
    """Predict display frames with predict/history and the observable's parse/render (or the symbolic ones)."""
    predict, history = namespace["predict"], namespace.get("history")
    parse = observable["parse"] if observable and "parse" in observable else (lambda f: lib_parse(f, [], {}))
    render = observable["render"] if observable and "render" in observable else lib_display

    def run(t: Transition) -> Prediction:
        z = parse(_rows(t))
        action = dict(t.action)
        h = history(z, dict(t.history), action) if callable(history) else dict(t.history)
        following = predict(z, h, action)
        frame = render(following)
        events = following.get("events", []) if isinstance(following, dict) else []
        return (None if frame is None else np.asarray(frame, dtype=np.int8)), [str(e) for e in events or []]

    return run


def guarded(predictor: Predictor, module: GuardedModule) -> Predictor:
    """`predictor` with every prediction run under the module's limits."""

    def run(t: Transition) -> Prediction:
        return module.run(predictor, t)

    return run


def predictor_for(source: str, cache: ArtifactCache, observable_source: str | None = None) -> Predictor | None:
    """The best way to run `source` (None when it cannot be loaded or defines no predict)."""
    try:
        module = cache.module(source, "dynamics")
        namespace = module.namespace
        if "dyn_next_rows" in namespace and "dyn_step" in namespace:
            return guarded(symbolic_predictor(namespace), module)
        if "predict" not in namespace:
            return None
        observable = cache.load(observable_source, "observable") if observable_source else None
    except (ArtifactLoadError, ArtifactFault):
        return None
    return guarded(generic_predictor(namespace, observable), module)


def verdicts(predictor: Predictor | None, transitions: Sequence[Transition]) -> list[tuple[bool, bool]]:
    """Per transition: (the predicted frame equals the observed one, the predicted events match the
    level_up / game_over flags). An artifact that raises is wrong on both."""
    out = []
    for t in transitions:
        if predictor is None:
            out.append((False, False))
            continue
        try:
            frame, events = predictor(t)
        except Exception:  # a wrong artifact may raise anything; that is a wrong prediction
            out.append((False, False))
            continue
        right = frame is not None and frame.shape == t.after.display.shape and bool(np.array_equal(frame, t.after.display))
        flags = ("level_up" in events) == t.level_up and ("game_over" in events) == t.game_over
        out.append((right, flags))
    return out


def correct(predictor: Predictor | None, transitions: Sequence[Transition]) -> list[bool]:
    """Per transition: whether the predicted frame equals the observed one (errors count as wrong)."""
    return [frame for frame, _ in verdicts(predictor, transitions)]
