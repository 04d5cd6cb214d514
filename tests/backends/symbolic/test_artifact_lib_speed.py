"""The artifact helpers that read whole frames (downsample, background, components) work a row or a run at a
time instead of a cell at a time; they must give exactly what the cell-by-cell versions below give."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.backends.symbolic.common.artifact_lib import (
    lib_background,
    lib_components,
    lib_downsample,
    lib_whole_cells,
)
from dreamteam.backends.symbolic.common.embed import helper_source
from dreamteam.sandbox.execution import Runner
from dreamteam.sandbox.limits import Limits


def downsample_by_cell(rows: Any, geometry: Any) -> list[list[int]]:
    scale = geometry[0]
    size = lib_whole_cells(geometry, len(rows[0]), len(rows))
    return [
        [rows[y][x] for x in range(geometry[1], geometry[1] + size[0] * scale, scale)]
        for y in range(geometry[2], geometry[2] + size[1] * scale, scale)
    ]


def background_by_cell(grid: Any) -> int:
    counts = [0] * 16
    for row in grid:
        for value in row:
            counts[value] += 1
    return max(range(16), key=lambda c: (counts[c], -c))


def components_by_cell(grid: Any, background: int) -> list[dict[str, Any]]:
    height = len(grid)
    width = len(grid[0]) if height else 0
    seen = [[False] * width for _ in range(height)]
    objects: list[dict[str, Any]] = []
    for y in range(height):
        for x in range(width):
            if seen[y][x] or grid[y][x] == background:
                continue
            colour = grid[y][x]
            seen[y][x] = True
            stack, cells = [(x, y)], []
            while stack:
                cx, cy = stack.pop()
                cells.append((cy, cx))
                for nx, ny in ((cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)):
                    if 0 <= nx < width and 0 <= ny < height and not seen[ny][nx] and grid[ny][nx] == colour:
                        seen[ny][nx] = True
                        stack.append((nx, ny))
            ordered = [[cx, cy] for cy, cx in sorted(cells)]
            xs, ys = [c[0] for c in ordered], [c[1] for c in ordered]
            objects.append({"id": len(objects), "color": colour, "size": len(ordered),
                            "bbox": [min(xs), min(ys), max(xs), max(ys)], "cells": ordered})
    return objects


def grids(max_side: int = 12) -> st.SearchStrategy[list[list[int]]]:
    """Small grids of a few colours (snakes, rings and nested shapes come up often)."""
    return st.integers(1, max_side).flatmap(lambda w: st.lists(
        st.lists(st.sampled_from([0, 0, 3, 5, 9]), min_size=w, max_size=w), min_size=1, max_size=max_side))


@settings(max_examples=300, deadline=None)
@given(grids(), st.sampled_from([0, 3, 7]))
def test_components_by_runs_equal_components_by_cells(grid: list[list[int]], background: int) -> None:
    assert lib_components(grid, background) == components_by_cell(grid, background)


@settings(max_examples=200, deadline=None)
@given(grids())
def test_background_by_rows_equals_background_by_cells(grid: list[list[int]]) -> None:
    assert lib_background(grid) == background_by_cell(grid)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_downsample_by_slices_equals_downsample_by_cells(seed: int) -> None:
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(4, 40)), int(rng.integers(4, 40))
    rows = rng.integers(0, 16, size=(height, width)).tolist()
    scale = int(rng.integers(1, 5))
    geometry = [scale, int(rng.integers(0, 3)), int(rng.integers(0, 3))]
    if rng.random() < 0.5:
        geometry += [int(rng.integers(1, 9)), int(rng.integers(1, 9))]
    assert lib_downsample(rows, geometry) == downsample_by_cell(rows, geometry)
    as_bytes = [bytearray(row) for row in rows]  # a dynamics' canvas may hold byte rows
    assert lib_downsample(as_bytes, geometry) == downsample_by_cell(rows, geometry)


def test_the_helpers_copied_into_an_artifact_give_the_same_objects() -> None:
    """Under the sandbox worker's policy (the copies the artifacts run) on a 64x64 frame with a snake."""
    rng = np.random.default_rng(5)
    grid = rng.choice(np.array([0, 4, 4, 7]), size=(64, 64))
    grid[10, 3:60] = 9
    grid[10:50, 59] = 9
    grid[49, 20:60] = 9
    source = helper_source(["lib_components", "lib_background", "lib_downsample"], "obs_") + (
        "\n\ndef check(grid):\n"
        "    background = obs_background(grid)\n"
        "    return [background, obs_components(grid, background), obs_downsample(grid, [2, 1, 0])]\n")
    runner = Runner(Limits(time_s=5.0))
    loaded = runner.load("observation", source, "observable.py")
    assert loaded.namespace is not None, loaded.errors
    outcome = runner.run(loaded.namespace["check"], grid.tolist())
    assert outcome.ok, outcome.error
    rows = grid.tolist()
    background = background_by_cell(rows)
    assert outcome.value == [background, components_by_cell(rows, background), downsample_by_cell(rows, [2, 1, 0])]
