"""Roll the team's own world model forward, for search.

Two adapters over the artifacts the inductive explorer receives as source text (loaded in-process through the
sandbox's guarded route, see `artifacts.py`; every adapter method that runs artifact code runs it, and reads
what it returned, inside `GuardedModule.run`):
- `LogicalRollout` for dynamics written by the symbolic simulator: it calls their `dyn_step` directly on
  the logical grid (no parse/render per step), which is what makes hundreds of rollout steps cheap.
- `GenericRollout` for any other dynamics: z = parse(frame), then predict(z, history(z, h, a), a), with
  states compared by their rendered frame (the display grid is the "logical" grid, scale 1).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from dreamteam.backends.symbolic.common.artifact_dyn import lib_changes, lib_unhex
from dreamteam.backends.symbolic.common.artifacts import ArtifactCache, ArtifactLoadError
from dreamteam.backends.symbolic.common.frames import Array
from dreamteam.sandbox.inprocess import ArtifactFault, GuardedModule

Action = dict[str, Any]


def guarded_call(module: GuardedModule | None, func: Callable[..., Any], *args: Any, strict: bool = True) -> Any:
    """`module.run(func, *args)` (a plain call for harness-written test doubles, module None).

    `strict`: an artifact that raises is a fault too (poisoned and journaled, so the harness falls it back: a
    rollout cannot tell a wrong prediction from a crash)."""
    if module is None:
        return func(*args)
    try:
        return module.run(func, *args)
    except ArtifactFault:
        raise
    except Exception as exc:
        if not strict:
            raise
        module.poison(f"raised {type(exc).__name__}: {str(exc)[:200]} in a rollout")
        raise ArtifactFault(module.filename, module.fault) from None


class Rollout(Protocol):
    """A world model that can be stepped from a frame."""

    geometry: tuple[int, ...]

    def start(self, frame: Array, history: Mapping[str, Any] | None = None) -> Any:
        """The model's state for a display frame and the history before it (None when it cannot represent it)."""

    def step(self, state: Any, action: Action) -> tuple[Any, list[str]] | None:
        """The predicted next state and events, or None when the model cannot predict it."""

    def key(self, state: Any) -> Hashable:
        """A hashable identity of a state (for duplicate detection)."""

    def grid(self, state: Any) -> Array:
        """The state's grid (logical cells for symbolic dynamics, display pixels otherwise)."""


STEP_MEMO_CELLS = 4_000_000
"""Bound on the grid cells the step memo keeps (states are tuples of rows)."""


