"""The artifact helpers that read or paint whole frames (downsample, background, components, leftover, paint
cells) work a row, a strip or a run at a time instead of a cell at a time; they must give exactly what the
cell-by-cell versions below give."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.backends.symbolic.common.artifact_lib import (
    lib_background,
    lib_components,
    lib_downsample,
    lib_leftover,
    lib_paint_cells,
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


def leftover_by_pixel(rows: Any, grid: Any, geometry: Any, background: int) -> list[Any]:
    width, height = len(rows[0]), len(rows)
    size = lib_whole_cells(geometry, width, height)
    scale = geometry[0]
    left = min(width, geometry[1])
    right = min(width, left + max(0, size[0]) * scale)
    top, bottom = geometry[2], geometry[2] + max(0, size[1]) * scale
    margins = list(range(0, left)) + list(range(right, width))
    counts, outside = [0] * 16, []
    for y in range(height):
        for x in range(width) if y < top or y >= bottom else margins:
            outside.append([x, y, rows[y][x]])
            counts[rows[y][x]] += 1
    fill = background
    for colour in range(16):
        if counts[colour] > counts[fill]:
            fill = colour
    return [fill, [cell for cell in outside if cell[2] != fill]]


def paint_cells_by_pixel(rows: Any, grid: Any, geometry: Any) -> None:
    scale, room = geometry[0], len(rows[0]) - geometry[1]
    for cy in range(len(grid)):
        cells = grid[cy]
        line = list(cells[:room]) if scale == 1 else [cells[x // scale] for x in range(min(room, len(cells) * scale))]
        top = geometry[2] + cy * scale
        for y in range(top, min(top + scale, len(rows))):
            rows[y][geometry[1] : geometry[1] + len(line)] = line


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


def frames(seed: int) -> tuple[list[list[int]], list[int], list[list[int]]]:
    """A display frame with a geometry whose whole cells may stop short of its edges, and a logical grid."""
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(4, 40)), int(rng.integers(4, 40))
    rows = rng.choice(np.array([0, 0, 0, 2, 9]), size=(height, width)).tolist()
    scale = int(rng.integers(1, 5))
    geometry = [scale, int(rng.integers(0, 4)), int(rng.integers(0, 4))]
    if rng.random() < 0.5:
        geometry += [int(rng.integers(1, 9)), int(rng.integers(1, 9))]
    columns, lines = lib_whole_cells(geometry, width, height)
    grid = rng.integers(0, 16, size=(max(0, lines), max(0, columns))).tolist()
    return rows, geometry, grid


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 2, 5]))
def test_leftover_by_strips_equals_leftover_by_pixels(seed: int, background: int) -> None:
    rows, geometry, grid = frames(seed)
    assert lib_leftover(rows, grid, geometry, background) == leftover_by_pixel(rows, grid, geometry, background)
    as_bytes = [bytearray(row) for row in rows]
    assert lib_leftover(as_bytes, grid, geometry, background) == leftover_by_pixel(rows, grid, geometry, background)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_painting_a_row_of_cells_at_once_equals_painting_pixel_by_pixel(seed: int) -> None:
    rows, geometry, grid = frames(seed)
    mine, theirs = [list(r) for r in rows], [list(r) for r in rows]
    lib_paint_cells(mine, grid, geometry)
    paint_cells_by_pixel(theirs, grid, geometry)
    assert mine == theirs


def test_the_helpers_copied_into_an_artifact_give_the_same_objects() -> None:
    """Under the sandbox worker's policy (the copies the artifacts run) on a 64x64 frame with a snake."""
    rng = np.random.default_rng(5)
    grid = rng.choice(np.array([0, 4, 4, 7]), size=(64, 64))
    grid[10, 3:60] = 9
    grid[10:50, 59] = 9
    grid[49, 20:60] = 9
    source = helper_source(["lib_components", "lib_background", "lib_downsample", "lib_leftover",
                            "lib_paint_cells"], "obs_") + (
        "\n\ndef check(grid):\n"
        "    background = obs_background(grid)\n"
        "    small = obs_downsample(grid, [3, 1, 2, 15, 16])\n"
        "    canvas = [[0] * 64 for y in range(64)]\n"
        "    obs_paint_cells(canvas, small, [3, 1, 2])\n"
        "    return [background, obs_components(grid, background), obs_downsample(grid, [2, 1, 0]),\n"
        "            obs_leftover(grid, small, [3, 1, 2, 15, 16], background), canvas]\n")
    runner = Runner(Limits(time_s=5.0))
    loaded = runner.load("observation", source, "observable.py")
    assert loaded.namespace is not None, loaded.errors
    outcome = runner.run(loaded.namespace["check"], grid.tolist())
    assert outcome.ok, outcome.error
    rows = grid.tolist()
    background = background_by_cell(rows)
    small = downsample_by_cell(rows, [3, 1, 2, 15, 16])
    canvas = [[0] * 64 for _ in range(64)]
    paint_cells_by_pixel(canvas, small, [3, 1, 2])
    assert outcome.value == [background, components_by_cell(rows, background), downsample_by_cell(rows, [2, 1, 0]),
                             leftover_by_pixel(rows, small, [3, 1, 2, 15, 16], background), canvas]
