"""Procedural `copy`: symmetric target pictures, scrambled canvases and click patterns, planned exactly.

A click adds the game's step to every canvas cell its pattern covers, modulo the level's cycle length, so
a level is a linear system over the integers modulo that length. The planner solves it (per cell for the
single-cell pattern, by Gaussian elimination modulo a prime otherwise) and picks the solution with the
fewest clicks among all solutions when the null space is small enough to enumerate. The `large` profile
keeps only levels whose null space is that small, so its baselines are always the fewest clicks.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dreamteam.env.procgen.common import (
    FamilySpec,
    VariantData,
    VariantError,
    as_written,
    draw_palette,
    rng_for,
)
from dreamteam.types import Action

NAME = "copy"
Offsets = tuple[tuple[int, int], ...]
PATTERNS: dict[str, Offsets] = {
    "single": ((0, 0),),
    "pair-right": ((0, 0), (1, 0)),
    "pair-down": ((0, 0), (0, 1)),
    "row": ((-1, 0), (0, 0), (1, 0)),
    "column": ((0, -1), (0, 0), (0, 1)),
    "plus": ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)),
    "x": ((0, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)),
    "block": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "ring": tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)),
}
# Per level: the click patterns it may use and the cycle lengths it may have (prime unless single-cell).
SCHEDULE: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = (
    (("single",), (2,)),
    (("single",), (2, 3, 4)),
    (("pair-right", "pair-down", "row", "column"), (3,)),
    (("plus", "x", "block"), (2, 3)),
    (("plus", "x", "block", "row", "column"), (3, 5)),
    (("plus", "x", "block"), (3, 5)),
)
SIDES = (3, 4, 4, 5, 6, 6)
# The large profile: every level a multi-cell pattern on a prime cycle, starting where standard ends.
LARGE_SCHEDULE: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = (
    (("plus", "x", "block"), (3, 5)),
    (("plus", "x", "block"), (3, 5)),
    (("plus", "x", "block", "row", "column"), (5,)),
    (("plus", "x", "block", "ring"), (3, 5)),
    (("plus", "x", "block", "ring"), (3, 5)),
    (("plus", "x", "ring"), (3, 5)),
)
LARGE_SIDES = (7, 8, 9, 10, 12, 13)
LARGEST_SIDE = 13  # 2 * 13 + 3 = 29 grid cells across: still 2 pixels per cell in the 64x64 frame
LARGE_CLICKS = (45, 55, 70, 85, 100, 120)  # expected scramble clicks per level
LAYOUTS = ("target-left", "canvas-left", "target-top", "canvas-top")
MAX_NULL_COMBINATIONS = 4096


@dataclass(frozen=True)
class CopyLevel:
    """A parsed level: target and canvas as palette indices, cycle length, click offsets."""

    target: tuple[tuple[int, ...], ...]
    canvas: tuple[tuple[int, ...], ...]
    colours: int
    pattern: Offsets

    @property
    def size(self) -> int:
        """Side length of the square target and canvas."""
        return len(self.target)


def parse_level(spec: Mapping[str, Any]) -> CopyLevel:
    """The level a `VARIANT["levels"]` entry describes."""
    return CopyLevel(
        target=tuple(tuple(int(ch) for ch in row) for row in spec["target"]),
        canvas=tuple(tuple(int(ch) for ch in row) for row in spec["canvas"]),
        colours=int(spec["colours"]),
        pattern=tuple((int(dx), int(dy)) for dx, dy in spec.get("pattern", PATTERNS["single"])),
    )


def covered(size: int, pattern: Offsets, col: int, row: int) -> list[tuple[int, int]]:
    """The canvas cells (col, row) a click at (col, row) changes."""
    cells = [(col + dx, row + dy) for dx, dy in pattern]
    return [(c, r) for c, r in cells if 0 <= c < size and 0 <= r < size]


def apply_clicks(level: CopyLevel, step: int, clicks: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The canvas after the given clicks, under the game's rules."""
    canvas = [list(row) for row in level.canvas]
    for col, row in clicks:
        for c, r in covered(level.size, level.pattern, col, row):
            canvas[r][c] = (canvas[r][c] + step) % level.colours
    return canvas


def solve_mod_prime(
    matrix: Sequence[Sequence[int]], rhs: Sequence[int], prime: int
) -> tuple[list[int], list[list[int]]] | None:
    """One solution of matrix @ x = rhs (mod prime) and a basis of the null space, or None if none."""
    aug = np.array([[*row, b] for row, b in zip(matrix, rhs, strict=True)], dtype=np.int64) % prime
    cols = len(matrix[0])
    pivots: list[int] = []
    for col in range(cols):
        r = len(pivots)
        below = np.flatnonzero(aug[r:, col])
        if below.size == 0:
            continue
        aug[[r, r + below[0]]] = aug[[r + below[0], r]]
        aug[r] = aug[r] * pow(int(aug[r, col]), -1, prime) % prime
        factors = aug[:, col].copy()
        factors[r] = 0
        aug = (aug - np.outer(factors, aug[r])) % prime
        pivots.append(col)
    if aug[len(pivots) :, cols].any():
        return None
    return _solution_and_null_space(aug.tolist(), pivots, cols, prime)


