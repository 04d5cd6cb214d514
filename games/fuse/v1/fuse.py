"""Fuse: slide on ice, carry a short-lived spark to the door (an original DreamTeam game)."""

from __future__ import annotations

from typing import Any

import numpy as np
from arcengine import ARCBaseGame, BlockingMode, Camera, Level, Sprite

FLOOR = 5  # black ice
WALL = 3  # grey
DOOR = 15  # purple
SPARK = 11  # yellow: the spark on the ice, and the carry indicator
PLAYER = 9  # blue
INDICATOR_CELL = (0, 0)  # the top-left wall cell lights up while a spark is carried

MOVES: dict[int, tuple[int, int]] = {1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}

# Map legend: '#' wall, '.' ice, 'P' player, 'S' spark, 'D' door. "fuse": actions a carried spark lasts.
LEVELS: tuple[dict[str, Any], ...] = (
    {
        "fuse": 9,
        "map": (
            "########",
            "#P....S#",
            "#......#",
            "#......#",
            "#......#",
            "#......#",
            "#.....D#",
            "########",
        ),
    },
    {
        "fuse": 6,
        "map": (
            "#########",
            "#..PS...#",
            "#.......#",
            "#.......#",
            "#.......#",
            "#.....#.#",
            "#.#.#...#",
            "#.....#.#",
            "#####D###",
        ),
    },
    {
        "fuse": 4,
        "map": (
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
        ),
    },
    {
        "fuse": 3,
        "map": (
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
        ),
    },
    {
        "fuse": 3,
        "map": (
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
        ),
    },
)


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
