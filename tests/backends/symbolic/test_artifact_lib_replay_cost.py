"""Session 26 (cheaper replays): the artifact helpers count each hint's stray lines once, find boundaries by
zip, convert rows with map and skip count calls for one-colour rows and strips. They must give exactly what
the versions before them gave; those versions are kept here as the reference."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.backends.symbolic.common.artifact_lib import (
    lib_background,
    lib_boundaries,
    lib_components,
    lib_detect_scale,
    lib_fits,
    lib_geometry,
    lib_leftover,
    lib_rows,
    lib_stray_lines,
    lib_whole_cells,
)
from dreamteam.backends.symbolic.common.embed import helper_source
from dreamteam.sandbox.execution import Runner
from dreamteam.sandbox.limits import Limits


def old_rows(frame: Any) -> list[list[int]]:
    return [[int(v) for v in row] for row in frame]


def old_boundaries(rows: Any) -> list[list[int]]:
    height = len(rows)
    width = len(rows[0])
    ys = [y for y in range(1, height) if rows[y] != rows[y - 1]]
    columns = list(zip(*rows, strict=True))
    xs = [x for x in range(1, width) if columns[x] != columns[x - 1]]
    return [ys, xs]


def old_fits(rows: Any, geometry: Any, stray_lines: int = 0) -> bool:
    scale = geometry[0]
    width = len(rows[0])
    height = len(rows)
    size = lib_whole_cells(geometry, width, height)
    if scale < 1 or size[0] < 1 or size[1] < 1:
        return False
    left = geometry[1]
    top = geometry[2]
    box = [row[left : left + size[0] * scale] for row in rows[top : top + size[1] * scale]]
    bounds = old_boundaries(box)
    stray = len([y for y in bounds[0] if y % scale]) + len([x for x in bounds[1] if x % scale])
    return stray <= stray_lines


def old_geometry(rows: Any, hints: Any) -> list[int]:
    for stray_lines in (0, 4):
        for hint in hints:
            if old_fits(rows, hint, stray_lines):
                return [value for value in hint]
    return lib_detect_scale(old_boundaries(rows), len(rows[0]), len(rows))


def old_background(grid: Any) -> int:
    counts = [0] * 16
    for row in grid:
        for value in set(row):
            counts[value] = counts[value] + row.count(value)
    best = 0
    for colour in range(16):
        if counts[colour] > counts[best]:
            best = colour
    return best


def old_leftover(rows: Any, grid: Any, geometry: Any, background: int) -> list[Any]:
    width = len(rows[0])
    height = len(rows)
    size = lib_whole_cells(geometry, width, height)
    scale = geometry[0]
    left = min(width, geometry[1])
    right = min(width, left + max(0, size[0]) * scale)
    top = geometry[2]
    bottom = top + max(0, size[1]) * scale
    strips: list[list[Any]] = []
    for y in range(height):
        row = rows[y]
        if y < top or y >= bottom:
            strips.append([0, y, row[0:width]])
        else:
            strips.append([0, y, row[0:left]])
            strips.append([right, y, row[right:width]])
    counts = [0] * 16
    for strip in strips:
        values = strip[2]
        for colour in set(values):
            counts[colour] = counts[colour] + values.count(colour)
    fill = background
    for colour in range(16):
        if counts[colour] > counts[fill]:
            fill = colour
    residual: list[list[int]] = []
    for strip in strips:
        x = strip[0]
        y = strip[1]
        for value in strip[2]:
            if value != fill:
                residual.append([x, y, value])
            x = x + 1
    return [fill, residual]


def framed(seed: int) -> tuple[list[list[int]], list[list[int]]]:
    """A frame drawn as an upscaled grid in a margin (sometimes with stray pixels, a HUD row, a one-colour
    margin or box), and hints: its own geometry, near misses and nonsense."""
    rng = np.random.default_rng(seed)
    scale = int(rng.integers(1, 7))
    ox, oy = int(rng.integers(0, 4)), int(rng.integers(0, 4))
    nx, ny = int(rng.integers(1, 12)), int(rng.integers(1, 12))
    colours = np.array([0, 3, 5, 9, 12])[: int(rng.integers(1, 6))]
    cells = rng.choice(colours, size=(ny, nx))
    height = oy + ny * scale + int(rng.integers(0, 4))
    width = ox + nx * scale + int(rng.integers(0, 4))
    frame = np.full((height, width), int(rng.choice([0, 5, 7])), dtype=np.int64)
    if rng.random() < 0.3:
        frame[0, :] = rng.integers(0, 16, size=width)  # a HUD line in the margin
    frame[oy : oy + ny * scale, ox : ox + nx * scale] = np.repeat(np.repeat(cells, scale, 0), scale, 1)
    for _ in range(int(rng.integers(0, 8)) if rng.random() < 0.5 else 0):
        frame[int(rng.integers(0, height)), int(rng.integers(0, width))] = int(rng.integers(0, 16))
    hints = [[scale, ox, oy], [scale + 1, ox, oy], [max(1, scale - 1), 0, 0], [scale, ox + 1, oy],
             [scale, ox, oy, nx, ny], [2, 1, 1], [width + 1, 0, 0]]
    order = rng.permutation(len(hints))[: int(rng.integers(0, len(hints) + 1))]
    return frame.tolist(), [hints[i] for i in order]


@settings(max_examples=600, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_geometry_with_stray_lines_counted_once_equals_the_old_formula(seed: int) -> None:
    rows, hints = framed(seed)
    assert lib_rows(rows) == old_rows(rows)
    assert lib_boundaries(rows) == old_boundaries(rows)
    assert lib_geometry(rows, hints) == old_geometry(rows, hints)
    for hint in hints:
        stray = lib_stray_lines(rows, hint)
        for allowance in range(6):
            assert lib_fits(rows, hint, allowance) == old_fits(rows, hint, allowance)
            assert (0 <= stray <= allowance) == old_fits(rows, hint, allowance)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 5, 7]))
def test_leftover_and_background_without_count_calls_equal_the_old_formula(seed: int, background: int) -> None:
    rows, hints = framed(seed)
    geometry = lib_geometry(rows, hints)
    grid = [list(row[geometry[1] : geometry[1] + lib_whole_cells(geometry, len(rows[0]), len(rows))[0] * geometry[0]
                 : geometry[0]]) for row in rows[geometry[2] :: geometry[0]]]
    assert lib_background(rows) == old_background(rows)
    assert lib_background(grid) == old_background(grid)
    assert lib_leftover(rows, grid, geometry, background) == old_leftover(rows, grid, geometry, background)
    tuples = [tuple(row) for row in rows]  # a Grid's rows are tuples, a canvas's bytearrays
    assert lib_leftover(tuples, grid, geometry, background) == old_leftover(rows, grid, geometry, background)
    as_bytes = [bytearray(row) for row in rows]
    assert lib_leftover(as_bytes, grid, geometry, background) == old_leftover(rows, grid, geometry, background)
    assert lib_boundaries(tuples) == old_boundaries(rows)


def test_the_copied_helpers_give_the_old_geometry_and_parse_in_the_sandbox() -> None:
    """Under the sandbox worker's policy (the copies the artifacts run), on frames like the bundled games'."""
    source = helper_source(["lib_geometry", "lib_rows", "lib_leftover", "lib_background", "lib_components"],
                           "dyn_") + (
        "\n\ndef check(frame, hints):\n"
        "    rows = dyn_rows(frame)\n"
        "    geometry = dyn_geometry(rows, hints)\n"
        "    background = dyn_background(rows)\n"
        "    return [geometry, dyn_boundaries(rows), background, dyn_components(rows, background),\n"
        "            dyn_leftover(rows, rows, geometry, background)]\n")
    runner = Runner(Limits(time_s=10.0))
    loaded = runner.load("dynamics", source, "dynamics.py")
    assert loaded.namespace is not None, loaded.errors
    for seed in range(40):
        rows, hints = framed(seed)
        outcome = runner.run(loaded.namespace["check"], rows, hints)
        assert outcome.ok, outcome.error
        geometry = old_geometry(rows, hints)
        background = old_background(rows)
        assert outcome.value == [geometry, old_boundaries(rows), background, lib_components(rows, background),
                                 old_leftover(rows, rows, geometry, background)]