def _solution_and_null_space(
    reduced: list[list[int]], pivots: list[int], cols: int, prime: int
) -> tuple[list[int], list[list[int]]]:
    """Read one solution and a null-space basis off an augmented matrix in reduced row echelon form."""
    particular = [0] * cols
    for i, col in enumerate(pivots):
        particular[col] = reduced[i][cols]
    basis = []
    for free in (c for c in range(cols) if c not in pivots):
        vector = [0] * cols
        vector[free] = 1
        for i, col in enumerate(pivots):
            vector[col] = -reduced[i][free] % prime
        basis.append(vector)
    return particular, basis


def click_matrix(size: int, pattern: Offsets) -> list[list[int]]:
    """Which clicks (columns) change which cells (rows), both in reading order."""
    matrix = [[0] * size * size for _ in range(size * size)]
    for row in range(size):
        for col in range(size):
            for c, r in covered(size, pattern, col, row):
                matrix[r * size + c][row * size + col] = 1
    return matrix


@functools.cache
def null_dimension(size: int, pattern: Offsets, prime: int) -> int:
    """Dimension of the null space of a level's click system modulo a prime cycle length."""
    solved = solve_mod_prime(click_matrix(size, pattern), [0] * size * size, prime)
    return 0 if solved is None else len(solved[1])


def click_counts(level: CopyLevel, step: int) -> list[int]:
    """How often to click each cell (row-major) to turn the canvas into the target with fewest clicks."""
    n, k = level.size, level.colours
    need = [
        (level.target[r][c] - level.canvas[r][c]) * step % k for r in range(n) for c in range(n)
    ]  # step is +1 or -1, its own inverse
    if level.pattern == PATTERNS["single"]:
        return need
    solved = solve_mod_prime(click_matrix(n, level.pattern), need, k)
    if solved is None:
        raise VariantError(f"copy level cannot be solved: no click counts modulo {k} reach the target")
    particular, basis = solved
    if k ** len(basis) > MAX_NULL_COMBINATIONS:
        return particular
    weights = np.array(list(itertools.product(range(k), repeat=len(basis))), dtype=np.int64)
    vectors = np.array(basis, dtype=np.int64).reshape(len(basis), len(particular))
    candidates = (np.array(particular, dtype=np.int64) + weights @ vectors) % k
    best = int(np.argmin(candidates.sum(axis=1)))  # the first of the fewest, in the order of the weights
    return [int(v) for v in candidates[best]]


def _is_vertical(layout: str) -> bool:
    """Whether the panels are stacked top to bottom (the game module's rule)."""
    return layout in ("target-top", "canvas-top")


def board_size(size: int, layout: str) -> tuple[int, int]:
    """Logical grid (width, height) of a level, as the game module computes it."""
    return (size + 4, 2 * size + 3) if _is_vertical(layout) else (2 * size + 3, size + 4)


def canvas_origin(size: int, layout: str) -> tuple[int, int]:
    """Grid (x, y) of the canvas's top-left cell, as the game module computes it."""
    second = (1, size + 2) if _is_vertical(layout) else (size + 2, 1)
    return second if layout in ("target-left", "target-top") else (1, 1)