class LogicalRollout:
    """Steps a symbolic dynamics module's `dyn_step` on logical grids.

    `dyn_step` is a pure function of (grid, action, geometry), so its results are remembered: searches from
    neighbouring frames on later steps expand mostly the same states.
    """

    def __init__(self, namespace: Mapping[str, Any], module: GuardedModule | None = None) -> None:
        self.ns = namespace
        self.module = module
        self.geometry: tuple[int, ...] = (1, 0, 0)
        self.memo: dict[Hashable, tuple[Any, tuple[str, ...]] | None] = {}
        self.counters = [tuple(int(v) for v in c) for c in namespace.get("dyn_COUNTERS", []) if len(c) == 6]
        self._blanks = [(c[:4], _blank_table(c[4], c[5])) for c in self.counters]
        """Each counter's box with the bytes.translate table that blanks its two colours."""
        self.patrols = {int(p["colour"]) for p in namespace.get("dyn_PATROLS", []) if isinstance(p, Mapping)}
        """Patrol colours: with patrols a state is (grid, changes), since a patroller's next cell depends on
        where it came from; without, a state is the grid alone."""
        self.movers = {int(c) for c in namespace.get("dyn_MOVER_COLOURS", []) if isinstance(c, int)}
        """Colours the dynamics moves or pushes (the movers the world model knows, however long ago seen)."""
        self.tints = _tint_triples(namespace.get("dyn_TINTS"))
        """(colour, under, shown) for every tint the dynamics holds (a block that looks different on a target)."""

    def start(self, frame: Array, history: Mapping[str, Any] | None = None) -> Any:
        """Decide the geometry with the module's own hints and downsample (with patrols, also the changes
        since the previous frame, from the history's "last" grid)."""
        return guarded_call(self.module, self._start, frame, history)

    def _start(self, frame: Array, history: Mapping[str, Any] | None) -> Any:
        rows = frame.tolist()
        geometry = self.ns["dyn_geometry"](rows, self.ns["dyn_SCALE_HINTS"])
        self.geometry = tuple(int(v) for v in geometry)
        grid = tuple(tuple(row) for row in self.ns["dyn_downsample"](rows, geometry))
        if not self.patrols:
            return grid
        changes = lib_changes((history or {}).get("last"), [list(row) for row in grid])
        return grid, self._moved(changes)

    def _moved(self, changes: Any) -> tuple[tuple[int, int, int], ...]:
        """The changes that tell patrols where they came from (cells that held a patrol colour)."""
        return tuple((int(c[0]), int(c[1]), int(c[2])) for c in changes if int(c[2]) in self.patrols)

    def _grid_of(self, state: Any) -> Any:
        return state[0] if self.patrols else state

    def step(self, state: Any, action: Action) -> tuple[Any, list[str]] | None:
        """One `dyn_step`; a whole-scene replacement counts as unpredictable."""
        try:
            key: Hashable = (state, self.geometry, tuple(sorted(action.items())))
            hash(key)
        except TypeError:
            key = None
        if key is None:
            found = guarded_call(self.module, self._step, state, action)
        elif key in self.memo:
            found = self.memo[key]
        else:
            found = guarded_call(self.module, self._step, state, action)
            grid = self._grid_of(state)
            if len(self.memo) * max(1, len(grid) * len(grid[0] if grid else ())) >= STEP_MEMO_CELLS:
                self.memo.clear()
            self.memo[key] = found
        return None if found is None else (found[0], list(found[1]))

    def _step(self, state: Any, action: Action) -> tuple[Any, tuple[str, ...]] | None:
        grid = self._grid_of(state)
        h = {"changes": [list(c) for c in state[1]]} if self.patrols else {}
        result = self.ns["dyn_step"](list(map(list, grid)), h, dict(action), list(self.geometry))
        if "grid" not in result:
            return self._reset(grid, result) if action.get("action") == "RESET" else None
        following = tuple(map(tuple, result["grid"]))
        events = tuple(str(e) for e in result.get("events", []))
        if not self.patrols:
            return following, events
        changes = _changes(grid, following)
        return (following, self._moved(changes)), events

    def _reset(self, grid: Any, result: Mapping[str, Any]) -> tuple[Any, tuple[str, ...]] | None:
        """A RESET's predicted level start as the next state, when it has this state's size and geometry."""
        scene = result.get("scene")
        if not isinstance(scene, Mapping) or [int(v) for v in scene.get("geometry", [])] != list(self.geometry):
            return None
        following = tuple(tuple(row) for row in lib_unhex(scene["grid"]))
        if len(following) != len(grid) or (following and len(following[0]) != len(grid[0])):
            return None
        return (following, ()) if self.patrols else following, ()

    def level_start(self, state: Any) -> Array | None:
        """The logical grid the dynamics predicts a RESET would show (its remembered level start), when it
        has the state's size and geometry: it tells what lies under the movers' current cells."""
        state = self._grid_of(state)
        try:
            grid = guarded_call(self.module, self._level_start, state, strict=False)
        except Exception:  # noqa: BLE001 - artifact code: any failure means "no level start known"
            return None
        return grid if grid is not None and grid.shape == (len(state), len(state[0]) if state else 0) else None

    def _level_start(self, state: Any) -> Array | None:
        result = self.ns["dyn_step"]([list(row) for row in state], {}, {"action": "RESET"}, list(self.geometry))
        scene = result.get("scene") if isinstance(result, dict) else None
        if not isinstance(scene, dict) or [int(v) for v in scene.get("geometry", [])] != list(self.geometry):
            return None
        return np.array(lib_unhex(scene["grid"]), dtype=np.int8)

    def key(self, state: Any) -> Hashable:
        """The grid with counter cells blanked: states that differ only in a status bar count as one.

        A counter (dyn_COUNTERS: box, source colour, target colour) only turns source cells into target
        cells, so both colours are blanked inside its box; every other colour still tells states apart.
        """
        if self.patrols:
            return self._grid_key(state[0]), state[1]
        return self._grid_key(state)

    def _grid_key(self, state: Any) -> Hashable:
        if not self.counters:
            key: Hashable = state
            return key
        # Rows as bytes and the counter colours blanked with bytes.translate: both run in C, and a key is
        # taken for every predicted step (a per-cell Python loop cost ~1 ms on a 31x33 grid).
        try:
            rows = [bytes(row) for row in state]
        except (TypeError, ValueError):  # a cell outside 0-255: key the grid as it is
            key = state
            return key
        for (x0, y0, x1, y1), blank in self._blanks:
            for y in range(max(0, y0), min(len(rows), y1 + 1)):
                row = rows[y]
                left, right = max(0, x0), min(len(row), x1 + 1)
                if left < right:
                    rows[y] = row[:left] + row[left:right].translate(blank) + row[right:]
        return tuple(rows)

    def grid(self, state: Any) -> Array:
        """The logical grid as an array."""
        rows = self._grid_of(state)
        try:  # through bytes: half the time of converting nested tuples, on every state a search reaches
            return np.frombuffer(b"".join(map(bytes, rows)), dtype=np.int8).reshape(len(rows), -1).copy()
        except (TypeError, ValueError):
            return np.asarray(rows, dtype=np.int8)


