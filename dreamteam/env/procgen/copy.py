"""Procedural `copy`: symmetric target pictures, scrambled canvases and click patterns, planned exactly.

A click adds the game's step to every canvas cell its pattern covers, modulo the level's cycle length, so
a level is a linear system over the integers modulo that length. The planner solves it (per cell for the
single-cell pattern, by Gaussian elimination modulo a prime otherwise) and picks the solution with the
fewest clicks among all solutions when the null space is small enough to enumerate.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
    aug = [[v % prime for v in row] + [b % prime] for row, b in zip(matrix, rhs, strict=True)]
    cols = len(matrix[0])
    pivots: list[int] = []
    for col in range(cols):
        r = len(pivots)
        pivot = next((i for i in range(r, len(aug)) if aug[i][col]), None)
        if pivot is None:
            continue
        aug[r], aug[pivot] = aug[pivot], aug[r]
        inverse = pow(aug[r][col], -1, prime)
        aug[r] = [v * inverse % prime for v in aug[r]]
        for i, other in enumerate(aug):
            if i != r and other[col]:
                factor = other[col]
                aug[i] = [(a - factor * b) % prime for a, b in zip(other, aug[r], strict=True)]
        pivots.append(col)
    if any(row[cols] for row in aug[len(pivots) :]):
        return None
    return _solution_and_null_space(aug, pivots, cols, prime)


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


def click_counts(level: CopyLevel, step: int) -> list[int]:
    """How often to click each cell (row-major) to turn the canvas into the target with fewest clicks."""
    n, k = level.size, level.colours
    need = [
        (level.target[r][c] - level.canvas[r][c]) * step % k for r in range(n) for c in range(n)
    ]  # step is +1 or -1, its own inverse
    if level.pattern == PATTERNS["single"]:
        return need
    cells = [(c, r) for r in range(n) for c in range(n)]
    matrix = [[int(cell in covered(n, level.pattern, *click)) for click in cells] for cell in cells]
    solved = solve_mod_prime(matrix, need, k)
    if solved is None:
        raise VariantError(f"copy level cannot be solved: no click counts modulo {k} reach the target")
    particular, basis = solved
    if k ** len(basis) > MAX_NULL_COMBINATIONS:
        return particular
    candidates = (
        [
            (p + sum(w * v[i] for w, v in zip(weights, basis, strict=True))) % k
            for i, p in enumerate(particular)
        ]
        for weights in itertools.product(range(k), repeat=len(basis))
    )
    return min(candidates, key=sum)


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


def level_sizes(rng: random.Random, count: int) -> list[int]:
    """Side lengths of the levels: the schedule's, some one bigger, never shrinking."""
    return sorted(
        min(7, SIDES[min(i, len(SIDES) - 1)] + int(i > 0 and rng.random() < 0.4)) for i in range(count)
    )


def generate_level(rng: random.Random, index: int, size: int, step: int) -> dict[str, Any]:
    """One level: cycle length and click pattern from the schedule; a symmetric target; a scrambled canvas."""
    patterns, cycle_lengths = SCHEDULE[min(index, len(SCHEDULE) - 1)]
    colours = min(rng.choice(cycle_lengths), size + 1)
    pattern = PATTERNS[rng.choice(patterns)]
    target = _picture(rng, size, colours)
    density = 0.35 + 0.05 * index
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


def generate(seed: int) -> VariantData:
    """A copy variant: palette, panel layout, cycle direction and 5-6 levels of rising difficulty."""
    rng = rng_for(NAME, seed)
    colours = draw_palette(rng, "background", [f"cycle{i}" for i in range(5)])
    palette = {"background": colours["background"], "cycle": tuple(colours[f"cycle{i}"] for i in range(5))}
    layout = rng.choice(LAYOUTS)
    step = rng.choice((1, -1))
    sizes = level_sizes(rng, rng.choice((5, 6)))
    levels = tuple(generate_level(rng, i, size, step) for i, size in enumerate(sizes))
    return as_written(NAME, seed, {"palette": palette, "layout": layout, "step": step, "levels": levels})


def plan(data: VariantData) -> list[list[Action]]:
    """The fewest clicks per level (exact unless a level's null space is too big to enumerate)."""
    layout, step = str(data.variant["layout"]), int(data.variant["step"])
    solutions: list[list[Action]] = []
    for spec in data.variant["levels"]:
        level = parse_level(spec)
        points = [click_point(level.size, layout, c, r) for c, r in ordered_clicks(level, step)]
        solutions.append([Action(6, x, y) for x, y in points])
    return solutions


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan)
