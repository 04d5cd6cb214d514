"""Maze: walk from the start to the exit before the move budget runs out."""

from __future__ import annotations

import numpy as np
from arcengine import ARCBaseGame, Camera, GameAction, Level, Sprite

# Everything a procedural variant may change (dreamteam/env/procgen/maze.py writes this block):
# palette: colour of each object kind; moves: the (dx, dy) step of each action;
# levels: rows ("#" wall, "." floor, "P" start, "E" exit) and move budget of each level.
# --- variant data: generated, do not edit ---
VARIANT = {
    "palette": {"floor": 5, "wall": 3, "player": 9, "exit": 14, "bar": 11},
    "moves": {"ACTION1": [0, -1], "ACTION2": [0, 1], "ACTION3": [-1, 0], "ACTION4": [1, 0]},
    "levels": [
        {
            "rows": [
                "#######",
                "#E....#",
                "#####.#",
                "#.....#",
                "#.#####",
                "#....P#",
                "#######",
            ],
            "budget": 24,
        },
        {
            "rows": [
                "#########",
                "#P#....E#",
                "#.#.#####",
                "#.#.#...#",
                "#.#.#.#.#",
                "#.#...#.#",
                "#.#####.#",
                "#.......#",
                "#########",
            ],
            "budget": 36,
        },
        {
            "rows": [
                "###########",
                "#E..#.....#",
                "###.#.#.#.#",
                "#P#.#.#...#",
                "#.#.###.#.#",
                "#.#.....#.#",
                "#.#######.#",
                "#.#.....#.#",
                "#.#.###.#.#",
                "#.....#...#",
                "###########",
            ],
            "budget": 42,
        },
        {
            "rows": [
                "#############",
                "#.#.......#.#",
                "#.#.#.#.#.#.#",
                "#.....#.....#",
                "#######.###.#",
                "#.....#.#...#",
                "#.###.#.#.###",
                "#.#.#...#.#.#",
                "#.#.#####.#.#",
                "#.#....P#...#",
                "#.#.#######.#",
                "#E#.........#",
                "#############",
            ],
            "budget": 51,
        },
        {
            "rows": [
                "###############",
                "#.........#...#",
                "#######.#.#.#.#",
                "#...........#.#",
                "#.###.#########",
                "#.#.....#.....#",
                "#.#.###.#.###.#",
                "#...#.#.....#.#",
                "#.###.#######.#",
                "#.......#...#.#",
                "#######.#.#.#.#",
                "#.....#.#.#...#",
                "#.#.#.#.#.#####",
                "#P..#...#....E#",
                "###############",
            ],
            "budget": 62,
        },
        {
            "rows": [
                "###############",
                "#.............#",
                "###.#.###.#.###",
                "#.........#...#",
                "#.#######.###.#",
                "#...#.....#...#",
                "###.#.###.#.###",
                "#...#...#.....#",
                "#.#####.#.###.#",
                "#.#...#.....#.#",
                "#.#.#.#.#####.#",
                "#.#.#P#.......#",
                "#.#.#####.#.#.#",
                "#E#.........#.#",
                "###############",
            ],
            "budget": 50,
        },
    ],
}
# --- end of variant data ---

PALETTE: dict[str, int] = VARIANT["palette"]
FLOOR = PALETTE["floor"]  # background, floor and spent budget
WALL = PALETTE["wall"]
PLAYER = PALETTE["player"]
EXIT = PALETTE["exit"]
BAR = PALETTE["bar"]  # one cell per move left

MOVES: dict[GameAction, tuple[int, int]] = {
    GameAction[name]: (dx, dy) for name, (dx, dy) in VARIANT["moves"].items()
}

LEVELS: list[tuple[list[str], int]] = [(level["rows"], level["budget"]) for level in VARIANT["levels"]]


def find_cell(rows: list[str], char: str) -> tuple[int, int]:
    """Return the (x, y) of the first cell holding `char`."""
    for y, row in enumerate(rows):
        if char in row:
            return row.index(char), y
    raise ValueError(f"no {char!r} in level")