def _blank_table(source: int, target: int) -> bytes:
    """A bytes.translate table that turns `source` and `target` into 255 and keeps every other byte."""
    table = bytearray(range(256))
    table[source % 256] = table[target % 256] = 255
    return bytes(table)


def _tint_triples(table: Any) -> tuple[tuple[int, int, int], ...]:
    """dyn_TINTS ({colour: {under: shown}}) as triples; anything malformed reads as no tints."""
    if not isinstance(table, Mapping):
        return ()
    out = []
    for colour, row in table.items():
        if isinstance(row, Mapping):
            out += [(int(colour), int(under), int(shown)) for under, shown in row.items()
                    if isinstance(under, int) and isinstance(shown, int)]
    return tuple(out)


class GenericRollout:
    """Steps predict/history with the observable's parse/render (any artifact format)."""

    def __init__(self, dynamics: Mapping[str, Any], observable: Mapping[str, Any],
                 modules: tuple[GuardedModule, GuardedModule] | None = None) -> None:
        self.dyn = dynamics
        self.obs = observable
        self.dyn_module: GuardedModule | None = modules[0] if modules else None
        self.obs_module: GuardedModule | None = modules[1] if modules else None
        self.geometry: tuple[int, ...] = (1, 0, 0)

    def start(self, frame: Array, history: Mapping[str, Any] | None = None) -> Any:
        """z = parse(frame) with the given history (empty when none)."""
        return (guarded_call(self.obs_module, self.obs["parse"], frame.tolist()), dict(history or {}))

    def step(self, state: Any, action: Action) -> tuple[Any, list[str]] | None:
        """predict(z, history(z, h, a), a)."""
        return guarded_call(self.dyn_module, self._step, state, action)  # type: ignore[no-any-return]

    def _step(self, state: Any, action: Action) -> tuple[Any, list[str]] | None:
        z, h = state
        history = self.dyn.get("history")
        h1 = history(z, h, dict(action)) if callable(history) else h
        z1 = self.dyn["predict"](z, h1, dict(action))
        events = z1.get("events", []) if isinstance(z1, dict) else []
        return (z1, h1), [str(e) for e in events] if isinstance(events, list) else []

    def key(self, state: Any) -> Hashable:
        """The rendered frame as bytes."""
        return self.grid(state).tobytes()

    def grid(self, state: Any) -> Array:
        """The rendered display frame."""
        return guarded_call(self.obs_module, self._grid, state)  # type: ignore[no-any-return]

    def _grid(self, state: Any) -> Array:
        return np.asarray(self.obs["render"](state[0]), dtype=np.int8)


def rollout_for(dynamics: str, observable: str, cache: ArtifactCache) -> LogicalRollout | GenericRollout | None:
    """The fastest adapter the given sources allow (None when the dynamics cannot be loaded)."""
    try:
        dyn = cache.module(dynamics, "dynamics") if dynamics.strip() else None
        if dyn is None or "predict" not in dyn.namespace and "dyn_step" not in dyn.namespace:
            return None
        if all(name in dyn.namespace for name in ("dyn_step", "dyn_geometry", "dyn_downsample", "dyn_SCALE_HINTS")):
            return guarded_call(dyn, LogicalRollout, dyn.namespace, dyn)  # type: ignore[no-any-return]
        obs = cache.module(observable, "observable") if observable.strip() else None
    except (ArtifactLoadError, ArtifactFault):
        return None
    if obs is None or "parse" not in obs.namespace or "render" not in obs.namespace:
        return None
    return GenericRollout(dyn.namespace, obs.namespace, (dyn, obs))


def click_action(rollout: Rollout, cx: int, cy: int) -> Action:
    """A click on the centre of logical cell (cx, cy)."""
    scale, ox, oy = rollout.geometry[:3]
    return {"action": "ACTION6", "x": min(63, ox + cx * scale + scale // 2), "y": min(63, oy + cy * scale + scale // 2)}


def _changes(before: Sequence[Sequence[int]], after: Sequence[Sequence[int]], limit: int = 64) -> list[list[int]]:
    """`lib_changes(lib_hex(before), after)` on two grids of rows, without the round trip through hex digits
    (unchanged rows compare as tuples): [[x, y, colour before]] per changed cell, [] when the sizes differ or
    more than `limit` cells changed."""
    if len(before) != len(after) or not after or len(before[0]) != len(after[0]):
        return []
    out = []
    for y, (old, new) in enumerate(zip(before, after, strict=True)):
        if old != new:
            out += [[x, y, int(a)] for x, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    return out if len(out) <= limit else []
