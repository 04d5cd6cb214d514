"""Parent side of a replay: validate transitions, reuse cached verdicts of the old version, split the work
into one request per worker (each distinct grid sent once), and merge the replies into a report."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dreamteam.sandbox.report import ReplayReport, TransitionRecord, Verdict
from dreamteam.sandbox.wire import hex_rows

SURFACE_FILES: dict[str, str] = {"observation": "observable.py", "dynamics": "dynamics.py"}
"""The surfaces that can be replayed and their artifact files."""

Wire = list[Any]
_HEX_DIGITS = b"0123456789abcdefABCDEF"


class VerdictCache:
    """Verdicts of old artifact versions, per (surface, old source, companion source), per transition.

    The old version of a patch is the accepted one, replayed again at every step: caching its verdicts
    halves the work of a replay. The verdicts a version got as the new side of its own replay are kept
    too: once accepted it is the old side of the next replay, over mostly the same transitions. Artifacts
    are assumed pure (the contract: same inputs, same outputs).
    """

    def __init__(self, max_versions: int = 4, max_transitions: int = 20_000) -> None:
        self.max_versions = max_versions
        self.max_transitions = max_transitions
        self._versions: OrderedDict[tuple[str, ...], OrderedDict[int, Wire]] = OrderedDict()

    def version(self, key: tuple[str, ...]) -> OrderedDict[int, Wire]:
        """The verdict table of one old version (created on first use, least recently used evicted)."""
        table = self._versions.get(key)
        if table is None:
            table = self._versions[key] = OrderedDict()
            while len(self._versions) > self.max_versions:
                self._versions.popitem(last=False)
        self._versions.move_to_end(key)
        return table

    def store(self, table: OrderedDict[int, Wire], key: int, wire: Wire) -> None:
        """Remember one verdict."""
        table[key] = wire
        if len(table) > self.max_transitions:
            table.popitem(last=False)


@dataclass(frozen=True, slots=True)
class ReplayPlan:
    """What to send to each worker, and what is needed to assemble the report afterwards."""

    surface: str
    requests: tuple[str, ...]
    steps: tuple[int, ...]
    labels: tuple[str, ...]
    keys: tuple[int, ...]
    cached_old: tuple[Wire | None, ...]


def _grid_rows(transition: Mapping[str, Any], key: str, index: int) -> tuple[str, ...]:
    rows = transition.get(key)
    if isinstance(rows, np.ndarray):
        return tuple(hex_rows(rows))
    if not isinstance(rows, list | tuple) or not rows or set(map(type, rows)) != {str}:
        raise ValueError(f"transition {index}: '{key}' must be a list of hex strings")
    return tuple(rows)


def _action_label(action: Mapping[str, Any]) -> str:
    name = str(action.get("action", action.get("id", "?")))
    return f"{name}@({action.get('x')},{action.get('y')})" if "x" in action else name


@dataclass(frozen=True, slots=True)
class _Checked:
    step: int
    before: tuple[str, ...]
    after: tuple[str, ...]
    action: dict[str, Any]
    history: dict[str, Any]
    key: int
    """A 64-bit content hash of the transition (a collision within one cache is ~1e-11 likely)."""


def _check(transition: Mapping[str, Any], index: int) -> _Checked:
    action = transition.get("action")
    if not isinstance(action, Mapping):
        raise ValueError(f"transition {index}: 'action' must be an object like {{\"action\": \"ACTION1\"}}")
    history = transition.get("history") or {}
    if not isinstance(history, Mapping):
        raise ValueError(f"transition {index}: 'history' must be an object")
    before, after = _grid_rows(transition, "before", index), _grid_rows(transition, "after", index)
    try:
        facts = json.dumps([action, history], sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"transition {index}: 'action' and 'history' must be JSON-able: {exc}") from None
    key = hash((before, after, facts))
    return _Checked(int(transition.get("step", index)), before, after, dict(action), dict(history), key)


def _artifacts(old_source: str | None, new_source: str, surface: str, companions: Mapping[str, str]) -> dict[str, Any]:
    if surface not in SURFACE_FILES:
        raise ValueError(f"cannot replay surface {surface!r}; replayable surfaces: {', '.join(SURFACE_FILES)}")
    filename = SURFACE_FILES[surface]
    artifacts: dict[str, Any] = {
        "old": None if old_source is None else {"source": old_source, "filename": f"{filename}@old"},
        "new": {"source": new_source, "filename": filename},
        "companion": None,
    }
    if surface == "dynamics":
        companion = companions.get("observable.py")
        if companion is None:
            raise ValueError("replaying the dynamics surface needs companions['observable.py'] (parse and render)")
        artifacts["companion"] = {"source": companion, "filename": "observable.py"}
    return artifacts


def _chunk_request(base: dict[str, Any], items: Sequence[_Checked], known: Sequence[bool]) -> str:
    """The request as JSON text; the grids are spliced in as plain strings (JSON-encoding ~1 MB of hex
    digits would cost more than the rest of a replay's parent-side work)."""
    grid_index: dict[tuple[str, ...], int] = {}
    packed = []
    for item, old_known in zip(items, known, strict=True):
        before = grid_index.setdefault(item.before, len(grid_index))
        after = grid_index.setdefault(item.after, len(grid_index))
        packed.append([item.step, before, after, item.action, item.history, int(old_known)])
    texts = ["".join(rows) for rows in grid_index]
    if any(text.encode("ascii", "replace").translate(None, _HEX_DIGITS) for text in texts):
        raise ValueError("grid rows must hold only hex digits 0-9, a-f")
    grids = ",".join(f'[{len(rows[0])},"{text}"]' for rows, text in zip(grid_index, texts, strict=True))
    head = json.dumps({**base, "transitions": packed})
    return f'{head[:-1]}, "grids": [{grids}]}}'



def plan_replay(
    old_source: str | None,
    new_source: str,
    transitions: Sequence[Mapping[str, Any]],
    *,
    surface: str,
    companions: Mapping[str, str],
    workers: int,
    cached: Mapping[int, Wire] | None = None,
) -> ReplayPlan:
    """Validate and split a replay; transitions whose old verdict is in `cached` skip the old version."""
    base = {"op": "replay", "surface": surface, **_artifacts(old_source, new_source, surface, companions)}
    items = [_check(t, i) for i, t in enumerate(transitions)]
    keys = tuple(item.key for item in items)
    cached_old = tuple((cached or {}).get(k) if old_source is not None else None for k in keys)
    known = [wire is not None for wire in cached_old]
    size = max(1, -(-len(items) // max(1, workers)))
    bounds = [(start, min(len(items), start + size)) for start in range(0, max(len(items), 1), size)]
    requests = tuple(_chunk_request(base, items[lo:hi], known[lo:hi]) for lo, hi in bounds)
    return ReplayPlan(
        surface, requests, tuple(i.step for i in items), tuple(_action_label(i.action) for i in items), keys, cached_old
    )


def _merge_status(replies: Sequence[Mapping[str, Any]], field: str) -> str:
    return next((str(r[field]) for r in replies if r[field] != "ok"), "ok")


def merge_replies(
    plan: ReplayPlan, replies: Sequence[Mapping[str, Any]], seconds: float
) -> tuple[ReplayReport, list[tuple[int, Wire]], list[tuple[int, Wire]]]:
    """The report for a plan whose requests all came back with kind "ok", the old version's freshly computed
    verdicts as (transition key, verdict) pairs for the cache, and the new version's verdicts that can serve
    as its verdicts when it is the old version of a later replay (those without an error text, which names the
    file a version was loaded as)."""
    wires = [record for reply in replies for record in reply["records"]]
    records, fresh, fresh_new = [], [], []
    for i, (_step, old, new) in enumerate(wires):
        if old is None:
            old = plan.cached_old[i]
        else:
            fresh.append((plan.keys[i], old))
        if not new[3]:
            fresh_new.append((plan.keys[i], new))
        records.append(TransitionRecord(i, plan.steps[i], Verdict.from_wire(old), Verdict.from_wire(new), plan.labels[i]))
    worker_seconds = max((float(r.get("worker_seconds", 0.0)) for r in replies), default=0.0)
    report = ReplayReport(
        plan.surface, tuple(records), _merge_status(replies, "old_status"), _merge_status(replies, "new_status"),
        None, seconds, worker_seconds,
    )
    return report, fresh, fresh_new
