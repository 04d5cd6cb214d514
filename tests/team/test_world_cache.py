"""The sandboxed world model answers a repeated question from its cache, and forgets on a new artifact."""

from __future__ import annotations

from typing import Any

import numpy as np

from dreamteam.team.sandboxed import SandboxWorldModel
from dreamteam.types import Action
from dreamteam.workspace import seed_path


class CountingSandbox:
    """The real sandbox, counting the requests that reach the worker."""

    def __init__(self) -> None:
        from dreamteam.sandbox import Sandbox

        self.inner = Sandbox()
        self.requests = 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name in ("predict_frame", "roundtrip", "send_batch"):
            def counted(*args: Any, **kwargs: Any) -> Any:
                self.requests += 1
                return attr(*args, **kwargs)
            return counted
        return attr


def _world() -> tuple[SandboxWorldModel, CountingSandbox]:
    box = CountingSandbox()
    world = SandboxWorldModel(box)  # type: ignore[arg-type]
    for surface, name in (("observation", "observable.py"), ("dynamics", "dynamics.py")):
        assert world.load(surface, (seed_path("default") / name).read_text()) is None
    return world, box


def test_repeated_predictions_and_roundtrips_reach_the_worker_once() -> None:
    world, box = _world()
    try:
        grid = np.zeros((64, 64), dtype=np.int8)
        grid[10:14, 10:14] = 3
        first = world.predict(grid, {"n": 1}, Action(1))
        second = world.predict(grid.copy(), {"n": 1}, Action(1))
        assert first.grid is not None and second.grid is not None
        assert np.array_equal(first.grid, second.grid)
        assert first.history == second.history and first.history is not second.history
        assert box.requests == 1
        world.predict(grid, {"n": 2}, Action(1))
        world.predict(grid, {"n": 1}, Action(2))
        assert box.requests == 3
        assert world.roundtrip_errors(grid) == world.roundtrip_errors(grid.copy())
        assert box.requests == 4
    finally:
        world.close()


def test_loading_an_artifact_clears_the_cache() -> None:
    world, box = _world()
    try:
        grid = np.ones((64, 64), dtype=np.int8)
        world.predict(grid, {}, Action(1))
        world.roundtrip_errors(grid)
        world.load("dynamics", (seed_path("default") / "dynamics.py").read_text())
        world.predict(grid, {}, Action(1))
        world.roundtrip_errors(grid)
        assert box.requests == 4
    finally:
        world.close()


def test_a_prepared_roundtrip_brings_the_next_prediction_in_the_same_request() -> None:
    world, box = _world()
    try:
        grid = np.zeros((64, 64), dtype=np.int8)
        grid[20:24, 8:12] = 5
        world.prepare(grid, then_predict=({"n": 1}, Action(3)))
        assert box.requests == 1
        assert world.roundtrip_errors(grid) == 0
        ready = world.predict(grid, {"n": 1}, Action(3))
        assert box.requests == 1, "the round trip and the prediction came with the prepared request"
        other = world.predict(grid, {"n": 1}, Action(4))
        assert box.requests == 2
        fresh, _ = _world()
        try:
            direct = fresh.predict(grid, {"n": 1}, Action(3))
        finally:
            fresh.close()
        assert ready.grid is not None and direct.grid is not None and other.grid is not None
        assert np.array_equal(ready.grid, direct.grid) and ready.history == direct.history
        world.prepare(grid, then_predict=({"n": 1}, Action(3)))
        assert box.requests == 2, "both answers were cached: nothing to ask"
    finally:
        world.close()


def test_other_requests_may_run_while_a_prepared_one_is_in_the_worker() -> None:
    world, box = _world()
    try:
        grid = np.zeros((64, 64), dtype=np.int8)
        grid[2:5, 2:5] = 7
        world.prepare(grid)
        moved = world.predict(grid, {}, Action(1))
        assert moved.grid is not None
        assert world.roundtrip_errors(grid) == 0
        assert box.requests == 2
    finally:
        world.close()


def test_answers_prepared_for_an_old_artifact_are_not_kept() -> None:
    world, box = _world()
    try:
        grid = np.zeros((64, 64), dtype=np.int8)
        world.prepare(grid, then_predict=({}, Action(1)))
        world.load("dynamics", (seed_path("default") / "dynamics.py").read_text())
        world.predict(grid, {}, Action(1))
        world.roundtrip_errors(grid)
        assert box.requests == 3, "the prepared answers were dropped with the old artifact"
    finally:
        world.close()