def click_point(size: int, layout: str, col: int, row: int) -> tuple[int, int]:
    """The 64x64 display point at the centre of canvas cell (col, row), using the camera's letterboxing."""
    width, height = board_size(size, layout)
    scale = min(64 // width, 64 // height)
    x_offset, y_offset = (64 - width * scale) // 2, (64 - height * scale) // 2
    ox, oy = canvas_origin(size, layout)
    return x_offset + (ox + col) * scale + scale // 2, y_offset + (oy + row) * scale + scale // 2


def ordered_clicks(level: CopyLevel, step: int) -> list[tuple[int, int]]:
    """Canvas cells to click in order, cut short if the canvas matches the target earlier."""
    counts = click_counts(level, step)
    n = level.size
    clicks = [(i % n, i // n) for i, count in enumerate(counts) for _ in range(count)]
    target = [list(row) for row in level.target]
    for used in range(1, len(clicks) + 1):
        if apply_clicks(level, step, clicks[:used]) == target:
            return clicks[:used]
    raise VariantError("copy: the planned clicks do not reproduce the target")


def _picture(rng: random.Random, size: int, colours: int) -> list[list[int]]:
    """A target picture mirrored left-right, and usually top-bottom too, using at least two colours."""
    half = (size + 1) // 2
    both = rng.random() < 0.6
    while True:
        block = [[rng.randrange(colours) for _ in range(half)] for _ in range(size)]
        picture = [
            [block[min(r, size - 1 - r) if both else r][min(c, size - 1 - c)] for c in range(size)]
            for r in range(size)
        ]
        if len({v for row in picture for v in row}) >= 2:
            return picture


def _rows(grid: Sequence[Sequence[int]]) -> tuple[str, ...]:
    """Digit rows of a grid of palette indices."""
    return tuple("".join(str(v) for v in row) for row in grid)


def level_sizes(
    rng: random.Random, count: int, sides: Sequence[int] = SIDES, largest: int = 7
) -> list[int]:
    """Side lengths of the levels: the schedule's, some one bigger, never shrinking."""
    return sorted(
        min(largest, sides[min(i, len(sides) - 1)] + int(i > 0 and rng.random() < 0.4)) for i in range(count)
    )


def generate_level(
    rng: random.Random,
    index: int,
    size: int,
    step: int,
    schedule: Sequence[tuple[tuple[str, ...], tuple[int, ...]]] = SCHEDULE,
    clicks: float | None = None,
) -> dict[str, Any]:
    """One level: cycle length and click pattern from the schedule; a symmetric target; a scrambled canvas.

    With `clicks`, the scramble density is set so that about that many clicks scramble the canvas.
    """
    patterns, cycle_lengths = schedule[min(index, len(schedule) - 1)]
    colours = min(rng.choice(cycle_lengths), size + 1)
    pattern = PATTERNS[rng.choice(patterns)]
    target = _picture(rng, size, colours)
    density = 0.35 + 0.05 * index if clicks is None else min(1.0, 2 * clicks / (size * size * colours))
    for _ in range(100):
        scramble = [
            (c, r)
            for r in range(size)
            for c in range(size)
            if rng.random() < density
            for _ in range(rng.randint(1, colours - 1))
        ]
        start = CopyLevel(_to_tuple(target), _to_tuple(target), colours, pattern)
        canvas = apply_clicks(start, -step, scramble)
        if canvas != target:
            return {"colours": colours, "target": _rows(target), "canvas": _rows(canvas), "pattern": pattern}
    raise VariantError(f"copy: could not scramble level {index}")


def _to_tuple(grid: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """An immutable copy of a grid."""
    return tuple(tuple(row) for row in grid)


def _look(rng: random.Random) -> dict[str, Any]:
    """A variant's palette, panel layout and cycle direction."""
    colours = draw_palette(rng, "background", [f"cycle{i}" for i in range(5)])
    palette = {"background": colours["background"], "cycle": tuple(colours[f"cycle{i}"] for i in range(5))}
    layout = rng.choice(LAYOUTS)
    return {"palette": palette, "layout": layout, "step": rng.choice((1, -1))}


def generate(seed: int) -> VariantData:
    """A copy variant: palette, panel layout, cycle direction and 5-6 levels of rising difficulty."""
    rng = rng_for(NAME, seed)
    look = _look(rng)
    sizes = level_sizes(rng, rng.choice((5, 6)))
    levels = tuple(generate_level(rng, i, size, look["step"]) for i, size in enumerate(sizes))
    return as_written(NAME, seed, {**look, "levels": levels})


def generate_large_level(rng: random.Random, index: int, size: int, step: int) -> dict[str, Any]:
    """A large level whose fewest-clicks solution the planner finds exactly (small enough null space)."""
    for _ in range(100):
        clicks = LARGE_CLICKS[min(index, len(LARGE_CLICKS) - 1)] * rng.uniform(0.9, 1.1)
        spec = generate_level(rng, index, size, step, LARGE_SCHEDULE, clicks)
        colours, pattern = int(spec["colours"]), tuple(spec["pattern"])
        if colours ** null_dimension(size, pattern, colours) <= MAX_NULL_COMBINATIONS:
            return spec
    raise VariantError(f"copy: no exactly plannable large level {index} of side {size}")


def generate_large(seed: int) -> VariantData:
    """A large copy variant: 5-6 levels on 7x7 to 13x13 canvases, scrambled by about 45 to 120 clicks."""
    rng = rng_for(NAME, seed, "large")
    look = _look(rng)
    sizes = level_sizes(rng, rng.choice((5, 6)), LARGE_SIDES, LARGEST_SIDE)
    levels = tuple(generate_large_level(rng, i, size, look["step"]) for i, size in enumerate(sizes))
    return as_written(NAME, seed, {**look, "levels": levels}, "large")


def plan(data: VariantData) -> list[list[Action]]:
    """The fewest clicks per level (exact unless a level's null space is too big to enumerate)."""
    layout, step = str(data.variant["layout"]), int(data.variant["step"])
    solutions: list[list[Action]] = []
    for spec in data.variant["levels"]:
        level = parse_level(spec)
        points = [click_point(level.size, layout, c, r) for c, r in ordered_clicks(level, step)]
        solutions.append([Action(6, x, y) for x, y in points])
    return solutions


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan, generate_large=generate_large)
