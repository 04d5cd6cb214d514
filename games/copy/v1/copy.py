"""Copy: click canvas cells until the canvas reproduces the target pattern (an original DreamTeam game)."""

from __future__ import annotations

from typing import Any

import numpy as np
from arcengine import ARCBaseGame, BlockingMode, Camera, GameAction, Level, Sprite

# Everything a procedural variant may change (dreamteam/env/procgen/copy.py writes this block).
# "cycle": the colours a click steps through, cycle[0] being the empty colour; level digits index into it and
# "colours" is how many cycle entries that level uses. "step": +1 walks the cycle forward, -1 backward.
# "layout": where the target panel sits relative to the canvas (target-left, canvas-left, target-top,
# canvas-top). A level's optional "pattern" lists the (dx, dy) canvas offsets one click changes.
# --- variant data: generated, do not edit ---
VARIANT = {
    "palette": {"background": 5, "cycle": [0, 9, 8, 11, 14]},
    "layout": "target-left",
    "step": 1,
    "levels": [
        {
            "colours": 2,
            "target": [
                "010",
                "111",
                "010",
            ],
            "canvas": [
                "000",
                "000",
                "000",
            ],
        },
        {
            "colours": 2,
            "target": [
                "1001",
                "0110",
                "0110",
                "1001",
            ],
            "canvas": [
                "1100",
                "0100",
                "0010",
                "0011",
            ],
        },
        {
            "colours": 3,
            "target": [
                "1221",
                "2002",
                "2002",
                "1221",
            ],
            "canvas": [
                "0000",
                "0110",
                "0220",
                "0000",
            ],
        },
        {
            "colours": 4,
            "target": [
                "12321",
                "23032",
                "30003",
                "23032",
                "12321",
            ],
            "canvas": [
                "11111",
                "00000",
                "22222",
                "00000",
                "33333",
            ],
        },
        {
            "colours": 5,
            "target": [
                "443344",
                "410014",
                "302203",
                "302203",
                "410014",
                "443344",
            ],
            "canvas": [
                "123412",
                "000000",
                "000000",
                "000000",
                "000000",
                "214321",
            ],
        },
    ],
}
# --- end of variant data ---

BACKGROUND: int = VARIANT["palette"]["background"]  # the gaps around the two panels
PALETTE: tuple[int, ...] = tuple(VARIANT["palette"]["cycle"])  # click cycle order
LAYOUT: str = VARIANT["layout"]
STEP: int = int(VARIANT["step"])
LEVELS: tuple[dict[str, Any], ...] = tuple(VARIANT["levels"])
SINGLE_CELL: tuple[tuple[int, int], ...] = ((0, 0),)


def _digits(rows: tuple[str, ...]) -> np.ndarray:
    """Parse rows of palette-index digits into a square int array."""
    return np.array([[int(ch) for ch in row] for row in rows], dtype=np.int8)


def _is_vertical() -> bool:
    """Whether the two panels are stacked (target-top, canvas-top) rather than side by side."""
    return LAYOUT in ("target-top", "canvas-top")


def board_size(pattern_size: int) -> tuple[int, int]:
    """Logical grid (width, height): two panels with a gap between them and the palette strip beside the canvas."""
    if _is_vertical():
        return pattern_size + 4, 2 * pattern_size + 3
    return 2 * pattern_size + 3, pattern_size + 4


def panel_origins(pattern_size: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Grid (x, y) of the target's and the canvas's top-left cells for the variant's layout."""
    first, second = (1, 1), ((1, pattern_size + 2) if _is_vertical() else (pattern_size + 2, 1))
    return (first, second) if LAYOUT in ("target-left", "target-top") else (second, first)


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
    (All of this is v1's; procedural variants change the colours, the panel layout, the cycle
    direction and which neighbouring cells one click changes, see VARIANT.)
    """

    target: np.ndarray
    canvas: np.ndarray
    colours: int
    click_pattern: tuple[tuple[int, int], ...]

    def __init__(self, seed: int = 0) -> None:
        levels = [_build_level(i, spec) for i, spec in enumerate(LEVELS)]
        camera = Camera(background=BACKGROUND, letter_box=BACKGROUND)
        super().__init__(game_id="copy", levels=levels, camera=camera, available_actions=[6], seed=seed)

    def on_set_level(self, level: Level) -> None:
        """Load the level's target, starting canvas, colour-cycle length and click pattern, then draw."""
        spec = level.get_data("spec")
        self.target = _digits(spec["target"])
        self.canvas = _digits(spec["canvas"])
        self.colours = int(spec["colours"])
        self.click_pattern = tuple((int(dx), int(dy)) for dx, dy in spec.get("pattern", SINGLE_CELL))
        self._draw()

    @property
    def pattern_size(self) -> int:
        """Side length of the (square) target and canvas."""
        return int(self.target.shape[0])

    def target_origin(self) -> tuple[int, int]:
        """Grid (x, y) of the target panel's top-left cell."""
        return panel_origins(self.pattern_size)[0]

    def canvas_origin(self) -> tuple[int, int]:
        """Grid (x, y) of the canvas panel's top-left cell."""
        return panel_origins(self.pattern_size)[1]

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
        """Resolve one click: cycle the clicked canvas cells, then check for a match."""
        if self.action.id == GameAction.ACTION6:
            cell = self.canvas_cell_at(int(self.action.data.get("x", -1)), int(self.action.data.get("y", -1)))
            if cell is not None:
                self._click(*cell)
        self._draw()
        if np.array_equal(self.canvas, self.target):
            self.next_level()
        self.complete_action()

    def _click(self, col: int, row: int) -> None:
        """Step every canvas cell of the click pattern around (col, row) along the colour cycle."""
        n = self.pattern_size
        for dx, dy in self.click_pattern:
            c, r = col + dx, row + dy
            if 0 <= c < n and 0 <= r < n:
                self.canvas[r, c] = (int(self.canvas[r, c]) + STEP) % self.colours

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
        if _is_vertical():
            pixels[cy : cy + self.colours, cx + n + 1] = lookup[: self.colours]
        else:
            pixels[cy + n + 1, cx : cx + self.colours] = lookup[: self.colours]
        self.current_level.get_sprites_by_name("board")[0].pixels = pixels
