"""Worker-side replay: evaluate old and new artifact versions over every transition in one call."""

from __future__ import annotations

import copy
import marshal
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dreamteam.sandbox.execution import Outcome, Runner
from dreamteam.sandbox.gridlib import Grid

CONTRACTS: dict[str, tuple[tuple[str, ...], str]] = {
    "dynamics": (("predict",), "dynamics.py must define predict(z, h, a) -> z (history(z, h, a) -> h is optional)"),
    "observation": (("parse", "render"), "observable.py must define parse(frame) -> z and render(z) -> grid"),
}
"""Surface -> (required functions, the contract stated in errors)."""

Wire = list[Any]
"""A verdict in the compact form [right, wrong_cells, [x, y, expected, got, frame] | None, error]."""


@dataclass
class Side:
    """One artifact version during a replay."""

    functions: dict[str, Any] | None
    status: str
    seconds: float = 0.0
    cache: dict[int, Wire] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        """Whether this version can still be evaluated."""
        return self.functions is not None and self.status == "ok"


def load_side(runner: Runner, artifact: dict[str, str] | None, surface: str) -> Side:
    """Load one version, checking it defines the surface's contract."""
    if artifact is None:
        return Side(None, "absent")
    loaded = runner.load(surface, artifact["source"], artifact["filename"])
    if loaded.namespace is None:
        if loaded.errors:
            return Side(None, f"compile error: {loaded.errors[0]}")
        if loaded.outcome.limit:
            return Side(None, f"killed: {loaded.outcome.limit}")
        return Side(None, f"load error: {loaded.outcome.error}")
    required, contract = CONTRACTS[surface]
    if any(not callable(loaded.namespace.get(name)) for name in required):
        return Side(None, f"load error: {contract}")
    names = (*required, "history")
    return Side({n: loaded.namespace.get(n) for n in names if callable(loaded.namespace.get(n))}, "ok")


