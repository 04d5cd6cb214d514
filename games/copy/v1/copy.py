"""Copy: click canvas cells until the canvas reproduces the target pattern (an original DreamTeam game)."""

from __future__ import annotations

from typing import Any

import numpy as np
from arcengine import ARCBaseGame, BlockingMode, Camera, GameAction, Level, Sprite

BACKGROUND = 5  # black gaps around the two panels
PALETTE = (0, 9, 8, 11, 14)  # click cycle order: white (empty), blue, red, yellow, green

# Digits are indices into PALETTE; "colours" is how many palette entries a click cycles through.
LEVELS: tuple[dict[str, Any], ...] = (
    {"colours": 2, "target": ("010", "111", "010"), "canvas": ("000", "000", "000")},
    {
        "colours": 2,
        "target": ("1001", "0110", "0110", "1001"),
        "canvas": ("1100", "0100", "0010", "0011"),
    },
    {
        "colours": 3,
        "target": ("1221", "2002", "2002", "1221"),
        "canvas": ("0000", "0110", "0220", "0000"),
    },
    {
        "colours": 4,
        "target": ("12321", "23032", "30003", "23032", "12321"),
        "canvas": ("11111", "00000", "22222", "00000", "33333"),
    },
    {
        "colours": 5,
        "target": ("443344", "410014", "302203", "302203", "410014", "443344"),
        "canvas": ("123412", "000000", "000000", "000000", "000000", "214321"),
    },
)


def _digits(rows: tuple[str, ...]) -> np.ndarray:
    """Parse rows of palette-index digits into a square int array."""
    return np.array([[int(ch) for ch in row] for row in rows], dtype=np.int8)


def board_size(pattern_size: int) -> tuple[int, int]:
    """Logical grid (width, height): target | gap | canvas side by side, palette strip below the canvas."""
    return 2 * pattern_size + 3, pattern_size + 4


def _build_level(index: int, spec: dict[str, Any]) -> Level:
    """One level: a single board sprite redrawn from the game's state after every action."""
    width, height = board_size(len(spec["target"]))
    board = Sprite(
        np.full((height, width), BACKGROUND, dtype=np.int8), name="board", blocking=BlockingMode.NOT_BLOCKED
    )
    return Level(sprites=[board], grid_size=(width, height), data={"spec": spec}, name=f"copy-{index + 1}")


class Copy(ARCBaseGame):
    """Copy the pattern. The left panel is the target; the right panel is your canvas.

    ACTION6 (click) on a canvas cell advances its colour one step along the palette cycle
    shown in the strip under the canvas (white -> blue -> red -> ... -> back to white).
    Clicks anywhere else do nothing. The level is complete when the canvas equals the target.
    Later levels use bigger patterns, longer colour cycles and canvases that start half-painted.
    """

    target: np.ndarray
    canvas: np.ndarray
    colours: int

    def __init__(self, seed: int = 0) -> None:
        levels = [_build_level(i, spec) for i, spec in enumerate(LEVELS)]
        camera = Camera(background=BACKGROUND, letter_box=BACKGROUND)
        super().__init__(game_id="copy", levels=levels, camera=camera, available_actions=[6], seed=seed)

    def on_set_level(self, level: Level) -> None:
        """Load the level's target, starting canvas and colour-cycle length, then draw."""
        spec = level.get_data("spec")
        self.target = _digits(spec["target"])
        self.canvas = _digits(spec["canvas"])
        self.colours = int(spec["colours"])
        self._draw()

    @property
    def pattern_size(self) -> int:
        """Side length of the (square) target and canvas."""
        return int(self.target.shape[0])

    def target_origin(self) -> tuple[int, int]:
        """Grid (x, y) of the target panel's top-left cell."""
        return 1, 1

    def canvas_origin(self) -> tuple[int, int]:
        """Grid (x, y) of the canvas panel's top-left cell."""
        return self.pattern_size + 2, 1

    def canvas_cell_at(self, display_x: int, display_y: int) -> tuple[int, int] | None:
        """The canvas cell (col, row) under a 64x64 display point, or None when outside the canvas."""
        grid_point = self.camera.display_to_grid(display_x, display_y)
        if grid_point is None:
            return None
        ox, oy = self.canvas_origin()
        col, row = grid_point[0] - ox, grid_point[1] - oy
        if 0 <= col < self.pattern_size and 0 <= row < self.pattern_size:
            return col, row
        return None

    def step(self) -> None:
        """Resolve one click: cycle the clicked canvas cell, then check for a match."""
        if self.action.id == GameAction.ACTION6:
            cell = self.canvas_cell_at(int(self.action.data.get("x", -1)), int(self.action.data.get("y", -1)))
            if cell is not None:
                col, row = cell
                self.canvas[row, col] = (int(self.canvas[row, col]) + 1) % self.colours
        self._draw()
        if np.array_equal(self.canvas, self.target):
            self.next_level()
        self.complete_action()

    def _draw(self) -> None:
        """Paint target, canvas and the palette strip onto the board sprite."""
        width, height = board_size(self.pattern_size)
        pixels = np.full((height, width), BACKGROUND, dtype=np.int8)
        lookup = np.array(PALETTE, dtype=np.int8)
        n = self.pattern_size
        tx, ty = self.target_origin()
        cx, cy = self.canvas_origin()
        pixels[ty : ty + n, tx : tx + n] = lookup[self.target]
        pixels[cy : cy + n, cx : cx + n] = lookup[self.canvas]
        pixels[cy + n + 1, cx : cx + self.colours] = lookup[: self.colours]
        self.current_level.get_sprites_by_name("board")[0].pixels = pixels