def bar_rows(budget: int, width: int) -> int:
    """Number of HUD rows the budget bar needs at this maze width."""
    return -(-budget // width)


def bar_pixels(remaining: int, budget: int, width: int) -> np.ndarray:
    """HUD pixels: `remaining` bar-coloured cells in reading order, spent cells transparent."""
    cells = np.full(bar_rows(budget, width) * width, -1, dtype=np.int8)
    cells[:remaining] = BAR
    return cells.reshape(-1, width)


def build_level(index: int, rows: list[str], budget: int) -> Level:
    """Build the sprites of one maze level plus its budget bar below the maze."""
    width, height = len(rows[0]), len(rows)
    walls = np.array([[WALL if c == "#" else -1 for c in row] for row in rows], dtype=np.int8)
    px, py = find_cell(rows, "P")
    ex, ey = find_cell(rows, "E")
    sprites = [
        Sprite(walls, name="walls", x=0, y=0, layer=0, tags=["wall"]),
        Sprite([[EXIT]], name="exit", x=ex, y=ey, layer=1, collidable=False, tags=["exit"]),
        Sprite([[PLAYER]], name="player", x=px, y=py, layer=2, tags=["player"]),
        Sprite(bar_pixels(budget, budget, width), name="bar", x=0, y=height, layer=0, tags=["hud"]),
    ]
    size = (width, height + bar_rows(budget, width))
    return Level(sprites=sprites, grid_size=size, data={"rows": rows, "budget": budget}, name=f"maze-{index}")


class Maze(ARCBaseGame):
    """Walk the player square through the walled maze to the exit square.

    ACTION1-4 each move the player one cell (v1: up, down, left, right; v1 colours: blue player,
    grey walls, green exit, yellow bar; generated variants permute the directions and recolour
    every kind); walking into a wall does nothing.
    Every move costs one unit of the bar under the maze (one cell per move left).
    Reaching the exit completes the level; using the last unit anywhere else is GAME_OVER.
    Mazes grow and the budget gets tighter with each level (the last has no slack at all).
    """

    def __init__(self, seed: int = 0) -> None:
        self.rows: list[str] = []
        self.budget = 0
        self.remaining = 0
        levels = [build_level(i, rows, budget) for i, (rows, budget) in enumerate(LEVELS)]
        super().__init__(
            game_id="maze",
            levels=levels,
            camera=Camera(background=FLOOR, letter_box=FLOOR),
            available_actions=[1, 2, 3, 4],
            seed=seed,
        )

    def on_set_level(self, level: Level) -> None:
        """Read the layout and reset the budget when a level starts or restarts."""
        self.rows = list(level.get_data("rows"))
        self.budget = int(level.get_data("budget"))
        self.remaining = self.budget

    @property
    def player(self) -> Sprite:
        """The player's sprite."""
        return self.current_level.get_sprites_by_name("player")[0]

    @property
    def exit_cell(self) -> tuple[int, int]:
        """The (x, y) of the exit."""
        return find_cell(self.rows, "E")

    def is_wall(self, x: int, y: int) -> bool:
        """Whether maze cell (x, y) is a wall (outside the maze counts as wall)."""
        inside = 0 <= y < len(self.rows) and 0 <= x < len(self.rows[0])
        return not inside or self.rows[y][x] == "#"

    def step(self) -> None:
        """Resolve one action: a move costs one budget unit unless a wall blocks it."""
        move = MOVES.get(self.action.id)
        if move is not None:
            self._move(*move)
        self.complete_action()

    def _move(self, dx: int, dy: int) -> None:
        player = self.player
        x, y = player.x + dx, player.y + dy
        if self.is_wall(x, y):
            return
        player.set_position(x, y)
        self.remaining -= 1
        bar = self.current_level.get_sprites_by_name("bar")[0]
        bar.pixels = bar_pixels(self.remaining, self.budget, len(self.rows[0]))
        if (x, y) == self.exit_cell:
            self.next_level()
        elif self.remaining <= 0:
            self.lose()