def clone(value: Any) -> Any:
    """A deep copy of a JSON-like value (marshal is the fastest copier for it; deepcopy for the rest)."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:
        return copy.deepcopy(value)


_RIGHT: Wire = [1, 0, None, ""]


def _same_bytes(out: list[Any], expected: Grid) -> bool | None:
    """Fast path for canvases (bytearray rows): True/False, or None when the rows are not bytes-like."""
    if len(out) != expected.height:
        return None
    try:
        if set(map(len, out)) != {expected.width}:
            return None
        return b"".join(out) == expected._cell_bytes()
    except TypeError:
        return None


def _grid_array(out: Any) -> Any:
    if isinstance(out, Grid):
        return out._view()
    if isinstance(out, list | tuple) and out and all(isinstance(row, bytes | bytearray) for row in out):
        if len(set(map(len, out))) != 1:
            raise ValueError("ragged rows")
        return np.frombuffer(b"".join(out), dtype=np.uint8).reshape(len(out), len(out[0]))
    return np.asarray(out)


def compare(out: Any, expected: Grid, expected_rows: Callable[[], list[list[int]]], frame: str) -> Wire:
    """Judge a rendered grid against the observed one, cell by cell (`expected_rows` gives it as row lists)."""
    if type(out) is list:
        same = _same_bytes(out, expected)
        if same or (same is None and out == expected_rows()):
            return _RIGHT
    elif isinstance(out, Grid) and out == expected:
        return _RIGHT
    cells = expected.height * expected.width
    try:
        got = _grid_array(out)
    except (ValueError, TypeError):
        return [0, cells, None, f"render returned a ragged or non-grid value ({type(out).__name__})"]
    if got.ndim != 2 or got.dtype.kind not in "iub":
        return [0, cells, None, "render must return rows of integer colours"]
    want = expected._view()
    if got.shape != want.shape:
        shape = f"{got.shape[1]}x{got.shape[0]}"
        return [0, cells, None, f"render returned a {shape} grid, expected {expected.width}x{expected.height}"]
    wrong = got != want
    count = int(np.count_nonzero(wrong))
    if count == 0:
        return _RIGHT
    y, x = divmod(int(np.argmax(wrong)), want.shape[1])
    return [0, count, [x, y, int(want[y, x]), int(got[y, x]), frame], ""]


def failed(error: str, cells: int) -> Wire:
    """The verdict for a version that could not produce a prediction."""
    return [0, cells, None, error]


class ParseMemo:
    """The companion's parses of observed frames, kept between replays (marshalled, so each use gets its own
    copy): every replay of a dynamics patch parses each frame of the regression window again with the same
    observable.py, and on a 64x64 frame the parse costs as much as a prediction. Artifacts are pure by
    contract (the old version's verdicts are cached on the same assumption)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, str], bytes] = OrderedDict()

    def get(self, key: tuple[int, str]) -> Any:
        """A fresh copy of the remembered parse, or None."""
        found = self._items.get(key)
        if found is None:
            return None
        self._items.move_to_end(key)
        return marshal.loads(found)

    def put(self, key: tuple[int, str], value: Any) -> None:
        """Remember a parse (values marshal cannot copy are not remembered)."""
        try:
            self._items[key] = marshal.dumps(value)
        except ValueError:
            return
        while len(self._items) > self.size:
            self._items.popitem(last=False)


PARSES = ParseMemo()
"""The worker's remembered parses (one worker process, one memo)."""


class Replay:
    """The state of one replay call inside the worker."""

    def __init__(self, runner: Runner, request: dict[str, Any], parses: ParseMemo | None = None) -> None:
        self.runner = runner
        self.surface: str = request["surface"]
        self.texts: list[str] = [text for _, text in request["grids"]]
        self.grids = [Grid.from_hex(text, width) for width, text in request["grids"]]
        self.parses = parses
        self._rows: dict[int, list[list[int]]] = {}
        self.sides = [load_side(runner, request.get(key), self.surface) for key in ("old", "new")]
        self.companion: Side | None = None
        self.companion_key = 0
        if self.surface == "dynamics":
            self.companion = load_side(runner, request["companion"], "observation")
            self.companion_key = hash((request["companion"]["source"], request["companion"]["filename"]))
        self.aborted = ""

    def parse(self, index: int) -> tuple[Outcome, bool]:
        """The companion's parse of observed grid `index` (remembered between replays) and whether the value is
        a copy of its own (so a side may change it)."""
        companion = self.companion
        assert companion is not None and companion.functions is not None
        key = (self.companion_key, f"{self.grids[index].width}:{self.texts[index]}")
        if self.parses is not None:
            found = self.parses.get(key)
            if found is not None:
                return Outcome(value=found), True
        parsed = self.timed(companion, companion.functions["parse"], self.grids[index])
        if self.parses is not None and parsed.ok:
            self.parses.put(key, parsed.value)
        return parsed, False

    def rows(self, index: int) -> Callable[[], list[list[int]]]:
        """A getter for observed grid `index` as row lists (computed once; never handed to artifact code)."""

        def get() -> list[list[int]]:
            if index not in self._rows:
                self._rows[index] = self.grids[index].tolist()
            return self._rows[index]

        return get

    def cells(self, index: int) -> int:
        """Number of cells of grid `index`."""
        return self.grids[index].height * self.grids[index].width

    def timed(self, side: Side, func: Callable[..., Any], *args: Any) -> Outcome:
        """Run `func` for one side, charging its time and recording a limit hit."""
        start = time.perf_counter()
        outcome = self.runner.run(func, *args, fresh_output=True)
        side.seconds += time.perf_counter() - start
        if outcome.limit:
            side.status = f"killed: {outcome.limit}"
        return outcome

    def verdict(self, side: Side, func: Callable[..., Any], *args: Any, cells: int) -> Wire:
        """Evaluate one side on one transition (or one frame)."""
        if not side.active:
            return failed(_inactive_reason(side), cells)
        outcome = self.timed(side, func, *args)
        if outcome.limit:
            return failed(outcome.limit, cells)
        if outcome.error:
            return failed(outcome.error, cells)
        wire: Wire = outcome.value
        return wire

    def dynamics_pair(self, before: int, after: int, action: Any, history: Any, old_known: bool) -> list[Wire | None] | None:
        """Both verdicts for one transition on the dynamics surface (old is None when the parent knows it;
        None altogether when the companion was killed)."""
        companion = self.companion
        assert companion is not None and companion.functions is not None
        cells = self.cells(after)
        parsed, _ = self.parse(before)
        if parsed.limit:
            self.aborted = f"observable.py companion: {parsed.limit}"
            return None
        if parsed.error:
            wire = failed(f"observable.parse failed: {parsed.error}", cells)
            return [None if old_known else wire, wire]
        z = parsed.value
        old_side, new_side = self.sides
        render = companion.functions["render"]
        expected, rows = self.grids[after], self.rows(after)
        old_wire: Wire | None = None
        if not old_known:
            try:
                args = (clone(z), clone(history), clone(action))
            except (RecursionError, TypeError, ValueError) as exc:
                wire = failed(f"observable.parse returned an uncopyable state: {exc}", cells)
                return [wire, wire]
            old_wire = self.verdict(old_side, _dynamics_step, old_side.functions, render, *args, expected, rows, cells=cells)
        new_wire = self.verdict(new_side, _dynamics_step, new_side.functions, render, z, history, action, expected, rows, cells=cells)
        return [old_wire, new_wire]

    def frame_verdict(self, side: Side, index: int) -> Wire:
        """One side's round-trip verdict on one observed frame (cached per frame while the side is active)."""
        cached = side.cache.get(index)
        if cached is not None and side.active:
            return cached
        wire = self.verdict(side, _round_trip, side.functions, self.grids[index], self.rows(index), cells=self.cells(index))
        if side.active:
            side.cache[index] = wire
        return wire

    def observation_pair(self, before: int, after: int, old_known: bool) -> list[Wire | None]:
        """Both verdicts for one transition on the observation surface (old is None when the parent knows it)."""
        return [
            None if known else _combine(self.frame_verdict(side, before), self.frame_verdict(side, after))
            for side, known in zip(self.sides, (old_known, False), strict=True)
        ]


def _inactive_reason(side: Side) -> str:
    return "no previous version" if side.status == "absent" else f"skipped: {side.status}"


def _dynamics_step(
    functions: dict[str, Any], render: Any, z: Any, h: Any, a: Any, expected: Grid, rows: Callable[[], Any]
) -> Wire:
    history = functions.get("history")
    h1 = history(z, h, a) if history is not None else h
    return compare(render(functions["predict"](z, h1, a)), expected, rows, "after")


def _round_trip(functions: dict[str, Any], frame: Grid, rows: Callable[[], Any]) -> Wire:
    return compare(functions["render"](functions["parse"](frame)), frame, rows, "")


def _combine(before: Wire, after: Wire) -> Wire:
    right = bool(before[0]) and bool(after[0])
    first = next((w for w in (before, after) if not w[0]), None)
    diff = None
    if first is not None and first[2] is not None:
        diff = [*first[2][:4], "before" if first is before else "after"]
    errors = [f"{label}: {w[3]}" for label, w in (("before", before), ("after", after)) if w[3]]
    return [int(right), before[1] + after[1], diff, errors[0] if errors else ""]


def run_replay(runner: Runner, request: dict[str, Any], parses: ParseMemo | None = PARSES) -> dict[str, Any]:
    """Replay every transition of `request` for both versions; the reply the worker sends back (`parses`: the
    companion's parses remembered between replays, None to parse every frame afresh)."""
    start = time.perf_counter()
    replay = Replay(runner, request, parses)
    companion = replay.companion
    if companion is not None and not companion.active:
        return {"kind": "rejected", "reason": f"observable.py companion: {companion.status}"}
    records = []
    for step, before, after, action, history, old_known in request["transitions"]:
        if replay.surface == "dynamics":
            pair = replay.dynamics_pair(before, after, action, history, bool(old_known))
        else:
            pair = replay.observation_pair(before, after, bool(old_known))
        if pair is None:
            return {"kind": "killed", "reason": replay.aborted}
        records.append([step, pair[0], pair[1]])
    old, new = replay.sides
    return {
        "kind": "ok", "old_status": old.status, "new_status": new.status, "records": records,
        "worker_seconds": time.perf_counter() - start, "side_seconds": [old.seconds, new.seconds],
    }
