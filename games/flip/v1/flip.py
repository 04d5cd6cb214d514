"""Flip: click tiles to toggle them and their neighbours until every tile is lit."""

from __future__ import annotations

import numpy as np
from arcengine import ARCBaseGame, Camera, GameAction, Level, Sprite

# Everything a procedural variant may change (dreamteam/env/procgen/flip.py writes this block):
# palette: colour of the background and of off and on tiles; click: the (dx, dy) cell offsets whose
# tiles a click flips and whether the clicked tile flips too; levels: a layout where every letter is
# one tile group (cells with the same letter form one tile, "." is a hole) and the clicks that
# scramble the all-lit board into the start position.
# --- variant data: generated, do not edit ---
VARIANT = {
    "palette": {"background": 5, "off": 3, "on": 11},
    "click": {"offsets": [[1, 0], [-1, 0], [0, 1], [0, -1]], "flip_self": True},
    "levels": [
        {
            "layout": [
                "abc",
                "def",
                "ghi",
            ],
            "scramble": "e",
        },
        {
            "layout": [
                "abc",
                "def",
                "ghi",
            ],
            "scramble": "acg",
        },
        {
            "layout": [
                "abcd",
                "efgh",
                "ijkl",
                "mnop",
            ],
            "scramble": "bgkp",
        },
        {
            "layout": [
                "abcde",
                "fghij",
                "klmno",
                "pqrst",
                "uvwxy",
            ],
            "scramble": "bdhlnrvx",
        },
        {
            "layout": [
                "aabcc",
                "d.e.f",
                "gghii",
                "j.k.l",
                "mmnoo",
            ],
            "scramble": "cdgiln",
        },
        {
            "layout": [
                "abccde",
                "fgh.de",
                "fijklm",
                "nijkop",
                "q.rsop",
                "qtrsuv",
            ],
            "scramble": "adgjmrt",
        },
    ],
}
# --- end of variant data ---

PALETTE: dict[str, int] = VARIANT["palette"]
BACKGROUND = PALETTE["background"]  # gaps between tiles and holes
OFF = PALETTE["off"]
ON = PALETTE["on"]
CLICK_OFFSETS: list[tuple[int, int]] = [(dx, dy) for dx, dy in VARIANT["click"]["offsets"]]
FLIP_SELF: bool = VARIANT["click"]["flip_self"]

Cell = tuple[int, int]

LEVELS: list[tuple[list[str], str]] = [(level["layout"], level["scramble"]) for level in VARIANT["levels"]]


def tile_groups(layout: list[str]) -> dict[str, list[Cell]]:
    """Cells (x, y) of every tile group, keyed by its letter in reading order."""
    groups: dict[str, list[Cell]] = {}
    for y, row in enumerate(layout):
        for x, char in enumerate(row):
            if char != ".":
                groups.setdefault(char, []).append((x, y))
    return groups


def neighbours(layout: list[str]) -> dict[str, set[str]]:
    """Letters of the other groups a click on each group reaches (a cell at a CLICK_OFFSETS offset)."""
    out: dict[str, set[str]] = {char: set() for char in tile_groups(layout)}
    for char, cells in tile_groups(layout).items():
        for x, y in cells:
            for nx, ny in ((x + dx, y + dy) for dx, dy in CLICK_OFFSETS):
                if 0 <= ny < len(layout) and 0 <= nx < len(layout[0]) and layout[ny][nx] not in (".", char):
                    out[char].add(layout[ny][nx])
    return out


def toggled(lit: dict[str, bool], layout: list[str], clicked: str) -> dict[str, bool]:
    """The lit state after clicking group `clicked`: its neighbours flip, and itself if FLIP_SELF."""
    flips = neighbours(layout)[clicked] | ({clicked} if FLIP_SELF else set())
    return {char: on != (char in flips) for char, on in lit.items()}


def start_state(layout: list[str], scramble: str) -> dict[str, bool]:
    """All tiles lit, then the scramble clicks applied."""
    lit = dict.fromkeys(tile_groups(layout), True)
    for clicked in scramble:
        lit = toggled(lit, layout, clicked)
    return lit


