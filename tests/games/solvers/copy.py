"""Reference solver for `copy`: click each canvas cell forward along the colour cycle to its target colour."""

from __future__ import annotations

from typing import Any

Step = tuple[int, int | None, int | None]


def display_point(game: Any, grid_x: int, grid_y: int) -> tuple[int, int]:
    """Centre of a grid cell in 64x64 display coordinates, from the game's camera geometry."""
    scale, x_offset, y_offset = game.camera._calculate_scale_and_offset()
    return x_offset + grid_x * scale + scale // 2, y_offset + grid_y * scale + scale // 2


def solve_level(game: Any, level_index: int) -> list[Step]:
    """Fewest clicks: each cell needs (target - current) mod cycle-length clicks, cells are independent."""
    ox, oy = game.canvas_origin()
    steps: list[Step] = []
    for row in range(game.pattern_size):
        for col in range(game.pattern_size):
            clicks = (int(game.target[row, col]) - int(game.canvas[row, col])) % game.colours
            x, y = display_point(game, ox + col, oy + row)
            steps.extend([(6, x, y)] * clicks)
    return steps
