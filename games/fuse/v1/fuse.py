"""Fuse: slide on ice, carry a short-lived spark to the door (an original DreamTeam game)."""

from __future__ import annotations

from typing import Any

import numpy as np
from arcengine import ARCBaseGame, BlockingMode, Camera, Level, Sprite

# Everything a procedural variant may change (dreamteam/env/procgen/fuse.py writes this block).
# "moves" maps ACTION1-4 to their (dx, dy) step.
# Map legend: '#' wall, '.' ice, 'P' player, 'S' spark, 'D' door. "fuse": actions a carried spark lasts.
# "indicator" is the wall cell (x, y) that lights up in the spark colour while a spark is carried;
# negative coordinates count from the right / bottom edge (-1 is the last column / row).
# --- variant data: generated, do not edit ---
VARIANT = {
    "palette": {"floor": 5, "wall": 3, "door": 15, "spark": 11, "player": 9},
    "indicator": [0, 0],
    "moves": {"ACTION1": [0, -1], "ACTION2": [0, 1], "ACTION3": [-1, 0], "ACTION4": [1, 0]},
    "levels": [
        {
            "fuse": 9,
            "map": [
                "########",
                "#P....S#",
                "#......#",
                "#......#",
                "#......#",
                "#......#",
                "#.....D#",
                "########",
            ],
        },
        {
            "fuse": 6,
            "map": [
                "#########",
                "#..PS...#",
                "#.......#",
                "#.......#",
                "#.......#",
                "#.....#.#",
                "#.#.#...#",
                "#.....#.#",
                "#####D###",
            ],
        },
        {
            "fuse": 4,
            "map": [
                "##########",
                "#........#",
                "#........D",
                "##.......#",
                "#.......##",
                "##....PS.#",
                "#........#",
                "#.....##.#",
                "##.#...#.#",
                "##########",
            ],
        },
        {
            "fuse": 3,
            "map": [
                "###########",
                "#..#......#",
                "#.........#",
                "##...#....#",
                "#....#.#..#",
                "#.........#",
                "#...S.....#",
                "#..#..##..D",
                "#.....#..##",
                "#.#.#...P##",
                "###########",
            ],
        },
        {
            "fuse": 3,
            "map": [
                "############",
                "#..........#",
                "#.#...#....#",
                "##...#..#.##",
                "#...S.###..#",
                "#.##.....P##",
                "#..#...#...#",
                "###........#",
                "#...#..###.#",
                "#...#......#",
                "#........#.#",
                "#D##########",
            ],
        },
    ],
}
# --- end of variant data ---

FLOOR: int = VARIANT["palette"]["floor"]
WALL: int = VARIANT["palette"]["wall"]
DOOR: int = VARIANT["palette"]["door"]
SPARK: int = VARIANT["palette"]["spark"]  # the spark on the ice, and the carry indicator
PLAYER: int = VARIANT["palette"]["player"]
INDICATOR_CELL: tuple[int, int] = (int(VARIANT["indicator"][0]), int(VARIANT["indicator"][1]))
MOVES: dict[int, tuple[int, int]] = {
    int(name.removeprefix("ACTION")): (int(dx), int(dy)) for name, (dx, dy) in VARIANT["moves"].items()
}
LEVELS: tuple[dict[str, Any], ...] = tuple(VARIANT["levels"])


def _cells_of(rows: tuple[str, ...], letter: str) -> set[tuple[int, int]]:
    """All (x, y) cells of a map marked with `letter`."""
    return {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == letter}


def _build_level(index: int, spec: dict[str, Any]) -> Level:
    """One level: a single board sprite redrawn from the game's state after every animation frame."""
    width, height = len(spec["map"][0]), len(spec["map"])
    board = Sprite(
        np.full((height, width), FLOOR, dtype=np.int8), name="board", blocking=BlockingMode.NOT_BLOCKED
    )
    return Level(sprites=[board], grid_size=(width, height), data={"spec": spec}, name=f"fuse-{index + 1}")