def pixel_owner(layout: list[str]) -> dict[Cell, str]:
    """Grid pixel -> group letter: tile cells sit at odd coordinates, bridges join cells of one group."""
    owner: dict[Cell, str] = {}
    for char, cells in tile_groups(layout).items():
        members = set(cells)
        for x, y in cells:
            owner[(2 * x + 1, 2 * y + 1)] = char
            if (x + 1, y) in members:
                owner[(2 * x + 2, 2 * y + 1)] = char
            if (x, y + 1) in members:
                owner[(2 * x + 1, 2 * y + 2)] = char
            if {(x + 1, y), (x, y + 1), (x + 1, y + 1)} <= members:
                owner[(2 * x + 2, 2 * y + 2)] = char
    return owner


def board_pixels(layout: list[str], lit: dict[str, bool]) -> np.ndarray:
    """Pixels of every tile group in its colour; gaps and holes transparent."""
    out = np.full((2 * len(layout) + 1, 2 * len(layout[0]) + 1), -1, dtype=np.int8)
    for (x, y), char in pixel_owner(layout).items():
        out[y, x] = ON if lit[char] else OFF
    return out


def build_level(index: int, layout: list[str], scramble: str) -> Level:
    """Build the board sprite of one level in its scrambled start state."""
    pixels = board_pixels(layout, start_state(layout, scramble))
    board = Sprite(pixels, name="board", x=0, y=0, layer=0, tags=["board", "sys_click"])
    size = (pixels.shape[1], pixels.shape[0])
    return Level(
        sprites=[board], grid_size=size, data={"layout": layout, "scramble": scramble}, name=f"flip-{index}"
    )


class Flip(ARCBaseGame):
    """Light every tile: clicking a tile flips it and the tiles around it.

    ACTION6 at (x, y) clicks the tile under that point: a fixed pattern of tiles (v1: the clicked
    tile and each tile that shares an edge with it) switch between off (v1: grey) and on (v1:
    yellow). Clicking a gap or a hole does nothing. The level is complete when every tile is on.
    Boards grow (v1: from 3x3 to 6x6); later boards have holes and tiles that span several cells (a bigger tile has more neighbours). Generated
    variants recolour background, off and on, and change which cells around the clicked tile flip
    (e.g. diagonal or all eight neighbours, with or without the clicked tile itself).
    """

    def __init__(self, seed: int = 0) -> None:
        self.layout: list[str] = []
        self.lit: dict[str, bool] = {}
        self.owner: dict[Cell, str] = {}
        levels = [build_level(i, layout, scramble) for i, (layout, scramble) in enumerate(LEVELS)]
        super().__init__(
            game_id="flip",
            levels=levels,
            camera=Camera(background=BACKGROUND, letter_box=BACKGROUND),
            available_actions=[6],
            seed=seed,
        )

    def on_set_level(self, level: Level) -> None:
        """Rebuild the tile state from the level's layout and scramble."""
        self.layout = list(level.get_data("layout"))
        self.lit = start_state(self.layout, level.get_data("scramble"))
        self.owner = pixel_owner(self.layout)

    def group_at(self, display_x: int, display_y: int) -> str | None:
        """Letter of the tile group under display point (x, y), or None for a gap, hole or margin."""
        cell = self.camera.display_to_grid(display_x, display_y)
        return None if cell is None else self.owner.get(cell)

    def step(self) -> None:
        """Resolve one click: flip the clicked tile and its neighbours, then check for a full board."""
        if self.action.id == GameAction.ACTION6:
            clicked = self.group_at(int(self.action.data.get("x", -1)), int(self.action.data.get("y", -1)))
            if clicked is not None:
                self.lit = toggled(self.lit, self.layout, clicked)
                board = self.current_level.get_sprites_by_name("board")[0]
                board.pixels = board_pixels(self.layout, self.lit)
                if all(self.lit.values()):
                    self.next_level()
        self.complete_action()
