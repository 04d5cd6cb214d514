"""Procedural `flip` variants: board shapes, holes, joined tiles, the click pattern, colours and scrambles.

The click pattern (which cells around the clicked tile flip, and whether the clicked tile does) is
drawn once per variant. Each level is a board of growing size; later boards have holes and tiles
joined across two cells. The start is the all-lit board scrambled by random clicks, so every level
is solvable; the planner finds a fewest-clicks solution over GF(2). The `large` profile runs the same
builders on a ladder of bigger boards (6x6 to 9x10) needing many more clicks.
"""

from __future__ import annotations

import random
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from dreamteam.env.procgen.common import FamilySpec, VariantData, draw_palette, rng_for
from dreamteam.types import CLICK, Action

NAME = "flip"
LETTERS = string.ascii_lowercase + string.ascii_uppercase + string.digits + "".join(
    c for c in string.punctuation if c not in '."\\'
)
"""Tile group symbols: standard boards use letters only; large boards (up to 90 cells) need the rest."""
Cell = tuple[int, int]
ORTHOGONAL = [[1, 0], [-1, 0], [0, 1], [0, -1]]
DIAGONAL = [[1, 1], [-1, 1], [1, -1], [-1, -1]]
PATTERNS: dict[str, dict[str, Any]] = {
    "plus": {"offsets": ORTHOGONAL, "flip_self": True},
    "cross": {"offsets": DIAGONAL, "flip_self": True},
    "ring": {"offsets": ORTHOGONAL + DIAGONAL, "flip_self": True},
    "around": {"offsets": ORTHOGONAL, "flip_self": False},
    "row": {"offsets": [[1, 0], [-1, 0]], "flip_self": True},
    "column": {"offsets": [[0, 1], [0, -1]], "flip_self": True},
}
SIZES = ((3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (5, 6))
MAX_KERNEL = 10
"""Boards whose click system has a larger null space are redrawn (the exact search is 2^kernel)."""


@dataclass(frozen=True)
class Ladder:
    """Per level of a size profile: board size, fewest clicks needed, and from which level boards get holes."""

    sizes: tuple[tuple[int, int], ...]
    needed: tuple[int, ...]
    shaped_from: int
    extra: int
    """The scramble clicks at most this many more tiles than `needed`."""


STANDARD = Ladder(SIZES, tuple(1 + index * 4 // 5 for index in range(len(SIZES))), 2, 3)
LARGE = Ladder(((6, 6), (6, 8), (7, 8), (8, 8), (8, 9), (9, 10)), (6, 10, 14, 18, 22, 26), 0, 3)
"""Starts where standard ends (a 5x6 board needing 5-8 clicks) and grows to 9x10 boards needing 26-29."""


def generate(seed: int) -> VariantData:
    """A flip variant: 6 boards of growing size, a click pattern and a palette."""
    return VariantData(NAME, seed, variant_data(rng_for(NAME, seed), STANDARD))


def generate_large(seed: int) -> VariantData:
    """A large flip variant: 6 boards from 6x6 to 9x10 cells, needing 6-9 up to 26-29 clicks."""
    return VariantData(NAME, seed, variant_data(rng_for(NAME, seed, "large"), LARGE), "large")


def variant_data(rng: random.Random, ladder: Ladder) -> dict[str, Any]:
    """The `VARIANT` literal: a palette, a click pattern and one level per rung of the ladder."""
    palette = draw_palette(rng, "background", ["off", "on"])
    click = PATTERNS[rng.choice(sorted(PATTERNS))]
    levels = [level_data(rng, index, click, ladder) for index in range(len(ladder.sizes))]
    return {"palette": palette, "click": click, "levels": levels}


def level_data(
    rng: random.Random, index: int, click: Mapping[str, Any], ladder: Ladder = STANDARD
) -> dict[str, Any]:
    """One board (holes and joined tiles from `ladder.shaped_from` on) and a scramble needing `ladder.needed` clicks."""
    size, needed, shaped = ladder.sizes[index], ladder.needed[index], index >= ladder.shaped_from
    for _ in range(500):
        width, height = rng.choice((size, size[::-1]))
        layout = board(rng, width, height, holes=shaped, joined=shaped)
        letters, masks = toggle_matrix(layout, click)
        if len(kernel_of(masks)) > MAX_KERNEL:
            continue
        count = rng.randint(needed, needed + ladder.extra)
        scramble = "".join(sorted(rng.sample(letters, min(count, len(letters))), key=letters.index))
        unlit = start_unlit(letters, masks, scramble)
        if unlit and len(fewest_clicks(masks, unlit)) >= needed:
            return {"layout": layout, "scramble": scramble}
    raise ValueError(f"no flip board found for level {index}")


def board(rng: random.Random, width: int, height: int, holes: bool, joined: bool) -> list[str]:
    """A width x height layout: a letter per tile group, "." for holes, some tiles spanning two cells."""
    group = [[-1] * width for _ in range(height)]
    cells = [(x, y) for y in range(height) for x in range(width)]
    hole_cells = set(rng.sample(cells, rng.randint(1, max(1, len(cells) // 8)))) if holes else set()
    next_id = 0
    for x, y in cells:
        if (x, y) in hole_cells or group[y][x] >= 0:
            continue
        group[y][x] = next_id
        partners = [(x + 1, y), (x, y + 1)]
        rng.shuffle(partners)
        for px, py in partners:
            free = px < width and py < height and (px, py) not in hole_cells and group[py][px] < 0
            if joined and free and rng.random() < 0.3:
                group[py][px] = next_id
                break
        next_id += 1
    rename: dict[int, str] = {}
    return ["".join("." if g < 0 else rename.setdefault(g, LETTERS[len(rename)]) for g in row) for row in group]


def groups_of(layout: Sequence[str]) -> dict[str, list[Cell]]:
    """Cells (x, y) of each tile group, in reading order of first appearance."""
    out: dict[str, list[Cell]] = {}
    for y, row in enumerate(layout):
        for x, char in enumerate(row):
            if char != ".":
                out.setdefault(char, []).append((x, y))
    return out


def toggle_matrix(layout: Sequence[str], click: Mapping[str, Any]) -> tuple[str, list[int]]:
    """Group letters (reading order) and, per group, the bitmask of groups a click on it flips."""
    groups = groups_of(layout)
    letters = "".join(groups)
    offsets = [(int(dx), int(dy)) for dx, dy in click["offsets"]]
    masks = []
    for i, (char, cells) in enumerate(groups.items()):
        mask = 1 << i if click["flip_self"] else 0
        for (x, y), (dx, dy) in product(cells, offsets):
            nx, ny = x + dx, y + dy
            inside = 0 <= ny < len(layout) and 0 <= nx < len(layout[0])
            if inside and layout[ny][nx] not in (".", char):
                mask |= 1 << letters.index(layout[ny][nx])
        masks.append(mask)
    return letters, masks


def start_unlit(letters: str, masks: Sequence[int], scramble: str) -> int:
    """Bitmask of the groups that are off after the scramble clicks on the all-lit board."""
    unlit = 0
    for char in scramble:
        unlit ^= masks[letters.index(char)]
    return unlit


def _reduce(masks: Sequence[int]) -> tuple[list[tuple[int, int]], list[int]]:
    """Echelon rows (flip pattern, click set) with distinct leading bits, and a null-space basis."""
    rows: list[tuple[int, int]] = []
    kernel: list[int] = []
    for i, mask in enumerate(masks):
        pattern, clicks = mask, 1 << i
        for row_pattern, row_clicks in rows:
            if pattern ^ row_pattern < pattern:
                pattern, clicks = pattern ^ row_pattern, clicks ^ row_clicks
        if pattern:
            rows.append((pattern, clicks))
            rows.sort(reverse=True)
        else:
            kernel.append(clicks)
    return rows, kernel


def kernel_of(masks: Sequence[int]) -> list[int]:
    """A basis of the click sets that flip nothing."""
    return _reduce(masks)[1]


def fewest_clicks(masks: Sequence[int], unlit: int) -> list[int]:
    """Indices of the smallest set of groups whose clicks flip exactly the `unlit` groups."""
    rows, kernel = _reduce(masks)
    remaining, solution = unlit, 0
    for row_pattern, row_clicks in rows:
        if remaining ^ row_pattern < remaining:
            remaining, solution = remaining ^ row_pattern, solution ^ row_clicks
    if remaining:
        raise ValueError("this board cannot be lit")
    best = solution
    for choice in product((0, 1), repeat=len(kernel)):
        candidate = solution
        for use, vector in zip(choice, kernel, strict=True):
            candidate ^= vector if use else 0
        if candidate.bit_count() < best.bit_count():
            best = candidate
    return [i for i in range(len(masks)) if best >> i & 1]


def display_point(layout: Sequence[str], cell: Cell) -> tuple[int, int]:
    """Display (x, y) at the centre of a tile cell: the board grid is 2w+1 x 2h+1, scaled and letterboxed."""
    width, height = 2 * len(layout[0]) + 1, 2 * len(layout) + 1
    scale = min(64 // width, 64 // height)
    x_off, y_off = (64 - width * scale) // 2, (64 - height * scale) // 2
    return x_off + (2 * cell[0] + 1) * scale + scale // 2, y_off + (2 * cell[1] + 1) * scale + scale // 2


def plan(data: VariantData) -> list[list[Action]]:
    """A fewest-clicks solution per level: one click on the first cell of each chosen tile group."""
    click = data.variant["click"]
    solutions = []
    for level in data.variant["levels"]:
        layout = level["layout"]
        letters, masks = toggle_matrix(layout, click)
        cells = groups_of(layout)
        chosen = fewest_clicks(masks, start_unlit(letters, masks, level["scramble"]))
        solutions.append([Action(CLICK, *display_point(layout, cells[letters[i]][0])) for i in chosen])
    return solutions


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan, generate_large=generate_large)