class Fuse(ARCBaseGame):
    """Carry the yellow spark through the purple door. ACTION1-4 push the blue player up/down/left/right.

    The floor is ice: the player slides until the next cell is a wall (one frame per cell travelled).
    Sliding over the spark picks it up: it vanishes and only the top-left corner cell turns yellow.
    The door is solid unless you carry a spark; sliding into it with a spark completes the level.
    A carried spark burns out after a fixed, unseen number of further actions (the level's fuse) and
    reappears where it was found, so you must reach the door quickly once you hold it.
    (Colours, key directions and the indicator cell are v1's; procedural variants change them.)
    """

    walls: set[tuple[int, int]]
    door: tuple[int, int]
    spark_home: tuple[int, int]
    player: tuple[int, int]
    fuse: int
    carrying: bool
    fuse_left: int
    sliding: tuple[int, int] | None
    picked_this_action: bool
    exited: bool

    def __init__(self, seed: int = 0) -> None:
        levels = [_build_level(i, spec) for i, spec in enumerate(LEVELS)]
        camera = Camera(background=FLOOR, letter_box=FLOOR)
        super().__init__(
            game_id="fuse", levels=levels, camera=camera, available_actions=[1, 2, 3, 4], seed=seed
        )

    def on_set_level(self, level: Level) -> None:
        """Parse the level map into the game's state, then draw."""
        spec = level.get_data("spec")
        rows = spec["map"]
        self.walls = _cells_of(rows, "#")
        self.door = next(iter(_cells_of(rows, "D")))
        self.spark_home = next(iter(_cells_of(rows, "S")))
        self.player = next(iter(_cells_of(rows, "P")))
        self.fuse = int(spec["fuse"])
        self.carrying, self.fuse_left = False, 0
        self.sliding, self.picked_this_action, self.exited = None, False, False
        self._draw()

    def is_open(self, cell: tuple[int, int]) -> bool:
        """Whether the player may enter `cell` right now (the door only admits a spark carrier)."""
        return cell not in self.walls and (cell != self.door or self.carrying)

    def step(self) -> None:
        """One animation frame: start the slide on the first frame, move one cell per frame, then settle."""
        if self.sliding is None:
            self.sliding = MOVES.get(self.action.id.value)
            self.picked_this_action = False
        if self.sliding is None or not self._slide_one_cell():
            self._settle()
        self._draw()

    def _slide_one_cell(self) -> bool:
        """Advance one cell if possible; return whether the slide goes on after this frame."""
        dx, dy = self.sliding or (0, 0)
        target = (self.player[0] + dx, self.player[1] + dy)
        if not self.is_open(target):
            return False
        self.player = target
        if target == self.spark_home and not self.carrying:
            self.carrying, self.fuse_left, self.picked_this_action = True, self.fuse, True
        if target == self.door:
            self.exited = True
            return False
        return self.is_open((target[0] + dx, target[1] + dy))

    def _settle(self) -> None:
        """End of the action: leave through the door, or let a carried spark burn one action shorter."""
        self.sliding = None
        if self.exited:
            self.next_level()
        elif self.carrying and not self.picked_this_action:
            self.fuse_left -= 1
            if self.fuse_left <= 0:
                self.carrying = False
        self.complete_action()

    def _draw(self) -> None:
        """Paint walls, door, spark, player and the carry indicator onto the board sprite."""
        board = self.current_level.get_sprites_by_name("board")[0]
        pixels = np.full(board.pixels.shape, FLOOR, dtype=np.int8)
        for x, y in self.walls:
            pixels[y, x] = WALL
        pixels[self.door[1], self.door[0]] = DOOR
        if not self.carrying:
            pixels[self.spark_home[1], self.spark_home[0]] = SPARK
        pixels[self.player[1], self.player[0]] = PLAYER
        pixels[INDICATOR_CELL[1], INDICATOR_CELL[0]] = SPARK if self.carrying else WALL
        board.pixels = pixels
