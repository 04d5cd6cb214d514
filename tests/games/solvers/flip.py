"""Reference solver for `flip`: a fewest-clicks solution of the toggle system over GF(2)."""

from __future__ import annotations

from itertools import product
from typing import Any

Step = tuple[int, int | None, int | None]
Cell = tuple[int, int]


def groups_of(layout: list[str]) -> dict[str, list[Cell]]:
    """Cells (x, y) of each tile group (same letter), in reading order of first appearance."""
    out: dict[str, list[Cell]] = {}
    for y, row in enumerate(layout):
        for x, char in enumerate(row):
            if char != ".":
                out.setdefault(char, []).append((x, y))
    return out


def toggle_matrix(layout: list[str]) -> tuple[list[str], list[int]]:
    """Group letters and, per group, a bitmask of the groups a click on it flips."""
    letters = list(groups_of(layout))
    index = {char: i for i, char in enumerate(letters)}
    masks = []
    for char, cells in groups_of(layout).items():
        mask = 1 << index[char]
        for x, y in cells:
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= ny < len(layout) and 0 <= nx < len(layout[ny]) and layout[ny][nx] != ".":
                    mask |= 1 << index[layout[ny][nx]]
        masks.append(mask)
    return letters, masks


def solve_gf2(masks: list[int], target: int) -> tuple[int, list[int]]:
    """A set of clicks (bitmask) whose flips XOR to `target`, and a basis of click sets that flip nothing."""
    rows: list[tuple[int, int]] = []  # (flip pattern, click set), reduced to distinct leading bits
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
    remaining, solution = target, 0
    for row_pattern, row_clicks in rows:
        if remaining ^ row_pattern < remaining:
            remaining, solution = remaining ^ row_pattern, solution ^ row_clicks
    if remaining:
        raise ValueError("this board cannot be lit")
    return solution, kernel


def fewest_clicks(layout: list[str], lit: dict[str, bool]) -> list[str]:
    """Letters of the smallest set of groups whose clicks light every tile."""
    letters, masks = toggle_matrix(layout)
    target = sum(1 << i for i, char in enumerate(letters) if not lit[char])
    solution, kernel = solve_gf2(masks, target)
    best = solution
    for choice in product((0, 1), repeat=len(kernel)):
        candidate = solution
        for use, vector in zip(choice, kernel, strict=True):
            candidate ^= vector if use else 0
        if candidate.bit_count() < best.bit_count():
            best = candidate
    return [char for i, char in enumerate(letters) if best >> i & 1]


def display_point(game: Any, cell: Cell) -> tuple[int, int]:
    """Display (x, y) at the centre of a tile cell, from the camera's size and letterbox."""
    width, height = game.camera.width, game.camera.height
    scale = min(64 // width, 64 // height)
    x_off, y_off = (64 - width * scale) // 2, (64 - height * scale) // 2
    gx, gy = 2 * cell[0] + 1, 2 * cell[1] + 1
    return x_off + gx * scale + scale // 2, y_off + gy * scale + scale // 2


def solve_level(game: Any, level_index: int) -> list[Step]:
    """One click on each group of a minimum solution, in reading order."""
    assert game.level_index == level_index, "game is not at the requested level"
    cells = groups_of(game.layout)
    return [(6, *display_point(game, cells[char][0])) for char in fewest_clicks(game.layout, game.lit)]
