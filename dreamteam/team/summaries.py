"""Small text and JSON summaries the step logic writes into commits and role contexts."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from dreamteam.roles.inductive import Tactic
from dreamteam.roles.transductive import Probe
from dreamteam.types import CLICK, Action, Grid


def diff_summary(predicted: Grid | None, observed: Grid, error: str = "") -> str:
    """One line: where and how the prediction differed from the observed frame."""
    if predicted is None:
        return f"no prediction ({error})" if error else "no prediction"
    mask = np.asarray(predicted) != np.asarray(observed)
    if not mask.any():
        return "prediction matched the frame"
    ys, xs = np.nonzero(mask)
    pairs: dict[tuple[int, int], int] = {}
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        key = (int(predicted[y, x]), int(observed[y, x]))
        pairs[key] = pairs.get(key, 0) + 1
    top = ", ".join(f"{a}->{b} x{n}" for (a, b), n in sorted(pairs.items(), key=lambda kv: -kv[1])[:4])
    return (f"{int(mask.sum())} cells differ in x {xs.min()}-{xs.max()}, y {ys.min()}-{ys.max()} "
            f"(predicted->observed colours: {top})")


def proposals_json(tactics: Sequence[Tactic], probes: Sequence[Probe]) -> dict[str, Any]:
    """Tactics and probes as JSON for other roles' contexts."""
    return {
        "tactics": [{"name": t.name, "sub_goal": t.sub_goal, "actions": [a.to_json() for a in t.actions],
                     "expected": t.expected} for t in tactics[:12]],
        "probes": [p.to_json() for p in probes[:12]],
    }


def fallback_actions(probes: Sequence[Probe], available: Sequence[int], rng: random.Random,
                     fatal: Collection[int] = ()) -> tuple[Action, ...]:
    """When no role produced a usable plan: the first probe that does not start with an action in `fatal`
    (simple actions predicted to lose the level from here), else one random simple action not in `fatal`,
    else one random simple action or click."""
    for probe in probes:
        usable = tuple(a for a in probe.actions if a.id in available and a.id != 0)
        if usable and usable[0].id not in fatal:
            return usable
    simple = [a for a in available if a not in (0, CLICK)]
    safe = [a for a in simple if a not in fatal]
    if safe or simple:
        return (Action(rng.choice(safe or simple)),)
    return (Action(CLICK, rng.randrange(64), rng.randrange(64)),)
